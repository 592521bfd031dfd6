/* cipher-gcm-intel-pclmul.cpp - GHASH (NIST SP 800-38D 6.4) with PCLMULQDQ,
 * and GCM's stitched AES-NI CTR + GHASH kernel.
 *
 * Representation.  A block is loaded byte-reversed (PSHUFB), so the
 * 128-bit register holds the field element "reflected": the coefficient
 * of x^k (SP 800-38D 6.3: bit 7 of byte 0 is x^0) sits at register bit
 * 127 - k.  For reflected operands A, B the 255-bit carry-less product
 * clmul (A, B) has the coefficient of x^k of a*b at bit 254 - k, which is
 * the 256-bit reflected form of a*b*x.  The hash key powers are therefore
 * stored premultiplied by x^-1 = x^127 + x^6 + x + 1 (reflected:
 * 0xc2000000000000000000000000000001), and clmul (X, H^i * x^-1) is the
 * 256-bit reflected form of X * H^i itself: no 1-bit shift is needed.
 *
 * Aggregated reduction.  Eight blocks are folded at a time:
 *   Y' = (Y ^ X1) H^8 ^ X2 H^7 ^ ... ^ X8 H
 * The eight 256-bit products (Karatsuba, three PCLMULQDQ each, with the
 * xor of each power's halves precomputed) are summed unreduced; one
 * reduction modulo x^128 + x^7 + x^2 + x + 1 then finishes (see
 * reduce128 ()).  Y stays in a register across the whole buffer, and the
 * product that depends on Y is formed last, so the loop-carried chain is
 * one multiply, a few XORs and the reduction.
 *
 * The file also holds the stitched AES-NI CTR + GHASH kernel that the
 * AES-NI path installs as its gcm_crypt bulk slot (it needs this back
 * end's key layout); it is only called on CPUs with AES-NI.
 *
 * Constant time: only carry-less multiplies, shifts and XORs.
 */
#include <config.h>

#include <immintrin.h>
#include <string.h>

#include "g10lib.h"
#include "cipher-gcm.h"
#include "cipher-gcm-intel-clmul.h"
#include "frame-depth-x86.h"
#include "rijndael-internal.h"
#include "vec-clear-x86.h"

namespace {

using namespace gcm_clmul;

/* Stack bytes pclmul_ghash and the GCM kernel may leave spilled
 * secrets in: none on x86-64 (16 xmm registers hold everything), some
 * on i386 (8 registers).  */
#ifdef __x86_64__
constexpr unsigned int burn_depth = 0;
#else
constexpr unsigned int burn_depth = 512;
#endif

/* Key area layout: h[i] = H^(i+1) * x^-1, reflected; hk[i] holds the
 * xor of h[i]'s two 64-bit halves in both lanes (Karatsuba).  */
struct pclmul_key
{
  __m128i h[8];
  __m128i hk[8];
};
static_assert (sizeof (pclmul_key) <= GCM_GHASH_KEY_SIZE);


inline __m128i
load_reflected (const unsigned char *p, __m128i mask)
{
  return _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) p), mask);
}

/* Karatsuba 128x128 carry-less product of A and the key power (H, HK),
 * accumulated unreduced into LO, MID (the (a0^a1)(h0^h1) term) and HI.  */
inline void
mul_acc (__m128i a, __m128i h, __m128i hk, __m128i &lo, __m128i &mid,
         __m128i &hi)
{
  __m128i ak = _mm_xor_si128 (a, _mm_shuffle_epi32 (a, 0x4e));
  lo = _mm_xor_si128 (lo, _mm_clmulepi64_si128 (a, h, 0x00));
  hi = _mm_xor_si128 (hi, _mm_clmulepi64_si128 (a, h, 0x11));
  mid = _mm_xor_si128 (mid, _mm_clmulepi64_si128 (ak, hk, 0x00));
  /* Keep the sums accumulating in place: re-associated into a tree, the
   * products would all be live at once (and spilled).  */
  asm ("" : "+x" (lo), "+x" (mid), "+x" (hi));
}

