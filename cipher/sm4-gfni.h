/* sm4-gfni.h - the word-sliced SM4 SIMD kernel, one template over the
 * register width (Ops: simd-x86.h's vector traits X1, Y2 or Z4, or
 * sbox-layer-x86.h's aesni_y2), the number SETS of independent register
 * groups and the S-box layer (SB: sbox-layer-x86.h's GFNI or AES-NI
 * policy).  Included only by the ISA files sm4-gfni-avx2.cpp,
 * sm4-gfni-avx512.cpp and sm4-aesni-*.cpp, which are compiled with those
 * ISAs' flags and chain the widths (cipher-batch-modes.h).
 *
 * Layout: word-sliced.  Four registers hold Ops::W blocks each; after the
 * big-endian word loads (GB/T 32907-2016 5: the block is four 32-bit
 * words, most significant byte first) and an in-lane 4x4 transpose of
 * 32-bit words, register j holds word X_j of those blocks.  SETS such
 * groups run side by side to hide the latency of the round chain.
 * Round i (7.1): X_(i+4) = X_i ^ T(X_(i+1) ^ X_(i+2) ^ X_(i+3) ^ rk_i),
 * T = L(tau(.)) (6.2): tau is the S-box on every byte, GF2P8AFFINEQB
 * then GF2P8AFFINEINVQB, or nibble-table PSHUFBs around AESENCLAST
 * (sbox-layer-x86.h), with the operands derived from sm4-internal.h's
 * description and checked on all 256 inputs at compile time; L(B) = B ^ (B <<< 2) ^
 * (B <<< 10) ^ (B <<< 18) ^ (B <<< 24) is computed as
 * B ^ (B <<< 24) ^ ((B ^ (B <<< 8) ^ (B <<< 16)) <<< 2).  Constant
 * time: no table, no data-dependent branch or index.
 *
 * The mode drivers are cipher-batch-modes.h's, around crypt_blocks.
 */
#ifndef GCIPHER_SM4_GFNI_H
#define GCIPHER_SM4_GFNI_H

#include <string.h>
#include "sm4-internal.h"
#include "sbox-layer-x86.h"
#include "cipher-batch-modes.h"

#define SM4_GFNI_INLINE inline __attribute__ ((always_inline))

template <class Ops, int SETS_, class SB>
struct sm4_simd
{
  typedef typename Ops::T V;
  static constexpr int SETS = SETS_;
  static constexpr size_t N = SETS * 4 * Ops::W;  /* Blocks.  */
  /* Frame of crypt_blocks: the state (spilled where registers run
   * out) and temporaries.  */
  static constexpr unsigned int BURN = 24 * SETS * Ops::BYTES + 512;

  /* In-lane 4x4 transpose of 32-bit words (simd-x86.h).  */
  static SM4_GFNI_INLINE void
  transpose (V &a, V &b, V &c, V &d)
  {
    simd_x86::word_transpose4<Ops> (a, b, c, d);
  }

  static SM4_GFNI_INLINE V
  bswap32 (V a)
  {
    return Ops::perm32 (a, simd_x86::perm32_idx (3, 2, 1, 0));
  }

  template <int R>
  static SM4_GFNI_INLINE V
  rol (V a)
  {
    if constexpr (R == 8)
      return Ops::perm32 (a, simd_x86::perm32_idx (3, 0, 1, 2));
    else if constexpr (R == 16)
      return Ops::perm32 (a, simd_x86::perm32_idx (2, 3, 0, 1));
    else if constexpr (R == 24)
      return Ops::perm32 (a, simd_x86::perm32_idx (1, 2, 3, 0));
    else
      return Ops::template shlr32<R> (a);
  }

  /* T (GB/T 32907-2016 6.2).  */
  static SM4_GFNI_INLINE V
  T (V x)
  {
    const V b = SB::template apply<sm4_detail::sm4_sbox> (x);
    const V u = b ^ rol<8> (b) ^ rol<16> (b);
    return b ^ rol<24> (b) ^ rol<2> (u);
  }

  /* N blocks from IN to OUT (may be equal); decryption is encryption
   * with the round keys reversed (7.2).  */
  template <bool DECRYPT>
  static __attribute__ ((noinline)) void
  crypt_blocks (const void *c, unsigned char *out, const unsigned char *in)
  {
    const SM4_context *ctx = (const SM4_context *) c;
    const uint32_t *rk = DECRYPT ? ctx->rkey_dec : ctx->rkey_enc;
    V x[SETS][4];
#pragma GCC unroll 16
    for (int s = 0; s < SETS; s++)
      {
#pragma GCC unroll 16
        for (int j = 0; j < 4; j++)
          x[s][j] = bswap32 (Ops::load (in + Ops::BYTES * (4 * s + j)));
        transpose (x[s][0], x[s][1], x[s][2], x[s][3]);
      }
    for (int i = 0; i < 32; i += 4)
      {
#pragma GCC unroll 4
        for (int r = 0; r < 4; r++)
          {
            const V k = Ops::set1_32 (rk[i + r]);
#pragma GCC unroll 16
            for (int s = 0; s < SETS; s++)
              x[s][r] ^= T (x[s][(r + 1) & 3] ^ x[s][(r + 2) & 3]
                            ^ x[s][(r + 3) & 3] ^ k);
          }
      }
    /* R (7.1): the last four words in reverse order.  */
#pragma GCC unroll 16
    for (int s = 0; s < SETS; s++)
      {
        V y0 = x[s][3], y1 = x[s][2], y2 = x[s][1], y3 = x[s][0];
        transpose (y0, y1, y2, y3);
        Ops::store (out + Ops::BYTES * (4 * s), bswap32 (y0));
        Ops::store (out + Ops::BYTES * (4 * s + 1), bswap32 (y1));
        Ops::store (out + Ops::BYTES * (4 * s + 2), bswap32 (y2));
        Ops::store (out + Ops::BYTES * (4 * s + 3), bswap32 (y3));
      }
  }
};

/* The GFNI kernel.  */
template <class Ops, int SETS>
using sm4_gfni = sm4_simd<Ops, SETS, gfni_sbox_layer<Ops> >;

/* sm4-aesni-avx.cpp's xmm AES-NI kernels of 8 and 4 blocks, for the
 * AVX2 files to call instead of compiling copies of their own (the same
 * instructions; sm4-internal.h, cipher-batch-modes.h's batch_called).  */
typedef batch_called<sm4_simd<simd_x86::X1, 2, aesni_sbox_layer<simd_x86::X1> >,
                     _gcry_sm4_aesni_avx_blk8_enc,
                     _gcry_sm4_aesni_avx_blk8_dec> sm4_aesni_avx_blk8;
typedef batch_called<sm4_simd<simd_x86::X1, 1, aesni_sbox_layer<simd_x86::X1> >,
                     _gcry_sm4_aesni_avx_blk4_enc,
                     _gcry_sm4_aesni_avx_blk4_dec> sm4_aesni_avx_blk4;

#endif /* GCIPHER_SM4_GFNI_H */
