/* simd-x86.h - x86 vector traits: one 128-bit-lane view of xmm, ymm and
 * zmm registers for the kernels that are templates over the width.
 *
 * X1 (xmm, 1 block per register), Y2 (ymm, 2) and Z4 (zmm, 4) give the
 * same operations on W 16-byte lanes, so one kernel serves every width:
 * the VAES AES kernels (rijndael-vaes-kernels.h), the VPCLMULQDQ
 * POLYVAL kernel (cipher-gcm-siv-vpclmul-kernel.h) and the stitched GCM
 * kernel (cipher-gcm-intel-vaes-kernel.h, whose traits add their own
 * asm primitives to Y2 and Z4) and ChaCha20's row kernel
 * (chacha20-rows.h: one block per lane).  Include only from
 * files built for the ISA the traits use: Y2 exists where __AVX2__ is
 * defined, Z4 where __AVX512F__ is; X1 uses AES-NI, PCLMULQDQ and AVX2
 * forms.  Everything has internal linkage (anonymous namespace): each
 * including file gets its own copy built with its own flags.
 */
#ifndef GCIPHER_SIMD_X86_H
#define GCIPHER_SIMD_X86_H

#include <stdint.h>
#include <immintrin.h>

#define SIMD_INLINE inline __attribute__ ((always_inline))

