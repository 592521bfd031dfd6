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
 * The eight-block double round is inline assembly with hand-allocated
 * registers (double_round below); the row layout for short messages
 * and tails comes from chacha20-rows.h; _gcry_chacha20_poly1305_avx2
 * stitches the scalar Poly1305 into the round loop.  Constant time: the
 * same instructions whatever the data.  The keystream lives only in ymm
 * registers (cleared with vzeroall at the end) and in the compiler's
 * spill slots, which the caller burns (returned depth).
 */
#include <config.h>
#include <immintrin.h>

#include <type_traits>

#include "chacha20-internal.h"
#include "chacha20-rows.h"
#include "poly1305.h"

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

/* One double round (RFC 8439 2.1, 2.3: the column round, then the
 * diagonal one) on eight blocks, a pair of quarter rounds per assembly
 * statement.  Sixteen state words and the rotations' temporary are one
 * register more than the sixteen ymm registers (compiled from
 * intrinsics GCC spilled about 26 of them per double round), so one
 * word waits in SCRATCH: word 15 during the pairs that do not touch it
 * (3, then 0 of the next double round), word 8 during pairs 1 and 2.
 * The two take turns in one register, the other fifteen registers
 * holding fourteen words and the temporary, and a double round moves
 * two words to and from memory (four memory operations), each stored
 * two pairs before it is read back (off the dependency chain).
 * Rotations by 16 and 8 are vpshufb with the tables in SCRATCH.  Each
 * statement names only the eight words it changes.  SCRATCH holds
 * round state, in the caller's frame, burned with it.  */
struct alignas (32) chacha_scratch
{
  __m256i w8, w15;
  __m256i r16, r8;
};

#ifdef __x86_64__
#define CHACHA_ADD(a, b) "vpaddd %[" b "], %[" a "], %[" a "]\n\t"
#define CHACHA_XOR(d, a) "vpxor %[" a "], %[" d "], %[" d "]\n\t"
#define CHACHA_ROTB(d, tab) "vpshufb %[" tab "], %[" d "], %[" d "]\n\t"
#define CHACHA_ROTS(b, n) \
  "vpslld $" #n ", %[" b "], %[t]\n\t" \
  "vpsrld $(32 - " #n "), %[" b "], %[" b "]\n\t" \
  "vpor %[t], %[" b "], %[" b "]\n\t"
/* Quarter rounds (a, b, c, d) and (e, f, g, h) side by side.  */
#define CHACHA_QR2 \
  CHACHA_ADD ("a", "b") CHACHA_ADD ("e", "f") \
  CHACHA_XOR ("d", "a") CHACHA_XOR ("h", "e") \
  CHACHA_ROTB ("d", "r16") CHACHA_ROTB ("h", "r16") \
  CHACHA_ADD ("c", "d") CHACHA_ADD ("g", "h") \
  CHACHA_XOR ("b", "c") CHACHA_XOR ("f", "g") \
  CHACHA_ROTS ("b", 12) CHACHA_ROTS ("f", 12) \
  CHACHA_ADD ("a", "b") CHACHA_ADD ("e", "f") \
  CHACHA_XOR ("d", "a") CHACHA_XOR ("h", "e") \
  CHACHA_ROTB ("d", "r8") CHACHA_ROTB ("h", "r8") \
  CHACHA_ADD ("c", "d") CHACHA_ADD ("g", "h") \
  CHACHA_XOR ("b", "c") CHACHA_XOR ("f", "g") \
  CHACHA_ROTS ("b", 7) CHACHA_ROTS ("f", 7)

/* The assembly of a pair on the words A..H, with T the temporary.  */
#define CHACHA_PAIR(A, B, C, D, E, F, G, H) \
  asm (CHACHA_QR2 \
       : [a] "+x" (A), [b] "+x" (B), [c] "+x" (C), [d] "+x" (D), \
         [e] "+x" (E), [f] "+x" (F), [g] "+x" (G), [h] "+x" (H), \
         [t] "=&x" (t) \
       : [r16] "m" (p->r16), [r8] "m" (p->r8))
/* The same after a swap in the register of operand W ("c" or "h"): the
 * word it holds goes to OUT, the word at IN comes in.  */
#define CHACHA_PAIR_SWAP(W, OUT, IN, A, B, C, D, E, F, G, H) \
  asm ("vmovdqa %[" W "], %[out]\n\t" \
       "vmovdqa %[in], %[" W "]\n\t" \
       CHACHA_QR2 \
       : [a] "+x" (A), [b] "+x" (B), [c] "+x" (C), [d] "+x" (D), \
         [e] "+x" (E), [f] "+x" (F), [g] "+x" (G), [h] "+x" (H), \
         [t] "=&x" (t), [out] "=m" (OUT) \
       : [r16] "m" (p->r16), [r8] "m" (p->r8), [in] "m" (IN))