/* Exact product of reflected A and B (with the 1-bit shift), for the key
 * set-up only.  */
inline __m128i
mul_exact (__m128i a, __m128i b)
{
  __m128i lo, hi;
  clmul256 (a, b, lo, hi);
  /* [HI:LO] <<= 1 (256-bit).  */
  __m128i clo = _mm_srli_epi64 (lo, 63), chi = _mm_srli_epi64 (hi, 63);
  lo = _mm_or_si128 (_mm_slli_epi64 (lo, 1), _mm_slli_si128 (clo, 8));
  hi = _mm_or_si128 (_mm_or_si128 (_mm_slli_epi64 (hi, 1),
                                   _mm_slli_si128 (chi, 8)),
                     _mm_srli_si128 (clo, 8));
  return reduce128 (lo, hi);
}

/* h[0] = H x^-1 (the one exact product), then the powers premultiplied
 * in three dependent steps instead of a chain of seven: H^2 = H H;
 * H^3 = H^2 H and H^4 = H^2 H^2; H^5..H^8 = H^4 H..H^4.  (GCM-SIV sets
 * a key up per message.)  */
unsigned int
pclmul_setkey (gcm_ghash_key *key, const unsigned char *hbytes)
{
  pclmul_key *k = reinterpret_cast<pclmul_key *> (key->bytes);
  const __m128i mask = bswap_mask128 ();
  const __m128i xinv = _mm_set_epi64x ((long long) 0xc200000000000000ULL, 1);
  __m128i p[8];
  p[0] = mul_exact (load_reflected (hbytes, mask), xinv);
  p[1] = mul_premul (p[0], p[0]);
  p[2] = mul_premul (p[1], p[0]);
  p[3] = mul_premul (p[1], p[1]);
  for (int i = 0; i < 4; i++)
    p[4 + i] = mul_premul (p[3], p[i]);
  for (int i = 0; i < 8; i++)
    {
      k->h[i] = p[i];
      k->hk[i] = _mm_xor_si128 (p[i], _mm_shuffle_epi32 (p[i], 0x4e));
    }
  /* P is in the frame (the red zone on x86-64).  */
  return FRAME_DEPTH_X86 ();
}

unsigned int
pclmul_ghash (const gcm_ghash_key *key, unsigned char *yp,
              const unsigned char *buf, size_t nblocks)
{
  const pclmul_key *k = reinterpret_cast<const pclmul_key *> (key->bytes);
  const __m128i mask = bswap_mask128 ();
  __m128i y = load_reflected (yp, mask);

  while (nblocks >= 8)
    {
      /* The seven products that do not depend on Y first, Y's last, so
       * the chain Y -> Y' is one multiply, one XOR and the reduction.  */
      __m128i lo = _mm_setzero_si128 (), mid = lo, hi = lo;
      for (int i = 1; i < 8; i++)
        mul_acc (load_reflected (buf + 16 * i, mask), k->h[7 - i],
                 k->hk[7 - i], lo, mid, hi);
      __m128i x0 = _mm_xor_si128 (y, load_reflected (buf, mask));
      mul_acc (x0, k->h[7], k->hk[7], lo, mid, hi);
      y = finish128_karatsuba (lo, mid, hi);
      buf += 128;
      nblocks -= 8;
    }
  if (nblocks)
    {
      /* 1..7 blocks: the same with H^n .. H^1.  */
      __m128i lo = _mm_setzero_si128 (), mid = lo, hi = lo;
      for (size_t i = 1; i < nblocks; i++)
        mul_acc (load_reflected (buf + 16 * i, mask), k->h[nblocks - 1 - i],
                 k->hk[nblocks - 1 - i], lo, mid, hi);
      __m128i x0 = _mm_xor_si128 (y, load_reflected (buf, mask));
      mul_acc (x0, k->h[nblocks - 1], k->hk[nblocks - 1], lo, mid, hi);
      y = finish128_karatsuba (lo, mid, hi);
    }
  _mm_storeu_si128 ((__m128i *) yp, _mm_shuffle_epi8 (y, mask));
  return burn_depth;
}

