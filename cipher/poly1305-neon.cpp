/* poly1305-neon.cpp - Poly1305 (RFC 8439 2.5) four blocks per step with
 * arm64 NEON (AdvSIMD, part of the base ARMv8-A ISA; arm_neon.h
 * intrinsics, no assembler); run when hwf "arm-neon" is present.
 *
 * Numbers: radix 2^26, x = x0 + x1 2^26 + x2 2^52 + x3 2^78 + x4 2^104,
 * limbs of 26 bits (a few more between reductions) in 32-bit elements;
 * products by UMULL/UMLAL (low halves) and UMLAL2 (high halves) into
 * 64-bit accumulators.  poly1305.h keeps h in radix 2^44: it is
 * converted on entry and exit.
 *
 * Lanes and Horner's rule: a run of N = 4 T blocks m_0..m_(N-1) must
 * turn h into h r^N + sum_p m_p r^(N-p) (mod p = 2^130 - 5).  LD4 of the
 * 64 bytes of a step gives, per 32-bit word of a block, a register whose
 * element k is that word of block k; the five limb registers x_i hold
 * the blocks 4t..4t+3 in elements 0..3.  There are two accumulator
 * lanes j = 0, 1 (64-bit lanes of the product registers, 32-bit
 * elements 0, 1 of the limb registers): lane j takes the blocks 4t + j
 * (low half, h added) and 4t + 2 + j (high half).  Each step but the
 * last is H_j <- (H_j + m_(4t+j)) r^4 + m_(4t+2+j) r^2, the last H_j <-
 * (H_j + m_(4t+j)) r^(4-j) + m_(4t+2+j) r^(2-j).  Block 4t + j gets r^4
 * r^(4 (T - 2 - t)) r^(4 - j) = r^(N - p), block 4t + 2 + j gets r^2
 * r^(4 (T - 2 - t)) r^(4 - j) = r^(N - p), h (entering lane 0) gets
 * r^(4 T); the sum of the two lanes is h'.  One power register per limb
 * holds the four elements (r^4, r^4, r^2, r^2) for the inner steps and
 * (r^4, r^3, r^2, r^1) for the last, so UMLAL (elements 0, 1) and
 * UMLAL2 (elements 2, 3) add both halves into the same two lanes.
 *
 * Product of x by a power R (limbs r_j, s_j = 5 r_j): limb i times limb
 * j lands at 2^(26 (i + j)); from i + j = 5 on it is past 2^130 and folds
 * back times 5 (2^130 = 5 mod p):
 *     d0 = x0 r0 + x1 s4 + x2 s3 + x3 s2 + x4 s1
 *     d1 = x0 r1 + x1 r0 + x2 s4 + x3 s3 + x4 s2
 *     d2 = x0 r2 + x1 r1 + x2 r0 + x3 s4 + x4 s3
 *     d3 = x0 r3 + x1 r2 + x2 r1 + x3 r0 + x4 s4
 *     d4 = x0 r4 + x1 r3 + x2 r2 + x3 r1 + x4 r0
 * Bounds: block limbs below 2^26 (limb 4 below 2^25 with the 2^128 bit),
 * h limbs below 2^26 + 2^12 after a step (the converted context h
 * likewise, carried on entry), so x limbs below 2^27 + 2^12; r_j below
 * 2^26, s_j below 2^29: products below 2^57, each d_k (ten products, five
 * per half) below 2^61.  The carry runs two chains side by side:
 *     d0->d1, d3->d4;  d1->d2, d4->d0 (times 5);  d2->d3, d0->d1;  d3->d4
 * each "a->b" meaning b += a >> 26, a &= 2^26 - 1; the first four
 * carries are below 2^36 (the folded one, times 5, below 2^38), the last
 * two below 2^12 and 2^9: every limb ends below 2^26 + 2^12 and fits
 * the 32-bit elements (XTN narrows them).
 *
 * Powers (first bulk call of a message, stored in the context):
 * r^1..r^4 are poly1305.cpp's (CTX->r, radix 2^44), converted to radix
 * 2^26 with 32-bit limbs and stored in element order, with their
 * multiples by 5.
 *
 * Constant time: the same instructions whatever the data (no branch and
 * no memory index depends on the key or the message).  Key powers and
 * accumulators live in SIMD registers (zeroed at the end,
 * vec-clear-arm64.h), the context and the kernel's frame, which the
 * caller burns (POLY1305_BURN_DEPTH).
 */
