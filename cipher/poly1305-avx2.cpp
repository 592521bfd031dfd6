/* poly1305-avx2.cpp - Poly1305 (RFC 8439 2.5) eight blocks per step with
 * AVX2 (vpmuludq on four 64-bit lanes); built with -mavx2 in its own
 * convenience library, run when hwf "intel-avx2" is present (the path
 * for CPUs without AVX-512 IFMA).
 *
 * Numbers: radix 2^26, x = x0 + x1 2^26 + x2 2^52 + x3 2^78 + x4 2^104,
 * limbs of 26 bits (a few more between reductions) in the low half of a
 * 64-bit lane (vpmuludq multiplies the low 32 bits of each lane), one
 * limb per ymm register, lane i of the five registers one number.
 * poly1305.h keeps h in radix 2^44: it is converted on entry and exit.
 *
 * Lanes and Horner's rule (as poly1305-avx512.cpp with four lanes): a
 * run of N = 8 T blocks must turn h into h r^N + sum_p m_p r^(N-p) (mod
 * p = 2^130 - 5).  Lane i takes the blocks at positions b(i) and 4 +
 * b(i) of every group of eight, b = (0, 2, 1, 3) for lanes 0..3 (the
 * order the 64-bit unpacks leave them in); h enters lane 0.  Each step
 * but the last is H <- (H + A) r^8 + B r^4, the last H <- (H + A)
 * r^(8 - b(i)) + B r^(4 - b(i)).  Block p = 8 t + b gets r^8 r^(8 (T - 2
 * - t)) r^(8 - b) = r^(N - p), block 8 t + 4 + b gets r^4 r^(8 (T - 2 -
 * t)) r^(8 - b) = r^(N - p), h gets r^(8 T); the lanes' sum is h'.
 *
 * Product of x by a power R (limbs r_j, s_j = 5 r_j): limb i times limb
 * j lands at 2^(26 (i + j)); from i + j = 5 on it is past 2^130 and folds
 * back times 5 (2^130 = 5 mod p):
 *     d0 = x0 r0 + x1 s4 + x2 s3 + x3 s2 + x4 s1
 *     d1 = x0 r1 + x1 r0 + x2 s4 + x3 s3 + x4 s2
 *     d2 = x0 r2 + x1 r1 + x2 r0 + x3 s4 + x4 s3
 *     d3 = x0 r3 + x1 r2 + x2 r1 + x3 r0 + x4 s4
 *     d4 = x0 r4 + x1 r3 + x2 r2 + x3 r1 + x4 r0
 * Bounds: x limbs below 2^29 (h below 2^28 -- 2^27 after a step, the
 * converted context h up to 2^28 -- plus a block limb below 2^26), r_j
 * below 2^26, s_j below 2^29: products below 2^58, d_k (ten products,
 * two per step) below 2^62.  The carry runs two chains side by side
 * (d0 -> d1 -> d2 -> d3 -> d4 and d3 -> d4 -> d0 -> d1):
 *     d0->d1, d3->d4;  d1->d2, d4->d0 (times 5);  d2->d3, d0->d1;  d3->d4
 * each "a->b" meaning b += a >> 26, a &= 2^26 - 1.  The carries are below
 * 2^36, 2^37, 2^37 and 2^14, 2^11: every limb ends below 2^26 + 2^14.
 *
 * Powers (first bulk call of a message, stored in the context): r^5..r^8
 * with poly1305.h's scalar radix-2^44 product from r^1..r^4, all eight
 * converted to radix 2^26 and stored in lane order.
 *
 * Constant time: the same instructions whatever the data.  Key powers
 * and accumulators live in ymm registers (vzeroall at the end) and the
 * context.
 */
#include <config.h>
#include <immintrin.h>

#include "poly1305.h"

#ifdef POLY1305_USE_SIMD

