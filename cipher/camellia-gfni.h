/* camellia-gfni.h - the byte-sliced Camellia SIMD kernel, one template
 * over the register width (Ops: simd-x86.h's vector traits X1, Y2 or Z4,
 * or sbox-layer-x86.h's aesni_y2; 16, 32 or 64 blocks per batch) and the
 * S-box layer (SB: sbox-layer-x86.h's GFNI or AES-NI policy).  Included
 * only by the ISA files camellia-gfni-avx2.cpp, camellia-gfni-avx512.cpp
 * and camellia-aesni-*.cpp, which are compiled with those ISAs' flags and
 * chain the widths (cipher-batch-modes.h).
 *
 * Layout: byte-sliced.  A batch is Ops::BYTES blocks (one per byte of a
 * register) in 16 registers; after an in-lane 16x16 byte transpose (four
 * passes of byte unpacks, each a rotation of the 8-bit (register, byte)
 * index) register p holds byte p of every block.  Camellia's S-function
 * applies one fixed S-box per byte position (RFC 3713 2.4.1: t1 SBOX1, t2
 * SBOX2, ...), so each register needs exactly one S-box: with GFNI,
 * GF2P8AFFINEQB (input affine map, moved into the AES field) then
 * GF2P8AFFINEINVQB (inversion and output affine map); with AES-NI,
 * nibble-table PSHUFBs around AESENCLAST (sbox-layer-x86.h).  The
 * descriptions come from camellia-internal.h, which checks both operand
 * sets against the reference S-boxes on all 256 inputs at compile time.
 * The P-function is 16 register XORs (a network equal to RFC 3713 2.4.1's
 * equations, outputs in the order y5..y8, y1..y4); FL / FL^-1 (2.4.2,
 * 2.4.3) are byte-wise AND/OR/XOR with the 32-bit rotation by one bit
 * spread over four byte registers.  Subkey bytes are broadcast from a
 * qword with a byte shuffle.  All data-independent: constant time.
 *
 * The mode drivers are cipher-batch-modes.h's, around crypt_blocks.
 */
#ifndef GCIPHER_CAMELLIA_GFNI_H
#define GCIPHER_CAMELLIA_GFNI_H

#include <string.h>
#include "camellia-internal.h"
#include "sbox-layer-x86.h"
#include "cipher-batch-modes.h"

#define CAM_GFNI_INLINE inline __attribute__ ((always_inline))

template <class Ops, class SB>
struct camellia_simd
{
  typedef typename Ops::T V;
  static constexpr size_t N = Ops::BYTES;   /* Blocks per batch.  */

  /* The in-lane 16x16 byte transpose (simd-x86.h).  */
  static CAM_GFNI_INLINE void
  transpose (V (&x)[16])
  {
    simd_x86::byte_transpose16<Ops> (x);
  }

  /* Byte P (0 = most significant, RFC byte order) of the subkey whose
   * qword is broadcast in KV, in every byte.  */
  static CAM_GFNI_INLINE V
  kbyte (V kv, int p)
  {
    return Ops::shuffle8 (kv, Ops::set1_8 ((char) (7 - p)));
  }

  template <int S, bool FWD>
  static CAM_GFNI_INLINE V
  sbox (V x)
  {
    using namespace camellia_detail;
    constexpr const affine_inv_sbox &d = S == 1 ? cam_sbox1
                                         : S == 2 ? cam_sbox2
                                         : S == 3 ? cam_sbox3 : cam_sbox4;
    return SB::template apply_moved<d, FWD> (x);
  }

