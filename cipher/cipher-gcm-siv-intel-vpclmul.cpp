/* cipher-gcm-siv-intel-vpclmul.cpp - POLYVAL (RFC 8452 3) with
 * VPCLMULQDQ on zmm registers (AVX-512), in POLYVAL's own bit order.
 *
 * Built with -mpclmul -msse4.1 in its own convenience library, the
 * AVX-512 functions marked with target attributes; used by
 * cipher-gcm-siv.cpp only with HWF_INTEL_VAES_VPCLMUL, HWF_INTEL_AVX512
 * and HWF_INTEL_PCLMUL.  Field, reduction and the PCLMULQDQ key layout:
 * cipher-gcm-siv-intel-pclmul.h.
 *
 * Sixteen blocks per reduction, four per register: with K_i = H^i
 * x^(-128 (i-1)), S' = dot (S + X_1, K_16) + dot (X_2, K_15) + ... +
 * dot (X_16, K_1).  Register j holds blocks 4j+1..4j+4 and is multiplied
 * lane by lane with [K_(16-4j), .., K_(13-4j)]; the 256-bit products of
 * each lane are summed unreduced, the lanes folded, and the sum reduced
 * once.  Each product is formed the Karatsuba way, three carry-less
 * multiplies instead of four: for X = x1 x^64 + x0 and K = k1 x^64 + k0,
 * X K = x1 k1 x^128 + ((x1 + x0) (k1 + k0) + x1 k1 + x0 k0) x^64 + x0 k0,
 * with (k1 + k0) precomputed per power (kkp) and (x1 + x0) one shuffle
 * and one XOR per register; VPCLMULQDQ is the bottleneck (one per two
 * cycles at any width on Zen 4, measured).  S is not XORed into X_1:
 * dot (S + X_1, K_16) = dot (S, K_16) + dot (X_1, K_16), and S K_16 is
 * one 128-bit Karatsuba product added after the lanes are folded, so the
 * chain from one S to the next is three PCLMULQDQ, a fold and the
 * reduction instead of running through the 512-bit sums and the lane
 * folding as well (about a fifth faster).
 * Fewer than sixteen blocks go to the PCLMULQDQ back end, whose key
 * area is this one's first 256 bytes.
 *
 * Key area: the PCLMULQDQ layout (K_1..K_8 and their half-XORs), then
 * the four zmm power vectors, 64-byte aligned, then their half-XORs.
 *
 * Constant time: no branch or index depends on the key or the data.
 * The vector registers are cleared on return.
 */
#include <config.h>

/* GCC 12's AVX-512 headers build some intrinsics on a deliberately
 * undefined vector and then warn about it under -Wall (GCC bug 105593). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#include <stddef.h>
#include <string.h>

#include "g10lib.h"
#include "cipher-gcm-siv.h"
#include "cipher-gcm-siv-intel-pclmul.h"
#include "vec-clear-x86.h"

#define TARGET_AVX512 \
  __attribute__ ((target ("avx512f,avx512vl,avx512bw,vpclmulqdq,pclmul")))

namespace {

using namespace polyval_x86;

typedef __m512i Z;

constexpr int VPCLMUL_LANES = 16;

struct vpclmul_key
{
  pclmul_key narrow;     /* K_1..K_8 (cipher-gcm-siv-intel-pclmul.h).  */
  /* kp[j], lane l (l = 0..3): K_(16 - 4j - l).  */
  alignas (64) V kp[VPCLMUL_LANES];
  /* kkp[i]: the two 64-bit halves of kp[i] XORed, in both halves.  */
  alignas (64) V kkp[VPCLMUL_LANES];
};
static_assert (sizeof (vpclmul_key) <= sizeof (gcm_ghash_key));
static_assert (offsetof (vpclmul_key, narrow) == 0);

/* XOR of the four 128-bit lanes of V.  */
TARGET_AVX512 inline V
hxor512 (Z v)
{
  __m256i t = _mm512_castsi512_si256 (
      _mm512_xor_si512 (v, _mm512_shuffle_i64x2 (v, v, 0x4e)));
  return _mm_xor_si128 (_mm256_castsi256_si128 (t),
                        _mm256_extracti128_si256 (t, 1));
}