/* ---- Stitched AES-NI CTR + GHASH (the gcm_crypt bulk slot) ---------
 *
 * One pass over the data in groups of 8 blocks: the counter blocks of a
 * group go through the AES rounds while the GHASH products of 8
 * ciphertext blocks are computed between the rounds (AESENC and PCLMULQDQ
 * run on different units).  Decryption hashes the group it decrypts (its
 * input is the ciphertext); encryption hashes the previous group's output,
 * and the last group after the loop.  The counter is kept byte-reversed,
 * so its low 32 bits (SP 800-38D inc32) are dword 0 and PADDD wraps them
 * by themselves.  */

#define GCM_UNROLL _Pragma ("GCC unroll 16")

inline void
clear_xmm_regs ()
{
  vec_clear_xmm ();
}

/* AES-CTR keystream of 8 blocks from the byte-reversed counter CR (CR
 * advanced by 8), XORed into IN -> OUT, with the GHASH of the 8 blocks at
 * HASHIN folded into Y between the rounds (HASHIN NULL: no hashing).  */
/* Constants used as memory operands inside the kernel: with 8 AES
 * states, 3 GHASH sums, Y and the counter live, a register for each
 * constant would make the compiler spill (secret) states.  */
alignas (16) const uint32_t ctr_one[4] = { 1, 0, 0, 0 };
alignas (16) const unsigned char bswap_bytes[16]
  = { 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 };

/* V = bytes of V reversed (PSHUFB with a memory mask).  */
inline __m128i
bswap_mem (__m128i v)
{
  asm ("pshufb %1, %0" : "+x" (v) : "m" (*(const __m128i *) bswap_bytes));
  return v;
}

/* Dword 0 of V plus one (PADDD with a memory operand).  */
inline __m128i
inc_mem (__m128i v)
{
  asm ("paddd %1, %0" : "+x" (v) : "m" (*(const __m128i *) ctr_one));
  return v;
}

template <unsigned int ROUNDS, bool SIV>
inline __attribute__ ((always_inline)) void
ctr8_ghash8 (const __m128i *rk, const pclmul_key *k, __m128i &cr,
             __m128i &y, unsigned char *out, const unsigned char *in,
             const unsigned char *hashin)
{
  __m128i x[8];
  GCM_UNROLL
  for (int j = 0; j < 8; j++)
    {
      /* GCM-SIV's counter blocks are used as they are (RFC 8452 4: the
       * 32-bit little-endian counter in bytes 0..3, dword 0).  */
      x[j] = _mm_xor_si128 (SIV ? cr : bswap_mem (cr), rk[0]);
      cr = inc_mem (cr);
    }
  __m128i lo = _mm_setzero_si128 (), mid = lo, hi = lo;
  GCM_UNROLL
  for (unsigned int r = 1; r < ROUNDS; r++)
    {
      const __m128i key = rk[r];
      GCM_UNROLL
      for (int j = 0; j < 8; j++)
        x[j] = _mm_aesenc_si128 (x[j], key);
      if (hashin && r <= 8)
        {
          /* Blocks 7..1 first, block 0 (which takes Y) last.  */
          const int b = (8 - (int) r) % 8;
          __m128i d = _mm_loadu_si128 ((const __m128i *) (hashin + 16 * b));
          if (!SIV)
            d = bswap_mem (d);
          if (b == 0)
            d = _mm_xor_si128 (d, y);
          mul_acc (d, k->h[7 - b], k->hk[7 - b], lo, mid, hi);
        }
    }
  const __m128i last = rk[ROUNDS];
  GCM_UNROLL
  for (int j = 0; j < 8; j++)
    {
      x[j] = _mm_aesenclast_si128 (x[j], last);
      _mm_storeu_si128 ((__m128i *) (out + 16 * j),
                        _mm_xor_si128 (x[j], _mm_loadu_si128 (
                                           (const __m128i *) (in + 16 * j))));
    }
  if (hashin)
    y = finish128_karatsuba (lo, mid, hi);
}

