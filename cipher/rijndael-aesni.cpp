/* rijndael-aesni.cpp - AES (FIPS-197) with the x86 AES instructions.
 *
 * Built with -maes -msse4.1 -mpclmul in its own convenience library and
 * only called when HWF_INTEL_AESNI is present.  One kernel per operation,
 * templated over the round count (10/12/14), serves every key size.
 *
 *  - Key expansion: FIPS-197 5.2, four words per step in a register for
 *    128- and 256-bit keys (AESKEYGENASSIST for RotWord/SubWord/Rcon,
 *    the running XOR by three shifted XORs), word by word for 192-bit
 *    keys; the decryption keys are those of the equivalent inverse
 *    cipher (FIPS-197 5.3.5), InvMixColumns by AESIMC.
 *  - Parallel modes (ECB, CBC-dec, CFB-dec, CTR with the 128-bit
 *    big-endian and the 32-bit little-endian counter) keep 12 blocks in
 *    flight on x86-64 (4 on i386): the drivers of rijndael-x86-drivers.h,
 *    the same templates as the VAES paths', instantiated on xmm
 *    (simd_x86::X1, one block per register); the mode's XOR after the
 *    cipher (chaining value, keystream with the data) is folded into the
 *    last round key, off the chain.  CTR keeps the counter in a register
 *    for the whole call.
 *  - XTS and OCB have their own loops here (a tweak sequence in general
 *    registers, OCB's offset constants for 8 blocks) over the drivers'
 *    rounds; the per-block tweaks / offsets are parked in the output
 *    buffer during the rounds and come back as the last round's memory
 *    operand (no spill to the stack).
 *  - Serial modes (CBC-enc, CFB-enc, OFB) take round key 0 and the next
 *    block's data out of the block-to-block dependency chain: they are
 *    XORed into the last round key before AESENCLAST, so the chain is the
 *    AES rounds alone.
 *
 * Nothing secret is spilled on purpose (round keys are read from the
 * context as memory operands), so the burn depth is 0; the bulk calls
 * clear the xmm registers on return.  Except where the compiler runs out
 * of xmm registers anyway: CCM and OCB with AES-256 spill round keys on
 * x86-64 (tests/t-hygiene finds them); those report AESNI_SPILL_BURN.
 */
#include <config.h>
#include <string.h>
#include <immintrin.h>
#include <type_traits>
#include "rijndael-internal.h"
#include "cipher-ocb.h"
#include "cipher-gcm.h"
#include "rijndael-x86-drivers.h"

