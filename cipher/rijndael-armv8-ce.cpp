/* rijndael-armv8-ce.cpp - AES (FIPS-197) with the ARMv8 Cryptography
 * Extensions (FEAT_AES: AESE, AESD, AESMC, AESIMC), arm64 only.
 *
 * Only called when hwf has arm-neon and arm-aes.  Built with
 * -march=armv8-a+crypto; arm_neon.h intrinsics, no assembler.
 *
 *  - AESE (Arm ARM, "AESE") is AddRoundKey, SubBytes, ShiftRows on the
 *    bytes of the state in FIPS-197 memory order; AESMC is MixColumns.
 *    So round r (FIPS-197 5.1) is AESE(x, k_(r-1)) then AESMC, and the
 *    cipher ends AESE(x, k_(Nr-1)) ^ k_Nr.  The key schedule is the
 *    constant-time generic expansion (FIPS-197 5.2) in byte form.
 *  - Decryption is the equivalent inverse cipher (FIPS-197 5.3.5) with
 *    AESD/AESIMC on the round keys k_Nr, IMC(k_(Nr-1)) .. IMC(k_1), k_0
 *    (keys.ni.dec, InvMixColumns applied with AESIMC at setkey).
 *  - Parallel modes (ECB, CBC-dec, CFB-dec, CTR, ctr32le, XTS, OCB) run
 *    8 blocks per batch (arm64 has 32 vector registers: 15 round keys,
 *    8 states and the mode's values all stay in registers), then 4, then
 *    single blocks.
 *  - CBC-enc, CFB-enc and OFB are one chain; it is shortened to the AES
 *    instructions alone: AESE's built-in XOR takes the block's input
 *    folded with k_0 and k_Nr off the chain (CBC: P_i ^ k_0 ^ k_Nr on
 *    the state before the last XOR), so no EOR sits between two blocks.
 *  - CCM (and EAX) run the CBC-MAC chain with the CTR block of the same
 *    (next, when decrypting) position beside it, two states per round.
 *  - Counters, tweaks and OCB offsets are built in vector registers from
 *    public values (the counter, the block index); nothing secret indexes
 *    memory or decides a branch.
 * Every bulk call ends by zeroing the SIMD registers and burning its
 * frame (round keys may be spilled there).
 */
#include <config.h>
#include <string.h>
#include <type_traits>
#include "armv8-ce-simd.h"
#include "cipher-ocb.h"
#include "cipher-gcm.h"

