/* chacha20-avx512.cpp - ChaCha20 (RFC 8439 2.3) sixteen blocks at a time
 * with AVX-512 (F+VL+BW+DQ, hwf "intel-avx512"; built with those flags in
 * its own convenience library).
 *
 * Layout as in chacha20-avx2.cpp, one word per register: zmm x[i] holds
 * state word i of sixteen consecutive blocks, block k in 32-bit lane k,
 * so a quarter round is the scalar one on whole registers and every
 * rotation is one vprold.  Lanes differ only in words 12 and 13, the
 * 64-bit block counter (chacha20-internal.h): lane k gets counter + k,
 * an unsigned carry out of word 12 (a lane mask) adding 1 to word 13.
 *
 * Output: a 16x16 transpose of 32-bit elements.  For each group of four
 * words 4g..4g+3, unpack 32 and unpack 64 transpose 4x4 inside every
 * 128-bit lane L, giving u[g][j] whose lane L is words 4g..4g+3 of block
 * 4L + j; then, for each j, a 4x4 transpose of 128-bit lanes
 * (vshufi32x4) over u[0..3][j] gives the four whole blocks 4L + j.
 *
 * A remainder of nine to fifteen blocks is one more pass that stores
 * only those; up to eight go to the row layout (chacha20-rows.h: up to
 * four on ymm, two blocks per register, five to eight on zmm, four per
 * register).  Constant time: the same instructions whatever the data.
 * The key and the keystream live only in vector registers (cleared at
 * the end): the kernels fit in the 32 and spill nothing, so the
 * returned burn depth covers saved registers and return addresses only
 * (after every call t-hygiene's StackBurnEveryPathEveryMode looks for
 * key bytes on the stack, t-stream's
 * ChaCha20PathsLeaveNoKeystreamOnTheStack for keystream words).  The
 * one exception is ChaCha20-Poly1305's key block beside a pass
 * (_gcry_chacha20_avx512_keyblock16): its scalar words spill to the
 * frames below the entry point, which its depth adds.
 */
#include <config.h>
#include <immintrin.h>

#include "vec-clear-x86.h"

/* GCC 12's AVX-512 intrinsics use a self-initialised "undefined" source
 * operand that -Wuninitialized flags inside the header.  */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include "chacha20-internal.h"
#include "chacha20-rows.h"
#include "poly1305.h"

#ifdef CHACHA20_USE_AVX512