/* The Karatsuba products of each lane of D and P (Q: P's halves XORed),
 * accumulated: low, high, and the middle (d1 + d0) (p1 + p0).  */
TARGET_AVX512 inline void
mul4_acc (Z d, Z p, Z q, Z &lo, Z &mid, Z &hi)
{
  lo = _mm512_xor_si512 (lo, _mm512_clmulepi64_epi128 (d, p, 0x00));
  hi = _mm512_xor_si512 (hi, _mm512_clmulepi64_epi128 (d, p, 0x11));
  const Z dk = _mm512_xor_si512 (d, _mm512_shuffle_epi32 (d, _MM_PERM_BADC));
  mid = _mm512_xor_si512 (mid, _mm512_clmulepi64_epi128 (dk, q, 0x00));
}

/* Every vector register, zmm16-31 included (the compiler may use them
 * here).  */
TARGET_AVX512 void
clear_zmm (void)
{
  vec_clear_zmm ();
}

unsigned int
vpclmul_setkey (gcm_ghash_key *key, const unsigned char *h)
{
  unsigned int depth = _gcry_polyval_ops_pclmul.setkey (key, h);
  vpclmul_key *k = reinterpret_cast<vpclmul_key *> (key->bytes);
  const V k8 = k->narrow.k[7];
  /* K_(8+i) = dot (K_8, K_i), i = 1..8 (independent products).  */
  for (int i = 1; i <= 8; i++)
    {
      k->kp[16 - (8 + i)] = dot (k8, k->narrow.k[i - 1]);
      k->kp[16 - i] = k->narrow.k[i - 1];
    }
  for (int i = 0; i < VPCLMUL_LANES; i++)
    k->kkp[i] = halves (k->kp[i]);
  clear_xmm ();
  return depth;
}

/* Whole groups of 16 blocks; returns the blocks left (< 16).  */
TARGET_AVX512 size_t
vpclmul_update_avx512 (const vpclmul_key *k, unsigned char *sp,
                       const unsigned char *x, size_t nblocks)
{
  const Z *kp = reinterpret_cast<const Z *> (k->kp);
  const Z *kkp = reinterpret_cast<const Z *> (k->kkp);
  const V k16 = k->kp[0], kk16 = k->kkp[0];
  V s = _mm_loadu_si128 (reinterpret_cast<const V *> (sp));
  for (; nblocks >= VPCLMUL_LANES; nblocks -= VPCLMUL_LANES)
    {
      Z lo = _mm512_setzero_si512 (), mid = lo, hi = lo;
      for (int j = 0; j < 4; j++)
        mul4_acc (_mm512_loadu_si512 (x + 64 * j), _mm512_load_si512 (kp + j),
                  _mm512_load_si512 (kkp + j), lo, mid, hi);
      V l = hxor512 (lo), m = hxor512 (mid), hh = hxor512 (hi);
      mul_acc (s, k16, kk16, l, m, hh);   /* S K_16, off the chain.  */
      s = reduce (l, m, hh);
      x += 16 * VPCLMUL_LANES;
    }
  _mm_storeu_si128 (reinterpret_cast<V *> (sp), s);
  clear_zmm ();
  return nblocks;
}

unsigned int
vpclmul_update (const gcm_ghash_key *key, unsigned char *sp,
                const unsigned char *x, size_t nblocks)
{
  const vpclmul_key *k = reinterpret_cast<const vpclmul_key *> (key->bytes);
  size_t rest = vpclmul_update_avx512 (k, sp, x, nblocks);
  unsigned int depth = 0;
  if (rest)
    depth = _gcry_polyval_ops_pclmul.update (key, sp,
                                             x + 16 * (nblocks - rest), rest);
  return depth;
}

} // namespace

const polyval_ops _gcry_polyval_ops_vpclmul_avx512 = { vpclmul_setkey,
                                                       vpclmul_update };