/* On entry and exit word 15 is in P->w15 (X[15] unused).  HOOK (Q)
 * runs after pair Q (0..3): the stitched ChaCha20-Poly1305 spreads its
 * scalar Poly1305 blocks that finely, so the out-of-order window holds
 * both.
 *
 * PINNED: each word has its register for the whole double round (the
 * temporary ymm15; words 8 and 15 share ymm8, the pairs that need the
 * other one swap them).  The hooks must be inlined (always_inline):
 * register variables do not survive a call, and GCC would not save the
 * vector registers around one (out-of-line hooks at -Os gave wrong
 * keystream).  Left to choose, GCC 12 took the temporary from
 * different registers in different pairs and, in the stitched pass,
 * kept up to two more words in memory: 4 to 8 more moves a double
 * round.  Not pinned, GCC places the words, and words 8 and 15 move as
 * volatile accesses.  That is for hooks that need more general-purpose
 * registers than there are (the scalar side block of
 * _gcry_chacha20_avx2_keyblock8): with the words pinned, GCC put their
 * spills in vector registers and moved words out of them (412
 * instructions a double round there, against 272).  */
template <bool Pinned, class Hook>
inline __attribute__ ((always_inline)) void
double_round (__m256i *x, chacha_scratch *p, Hook &&hook)
{
  if constexpr (!Pinned)
    {
      __m256i t;
      volatile __m256i *w8 = &p->w8, *w15 = &p->w15;
      CHACHA_PAIR (x[0], x[4], x[8], x[12], x[1], x[5], x[9], x[13]);
      hook (0);
      x[15] = *w15;
      *w8 = x[8];
      CHACHA_PAIR (x[2], x[6], x[10], x[14], x[3], x[7], x[11], x[15]);
      hook (1);
      CHACHA_PAIR (x[0], x[5], x[10], x[15], x[1], x[6], x[11], x[12]);
      hook (2);
      *w15 = x[15];
      x[8] = *w8;
      CHACHA_PAIR (x[2], x[7], x[8], x[13], x[3], x[4], x[9], x[14]);
      hook (3);
      return;
    }
  register __m256i x0 asm ("ymm0") = x[0], x1 asm ("ymm1") = x[1],
    x2 asm ("ymm2") = x[2], x3 asm ("ymm3") = x[3], x4 asm ("ymm4") = x[4],
    x5 asm ("ymm5") = x[5], x6 asm ("ymm6") = x[6], x7 asm ("ymm7") = x[7],
    w asm ("ymm8") = x[8], x9 asm ("ymm9") = x[9], x10 asm ("ymm10") = x[10],
    x11 asm ("ymm11") = x[11], x12 asm ("ymm12") = x[12],
    x13 asm ("ymm13") = x[13], x14 asm ("ymm14") = x[14];
  register __m256i t asm ("ymm15");
  CHACHA_PAIR (x0, x4, w, x12, x1, x5, x9, x13);
  hook (0);
  /* Word 8 out, word 15 in.  */
  CHACHA_PAIR_SWAP ("h", p->w8, p->w15, x2, x6, x10, x14, x3, x7, x11, w);
  hook (1);
  CHACHA_PAIR (x0, x5, x10, w, x1, x6, x11, x12);
  hook (2);
  /* Word 15 out, word 8 in.  */
  CHACHA_PAIR_SWAP ("c", p->w15, p->w8, x2, x7, w, x13, x3, x4, x9, x14);
  hook (3);
  x[0] = x0; x[1] = x1; x[2] = x2; x[3] = x3; x[4] = x4; x[5] = x5;
  x[6] = x6; x[7] = x7; x[8] = w; x[9] = x9; x[10] = x10; x[11] = x11;
  x[12] = x12; x[13] = x13; x[14] = x14;
}
#undef CHACHA_PAIR_SWAP
#undef CHACHA_PAIR
#undef CHACHA_QR2
#undef CHACHA_ROTS
#undef CHACHA_ROTB
#undef CHACHA_XOR
#undef CHACHA_ADD
#else /* !__x86_64__ */
/* i386 has eight vector registers: there the steps are intrinsics (two
 * quarter rounds side by side) and GCC spills what it must; word 15 is
 * in SCRATCH between double rounds as on x86-64.  */
