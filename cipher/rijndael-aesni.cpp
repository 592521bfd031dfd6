/* rijndael-aesni.cpp - AES (FIPS-197) with the x86 AES instructions.
 *
 * Built with -maes -msse4.1 -mpclmul in its own convenience library and
 * only called when HWF_INTEL_AESNI is present.  One kernel per operation,
 * templated over the round count (10/12/14), serves every key size.
 *
 *  - Key expansion: FIPS-197 5.2 word by word, SubWord done by
 *    AESKEYGENASSIST (its dword 0 is SubWord of source dword 1); the
 *    decryption keys are those of the equivalent inverse cipher
 *    (FIPS-197 5.3.5), InvMixColumns by AESIMC.
 *  - Parallel modes (ECB, CBC-dec, CFB-dec, CTR) keep 8 blocks in flight.
 *  - Serial modes (CBC-enc, CFB-enc, OFB) take round key 0 and the next
 *    block's data out of the block-to-block dependency chain: they are
 *    XORed into the last round key before AESENCLAST, so the chain is the
 *    AES rounds alone.
 *
 * Nothing secret is spilled on purpose (round keys are read from the
 * context as memory operands), so the burn depth is 0; the bulk calls
 * clear the xmm registers on return.
 */
#include <config.h>
#include <string.h>
#include <immintrin.h>
#include "rijndael-internal.h"

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

/* N blocks in flight, in place in X[].  */
template <unsigned int ROUNDS, int N>
inline void
enc_n (const V *k, V *x)
{
  V rk = k[0];
  UNROLL
  for (int i = 0; i < N; i++)
    x[i] = _mm_xor_si128 (x[i], rk);
  UNROLL
  for (unsigned int r = 1; r < ROUNDS; r++)
    {
      rk = k[r];
      UNROLL
      for (int i = 0; i < N; i++)
        x[i] = _mm_aesenc_si128 (x[i], rk);
    }
  rk = k[ROUNDS];
  UNROLL
  for (int i = 0; i < N; i++)
    x[i] = _mm_aesenclast_si128 (x[i], rk);
}

template <unsigned int ROUNDS, int N>
inline void
dec_n (const V *k, V *x)
{
  V rk = k[0];
  UNROLL
  for (int i = 0; i < N; i++)
    x[i] = _mm_xor_si128 (x[i], rk);
  UNROLL
  for (unsigned int r = 1; r < ROUNDS; r++)
    {
      rk = k[r];
      UNROLL
      for (int i = 0; i < N; i++)
        x[i] = _mm_aesdec_si128 (x[i], rk);
    }
  rk = k[ROUNDS];
  UNROLL
  for (int i = 0; i < N; i++)
    x[i] = _mm_aesdeclast_si128 (x[i], rk);
}

/* Call FN<ROUNDS> (...) for the context's (public) round count.  */
#define AESNI_DISPATCH(ctx, fn, ...)                                      \
  (((const RIJNDAEL_context *)(ctx))->rounds == 10                         \
     ? fn<10> (__VA_ARGS__)                                                \
     : ((const RIJNDAEL_context *)(ctx))->rounds == 12                     \
         ? fn<12> (__VA_ARGS__)                                            \
         : fn<14> (__VA_ARGS__))

/* ---- ECB ---------------------------------------------------------- */

template <unsigned int ROUNDS, bool ENCRYPT>
unsigned int
ecb_crypt_t (const RIJNDAEL_context *ctx, unsigned char *out,
             const unsigned char *in, size_t nblocks)
{
  const V *k = ENCRYPT ? enc_keys (ctx) : dec_keys (ctx);
  V x[8];

  for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128)
    {
      UNROLL
      for (int i = 0; i < 8; i++)
        x[i] = loadu (in + 16 * i);
      if (ENCRYPT)
        enc_n<ROUNDS, 8> (k, x);
      else
        dec_n<ROUNDS, 8> (k, x);
      UNROLL
      for (int i = 0; i < 8; i++)
        storeu (out + 16 * i, x[i]);
    }
  for (; nblocks; nblocks--, in += 16, out += 16)
    storeu (out, ENCRYPT ? enc1<ROUNDS> (k, loadu (in))
                         : dec1<ROUNDS> (k, loadu (in)));
  return 0;
}

template <unsigned int ROUNDS>
unsigned int
ecb_enc_t (const RIJNDAEL_context *ctx, unsigned char *out,
           const unsigned char *in, size_t nblocks)
{
  return ecb_crypt_t<ROUNDS, true> (ctx, out, in, nblocks);
}

