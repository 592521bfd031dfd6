/* rijndael-aesni.cpp - AES (FIPS-197) with the x86 AES instructions.
 *
 * Built with -maes -msse4.1 -mpclmul in its own convenience library and
 * only called when HWF_INTEL_AESNI is present; what it shares with
 * rijndael-aesni-xts-ocb.cpp is in rijndael-aesni.h.  Built a second
 * time with -maes -mavx and RIJNDAEL_AESNI_AVX (VEX encoding, exported
 * names _gcry_aes_aesni_avx_*) for the "aesni-avx" path and the VAES
 * paths' serial slots (end of this file).  One kernel per operation,
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
 *  - XTS and OCB have their own loops (rijndael-aesni-xts-ocb.cpp, also
 *    built VEX-encoded for the "aesni-avx" path): a tweak sequence in
 *    general registers, OCB's offset constants for 8 blocks, over the
 *    drivers' rounds; the per-block tweaks / offsets are parked in the
 *    output buffer during the rounds and come back as the last round's
 *    memory operand (no spill to the stack).
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
#include <type_traits>
#include "rijndael-aesni.h"
#include "cipher-gcm.h"

namespace {

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
AESNI_NAME (setkey) (RIJNDAEL_context *ctx, const unsigned char *key,
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
AESNI_NAME (encrypt) (void *ctx, unsigned char *out,
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
AESNI_NAME (decrypt) (void *ctx, unsigned char *out,
                      const unsigned char *in)
{
  const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;
  const V *k = dec_keys (c);
  V x = loadu (in);
  x = RIJNDAEL_DISPATCH (ctx, dec1, k, x);
  storeu (out, x);
  return 0;
}

namespace {

/* Every slot from this build (unused in the VEX build on x86-64).  */
[[maybe_unused]] void
fill_all (cipher_bulk_ops *bulk)
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
  AESNI_NAME (fill_xts_ocb) (bulk);   /* rijndael-aesni-xts-ocb.cpp */
  bulk->gcm_crypt = _gcry_aes_aesni_gcm_crypt;  /* cipher-gcm-intel-pclmul */
  bulk->gcm_siv_dec = _gcry_aes_aesni_gcm_siv_dec;  /* The same file.  */
}

} // namespace

#ifndef RIJNDAEL_AESNI_AVX
void
_gcry_aes_aesni_fill_bulk (cipher_bulk_ops *bulk)
{
  fill_all (bulk);
}
#else
/* x86-64 (16 xmm registers): the SSE build's slots, XTS and OCB from
 * this one; measured on AMD Zen 4 with VAES off, the VEX build's XTS and
 * OCB were 4-6% faster at 16 KiB, its ECB decryption and CTR 1-2%
 * slower and the rest even.  i386 (8 xmm registers): every slot from
 * this build, where the SSE code needs register copies and reloads of
 * the round keys (on the same host, minimum of three runs: ECB, CBC and
 * CFB decryption and CTR at 1 and 16 KiB 1.6-1.9 times as fast, CCM
 * 1.1-1.2, the serial modes and 64-byte calls 1.00-1.04).  */
void
_gcry_aes_aesni_avx_fill_bulk (cipher_bulk_ops *bulk)
{
#ifdef __x86_64__
  _gcry_aes_aesni_fill_bulk (bulk);
  _gcry_aes_aesni_avx_fill_xts_ocb (bulk);
#else
  fill_all (bulk);
#endif
}
#endif