namespace {

/* RFC 8439 2.1 on sixteen blocks: quarter rounds (a, b, c, d) and
 * (e, f, g, h) side by side, each word updated in its own register.
 * From intrinsics GCC gave each step a fresh destination register and
 * moved sixteen back at the end of every double round (16 vmovdqa64 to
 * 96 operations): on AMD Zen 4 ChaCha20 over 1 KiB took 1.12 times as
 * long as in this form, over 16 KiB 1.02 times.  */
inline __attribute__ ((always_inline)) void
quarter_round2 (__m512i &a, __m512i &b, __m512i &c, __m512i &d,
                __m512i &e, __m512i &f, __m512i &g, __m512i &h)
{
#define CHACHA_STEP(a, b, d, e, f, h, n) \
  "vpaddd %[" b "], %[" a "], %[" a "]\n\t" \
  "vpaddd %[" f "], %[" e "], %[" e "]\n\t" \
  "vpxord %[" a "], %[" d "], %[" d "]\n\t" \
  "vpxord %[" e "], %[" h "], %[" h "]\n\t" \
  "vprold $" #n ", %[" d "], %[" d "]\n\t" \
  "vprold $" #n ", %[" h "], %[" h "]\n\t"
  asm (CHACHA_STEP ("a", "b", "d", "e", "f", "h", 16)
       CHACHA_STEP ("c", "d", "b", "g", "h", "f", 12)
       CHACHA_STEP ("a", "b", "d", "e", "f", "h", 8)
       CHACHA_STEP ("c", "d", "b", "g", "h", "f", 7)
       : [a] "+v" (a), [b] "+v" (b), [c] "+v" (c), [d] "+v" (d),
         [e] "+v" (e), [f] "+v" (f), [g] "+v" (g), [h] "+v" (h));
#undef CHACHA_STEP
}

/* 4x4 transpose of 32-bit elements inside each 128-bit lane of W[0..3]
 * (words 4g..4g+3 of block 4L + j, lane j of 128-bit lane L), in place:
 * W[j] lane L becomes words 4g..4g+3 of block 4L + j.  */
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

/* Sixteen blocks from STATE, the first N (1..16) XORed from IN to OUT
 * (64 N bytes); the counter advances by N.  HOOK (R) runs after double
 * round R (0..9): the stitched
 * ChaCha20-Poly1305 puts its scalar Poly1305 steps there, so the integer
 * multiplies run beside the vector rounds.  It runs before any store to
 * OUT.  */
template <class Hook>
inline void
blocks16 (uint32_t *state, unsigned char *out, const unsigned char *in,
          Hook &&hook, size_t n = 16)
{
  /* Only the sixteen working registers live across the rounds: the
   * feed-forward reads STATE again (an embedded broadcast per word) and
   * rebuilds the counter lanes, so with the transpose's temporaries the
   * pass fits in the 32 zmm registers and spills nothing: no key or
   * keystream word in the frame (burn depth: the frame of saved
   * registers, DEPTH).  */
  const __m512i lane = _mm512_setr_epi32 (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                          11, 12, 13, 14, 15);
  auto counter = [state, lane] (__m512i &w12, __m512i &w13)
    __attribute__ ((always_inline)) {
    const __m512i c12 = _mm512_set1_epi32 ((int) state[12]);
    w12 = _mm512_add_epi32 (c12, lane);
    __mmask16 carry = _mm512_cmplt_epu32_mask (w12, c12);
    const __m512i c13 = _mm512_set1_epi32 ((int) state[13]);
    w13 = _mm512_mask_add_epi32 (c13, carry, c13, _mm512_set1_epi32 (1));
  };
  __m512i x[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; i++)
    x[i] = _mm512_set1_epi32 ((int) state[i]);
  counter (x[12], x[13]);
  for (int r = 0; r < 10; r++)
    {
      quarter_round2 (x[0], x[4], x[8], x[12], x[1], x[5], x[9], x[13]);
      quarter_round2 (x[2], x[6], x[10], x[14], x[3], x[7], x[11], x[15]);
      quarter_round2 (x[0], x[5], x[10], x[15], x[1], x[6], x[11], x[12]);
      quarter_round2 (x[2], x[7], x[8], x[13], x[3], x[4], x[9], x[14]);
      hook (r);
    }
  /* STATE hidden from the optimiser: the broadcasts are not hoisted
   * above the rounds (where they would need sixteen more registers).  */
  const uint32_t *st = state;
  asm ("" : "+r" (st));
  __m512i w12, w13;
  counter (w12, w13);
#pragma GCC unroll 16
  for (int i = 0; i < 16; i++)
    if (i == 12)
      x[i] = _mm512_add_epi32 (x[i], w12);
    else if (i == 13)
      x[i] = _mm512_add_epi32 (x[i], w13);
    else
      x[i] = _mm512_add_epi32 (x[i], _mm512_set1_epi32 ((int) st[i]));
#pragma GCC unroll 4
  for (int g = 0; g < 4; g++)
    transpose4 (x + 4 * g);
  /* x[4g + j], lane L: words 4g..4g+3 of block 4L + j.  */
#pragma GCC unroll 4
  for (int j = 0; j < 4; j++)
    {
      __m512i a = _mm512_shuffle_i32x4 (x[j], x[4 + j], 0x44);
      __m512i b = _mm512_shuffle_i32x4 (x[j], x[4 + j], 0xee);
      __m512i c = _mm512_shuffle_i32x4 (x[8 + j], x[12 + j], 0x44);
      __m512i d = _mm512_shuffle_i32x4 (x[8 + j], x[12 + j], 0xee);
      /* a: lanes (g0 L0, g0 L1, g1 L0, g1 L1), c likewise for g2, g3.  */
      const size_t o = 64 * j;
      if ((size_t) j < n)
        xor_store (out + o, in + o, _mm512_shuffle_i32x4 (a, c, 0x88));
      if ((size_t) j + 4 < n)
        xor_store (out + o + 256, in + o + 256,
                   _mm512_shuffle_i32x4 (a, c, 0xdd));
      if ((size_t) j + 8 < n)
        xor_store (out + o + 512, in + o + 512,
                   _mm512_shuffle_i32x4 (b, d, 0x88));
      if ((size_t) j + 12 < n)
        xor_store (out + o + 768, in + o + 768,
                   _mm512_shuffle_i32x4 (b, d, 0xdd));
    }
  uint64_t ctr = ((uint64_t) state[13] << 32) | state[12];
  ctr += n;
  state[12] = (uint32_t) ctr;
  state[13] = (uint32_t) (ctr >> 32);
}

/* The row layout of chacha20-rows.h on zmm: four blocks per register.  */
struct zmm_rows : simd_x86::Z4
{
  typedef T vec;
  static vec lanes64 (int k)
  {
    return _mm512_setr_epi64 (k, 0, k + 1, 0, k + 2, 0, k + 3, 0);
  }
  template <int N>
  static vec rol (vec x) { return _mm512_rol_epi32 (x, N); }
  /* Lane j of a..d is block j: a 4x4 transpose of 128-bit lanes.  */
  static void store (unsigned char *out, const unsigned char *in, vec a,
                     vec b, vec c, vec d, size_t n)
  {
    __m512i t0 = _mm512_shuffle_i32x4 (a, b, 0x44);  /* a0 a1 b0 b1 */
    __m512i t1 = _mm512_shuffle_i32x4 (a, b, 0xee);  /* a2 a3 b2 b3 */
    __m512i t2 = _mm512_shuffle_i32x4 (c, d, 0x44);
    __m512i t3 = _mm512_shuffle_i32x4 (c, d, 0xee);
    xor_store (out, in, _mm512_shuffle_i32x4 (t0, t2, 0x88));
    if (n > 1)
      xor_store (out + 64, in + 64, _mm512_shuffle_i32x4 (t0, t2, 0xdd));
    if (n > 2)
      xor_store (out + 128, in + 128, _mm512_shuffle_i32x4 (t1, t3, 0x88));
    if (n > 3)
      xor_store (out + 192, in + 192, _mm512_shuffle_i32x4 (t1, t3, 0xdd));
  }
};

/* The row layout on ymm with AVX-512VL's vprold, two blocks per
 * register, for up to four blocks (one or two chains): a chain on ymm
 * is shorter than on zmm, whose operations take a cycle more on CPUs
 * that split them (about 30 ns per call on AMD Zen 4).  */
struct ymm_rows : chacha20_rows::ymm_base
{
  template <int N>
  static vec rol (vec x) { return _mm256_rol_epi32 (x, N); }
};

/* One to eight blocks in the row layout: one or two chains of two
 * blocks on ymm, or two chains of four on zmm (measured on AMD Zen 4:
 * eight cost 0.7 times a sixteen-block pass).  Out of line, a leaf that
 * spills nothing.  */
__attribute__ ((noinline)) void
rows (uint32_t *state, unsigned char *out, const unsigned char *in,
      size_t nblocks)
{
  if (nblocks <= 2)
    chacha20_rows::blocks<ymm_rows, 1> (state, out, in, nblocks);
  else if (nblocks <= 4)
    chacha20_rows::blocks<ymm_rows, 2> (state, out, in, nblocks);
  else
    chacha20_rows::blocks<zmm_rows, 2> (state, out, in, nblocks);
}

/* Sixteen blocks per pass; a tail of nine to fifteen as one more pass
 * that stores only those (0.95 times two row passes), up to eight in
 * the row layout.  */
__attribute__ ((noinline)) void
bulk (uint32_t *state, unsigned char *out, const unsigned char *in,
      size_t nblocks)
{
  for (; nblocks >= 16; nblocks -= 16, in += 1024, out += 1024)
    blocks16 (state, out, in, [] (int) {});
  if (nblocks > 8)
    blocks16 (state, out, in, [] (int) {}, nblocks);
  else if (nblocks)
    rows (state, out, in, nblocks);
}
/* The stack the calls below touch: return addresses, the caller's
 * registers saved, the 64-byte alignment of blocks16's frame (288
 * bytes measured with GCC 12); no zmm register is spilled (blocks16 and
 * rows fit in the 32), so nothing of the key or the keystream is in
 * it.  */
constexpr unsigned int DEPTH = 384;

} // namespace