template <unsigned int ROUNDS>
unsigned int
ecb_dec_t (const RIJNDAEL_context *ctx, unsigned char *out,
           const unsigned char *in, size_t nblocks)
{
  return ecb_crypt_t<ROUNDS, false> (ctx, out, in, nblocks);
}

unsigned int
aesni_ecb_crypt (void *ctx, void *out, const void *in, size_t nblocks,
                 int encrypt)
{
  const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;
  unsigned char *o = (unsigned char *)out;
  const unsigned char *i = (const unsigned char *)in;
  unsigned int r = encrypt ? AESNI_DISPATCH (ctx, ecb_enc_t, c, o, i, nblocks)
                           : AESNI_DISPATCH (ctx, ecb_dec_t, c, o, i, nblocks);
  clear_xmm ();
  return r;
}

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
  unsigned int r = AESNI_DISPATCH (ctx, cbc_enc_t,
                                   (const RIJNDAEL_context *)ctx, iv,
                                   (unsigned char *)out,
                                   (const unsigned char *)in, nblocks,
                                   cbc_mac);
  clear_xmm ();
  return r;
}

template <unsigned int ROUNDS>
unsigned int
cbc_dec_t (const RIJNDAEL_context *ctx, unsigned char *iv,
           unsigned char *out, const unsigned char *in, size_t nblocks)
{
  const V *k = dec_keys (ctx);
  V prev = loadu (iv);
  V x[8], c[8];

  for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128)
    {
      UNROLL
      for (int i = 0; i < 8; i++)
        x[i] = c[i] = loadu (in + 16 * i);
      dec_n<ROUNDS, 8> (k, x);
      storeu (out, _mm_xor_si128 (x[0], prev));
      UNROLL
      for (int i = 1; i < 8; i++)
        storeu (out + 16 * i, _mm_xor_si128 (x[i], c[i - 1]));
      prev = c[7];
    }
  for (; nblocks; nblocks--, in += 16, out += 16)
    {
      V ci = loadu (in);
      storeu (out, _mm_xor_si128 (dec1<ROUNDS> (k, ci), prev));
      prev = ci;
    }
  storeu (iv, prev);
  return 0;
}

unsigned int
aesni_cbc_dec (void *ctx, unsigned char *iv, void *out, const void *in,
               size_t nblocks)
{
  unsigned int r = AESNI_DISPATCH (ctx, cbc_dec_t,
                                   (const RIJNDAEL_context *)ctx, iv,
                                   (unsigned char *)out,
                                   (const unsigned char *)in, nblocks);
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
  unsigned int r = AESNI_DISPATCH (ctx, cfb_enc_t,
                                   (const RIJNDAEL_context *)ctx, iv,
                                   (unsigned char *)out,
                                   (const unsigned char *)in, nblocks);
  clear_xmm ();
  return r;
}

template <unsigned int ROUNDS>
unsigned int
cfb_dec_t (const RIJNDAEL_context *ctx, unsigned char *iv,
           unsigned char *out, const unsigned char *in, size_t nblocks)
{
  const V *k = enc_keys (ctx);
  V prev = loadu (iv);
  V x[8], c[8];

  for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128)
    {
      x[0] = prev;
      UNROLL
      for (int i = 0; i < 8; i++)
        {
          c[i] = loadu (in + 16 * i);
          if (i < 7)
            x[i + 1] = c[i];
        }
      enc_n<ROUNDS, 8> (k, x);
      UNROLL
      for (int i = 0; i < 8; i++)
        storeu (out + 16 * i, _mm_xor_si128 (x[i], c[i]));
      prev = c[7];
    }
  for (; nblocks; nblocks--, in += 16, out += 16)
    {
      V ci = loadu (in);
      storeu (out, _mm_xor_si128 (enc1<ROUNDS> (k, prev), ci));
      prev = ci;
    }
  storeu (iv, prev);
  return 0;
}

