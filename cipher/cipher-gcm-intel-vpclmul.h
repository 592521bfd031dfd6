/* cipher-gcm-intel-vpclmul.h - what the VPCLMULQDQ GHASH back ends
 * (cipher-gcm-intel-vpclmul.cpp) share with the stitched VAES GCM
 * kernels (cipher-gcm-intel-vaes-avx512.cpp, -avx2.cpp): the key area's
 * layout, the byte-reversal mask, the lane folding and reduction of the
 * Karatsuba sums, and the kernels' counter constants.  Representation
 * and layout: the head of cipher-gcm-intel-vpclmul.cpp.  Internal
 * linkage (each including file gets its own copy); the functions carry
 * their ISA as target attributes, so files built for PCLMUL only may
 * include this too.
 */
#ifndef GCIPHER_CIPHER_GCM_INTEL_VPCLMUL_H
#define GCIPHER_CIPHER_GCM_INTEL_VPCLMUL_H

/* GCC 12's AVX-512 headers build some intrinsics on a deliberately
 * undefined vector and then warn about it under -Wall (GCC bug 105593). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <stdint.h>

#include "cipher-gcm.h"
#include "cipher-gcm-intel-clmul.h"

#define TARGET_AVX2 __attribute__ ((target ("avx2,vpclmulqdq,pclmul")))
#define TARGET_AVX512 \
  __attribute__ ((target ("avx512f,avx512vl,avx512bw,vpclmulqdq,pclmul")))

namespace {

using namespace gcm_clmul;

struct vpclmul_key
{
  __m128i h[8];     /* pclmul layout: H^(i+1) * x^-1 */
  __m128i hk[8];    /* pclmul layout: halves xored */
  __m128i hp[64];   /* H^(64-i) * x^-1 */
  __m128i hkp[64];  /* hp[i]'s 64-bit halves XORed, in both halves */
};
static_assert (sizeof (vpclmul_key) <= GCM_GHASH_KEY_SIZE);

/* The byte-reversal mask for each 128-bit lane.  */
alignas (64) const unsigned char bswap_mask512[64] = {
  15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
  15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
  15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
  15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
};

TARGET_AVX2 inline __m128i
hxor256 (__m256i v)
{
  return _mm_xor_si128 (_mm256_castsi256_si128 (v),
                        _mm256_extracti128_si256 (v, 1));
}

TARGET_AVX512 inline __m128i
hxor512 (__m512i v)
{
  /* (Swap the 256-bit halves with a shuffle: GCC 12's extract
   * intrinsics trip -Wmaybe-uninitialized.)  */
  __m256i t = _mm512_castsi512_si256 (
      _mm512_xor_si512 (v, _mm512_shuffle_i64x2 (v, v, 0x4e)));
  return _mm_xor_si128 (_mm256_castsi256_si128 (t),
                        _mm256_extracti128_si256 (t, 1));
}

/* Each lane of [HI : LO] (a 256-bit reflected product) reduced as
 * reduce128 does.  */
TARGET_AVX512 inline __m512i
reduce512 (__m512i lo, __m512i hi)
{
  const __m512i q = _mm512_set1_epi64 ((long long) 0xc200000000000000ULL);
  __m512i t = _mm512_clmulepi64_epi128 (lo, q, 0x00);
  lo = _mm512_xor_si512 (_mm512_shuffle_epi32 (lo, _MM_PERM_BADC), t);
  t = _mm512_clmulepi64_epi128 (lo, q, 0x00);
  return _mm512_ternarylogic_epi64 (hi, _mm512_shuffle_epi32 (lo, _MM_PERM_BADC),
                                    t, 0x96);
}

/* Per lane: the Karatsuba sums (LO, MID = (d1 + d0) (p1 + p0), HI)
 * folded into [HI : LO] and reduced.  The middle's halves are swapped by
 * VPSHUFD and XORed into the high qword of LO and the low qword of HI
 * under a write mask (no byte shift, which would be a shuffle).  */
TARGET_AVX512 inline __m512i
finish512_karatsuba (__m512i lo, __m512i mid, __m512i hi)
{
  const __m512i m = _mm512_ternarylogic_epi64 (mid, lo, hi, 0x96);
  const __m512i s = _mm512_shuffle_epi32 (m, _MM_PERM_BADC);
  lo = _mm512_mask_xor_epi64 (lo, 0xaa, lo, s);
  hi = _mm512_mask_xor_epi64 (hi, 0x55, hi, s);
  return reduce512 (lo, hi);
}

/* As finish512_karatsuba on the two lanes of a ymm register, with
 * blends for the write masks AVX2 lacks: the AVX2 back end's key set-up
 * (cipher-gcm-intel-vpclmul.cpp) and the ymm GCM kernel
 * (cipher-gcm-intel-vaes-avx2.cpp).  */
TARGET_AVX2 inline __m256i
finish256_karatsuba (__m256i lo, __m256i mid, __m256i hi)
{
  const __m256i q = _mm256_set1_epi64x ((long long) 0xc200000000000000ULL);
  const __m256i m = _mm256_xor_si256 (mid, _mm256_xor_si256 (lo, hi));
  const __m256i s = _mm256_shuffle_epi32 (m, 0x4e);
  const __m256i z = _mm256_setzero_si256 ();
  lo = _mm256_xor_si256 (lo, _mm256_blend_epi32 (z, s, 0xcc));
  hi = _mm256_xor_si256 (hi, _mm256_blend_epi32 (z, s, 0x33));
  __m256i t = _mm256_clmulepi64_epi128 (lo, q, 0x00);
  lo = _mm256_xor_si256 (_mm256_shuffle_epi32 (lo, 0x4e), t);
  t = _mm256_clmulepi64_epi128 (lo, q, 0x00);
  return _mm256_xor_si256 (hi, _mm256_xor_si256 (_mm256_shuffle_epi32 (lo, 0x4e),
                                                 t));
}

/* The stitched kernels' counter constants.  Dword 0 of each lane: the
 * lane's counter offset (0, 1, 2, 3).  */
alignas (64) const uint32_t ctr_lane_offsets[16]
  = { 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0 };
/* For a group of NREGS registers of LANES lanes: the step between
 * registers (LANES in dword 0 of every lane) and between groups (LANES *
 * NREGS there: the byte-reversed counter's steps), and for register J,
 * LANES * J in the last byte of every lane (dword 3 << 24), the
 * big-endian counter step of the kernel's fast path.  */
template <int LANES, int NREGS>
struct ctr_steps
{
  alignas (64) uint32_t reg[4 * LANES];
  alignas (64) uint32_t group[4 * LANES];
  alignas (64) uint32_t be[NREGS][4 * LANES];
  constexpr ctr_steps () : reg (), group (), be ()
  {
    for (int i = 0; i < LANES; i++)
      {
        reg[4 * i] = LANES;
        group[4 * i] = LANES * NREGS;
      }
    for (int j = 0; j < NREGS; j++)
      for (int i = 0; i < LANES; i++)
        be[j][4 * i + 3] = (uint32_t) (LANES * j) << 24;
  }
};

} // namespace

#endif /* GCIPHER_CIPHER_GCM_INTEL_VPCLMUL_H */