namespace {

using namespace armv8_ce;

#define UNROLL ARMV8_UNROLL

/* Burn depth of a kernel whose frame may hold spilled round keys.  */
constexpr unsigned int CE_BURN = 512;

/* The whole cipher on one block.  */
template <unsigned int ROUNDS, bool DECRYPT>
inline __attribute__ ((always_inline)) V
crypt1 (const V *k, V x)
{
  rounds_upto_last<ROUNDS, 1, DECRYPT> (k, &x);
  return veorq_u8 (x, k[ROUNDS]);
}

template <int N>
using lanes_c = std::integral_constant<int, N>;

constexpr int CE_LANES = 8;

/* STEP (lanes_c<N> ()) over NBLOCKS: batches of 8, then one of 4, then
 * single blocks.  */
template <class Step>
inline __attribute__ ((always_inline)) void
run_batches (size_t nblocks, Step &&step)
{
  for (; nblocks >= CE_LANES; nblocks -= CE_LANES)
    step (lanes_c<CE_LANES> ());
  if (nblocks >= 4)
    {
      step (lanes_c<4> ());
      nblocks -= 4;
    }
  for (; nblocks; nblocks--)
    step (lanes_c<1> ());
}

/* ---- Single blocks ------------------------------------------------ */

template <unsigned int ROUNDS, bool DECRYPT>
unsigned int
block_t (const RIJNDAEL_context *ctx, unsigned char *out,
         const unsigned char *in)
{
  round_keys<ROUNDS> rk (ctx, DECRYPT);
  storeu (out, crypt1<ROUNDS, DECRYPT> (rk.k, loadu (in)));
  return 0;
}

template <unsigned int ROUNDS>
unsigned int enc_block_t (const RIJNDAEL_context *c, unsigned char *o,
                          const unsigned char *i)
{ return block_t<ROUNDS, false> (c, o, i); }
template <unsigned int ROUNDS>
unsigned int dec_block_t (const RIJNDAEL_context *c, unsigned char *o,
                          const unsigned char *i)
{ return block_t<ROUNDS, true> (c, o, i); }

/* ---- ECB ---------------------------------------------------------- */

template <unsigned int ROUNDS, bool DECRYPT>
void
ecb_t (const RIJNDAEL_context *ctx, unsigned char *out,
       const unsigned char *in, size_t nblocks)
{
  round_keys<ROUNDS> rk (ctx, DECRYPT);
  run_batches (nblocks, [&] (auto lanes) __attribute__ ((always_inline))
    {
      constexpr int N = decltype (lanes)::value;
      V x[N];
      UNROLL
      for (int i = 0; i < N; i++)
        x[i] = loadu (in + 16 * i);
      rounds_upto_last<ROUNDS, N, DECRYPT> (rk.k, x);
      UNROLL
      for (int i = 0; i < N; i++)
        storeu (out + 16 * i, veorq_u8 (x[i], rk.k[ROUNDS]));
      in += 16 * N;
      out += 16 * N;
    });
}

template <unsigned int ROUNDS>
unsigned int ecb_enc_t (const RIJNDAEL_context *c, unsigned char *o,
                        const unsigned char *i, size_t n)
{ ecb_t<ROUNDS, false> (c, o, i, n); return 0; }
template <unsigned int ROUNDS>
unsigned int ecb_dec_t (const RIJNDAEL_context *c, unsigned char *o,
                        const unsigned char *i, size_t n)
{ ecb_t<ROUNDS, true> (c, o, i, n); return 0; }

unsigned int
ce_ecb_crypt (void *ctx, void *out, const void *in, size_t nblocks,
              int encrypt)
{
  const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;
  unsigned char *o = (unsigned char *)out;
  const unsigned char *i = (const unsigned char *)in;
  if (encrypt)
    RIJNDAEL_DISPATCH (ctx, ecb_enc_t, c, o, i, nblocks);
  else
    RIJNDAEL_DISPATCH (ctx, ecb_dec_t, c, o, i, nblocks);
  clear_vregs ();
  return CE_BURN;
}

/* ---- Serial chains: CBC-enc, CFB-enc, OFB ------------------------- */

/* The chain keeps T_i, the state after the last AESE (C_i = T_i ^ k_Nr
 * for CBC).  Block i+1 starts AESE(T_i, W) with W = k_Nr ^ k_0 ^ (the
 * mode's input), since AESE XORs its key operand first:
 *   CBC: W = k_Nr ^ k_0 ^ P_(i+1)   (C_i ^ P_(i+1) ^ k_0)
 *   CFB: W = k_Nr ^ k_0 ^ P_i       (C_i = T_i ^ k_Nr ^ P_i)
 *   OFB: W = k_Nr ^ k_0             (O_i = T_i ^ k_Nr)
 * W and the outputs are computed beside the chain.  */
template <unsigned int ROUNDS>
inline __attribute__ ((always_inline)) V
chain_rest (const V *k, V x)
{
  x = vaesmcq_u8 (x);
  rounds_upto_last<ROUNDS, 1, false, 1> (k, &x);
  return x;
}

template <unsigned int ROUNDS>
unsigned int
cbc_enc_t (const RIJNDAEL_context *ctx, unsigned char *iv, unsigned char *out,
           const unsigned char *in, size_t nblocks, int cbc_mac)
{
  round_keys<ROUNDS> rk (ctx, false);
  const V *k = rk.k;
  const size_t ostep = cbc_mac ? 0 : 16;
  const V knk0 = veorq_u8 (k[ROUNDS], k[0]);
  /* Block 0: AESE (IV, P_0 ^ k_0).  */
  V t = chain_rest<ROUNDS> (k, vaeseq_u8 (loadu (iv),
                                          veorq_u8 (loadu (in), k[0])));
  for (size_t n = 1; n < nblocks; n++)
    {
      in += 16;
      V w = veorq_u8 (knk0, loadu (in));
      storeu (out, veorq_u8 (t, k[ROUNDS]));
      out += ostep;
      t = chain_rest<ROUNDS> (k, vaeseq_u8 (t, w));
    }
  V c = veorq_u8 (t, k[ROUNDS]);
  storeu (out, c);
  storeu (iv, c);
  return 0;
}

unsigned int
ce_cbc_enc (void *ctx, unsigned char *iv, void *out, const void *in,
            size_t nblocks, int cbc_mac)
{
  if (nblocks)
    RIJNDAEL_DISPATCH (ctx, cbc_enc_t, (const RIJNDAEL_context *)ctx, iv,
                 (unsigned char *)out, (const unsigned char *)in, nblocks,
                 cbc_mac);
  clear_vregs ();
  return CE_BURN;
}

template <unsigned int ROUNDS>
unsigned int
cfb_enc_t (const RIJNDAEL_context *ctx, unsigned char *iv, unsigned char *out,
           const unsigned char *in, size_t nblocks)
{
  round_keys<ROUNDS> rk (ctx, false);
  const V *k = rk.k;
  const V knk0 = veorq_u8 (k[ROUNDS], k[0]);
  /* Block 0: E(IV) = AESE (IV, k_0) ...  */
  V t = chain_rest<ROUNDS> (k, vaeseq_u8 (loadu (iv), k[0]));
  V c = veorq_u8 (t, k[ROUNDS]);
  for (size_t n = 1; n < nblocks; n++)
    {
      V p = loadu (in);
      V w = veorq_u8 (knk0, p);
      storeu (out, veorq_u8 (c, p));
      t = chain_rest<ROUNDS> (k, vaeseq_u8 (t, w));
      c = veorq_u8 (t, k[ROUNDS]);
      in += 16;
      out += 16;
    }
  c = veorq_u8 (c, loadu (in));
  storeu (out, c);
  storeu (iv, c);
  return 0;
}

unsigned int
ce_cfb_enc (void *ctx, unsigned char *iv, void *out, const void *in,
            size_t nblocks)
{
  if (nblocks)
    RIJNDAEL_DISPATCH (ctx, cfb_enc_t, (const RIJNDAEL_context *)ctx, iv,
                 (unsigned char *)out, (const unsigned char *)in, nblocks);
  clear_vregs ();
  return CE_BURN;
}

template <unsigned int ROUNDS>
unsigned int
ofb_t (const RIJNDAEL_context *ctx, unsigned char *iv, unsigned char *out,
       const unsigned char *in, size_t nblocks)
{
  round_keys<ROUNDS> rk (ctx, false);
  const V *k = rk.k;
  const V knk0 = veorq_u8 (k[ROUNDS], k[0]);
  V t = chain_rest<ROUNDS> (k, vaeseq_u8 (loadu (iv), k[0]));
  for (size_t n = 1; n < nblocks; n++)
    {
      storeu (out, xor3 (t, k[ROUNDS], loadu (in)));
      t = chain_rest<ROUNDS> (k, vaeseq_u8 (t, knk0));
      in += 16;
      out += 16;
    }
  V o = veorq_u8 (t, k[ROUNDS]);
  storeu (out, veorq_u8 (o, loadu (in)));
  storeu (iv, o);
  return 0;
}

unsigned int
ce_ofb_enc (void *ctx, unsigned char *iv, void *out, const void *in,
            size_t nblocks)
{
  if (nblocks)
    RIJNDAEL_DISPATCH (ctx, ofb_t, (const RIJNDAEL_context *)ctx, iv,
                 (unsigned char *)out, (const unsigned char *)in, nblocks);
  clear_vregs ();
  return CE_BURN;
}

/* ---- CBC-dec, CFB-dec --------------------------------------------- */

/* CBC: P_i = D(C_i) ^ C_(i-1), the previous ciphertext folded into the
 * last XOR (k_0 of the equivalent inverse cipher); CFB: P_i =
 * E(C_(i-1)) ^ C_i.  Both read the whole batch before writing (in-place
 * calls).  */
template <unsigned int ROUNDS, bool CFB>
void
chain_dec_t (const RIJNDAEL_context *ctx, unsigned char *iv,
             unsigned char *out, const unsigned char *in, size_t nblocks)
{
  round_keys<ROUNDS> rk (ctx, !CFB);
  V prev = loadu (iv);
  run_batches (nblocks, [&] (auto lanes) __attribute__ ((always_inline))
    {
      constexpr int N = decltype (lanes)::value;
      V x[N], c[N];
      UNROLL
      for (int i = 0; i < N; i++)
        {
          c[i] = loadu (in + 16 * i);
          x[i] = CFB ? (i ? c[i - 1] : prev) : c[i];
        }
      rounds_upto_last<ROUNDS, N, !CFB> (rk.k, x);
      UNROLL
      for (int i = 0; i < N; i++)
        storeu (out + 16 * i, xor3 (x[i], rk.k[ROUNDS],
                                    CFB ? c[i] : (i ? c[i - 1] : prev)));
      prev = c[N - 1];
      in += 16 * N;
      out += 16 * N;
    });
  storeu (iv, prev);
}

template <unsigned int ROUNDS>
unsigned int cbc_dec_t (const RIJNDAEL_context *c, unsigned char *iv,
                        unsigned char *o, const unsigned char *i, size_t n)
{ chain_dec_t<ROUNDS, false> (c, iv, o, i, n); return 0; }
template <unsigned int ROUNDS>
unsigned int cfb_dec_t (const RIJNDAEL_context *c, unsigned char *iv,
                        unsigned char *o, const unsigned char *i, size_t n)
{ chain_dec_t<ROUNDS, true> (c, iv, o, i, n); return 0; }

unsigned int
ce_cbc_dec (void *ctx, unsigned char *iv, void *out, const void *in,
            size_t nblocks)
{
  RIJNDAEL_DISPATCH (ctx, cbc_dec_t, (const RIJNDAEL_context *)ctx, iv,
               (unsigned char *)out, (const unsigned char *)in, nblocks);
  clear_vregs ();
  return CE_BURN;
}

unsigned int
ce_cfb_dec (void *ctx, unsigned char *iv, void *out, const void *in,
            size_t nblocks)
{
  RIJNDAEL_DISPATCH (ctx, cfb_dec_t, (const RIJNDAEL_context *)ctx, iv,
               (unsigned char *)out, (const unsigned char *)in, nblocks);
  clear_vregs ();
  return CE_BURN;
}

/* ---- CTR (SP 800-38A 6.5, B.1) and ctr32le (RFC 8452 4) ----------- */

/* Encrypt the N counter blocks X and XOR them into IN.  */
template <unsigned int ROUNDS, int N>
inline __attribute__ ((always_inline)) void
keystream_xor (const V *k, V *x, const unsigned char *in, unsigned char *out)
{
  rounds_upto_last<ROUNDS, N, false> (k, x);
  UNROLL
  for (int i = 0; i < N; i++)
    storeu (out + 16 * i, xor3 (x[i], k[ROUNDS], loadu (in + 16 * i)));
}

/* The 128-bit big-endian counter is held as two 64-bit lanes in host
 * order (lane 0 the high half): VREV64 turns it into the block and
 * back.  Block i of a batch is one 64-bit add to the low lane while it
 * does not wrap (the branch depends on the public counter only);
 * otherwise the carry goes into the high lane.  */
template <unsigned int ROUNDS>
unsigned int
ctr16be_t (const RIJNDAEL_context *ctx, unsigned char *ctr, unsigned char *out,
           const unsigned char *in, size_t nblocks)
{
  round_keys<ROUNDS> rk (ctx, false);
  uint64x2_t c = vreinterpretq_u64_u8 (vrev64q_u8 (loadu (ctr)));
  run_batches (nblocks, [&] (auto lanes) __attribute__ ((always_inline))
    {
      constexpr int N = decltype (lanes)::value;
      V x[N];
      uint64_t lo = vgetq_lane_u64 (c, 1);
      if (__builtin_expect (lo <= ~(uint64_t)0 - N, 1))
        {
          UNROLL
          for (int i = 0; i < N; i++)
            x[i] = vrev64q_u8 (vreinterpretq_u8_u64
                               (vaddq_u64 (c, vcombine_u64
                                              (vcreate_u64 (0),
                                               vcreate_u64 (i)))));
          c = vaddq_u64 (c, vcombine_u64 (vcreate_u64 (0), vcreate_u64 (N)));
        }
      else
        {
          uint64_t hi = vgetq_lane_u64 (c, 0);
          UNROLL
          for (int i = 0; i <= N; i++)
            {
              uint64_t l = lo + (uint64_t)i;
              uint64x2_t v = vcombine_u64 (vcreate_u64 (hi + (l < lo)),
                                           vcreate_u64 (l));
              if (i < N)
                x[i] = vrev64q_u8 (vreinterpretq_u8_u64 (v));
              else
                c = v;
            }
        }
      keystream_xor<ROUNDS, N> (rk.k, x, in, out);
      in += 16 * N;
      out += 16 * N;
    });
  storeu (ctr, vrev64q_u8 (vreinterpretq_u8_u64 (c)));
  return 0;
}

unsigned int
ce_ctr16be_enc (void *ctx, unsigned char *ctr, void *out, const void *in,
                size_t nblocks)
{
  RIJNDAEL_DISPATCH (ctx, ctr16be_t, (const RIJNDAEL_context *)ctx, ctr,
               (unsigned char *)out, (const unsigned char *)in, nblocks);
  clear_vregs ();
  return CE_BURN;
}

/* Bytes 0..3 are a little-endian counter mod 2^32: lane 0 of a 32-bit
 * vector add (arm64 is little-endian).  */
template <unsigned int ROUNDS>
unsigned int
ctr32le_t (const RIJNDAEL_context *ctx, unsigned char *ctr, unsigned char *out,
           const unsigned char *in, size_t nblocks)
{
  round_keys<ROUNDS> rk (ctx, false);
  uint32x4_t c = vreinterpretq_u32_u8 (loadu (ctr));
  run_batches (nblocks, [&] (auto lanes) __attribute__ ((always_inline))
    {
      constexpr int N = decltype (lanes)::value;
      V x[N];
      UNROLL
      for (int i = 0; i < N; i++)
        x[i] = vreinterpretq_u8_u32 (vaddq_u32 (c, vsetq_lane_u32
                                                ((uint32_t)i, vdupq_n_u32 (0),
                                                 0)));
      c = vaddq_u32 (c, vsetq_lane_u32 ((uint32_t)N, vdupq_n_u32 (0), 0));
      keystream_xor<ROUNDS, N> (rk.k, x, in, out);
      in += 16 * N;
      out += 16 * N;
    });
  storeu (ctr, vreinterpretq_u8_u32 (c));
  return 0;
}

unsigned int
ce_ctr32le_enc (void *ctx, unsigned char *ctr, void *out, const void *in,
                size_t nblocks)
{
  RIJNDAEL_DISPATCH (ctx, ctr32le_t, (const RIJNDAEL_context *)ctx, ctr,
               (unsigned char *)out, (const unsigned char *)in, nblocks);
  clear_vregs ();
  return CE_BURN;
}

/* ---- CCM payload (NIST SP 800-38C 6.1, 6.2), also EAX's ------------- */

/* CBC-MAC over the plaintext and CTR (a 128-bit big-endian counter,
 * wrapping at 2^128) interleaved: the MAC chain is serial, so the CTR
 * block of the same position (encryption) or of the next one
 * (decryption, whose MAC input is the plaintext the keystream yields)
 * runs its rounds beside it.  EAX (cipher-eax.cpp) also runs here with
 * its counter N = OMAC^0 (nonce), which is secret: the counter is two
 * 64-bit general registers incremented without a branch (the empty asm
 * keeps the compiler from splitting the loop where the low half wraps),
 * so unlike ctr16be_t nothing depends on its value.  */
template <unsigned int ROUNDS>
inline __attribute__ ((always_inline)) void
enc2_upto_last (const V *k, V &x, V &y)
{
  V s[2] = { x, y };
  rounds_upto_last<ROUNDS, 2, false> (k, s);
  x = s[0];
  y = s[1];
}

template <unsigned int ROUNDS>
unsigned int
ccm_crypt_t (const RIJNDAEL_context *ctx, unsigned char *macp,
             unsigned char *ctrp, unsigned char *out, const unsigned char *in,
             size_t nblocks, int encrypt)
{
  round_keys<ROUNDS> rk (ctx, false);
  const V *k = rk.k;
  const V kl = k[ROUNDS];
  V mac = loadu (macp);
  uint64x2_t cv = vreinterpretq_u64_u8 (vrev64q_u8 (loadu (ctrp)));
  uint64_t hi = vgetq_lane_u64 (cv, 0), lo = vgetq_lane_u64 (cv, 1);
  auto ctr_block = [&] () __attribute__ ((always_inline)) {
    V b = vrev64q_u8 (vreinterpretq_u8_u64
                      (vcombine_u64 (vcreate_u64 (hi), vcreate_u64 (lo))));
    lo++;
    __asm__ ("" : "+r" (lo));
    hi += lo == 0;
    return b;
  };

  if (encrypt)
    for (; nblocks; nblocks--, in += 16, out += 16)
      {
        V p = loadu (in);
        V x = veorq_u8 (mac, p), y = ctr_block ();
        enc2_upto_last<ROUNDS> (k, x, y);
        mac = veorq_u8 (x, kl);
        storeu (out, xor3 (y, kl, p));
      }
  else if (nblocks)
    {
      /* KS: the keystream of the current block, made one block ahead.  */
      V ks = crypt1<ROUNDS, false> (k, ctr_block ());
      for (; nblocks > 1; nblocks--, in += 16, out += 16)
        {
          V p = veorq_u8 (loadu (in), ks);
          storeu (out, p);
          V x = veorq_u8 (mac, p), y = ctr_block ();
          enc2_upto_last<ROUNDS> (k, x, y);
          mac = veorq_u8 (x, kl);
          ks = veorq_u8 (y, kl);
        }
      V p = veorq_u8 (loadu (in), ks);
      storeu (out, p);
      mac = crypt1<ROUNDS, false> (k, veorq_u8 (mac, p));
    }
  storeu (macp, mac);
  storeu (ctrp, vrev64q_u8 (vreinterpretq_u8_u64
                            (vcombine_u64 (vcreate_u64 (hi),
                                           vcreate_u64 (lo)))));
  return 0;
}

unsigned int
ce_ccm_crypt (void *ctx, unsigned char *mac, unsigned char *ctr, void *out,
              const void *in, size_t nblocks, int encrypt)
{
  RIJNDAEL_DISPATCH (ctx, ccm_crypt_t, (const RIJNDAEL_context *)ctx, mac, ctr,
               (unsigned char *)out, (const unsigned char *)in, nblocks,
               encrypt);
  clear_vregs ();
  return CE_BURN;
}

/* ---- XTS (IEEE 1619-2018 5.3) ------------------------------------- */

/* T * alpha in GF(2^128), the tweak a little-endian 128-bit integer
 * (IEEE 1619-2018 5.2): shift left by one, the bit out of the top folds
 * back as 0x87, the bit out of the low half carries into the high half;
 * masks from arithmetic shifts, no branch.  */
inline V
xts_mul_alpha (V t)
{
  const uint64x2_t fold = vcombine_u64 (vcreate_u64 (0x87), vcreate_u64 (1));
  uint64x2_t v = vreinterpretq_u64_u8 (t);
  uint64x2_t m = vreinterpretq_u64_s64 (vshrq_n_s64 (vreinterpretq_s64_u64 (v),
                                                     63));
  m = vandq_u64 (vextq_u64 (m, m, 1), fold);
  return vreinterpretq_u8_u64 (veorq_u64 (vshlq_n_u64 (v, 1), m));
}

template <unsigned int ROUNDS, bool DECRYPT>
void
xts_t (const RIJNDAEL_context *ctx, unsigned char *tweak, unsigned char *out,
       const unsigned char *in, size_t nblocks)
{
  round_keys<ROUNDS> rk (ctx, DECRYPT);
  V t = loadu (tweak);
  run_batches (nblocks, [&] (auto lanes) __attribute__ ((always_inline))
    {
      constexpr int N = decltype (lanes)::value;
      V x[N], tw[N];
      UNROLL
      for (int i = 0; i < N; i++)
        {
          tw[i] = t;
          t = xts_mul_alpha (t);
          x[i] = veorq_u8 (loadu (in + 16 * i), tw[i]);
        }
      rounds_upto_last<ROUNDS, N, DECRYPT> (rk.k, x);
      UNROLL
      for (int i = 0; i < N; i++)
        storeu (out + 16 * i, xor3 (x[i], rk.k[ROUNDS], tw[i]));
      in += 16 * N;
      out += 16 * N;
    });
  storeu (tweak, t);
}

template <unsigned int ROUNDS>
unsigned int xts_enc_t (const RIJNDAEL_context *c, unsigned char *t,
                        unsigned char *o, const unsigned char *i, size_t n)
{ xts_t<ROUNDS, false> (c, t, o, i, n); return 0; }
template <unsigned int ROUNDS>
unsigned int xts_dec_t (const RIJNDAEL_context *c, unsigned char *t,
                        unsigned char *o, const unsigned char *i, size_t n)
{ xts_t<ROUNDS, true> (c, t, o, i, n); return 0; }

unsigned int
ce_xts_crypt (void *ctx, unsigned char *tweak, void *out, const void *in,
              size_t nblocks, int encrypt)
{
  const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;
  unsigned char *o = (unsigned char *)out;
  const unsigned char *i = (const unsigned char *)in;
  if (encrypt)
    RIJNDAEL_DISPATCH (ctx, xts_enc_t, c, tweak, o, i, nblocks);
  else
    RIJNDAEL_DISPATCH (ctx, xts_dec_t, c, tweak, o, i, nblocks);
  clear_vregs ();
  return CE_BURN;
}

/* ---- OCB (RFC 7253 4.2, 4.3) -------------------------------------- */

/* Blocks i = data_nblocks + 1, ...: Offset_i = Offset_(i-1) ^
 * L_ntz(i) (index from the public block counter), C_i = Offset_i ^
 * E(P_i ^ Offset_i), Checksum ^= P_i (decryption: D, and the recovered
 * P_i).  Offset in c->iv, checksum in c->ctr (cipher-ocb.h).  */
template <unsigned int ROUNDS, bool DECRYPT>
void
ocb_crypt_t (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
             size_t nblocks)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c->ctx;
  ocb_state *s = ocb_state_of (c);
  round_keys<ROUNDS> rk (ctx, DECRYPT);
  uint64_t blkn = s->data_nblocks;
  V off = loadu (c->iv), sum = loadu (c->ctr);
  run_batches (nblocks, [&] (auto lanes) __attribute__ ((always_inline))
    {
      constexpr int N = decltype (lanes)::value;
      V x[N], o[N];
      UNROLL
      for (int i = 0; i < N; i++)
        {
          off = veorq_u8 (off, loadu (s->L[ocb_ntz (++blkn)]));
          o[i] = off;
          V p = loadu (in + 16 * i);
          if (!DECRYPT)
            sum = veorq_u8 (sum, p);
          x[i] = veorq_u8 (p, off);
        }
      rounds_upto_last<ROUNDS, N, DECRYPT> (rk.k, x);
      UNROLL
      for (int i = 0; i < N; i++)
        {
          V r = xor3 (x[i], rk.k[ROUNDS], o[i]);
          if (DECRYPT)
            sum = veorq_u8 (sum, r);
          storeu (out + 16 * i, r);
        }
      in += 16 * N;
      out += 16 * N;
    });
  storeu (c->iv, off);
  storeu (c->ctr, sum);
  s->data_nblocks = blkn;
}