namespace {

typedef __m128i V;

/* Fully unroll the fixed-count loops over lanes and rounds, so the lane
 * arrays live in registers.  */
#define UNROLL _Pragma ("GCC unroll 16")

inline V
loadu (const void *p)
{
  return _mm_loadu_si128 ((const V *)p);
}

inline void
storeu (void *p, V v)
{
  _mm_storeu_si128 ((V *)p, v);
}

inline const V *
enc_keys (const RIJNDAEL_context *ctx)
{
  return (const V *)ctx->keys.ni.enc;
}

inline const V *
dec_keys (const RIJNDAEL_context *ctx)
{
  return (const V *)ctx->keys.ni.dec;
}

/* Zero every xmm register (the ABI treats them as caller-saved), so no
 * key or state is left in them after a bulk call.  */
inline void
clear_xmm (void)
{
  asm volatile ("pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\t"
                "pxor %%xmm2, %%xmm2\n\tpxor %%xmm3, %%xmm3\n\t"
                "pxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
                "pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\t"
                ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
                "xmm7");
#ifdef __x86_64__
  asm volatile ("pxor %%xmm8, %%xmm8\n\tpxor %%xmm9, %%xmm9\n\t"
                "pxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
                "pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\t"
                "pxor %%xmm14, %%xmm14\n\tpxor %%xmm15, %%xmm15\n\t"
                ::: "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
                "xmm14", "xmm15");
#endif
}

/* ---- Block kernels ------------------------------------------------ */

/* Rounds 1..ROUNDS of the cipher on a state that already had round key
 * 0 added, with LAST as the final round key.  */
template <unsigned int ROUNDS>
inline V
enc_rounds (const V *k, V x, V last)
{
  UNROLL
  for (unsigned int r = 1; r < ROUNDS; r++)
    x = _mm_aesenc_si128 (x, k[r]);
  return _mm_aesenclast_si128 (x, last);
}

template <unsigned int ROUNDS>
inline V
enc1 (const V *k, V x)
{
  return enc_rounds<ROUNDS> (k, _mm_xor_si128 (x, k[0]), k[ROUNDS]);
}

template <unsigned int ROUNDS>
inline V
dec1 (const V *k, V x)
{
  x = _mm_xor_si128 (x, k[0]);
  UNROLL
  for (unsigned int r = 1; r < ROUNDS; r++)
    x = _mm_aesdec_si128 (x, k[r]);
  return _mm_aesdeclast_si128 (x, k[ROUNDS]);
}

/* ---- Parallel kernels --------------------------------------------- */

/* Blocks per iteration of the parallel modes (RIJNDAEL_AESNI_LANES,
 * rijndael-internal.h).  Zen 4 and recent Intel cores run AESENC on two
 * pipes with a latency of 4 cycles, so at least 8 independent blocks
 * keep both busy; 12 on x86-64 also covers the batch's loads and XORs
 * and still leaves registers for the round key, the counter and the
 * chaining value.  i386 has 8 xmm registers: 4 lanes, so no state is
 * spilled to the stack.  */
constexpr int AESNI_LANES = RIJNDAEL_AESNI_LANES;
static_assert (AESNI_LANES == 4 || AESNI_LANES == 8 || AESNI_LANES == 12);

using simd_x86::X1;
using aes_x86::lanes_c;
using aes_x86::ctr_value;
using aes_x86::ctr_block;

/* ECB, CBC decryption, CFB decryption and both CTR forms: the drivers of
 * rijndael-x86-drivers.h, the same templates as the VAES paths', on xmm
 * registers of one block: batches of AESNI_LANES in the AES-NI order
 * (aes_x86::wide_last: the remainder NBLOCKS % AESNI_LANES first, as a
 * batch of 8 and one of 4 where they fit and single blocks, then full
 * batches, so a call ends with a wide batch whose rounds keep both AES
 * pipes busy to the end), the registers cleared on return, burn depth 0
 * (nothing spilled).  */
typedef aes_x86::drivers<X1, AESNI_LANES, clear_xmm, aes_x86::wide_last, 0>
  xmm_drivers;

/* XTS and OCB below use the drivers' rounds (round key by round key over
 * the batch's states) and, XTS, their batch order.  */
template <unsigned int ROUNDS, int N, bool DECRYPT>
inline __attribute__ ((always_inline)) void
middle_rounds (const V *k, V *x)
{
  aes_x86::middle_rounds<X1, ROUNDS, N, DECRYPT>
    ((const unsigned char (*)[16])k, x);
}

/* Burn depth of a kernel whose frame may hold spilled round keys: its
 * frame plus the x86-64 red zone below it (bytes).  */
constexpr unsigned int AESNI_SPILL_BURN = 512;

/* ---- CBC (SP 800-38A 6.2) ----------------------------------------- */

/* Serial encryption.  With K0 = round key 0 and KL = the last one, the
 * state entering round 1 of block i+1 is C_i ^ P_{i+1} ^ K0, so the last
 * round of block i uses KL ^ P_{i+1} ^ K0 and feeds the next block
 * directly; C_i is recovered off the chain.  */
template <unsigned int ROUNDS>
unsigned int
cbc_enc_t (const RIJNDAEL_context *ctx, unsigned char *iv,
           unsigned char *out, const unsigned char *in, size_t nblocks,
           int cbc_mac)
{
  const V *k = enc_keys (ctx);
  const V k0 = k[0], kl = k[ROUNDS];
  const size_t outstep = cbc_mac ? 0 : 16;
  V x, c;

  if (!nblocks)
    return 0;
  x = _mm_xor_si128 (_mm_xor_si128 (loadu (iv), loadu (in)), k0);
  for (; nblocks > 1; nblocks--)
    {
      in += 16;
      V m = _mm_xor_si128 (loadu (in), k0);       /* P_{i+1} ^ K0 */
      x = enc_rounds<ROUNDS> (k, x, _mm_xor_si128 (kl, m));
      storeu (out, _mm_xor_si128 (x, m));         /* C_i */
      out += outstep;
    }
  c = enc_rounds<ROUNDS> (k, x, kl);
  storeu (out, c);
  storeu (iv, c);
  return 0;
}

unsigned int
aesni_cbc_enc (void *ctx, unsigned char *iv, void *out, const void *in,
               size_t nblocks, int cbc_mac)
{
  unsigned int r = RIJNDAEL_DISPATCH (ctx, cbc_enc_t,
                                   (const RIJNDAEL_context *)ctx, iv,
                                   (unsigned char *)out,
                                   (const unsigned char *)in, nblocks,
                                   cbc_mac);
  clear_xmm ();
  return r;
}

/* ---- CFB-128 (SP 800-38A 6.3) ------------------------------------- */

/* C_i = P_i ^ E(C_{i-1}): the last round with KL ^ P_i ^ K0 yields
 * C_i ^ K0, which is the next block's state after round key 0.  */
template <unsigned int ROUNDS>
unsigned int
cfb_enc_t (const RIJNDAEL_context *ctx, unsigned char *iv,
           unsigned char *out, const unsigned char *in, size_t nblocks)
{
  const V *k = enc_keys (ctx);
  const V k0 = k[0], klk0 = _mm_xor_si128 (k[ROUNDS], k0);
  V x = _mm_xor_si128 (loadu (iv), k0);

  for (; nblocks; nblocks--, in += 16, out += 16)
    {
      x = enc_rounds<ROUNDS> (k, x, _mm_xor_si128 (klk0, loadu (in)));
      storeu (out, _mm_xor_si128 (x, k0));
    }
  storeu (iv, _mm_xor_si128 (x, k0));
  return 0;
}

unsigned int
aesni_cfb_enc (void *ctx, unsigned char *iv, void *out, const void *in,
               size_t nblocks)
{
  unsigned int r = RIJNDAEL_DISPATCH (ctx, cfb_enc_t,
                                   (const RIJNDAEL_context *)ctx, iv,
                                   (unsigned char *)out,
                                   (const unsigned char *)in, nblocks);
  clear_xmm ();
  return r;
}

/* ---- OFB (SP 800-38A 6.4) ----------------------------------------- */

/* O_i = E(O_{i-1}): the last round with KL ^ K0 yields O_i ^ K0, the
 * next block's state after round key 0.  */
template <unsigned int ROUNDS>
unsigned int
ofb_enc_t (const RIJNDAEL_context *ctx, unsigned char *iv,
           unsigned char *out, const unsigned char *in, size_t nblocks)
{
  const V *k = enc_keys (ctx);
  const V k0 = k[0], klk0 = _mm_xor_si128 (k[ROUNDS], k0);
  V x = _mm_xor_si128 (loadu (iv), k0);

  for (; nblocks; nblocks--, in += 16, out += 16)
    {
      x = enc_rounds<ROUNDS> (k, x, klk0);
      storeu (out, _mm_xor_si128 (_mm_xor_si128 (x, k0), loadu (in)));
    }
  storeu (iv, _mm_xor_si128 (x, k0));
  return 0;
}

unsigned int
aesni_ofb_enc (void *ctx, unsigned char *iv, void *out, const void *in,
               size_t nblocks)
{
  unsigned int r = RIJNDAEL_DISPATCH (ctx, ofb_enc_t,
                                   (const RIJNDAEL_context *)ctx, iv,
                                   (unsigned char *)out,
                                   (const unsigned char *)in, nblocks);
  clear_xmm ();
  return r;
}

/* ---- CCM (NIST SP 800-38C 6.1, 6.2) ------------------------------- */

/* The CBC-MAC chain is serial (one block per AES latency); the CTR
 * block of the same (encryption) or the next (decryption: its plaintext
 * feeds the MAC) position rides in its shadow, round by round, so CCM
 * costs about what the MAC alone costs.  The chain carries nothing but
 * the AES rounds and at most one XOR: encryption folds the next
 * plaintext block (with round key 0) into the MAC's last round key, as
 * cbc_enc does, and the keystream XOR into the CTR block's; decryption
 * folds C_(i+1) ^ K0 into the CTR block's last round key, which so
 * yields P_(i+1) ^ K0, the MAC's next input less the MAC.  The counter
 * runs in two 64-bit general registers (a 128-bit big-endian integer,
 * as in ctr16be_enc).  */
template <unsigned int ROUNDS>
inline void
enc2_mid (const V *k, V &x, V &y)
{
  UNROLL
  for (unsigned int r = 1; r < ROUNDS; r++)
    {
      x = _mm_aesenc_si128 (x, k[r]);
      y = _mm_aesenc_si128 (y, k[r]);
    }
}

template <unsigned int ROUNDS>
unsigned int
ccm_crypt_t (const RIJNDAEL_context *ctx, unsigned char *macp,
             unsigned char *ctrp, unsigned char *out, const unsigned char *in,
             size_t nblocks, int encrypt)
{
  const V *k = enc_keys (ctx);
  const V k0 = k[0], kl = k[ROUNDS];
  V mac = loadu (macp);
  uint64_t hi, lo;
  ctr_value (loadu (ctrp), &hi, &lo);
  /* Counter += 1 without a branch: EAX's counter (OMAC of the nonce) is
   * secret.  The empty asm keeps the compiler from splitting the loops
   * on where LO wraps.  */
  auto inc_ctr = [&] () __attribute__ ((always_inline)) {
    lo++;
    __asm__ ("" : "+r" (lo));
    hi += lo == 0;
  };
  auto next_ctr = [&] () __attribute__ ((always_inline)) {
    V c = _mm_xor_si128 (ctr_block (hi, lo), k0);
    inc_ctr ();
    return c;
  };

  if (!nblocks)
    ;
  else if (encrypt)
    {
      V p = loadu (in);
      V x = _mm_xor_si128 (_mm_xor_si128 (mac, p), k0);
      for (; nblocks > 1; nblocks--)
        {
          V pn = loadu (in + 16);
          V y = next_ctr ();
          enc2_mid<ROUNDS> (k, x, y);
          /* x: MAC_i ^ P_(i+1) ^ K0, the next chain input.  */
          x = _mm_aesenclast_si128 (x, _mm_xor_si128 (kl, _mm_xor_si128 (pn, k0)));
          storeu (out, _mm_aesenclast_si128 (y, _mm_xor_si128 (kl, p)));
          p = pn;
          in += 16;
          out += 16;
        }
      V y = next_ctr ();
      enc2_mid<ROUNDS> (k, x, y);
      mac = _mm_aesenclast_si128 (x, kl);
      storeu (out, _mm_aesenclast_si128 (y, _mm_xor_si128 (kl, p)));
    }
  else
    {
      /* The MAC runs over the plaintext the CTR half makes, so the
       * keystream is kept one block ahead: the rounds of MAC block i run
       * beside those of E (CTR_(i+2)), and P_(i+1) ^ K0, known a block
       * early, is folded into the MAC's last round key (as the next data
       * block is when encrypting), so the MAC chain is the AES rounds
       * alone.  pk: P_i ^ K0; x: MAC_(i-1) ^ P_i ^ K0, the chain input.  */
      V pk = _mm_xor_si128 (
        _mm_xor_si128 (loadu (in), enc1<ROUNDS> (k, ctr_block (hi, lo))), k0);
      inc_ctr ();
      storeu (out, _mm_xor_si128 (pk, k0));
      V x = _mm_xor_si128 (mac, pk);
      if (nblocks == 1)
        mac = enc_rounds<ROUNDS> (k, x, kl);
      else
        {
          V pk1 = _mm_xor_si128 (
            _mm_xor_si128 (loadu (in + 16),
                           enc1<ROUNDS> (k, ctr_block (hi, lo))),
            k0);
          inc_ctr ();
          storeu (out + 16, _mm_xor_si128 (pk1, k0));
          in += 32;
          out += 32;
          for (nblocks -= 2; nblocks; nblocks--)
            {
              V y = next_ctr ();
              enc2_mid<ROUNDS> (k, x, y);
              x = _mm_aesenclast_si128 (x, _mm_xor_si128 (kl, pk1));
              pk1 = _mm_aesenclast_si128 (y, _mm_xor_si128 (kl, _mm_xor_si128 (loadu (in), k0)));
              storeu (out, _mm_xor_si128 (pk1, k0));
              in += 16;
              out += 16;
            }
          x = enc_rounds<ROUNDS> (k, x, _mm_xor_si128 (kl, pk1));
          mac = enc_rounds<ROUNDS> (k, x, kl);
        }
    }
  storeu (macp, mac);
  storeu (ctrp, ctr_block (hi, lo));
  return 0;
}

unsigned int
aesni_ccm_crypt (void *ctx, unsigned char *mac, unsigned char *ctr, void *out,
                 const void *in, size_t nblocks, int encrypt)
{
  unsigned int r = RIJNDAEL_DISPATCH (ctx, ccm_crypt_t,
                                   (const RIJNDAEL_context *)ctx, mac, ctr,
                                   (unsigned char *)out,
                                   (const unsigned char *)in, nblocks,
                                   encrypt);
  clear_xmm ();
  return r > AESNI_SPILL_BURN ? r : AESNI_SPILL_BURN;
}

/* ---- XTS (IEEE 1619-2018 5.3) -------------------------------------- */

/* The XTS tweak sequence T, T * alpha, T * alpha^2, ... (IEEE 1619-2018
 * 5.2: multiplication by x in GF(2^128) mod x^128 + x^7 + x^2 + x + 1, T
 * a 128-bit little-endian integer): next () returns the current tweak as
 * a vector and steps to the next one; store () writes the current one.
 * The step is a short serial chain that runs beside the AES rounds.  */
#ifdef __x86_64__
/* x86-64: T in two 64-bit general registers (shift left by one, the top
 * bit folded back as 0x87), so the chain uses the integer units and
 * leaves every xmm register to the batch of 12 states.  */
struct xts_tweak_seq
{
  uint64_t lo, hi;
  explicit xts_tweak_seq (const unsigned char *p)
  {
    memcpy (&lo, p, 8);
    memcpy (&hi, p + 8, 8);
  }
  inline __attribute__ ((always_inline)) V next ()
  {
    V t = _mm_set_epi64x ((long long) hi, (long long) lo);
    uint64_t carry = (uint64_t) ((int64_t) hi >> 63) & 0x87;
    hi = (hi << 1) | (lo >> 63);
    lo = (lo << 1) ^ carry;
    return t;
  }
  void store (unsigned char *p) const
  {
    memcpy (p, &lo, 8);
    memcpy (p + 8, &hi, 8);
  }
};
#else
/* i386: T in one xmm register.  The 64-bit integer form needs four
 * register pairs and a trip through memory to build each vector; with 7
 * general registers it spilled every step, which made XTS about 4 times
 * slower than ECB.  Here: each 64-bit half doubled (PADDQ), the bit
 * shifted out of the low half added into bit 64 and the one shifted out
 * of the top folded back as 0x87.  Those bits are the sign bits of
 * dwords 1 and 3: PSRAD makes each dword's sign a mask, PSHUFD moves
 * dword 3's mask to dword 0 and dword 1's to dword 2, PAND keeps 0x87 and
 * 1 there.  Four SSE2 instructions, no general register; with 4 lanes
 * the batch, T and the temporaries fit the 8 xmm registers.  */
struct xts_tweak_seq
{
  V t;
  explicit xts_tweak_seq (const unsigned char *p) : t (loadu (p)) {}
  inline __attribute__ ((always_inline)) V next ()
  {
    const V r = t;
    const V poly = _mm_set_epi32 (0, 1, 0, 0x87);
    const V carry = _mm_shuffle_epi32 (_mm_srai_epi32 (t, 31), 0x13);
    t = _mm_xor_si128 (_mm_add_epi64 (t, t), _mm_and_si128 (carry, poly));
    return r;
  }
  void store (unsigned char *p) const { storeu (p, t); }
};
#endif

/* C_j = E(P_j ^ T_j) ^ T_j (decryption: D), the tweaks from
 * xts_tweak_seq.  The tweaks of a batch are parked in the output blocks
 * (each input block is read before its output slot is written, so IN ==
 * OUT works) and come back as the memory operand of the last round,
 * whose key carries the final XOR.  */
template <unsigned int ROUNDS, bool DECRYPT>
void
xts_crypt_t (const RIJNDAEL_context *ctx, unsigned char *tweak,
             unsigned char *out, const unsigned char *in, size_t nblocks)
{
  const V *k = DECRYPT ? dec_keys (ctx) : enc_keys (ctx);
  xts_tweak_seq tw (tweak);

  aes_x86::wide_last::run<X1, AESNI_LANES> (
    nblocks, [&] (auto, auto lanes) __attribute__ ((always_inline))
    {
      constexpr int N = decltype (lanes)::value;
      V x[N];
      UNROLL
      for (int i = 0; i < N; i++)
        {
          V t = tw.next ();
          V p = loadu (in + 16 * i);
          storeu (out + 16 * i, t);
          x[i] = _mm_xor_si128 (_mm_xor_si128 (p, t), k[0]);
        }
      /* The tweaks come back from OUT, not from registers or the
       * stack.  */
      asm volatile ("" : : : "memory");
      middle_rounds<ROUNDS, N, DECRYPT> (k, x);
      UNROLL
      for (int i = 0; i < N; i++)
        storeu (out + 16 * i,
                aes_x86::last_round<X1, DECRYPT> (
                  x[i], _mm_xor_si128 (loadu (out + 16 * i), k[ROUNDS])));
      in += 16 * N;
      out += 16 * N;
    });
  tw.store (tweak);
}

template <unsigned int ROUNDS>
unsigned int
xts_enc_t (const RIJNDAEL_context *ctx, unsigned char *tweak,
           unsigned char *out, const unsigned char *in, size_t nblocks)
{
  xts_crypt_t<ROUNDS, false> (ctx, tweak, out, in, nblocks);
  return 0;
}

template <unsigned int ROUNDS>
unsigned int
xts_dec_t (const RIJNDAEL_context *ctx, unsigned char *tweak,
           unsigned char *out, const unsigned char *in, size_t nblocks)
{
  xts_crypt_t<ROUNDS, true> (ctx, tweak, out, in, nblocks);
  return 0;
}

unsigned int
aesni_xts_crypt (void *ctx, unsigned char *tweak, void *out, const void *in,
                 size_t nblocks, int encrypt)
{
  const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;
  unsigned char *o = (unsigned char *)out;
  const unsigned char *i = (const unsigned char *)in;
  unsigned int r
    = encrypt ? RIJNDAEL_DISPATCH (ctx, xts_enc_t, c, tweak, o, i, nblocks)
              : RIJNDAEL_DISPATCH (ctx, xts_dec_t, c, tweak, o, i, nblocks);
  clear_xmm ();
  return r;
}

/* ---- OCB (RFC 7253 4.1-4.3) ---------------------------------------- */

/* OCB keeps at most 8 blocks in flight: the states, the offset, the
 * checksum, the round key and the L_i load then fit the 16 xmm
 * registers of x86-64, so nothing is spilled to the stack.  Full
 * batches first, then one of 4 and single blocks.  */
constexpr int OCB_LANES = AESNI_LANES > 8 ? 8 : AESNI_LANES;

template <class Step>
inline __attribute__ ((always_inline)) void
ocb_batches (size_t nblocks, Step &&step)
{
  for (; nblocks >= OCB_LANES; nblocks -= OCB_LANES)
    step (lanes_c<OCB_LANES> ());
  if constexpr (OCB_LANES > 4)
    if (nblocks >= 4)
      {
        step (lanes_c<4> ());
        nblocks -= 4;
      }
  for (; nblocks; nblocks--)
    step (lanes_c<1> ());
}

/* Full blocks i = data_nblocks + 1, ...: Offset_i = Offset_{i-1} ^
 * L_ntz(i) (the table index comes from the public block counter),
 * C_i = Offset_i ^ E(P_i ^ Offset_i), Checksum ^= P_i (decryption: D,
 * and the recovered P_i go into the checksum).  The offsets of a batch
 * are parked in the output blocks, as in XTS, and fold into the last
 * round key.  The offset is c->iv, the checksum c->ctr (cipher-ocb.h).  */
template <unsigned int ROUNDS, bool DECRYPT>
void
ocb_crypt_t (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
             size_t nblocks)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c->ctx;
  ocb_state *s = ocb_state_of (c);
  const V *k = DECRYPT ? dec_keys (ctx) : enc_keys (ctx);
  const unsigned char (*L)[OCB_BLOCK_LEN] = s->L;
  uint64_t blkn = s->data_nblocks;
  V off = loadu (c->iv), sum = loadu (c->ctr);
  /* A batch of N (4 or 8) blocks that starts after a block number that
   * is a multiple of N: its first N - 1 offsets are the current one
   * XORed with a fixed combination of L_0, L_1, L_2 (ntz (jN + i) =
   * ntz (i) for 0 < i < N: 0, 1, 0, 2, 0, 1, 0), D[i] for block +i+1;
   * only the last needs ntz and a table lookup, and the offsets form no
   * chain of XORs.  (Measured on AMD Zen 4 with VAES off: AES-128 OCB
   * encryption 16 KiB 0.107 -> 0.097 ns/byte.)  */
  V d[7];
  if (nblocks >= 4)
    {
      const V l0 = loadu (L[0]), l1 = loadu (L[1]), l2 = loadu (L[2]);
      d[0] = l0;
      d[1] = _mm_xor_si128 (l0, l1);
      d[2] = l1;
      d[3] = _mm_xor_si128 (l1, l2);
      d[4] = _mm_xor_si128 (d[1], l2);
      d[5] = _mm_xor_si128 (l0, l2);
      d[6] = l2;
    }