unsigned int
_gcry_chacha20_avx512_blocks (uint32_t *state, unsigned char *out,
                              const unsigned char *in, size_t nblocks)
{
  if (nblocks > 8)
    bulk (state, out, in, nblocks);
  else
    rows (state, out, in, nblocks);
  vec_clear_zmm ();
  return DEPTH;
}
/* RFC 8439 2.6 with the keystream after it: the block at STATE's
 * counter into BLOCK (ChaCha20-Poly1305's one-time key) and the sixteen
 * after it into PAD (1024 bytes); the counter advances by 17.  The key
 * block runs on the general-purpose registers, one scalar double round
 * after each of the pass's vector ones: its twenty serial rounds (about
 * 90 ns in the row layout on AMD Zen 4, whose vprold takes two cycles)
 * hide under the sixteen-block pass, which is bound by throughput.  */
unsigned int
_gcry_chacha20_avx512_keyblock16 (uint32_t *state, unsigned char *block,
                                  unsigned char *pad)
{
  alignas (64) static const unsigned char zeros[16 * CHACHA20_BLOCKSIZE]
    = { 0 };
  chacha20_scalar::side_block key (state);
  blocks16 (state, pad, zeros, [&key] (int) {
    chacha20_scalar::double_round (key.x);
  });
  key.finish (state, block);   /* KEY: in the frames' spill slots.  */
  vec_clear_zmm ();
  return DEPTH + 16 * 4;
}

