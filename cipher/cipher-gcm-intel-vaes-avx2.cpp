/* cipher-gcm-intel-vaes-avx2.cpp - the stitched VAES CTR + VPCLMULQDQ
 * GHASH kernel of GCM (NIST SP 800-38D 6.4, 6.5) and of GCM-SIV
 * decryption (RFC 8452 4, POLYVAL through Appendix A) on ymm registers
 * (16 blocks per group): cipher-gcm-intel-vaes-kernel.h instantiated
 * with this width's traits.
 *
 * Built with the VAES/VPCLMULQDQ AVX2 flags in its own convenience
 * library (amd64 and i386).  The vaes-avx2 AES path's gcm_crypt and
 * gcm_siv_dec slots (below, set by its fill_bulk) take the blocks when
 * the GHASH back end's key area (cipher-gcm-intel-vpclmul.h) holds the
 * powers the kernel reads: vpclmul-avx2's or vpclmul-avx512's (GCM-SIV
 * decryption hands the latter to the zmm kernel).
 */
#include <config.h>

#include "cipher-gcm-intel-vpclmul.h"
#include "frame-depth-x86.h"
#include "rijndael-internal.h"
#include "simd-x86.h"
#include "vec-clear-x86.h"

namespace {

/* The counter constants of this width (cipher-gcm-intel-vpclmul.h).  */
constexpr ctr_steps<2, 8> ctr_steps2;

#define GCM_ALWAYS_INLINE static inline __attribute__ ((always_inline))

namespace vaes256 {

struct V : simd_x86::Y2
{
  static constexpr int REGS = 8;
  GCM_ALWAYS_INLINE T load_a (const void *p)
  { return _mm256_load_si256 ((const __m256i *) p); }
  GCM_ALWAYS_INLINE T load_fresh (const void *p)
  {
    T r;
    asm volatile ("vmovdqa %1, %0" : "=x" (r) : "m" (*(const T *) p));
    return r;
  }
  GCM_ALWAYS_INLINE T bswap (T v)
  { return _mm256_shuffle_epi8 (v, _mm256_load_si256 ((const __m256i *) bswap_mask512)); }
  /* The kernel's primitives (see the 512-bit ones) as intrinsics: with
   * 16 registers the compiler's allocation matters more than the
   * order.  */
  GCM_ALWAYS_INLINE void aes_round (T (&x)[REGS], const T *key)
  {
    const T k = load_fresh (key);
    _Pragma ("GCC unroll 16")
    for (int j = 0; j < REGS; j++)
      x[j] = _mm256_aesenc_epi128 (x[j], k);
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
    const T pv = load_fresh (p);
    lo = clmul00 (d, pv);
    hi = clmul11 (d, pv);
    mid = clmul00 (dk, load_fresh (q));
  }
  GCM_ALWAYS_INLINE void xor3 (T &a, T b, T c)
  { a = xor_ (a, xor_ (b, c)); }
  GCM_ALWAYS_INLINE __m128i hxor (T v) { return hxor256 (v); }
  GCM_ALWAYS_INLINE T ctr_offsets ()
  { return _mm256_load_si256 ((const __m256i *) ctr_lane_offsets); }
  GCM_ALWAYS_INLINE T ctr_next (T c)
  {
    asm volatile ("vpaddd %1, %0, %0" : "+x" (c) : "m" (*(const T *) ctr_steps2.reg));
    return c;
  }
  GCM_ALWAYS_INLINE T ctr_group (T c)
  {
    asm volatile ("vpaddd %1, %0, %0" : "+x" (c) : "m" (*(const T *) ctr_steps2.group));
    return c;
  }
  GCM_ALWAYS_INLINE T ctr_be_add (T c, int j)
  {
    if (j)
      asm volatile ("vpaddd %1, %0, %0" : "+x" (c)
                    : "m" (*(const T *) ctr_steps2.be[j]));
    return c;
  }
  GCM_ALWAYS_INLINE T reduce_lanes (T lo, T mid, T hi)
  { return finish256_karatsuba (lo, mid, hi); }
  GCM_ALWAYS_INLINE void cleanup () { _mm256_zeroall (); }
};

#include "cipher-gcm-intel-vaes-kernel.h"

} // namespace vaes256

} // namespace

/* Whether the key area of GHASH back end G has what this kernel reads
 * (H^1..H^32 in the vpclmul layout): vpclmul-avx2's, or vpclmul-avx512's
 * (all of H^1..H^64).  */
static bool
key_fits (const gcm_ghash_ops *g)
{
  return g == &_gcry_ghash_ops_vpclmul_avx2
         || g == &_gcry_ghash_ops_vpclmul_avx512;
}

/* The vaes-avx2 AES path's gcm_crypt bulk slot (set by
 * _gcry_aes_vaes_avx2_fill_bulk; see cipher_bulk_ops::gcm_crypt): whole
 * groups of 16 blocks when the GHASH back end's key fits (key_fits);
 * otherwise, and on i386 (8 vector registers: the two-pass path is the
 * better one there, as for the PCLMULQDQ kernel), the AES-NI path's slot.
 * Returns the blocks left undone.  */
size_t
_gcry_aes_vaes_avx2_gcm_crypt (gcry_cipher_hd_t c, void *out, const void *in,
                               size_t nblocks, int encrypt)
{
#ifdef __x86_64__
  const gcm_state *st = static_cast<const gcm_state *> (c->mode_ctx);
  const RIJNDAEL_context *actx = static_cast<const RIJNDAEL_context *> (c->ctx);
  if (st && actx->path == RIJNDAEL_PATH_AESNI && key_fits (st->ghash))
    return vaes256::crypt (c, static_cast<unsigned char *> (out),
                           static_cast<const unsigned char *> (in), nblocks,
                           encrypt);
#endif
  return _gcry_aes_aesni_gcm_crypt (c, out, in, nblocks, encrypt);
}

/* Its gcm_siv_dec bulk slot (see cipher_bulk_ops::gcm_siv_dec): on the
 * vpclmul-avx512 key the zmm kernel (the CPU has AVX-512, as that back
 * end needs it; on i386 it measured 8-11% faster than this one at 16-64
 * KiB), on the vpclmul-avx2 key this one, whole groups of 32 or 16
 * blocks; with another back end the AES-NI path's slot.  */
size_t
_gcry_aes_vaes_avx2_gcm_siv_dec (void *ctx, const gcm_ghash_ops *ghash,
                                 const gcm_ghash_key *key, unsigned char *s,
                                 unsigned char *ctr, void *out, const void *in,
                                 size_t nblocks)
{
  const RIJNDAEL_context *actx = static_cast<const RIJNDAEL_context *> (ctx);
  if (actx->path != RIJNDAEL_PATH_AESNI || !key_fits (ghash))
    return _gcry_aes_aesni_gcm_siv_dec (ctx, ghash, key, s, ctr, out, in,
                                        nblocks);
  if (ghash == &_gcry_ghash_ops_vpclmul_avx512)
    return _gcry_gcm_vaes_avx512_siv_dec (ctx, key, s, ctr, out, in, nblocks);
  return vaes256::siv_decrypt (actx, key, s, ctr,
                               static_cast<unsigned char *> (out),
                               static_cast<const unsigned char *> (in),
                               nblocks);
}