  auto step = [&] (auto lanes) __attribute__ ((always_inline))
    {
      constexpr int N = decltype (lanes)::value;
      V x[N];
      const bool aligned = N >= 4 && !(blkn & (N - 1));
      const V base = off;
      UNROLL
      for (int i = 0; i < N; i++)
        {
          if (aligned && i < N - 1)
            off = _mm_xor_si128 (base, d[i]);
          else if (aligned)
            off = _mm_xor_si128 (off, loadu (L[ocb_ntz (blkn + N)]));
          else
            off = _mm_xor_si128 (off, loadu (L[ocb_ntz (blkn + i + 1)]));
          V p = loadu (in + 16 * i);
          if (!DECRYPT)
            sum = _mm_xor_si128 (sum, p);
          x[i] = _mm_xor_si128 (_mm_xor_si128 (p, off), k[0]);
          storeu (out + 16 * i, off);
        }
      /* The offsets come back from OUT, not from registers or the
       * stack.  */
      asm volatile ("" : : : "memory");
      middle_rounds<ROUNDS, N, DECRYPT> (k, x);
      UNROLL
      for (int i = 0; i < N; i++)
        {
          V r = aes_x86::last_round<X1, DECRYPT> (
            x[i], _mm_xor_si128 (loadu (out + 16 * i), k[ROUNDS]));
          if (DECRYPT)
            sum = _mm_xor_si128 (sum, r);
          storeu (out + 16 * i, r);
        }
      in += 16 * N;
      out += 16 * N;
      blkn += N;
    };
  ocb_batches (nblocks, step);
  storeu (c->iv, off);
  storeu (c->ctr, sum);
  s->data_nblocks = blkn;
}

