/* chacha20-rows.h - ChaCha20 (RFC 8439 2.3) for a few blocks at a time in
 * the "row" layout: the short-message and tail kernel of the x86 vector
 * paths.
 *
 * The wide kernels (chacha20-avx2.cpp, chacha20-avx512.cpp) hold one
 * state word of 8 or 16 blocks per register and pay off only for 8 or
 * 16 blocks.  Here a 128-bit lane holds one row of the 4x4 state (row r:
 * words 4r..4r+3) of one block, so four registers a, b, c, d hold whole
 * blocks, one per 128-bit lane: one block in an xmm register, two in a
 * ymm, four in a zmm.  A column round is the quarter round on the four
 * registers; the diagonal round is the same after rotating rows a, c, d
 * by -1, 1, 2 words inside every lane (pshufd), rotated back after it
 * (RFC 8439 2.1, 2.3).  Lanes differ only in the 64-bit block counter
 * (chacha20-internal.h), the low 64 bits of row d: lane k adds k with a
 * 64-bit add, carry included.
 *
 * Latency bound: one chain costs about as much as the scalar block, so
 * a call runs CHAINS (one or two) independent chains interleaved,
 * 2 x W blocks in the time of one.
 *
 * Included by an ISA file compiled with its flags, in an unnamed
 * namespace.  V is simd-x86.h's Y2 or Z4 (T, W blocks per register,
 * bcast_mem for a row in every lane, add32, add64, xor_, shuffle32)
 * with:
 *   lanes64 (k): 64-bit K + j in the low half of lane j, 0 in the high;
 *   rol<N>: each 32-bit word rotated left by N;
 *   store (out, in, a, b, c, d, n): XOR the first N blocks (lane j =
 *   block j) into IN, written to OUT.
 * Constant time: the same instructions whatever the key and data; the
 * block count N is public.
 */
#ifndef GCIPHER_CHACHA20_ROWS_H
#define GCIPHER_CHACHA20_ROWS_H

#include <stddef.h>
#include <stdint.h>
#ifdef __AVX2__
# include "simd-x86.h"
#endif
#include "poly1305.h"

