/* cipher-gcm-intel-vaes-avx512.cpp - the stitched VAES CTR + VPCLMULQDQ
 * GHASH kernel of GCM (NIST SP 800-38D 6.4, 6.5) and of GCM-SIV
 * decryption (RFC 8452 4, POLYVAL through Appendix A) on zmm registers
 * (32 blocks per group): cipher-gcm-intel-vaes-kernel.h instantiated
 * with this width's traits.
 *
 * Built with the VAES/VPCLMULQDQ AVX-512 flags in its own convenience
 * library (amd64 and i386).  The vaes-avx512 AES path's gcm_crypt and
 * gcm_siv_dec slots (below, set by its fill_bulk; x86-64 only, as that
 * path is) take the blocks when the GHASH back end is vpclmul-avx512,
 * whose key area (cipher-gcm-intel-vpclmul.h) the kernel reads; the
 * vaes-avx2 path's gcm_siv_dec slot hands this kernel the blocks of that
 * key too (_gcry_gcm_vaes_avx512_siv_dec).
 */
#include <config.h>

#include "cipher-gcm-intel-vpclmul.h"
#include "frame-depth-x86.h"
#include "rijndael-internal.h"
#include "simd-x86.h"
#include "vec-clear-x86.h"

namespace {

/* The counter constants of this width (cipher-gcm-intel-vpclmul.h).  */
constexpr ctr_steps<4, 8> ctr_steps4;

#define GCM_ALWAYS_INLINE static inline __attribute__ ((always_inline))

namespace vaes512 {

struct V : simd_x86::Z4
{
  static constexpr int REGS = 8;
  GCM_ALWAYS_INLINE T load_a (const void *p) { return _mm512_load_si512 (p); }
  /* The plain intrinsics, not Z4's forms (which keep GCC 12's
   * -Wmaybe-uninitialized quiet in files without this one's pragma around
   * <immintrin.h>): the same instructions, but with Z4's GCC allocates
   * this kernel's scalar registers differently.  */
  GCM_ALWAYS_INLINE T bcast (__m128i k) { return _mm512_broadcast_i32x4 (k); }
  GCM_ALWAYS_INLINE __m128i lane0 (T v) { return _mm512_castsi512_si128 (v); }
  GCM_ALWAYS_INLINE T bswap (T v)
  { return _mm512_shuffle_epi8 (v, _mm512_load_si512 (bswap_mask512)); }
#ifdef __x86_64__
  /* The group's hash and AES work as ordered asm statements (the
   * kernel's schedule; the compiler would otherwise interleave them its
   * own way, measurably slower; x86-64 only: i386 has 8 vector
   * registers, the asm needs 9).  One middle round of the 8
   * registers.  */
  GCM_ALWAYS_INLINE void aes_round (T (&x)[REGS], const T *key)
  {
    static_assert (REGS == 8, "the asm names 8 registers");
    T kr;
    asm volatile ("vmovdqa64 %[k], %[kr]\n\t"
                  "vaesenc %[kr], %[x0], %[x0]\n\t"
                  "vaesenc %[kr], %[x1], %[x1]\n\t"
                  "vaesenc %[kr], %[x2], %[x2]\n\t"
                  "vaesenc %[kr], %[x3], %[x3]\n\t"
                  "vaesenc %[kr], %[x4], %[x4]\n\t"
                  "vaesenc %[kr], %[x5], %[x5]\n\t"
                  "vaesenc %[kr], %[x6], %[x6]\n\t"
                  "vaesenc %[kr], %[x7], %[x7]"
                  : [kr] "=&v" (kr), [x0] "+v" (x[0]), [x1] "+v" (x[1]),
                    [x2] "+v" (x[2]), [x3] "+v" (x[3]), [x4] "+v" (x[4]),
                    [x5] "+v" (x[5]), [x6] "+v" (x[6]), [x7] "+v" (x[7])
                  : [k] "m" (*key));
  }
  /* D: the 4 blocks at P, byte-reversed when REV (YZ XORed in when
   * FOLD); DK: D's 64-bit halves XORed in each lane.  */
  GCM_ALWAYS_INLINE void prep (const unsigned char *p, bool rev, bool fold,
                               T yz, T &d, T &dk)
  {
    if (rev)
      asm volatile ("vmovdqu64 %[m], %[d]\n\t"
                    "vpshufb %[mask], %[d], %[d]"
                    : [d] "=v" (d)
                    : [m] "m" (*(const T *) p),
                      [mask] "m" (*(const T *) bswap_mask512));
    else
      asm volatile ("vmovdqu64 %[m], %[d]"
                    : [d] "=v" (d) : [m] "m" (*(const T *) p));
    if (fold)
      asm volatile ("vpxorq %[y], %[d], %[d]\n\t"
                    "vpshufd $0x4e, %[d], %[dk]\n\t"
                    "vpxorq %[d], %[dk], %[dk]"
                    : [d] "+v" (d), [dk] "=&v" (dk) : [y] "v" (yz));
    else
      asm volatile ("vpshufd $0x4e, %[d], %[dk]\n\t"
                    "vpxorq %[d], %[dk], %[dk]"
                    : [dk] "=&v" (dk) : [d] "v" (d));
  }
  /* The Karatsuba products (see the head of this file) of D (DK) with
   * the powers at P (their halves XORed at Q).  */
  GCM_ALWAYS_INLINE void mul (T d, T dk, const T *p, const T *q, T &lo,
                              T &mid, T &hi)
  {
    asm volatile ("vpclmulqdq $0x00, %[p], %[d], %[lo]\n\t"
                  "vpclmulqdq $0x11, %[p], %[d], %[hi]\n\t"
                  "vpclmulqdq $0x00, %[q], %[dk], %[mid]"
                  : [lo] "=&v" (lo), [mid] "=&v" (mid), [hi] "=&v" (hi)
                  : [d] "v" (d), [dk] "v" (dk), [p] "m" (*p), [q] "m" (*q));
  }
  /* A ^= B ^ C.  */
  GCM_ALWAYS_INLINE void xor3 (T &a, T b, T c)
  {
    asm volatile ("vpternlogq $0x96, %[c], %[b], %[a]"
                  : [a] "+v" (a) : [b] "v" (b), [c] "v" (c));
  }
#else
  GCM_ALWAYS_INLINE void aes_round (T (&x)[REGS], const T *key)
  {
    const T k = _mm512_load_si512 (key);
    _Pragma ("GCC unroll 16")
    for (int j = 0; j < REGS; j++)
      x[j] = _mm512_aesenc_epi128 (x[j], k);
  }
  GCM_ALWAYS_INLINE void prep (const unsigned char *p, bool rev, bool fold,
                               T yz, T &d, T &dk)
  {
    d = rev ? bswap (load (p)) : load (p);
    if (fold)
      d = xor_ (d, yz);
    dk = xor_ (d, swap64 (d));
  }
  GCM_ALWAYS_INLINE void mul (T d, T dk, const T *p, const T *q, T &lo,
                              T &mid, T &hi)
  {
    const T pv = _mm512_load_si512 (p);
    lo = clmul00 (d, pv);
    hi = clmul11 (d, pv);
    mid = clmul00 (dk, _mm512_load_si512 (q));
  }
  GCM_ALWAYS_INLINE void xor3 (T &a, T b, T c)
  { a = _mm512_ternarylogic_epi64 (a, b, c, 0x96); }
#endif
  GCM_ALWAYS_INLINE __m128i hxor (T v) { return hxor512 (v); }
  GCM_ALWAYS_INLINE T ctr_offsets () { return _mm512_load_si512 (ctr_lane_offsets); }
  GCM_ALWAYS_INLINE T ctr_next (T c)
  {
    asm volatile ("vpaddd %1, %0, %0" : "+v" (c) : "m" (*(const T *) ctr_steps4.reg));
    return c;
  }
  GCM_ALWAYS_INLINE T ctr_group (T c)
  {
    asm volatile ("vpaddd %1, %0, %0" : "+v" (c) : "m" (*(const T *) ctr_steps4.group));
    return c;
  }
  GCM_ALWAYS_INLINE T ctr_be_add (T c, int j)
  {
    if (j)
      asm volatile ("vpaddd %1, %0, %0" : "+v" (c)
                    : "m" (*(const T *) ctr_steps4.be[j]));
    return c;
  }
  GCM_ALWAYS_INLINE T reduce_lanes (T lo, T mid, T hi)
  { return finish512_karatsuba (lo, mid, hi); }
  GCM_ALWAYS_INLINE void cleanup () { vec_clear_zmm (); }  /* zmm16-31 too.  */
};

#include "cipher-gcm-intel-vaes-kernel.h"

} // namespace vaes512

} // namespace