  /* R ^= F (L, K) (RFC 3713 2.4.1) on byte-sliced halves; the S-box
   * layer leaves F's bytes moved by SB::move<FWD> (see crypt_blocks).  */
  template <bool FWD>
  static CAM_GFNI_INLINE void
  feistel (const V *l, V *r, uint64_t k)
  {
    const V kv = Ops::bcast64 (k);
    V z[8];
#pragma GCC unroll 16
    for (int p = 0; p < 8; p++)
      z[p] = l[p] ^ kbyte (kv, p);
    z[0] = sbox<1, FWD> (z[0]);
    z[1] = sbox<2, FWD> (z[1]);
    z[2] = sbox<3, FWD> (z[2]);
    z[3] = sbox<4, FWD> (z[3]);
    z[4] = sbox<2, FWD> (z[4]);
    z[5] = sbox<3, FWD> (z[5]);
    z[6] = sbox<4, FWD> (z[6]);
    z[7] = sbox<1, FWD> (z[7]);
    /* P: z1..z4 end as y5..y8, z5..z8 as y1..y4.  */
    z[0] ^= z[5]; z[1] ^= z[6]; z[2] ^= z[7]; z[3] ^= z[4];
    z[4] ^= z[2]; z[5] ^= z[3]; z[6] ^= z[0]; z[7] ^= z[1];
    z[0] ^= z[7]; z[1] ^= z[4]; z[2] ^= z[5]; z[3] ^= z[6];
    z[4] ^= z[3]; z[5] ^= z[0]; z[6] ^= z[1]; z[7] ^= z[2];
#pragma GCC unroll 16
    for (int p = 0; p < 4; p++)
      {
        r[p] ^= z[p + 4];
        r[p + 4] ^= z[p];
      }
  }

  /* (A <<< 1) of the 32-bit word in the byte registers A[0..3] (A[0] the
   * most significant), byte I.  */
  static CAM_GFNI_INLINE V
  rol1 (const V *a, int i)
  {
    return Ops::shl1 (a[i]) | Ops::shr7 (a[(i + 1) & 3]);
  }

  /* FL (RFC 3713 2.4.2) on X[0..7].  */
  static CAM_GFNI_INLINE void
  fl (V *x, uint64_t k)
  {
    const V kv = Ops::bcast64 (k);
    V a[4];
#pragma GCC unroll 16
    for (int i = 0; i < 4; i++)
      a[i] = x[i] & kbyte (kv, i);
#pragma GCC unroll 16
    for (int i = 0; i < 4; i++)
      x[4 + i] ^= rol1 (a, i);
#pragma GCC unroll 16
    for (int i = 0; i < 4; i++)
      x[i] ^= x[4 + i] | kbyte (kv, 4 + i);
  }

  /* FL^-1 (RFC 3713 2.4.3) on Y[0..7].  */
  static CAM_GFNI_INLINE void
  flinv (V *y, uint64_t k)
  {
    const V kv = Ops::bcast64 (k);
#pragma GCC unroll 16
    for (int i = 0; i < 4; i++)
      y[i] ^= y[4 + i] | kbyte (kv, 4 + i);
    V a[4];
#pragma GCC unroll 16
    for (int i = 0; i < 4; i++)
      a[i] = y[i] & kbyte (kv, i);
#pragma GCC unroll 16
    for (int i = 0; i < 4; i++)
      y[4 + i] ^= rol1 (a, i);
  }

  static CAM_GFNI_INLINE void
  whiten (V *x, uint64_t k)
  {
    const V kv = Ops::bcast64 (k);
#pragma GCC unroll 16
    for (int p = 0; p < 8; p++)
      x[p] ^= kbyte (kv, p);
  }