template <unsigned int ROUNDS>
unsigned int
ocb_enc_t (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
           size_t nblocks)
{
  ocb_crypt_t<ROUNDS, false> (c, out, in, nblocks);
  return 0;
}

template <unsigned int ROUNDS>
unsigned int
ocb_dec_t (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
           size_t nblocks)
{
  ocb_crypt_t<ROUNDS, true> (c, out, in, nblocks);
  return 0;
}

/* Not inlined: its frame (spills) lies below the burning caller's.  */
__attribute__ ((noinline)) void
ocb_crypt_run (gcry_cipher_hd_t c, unsigned char *o, const unsigned char *i,
               size_t nblocks, int encrypt)
{
  if (encrypt)
    RIJNDAEL_DISPATCH (c->ctx, ocb_enc_t, c, o, i, nblocks);
  else
    RIJNDAEL_DISPATCH (c->ctx, ocb_dec_t, c, o, i, nblocks);
  clear_xmm ();
}

size_t
aesni_ocb_crypt (gcry_cipher_hd_t c, void *out, const void *in,
                 size_t nblocks, int encrypt)
{
  ocb_crypt_run (c, (unsigned char *)out, (const unsigned char *)in, nblocks,
                 encrypt);
  _gcry_burn_stack (AESNI_SPILL_BURN);
  return 0;
}

