/* simd-x86.h - x86 vector traits: one 128-bit-lane view of xmm, ymm and
 * zmm registers for the kernels that are templates over the width.
 *
 * X1 (xmm, 1 block per register), Y2 (ymm, 2) and Z4 (zmm, 4) give the
 * same operations on W 16-byte lanes, so one kernel serves every width:
 * the VAES AES kernels (rijndael-vaes-kernels.h), the VPCLMULQDQ
 * POLYVAL kernel (cipher-gcm-siv-vpclmul-kernel.h), the stitched GCM
 * kernel (cipher-gcm-intel-vaes-kernel.h, whose traits add their own
 * asm primitives to Y2 and Z4), ChaCha20's row kernel (chacha20-rows.h:
 * one block per lane) and, through the byte operations at the end of
 * each struct, the byte- and word-sliced Camellia, SM4, ARIA and Twofish
 * kernels (camellia-gfni.h, sm4-gfni.h, aria-gfni.h, with
 * sbox-layer-x86.h's S-box layers, and twofish-simd.h).  Include only from
 * files built for the ISA the traits use: Y2 exists where __AVX2__ is
 * defined, Z4 where __AVX512F__ is (its byte operations where
 * __AVX512BW__ is); X1 uses AES-NI, PCLMULQDQ and AVX2 forms.  An
 * operation a file never calls is never compiled for it, so files built
 * with less (camellia-aesni-avx.cpp: AES-NI and AVX; serpent-sse2.cpp:
 * SSE2 alone, i686 too) include the traits too; the GFNI operations are
 * templates, for the files built without
 * -mgfni (sbox-layer-x86.h's AES-NI layer).  Everything has
 * internal linkage (anonymous namespace): each including file gets its
 * own copy built with its own flags.
 *
 * Serpent's word-sliced SSE2, AVX2 and AVX-512 paths (serpent-x86.h's
 * serpent_ops_x86 over X1, Y2 and Z4) use the lane operations, the
 * 32-bit word operations below and, of the byte operations, set1_32,
 * the 32-bit and 64-bit unpacks and Z4's shlr32.
 */
#ifndef GCIPHER_SIMD_X86_H
#define GCIPHER_SIMD_X86_H

#include <stddef.h>
#include <stdint.h>
#include <immintrin.h>

#define SIMD_INLINE inline __attribute__ ((always_inline))

