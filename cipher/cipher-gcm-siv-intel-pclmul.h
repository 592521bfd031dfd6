/* cipher-gcm-siv-intel-pclmul.h - POLYVAL (RFC 8452 3) arithmetic on
 * one xmm register with PCLMULQDQ, for the native POLYVAL back end
 * (cipher-gcm-siv-intel-pclmul.cpp; include only from files built with
 * -mpclmul).  The wide back ends: cipher-gcm-siv-vpclmul-kernel.h (native,
 * which starts from this key) and, for the stitched decryption, GCM's
 * (cipher-gcm-intel-vpclmul.cpp) through RFC 8452 Appendix A.
 *
 * Field: GF(2^128) = GF(2)[x] / p, p = x^128 + x^127 + x^126 + x^121 + 1;
 * a 16-byte string is the little-endian integer whose bit i is the
 * coefficient of x^i, so a plain 128-bit load is the element and
 * PCLMULQDQ multiplies coefficients directly.  dot (a, b) = a * b *
 * x^-128 mod p.
 *
 * dot () reduces the 256-bit product [P3:P2:P1:P0] (64-bit words) the
 * Montgomery way, one word at a time: p = 1 (mod x^64), so adding P0 * p
 * clears P0; with C = x^63 + x^62 + x^57 (0xc2 << 56), P0 * p = P0 *
 * x^128 + (P0 * C) * x^64 + P0, i.e. P1 ^= lo64 (P0 * C), P2 ^= hi64
 * (P0 * C) ^ P0.  The same for the new P1 leaves [P3:P2] = product *
 * x^-128 mod p, of degree < 128.
 *
 * Key area layout of the PCLMULQDQ back end (the VPCLMULQDQ one extends
 * it): K_i = dot (K_(i-1), H), K_1 = H, i.e. K_i = H^i x^(-128 (i-1));
 * bytes 16 (i-1) .. 16 i - 1 hold K_i (i = 1..8), then 128 + 16 (i-1)
 * the XOR of K_i's two 64-bit halves (low 64 bits; Karatsuba).
 */
#ifndef GCIPHER_CIPHER_GCM_SIV_INTEL_PCLMUL_H
#define GCIPHER_CIPHER_GCM_SIV_INTEL_PCLMUL_H

#include <immintrin.h>
#include "vec-clear-x86.h"

namespace polyval_x86 {

typedef __m128i V;

/* Blocks per reduction of the PCLMULQDQ back end (powers K_1..K_8).  */
constexpr int PCLMUL_LANES = 8;

struct pclmul_key
{
  V k[PCLMUL_LANES];    /* k[i] = K_{i+1}.  */
  V kk[PCLMUL_LANES];   /* Low 64 bits: the two halves of k[i] XORed.  */
};

inline V
swap64 (V a)
{
  return _mm_shuffle_epi32 (a, 0x4e);
}

inline V
halves (V k)
{
  return _mm_xor_si128 (k, swap64 (k));
}

/* Accumulate the Karatsuba parts of X * K (KK: K's halves XORed).  */
inline void
mul_acc (V x, V k, V kk, V &lo, V &mid, V &hi)
{
  lo = _mm_xor_si128 (lo, _mm_clmulepi64_si128 (x, k, 0x00));
  hi = _mm_xor_si128 (hi, _mm_clmulepi64_si128 (x, k, 0x11));
  mid = _mm_xor_si128 (mid, _mm_clmulepi64_si128 (halves (x), kk, 0x00));
}

/* The Montgomery step above on [hi:lo] (a full 256-bit product).  */
inline V
reduce256 (V lo, V hi)
{
  const V c = _mm_set_epi64x (0, (long long) 0xc200000000000000ULL);
  /* [P1:P0] -> [P0 ^ hi64 (P0 C) : P1 ^ lo64 (P0 C)], then once more:
   * the result is what goes into [P3:P2].  */
  lo = _mm_xor_si128 (swap64 (lo), _mm_clmulepi64_si128 (lo, c, 0x00));
  lo = _mm_xor_si128 (swap64 (lo), _mm_clmulepi64_si128 (lo, c, 0x00));
  return _mm_xor_si128 (hi, lo);
}

/* [hi:lo] with the Karatsuba middle MID not yet folded in.  */
inline V
reduce (V lo, V mid, V hi)
{
  mid = _mm_xor_si128 (mid, _mm_xor_si128 (lo, hi));
  lo = _mm_xor_si128 (lo, _mm_slli_si128 (mid, 8));
  hi = _mm_xor_si128 (hi, _mm_srli_si128 (mid, 8));
  return reduce256 (lo, hi);
}

inline V
dot (V a, V b)
{
  V lo = _mm_setzero_si128 (), mid = lo, hi = lo;
  mul_acc (a, b, halves (b), lo, mid, hi);
  return reduce (lo, mid, hi);
}

/* Zero every xmm register (secrets must not stay in them).  */
inline void
clear_xmm (void)
{
  vec_clear_xmm ();
}

} // namespace polyval_x86

#endif /* GCIPHER_CIPHER_GCM_SIV_INTEL_PCLMUL_H */