#include <config.h>
#include <arm_neon.h>

#include "poly1305.h"
#include "vec-clear-arm64.h"

#ifdef POLY1305_USE_NEON

namespace {

constexpr uint32_t M26 = (1u << 26) - 1;

/* A power set of CTX->simd.n26 in registers: limbs r0..r4 (rows 0..4)
 * and s1..s4 = 5 r1..5 r4 (rows 5..8), four elements each.  */
struct powers
{
  uint32x4_t r0, r1, r2, r3, r4, s1, s2, s3, s4;
};

__attribute__ ((always_inline)) inline powers
load_powers (const uint32_t (*p)[4])
{
  return { vld1q_u32 (p[0]), vld1q_u32 (p[1]), vld1q_u32 (p[2]),
           vld1q_u32 (p[3]), vld1q_u32 (p[4]), vld1q_u32 (p[5]),
           vld1q_u32 (p[6]), vld1q_u32 (p[7]), vld1q_u32 (p[8]) };
}

/* A -> B: B += A >> 26, A &= 2^26 - 1 (64-bit lanes).  */
__attribute__ ((always_inline)) inline void
carry (uint64x2_t &a, uint64x2_t &b, uint64x2_t mask)
{
  b = vsraq_n_u64 (b, a, 26);
  a = vandq_u64 (a, mask);
}

/* One step over the 64 bytes at M: H (limbs of the two lanes, in
 * elements 0, 1) <- (H + low blocks) P + high blocks P, per lane (see
 * the file comment); P the power set of the step.  */
__attribute__ ((always_inline)) inline void
step (uint32x2_t *h, const unsigned char *m, const powers &p)
{
  /* w.val[k]: word k of blocks 0..3 (little-endian; LD4 deinterleaves). */
  uint32x4x4_t w = vld4q_u32 (reinterpret_cast<const uint32_t *> (m));
  const uint32x4_t mask = vdupq_n_u32 (M26);
  uint32x4_t x[5];
  x[0] = vandq_u32 (w.val[0], mask);
  x[1] = vandq_u32 (vsliq_n_u32 (vshrq_n_u32 (w.val[0], 26), w.val[1], 6),
                    mask);
  x[2] = vandq_u32 (vsliq_n_u32 (vshrq_n_u32 (w.val[1], 20), w.val[2], 12),
                    mask);
  x[3] = vandq_u32 (vsliq_n_u32 (vshrq_n_u32 (w.val[2], 14), w.val[3], 18),
                    mask);
  x[4] = vorrq_u32 (vshrq_n_u32 (w.val[3], 8), vdupq_n_u32 (1u << 24));
  /* h into elements 0, 1 (the low blocks of each lane).  */
  const uint32x2_t zero = vdup_n_u32 (0);
  for (int i = 0; i < 5; i++)
    x[i] = vaddq_u32 (x[i], vcombine_u32 (h[i], zero));

  /* d_k = sum over i of x_i times limb (k - i) of P, folded (s) when
   * k < i; low halves by UMULL/UMLAL, high halves by UMLAL2.  */
  const uint32x4_t pr[5] = { p.r0, p.r1, p.r2, p.r3, p.r4 };
  const uint32x4_t ps[5] = { p.r0, p.s1, p.s2, p.s3, p.s4 };
  uint64x2_t d[5];
#pragma GCC unroll 5
  for (int k = 0; k < 5; k++)
    {
      d[k] = vmull_u32 (vget_low_u32 (x[0]), vget_low_u32 (pr[k]));
      d[k] = vmlal_high_u32 (d[k], x[0], pr[k]);
#pragma GCC unroll 4
      for (int i = 1; i < 5; i++)
        {
          const uint32x4_t &q = k >= i ? pr[k - i] : ps[k - i + 5];
          d[k] = vmlal_u32 (d[k], vget_low_u32 (x[i]), vget_low_u32 (q));
          d[k] = vmlal_high_u32 (d[k], x[i], q);
        }
    }

  /* The two carry chains of the file comment.  */
  const uint64x2_t mask64 = vdupq_n_u64 (M26);
  carry (d[0], d[1], mask64);
  carry (d[3], d[4], mask64);
  carry (d[1], d[2], mask64);
  uint64x2_t c = vshrq_n_u64 (d[4], 26);
  d[4] = vandq_u64 (d[4], mask64);
  d[0] = vaddq_u64 (d[0], vaddq_u64 (c, vshlq_n_u64 (c, 2)));  /* + 5 c.  */
  carry (d[2], d[3], mask64);
  carry (d[0], d[1], mask64);
  carry (d[3], d[4], mask64);
  for (int i = 0; i < 5; i++)
    h[i] = vmovn_u64 (d[i]);
}

/* Radix 2^44 (three 64-bit limbs, partly reduced: below 2^46) to five
 * 26-bit limbs, carried: h0 spans 2^0..2^46 (limbs 0, 1), h1 at 2^44 =
 * 2^26 2^18 (limbs 1, 2, 3), h2 at 2^88 = 2^78 2^10 (limbs 3, 4); the
 * carry out of limb 4 (past 2^130) enters limb 0 times 5.  Same value
 * mod p; limbs below 2^26 (limb 0 below 2^26 + 2^12).  */
__attribute__ ((always_inline)) inline void
to_radix26 (const uint64_t *h, uint64_t *l)
{
  l[0] = h[0] & M26;
  l[1] = (h[0] >> 26) + ((h[1] & 0xff) << 18);
  l[2] = (h[1] >> 8) & M26;
  l[3] = (h[1] >> 34) + ((h[2] & 0xffff) << 10);
  l[4] = h[2] >> 16;
  uint64_t c = 0;
  for (int j = 0; j < 5; j++)
    {
      l[j] += c;
      c = l[j] >> 26;
      l[j] &= M26;
    }
  l[0] += 5 * c;
}

/* CTX->simd.n26: [0] elements (r^4, r^4, r^2, r^2) for the inner
 * steps, [1] (r^4, r^3, r^2, r^1) for the last; rows 0..4 the limbs,
 * rows 5..8 limbs 1..4 times 5.  Out of line: its scalar temporaries
 * stay out of the kernel's frame (both within POLY1305_BURN_DEPTH).  */
__attribute__ ((noinline)) void
setup_powers (poly1305_context *ctx)
{
  /* Power (exponent - 1, an index of CTX->r) of each set and element. */
  static const unsigned char pow_of[2][4] = { { 3, 3, 1, 1 },
                                              { 3, 2, 1, 0 } };
  for (int set = 0; set < 2; set++)
    for (int e = 0; e < 4; e++)
      {
        uint64_t l[5];
        /* CTX->r limbs are within 44/44/42 bits, the value below 2^130:
         * the carried limbs are canonical (no carry out of limb 4).  */
        to_radix26 (ctx->r[pow_of[set][e]], l);
        uint32_t (*row)[4] = ctx->simd.n26[set];
        for (int j = 0; j < 5; j++)
          row[j][e] = (uint32_t) l[j];
        for (int j = 1; j < 5; j++)
          row[4 + j][e] = (uint32_t) (5 * l[j]);
        wipememory (l, sizeof l);
      }
  ctx->simd_ready = 1;
}

} // namespace