/* HASH (RFC 7253 4.1) over full AAD blocks: Sum ^= E(A_i ^ Offset_i).  */
template <unsigned int ROUNDS>
unsigned int
ocb_auth_t (gcry_cipher_hd_t c, const unsigned char *abuf, size_t nblocks)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c->ctx;
  ocb_state *s = ocb_state_of (c);
  const V *k = enc_keys (ctx);
  const unsigned char (*L)[OCB_BLOCK_LEN] = s->L;
  uint64_t blkn = s->aad_nblocks;
  V off = loadu (s->aad_offset), sum = loadu (s->aad_sum);

  ocb_batches (nblocks, [&] (auto lanes) __attribute__ ((always_inline))
    {
      constexpr int N = decltype (lanes)::value;
      V x[N];
      UNROLL
      for (int i = 0; i < N; i++)
        {
          off = _mm_xor_si128 (off, loadu (L[ocb_ntz (++blkn)]));
          x[i] = _mm_xor_si128 (_mm_xor_si128 (loadu (abuf + 16 * i), off),
                                k[0]);
        }
      middle_rounds<ROUNDS, N, false> (k, x);
      UNROLL
      for (int i = 0; i < N; i++)
        sum = _mm_xor_si128 (sum, _mm_aesenclast_si128 (x[i], k[ROUNDS]));
      abuf += 16 * N;
    });
  storeu (s->aad_offset, off);
  storeu (s->aad_sum, sum);
  s->aad_nblocks = blkn;
  return 0;
}

