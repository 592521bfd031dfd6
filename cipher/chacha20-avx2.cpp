/* chacha20-avx2.cpp - ChaCha20 (RFC 8439 2.3) eight blocks at a time with
 * AVX2 (built with -mavx2 in its own convenience library).
 *
 * Layout: "one word per register".  Register x[i] holds state word i of
 * eight consecutive blocks, block k in 32-bit lane k, so a quarter round
 * is the scalar one on whole registers.  Lanes differ only in words 12
 * and 13, the 64-bit block counter (chacha20-internal.h): lane k gets
 * counter + k, the carry out of word 12 going into word 13.  After the
 * 20 rounds and the feed-forward an 8x8 transpose of 32-bit elements
 * (unpack 32, unpack 64, swap 128-bit halves) turns the registers into
 * the eight 64-byte keystream blocks, which are XORed into the input.
 *
 * Rotations by 16 and 8 are byte shuffles, by 12 and 7 shift pairs.
 * Constant time: the same instructions whatever the data.  The keystream
 * lives only in ymm registers (cleared with vzeroall at the end) and in
 * the compiler's spill slots, which the caller burns (returned depth).
 */
#include <config.h>
#include <immintrin.h>

#include "chacha20-internal.h"
#include "chacha20-rows.h"

namespace {

inline __m256i
rol16 (__m256i x)
{
  const __m256i r16 = _mm256_setr_epi8 (2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
                                        14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4,
                                        5, 10, 11, 8, 9, 14, 15, 12, 13);
  return _mm256_shuffle_epi8 (x, r16);
}

inline __m256i
rol8 (__m256i x)
{
  const __m256i r8 = _mm256_setr_epi8 (3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10,
                                       15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6,
                                       11, 8, 9, 10, 15, 12, 13, 14);
  return _mm256_shuffle_epi8 (x, r8);
}

template <int N>
inline __m256i
rol (__m256i x)
{
  return _mm256_or_si256 (_mm256_slli_epi32 (x, N),
                          _mm256_srli_epi32 (x, 32 - N));
}

/* RFC 8439 2.1 on eight blocks, two quarter rounds (A, B, C, D and E,
 * F, G, H) step by step.  Sixteen state words in sixteen ymm registers
 * leave none for the rotations' temporaries, so some are spilled; GCC
 * spills less when the steps of two quarter rounds are written side by
 * side, and less again with -fpeel-loops (cipher/Makefile.am; it does
 * not unroll the loop): 0.33 instead of 0.41 ns/byte on AMD Zen 4.  */
inline void
quarter_round2 (__m256i &a, __m256i &b, __m256i &c, __m256i &d,
                __m256i &e, __m256i &f, __m256i &g, __m256i &h)
{
  a = _mm256_add_epi32 (a, b); e = _mm256_add_epi32 (e, f);
  d = rol16 (_mm256_xor_si256 (d, a)); h = rol16 (_mm256_xor_si256 (h, e));
  c = _mm256_add_epi32 (c, d); g = _mm256_add_epi32 (g, h);
  b = rol<12> (_mm256_xor_si256 (b, c)); f = rol<12> (_mm256_xor_si256 (f, g));
  a = _mm256_add_epi32 (a, b); e = _mm256_add_epi32 (e, f);
  d = rol8 (_mm256_xor_si256 (d, a)); h = rol8 (_mm256_xor_si256 (h, e));
  c = _mm256_add_epi32 (c, d); g = _mm256_add_epi32 (g, h);
  b = rol<7> (_mm256_xor_si256 (b, c)); f = rol<7> (_mm256_xor_si256 (f, g));
}

/* Transpose the eight registers W[0..7] (word j of block k in lane k)
 * and XOR the rows into 32 bytes at IN + 64k, written to OUT + 64k, for
 * the first N blocks (k < N; N public).  */
inline void
transpose_xor (const __m256i *w, unsigned char *out, const unsigned char *in,
               size_t n)
{
  __m256i t0 = _mm256_unpacklo_epi32 (w[0], w[1]);
  __m256i t1 = _mm256_unpackhi_epi32 (w[0], w[1]);
  __m256i t2 = _mm256_unpacklo_epi32 (w[2], w[3]);
  __m256i t3 = _mm256_unpackhi_epi32 (w[2], w[3]);
  __m256i t4 = _mm256_unpacklo_epi32 (w[4], w[5]);
  __m256i t5 = _mm256_unpackhi_epi32 (w[4], w[5]);
  __m256i t6 = _mm256_unpacklo_epi32 (w[6], w[7]);
  __m256i t7 = _mm256_unpackhi_epi32 (w[6], w[7]);
  /* u[k]: words 0..3 of block k (low half) and of block k + 4 (high),
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
      const unsigned char *i0 = in + 64 * k, *i1 = in + 64 * (k + 4);
      unsigned char *o0 = out + 64 * k, *o1 = out + 64 * (k + 4);
      if ((size_t) k < n)
        _mm256_storeu_si256 (
            reinterpret_cast<__m256i *> (o0),
            _mm256_xor_si256 (lo, _mm256_loadu_si256 (
                                      reinterpret_cast<const __m256i *> (i0))));
      if ((size_t) k + 4 < n)
        _mm256_storeu_si256 (
            reinterpret_cast<__m256i *> (o1),
            _mm256_xor_si256 (hi, _mm256_loadu_si256 (
                                      reinterpret_cast<const __m256i *> (i1))));
    }
}

/* Eight blocks from STATE, the first N (1..8) XORed from IN to OUT
 * (64 N bytes); the counter advances by N.  */
inline void
blocks8 (uint32_t *state, unsigned char *out, const unsigned char *in,
         size_t n = 8)
{
  __m256i x[16], s[16];
  for (int i = 0; i < 16; i++)
    s[i] = _mm256_set1_epi32 ((int) state[i]);
  /* Lane k: 64-bit counter + k (unsigned carry from word 12 to 13).  */
  const __m256i lane = _mm256_setr_epi32 (0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i sign = _mm256_set1_epi32 ((int) 0x80000000u);
  __m256i lo = _mm256_add_epi32 (s[12], lane);
  __m256i carry = _mm256_cmpgt_epi32 (_mm256_xor_si256 (s[12], sign),
                                      _mm256_xor_si256 (lo, sign));
  s[12] = lo;
  s[13] = _mm256_sub_epi32 (s[13], carry);  /* carry is 0 or -1.  */
  for (int i = 0; i < 16; i++)
    x[i] = s[i];
  for (int r = 0; r < 10; r++)
    {
      quarter_round2 (x[0], x[4], x[8], x[12], x[1], x[5], x[9], x[13]);
      quarter_round2 (x[2], x[6], x[10], x[14], x[3], x[7], x[11], x[15]);
      quarter_round2 (x[0], x[5], x[10], x[15], x[1], x[6], x[11], x[12]);
      quarter_round2 (x[2], x[7], x[8], x[13], x[3], x[4], x[9], x[14]);
    }
  for (int i = 0; i < 16; i++)
    x[i] = _mm256_add_epi32 (x[i], s[i]);
  transpose_xor (x, out, in, n);            /* Words 0..7 of each block.  */
  transpose_xor (x + 8, out + 32, in + 32, n);  /* Words 8..15.  */
  uint64_t ctr = ((uint64_t) state[13] << 32) | state[12];
  ctr += n;
  state[12] = (uint32_t) ctr;
  state[13] = (uint32_t) (ctr >> 32);
}

/* The row layout of chacha20-rows.h on ymm: two blocks per register.  */
struct ymm_rows
{
  typedef __m256i vec;
  static constexpr int BLOCKS = 2;
  static vec row (const uint32_t *p)
  {
    return _mm256_broadcastsi128_si256 (
        _mm_loadu_si128 (reinterpret_cast<const __m128i *> (p)));
  }
  static vec lanes64 (int k)
  {
    return _mm256_setr_epi64x (k, 0, k + 1, 0);
  }
  static vec add32 (vec a, vec b) { return _mm256_add_epi32 (a, b); }
  static vec add64 (vec a, vec b) { return _mm256_add_epi64 (a, b); }
  static vec xor_ (vec a, vec b) { return _mm256_xor_si256 (a, b); }
  template <int N>
  static vec rol (vec x)
  {
    if constexpr (N == 16)
      return rol16 (x);
    else if constexpr (N == 8)
      return rol8 (x);
    else
      return ::rol<N> (x);
  }
  template <int IMM>
  static vec shuf (vec x) { return _mm256_shuffle_epi32 (x, IMM); }
  /* Lane 0 of a..d is block 0, lane 1 block 1.  */
  static void store (unsigned char *out, const unsigned char *in, vec a,
                     vec b, vec c, vec d, size_t n)
  {
    for (size_t j = 0; j < n; j++)
      {
        vec lo = j ? _mm256_permute2x128_si256 (a, b, 0x31)
                   : _mm256_permute2x128_si256 (a, b, 0x20);
        vec hi = j ? _mm256_permute2x128_si256 (c, d, 0x31)
                   : _mm256_permute2x128_si256 (c, d, 0x20);
        const __m256i *i = reinterpret_cast<const __m256i *> (in + 64 * j);
        __m256i *o = reinterpret_cast<__m256i *> (out + 64 * j);
        _mm256_storeu_si256 (o, _mm256_xor_si256 (lo, _mm256_loadu_si256 (i)));
        _mm256_storeu_si256 (o + 1,
                             _mm256_xor_si256 (hi, _mm256_loadu_si256 (i + 1)));
      }
  }
};

/* One to four blocks in the row layout (chacha20-rows.h): one or two
 * chains of two blocks, about the latency of one scalar block (measured
 * on AMD Zen 4: four cost 0.6 times an eight-block pass).  Out of line,
 * so that a short message's stack frame is this small one
 * (ROWS_DEPTH).  */
__attribute__ ((noinline)) void
rows (uint32_t *state, unsigned char *out, const unsigned char *in,
      size_t nblocks)
{
  if (nblocks <= 2)
    chacha20_rows::blocks<ymm_rows, 1> (state, out, in, nblocks);
  else
    chacha20_rows::blocks<ymm_rows, 2> (state, out, in, nblocks);
}
constexpr unsigned int ROWS_DEPTH = 512 + 16 * sizeof (void *);

/* Eight blocks per pass; a tail of five to seven as one more pass that
 * stores only those (five to seven in rows cost 1.1 times that pass),
 * up to four in the row layout.  */
__attribute__ ((noinline)) void
bulk (uint32_t *state, unsigned char *out, const unsigned char *in,
      size_t nblocks)
{
  for (; nblocks >= 8; nblocks -= 8, in += 512, out += 512)
    blocks8 (state, out, in);
  if (nblocks > 4)
    blocks8 (state, out, in, nblocks);
  else if (nblocks)
    rows (state, out, in, nblocks);
}
constexpr unsigned int BULK_DEPTH = 64 * 32 + 16 * sizeof (void *);

} // namespace

unsigned int
_gcry_chacha20_avx2_blocks (uint32_t *state, unsigned char *out,
                            const unsigned char *in, size_t nblocks)
{
  /* The depth: the frames with spilled ymm registers.  */
  unsigned int depth;
  if (nblocks > 4)
    {
      bulk (state, out, in, nblocks);
      depth = BULK_DEPTH;
    }
  else
    {
      rows (state, out, in, nblocks);
      depth = ROWS_DEPTH;
    }
  _mm256_zeroall ();
  return depth;
}