template <unsigned int ROUNDS>
unsigned int ocb_enc_t (gcry_cipher_hd_t c, unsigned char *o,
                        const unsigned char *i, size_t n)
{ ocb_crypt_t<ROUNDS, false> (c, o, i, n); return 0; }
template <unsigned int ROUNDS>
unsigned int ocb_dec_t (gcry_cipher_hd_t c, unsigned char *o,
                        const unsigned char *i, size_t n)
{ ocb_crypt_t<ROUNDS, true> (c, o, i, n); return 0; }

/* Not inlined: its frame (spills) lies below the burning caller's.  */
__attribute__ ((noinline)) void
ocb_crypt_run (gcry_cipher_hd_t c, unsigned char *o, const unsigned char *i,
               size_t nblocks, int encrypt)
{
  if (encrypt)
    RIJNDAEL_DISPATCH (c->ctx, ocb_enc_t, c, o, i, nblocks);
  else
    RIJNDAEL_DISPATCH (c->ctx, ocb_dec_t, c, o, i, nblocks);
  clear_vregs ();
}

size_t
ce_ocb_crypt (gcry_cipher_hd_t c, void *out, const void *in, size_t nblocks,
              int encrypt)
{
  ocb_crypt_run (c, (unsigned char *)out, (const unsigned char *)in, nblocks,
                 encrypt);
  _gcry_burn_stack (CE_BURN);
  return 0;
}