/* Not inlined, as ocb_crypt_run.  */
__attribute__ ((noinline)) void
ocb_auth_run (gcry_cipher_hd_t c, const unsigned char *abuf, size_t nblocks)
{
  RIJNDAEL_DISPATCH (c->ctx, ocb_auth_t, c, abuf, nblocks);
  clear_xmm ();
}

size_t
aesni_ocb_auth (gcry_cipher_hd_t c, const void *abuf, size_t nblocks)
{
  ocb_auth_run (c, (const unsigned char *)abuf, nblocks);
  _gcry_burn_stack (AESNI_SPILL_BURN);
  return 0;
}

/* ---- Key expansion ------------------------------------------------ */

/* SubWord of the 32-bit word W (bytes in memory order, little-endian
 * load): AESKEYGENASSIST puts SubWord(source dword 1) in dword 0.  */
inline uint32_t
sub_word (uint32_t w)
{
  V v = _mm_set_epi32 (0, 0, (int)w, 0);
  return (uint32_t)_mm_cvtsi128_si32 (_mm_aeskeygenassist_si128 (v, 0));
}

/* W0 ^ (W0 << 32) ^ (W0 << 64) ^ (W0 << 96) dword-wise: the running XOR
 * of the four words of the previous round key (FIPS-197 5.2: w[i] =
 * w[i-Nk] ^ temp, so within a 4-word step every word takes the XOR of
 * the ones before it).  */