/* NGROUPS groups of 8 blocks with CTRP (16 bytes) the next counter
 * block and YP the running hash value, both updated: GCM (GHASH in SP
 * 800-38D byte order, counter blocks big-endian) or, SIV, GCM-SIV
 * (POLYVAL in RFC 8452 order on this back end's key of the Appendix A
 * mapping, the blocks as they are: POLYVAL's bytes need no reversal in
 * this representation; 32-bit little-endian counter).  HASH_OUT: the
 * hash runs over the output (GCM encryption, GCM-SIV decryption), each
 * group's during the next group's AES rounds and the last one's after
 * the loop; else over the input, during its own group.  Not inlined:
 * the caller burns this frame after the call.  */
template <unsigned int ROUNDS, bool SIV>
__attribute__ ((noinline)) void
gcm_aesni_crypt_t (const __m128i *rk, const pclmul_key *k, unsigned char *yp,
                   unsigned char *ctrp, unsigned char *out,
                   const unsigned char *in, size_t ngroups, bool hash_out)
{
  const __m128i mask = bswap_mask128 ();
  __m128i y = _mm_loadu_si128 ((const __m128i *) yp);
  __m128i cr = _mm_loadu_si128 ((const __m128i *) ctrp);
  if (!SIV)
    {
      y = _mm_shuffle_epi8 (y, mask);
      cr = _mm_shuffle_epi8 (cr, mask);
    }

  if (hash_out)
    {
      ctr8_ghash8<ROUNDS, SIV> (rk, k, cr, y, out, in, nullptr);
      for (size_t g = 1; g < ngroups; g++)
        {
          ctr8_ghash8<ROUNDS, SIV> (rk, k, cr, y, out + 128, in + 128, out);
          out += 128;
          in += 128;
        }
      /* The last group's output.  */
      auto block = [&] (int i) {
        const __m128i d = _mm_loadu_si128 ((const __m128i *) (out + 16 * i));
        return SIV ? d : _mm_shuffle_epi8 (d, mask);
      };
      __m128i lo = _mm_setzero_si128 (), mid = lo, hi = lo;
      for (int i = 1; i < 8; i++)
        mul_acc (block (i), k->h[7 - i], k->hk[7 - i], lo, mid, hi);
      mul_acc (_mm_xor_si128 (y, block (0)), k->h[7], k->hk[7], lo, mid,
               hi);
      y = finish128_karatsuba (lo, mid, hi);
    }
  else
    for (size_t g = 0; g < ngroups; g++)
      {
        ctr8_ghash8<ROUNDS, SIV> (rk, k, cr, y, out, in, in);
        out += 128;
        in += 128;
      }

  if (!SIV)
    {
      y = _mm_shuffle_epi8 (y, mask);
      cr = _mm_shuffle_epi8 (cr, mask);
    }
  _mm_storeu_si128 ((__m128i *) yp, y);
  _mm_storeu_si128 ((__m128i *) ctrp, cr);
  clear_xmm_regs ();
}

/* gcm_aesni_crypt_t for the AES context's round count, then the burn of
 * its frame.  The kernel keeps 8 AES states, the GHASH sums, Y and the
 * counter in the 16 registers; GCC 12 still parks a few values (Y among
 * them) in the red zone below the stack pointer (no frame): clear that,
 * with some margin for other compilers: 256 bytes below this function's
 * stack pointer (the kernel is not inlined), with 16-byte stores, the
 * stack pointer moved down over them and back (cheaper than the REP
 * STOSB of _gcry_burn_stack for a short call).  x86-64 only.  */