  /* N blocks from IN to OUT (may be equal), encryption (RFC 3713 2.3.1,
   * 2.3.2) or decryption (2.3.3: subkeys reversed), same schedule
   * indices as camellia.cpp's cam_crypt.
   *
   * Block order: byte-sliced, a register's byte positions are blocks.
   * The AES-NI S-box layer permutes them (SB::apply_moved: ShiftRows
   * forward, InvShiftRows backward, within each 128-bit lane; nothing
   * with GFNI), so d2 is kept with its blocks in the forward order
   * (SB::move<true>) from the start: the d1 -> d2 half-rounds (forward)
   * then XOR F into d2 in its own order, the d2 -> d1 half-rounds
   * (backward) bring F back to d1's order, and FL / FL^-1 / whitening
   * act on each half alone with broadcast keys, so they do not care.
   * The half-rounds come in pairs; d2 returns to the block order at
   * the end.  This saves the InvShiftRows PSHUFB of every S-box.  */
  template <bool DECRYPT>
  static __attribute__ ((noinline)) void
  crypt_blocks (const void *c, unsigned char *out, const unsigned char *in)
  {
    const CAMELLIA_context *ctx = (const CAMELLIA_context *) c;
    const unsigned int nr = ctx->rounds;
    const unsigned int nfl = nr / 6 - 1;
    V x[16];
#pragma GCC unroll 16
    for (int j = 0; j < 16; j++)
      x[j] = Ops::load (in + Ops::BYTES * j);
    transpose (x);
    V *d1 = x, *d2 = x + 8;
#pragma GCC unroll 16
    for (int p = 0; p < 8; p++)
      d2[p] = SB::template move<true> (d2[p]);
    whiten (d1, ctx->kw[DECRYPT ? 2 : 0]);
    whiten (d2, ctx->kw[DECRYPT ? 3 : 1]);
    for (unsigned int r = 0; r < nr; r += 2)
      {
        if (r && r % 6 == 0)
          {
            const unsigned int l = r / 6 - 1;
            if (DECRYPT)
              {
                fl (d1, ctx->ke[2 * (nfl - 1 - l) + 1]);
                flinv (d2, ctx->ke[2 * (nfl - 1 - l)]);
              }
            else
              {
                fl (d1, ctx->ke[2 * l]);
                flinv (d2, ctx->ke[2 * l + 1]);
              }
          }
        feistel<true> (d1, d2, ctx->k[DECRYPT ? nr - 1 - r : r]);
        feistel<false> (d2, d1, ctx->k[DECRYPT ? nr - 2 - r : r + 1]);
      }
    whiten (d2, ctx->kw[DECRYPT ? 0 : 2]);
    whiten (d1, ctx->kw[DECRYPT ? 1 : 3]);
    /* Output d2 || d1.  */
    V y[16];
#pragma GCC unroll 16
    for (int p = 0; p < 8; p++)
      {
        y[p] = SB::template move<false> (d2[p]);
        y[p + 8] = d1[p];
      }
    transpose (y);
#pragma GCC unroll 16
    for (int j = 0; j < 16; j++)
      Ops::store (out + Ops::BYTES * j, y[j]);
  }

  /* Frame of crypt_blocks: the 32 state and transpose values, spilled
   * where registers run out, and temporaries.  i386 (eight vector
   * registers) goes up to 152 bytes further with GCC 12's ymm batch
   * slots (an audit of the frames: 2,824-3,480 bytes deep).  */
  static constexpr unsigned int BURN
      = 48 * Ops::BYTES + (sizeof (void *) == 4 ? 768 : 512);
};

/* The GFNI kernel.  */
template <class Ops>
using camellia_gfni = camellia_simd<Ops, gfni_sbox_layer<Ops> >;

/* camellia-aesni-avx.cpp's xmm AES-NI kernel, for the AVX2 files to
 * call instead of compiling copies of their own (with AVX2 those would
 * be 9% more instructions, VPBROADCASTB for the subkey bytes' shuffle
 * masks, and no faster; camellia-internal.h, cipher-batch-modes.h's
 * batch_called).  */
typedef batch_called<camellia_simd<simd_x86::X1,
                                   aesni_sbox_layer<simd_x86::X1> >,
                     _gcry_camellia_aesni_avx_blk16_enc,
                     _gcry_camellia_aesni_avx_blk16_dec>
  camellia_aesni_avx_blk16;

#endif /* GCIPHER_CAMELLIA_GFNI_H */
