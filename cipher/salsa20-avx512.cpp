/* salsa20-avx512.cpp - Salsa20/20 and Salsa20/12 (Salsa20 specification
 * sections 3-9) sixteen blocks at a time with AVX-512 (F+VL+BW+DQ, hwf
 * "intel-avx512"; built with those flags in its own convenience
 * library).
 *
 * One word per register: zmm x[i] holds state word i of sixteen
 * consecutive blocks, block k in 32-bit lane k, so the quarterround is
 * the scalar one on whole registers and every rotation one vprold.
 * Lanes differ only in words 8 and 9, the 64-bit block counter: lane k
 * gets counter + k, an unsigned carry out of word 8 (a lane mask)
 * adding 1 to word 9.  The output is the 16x16 transpose of
 * chacha20-avx512.cpp (4x4 inside 128-bit lanes, then 4x4 of 128-bit
 * lanes), XORed into the input.
 *
 * The remainder NBLOCKS % 16 goes to the AVX2 path (eight blocks, then
 * generic).  Constant time:
 * the same instructions whatever the data.  The keystream lives in zmm
 * registers (cleared at the end) and the compiler's spill slots, which
 * the caller burns (the returned depth).
 */
#include <config.h>
#include <immintrin.h>

#include "vec-clear-x86.h"

#include "salsa20-internal.h"

/* GCC 12's AVX-512 intrinsics use a self-initialised "undefined" source
 * operand that -Wuninitialized flags inside the header.  */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#ifdef SALSA20_USE_AVX512

namespace {

template <int N>
inline __m512i
rol (__m512i x)
{
  return _mm512_rol_epi32 (x, N);
}

/* Specification section 3, the quarterround, on sixteen blocks.  */
inline void
quarter_round (__m512i &a, __m512i &b, __m512i &c, __m512i &d)
{
  b = _mm512_xor_si512 (b, rol<7> (_mm512_add_epi32 (a, d)));
  c = _mm512_xor_si512 (c, rol<9> (_mm512_add_epi32 (b, a)));
  d = _mm512_xor_si512 (d, rol<13> (_mm512_add_epi32 (c, b)));
  a = _mm512_xor_si512 (a, rol<18> (_mm512_add_epi32 (d, c)));
}

/* 4x4 transpose of 32-bit elements inside each 128-bit lane of W[0..3]. */
inline void
transpose4 (__m512i *w)
{
  __m512i t0 = _mm512_unpacklo_epi32 (w[0], w[1]);
  __m512i t1 = _mm512_unpackhi_epi32 (w[0], w[1]);
  __m512i t2 = _mm512_unpacklo_epi32 (w[2], w[3]);
  __m512i t3 = _mm512_unpackhi_epi32 (w[2], w[3]);
  w[0] = _mm512_unpacklo_epi64 (t0, t2);
  w[1] = _mm512_unpackhi_epi64 (t0, t2);
  w[2] = _mm512_unpacklo_epi64 (t1, t3);
  w[3] = _mm512_unpackhi_epi64 (t1, t3);
}

inline void
xor_store (unsigned char *out, const unsigned char *in, __m512i ks)
{
  _mm512_storeu_si512 (out, _mm512_xor_si512 (ks, _mm512_loadu_si512 (in)));
}

/* Sixteen blocks of ROUNDS rounds from STATE (counter advanced by 16).
 * OUT/IN: 1024 bytes.  */
template <int ROUNDS>
inline void
blocks16 (uint32_t *state, unsigned char *out, const unsigned char *in)
{
  __m512i x[16], s[16];
  for (int i = 0; i < 16; i++)
    s[i] = _mm512_set1_epi32 ((int) state[i]);
  const __m512i lane = _mm512_setr_epi32 (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                          11, 12, 13, 14, 15);
  __m512i lo = _mm512_add_epi32 (s[8], lane);
  __mmask16 carry = _mm512_cmplt_epu32_mask (lo, s[8]);
  s[8] = lo;
  s[9] = _mm512_mask_add_epi32 (s[9], carry, s[9], _mm512_set1_epi32 (1));
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
    x[i] = _mm512_add_epi32 (x[i], s[i]);
  for (int g = 0; g < 4; g++)
    transpose4 (x + 4 * g);
  /* x[4g + j], 128-bit lane L: words 4g..4g+3 of block 4L + j.  */
  for (int j = 0; j < 4; j++)
    {
      __m512i a = _mm512_shuffle_i32x4 (x[j], x[4 + j], 0x44);
      __m512i b = _mm512_shuffle_i32x4 (x[j], x[4 + j], 0xee);
      __m512i c = _mm512_shuffle_i32x4 (x[8 + j], x[12 + j], 0x44);
      __m512i d = _mm512_shuffle_i32x4 (x[8 + j], x[12 + j], 0xee);
      const size_t o = 64 * j;
      xor_store (out + o, in + o, _mm512_shuffle_i32x4 (a, c, 0x88));
      xor_store (out + o + 256, in + o + 256, _mm512_shuffle_i32x4 (a, c, 0xdd));
      xor_store (out + o + 512, in + o + 512, _mm512_shuffle_i32x4 (b, d, 0x88));
      xor_store (out + o + 768, in + o + 768, _mm512_shuffle_i32x4 (b, d, 0xdd));
    }
  uint64_t ctr = ((uint64_t) state[9] << 32) | state[8];
  ctr += 16;
  state[8] = (uint32_t) ctr;
  state[9] = (uint32_t) (ctr >> 32);
}

} // namespace

unsigned int
_gcry_salsa20_avx512_blocks (uint32_t *state, unsigned char *out,
                             const unsigned char *in, size_t nblocks,
                             int rounds)
{
  unsigned int depth = 0;
  if (nblocks >= 16)
    {
      for (; nblocks >= 16; nblocks -= 16, in += 1024, out += 1024)
        if (rounds == 12)
          blocks16<12> (state, out, in);
        else
          blocks16<20> (state, out, in);
      vec_clear_zmm ();
      depth = 64 * 64 + 16 * sizeof (void *);  /* Spilled zmm registers. */
    }
  if (nblocks)
    {
      unsigned int d = _gcry_salsa20_avx2_blocks (state, out, in, nblocks,
                                                  rounds);
      depth = d > depth ? d : depth;
    }
  return depth;
}

#endif /* SALSA20_USE_AVX512 */