template <bool SIV>
inline void
gcm_aesni_crypt (const RIJNDAEL_context *actx, const pclmul_key *k,
                 unsigned char *yp, unsigned char *ctrp, unsigned char *out,
                 const unsigned char *in, size_t ngroups, bool hash_out)
{
  const __m128i *rk = (const __m128i *) actx->keys.ni.enc;
  RIJNDAEL_DISPATCH_B (actx, gcm_aesni_crypt_t, SIV, rk, k, yp, ctrp, out, in,
                       ngroups, hash_out);
#ifdef __x86_64__
  asm volatile ("pxor %%xmm0, %%xmm0\n\t"
                "sub $256, %%rsp\n\t"
                ".set .Lgcm_ni_burn_off, 0\n\t"
                ".rept 16\n\t"
                "movups %%xmm0, .Lgcm_ni_burn_off(%%rsp)\n\t"
                ".set .Lgcm_ni_burn_off, .Lgcm_ni_burn_off + 16\n\t"
                ".endr\n\t"
                "add $256, %%rsp"
                : : : "xmm0", "memory");
#else
  _gcry_burn_stack (256);
#endif
}

} // namespace

const gcm_ghash_ops _gcry_ghash_ops_pclmul = { pclmul_setkey, pclmul_ghash, nullptr };

/* The gcm_crypt bulk slot of the AES-NI path (set by
 * _gcry_aes_aesni_fill_bulk; the VAES paths' slots hand it what their
 * kernels cannot take): NBLOCKS whole blocks of GCM text with C->ctr as
 * the next counter block (inc32) and the pclmul GHASH key of C's GCM
 * state; whole groups of 8 only.  Returns the blocks left undone (all of
 * them when the GHASH back end is not "pclmul").  The caller
 * (cipher-gcm.cpp) has no partial keystream or GHASH block pending.
 * x86-64 only: with the 8 xmm registers of i386 the kernel would spill
 * its states, and the two-pass path (4-lane CTR, then GHASH) is the
 * better one there.  */
size_t
_gcry_aes_aesni_gcm_crypt (gcry_cipher_hd_t c, void *out, const void *in,
                           size_t nblocks, int encrypt)
{
#ifndef __x86_64__
  (void) c; (void) out; (void) in; (void) encrypt;
  return nblocks;
#else
  gcm_state *st = static_cast<gcm_state *> (c->mode_ctx);
  const RIJNDAEL_context *actx = static_cast<const RIJNDAEL_context *> (c->ctx);
  if (!st || actx->path != RIJNDAEL_PATH_AESNI)
    return nblocks;
  if (st->ghash != &_gcry_ghash_ops_pclmul || nblocks < 8)
    return nblocks;
  gcm_aesni_crypt<false> (actx,
                          reinterpret_cast<const pclmul_key *> (st->key.bytes),
                          st->y, c->ctr, static_cast<unsigned char *> (out),
                          static_cast<const unsigned char *> (in),
                          nblocks / 8, encrypt);
  return nblocks % 8;
#endif
}

/* The gcm_siv_dec bulk slot of the AES-NI path (see
 * cipher_bulk_ops::gcm_siv_dec; the VAES paths' slots hand it the pclmul
 * key): whole groups of 8 blocks of GCM-SIV decryption, CTR from the
 * counter block CTR and POLYVAL of the plaintext continued in S, on the
 * pclmul key area KEY.  Returns the blocks left undone (all of them for
 * another back end, and on i386 as for GCM).  */
size_t
_gcry_aes_aesni_gcm_siv_dec (void *ctx, const gcm_ghash_ops *ghash,
                             const gcm_ghash_key *key, unsigned char *s,
                             unsigned char *ctr, void *out, const void *in,
                             size_t nblocks)
{
#ifndef __x86_64__
  (void) ctx; (void) ghash; (void) key; (void) s; (void) ctr; (void) out;
  (void) in;
  return nblocks;
#else
  const RIJNDAEL_context *actx = static_cast<const RIJNDAEL_context *> (ctx);
  if (actx->path != RIJNDAEL_PATH_AESNI || ghash != &_gcry_ghash_ops_pclmul
      || nblocks < 8)
    return nblocks;
  gcm_aesni_crypt<true> (actx, reinterpret_cast<const pclmul_key *> (key->bytes),
                         s, ctr, static_cast<unsigned char *> (out),
                         static_cast<const unsigned char *> (in), nblocks / 8,
                         true);
  return nblocks % 8;
#endif
}