namespace {
namespace simd_x86 {

/* ---- Vector traits --------------------------------------------------
 * T: the register type; W: 16-byte blocks (128-bit lanes) per register.
 * load/store: unaligned W blocks; key: 16 aligned bytes (a round key, a
 * PSHUFB table) broadcast to every lane; bcast: a block (xmm) to every
 * lane; lane0: lane 0 as a block; fold: xor of all lanes; shift_in (CUR,
 * PREV): lanes [PREV, CUR_0 .. CUR_{W-2}]; last_lane (B): B in lane W-1,
 * zero elsewhere; set (P): lane l = P[l]; lt64u (A, B): all-ones in each
 * 64-bit element where A < B unsigned; bslli8: each lane shifted up by 8
 * bytes (its low qword to its high one); clmul01: per lane, high qword
 * of A times low qword of B, carry-less; add32 / add64: per 32-bit /
 * 64-bit element, wrapping; bswap: each lane's 16 bytes
 * reversed; pairs (V): lane l = (V[2l], V[2l+1]) as (low, high) qwords;
 * zero: all zero; first_lane (B): B in lane 0, zero elsewhere; clmul00 /
 * clmul11: per lane, the low (high) qwords of A and B multiplied,
 * carry-less; swap64: each lane's two qwords swapped; shuffle32<IMM>:
 * PSHUFD with IMM in every lane; bsrli8: each lane shifted down by 8
 * bytes; reversed: the lanes in reverse order.
 * Word and bitwise operations (serpent-x86.h): slli32<B> / srli32<B>:
 * each 32-bit word shifted left (right) by B; or_ (A, B): A | B by the
 * intrinsic (GCC allocates registers around the vector | of X1's and
 * Y2's shlr32 otherwise, so Serpent's rotations are or_ of the shifts);
 * xor3 (A, B, C): A ^ B ^ C (Z4: one VPTERNLOGD); Z4's tern<IMM> (A, B, C):
 * the bitwise function of A, B and C whose truth table is IMM, indexed
 * by (a << 2) | (b << 1) | c (VPTERNLOGD).  The in-lane 4x4 transpose
 * of 32-bit words word_transpose4<VT> (sm4-gfni.h, serpent-x86.h,
 * twofish-simd.h) follows the structs.
 *
 * Byte operations (the byte- and word-sliced kernels camellia-gfni.h,
 * sm4-gfni.h, aria-gfni.h and sbox-layer-x86.h; a section at the end of
 * each struct): BYTES: bytes per register (16 W); unpacklo8 / unpackhi8,
 * unpacklo32 / unpackhi32, unpacklo64 / unpackhi64: per lane, the low
 * (high) halves of A and B interleaved by byte, 32-bit word or qword
 * (PUNPCKL* / PUNPCKH*); shuffle8 (A, IDX): per lane, byte i = A's byte
 * IDX[i] (PSHUFB); set1_8 / set1_32 / bcast64: a byte, a 32-bit word or a
 * qword in every element; perm32 (A, IDX): byte i of every 32-bit word =
 * that word's byte (IDX >> 8i) & 255, one of 0..3 (perm32_idx builds
 * IDX); shl1 / shr7: each byte shifted left by 1 (right by 7); shlr32<R>:
 * each 32-bit word rotated left by R; rol32<R>: the same by VPROLD where
 * AVX-512 VL is (X1's and Y2's shlr32 stay a shift pair); slli16<R>: each
 * 16-bit word shifted left by R; blendv8 (A, B, M): byte i = B's where
 * bit 7 of M's byte i is set, else A's (PBLENDVB; Z4: VPMOVB2M and a
 * masked blend); nib_lo / nib_hi: each byte's low
 * (high) nibble; affine<C> / affineinv<C> (X, A): GF2P8AFFINEQB /
 * GF2P8AFFINEINVQB with the matrices A and the constant C.  The in-lane
 * 16x16 byte transpose byte_transpose16<VT> follows the structs.  */

struct X1
{
  typedef __m128i T;
  static constexpr int W = 1;
  static constexpr size_t BYTES = 16 * W;
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
  static SIMD_INLINE T xor3 (T a, T b, T c) { return a ^ b ^ c; }
  static SIMD_INLINE T or_ (T a, T b) { return _mm_or_si128 (a, b); }
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
  template <int B> static SIMD_INLINE T slli32 (T a)
  { return _mm_slli_epi32 (a, B); }
  template <int B> static SIMD_INLINE T srli32 (T a)
  { return _mm_srli_epi32 (a, B); }
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