unsigned int
_gcry_poly1305_neon_blocks (poly1305_context *ctx, const unsigned char *m,
                            size_t nblocks)
{
  if (nblocks < 4)
    return 0;
  if (!ctx->simd_ready)
    setup_powers (ctx);

  uint64_t l[5];
  to_radix26 (ctx->h, l);
  uint32x2_t h[5];
  for (int i = 0; i < 5; i++)
    h[i] = vset_lane_u32 ((uint32_t) l[i], vdup_n_u32 (0), 0);

  {
    const powers inner = load_powers (ctx->simd.n26[0]);
    for (; nblocks > 4; nblocks -= 4, m += 4 * POLY1305_BLOCKSIZE)
      step (h, m, inner);
  }
  step (h, m, load_powers (ctx->simd.n26[1]));

  /* Sum of the lanes (limbs below 2^27 + 2^13), back to radix 2^44:
   * limb 0 at 2^0, 1 at 2^26 (both into h0), 2 at 2^52 = 2^44 2^8, 3 at
   * 2^78 = 2^44 2^34 (both into h1), 4 at 2^104 = 2^88 2^16 (h2); then a
   * serial carry.  */
  for (int i = 0; i < 5; i++)
    l[i] = vaddlv_u32 (h[i]);
  poly1305_h_from_limbs26 (ctx, l);
  wipememory (l, sizeof l);
  vec_clear_arm64 ();
  /* Spilled q registers (the two power sets, the limbs) and the frame. */
  return 32 * 16 + 16 * sizeof (void *);
}

#endif /* POLY1305_USE_NEON */