/* HASH (RFC 7253 4.1) over full AAD blocks: Sum ^= E(A_i ^ Offset_i).  */
template <unsigned int ROUNDS>
unsigned int
ocb_auth_t (gcry_cipher_hd_t c, const unsigned char *abuf, size_t nblocks)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c->ctx;
  ocb_state *s = ocb_state_of (c);
  round_keys<ROUNDS> rk (ctx, false);
  uint64_t blkn = s->aad_nblocks;
  V off = loadu (s->aad_offset), sum = loadu (s->aad_sum);
  run_batches (nblocks, [&] (auto lanes) __attribute__ ((always_inline))
    {
      constexpr int N = decltype (lanes)::value;
      V x[N];
      UNROLL
      for (int i = 0; i < N; i++)
        {
          off = veorq_u8 (off, loadu (s->L[ocb_ntz (++blkn)]));
          x[i] = veorq_u8 (loadu (abuf + 16 * i), off);
        }
      rounds_upto_last<ROUNDS, N, false> (rk.k, x);
      UNROLL
      for (int i = 0; i < N; i++)
        sum = xor3 (sum, x[i], rk.k[ROUNDS]);
      abuf += 16 * N;
    });
  storeu (s->aad_offset, off);
  storeu (s->aad_sum, sum);
  s->aad_nblocks = blkn;
  return 0;
}