  /* -- Byte operations (camellia-gfni.h, sm4-gfni.h, aria-gfni.h,
   * twofish-simd.h).  */
  static SIMD_INLINE T unpacklo8 (T a, T b)
  { return _mm_unpacklo_epi8 (a, b); }
  static SIMD_INLINE T unpackhi8 (T a, T b)
  { return _mm_unpackhi_epi8 (a, b); }
  static SIMD_INLINE T unpacklo32 (T a, T b)
  { return _mm_unpacklo_epi32 (a, b); }
  static SIMD_INLINE T unpackhi32 (T a, T b)
  { return _mm_unpackhi_epi32 (a, b); }
  static SIMD_INLINE T unpacklo64 (T a, T b)
  { return _mm_unpacklo_epi64 (a, b); }
  static SIMD_INLINE T unpackhi64 (T a, T b)
  { return _mm_unpackhi_epi64 (a, b); }
  static SIMD_INLINE T shuffle8 (T a, T idx)
  { return _mm_shuffle_epi8 (a, idx); }
  static SIMD_INLINE T set1_8 (char c) { return _mm_set1_epi8 (c); }
  static SIMD_INLINE T set1_32 (uint32_t w)
  { return _mm_set1_epi32 ((int) w); }
  static SIMD_INLINE T bcast64 (uint64_t q)
  { return _mm_set1_epi64x ((long long) q); }
  static SIMD_INLINE T perm32 (T a, int idx)
  {
    return _mm_shuffle_epi8 (a, _mm_add_epi8 (_mm_set1_epi32 (idx),
                                              _mm_setr_epi8 (0, 0, 0, 0, 4, 4,
                                                             4, 4, 8, 8, 8, 8,
                                                             12, 12, 12,
                                                             12)));
  }
  static SIMD_INLINE T shl1 (T a) { return _mm_add_epi8 (a, a); }
  static SIMD_INLINE T shr7 (T a)
  { return _mm_srli_epi16 (a, 7) & _mm_set1_epi8 (1); }
  template <int R> static SIMD_INLINE T shlr32 (T a)
  { return _mm_slli_epi32 (a, R) | _mm_srli_epi32 (a, 32 - R); }
  template <int R> static SIMD_INLINE T rol32 (T a)
  {
#ifdef __AVX512VL__
    return _mm_rol_epi32 (a, R);
#else
    return shlr32<R> (a);
#endif
  }
  template <int R> static SIMD_INLINE T slli16 (T a)
  { return _mm_slli_epi16 (a, R); }
  static SIMD_INLINE T blendv8 (T a, T b, T m)
  { return _mm_blendv_epi8 (a, b, m); }
  static SIMD_INLINE T nib_lo (T x) { return x & _mm_set1_epi8 (0x0f); }
  static SIMD_INLINE T nib_hi (T x)
  { return _mm_srli_epi16 (x, 4) & _mm_set1_epi8 (0x0f); }
  template <uint8_t C> static SIMD_INLINE T affine (T x, T a)
  { return _mm_gf2p8affine_epi64_epi8 (x, a, C); }
  template <uint8_t C> static SIMD_INLINE T affineinv (T x, T a)
  { return _mm_gf2p8affineinv_epi64_epi8 (x, a, C); }
};

#ifdef __AVX2__
struct Y2
{
  typedef __m256i T;
  static constexpr int W = 2;
  static constexpr size_t BYTES = 16 * W;
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
  static SIMD_INLINE T xor3 (T a, T b, T c) { return a ^ b ^ c; }
  static SIMD_INLINE T or_ (T a, T b) { return _mm256_or_si256 (a, b); }
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
  template <int B> static SIMD_INLINE T slli32 (T a)
  { return _mm256_slli_epi32 (a, B); }
  template <int B> static SIMD_INLINE T srli32 (T a)
  { return _mm256_srli_epi32 (a, B); }
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