inline __attribute__ ((always_inline)) void
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

template <bool, class Hook>
inline __attribute__ ((always_inline)) void
double_round (__m256i *x, chacha_scratch *p, Hook &&hook)
{
  x[15] = p->w15;
  quarter_round2 (x[0], x[4], x[8], x[12], x[1], x[5], x[9], x[13]);
  hook (0);
  quarter_round2 (x[2], x[6], x[10], x[14], x[3], x[7], x[11], x[15]);
  hook (1);
  quarter_round2 (x[0], x[5], x[10], x[15], x[1], x[6], x[11], x[12]);
  hook (2);
  quarter_round2 (x[2], x[7], x[8], x[13], x[3], x[4], x[9], x[14]);
  hook (3);
  p->w15 = x[15];
}
#endif /* !__x86_64__ */

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
  /* Unrolled: rolled, GCC keeps u and v in a stack array (eight stores
   * and loads of keystream per call).  */
#pragma GCC unroll 4
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
 * (64 N bytes); the counter advances by N.  In each of the first HOOKED
 * (0..10) double rounds R, HOOK (R, Q) runs after pair Q (0..3) of
 * quarter rounds, before any store to OUT: the stitched
 * ChaCha20-Poly1305 puts its scalar Poly1305 blocks there, so the
 * integer multiplies run beside the vector rounds.  The first SPLIT of
 * those rounds are a loop of their own (a hook that does more in them
 * then has no branch in either loop).  PINNED: double_round's.  */
template <bool Pinned = true, class Hook>
inline __attribute__ ((always_inline)) void
blocks8 (uint32_t *state, unsigned char *out, const unsigned char *in,
         Hook &&hook, size_t n = 8, int hooked = 0, int split = 0)
{
  /* Lane k: 64-bit counter + k (unsigned carry from word 12 to 13);
   * made again for the feed-forward, which reads STATE again too: no
   * copy of the state lives across the rounds (no register for it).  */
  static const int32_t lanes[8] __attribute__ ((aligned (32)))
    = { 0, 1, 2, 3, 4, 5, 6, 7 };
  auto counter = [state] (__m256i &w12, __m256i &w13)
    __attribute__ ((always_inline)) {
    /* The constants from memory at each use (the address hidden from
     * the optimiser): kept in registers across the rounds they would
     * take two of the fourteen.  */
    const int32_t *lp = lanes;
    asm ("" : "+r" (lp));
    const __m256i lane = _mm256_load_si256 (
        reinterpret_cast<const __m256i *> (lp));
    const __m256i sign = _mm256_slli_epi32 (
        _mm256_cmpeq_epi32 (lane, lane), 31);
    const __m256i c12 = _mm256_set1_epi32 ((int) state[12]);
    w12 = _mm256_add_epi32 (c12, lane);
    __m256i carry = _mm256_cmpgt_epi32 (_mm256_xor_si256 (c12, sign),
                                        _mm256_xor_si256 (w12, sign));
    w13 = _mm256_sub_epi32 (_mm256_set1_epi32 ((int) state[13]),
                            carry);   /* carry is 0 or -1.  */
  };
  __m256i x[16];
  chacha_scratch scratch;
  scratch.r16 = _mm256_setr_epi8 (2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14,
                                  15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10,
                                  11, 8, 9, 14, 15, 12, 13);
  scratch.r8 = _mm256_setr_epi8 (3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15,
                                 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8,
                                 9, 10, 15, 12, 13, 14);
#pragma GCC unroll 16
  for (int i = 0; i < 15; i++)
    if (i != 12 && i != 13)
      x[i] = _mm256_set1_epi32 ((int) state[i]);
  scratch.w15 = _mm256_set1_epi32 ((int) state[15]);
  counter (x[12], x[13]);
  /* Rolled: the loop body (four pairs and four hooks, about 260
   * instructions) stays in the op cache; unrolled ten times the
   * stitched pass was 3400 instructions.  */
  int r = 0;
  if constexpr (!__is_empty (typename std::remove_reference<Hook>::type))
    {
      for (; r < split; r++)
        double_round<Pinned> (x, &scratch, [&hook, r] (int q)
                              __attribute__ ((always_inline)) {
                                hook (r, q);
                              });
      for (; r < hooked; r++)
        double_round<Pinned> (x, &scratch, [&hook, r] (int q)
                              __attribute__ ((always_inline)) {
                                hook (r, q);
                              });
    }
  for (; r < 10; r++)
    double_round<Pinned> (x, &scratch, [] (int) {});
  x[15] = scratch.w15;
  /* STATE hidden from the optimiser: the broadcasts stay after the
   * rounds.  */
  const uint32_t *st = state;
  asm ("" : "+r" (st));
  __m256i w12, w13;
  counter (w12, w13);
#pragma GCC unroll 16
  for (int i = 0; i < 16; i++)
    if (i == 12)
      x[i] = _mm256_add_epi32 (x[i], w12);
    else if (i == 13)
      x[i] = _mm256_add_epi32 (x[i], w13);
    else
      x[i] = _mm256_add_epi32 (x[i], _mm256_set1_epi32 ((int) st[i]));
  transpose_xor (x, out, in, n);            /* Words 0..7 of each block.  */
  transpose_xor (x + 8, out + 32, in + 32, n);  /* Words 8..15.  */
  uint64_t ctr = ((uint64_t) state[13] << 32) | state[12];
  ctr += n;
  state[12] = (uint32_t) ctr;
  state[13] = (uint32_t) (ctr >> 32);
}

