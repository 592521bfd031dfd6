/* chacha20-neon.cpp - ChaCha20 (RFC 8439 2.3) four blocks at a time with
 * arm64 NEON (AdvSIMD, part of the base ARMv8-A ISA; arm_neon.h
 * intrinsics).
 *
 * Layout: "one word per register", as the AVX2 path: register x[i]
 * holds state word i of four consecutive blocks, block k in 32-bit lane
 * k, so a quarter round (RFC 8439 2.1) is the scalar one on whole
 * registers.  Lanes differ only in words 12 and 13, the 64-bit block
 * counter (chacha20-internal.h): lane k gets counter + k, the carry out
 * of word 12 going into word 13.  After the 20 rounds and the
 * feed-forward a 4x4 transpose of 32-bit elements (TRN1/TRN2 on 32- and
 * 64-bit elements) turns each group of four registers into 16 bytes of
 * each of the four blocks, XORed into the input.
 *
 * Rotations: by 16 REV32 on halfwords, by 8 a TBL byte permutation, by
 * 12 and 7 SHL + SRI.  Constant time: the same instructions whatever
 * the data.  The keystream lives in SIMD registers (cleared at the end)
 * and the compiler's spill slots, which the caller burns.
 */
#include <config.h>
#include <arm_neon.h>

#include "chacha20-internal.h"
#include "vec-clear-arm64.h"

namespace {

using W = uint32x4_t;

inline W
rol16 (W x)
{
  return vreinterpretq_u32_u16 (vrev32q_u16 (vreinterpretq_u16_u32 (x)));
}

inline W
rol8 (W x)
{
  static const uint8_t idx[16] = { 3, 0, 1, 2, 7, 4, 5, 6,
                                   11, 8, 9, 10, 15, 12, 13, 14 };
  return vreinterpretq_u32_u8 (vqtbl1q_u8 (vreinterpretq_u8_u32 (x),
                                           vld1q_u8 (idx)));
}

template <int N>
inline W
rol (W x)
{
  return vsriq_n_u32 (vshlq_n_u32 (x, N), x, 32 - N);
}

inline void
quarter_round (W &a, W &b, W &c, W &d)
{
  a = vaddq_u32 (a, b); d = rol16 (veorq_u32 (d, a));
  c = vaddq_u32 (c, d); b = rol<12> (veorq_u32 (b, c));
  a = vaddq_u32 (a, b); d = rol8 (veorq_u32 (d, a));
  c = vaddq_u32 (c, d); b = rol<7> (veorq_u32 (b, c));
}

/* Registers W[0..3] (words 4j..4j+3, block k in lane k) to the 16 bytes
 * at offset 16j of each block: XORed from IN + 64k into OUT + 64k.  */
inline void
transpose_xor (const W *w, unsigned char *out, const unsigned char *in)
{
  uint64x2_t t0 = vreinterpretq_u64_u32 (vtrn1q_u32 (w[0], w[1]));
  uint64x2_t t1 = vreinterpretq_u64_u32 (vtrn2q_u32 (w[0], w[1]));
  uint64x2_t t2 = vreinterpretq_u64_u32 (vtrn1q_u32 (w[2], w[3]));
  uint64x2_t t3 = vreinterpretq_u64_u32 (vtrn2q_u32 (w[2], w[3]));
  uint8x16_t b[4];
  b[0] = vreinterpretq_u8_u64 (vtrn1q_u64 (t0, t2));
  b[1] = vreinterpretq_u8_u64 (vtrn1q_u64 (t1, t3));
  b[2] = vreinterpretq_u8_u64 (vtrn2q_u64 (t0, t2));
  b[3] = vreinterpretq_u8_u64 (vtrn2q_u64 (t1, t3));
  for (int k = 0; k < 4; k++)
    vst1q_u8 (out + 64 * k, veorq_u8 (b[k], vld1q_u8 (in + 64 * k)));
}

/* Four blocks from STATE (counter advanced by 4).  OUT/IN: 256 bytes. */
inline void
blocks4 (uint32_t *state, unsigned char *out, const unsigned char *in)
{
  W x[16], s[16];
  for (int i = 0; i < 16; i++)
    s[i] = vdupq_n_u32 (state[i]);
  static const uint32_t lane_init[4] = { 0, 1, 2, 3 };
  W lo = vaddq_u32 (s[12], vld1q_u32 (lane_init));
  /* All-ones where the low word wrapped: subtracting it adds the carry. */
  s[13] = vsubq_u32 (s[13], vcltq_u32 (lo, s[12]));
  s[12] = lo;
  for (int i = 0; i < 16; i++)
    x[i] = s[i];
  for (int r = 0; r < 10; r++)
    {
      quarter_round (x[0], x[4], x[8], x[12]);
      quarter_round (x[1], x[5], x[9], x[13]);
      quarter_round (x[2], x[6], x[10], x[14]);
      quarter_round (x[3], x[7], x[11], x[15]);
      quarter_round (x[0], x[5], x[10], x[15]);
      quarter_round (x[1], x[6], x[11], x[12]);
      quarter_round (x[2], x[7], x[8], x[13]);
      quarter_round (x[3], x[4], x[9], x[14]);
    }
  for (int i = 0; i < 16; i++)
    x[i] = vaddq_u32 (x[i], s[i]);
  for (int j = 0; j < 4; j++)
    transpose_xor (x + 4 * j, out + 16 * j, in + 16 * j);
  uint64_t ctr = ((uint64_t) state[13] << 32) | state[12];
  ctr += 4;
  state[12] = (uint32_t) ctr;
  state[13] = (uint32_t) (ctr >> 32);
}

} // namespace

unsigned int
_gcry_chacha20_neon_blocks (uint32_t *state, unsigned char *out,
                            const unsigned char *in, size_t nblocks)
{
  unsigned int depth = 0;
  if (nblocks >= 4)
    {
      for (; nblocks >= 4; nblocks -= 4, in += 256, out += 256)
        blocks4 (state, out, in);
      vec_clear_arm64 ();
      depth = 32 * 16 + 16 * sizeof (void *);  /* Spilled q registers.  */
    }
  if (nblocks)
    {
      unsigned int d = _gcry_chacha20_generic_blocks (state, out, in,
                                                      nblocks);
      depth = d > depth ? d : depth;
    }
  return depth;
}
