/* salsa20-avx2.cpp - Salsa20/20 and Salsa20/12 (Salsa20 specification
 * sections 3-9) eight blocks at a time with AVX2 (built with -mavx2 in
 * its own convenience library).
 *
 * One word per register, as salsa20-avx512.cpp: ymm x[i] holds state
 * word i of eight consecutive blocks, block k in 32-bit lane k; lanes
 * differ only in the 64-bit block counter (words 8 and 9: lane k gets
 * counter + k, the unsigned carry out of word 8 going into word 9).
 * Rotations are shift pairs.  The output is an 8x8 transpose of 32-bit
 * elements (unpack 32, unpack 64, swap 128-bit halves), XORed into the
 * input.
 *
 * The remainder NBLOCKS % 8 goes to the generic path.  Constant time:
 * the same instructions whatever the data.  The keystream lives in ymm
 * registers (cleared with vzeroall at the end) and the compiler's spill
 * slots, which the caller burns (the returned depth).
 */
#include <config.h>
#include <immintrin.h>

#include "salsa20-internal.h"

#ifdef SALSA20_USE_AVX2

namespace {

template <int N>
inline __m256i
rol (__m256i x)
{
  return _mm256_or_si256 (_mm256_slli_epi32 (x, N),
                          _mm256_srli_epi32 (x, 32 - N));
}

/* Specification section 3, the quarterround, on eight blocks.  */
inline void
quarter_round (__m256i &a, __m256i &b, __m256i &c, __m256i &d)
{
  b = _mm256_xor_si256 (b, rol<7> (_mm256_add_epi32 (a, d)));
  c = _mm256_xor_si256 (c, rol<9> (_mm256_add_epi32 (b, a)));
  d = _mm256_xor_si256 (d, rol<13> (_mm256_add_epi32 (c, b)));
  a = _mm256_xor_si256 (a, rol<18> (_mm256_add_epi32 (d, c)));
}

/* Transpose W[0..7] (word j of block k in lane k) and XOR the rows into
 * 32 bytes at IN + 64k, written to OUT + 64k.  */
inline void
transpose_xor (const __m256i *w, unsigned char *out, const unsigned char *in)
{
  __m256i t0 = _mm256_unpacklo_epi32 (w[0], w[1]);
  __m256i t1 = _mm256_unpackhi_epi32 (w[0], w[1]);
  __m256i t2 = _mm256_unpacklo_epi32 (w[2], w[3]);
  __m256i t3 = _mm256_unpackhi_epi32 (w[2], w[3]);
  __m256i t4 = _mm256_unpacklo_epi32 (w[4], w[5]);
  __m256i t5 = _mm256_unpackhi_epi32 (w[4], w[5]);
  __m256i t6 = _mm256_unpacklo_epi32 (w[6], w[7]);
  __m256i t7 = _mm256_unpackhi_epi32 (w[6], w[7]);
  /* u[k]: words 0..3 of block k (low half) and of block k + 4 (high);
   * v[k]: words 4..7 likewise.  */
  __m256i u[4], v[4];
  u[0] = _mm256_unpacklo_epi64 (t0, t2);
  u[1] = _mm256_unpackhi_epi64 (t0, t2);
  u[2] = _mm256_unpacklo_epi64 (t1, t3);
  u[3] = _mm256_unpackhi_epi64 (t1, t3);
  v[0] = _mm256_unpacklo_epi64 (t4, t6);
  v[1] = _mm256_unpackhi_epi64 (t4, t6);
  v[2] = _mm256_unpacklo_epi64 (t5, t7);
  v[3] = _mm256_unpackhi_epi64 (t5, t7);
  for (int k = 0; k < 4; k++)
    {
      __m256i lo = _mm256_permute2x128_si256 (u[k], v[k], 0x20);  /* k */
      __m256i hi = _mm256_permute2x128_si256 (u[k], v[k], 0x31);  /* k+4 */
      unsigned char *o0 = out + 64 * k, *o1 = out + 64 * (k + 4);
      const unsigned char *i0 = in + 64 * k, *i1 = in + 64 * (k + 4);
      _mm256_storeu_si256 (
          reinterpret_cast<__m256i *> (o0),
          _mm256_xor_si256 (lo, _mm256_loadu_si256 (
                                    reinterpret_cast<const __m256i *> (i0))));
      _mm256_storeu_si256 (
          reinterpret_cast<__m256i *> (o1),
          _mm256_xor_si256 (hi, _mm256_loadu_si256 (
                                    reinterpret_cast<const __m256i *> (i1))));
    }
}

/* Eight blocks of ROUNDS rounds from STATE (counter advanced by 8).
 * OUT/IN: 512 bytes.  */
template <int ROUNDS>
inline void
blocks8 (uint32_t *state, unsigned char *out, const unsigned char *in)
{
  __m256i x[16], s[16];
  for (int i = 0; i < 16; i++)
    s[i] = _mm256_set1_epi32 ((int) state[i]);
  const __m256i lane = _mm256_setr_epi32 (0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i sign = _mm256_set1_epi32 ((int) 0x80000000u);
  __m256i lo = _mm256_add_epi32 (s[8], lane);
  __m256i carry = _mm256_cmpgt_epi32 (_mm256_xor_si256 (s[8], sign),
                                      _mm256_xor_si256 (lo, sign));
  s[8] = lo;
  s[9] = _mm256_sub_epi32 (s[9], carry);  /* carry is 0 or -1.  */
  for (int i = 0; i < 16; i++)
    x[i] = s[i];
  for (int r = 0; r < ROUNDS / 2; r++)
    {
      quarter_round (x[0], x[4], x[8], x[12]);    /* Column round.  */
      quarter_round (x[5], x[9], x[13], x[1]);
      quarter_round (x[10], x[14], x[2], x[6]);
      quarter_round (x[15], x[3], x[7], x[11]);
      quarter_round (x[0], x[1], x[2], x[3]);     /* Row round.  */
      quarter_round (x[5], x[6], x[7], x[4]);
      quarter_round (x[10], x[11], x[8], x[9]);
      quarter_round (x[15], x[12], x[13], x[14]);
    }
  for (int i = 0; i < 16; i++)
    x[i] = _mm256_add_epi32 (x[i], s[i]);
  transpose_xor (x, out, in);                /* Words 0..7 of each block. */
  transpose_xor (x + 8, out + 32, in + 32);  /* Words 8..15.  */
  uint64_t ctr = ((uint64_t) state[9] << 32) | state[8];
  ctr += 8;
  state[8] = (uint32_t) ctr;
  state[9] = (uint32_t) (ctr >> 32);
}

} // namespace

unsigned int
_gcry_salsa20_avx2_blocks (uint32_t *state, unsigned char *out,
                           const unsigned char *in, size_t nblocks,
                           int rounds)
{
  unsigned int depth = 0;
  if (nblocks >= 8)
    {
      for (; nblocks >= 8; nblocks -= 8, in += 512, out += 512)
        if (rounds == 12)
          blocks8<12> (state, out, in);
        else
          blocks8<20> (state, out, in);
      _mm256_zeroall ();
      depth = 64 * 32 + 16 * sizeof (void *);  /* Spilled ymm registers. */
    }
  if (nblocks)
    {
      unsigned int d = _gcry_salsa20_generic_blocks (state, out, in, nblocks,
                                                     rounds);
      depth = d > depth ? d : depth;
    }
  return depth;
}

#endif /* SALSA20_USE_AVX2 */