/* The row layout of chacha20-rows.h on ymm: two blocks per register,
 * rotations by 16 and 8 as byte shuffles, by 12 and 7 as shift pairs. */
struct ymm_rows : chacha20_rows::ymm_base
{
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
/* The burn depths: the frames with spilled ymm registers, measured
 * with GCC 12 on x86-64 (rows none: it keeps everything in registers
 * and reads the state again for the feed-forward; bulk 328 bytes, the
 * stitched function 408, its short form 248 with the red zone; return
 * addresses and alignment included)
 * with room to spare; i386, with eight vector registers, spills far
 * more (key words 783 bytes deep from two row chains); t-stream's
 * ChaCha20PathsLeaveNoKeystreamOnTheStack and t-hygiene check that no
 * keystream or key word is left below them.  A burn costs a store per
 * 16 bytes on every message: setiv's key block burns ROWS_DEPTH.  */
#ifdef __x86_64__
constexpr unsigned int ROWS_DEPTH = 128;
#else
constexpr unsigned int ROWS_DEPTH = 1024;
#endif

/* Eight blocks per pass; a tail of five to seven as one more pass that
 * stores only those (five to seven in rows cost 1.1 times that pass),
 * up to four in the row layout.  */
__attribute__ ((noinline)) void
bulk (uint32_t *state, unsigned char *out, const unsigned char *in,
      size_t nblocks)
{
  for (; nblocks >= 8; nblocks -= 8, in += 512, out += 512)
    blocks8 (state, out, in, [] (int, int) {});
  if (nblocks > 4)
    blocks8 (state, out, in, [] (int, int) {}, nblocks);
  else if (nblocks)
    rows (state, out, in, nblocks);
}
#ifdef __x86_64__
constexpr unsigned int BULK_DEPTH = 512;
#else
constexpr unsigned int BULK_DEPTH = 64 * 32 + 16 * sizeof (void *);
#endif
constexpr unsigned int STITCHED_DEPTH = 512;
constexpr unsigned int ROWS_STITCHED_DEPTH = 320;

} // namespace