namespace {

constexpr uint64_t M26 = (1u << 26) - 1;

struct vec5
{
  __m256i l[5];
};

__attribute__ ((always_inline)) inline __m256i
mul (__m256i a, __m256i b)
{
  return _mm256_mul_epu32 (a, b);
}

__attribute__ ((always_inline)) inline __m256i
add (__m256i a, __m256i b)
{
  return _mm256_add_epi64 (a, b);
}

/* Limb J of the power set P (CTX->simd.p26[k]: rows r0..r4, s1..s4 of
 * four lanes): per lane, or (BCAST) lane 0 in all lanes.  Read from
 * memory at each use (vpmuludq's memory operand, or vpbroadcastq): the
 * powers never sit in spill slots.  */
template <bool BCAST>
__attribute__ ((always_inline)) inline __m256i
pw (const uint64_t (*p)[4], int j)
{
  /* Hide P from the optimiser at each use, so the loads are neither
   * hoisted nor shared (either would keep up to eighteen powers live in
   * sixteen ymm registers: spills).  */
  asm ("" : "+r" (p));
  if (BCAST)
    return _mm256_set1_epi64x ((long long) p[j][0]);
  return _mm256_loadu_si256 (reinterpret_cast<const __m256i *> (p[j]));
}

/* A -> B: B += A >> 26, A &= 2^26 - 1.  */
__attribute__ ((always_inline)) inline void
carry (__m256i &a, __m256i &b, __m256i mask)
{
  b = add (b, _mm256_srli_epi64 (a, 26));
  a = _mm256_and_si256 (a, mask);
}

/* D (below 2^62) to limbs below 2^26 + 2^14: the two interleaved
 * chains of the file comment.  */
__attribute__ ((always_inline)) inline vec5
reduce (__m256i *d)
{
  const __m256i mask = _mm256_set1_epi64x ((long long) M26);
  carry (d[0], d[1], mask);
  carry (d[3], d[4], mask);
  carry (d[1], d[2], mask);
  __m256i c = _mm256_srli_epi64 (d[4], 26);
  d[4] = _mm256_and_si256 (d[4], mask);
  d[0] = add (d[0], add (c, _mm256_slli_epi64 (c, 2)));   /* + 5 c.  */
  carry (d[2], d[3], mask);
  carry (d[0], d[1], mask);
  carry (d[3], d[4], mask);
  return { { d[0], d[1], d[2], d[3], d[4] } };
}

/* Four blocks at M (64 bytes) as two registers of 64-bit halves: lane
 * 0..3 hold blocks 0, 2, 1, 3 (LO bytes 0..7, HI bytes 8..15).  */
__attribute__ ((always_inline)) inline void
load4 (const unsigned char *m, __m256i &lo, __m256i &hi)
{
  __m256i a = _mm256_loadu_si256 (reinterpret_cast<const __m256i *> (m));
  __m256i b = _mm256_loadu_si256 (reinterpret_cast<const __m256i *> (m + 32));
  lo = _mm256_unpacklo_epi64 (a, b);
  hi = _mm256_unpackhi_epi64 (a, b);
}

/* 26-bit limb I of the blocks in LO, HI, 2^128 bit set in limb 4.  */
__attribute__ ((always_inline)) inline __m256i
limb (__m256i lo, __m256i hi, int i)
{
  const __m256i mask = _mm256_set1_epi64x ((long long) M26);
  switch (i)
    {
    case 0:
      return _mm256_and_si256 (lo, mask);
    case 1:
      return _mm256_and_si256 (_mm256_srli_epi64 (lo, 26), mask);
    case 2:
      return _mm256_and_si256 (_mm256_or_si256 (_mm256_srli_epi64 (lo, 52),
                                                _mm256_slli_epi64 (hi, 12)),
                               mask);
    case 3:
      return _mm256_and_si256 (_mm256_srli_epi64 (hi, 14), mask);
    default:
      return _mm256_or_si256 (_mm256_srli_epi64 (hi, 40),
                              _mm256_set1_epi64x (1 << 24));
    }
}

/* D += X * P (the five rows of the file comment), X given as the two
 * 64-bit halves LO, HI of four blocks (see load4) plus H if ADD_H, P as
 * for pw (r_j row j, s_j row 4 + j).  Row by row (limb i of X times
 * every limb of P: limb j = k - i lands in column k, folded as s_(k-i+5)
 * when k < i), each X limb made when needed: few registers live, no
 * spills.  */
template <bool BCAST, bool ADD_H>
__attribute__ ((always_inline)) inline void
mul_acc (__m256i *d, __m256i lo, __m256i hi, const __m256i *h,
         const uint64_t (*p)[4])
{
#pragma GCC unroll 5
  for (int i = 0; i < 5; i++)
    {
      __m256i v = limb (lo, hi, i);
      if (ADD_H)
        v = add (v, h[i]);
#pragma GCC unroll 5
      for (int k = 0; k < 5; k++)
        d[k] = add (d[k], mul (v, pw<BCAST> (p, k >= i ? k - i
                                                      : 4 + (k - i + 5))));
      /* Sums as they stand after row I: keeps the optimiser from
       * re-associating the 25 additions into 25 live products.  */
#pragma GCC unroll 5
      for (int k = 0; k < 5; k++)
        asm ("" : "+x" (d[k]));
    }
}

/* Radix 2^44 (limbs below 2^46, h2 below 2^43) to radix 2^26, limb by
 * limb: h0 spans 2^0..2^46 (26-bit limbs 0, 1), h1 at 2^44 = 2^26 2^18
 * (limbs 1, 2, 3), h2 at 2^88 = 2^78 2^10 (limbs 3, 4).  Same value;
 * limbs below 2^27 + 2^20 (limb 4 below 2^27).  */
__attribute__ ((always_inline)) inline void
to_radix26 (const uint64_t *h, uint64_t *l)
{
  l[0] = h[0] & M26;
  l[1] = (h[0] >> 26) + ((h[1] & 0xff) << 18);
  l[2] = (h[1] >> 8) & M26;
  l[3] = (h[1] >> 34) + ((h[2] & 0xffff) << 10);
  l[4] = h[2] >> 16;
}

/* CTX->simd.p26: [0] lane i r^(8 - b(i)), [1] lane i r^(4 - b(i)), b =
 * (0, 2, 1, 3): lanes r^8 r^6 r^7 r^5 and r^4 r^2 r^3 r^1; rows 0..4
 * the limbs, rows 5..8 limbs 1..4 times 5.  Out of line: its scalar
 * temporaries stay out of the kernel's frame.  */
__attribute__ ((noinline)) void
setup_powers (poly1305_context *ctx)
{
  using namespace poly1305_radix44;
  /* Set and lane of r^(k+1), k = 0..7 (inverse of the order above).  */
  static const unsigned char set_of[8] = { 1, 1, 1, 1, 0, 0, 0, 0 };
  static const unsigned char lane_of[8] = { 3, 1, 2, 0, 3, 1, 2, 0 };
  const uint64_t *r4 = ctx->r[3];
  for (int k = 0; k < 8; k++)
    {
      uint64_t x[3];
      if (k < 4)
        for (int j = 0; j < 3; j++)
          x[j] = ctx->r[k][j];
      else
        {
          /* r^(k+1) = r^4 r^(k-3), then carried as poly1305.cpp's key
           * setup does (limbs within 44/44/42 bits, value below 2^130). */
          const uint64_t *q = ctx->r[k - 4];
          acc d;
          d.mac (q[0], q[1], q[2], r4, r4[1] * 20, r4[2] * 20);
          uint64_t c;
          d.carry (x[0], x[1], x[2]);
          c = x[1] >> 44; x[1] &= M44; x[2] += c;
          c = x[2] >> 42; x[2] &= M42; x[0] += c * 5;
          c = x[0] >> 44; x[0] &= M44; x[1] += c;
        }
      uint64_t l[5], c = 0;
      to_radix26 (x, l);
      /* Canonical 26-bit limbs (the value is below 2^130).  */
      for (int j = 0; j < 5; j++)
        {
          l[j] += c;
          c = l[j] >> 26;
          l[j] &= M26;
        }
      uint64_t (*row)[4] = ctx->simd.p26[set_of[k]];
      for (int j = 0; j < 5; j++)
        row[j][lane_of[k]] = l[j];
      for (int j = 1; j < 5; j++)
        row[4 + j][lane_of[k]] = 5 * l[j];
    }
  ctx->simd_ready = 1;
}

} // namespace