  /* -- Byte operations (camellia-gfni.h, sm4-gfni.h, aria-gfni.h,
   * twofish-simd.h).  */
  static SIMD_INLINE T unpacklo8 (T a, T b)
  { return _mm256_unpacklo_epi8 (a, b); }
  static SIMD_INLINE T unpackhi8 (T a, T b)
  { return _mm256_unpackhi_epi8 (a, b); }
  static SIMD_INLINE T unpacklo32 (T a, T b)
  { return _mm256_unpacklo_epi32 (a, b); }
  static SIMD_INLINE T unpackhi32 (T a, T b)
  { return _mm256_unpackhi_epi32 (a, b); }
  static SIMD_INLINE T unpacklo64 (T a, T b)
  { return _mm256_unpacklo_epi64 (a, b); }
  static SIMD_INLINE T unpackhi64 (T a, T b)
  { return _mm256_unpackhi_epi64 (a, b); }
  static SIMD_INLINE T shuffle8 (T a, T idx)
  { return _mm256_shuffle_epi8 (a, idx); }
  static SIMD_INLINE T set1_8 (char c) { return _mm256_set1_epi8 (c); }
  static SIMD_INLINE T set1_32 (uint32_t w)
  { return _mm256_set1_epi32 ((int) w); }
  static SIMD_INLINE T bcast64 (uint64_t q)
  { return _mm256_set1_epi64x ((long long) q); }
  static SIMD_INLINE T perm32 (T a, int idx)
  {
    const __m128i off = _mm_setr_epi8 (0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8,
                                       12, 12, 12, 12);
    const __m128i i = _mm_add_epi8 (_mm_set1_epi32 (idx), off);
    return _mm256_shuffle_epi8 (a, _mm256_setr_m128i (i, i));
  }
  static SIMD_INLINE T shl1 (T a) { return _mm256_add_epi8 (a, a); }
  static SIMD_INLINE T shr7 (T a)
  { return _mm256_srli_epi16 (a, 7) & _mm256_set1_epi8 (1); }
  template <int R> static SIMD_INLINE T shlr32 (T a)
  { return _mm256_slli_epi32 (a, R) | _mm256_srli_epi32 (a, 32 - R); }
  template <int R> static SIMD_INLINE T rol32 (T a)
  {
#ifdef __AVX512VL__
    return _mm256_rol_epi32 (a, R);
#else
    return shlr32<R> (a);
#endif
  }
  template <int R> static SIMD_INLINE T slli16 (T a)
  { return _mm256_slli_epi16 (a, R); }
  static SIMD_INLINE T blendv8 (T a, T b, T m)
  { return _mm256_blendv_epi8 (a, b, m); }
  static SIMD_INLINE T nib_lo (T x) { return x & _mm256_set1_epi8 (0x0f); }
  static SIMD_INLINE T nib_hi (T x)
  { return _mm256_srli_epi16 (x, 4) & _mm256_set1_epi8 (0x0f); }
  template <uint8_t C> static SIMD_INLINE T affine (T x, T a)
  { return _mm256_gf2p8affine_epi64_epi8 (x, a, C); }
  template <uint8_t C> static SIMD_INLINE T affineinv (T x, T a)
  { return _mm256_gf2p8affineinv_epi64_epi8 (x, a, C); }
};
#endif

#ifdef __AVX512F__
struct Z4
{
  typedef __m512i T;
  static constexpr int W = 4;
  static constexpr size_t BYTES = 16 * W;
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
  /* VPTERNLOGD.  */
  template <int IMM> static SIMD_INLINE T tern (T a, T b, T c)
  { return _mm512_ternarylogic_epi32 (a, b, c, IMM); }
  static SIMD_INLINE T xor3 (T a, T b, T c) { return tern<0x96> (a, b, c); }
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
  template <int B> static SIMD_INLINE T slli32 (T a)
  { return _mm512_maskz_slli_epi32 ((__mmask16)0xffff, a, B); }
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

#ifdef __AVX512BW__
  /* -- Byte operations (camellia-gfni.h, sm4-gfni.h, aria-gfni.h,
   * twofish-simd.h); the byte forms need AVX-512 BW, so all of them come
   * with it.  */
  static SIMD_INLINE T unpacklo8 (T a, T b)
  { return _mm512_unpacklo_epi8 (a, b); }
  static SIMD_INLINE T unpackhi8 (T a, T b)
  { return _mm512_unpackhi_epi8 (a, b); }
  static SIMD_INLINE T unpacklo32 (T a, T b)
  { return _mm512_unpacklo_epi32 (a, b); }
  static SIMD_INLINE T unpackhi32 (T a, T b)
  { return _mm512_unpackhi_epi32 (a, b); }
  static SIMD_INLINE T unpacklo64 (T a, T b)
  { return _mm512_unpacklo_epi64 (a, b); }
  static SIMD_INLINE T unpackhi64 (T a, T b)
  { return _mm512_unpackhi_epi64 (a, b); }
  static SIMD_INLINE T shuffle8 (T a, T idx)
  { return _mm512_shuffle_epi8 (a, idx); }
  static SIMD_INLINE T set1_8 (char c) { return _mm512_set1_epi8 (c); }
  static SIMD_INLINE T set1_32 (uint32_t w)
  { return _mm512_set1_epi32 ((int) w); }
  static SIMD_INLINE T bcast64 (uint64_t q)
  { return _mm512_set1_epi64 ((long long) q); }
  static SIMD_INLINE T perm32 (T a, int idx)
  {
    const T off = _mm512_set4_epi32 (0x0c0c0c0c, 0x08080808, 0x04040404, 0);
    return _mm512_shuffle_epi8 (a, _mm512_add_epi8 (_mm512_set1_epi32 (idx),
                                                    off));
  }
  static SIMD_INLINE T shl1 (T a) { return _mm512_add_epi8 (a, a); }
  static SIMD_INLINE T shr7 (T a)
  { return _mm512_srli_epi16 (a, 7) & _mm512_set1_epi8 (1); }
  /* VPROLD.  */
  template <int R> static SIMD_INLINE T shlr32 (T a)
  { return _mm512_rol_epi32 (a, R); }
  template <int R> static SIMD_INLINE T rol32 (T a) { return shlr32<R> (a); }
  template <int R> static SIMD_INLINE T slli16 (T a)
  { return _mm512_slli_epi16 (a, R); }
  /* VPMOVB2M and a blend on the mask.  */
  static SIMD_INLINE T blendv8 (T a, T b, T m)
  { return _mm512_mask_blend_epi8 (_mm512_movepi8_mask (m), a, b); }
  static SIMD_INLINE T nib_lo (T x) { return x & _mm512_set1_epi8 (0x0f); }
  static SIMD_INLINE T nib_hi (T x)
  { return _mm512_srli_epi16 (x, 4) & _mm512_set1_epi8 (0x0f); }
  template <uint8_t C> static SIMD_INLINE T affine (T x, T a)
  { return _mm512_gf2p8affine_epi64_epi8 (x, a, C); }
  template <uint8_t C> static SIMD_INLINE T affineinv (T x, T a)
  { return _mm512_gf2p8affineinv_epi64_epi8 (x, a, C); }
#endif
};
#endif

/* ---- Helpers over the traits ----------------------------------------- */

/* The perm32 index (byte operations above) that puts byte Bi of each
 * 32-bit word (0 = least significant) into its byte i.  */
constexpr int
perm32_idx (unsigned b0, unsigned b1, unsigned b2, unsigned b3)
{
  return (int) (b0 | (b1 << 8) | (b2 << 16) | (b3 << 24));
}

/* The in-lane 16x16 byte transpose of X[0..15] (register r, byte b of
 * every 16-byte lane): byte b of register r goes to byte r of register
 * b.  Each pass of byte unpacks rotates the four index bits of register
 * and of byte (r3..r0, b3..b0) left by one, so four passes transpose and
 * the transpose is an involution.  VT: X1, Y2, Z4 (with AVX-512 BW), or
 * a struct derived from one (camellia-gfni.h, aria-gfni.h).  */
template <class VT>
SIMD_INLINE void
byte_transpose16 (typename VT::T (&x)[16])
{
#pragma GCC unroll 16
  for (int pass = 0; pass < 4; pass++)
    {
      typename VT::T y[16];
#pragma GCC unroll 16
      for (int i = 0; i < 8; i++)
        {
          y[2 * i] = VT::unpacklo8 (x[i], x[i + 8]);
          y[2 * i + 1] = VT::unpackhi8 (x[i], x[i + 8]);
        }
#pragma GCC unroll 16
      for (int i = 0; i < 16; i++)
        x[i] = y[i];
    }
}

/* The in-lane 4x4 transpose of 32-bit words: word j of lane l of A, B,
 * C and D goes to words 0, 1, 2 and 3 of lane l of the J-th of them (an
 * involution).  VT: X1, Y2, Z4 (with AVX-512 BW), or a struct derived
 * from one (sm4-gfni.h, serpent-x86.h).  */
template <class VT>
SIMD_INLINE void
word_transpose4 (typename VT::T &a, typename VT::T &b, typename VT::T &c,
                 typename VT::T &d)
{
  typedef typename VT::T T;
  const T t0 = VT::unpacklo32 (a, b), t1 = VT::unpackhi32 (a, b);
  const T t2 = VT::unpacklo32 (c, d), t3 = VT::unpackhi32 (c, d);
  a = VT::unpacklo64 (t0, t2);
  b = VT::unpackhi64 (t0, t2);
  c = VT::unpacklo64 (t1, t3);
  d = VT::unpackhi64 (t1, t3);
}

} // namespace simd_x86
} // namespace

#endif /* GCIPHER_SIMD_X86_H */