unsigned int
_gcry_chacha20_avx2_blocks (uint32_t *state, unsigned char *out,
                            const unsigned char *in, size_t nblocks)
{
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

#ifdef __x86_64__
/* As _gcry_chacha20_avx512_keyblock16 with one eight-block pass: the
 * key block at STATE's counter into BLOCK, the eight after it into PAD
 * (512 bytes), the counter advanced by 9; the key block's scalar rounds
 * a pair of quarter rounds after each vector pair.  x86-64 only: i386
 * has seven general-purpose registers for its sixteen words.  */
unsigned int
_gcry_chacha20_avx2_keyblock8 (uint32_t *state, unsigned char *block,
                               unsigned char *pad)
{
  static const unsigned char zeros[8 * CHACHA20_BLOCKSIZE]
    __attribute__ ((aligned (32))) = { 0 };
  chacha20_scalar::side_block key (state);
  blocks8<false> (state, pad, zeros, [&key] (int, int q)
           __attribute__ ((always_inline)) {
             chacha20_scalar::quarter_pair (key.x, q);
           }, 8, 10);
  key.finish (state, block);   /* KEY: in the frame's spill slots.  */
  _mm256_zeroall ();
  return BULK_DEPTH + 16 * 4;
}
#endif

#ifdef POLY1305_RADIX44
/* ChaCha20-Poly1305 (RFC 8439 2.8) stitched: NBLOCKS (any count)
 * keystream blocks XORed from IN to OUT (IN == OUT allowed) and the
 * ciphertext absorbed into MAC as whole 16-byte blocks (MAC must hold no
 * partial block, STATE no unused keystream; the caller checks).
 *
 * Passes of eight blocks, the last one partly stored.  Each pass
 * carries the Poly1305 of up to 512 ciphertext bytes, 32 blocks in
 * radix 2^64 (poly1305.h's serial64), in its round loop: a block after
 * each pair of quarter rounds, four pairs in the first two double
 * rounds and three in the others (rolled loops, their bodies in the op
 * cache: unrolled, the pass was 3400 instructions and 7-20% slower on
 * AMD Zen 4; the first two rounds are a loop of their own, so neither
 * loop branches).  The vector rounds leave the integer multiplier idle,
 * and the Poly1305 chain (about 20 cycles a block) fits beside them.
 * Decryption authenticates the pass's own input (read before the pass
 * stores); encryption the previous pass's output (the first pass
 * PRE_BLOCKS blocks at PRE, a multiple of four up to 32: the ciphertext
 * of the keystream kept ahead), and the last pass's output after the
 * loop.  Same results as the ChaCha20 and
 * Poly1305 paths run one after the other.  */
unsigned int
_gcry_chacha20_poly1305_avx2 (uint32_t *state, poly1305_context *mac,
                              unsigned char *out, const unsigned char *in,
                              size_t nblocks, int encrypt,
                              const unsigned char *pre, size_t pre_blocks)
{
  using namespace poly1305_radix44;
  serial64 h (mac);
  /* The accumulator and key words as locals (serial64::step), named by
   * the hooks themselves: through a lambda of its own, or as the
   * object's members, GCC 12 kept them in memory and stored the
   * accumulator at every block.  */
  uint64_t a0 = h.a0, a1 = h.a1, a2 = h.a2;
  const uint64_t r0 = h.r0, r1 = h.r1, s1 = h.s1;
  /* The ciphertext not yet absorbed: PM, PCOUNT 16-byte blocks (the
   * previous pass's output when encrypting, PRE before the first).  */
  const unsigned char *pm = encrypt ? pre : nullptr;
  size_t pcount = encrypt ? pre_blocks : 0;
  while (nblocks)
    {
      const size_t n = nblocks < 8 ? nblocks : 8;
      if (!encrypt)
        {
          pm = in;
          pcount = 4 * n;
        }
      /* PCOUNT is 4 times a pass's block count.  A whole pass's 32
       * Poly1305 blocks go into all ten double rounds, four in each of
       * the first two and three in each of the others; fewer, four in
       * each of the first PCOUNT / 4.  */
      const unsigned char *m = pm;
      if (pcount == 32)
        blocks8 (
            state, out, in,
            [&a0, &a1, &a2, &m, r0, r1, s1] (int r, int q)
                __attribute__ ((always_inline)) {
              if (q < 3 || r < 2)
                {
                  serial64::step (a0, a1, a2, r0, r1, s1, m, 1);
                  m += 16;
                }
            },
            n, 10, 2);
      else
        blocks8 (
            state, out, in,
            [&a0, &a1, &a2, &m, r0, r1, s1] (int, int)
                __attribute__ ((always_inline)) {
              serial64::step (a0, a1, a2, r0, r1, s1, m, 1);
              m += 16;
            },
            n, (int) (pcount / 4));
      if (encrypt)
        {
          pm = out;
          pcount = 4 * n;
        }
      else
        pcount = 0;
      nblocks -= n;
      in += 64 * n;
      out += 64 * n;
    }
  for (size_t k = 0; k < pcount; k++)   /* Encryption's last pass.  */
    serial64::step (a0, a1, a2, r0, r1, s1, pm + 16 * k, 1);
  h.a0 = a0;
  h.a1 = a1;
  h.a2 = a2;
  h.store (mac);
  _mm256_zeroall ();
  return STITCHED_DEPTH;
}

/* The short-message form (chacha20-rows.h's poly1305_in_rows): one or
 * two chains of two blocks on ymm.  */
unsigned int
_gcry_chacha20_poly1305_avx2_rows (uint32_t *state, poly1305_context *mac,
                                   unsigned char *out,
                                   const unsigned char *in, size_t nblocks,
                                   const unsigned char *m, size_t mblocks)
{
  chacha20_rows::poly1305_in_rows<ymm_rows> (state, mac, out, in, nblocks,
                                             m, mblocks);
  _mm256_zeroall ();
  return ROWS_STITCHED_DEPTH;
}
#endif /* POLY1305_RADIX44 */
