/* cipher-gcm-intel-clmul.h - 128-bit GHASH arithmetic with PCLMULQDQ,
 * shared by the GHASH back ends of cipher-gcm-intel-pclmul.cpp and
 * cipher-gcm-intel-vpclmul.cpp (both built with -mpclmul -msse4.1).
 *
 * Representation (NIST SP 800-38D 6.3, 6.4): a block loaded and
 * byte-reversed is the field element with bit i the coefficient of
 * x^(127-i) ("reflected"); the carry-less product of two reflected
 * operands comes out one bit "down", i.e. multiplied by x^-1, which the
 * key powers absorb by being stored premultiplied by x^-1.
 */
#ifndef GCIPHER_CIPHER_GCM_INTEL_CLMUL_H
#define GCIPHER_CIPHER_GCM_INTEL_CLMUL_H

#include <immintrin.h>

namespace gcm_clmul {

/* The 128-bit byte reversal.  */
inline __m128i
bswap_mask128 ()
{
  return _mm_set_epi8 (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

/* Reduce the 256-bit reflected value [HI:LO] modulo the GCM polynomial.
 * LO = [L1:L0] stands for coefficients x^128..x^255 (L0 the highest).
 * With x^128 = 1 + x * q'(x), q' = 1 + x + x^6 (reflected in 64 bits:
 * 0xc200000000000000), L0 x^192 = L0 x^64 + L0 x^65 q': the first term
 * is L0 moved up 128 bits, the second clmul (L0, q') moved up 64 bits
 * (the carry-less product of reflected operands is already one bit
 * "down", which supplies the factor x).  That leaves L1' x^128 with
 * L1' = L1 ^ low half of that product; the same again folds L1' into
 * HI.  Two PCLMULQDQ, no shifts.  */
inline __m128i
reduce128 (__m128i lo, __m128i hi)
{
  const __m128i q = _mm_set_epi64x (0, (long long) 0xc200000000000000ULL);
  __m128i t = _mm_clmulepi64_si128 (lo, q, 0x00);
  lo = _mm_xor_si128 (_mm_shuffle_epi32 (lo, 0x4e), t);
  t = _mm_clmulepi64_si128 (lo, q, 0x00);
  hi = _mm_xor_si128 (hi, _mm_shuffle_epi32 (lo, 0x4e));
  return _mm_xor_si128 (hi, t);
}

/* Fold the middle sum (the x^64 term) into [HI:LO] and reduce.  */
inline __m128i
finish128 (__m128i lo, __m128i mid, __m128i hi)
{
  lo = _mm_xor_si128 (lo, _mm_slli_si128 (mid, 8));
  hi = _mm_xor_si128 (hi, _mm_srli_si128 (mid, 8));
  return reduce128 (lo, hi);
}

/* As finish128, MID being the Karatsuba middle sum (d1 + d0) (p1 + p0)
 * of the products whose low and high sums are LO and HI: the true
 * middle term is MID + LO + HI.  */
inline __m128i
finish128_karatsuba (__m128i lo, __m128i mid, __m128i hi)
{
  return finish128 (lo, _mm_xor_si128 (mid, _mm_xor_si128 (lo, hi)), hi);
}

/* The Karatsuba products of one block D and P (Q: P's halves XORed, the
 * low qword used), accumulated: D P = d1 p1 x^128 + (d1 p0 + d0 p1) x^64
 * + d0 p0 with d1 p0 + d0 p1 = (d1 + d0) (p1 + p0) + d1 p1 + d0 p0.  */
inline void
mul1_acc (__m128i d, __m128i p, __m128i q, __m128i &lo, __m128i &mid,
          __m128i &hi)
{
  lo = _mm_xor_si128 (lo, _mm_clmulepi64_si128 (d, p, 0x00));
  hi = _mm_xor_si128 (hi, _mm_clmulepi64_si128 (d, p, 0x11));
  const __m128i dk = _mm_xor_si128 (d, _mm_shuffle_epi32 (d, 0x4e));
  mid = _mm_xor_si128 (mid, _mm_clmulepi64_si128 (dk, q, 0x00));
}

/* The schoolbook 256-bit carry-less product [*HI : *LO] of A and B.  */
inline void
clmul256 (__m128i a, __m128i b, __m128i &lo, __m128i &hi)
{
  lo = _mm_clmulepi64_si128 (a, b, 0x00);
  hi = _mm_clmulepi64_si128 (a, b, 0x11);
  const __m128i mid = _mm_xor_si128 (_mm_clmulepi64_si128 (a, b, 0x01),
                                     _mm_clmulepi64_si128 (a, b, 0x10));
  lo = _mm_xor_si128 (lo, _mm_slli_si128 (mid, 8));
  hi = _mm_xor_si128 (hi, _mm_srli_si128 (mid, 8));
}

/* A * B for operands premultiplied by x^-1: (A x^-1) (B x^-1) x = (A B)
 * x^-1, the factor x supplied by the reflected product: no shift.  */
inline __m128i
mul_premul (__m128i a, __m128i b)
{
  __m128i lo, hi;
  clmul256 (a, b, lo, hi);
  return reduce128 (lo, hi);
}

} // namespace gcm_clmul

#endif
