/* gfni-vec-x86.h - the vector operations the GFNI kernels
 * (camellia-gfni.h, sm4-gfni.h) use, for xmm, ymm and zmm registers.
 * Intrinsics: included only by the ISA files camellia-gfni-*.cpp and
 * sm4-gfni-*.cpp, compiled with -mgfni and AVX2 or AVX-512 flags (the
 * xmm and ymm forms are VEX-encoded there; the zmm form exists only
 * with AVX-512 BW), and through sbox-layer-x86.h by the AES-NI files
 * camellia-aesni-*.cpp, sm4-aesni-*.cpp and *-vaes-avx2.cpp, compiled
 * without -mgfni (affine / affineinv are templates, never instantiated
 * there).
 */
#ifndef GCIPHER_GFNI_VEC_X86_H
#define GCIPHER_GFNI_VEC_X86_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "vec-clear-x86.h"

#define GFNI_VEC_INLINE static inline __attribute__ ((always_inline))

/* 32-bit word of bytes B0..B3 (low first): pshufb index helpers.  */
#define GFNI_PERM32_IDX(b0, b1, b2, b3)                                   \
  (int) ((unsigned) (b0) | ((unsigned) (b1) << 8) | ((unsigned) (b2) << 16) \
         | ((unsigned) (b3) << 24))

struct gfni_vec128
{
  typedef __m128i V;
  static constexpr size_t W = 16;
  GFNI_VEC_INLINE V load (const unsigned char *p)
  { return _mm_loadu_si128 ((const V *) p); }
  GFNI_VEC_INLINE void store (unsigned char *p, V v)
  { _mm_storeu_si128 ((V *) p, v); }
  GFNI_VEC_INLINE V unpacklo8 (V a, V b) { return _mm_unpacklo_epi8 (a, b); }
  GFNI_VEC_INLINE V unpackhi8 (V a, V b) { return _mm_unpackhi_epi8 (a, b); }
  GFNI_VEC_INLINE V unpacklo32 (V a, V b) { return _mm_unpacklo_epi32 (a, b); }
  GFNI_VEC_INLINE V unpackhi32 (V a, V b) { return _mm_unpackhi_epi32 (a, b); }
  GFNI_VEC_INLINE V unpacklo64 (V a, V b) { return _mm_unpacklo_epi64 (a, b); }
  GFNI_VEC_INLINE V unpackhi64 (V a, V b) { return _mm_unpackhi_epi64 (a, b); }
  GFNI_VEC_INLINE V shuffle8 (V a, V idx) { return _mm_shuffle_epi8 (a, idx); }
  GFNI_VEC_INLINE V set1_8 (char c) { return _mm_set1_epi8 (c); }
  GFNI_VEC_INLINE V set1_32 (uint32_t w) { return _mm_set1_epi32 ((int) w); }
  GFNI_VEC_INLINE V bcast64 (uint64_t q)
  { return _mm_set1_epi64x ((long long) q); }
  GFNI_VEC_INLINE V perm32 (V a, int idx)
  { return _mm_shuffle_epi8 (a, _mm_add_epi8 (_mm_set1_epi32 (idx),
                                               _mm_setr_epi8 (0, 0, 0, 0, 4, 4,
                                                              4, 4, 8, 8, 8, 8,
                                                              12, 12, 12,
                                                              12))); }
  GFNI_VEC_INLINE V shl1 (V a) { return _mm_add_epi8 (a, a); }
  GFNI_VEC_INLINE V shr7 (V a)
  { return _mm_srli_epi16 (a, 7) & _mm_set1_epi8 (1); }
  template <int R> GFNI_VEC_INLINE V shlr32 (V a)
  { return _mm_slli_epi32 (a, R) | _mm_srli_epi32 (a, 32 - R); }
  template <uint8_t C> GFNI_VEC_INLINE V affine (V x, V a)
  { return _mm_gf2p8affine_epi64_epi8 (x, a, C); }
  template <uint8_t C> GFNI_VEC_INLINE V affineinv (V x, V a)
  { return _mm_gf2p8affineinv_epi64_epi8 (x, a, C); }
};

#ifdef __AVX2__
struct gfni_vec256
{
  typedef __m256i V;
  static constexpr size_t W = 32;
  GFNI_VEC_INLINE V load (const unsigned char *p)
  { return _mm256_loadu_si256 ((const V *) p); }
  GFNI_VEC_INLINE void store (unsigned char *p, V v)
  { _mm256_storeu_si256 ((V *) p, v); }
  GFNI_VEC_INLINE V unpacklo8 (V a, V b) { return _mm256_unpacklo_epi8 (a, b); }
  GFNI_VEC_INLINE V unpackhi8 (V a, V b) { return _mm256_unpackhi_epi8 (a, b); }
  GFNI_VEC_INLINE V unpacklo32 (V a, V b)
  { return _mm256_unpacklo_epi32 (a, b); }
  GFNI_VEC_INLINE V unpackhi32 (V a, V b)
  { return _mm256_unpackhi_epi32 (a, b); }
  GFNI_VEC_INLINE V unpacklo64 (V a, V b)
  { return _mm256_unpacklo_epi64 (a, b); }
  GFNI_VEC_INLINE V unpackhi64 (V a, V b)
  { return _mm256_unpackhi_epi64 (a, b); }
  GFNI_VEC_INLINE V shuffle8 (V a, V idx)
  { return _mm256_shuffle_epi8 (a, idx); }
  GFNI_VEC_INLINE V set1_8 (char c) { return _mm256_set1_epi8 (c); }
  GFNI_VEC_INLINE V set1_32 (uint32_t w)
  { return _mm256_set1_epi32 ((int) w); }
  GFNI_VEC_INLINE V bcast64 (uint64_t q)
  { return _mm256_set1_epi64x ((long long) q); }
  GFNI_VEC_INLINE V perm32 (V a, int idx)
  {
    const __m128i off = _mm_setr_epi8 (0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8,
                                       12, 12, 12, 12);
    const __m128i i = _mm_add_epi8 (_mm_set1_epi32 (idx), off);
    return _mm256_shuffle_epi8 (a, _mm256_setr_m128i (i, i));
  }
  GFNI_VEC_INLINE V shl1 (V a) { return _mm256_add_epi8 (a, a); }
  GFNI_VEC_INLINE V shr7 (V a)
  { return _mm256_srli_epi16 (a, 7) & _mm256_set1_epi8 (1); }
  template <int R> GFNI_VEC_INLINE V shlr32 (V a)
  { return _mm256_slli_epi32 (a, R) | _mm256_srli_epi32 (a, 32 - R); }
  template <uint8_t C> GFNI_VEC_INLINE V affine (V x, V a)
  { return _mm256_gf2p8affine_epi64_epi8 (x, a, C); }
  template <uint8_t C> GFNI_VEC_INLINE V affineinv (V x, V a)
  { return _mm256_gf2p8affineinv_epi64_epi8 (x, a, C); }
};
#endif