unsigned int
_gcry_poly1305_avx2_blocks (poly1305_context *ctx, const unsigned char *m,
                            size_t nblocks)
{
  if (nblocks < 8)
    return 0;
  if (!ctx->simd_ready)
    setup_powers (ctx);

  /* Step: H <- (H + A) P8 + B P4 over the eight blocks at M; P8, P4
   * the two sets of CTX->simd.p26 (BCAST: their lane 0).  The empty asm
   * hides the powers' address from the optimiser, so they are loaded
   * where used rather than hoisted out of the loop into spill slots.  */
  auto step = [ctx] <bool BCAST> (vec5 &h, const unsigned char *m)
    __attribute__ ((always_inline)) {
    const uint64_t (*p)[9][4] = ctx->simd.p26;
    asm ("" : "+r" (p));
    __m256i lo, hi;
    __m256i d[5];
    for (int j = 0; j < 5; j++)
      d[j] = _mm256_setzero_si256 ();
    load4 (m + 64, lo, hi);
    mul_acc<BCAST, false> (d, lo, hi, nullptr, p[1]);   /* Off the chain. */
    load4 (m, lo, hi);
    mul_acc<BCAST, true> (d, lo, hi, h.l, p[0]);
    h = reduce (d);
  };

  uint64_t l[5];
  to_radix26 (ctx->h, l);
  vec5 h;
  for (int j = 0; j < 5; j++)
    h.l[j] = _mm256_setr_epi64x ((long long) l[j], 0, 0, 0);
  for (; nblocks > 8; nblocks -= 8, m += 8 * POLY1305_BLOCKSIZE)
    step.template operator()<true> (h, m);
  step.template operator()<false> (h, m);

  /* Sum of the lanes (limbs below 2^27: sums below 2^29), back to radix
   * 2^44: limb 0 at 2^0, 1 at 2^26 (both into h0), 2 at 2^52 = 2^44 2^8,
   * 3 at 2^78 = 2^44 2^34 (both into h1), 4 at 2^104 = 2^88 2^16 (h2);
   * then a serial carry (h1 stays below 2^64: 2^37 + 2^63).  */
  for (int j = 0; j < 5; j++)
    {
      __m128i t = _mm_add_epi64 (_mm256_castsi256_si128 (h.l[j]),
                                 _mm256_extracti128_si256 (h.l[j], 1));
      t = _mm_add_epi64 (t, _mm_unpackhi_epi64 (t, t));
      l[j] = (uint64_t) _mm_cvtsi128_si64 (t);
    }
  poly1305_h_from_limbs26 (ctx, l);
  wipememory (l, sizeof l);
  _mm256_zeroall ();
  return 4 * 32 + 16 * sizeof (void *);
}

#endif /* POLY1305_USE_SIMD */