__attribute__ ((noinline)) void
ocb_auth_run (gcry_cipher_hd_t c, const unsigned char *abuf, size_t nblocks)
{
  RIJNDAEL_DISPATCH (c->ctx, ocb_auth_t, c, abuf, nblocks);
  clear_vregs ();
}

size_t
ce_ocb_auth (gcry_cipher_hd_t c, const void *abuf, size_t nblocks)
{
  ocb_auth_run (c, (const unsigned char *)abuf, nblocks);
  _gcry_burn_stack (CE_BURN);
  return 0;
}

} // namespace

/* FIPS-197 5.2 expansion (generic, constant time), then the equivalent
 * inverse cipher's keys (FIPS-197 5.3.5): dec[0] = enc[Nr], dec[r] =
 * InvMixColumns (enc[Nr - r]) with AESIMC, dec[Nr] = enc[0].  */
unsigned int
_gcry_aes_armv8_ce_setkey (RIJNDAEL_context *ctx, const unsigned char *key,
                           size_t keylen)
{
  unsigned int burn;
  const unsigned int nr = (unsigned int)(keylen / 4 + 6);
  ctx->rounds = nr;
  burn = _gcry_aes_generic_expand_key (ctx->keys.ni.enc[0], key, keylen);
  storeu (ctx->keys.ni.dec[0], loadu (ctx->keys.ni.enc[nr]));
  for (unsigned int r = 1; r < nr; r++)
    storeu (ctx->keys.ni.dec[r], vaesimcq_u8 (loadu (ctx->keys.ni.enc[nr - r])));
  storeu (ctx->keys.ni.dec[nr], loadu (ctx->keys.ni.enc[0]));
  clear_vregs ();
  return burn;
}