inline V
prefix_xor (V k)
{
  k = _mm_xor_si128 (k, _mm_slli_si128 (k, 4));
  k = _mm_xor_si128 (k, _mm_slli_si128 (k, 4));
  return _mm_xor_si128 (k, _mm_slli_si128 (k, 4));
}

/* One 4-word step of the AES-128 schedule (and the even steps of
 * AES-256): K the previous 4 words, FROM the round key whose last word
 * feeds RotWord/SubWord.  AESKEYGENASSIST's dword 3 is RotWord
 * (SubWord (source dword 3)) ^ RCON.  */
template <int RCON>
inline V
expand_rot (V k, V from)
{
  V t = _mm_shuffle_epi32 (_mm_aeskeygenassist_si128 (from, RCON), 0xff);
  return _mm_xor_si128 (prefix_xor (k), t);
}

/* The odd steps of AES-256: SubWord without rotation (dword 2 of
 * AESKEYGENASSIST is SubWord (source dword 3)).  */
inline V
expand_sub (V k, V from)
{
  V t = _mm_shuffle_epi32 (_mm_aeskeygenassist_si128 (from, 0), 0xaa);
  return _mm_xor_si128 (prefix_xor (k), t);
}

} // namespace

unsigned int
_gcry_aes_aesni_setkey (RIJNDAEL_context *ctx, const unsigned char *key,
                        size_t keylen)
{
  const unsigned int nk = (unsigned int)(keylen / 4);
  const unsigned int rounds = nk + 6;
  const unsigned int total = 4 * (rounds + 1);
  static const unsigned char rcon[11] =
    { 0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36 };
  unsigned char *w = &ctx->keys.ni.enc[0][0];

  ctx->rounds = rounds;
  V *e = (V *)ctx->keys.ni.enc;
  if (nk == 4)
    {
      /* FIPS-197 5.2 four words at a time in a register (the word loop
       * below, through memory, takes about three times as long; GCM-SIV
       * expands a key per message).  */
      V k = loadu (key);
      e[0] = k;
      e[1] = k = expand_rot<0x01> (k, k);
      e[2] = k = expand_rot<0x02> (k, k);
      e[3] = k = expand_rot<0x04> (k, k);
      e[4] = k = expand_rot<0x08> (k, k);
      e[5] = k = expand_rot<0x10> (k, k);
      e[6] = k = expand_rot<0x20> (k, k);
      e[7] = k = expand_rot<0x40> (k, k);
      e[8] = k = expand_rot<0x80> (k, k);
      e[9] = k = expand_rot<0x1b> (k, k);
      e[10] = expand_rot<0x36> (k, k);
    }
  else if (nk == 8)
    {
      /* Eight words: steps alternate RotWord+SubWord+Rcon (on the word
       * before, i.e. the odd key's last) and SubWord alone.  */
      V a = loadu (key), b = loadu (key + 16);
      e[0] = a;
      e[1] = b;
      e[2] = a = expand_rot<0x01> (a, b);
      e[3] = b = expand_sub (b, a);
      e[4] = a = expand_rot<0x02> (a, b);
      e[5] = b = expand_sub (b, a);
      e[6] = a = expand_rot<0x04> (a, b);
      e[7] = b = expand_sub (b, a);
      e[8] = a = expand_rot<0x08> (a, b);
      e[9] = b = expand_sub (b, a);
      e[10] = a = expand_rot<0x10> (a, b);
      e[11] = b = expand_sub (b, a);
      e[12] = a = expand_rot<0x20> (a, b);
      e[13] = expand_sub (b, a);
      e[14] = expand_rot<0x40> (a, e[13]);
    }
  else
    {
      /* FIPS-197 5.2 word by word (words as little-endian loads of 4 key
       * bytes, so RotWord is a rotation right by 8 bits and Rcon sits in
       * the low byte), written straight into the context.  */
      memcpy (w, key, keylen);
      for (unsigned int i = nk; i < total; i++)
        {
          uint32_t t, u;
          memcpy (&t, w + 4 * (i - 1), 4);
          memcpy (&u, w + 4 * (i - nk), 4);
          if (i % nk == 0)
            t = sub_word ((t >> 8) | (t << 24)) ^ rcon[i / nk];
          else if (nk > 6 && i % nk == 4)
            t = sub_word (t);
          u ^= t;
          memcpy (w + 4 * i, &u, 4);
        }
    }

  /* FIPS-197 5.3.5: dec[0] = enc[Nr], dec[r] = InvMixColumns(enc[Nr-r]),
   * dec[Nr] = enc[0].  */
  V *ek = (V *)ctx->keys.ni.enc;
  V *dk = (V *)ctx->keys.ni.dec;
  dk[0] = ek[rounds];
  for (unsigned int r = 1; r < rounds; r++)
    dk[r] = _mm_aesimc_si128 (ek[rounds - r]);
  dk[rounds] = ek[0];
  clear_xmm ();
  /* The register steps leave nothing on the stack; the word loop may.  */
  return nk == 6 ? 64 : 0;
}