namespace {
namespace chacha20_rows {

template <class V>
inline __attribute__ ((always_inline)) void
quarter_rows (typename V::T &a, typename V::T &b, typename V::T &c,
              typename V::T &d)
{
  a = V::add32 (a, b); d = V::template rol<16> (V::xor_ (d, a));
  c = V::add32 (c, d); b = V::template rol<12> (V::xor_ (b, c));
  a = V::add32 (a, b); d = V::template rol<8> (V::xor_ (d, a));
  c = V::add32 (c, d); b = V::template rol<7> (V::xor_ (b, c));
}

struct no_hook
{
  void operator() (int) const {}
};

/* NBLOCKS (1 .. CHAINS x V::W) keystream blocks of STATE XORed
 * from IN to OUT (IN == OUT allowed); the counter in words 12..13
 * advances by NBLOCKS.  HOOK (R) runs after double round R (0..9),
 * before any store to OUT: the stitched ChaCha20-Poly1305 of a short
 * message puts its scalar Poly1305 blocks there.  */
template <class V, int CHAINS, class Hook = no_hook>
inline __attribute__ ((always_inline)) void
blocks (uint32_t *state, unsigned char *out, const unsigned char *in,
        size_t nblocks, Hook &&hook = Hook ())
{
  typedef typename V::T vec;
  const uint64_t total = nblocks;
  vec a[CHAINS], b[CHAINS], c[CHAINS], d[CHAINS];
  {
    const vec s3 = V::bcast_mem (state + 12);
    _Pragma ("GCC unroll 4")
    for (int k = 0; k < CHAINS; k++)
      {
        a[k] = V::bcast_mem (state);
        b[k] = V::bcast_mem (state + 4);
        c[k] = V::bcast_mem (state + 8);
        d[k] = V::add64 (s3, V::lanes64 (k * V::W));
      }
  }
  for (int r = 0; r < 10; r++)
    {
      _Pragma ("GCC unroll 4")
      for (int k = 0; k < CHAINS; k++)
        quarter_rows<V> (a[k], b[k], c[k], d[k]);
      /* The diagonals as columns: lane j gets a_(j-1), b_j, c_(j+1),
       * d_(j+2) (lane 1: words 0, 5, 10, 15).  Row b, the last one a
       * quarter round computes and the first the next one reads (a +=
       * b), stays in place, so no shuffle is on the rounds' dependency
       * chain.  */
      _Pragma ("GCC unroll 4")
      for (int k = 0; k < CHAINS; k++)
        {
          a[k] = V::template shuffle32<0x93> (a[k]);   /* Right by 1.  */
          c[k] = V::template shuffle32<0x39> (c[k]);   /* Left by 1.  */
          d[k] = V::template shuffle32<0x4e> (d[k]);   /* By 2.  */
        }
      _Pragma ("GCC unroll 4")
      for (int k = 0; k < CHAINS; k++)
        quarter_rows<V> (a[k], b[k], c[k], d[k]);
      _Pragma ("GCC unroll 4")
      for (int k = 0; k < CHAINS; k++)
        {
          a[k] = V::template shuffle32<0x39> (a[k]);
          c[k] = V::template shuffle32<0x93> (c[k]);
          d[k] = V::template shuffle32<0x4e> (d[k]);
        }
#ifdef __x86_64__
      /* Every chain's rows in registers from one double round to the
       * next: without this GCC 12 carries two of the four ymm rows of
       * two chains through a stack slot, a store and a reload on the
       * loop-carried chain (AMD Zen 4: 4 blocks 140 -> ? ns).  */
      _Pragma ("GCC unroll 4")
      for (int k = 0; k < CHAINS; k++)
        asm ("" : "+v" (a[k]), "+v" (b[k]), "+v" (c[k]), "+v" (d[k]));
#endif
      hook (r);
    }
  /* The feed-forward reads STATE again (the pointer hidden from the
   * optimiser): the input rows kept across the rounds would not fit the
   * sixteen ymm registers beside two chains, and spilled they would
   * leave key words in the frame.  */
  const uint32_t *st = state;
  asm ("" : "+r" (st));
  const vec s0 = V::bcast_mem (st), s1 = V::bcast_mem (st + 4);
  const vec s2 = V::bcast_mem (st + 8), s3 = V::bcast_mem (st + 12);
  /* Unrolled, so a[k]..d[k] stay registers (a loop over K would keep
   * them in a stack array: keystream in the frame).  */
  _Pragma ("GCC unroll 4")
  for (int k = 0; k < CHAINS; k++)
    {
      if (!nblocks)
        break;
      size_t n = nblocks < (size_t) V::W ? nblocks : V::W;
      V::store (out, in, V::add32 (a[k], s0), V::add32 (b[k], s1),
                V::add32 (c[k], s2),
                V::add32 (d[k], V::add64 (s3, V::lanes64 (k * V::W))), n);
      out += 64 * n;
      in += 64 * n;
      nblocks -= n;
    }
  uint64_t ctr = ((uint64_t) state[13] << 32) | state[12];
  ctr += total;
  state[12] = (uint32_t) ctr;
  state[13] = (uint32_t) (ctr >> 32);
}

#ifdef POLY1305_RADIX44
/* ChaCha20-Poly1305's short-message form (RFC 8439 2.8): NBLOCKS
 * (1 .. 2 x V::W) keystream blocks XORed from IN to OUT (IN == OUT
 * allowed), and MBLOCKS (at most 40) whole 16-byte blocks at M absorbed
 * into MAC (no partial block pending) in the rounds' loop, at most
 * ceil (MBLOCKS / 10) after each double round, before the kernel
 * stores to OUT.  The row kernel's chains are latency bound and leave
 * the integer units idle, so a short decryption reads its ciphertext
 * into the scalar Poly1305 (poly1305.h's serial64) while its last
 * blocks' keystream is made.  Where M and OUT overlap, M is read
 * first.  */
template <class V>
inline __attribute__ ((always_inline)) void
poly1305_in_rows (uint32_t *state, poly1305_context *mac, unsigned char *out,
                  const unsigned char *in, size_t nblocks,
                  const unsigned char *m, size_t mblocks)
{
  using namespace poly1305_radix44;
  serial64 h (mac);
  const size_t per = (mblocks + 9) / 10;
  size_t done = 0;
  auto hook = [&h, &done, m, mblocks, per] (int)
    __attribute__ ((always_inline)) {
      const size_t end = mblocks - done < per ? mblocks : done + per;
      for (; done < end; done++)
        h.block (m + 16 * done, 1);
    };
  if (nblocks <= (size_t) V::W)
    blocks<V, 1> (state, out, in, nblocks, hook);
  else
    blocks<V, 2> (state, out, in, nblocks, hook);
  h.store (mac);
}
#endif

#ifdef __AVX2__
/* The row layout on ymm, two blocks per register (lane j = block j),
 * but for the rotations: each AVX2-level file adds its own rol<N>
 * (byte shuffles and shift pairs with AVX2, vprold with AVX-512VL).  */
struct ymm_base : simd_x86::Y2
{
  typedef T vec;
  static vec lanes64 (int k)
  {
    return _mm256_setr_epi64x (k, 0, k + 1, 0);
  }
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
#endif /* __AVX2__ */

} // namespace chacha20_rows
} // namespace

#endif /* GCIPHER_CHACHA20_ROWS_H */