unsigned int
_gcry_aes_armv8_ce_encrypt (void *ctx, unsigned char *out,
                            const unsigned char *in)
{
  RIJNDAEL_DISPATCH (ctx, enc_block_t, (const RIJNDAEL_context *)ctx, out, in);
  clear_vregs ();
  return CE_BURN;
}

unsigned int
_gcry_aes_armv8_ce_decrypt (void *ctx, unsigned char *out,
                            const unsigned char *in)
{
  RIJNDAEL_DISPATCH (ctx, dec_block_t, (const RIJNDAEL_context *)ctx, out, in);
  clear_vregs ();
  return CE_BURN;
}

void
_gcry_aes_armv8_ce_fill_bulk (cipher_bulk_ops *bulk)
{
  bulk->ecb_crypt = ce_ecb_crypt;
  bulk->cbc_enc = ce_cbc_enc;
  bulk->cbc_dec = ce_cbc_dec;
  bulk->cfb_enc = ce_cfb_enc;
  bulk->cfb_dec = ce_cfb_dec;
  bulk->ofb_enc = ce_ofb_enc;
  bulk->ctr16be_enc = ce_ctr16be_enc;
  bulk->ctr32le_enc = ce_ctr32le_enc;
  bulk->xts_crypt = ce_xts_crypt;
  bulk->ocb_crypt = ce_ocb_crypt;
  bulk->ocb_auth = ce_ocb_auth;
  bulk->ccm_crypt = ce_ccm_crypt;
  bulk->gcm_crypt = _gcry_aes_armv8_ce_gcm_crypt;  /* cipher-gcm-armv8-ce */
}