namespace {
namespace simd_x86 {

/* ---- Vector traits --------------------------------------------------
 * T: the register type; W: 16-byte blocks (128-bit lanes) per register.
 * load/store: unaligned W blocks; key: round key broadcast to every lane
 * from 16 aligned bytes; bcast: a block (xmm) to every lane; lane0: lane
 * 0 as a block; fold: xor of all lanes; shift_in (CUR, PREV): lanes
 * [PREV, CUR_0 .. CUR_{W-2}]; last_lane (B): B in lane W-1, zero
 * elsewhere; set (P): lane l = P[l]; lt64u (A, B): all-ones in each
 * 64-bit element where A < B unsigned; bslli8: each lane shifted up by 8
 * bytes (its low qword to its high one); clmul01: per lane, high qword
 * of A times low qword of B, carry-less; add32 / add64: per 32-bit /
 * 64-bit element, wrapping; bswap: each lane's 16 bytes
 * reversed; pairs (V): lane l = (V[2l], V[2l+1]) as (low, high) qwords;
 * zero: all zero; first_lane (B): B in lane 0, zero elsewhere; clmul00 /
 * clmul11: per lane, the low (high) qwords of A and B multiplied,
 * carry-less; swap64: each lane's two qwords swapped; shuffle32<IMM>:
 * PSHUFD with IMM in every lane; bsrli8: each lane shifted down by 8
 * bytes; reversed: the lanes in reverse order.  */

struct X1
{
  typedef __m128i T;
  static constexpr int W = 1;
  static SIMD_INLINE T load (const void *p)
  { return _mm_loadu_si128 ((const __m128i *)p); }
  static SIMD_INLINE void store (void *p, T v)
  { _mm_storeu_si128 ((__m128i *)p, v); }
  static SIMD_INLINE T key (const void *p)
  { return _mm_load_si128 ((const __m128i *)p); }
  static SIMD_INLINE T bcast (__m128i b) { return b; }
  static SIMD_INLINE __m128i lane0 (T v) { return v; }
  static SIMD_INLINE __m128i fold (T v) { return v; }
  static SIMD_INLINE T shift_in (T, __m128i prev) { return prev; }
  static SIMD_INLINE T last_lane (__m128i b) { return b; }
  static SIMD_INLINE __m128i last (T v) { return v; }
  static SIMD_INLINE T bcast_mem (const void *p) { return load (p); }
  static SIMD_INLINE T blend_last (T, T b) { return b; }
  static SIMD_INLINE T bcast_last (T v) { return v; }
  static SIMD_INLINE T set (const __m128i *p) { return p[0]; }
  static SIMD_INLINE T xor_ (T a, T b) { return _mm_xor_si128 (a, b); }
  static SIMD_INLINE T enc (T a, T k) { return _mm_aesenc_si128 (a, k); }
  static SIMD_INLINE T enclast (T a, T k)
  { return _mm_aesenclast_si128 (a, k); }
  static SIMD_INLINE T dec (T a, T k) { return _mm_aesdec_si128 (a, k); }
  static SIMD_INLINE T declast (T a, T k)
  { return _mm_aesdeclast_si128 (a, k); }
  static SIMD_INLINE T add32 (T a, T b) { return _mm_add_epi32 (a, b); }
  static SIMD_INLINE T add64 (T a, T b) { return _mm_add_epi64 (a, b); }
  static SIMD_INLINE T sub64 (T a, T b) { return _mm_sub_epi64 (a, b); }
  static SIMD_INLINE T lt64u (T a, T b)
  {
    const T s = _mm_set1_epi64x (INT64_MIN);
    return _mm_cmpgt_epi64 (_mm_xor_si128 (b, s), _mm_xor_si128 (a, s));
  }
  static SIMD_INLINE T bslli8 (T a) { return _mm_slli_si128 (a, 8); }
  template <int B> static SIMD_INLINE T bslli (T a) { return _mm_slli_si128 (a, B); }
  template <int B> static SIMD_INLINE T srli64 (T a) { return _mm_srli_epi64 (a, B); }
  static SIMD_INLINE T sllv (T a, T c) { return _mm_sllv_epi64 (a, c); }
  static SIMD_INLINE T srlv (T a, T c) { return _mm_srlv_epi64 (a, c); }
  static SIMD_INLINE T clmul01 (T a, T b)
  { return _mm_clmulepi64_si128 (a, b, 0x01); }
  /* PSHUFB control reversing the 16 bytes of a lane.  */
  static SIMD_INLINE __m128i bswap_mask ()
  {
    return _mm_set_epi8 (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                         15);
  }
  static SIMD_INLINE T bswap (T a) { return _mm_shuffle_epi8 (a, bswap_mask ()); }
  static SIMD_INLINE T pairs (const int64_t *v)
  { return _mm_set_epi64x (v[1], v[0]); }
  static SIMD_INLINE T zero () { return _mm_setzero_si128 (); }
  static SIMD_INLINE T first_lane (__m128i b) { return b; }
  static SIMD_INLINE T clmul00 (T a, T b)
  { return _mm_clmulepi64_si128 (a, b, 0x00); }
  static SIMD_INLINE T clmul11 (T a, T b)
  { return _mm_clmulepi64_si128 (a, b, 0x11); }
  static SIMD_INLINE T swap64 (T a) { return _mm_shuffle_epi32 (a, 0x4e); }
  template <int IMM> static SIMD_INLINE T shuffle32 (T a)
  { return _mm_shuffle_epi32 (a, IMM); }
  static SIMD_INLINE T bsrli8 (T a) { return _mm_srli_si128 (a, 8); }
  static SIMD_INLINE T reversed (T v) { return v; }
};

#ifdef __AVX2__
struct Y2
{
  typedef __m256i T;
  static constexpr int W = 2;
  static SIMD_INLINE T load (const void *p)
  { return _mm256_loadu_si256 ((const __m256i *)p); }
  static SIMD_INLINE void store (void *p, T v)
  { _mm256_storeu_si256 ((__m256i *)p, v); }
  static SIMD_INLINE T key (const void *p)
  { return _mm256_broadcastsi128_si256 (_mm_load_si128 ((const __m128i *)p)); }
  static SIMD_INLINE T bcast (__m128i b)
  { return _mm256_broadcastsi128_si256 (b); }
  static SIMD_INLINE __m128i lane0 (T v) { return _mm256_castsi256_si128 (v); }
  static SIMD_INLINE __m128i fold (T v)
  {
    return _mm_xor_si128 (_mm256_castsi256_si128 (v),
                          _mm256_extracti128_si256 (v, 1));
  }
  static SIMD_INLINE T shift_in (T cur, __m128i prev)
  { return _mm256_permute2x128_si256 (bcast (prev), cur, 0x21); }
  static SIMD_INLINE T last_lane (__m128i b)
  { return _mm256_set_m128i (b, _mm_setzero_si128 ()); }
  static SIMD_INLINE __m128i last (T v)
  { return _mm256_extracti128_si256 (v, 1); }
  static SIMD_INLINE T bcast_mem (const void *p)
  { return _mm256_broadcastsi128_si256 (_mm_loadu_si128 ((const __m128i *)p)); }
  static SIMD_INLINE T blend_last (T a, T b)
  { return _mm256_blend_epi32 (a, b, 0xf0); }
  /* Lane W-1 in every lane.  */
  static SIMD_INLINE T bcast_last (T v)
  { return _mm256_permute2x128_si256 (v, v, 0x11); }
  static SIMD_INLINE T set (const __m128i *p)
  { return _mm256_set_m128i (p[1], p[0]); }
  static SIMD_INLINE T xor_ (T a, T b) { return _mm256_xor_si256 (a, b); }
  static SIMD_INLINE T enc (T a, T k) { return _mm256_aesenc_epi128 (a, k); }
  static SIMD_INLINE T enclast (T a, T k)
  { return _mm256_aesenclast_epi128 (a, k); }
  static SIMD_INLINE T dec (T a, T k) { return _mm256_aesdec_epi128 (a, k); }
  static SIMD_INLINE T declast (T a, T k)
  { return _mm256_aesdeclast_epi128 (a, k); }
  static SIMD_INLINE T add32 (T a, T b) { return _mm256_add_epi32 (a, b); }
  static SIMD_INLINE T add64 (T a, T b) { return _mm256_add_epi64 (a, b); }
  static SIMD_INLINE T sub64 (T a, T b) { return _mm256_sub_epi64 (a, b); }
  static SIMD_INLINE T lt64u (T a, T b)
  {
    const T s = _mm256_set1_epi64x (INT64_MIN);
    return _mm256_cmpgt_epi64 (_mm256_xor_si256 (b, s),
                               _mm256_xor_si256 (a, s));
  }
  static SIMD_INLINE T bslli8 (T a) { return _mm256_bslli_epi128 (a, 8); }
  template <int B> static SIMD_INLINE T bslli (T a) { return _mm256_bslli_epi128 (a, B); }
  template <int B> static SIMD_INLINE T srli64 (T a) { return _mm256_srli_epi64 (a, B); }
  static SIMD_INLINE T sllv (T a, T c) { return _mm256_sllv_epi64 (a, c); }
  static SIMD_INLINE T srlv (T a, T c) { return _mm256_srlv_epi64 (a, c); }
  static SIMD_INLINE T clmul01 (T a, T b)
  { return _mm256_clmulepi64_epi128 (a, b, 0x01); }
  static SIMD_INLINE T bswap (T a)
  { return _mm256_shuffle_epi8 (a, bcast (X1::bswap_mask ())); }
  static SIMD_INLINE T pairs (const int64_t *v)
  { return _mm256_set_epi64x (v[3], v[2], v[1], v[0]); }
  static SIMD_INLINE T zero () { return _mm256_setzero_si256 (); }
  static SIMD_INLINE T first_lane (__m128i b)
  { return _mm256_zextsi128_si256 (b); }
  static SIMD_INLINE T clmul00 (T a, T b)
  { return _mm256_clmulepi64_epi128 (a, b, 0x00); }
  static SIMD_INLINE T clmul11 (T a, T b)
  { return _mm256_clmulepi64_epi128 (a, b, 0x11); }
  static SIMD_INLINE T swap64 (T a) { return _mm256_shuffle_epi32 (a, 0x4e); }
  template <int IMM> static SIMD_INLINE T shuffle32 (T a)
  { return _mm256_shuffle_epi32 (a, IMM); }
  static SIMD_INLINE T bsrli8 (T a) { return _mm256_bsrli_epi128 (a, 8); }
  static SIMD_INLINE T reversed (T v)
  { return _mm256_permute4x64_epi64 (v, 0x4e); }
};
#endif

#ifdef __AVX512F__
struct Z4
{
  typedef __m512i T;
  static constexpr int W = 4;
  static SIMD_INLINE T load (const void *p)
  { return _mm512_loadu_si512 (p); }
  static SIMD_INLINE void store (void *p, T v) { _mm512_storeu_si512 (p, v); }
  /* The maskz form with an all-ones mask: the plain intrinsic's
   * undefined merge source makes GCC 12 warn (-Wmaybe-uninitialized).  */
  static SIMD_INLINE T bcast (__m128i b)
  { return _mm512_maskz_broadcast_i32x4 ((__mmask16)0xffff, b); }
  static SIMD_INLINE T key (const void *p)
  { return bcast (_mm_load_si128 ((const __m128i *)p)); }
  /* Not _mm512_castsi512_si128: its undefined merge source makes GCC 12
   * warn.  Element access compiles to the plain register.  */
  static SIMD_INLINE __m128i lane0 (T v)
  {
    const __v8di q = (__v8di)v;
    return (__m128i){ q[0], q[1] };
  }
  static SIMD_INLINE __m128i fold (T v)
  {
    return _mm_xor_si128 (
      _mm_xor_si128 (lane0 (v), _mm512_maskz_extracti32x4_epi32 (0xf, v, 1)),
      _mm_xor_si128 (_mm512_maskz_extracti32x4_epi32 (0xf, v, 2),
                     _mm512_maskz_extracti32x4_epi32 (0xf, v, 3)));
  }
  static SIMD_INLINE T shift_in (T cur, __m128i prev)
  { return _mm512_maskz_alignr_epi64 ((__mmask8)0xff, cur, bcast (prev), 6); }
  static SIMD_INLINE T last_lane (__m128i b)
  { return _mm512_maskz_broadcast_i32x4 (0xf000, b); }
  static SIMD_INLINE __m128i last (T v)
  { return _mm512_maskz_extracti32x4_epi32 (0xf, v, 3); }
  static SIMD_INLINE T bcast_mem (const void *p)
  { return bcast (_mm_loadu_si128 ((const __m128i *)p)); }
  static SIMD_INLINE T blend_last (T a, T b)
  { return _mm512_mask_blend_epi64 (0xc0, a, b); }
  static SIMD_INLINE T bcast_last (T v)
  { return _mm512_maskz_shuffle_i64x2 ((__mmask8)0xff, v, v, 0xff); }
  static SIMD_INLINE T set (const __m128i *p)
  {
    T v = _mm512_zextsi128_si512 (p[0]);
    v = _mm512_inserti32x4 (v, p[1], 1);
    v = _mm512_inserti32x4 (v, p[2], 2);
    return _mm512_inserti32x4 (v, p[3], 3);
  }
  static SIMD_INLINE T xor_ (T a, T b) { return _mm512_xor_si512 (a, b); }
  static SIMD_INLINE T enc (T a, T k) { return _mm512_aesenc_epi128 (a, k); }
  static SIMD_INLINE T enclast (T a, T k)
  { return _mm512_aesenclast_epi128 (a, k); }
  static SIMD_INLINE T dec (T a, T k) { return _mm512_aesdec_epi128 (a, k); }
  static SIMD_INLINE T declast (T a, T k)
  { return _mm512_aesdeclast_epi128 (a, k); }
  static SIMD_INLINE T add32 (T a, T b) { return _mm512_add_epi32 (a, b); }
  static SIMD_INLINE T add64 (T a, T b) { return _mm512_add_epi64 (a, b); }
  static SIMD_INLINE T sub64 (T a, T b) { return _mm512_sub_epi64 (a, b); }
  static SIMD_INLINE T lt64u (T a, T b)
  { return _mm512_movm_epi64 (_mm512_cmplt_epu64_mask (a, b)); }
  static SIMD_INLINE T bslli8 (T a) { return _mm512_bslli_epi128 (a, 8); }
  template <int B> static SIMD_INLINE T bslli (T a) { return _mm512_bslli_epi128 (a, B); }
  template <int B> static SIMD_INLINE T srli64 (T a) { return _mm512_maskz_srli_epi64 ((__mmask8)0xff, a, B); }
  static SIMD_INLINE T sllv (T a, T c)
  { return _mm512_maskz_sllv_epi64 ((__mmask8)0xff, a, c); }
  static SIMD_INLINE T srlv (T a, T c)
  { return _mm512_maskz_srlv_epi64 ((__mmask8)0xff, a, c); }
  static SIMD_INLINE T clmul01 (T a, T b)
  { return _mm512_clmulepi64_epi128 (a, b, 0x01); }
  static SIMD_INLINE T bswap (T a)
  { return _mm512_shuffle_epi8 (a, bcast (X1::bswap_mask ())); }
  static SIMD_INLINE T pairs (const int64_t *v)
  { return _mm512_set_epi64 (v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0]); }
  static SIMD_INLINE T zero () { return _mm512_setzero_si512 (); }
  static SIMD_INLINE T first_lane (__m128i b)
  { return _mm512_zextsi128_si512 (b); }
  static SIMD_INLINE T clmul00 (T a, T b)
  { return _mm512_clmulepi64_epi128 (a, b, 0x00); }
  static SIMD_INLINE T clmul11 (T a, T b)
  { return _mm512_clmulepi64_epi128 (a, b, 0x11); }
  static SIMD_INLINE T swap64 (T a)
  { return _mm512_maskz_shuffle_epi32 ((__mmask16)0xffff, a, _MM_PERM_BADC); }
  template <int IMM> static SIMD_INLINE T shuffle32 (T a)
  { return _mm512_shuffle_epi32 (a, (_MM_PERM_ENUM) IMM); }
  static SIMD_INLINE T bsrli8 (T a) { return _mm512_bsrli_epi128 (a, 8); }
  static SIMD_INLINE T reversed (T v)
  { return _mm512_maskz_shuffle_i64x2 ((__mmask8)0xff, v, v, 0x1b); }
};
#endif

} // namespace simd_x86
} // namespace

#endif /* GCIPHER_SIMD_X86_H */