unsigned int
aesni_cfb_dec (void *ctx, unsigned char *iv, void *out, const void *in,
               size_t nblocks)
{
  unsigned int r = AESNI_DISPATCH (ctx, cfb_dec_t,
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
  unsigned int r = AESNI_DISPATCH (ctx, ofb_enc_t,
                                   (const RIJNDAEL_context *)ctx, iv,
                                   (unsigned char *)out,
                                   (const unsigned char *)in, nblocks);
  clear_xmm ();
  return r;
}

/* ---- CTR, 128-bit big-endian counter (SP 800-38A 6.5, B.1) -------- */

inline uint64_t
load_be64 (const unsigned char *p)
{
  uint64_t v;
  memcpy (&v, p, 8);
  return __builtin_bswap64 (v);
}

inline void
store_be64 (unsigned char *p, uint64_t v)
{
  v = __builtin_bswap64 (v);
  memcpy (p, &v, 8);
}

/* The counter block for (HI, LO) as it sits in memory.  */
inline V
ctr_block (uint64_t hi, uint64_t lo)
{
  return _mm_set_epi64x ((long long)__builtin_bswap64 (lo),
                         (long long)__builtin_bswap64 (hi));
}

template <unsigned int ROUNDS>
unsigned int
ctr16be_enc_t (const RIJNDAEL_context *ctx, unsigned char *ctr,
               unsigned char *out, const unsigned char *in, size_t nblocks)
{
  const V *k = enc_keys (ctx);
  /* Byte reversal of the whole block: memory order <-> a little-endian
   * 128-bit number whose low qword is the counter's low 64 bits.  */
  const V bswap128 = _mm_set_epi8 (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                   12, 13, 14, 15);
  uint64_t hi = load_be64 (ctr), lo = load_be64 (ctr + 8);
  V x[8];

  for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128)
    {
      if (lo <= UINT64_MAX - 8)
        {
          /* Fast path: no carry out of the low qword in this batch.  */
          V le = _mm_shuffle_epi8 (loadu (ctr), bswap128);
          UNROLL
          for (int i = 0; i < 8; i++)
            x[i] = _mm_shuffle_epi8 (_mm_add_epi64 (le, _mm_set_epi64x (0, i)),
                                     bswap128);
        }
      else
        {
          UNROLL
          for (int i = 0; i < 8; i++)
            {
              uint64_t l = lo + (uint64_t)i;
              x[i] = ctr_block (hi + (l < lo), l);
            }
        }
      {
        uint64_t l = lo + 8;
        hi += (l < lo);
        lo = l;
        store_be64 (ctr, hi);
        store_be64 (ctr + 8, lo);
      }
      enc_n<ROUNDS, 8> (k, x);
      UNROLL
      for (int i = 0; i < 8; i++)
        storeu (out + 16 * i, _mm_xor_si128 (x[i], loadu (in + 16 * i)));
    }
  for (; nblocks; nblocks--, in += 16, out += 16)
    {
      V ks = enc1<ROUNDS> (k, ctr_block (hi, lo));
      lo++;
      hi += (lo == 0);
      storeu (out, _mm_xor_si128 (ks, loadu (in)));
    }
  store_be64 (ctr, hi);
  store_be64 (ctr + 8, lo);
  return 0;
}

unsigned int
aesni_ctr16be_enc (void *ctx, unsigned char *ctr, void *out, const void *in,
                   size_t nblocks)
{
  unsigned int r = AESNI_DISPATCH (ctx, ctr16be_enc_t,
                                   (const RIJNDAEL_context *)ctx, ctr,
                                   (unsigned char *)out,
                                   (const unsigned char *)in, nblocks);
  clear_xmm ();
  return r;
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

  /* FIPS-197 5.2 (words as little-endian loads of 4 key bytes, so
   * RotWord is a rotation right by 8 bits and Rcon sits in the low byte).
   * Written straight into the context: no copy on the stack.  */
  ctx->rounds = rounds;
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

  /* FIPS-197 5.3.5: dec[0] = enc[Nr], dec[r] = InvMixColumns(enc[Nr-r]),
   * dec[Nr] = enc[0].  */
  V *ek = (V *)ctx->keys.ni.enc;
  V *dk = (V *)ctx->keys.ni.dec;
  dk[0] = ek[rounds];
  for (unsigned int r = 1; r < rounds; r++)
    dk[r] = _mm_aesimc_si128 (ek[rounds - r]);
  dk[rounds] = ek[0];
  clear_xmm ();
  return 64;
}

unsigned int
_gcry_aes_aesni_encrypt (void *ctx, unsigned char *out,
                         const unsigned char *in)
{
  const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;
  const V *k = enc_keys (c);
  V x = loadu (in);
  x = AESNI_DISPATCH (ctx, enc1, k, x);
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
  x = AESNI_DISPATCH (ctx, dec1, k, x);
  storeu (out, x);
  return 0;
}

void
_gcry_aes_aesni_fill_bulk (cipher_bulk_ops *bulk)
{
  bulk->ecb_crypt = aesni_ecb_crypt;
  bulk->cbc_enc = aesni_cbc_enc;
  bulk->cbc_dec = aesni_cbc_dec;
  bulk->cfb_enc = aesni_cfb_enc;
  bulk->cfb_dec = aesni_cfb_dec;
  bulk->ofb_enc = aesni_ofb_enc;
  bulk->ctr16be_enc = aesni_ctr16be_enc;
}