unsigned int
_gcry_aes_aesni_encrypt (void *ctx, unsigned char *out,
                         const unsigned char *in)
{
  const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;
  const V *k = enc_keys (c);
  V x = loadu (in);
  x = RIJNDAEL_DISPATCH (ctx, enc1, k, x);
  storeu (out, x);
  return 0;
}

unsigned int
_gcry_aes_aesni_decrypt (void *ctx, unsigned char *out,
                         const unsigned char *in)
{
  const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;
  const V *k = dec_keys (c);
  V x = loadu (in);
  x = RIJNDAEL_DISPATCH (ctx, dec1, k, x);
  storeu (out, x);
  return 0;
}

void
_gcry_aes_aesni_fill_bulk (cipher_bulk_ops *bulk)
{
  bulk->ecb_crypt = xmm_drivers::ecb_crypt;
  bulk->cbc_enc = aesni_cbc_enc;
  bulk->cbc_dec = xmm_drivers::cbc_dec;
  bulk->cfb_enc = aesni_cfb_enc;
  bulk->cfb_dec = xmm_drivers::cfb_dec;
  bulk->ofb_enc = aesni_ofb_enc;
  bulk->ctr16be_enc = xmm_drivers::ctr16be_enc;
  bulk->ctr32le_enc = xmm_drivers::ctr32le_enc;
  bulk->ccm_crypt = aesni_ccm_crypt;
  bulk->xts_crypt = aesni_xts_crypt;
  bulk->ocb_crypt = aesni_ocb_crypt;
  bulk->ocb_auth = aesni_ocb_auth;
  bulk->gcm_crypt = _gcry_aes_aesni_gcm_crypt;  /* cipher-gcm-intel-pclmul */
  bulk->gcm_siv_dec = _gcry_aes_aesni_gcm_siv_dec;  /* The same file.  */
}