/* GCM-SIV decryption on the vpclmul-avx512 key area KEY (see
 * cipher-gcm.h).  */
size_t
_gcry_gcm_vaes_avx512_siv_dec (const void *ctx, const gcm_ghash_key *key,
                               unsigned char *s, unsigned char *ctr,
                               void *out, const void *in, size_t nblocks)
{
  return vaes512::siv_decrypt (static_cast<const RIJNDAEL_context *> (ctx),
                               key, s, ctr, static_cast<unsigned char *> (out),
                               static_cast<const unsigned char *> (in),
                               nblocks);
}

#ifdef __x86_64__
/* The vaes-avx512 AES path's gcm_crypt bulk slot (set by
 * _gcry_aes_vaes_avx512_fill_bulk; see cipher_bulk_ops::gcm_crypt): whole
 * groups of 32 blocks when the GHASH back end is vpclmul-avx512, whose
 * key area this kernel reads (all of H^1..H^64); with another back end
 * the AES-NI path's slot (the PCLMULQDQ kernel, or nothing).  Returns the
 * blocks left undone.  */
size_t
_gcry_aes_vaes_avx512_gcm_crypt (gcry_cipher_hd_t c, void *out,
                                 const void *in, size_t nblocks, int encrypt)
{
  const gcm_state *st = static_cast<const gcm_state *> (c->mode_ctx);
  const RIJNDAEL_context *actx = static_cast<const RIJNDAEL_context *> (c->ctx);
  if (st && actx->path == RIJNDAEL_PATH_AESNI
      && st->ghash == &_gcry_ghash_ops_vpclmul_avx512)
    return vaes512::crypt (c, static_cast<unsigned char *> (out),
                           static_cast<const unsigned char *> (in), nblocks,
                           encrypt);
  return _gcry_aes_aesni_gcm_crypt (c, out, in, nblocks, encrypt);
}

/* Its gcm_siv_dec bulk slot (see cipher_bulk_ops::gcm_siv_dec): whole
 * groups of 32 blocks on the key area of vpclmul-avx512; with another
 * back end the AES-NI path's slot.  */
size_t
_gcry_aes_vaes_avx512_gcm_siv_dec (void *ctx, const gcm_ghash_ops *ghash,
                                   const gcm_ghash_key *key, unsigned char *s,
                                   unsigned char *ctr, void *out,
                                   const void *in, size_t nblocks)
{
  const RIJNDAEL_context *actx = static_cast<const RIJNDAEL_context *> (ctx);
  if (actx->path != RIJNDAEL_PATH_AESNI
      || ghash != &_gcry_ghash_ops_vpclmul_avx512)
    return _gcry_aes_aesni_gcm_siv_dec (ctx, ghash, key, s, ctr, out, in,
                                        nblocks);
  return _gcry_gcm_vaes_avx512_siv_dec (ctx, key, s, ctr, out, in, nblocks);
}
#endif /* __x86_64__ */