#ifdef __AVX512BW__
struct gfni_vec512
{
  typedef __m512i V;
  static constexpr size_t W = 64;
  GFNI_VEC_INLINE V load (const unsigned char *p)
  { return _mm512_loadu_si512 ((const void *) p); }
  GFNI_VEC_INLINE void store (unsigned char *p, V v)
  { _mm512_storeu_si512 ((void *) p, v); }
  GFNI_VEC_INLINE V unpacklo8 (V a, V b) { return _mm512_unpacklo_epi8 (a, b); }
  GFNI_VEC_INLINE V unpackhi8 (V a, V b) { return _mm512_unpackhi_epi8 (a, b); }
  GFNI_VEC_INLINE V unpacklo32 (V a, V b)
  { return _mm512_unpacklo_epi32 (a, b); }
  GFNI_VEC_INLINE V unpackhi32 (V a, V b)
  { return _mm512_unpackhi_epi32 (a, b); }
  GFNI_VEC_INLINE V unpacklo64 (V a, V b)
  { return _mm512_unpacklo_epi64 (a, b); }
  GFNI_VEC_INLINE V unpackhi64 (V a, V b)
  { return _mm512_unpackhi_epi64 (a, b); }
  GFNI_VEC_INLINE V shuffle8 (V a, V idx)
  { return _mm512_shuffle_epi8 (a, idx); }
  GFNI_VEC_INLINE V set1_8 (char c) { return _mm512_set1_epi8 (c); }
  GFNI_VEC_INLINE V set1_32 (uint32_t w)
  { return _mm512_set1_epi32 ((int) w); }
  GFNI_VEC_INLINE V bcast64 (uint64_t q)
  { return _mm512_set1_epi64 ((long long) q); }
  GFNI_VEC_INLINE V perm32 (V a, int idx)
  {
    const V off = _mm512_set4_epi32 (0x0c0c0c0c, 0x08080808, 0x04040404, 0);
    return _mm512_shuffle_epi8 (a, _mm512_add_epi8 (_mm512_set1_epi32 (idx),
                                                    off));
  }
  GFNI_VEC_INLINE V shl1 (V a) { return _mm512_add_epi8 (a, a); }
  GFNI_VEC_INLINE V shr7 (V a)
  { return _mm512_srli_epi16 (a, 7) & _mm512_set1_epi8 (1); }
  template <int R> GFNI_VEC_INLINE V shlr32 (V a)
  { return _mm512_rol_epi32 (a, R); }
  template <uint8_t C> GFNI_VEC_INLINE V affine (V x, V a)
  { return _mm512_gf2p8affine_epi64_epi8 (x, a, C); }
  template <uint8_t C> GFNI_VEC_INLINE V affineinv (V x, V a)
  { return _mm512_gf2p8affineinv_epi64_epi8 (x, a, C); }
};
#endif

/* VZEROALL clears every ymm register (8 on i386, 16 on x86-64).  */
GFNI_VEC_INLINE void
gfni_vec_clear_ymm ()
{
  asm volatile ("vzeroall" ::: "memory");
}


/* The in-lane 16x16 byte transpose of X[0..15] (register r, byte b of
 * every 16-byte lane): byte b of register r goes to byte r of register
 * b.  Each pass of byte unpacks rotates the four index bits of register
 * and of byte (r3..r0, b3..b0) left by one, so four passes transpose and
 * the transpose is an involution.  Ops: one of the vector structs above
 * (or sbox-layer-x86.h's).  */
template <class Ops>
static inline __attribute__ ((always_inline)) void
gfni_byte_transpose16 (typename Ops::V (&x)[16])
{
#pragma GCC unroll 16
  for (int pass = 0; pass < 4; pass++)
    {
      typename Ops::V y[16];
#pragma GCC unroll 16
      for (int i = 0; i < 8; i++)
        {
          y[2 * i] = Ops::unpacklo8 (x[i], x[i + 8]);
          y[2 * i + 1] = Ops::unpackhi8 (x[i], x[i + 8]);
        }
#pragma GCC unroll 16
      for (int i = 0; i < 16; i++)
        x[i] = y[i];
    }
}

#endif /* GCIPHER_GFNI_VEC_X86_H */