#ifdef POLY1305_RADIX44
/* ChaCha20-Poly1305 (RFC 8439 2.8) stitched: NBLOCKS (a multiple of 16)
 * keystream blocks XORed from IN to OUT (IN == OUT allowed) and the
 * ciphertext absorbed into MAC as whole 16-byte blocks (MAC must hold no
 * partial block, STATE no unused keystream; the caller checks).
 *
 * Each 16-block ChaCha20 pass carries the Poly1305 of 1024 ciphertext
 * bytes in its round loop (sixteen four-block steps, two after each of
 * double rounds 0..5 and one after 6..9).  Decryption authenticates the
 * pass's own input (read before the pass stores); encryption the
 * previous pass's output, and the last pass's output after the loop.
 * Same results as the ChaCha20 and Poly1305 paths run one after the
 * other.  */
unsigned int
_gcry_chacha20_poly1305_avx512 (uint32_t *state, poly1305_context *mac,
                                unsigned char *out, const unsigned char *in,
                                size_t nblocks, int encrypt)
{
  using namespace poly1305_radix44;
  constexpr uint64_t hibit = 1ull << 40;
  if (nblocks < 16)
    return 0;
  uint64_t s[4][2];
  times20 (mac, s);
  uint64_t h0 = mac->h[0], h1 = mac->h[1], h2 = mac->h[2];
  const unsigned char *m = encrypt ? nullptr : in;
  for (; nblocks >= 16; nblocks -= 16, in += 1024, out += 1024)
    {
      if (!m)   /* Encryption's first pass: nothing to authenticate yet.  */
        blocks16 (state, out, in, [] (int) {});
      else
        blocks16 (state, out, in, [&] (int r) {
          const int first = r < 6 ? 2 * r : r + 6, count = r < 6 ? 2 : 1;
          for (int k = 0; k < count; k++)
            step4 (h0, h1, h2, mac, s, m + 64 * (first + k), hibit);
        });
      m = encrypt ? out : in + 1024;
    }
  if (encrypt)
    for (int k = 0; k < 16; k++)
      step4 (h0, h1, h2, mac, s, out - 1024 + 64 * k, hibit);
  mac->h[0] = h0; mac->h[1] = h1; mac->h[2] = h2;
  wipememory (s, sizeof s);
  vec_clear_zmm ();
  return 64 * 64 + 64 * sizeof (void *);
}

/* The short-message form (chacha20-rows.h's poly1305_in_rows): one or
 * two chains of two blocks on ymm, as the rows function above (a zmm
 * chain is longer on CPUs that split its operations).  Its frame: the
 * saved registers and a few words (about 250 bytes with the red zone,
 * GCC 12), nothing of the key or the keystream.  */
unsigned int
_gcry_chacha20_poly1305_avx512_rows (uint32_t *state, poly1305_context *mac,
                                     unsigned char *out,
                                     const unsigned char *in, size_t nblocks,
                                     const unsigned char *m, size_t mblocks)
{
  chacha20_rows::poly1305_in_rows<ymm_rows> (state, mac, out, in, nblocks,
                                             m, mblocks);
  vec_clear_zmm ();
  return DEPTH;
}
#endif /* POLY1305_RADIX44 */

#endif /* CHACHA20_USE_AVX512 */
