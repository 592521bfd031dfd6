/* aria-gfni.h - the ARIA SIMD kernel, one template over the register
 * width (Ops: simd-x86.h's vector traits X1, Y2 or Z4, or
 * sbox-layer-x86.h's aesni_y2; 16, 32 or 64 blocks per batch) and the
 * S-box layer (SB: sbox-layer-x86.h's GFNI or AES-NI policy).  Included
 * only by the ISA files aria-gfni-avx2.cpp, aria-gfni-avx512.cpp,
 * aria-aesni-avx2.cpp and aria-vaes-avx2.cpp, which are compiled with
 * those ISAs' flags and chain the widths (cipher-batch-modes.h).
 *
 * Layout: byte-sliced, as camellia-gfni.h.  A batch is Ops::BYTES blocks
 * (one per byte of a register) in 16 registers; after an in-lane 16x16
 * byte transpose (four passes of byte unpacks, each a rotation of the
 * 8-bit (register, byte) index, an involution) register p holds byte p of
 * every block.  ARIA's substitution layers apply one fixed S-box per byte
 * position (RFC 5794 2.4.2: SL1 = SB1, SB2, SB3, SB4 repeated, SL2 = SB3,
 * SB4, SB1, SB2), so each register needs exactly one S-box.  GFNI:
 * GF2P8AFFINEINVQB alone for SB1 and SB2 (affine map of the inverse),
 * GF2P8AFFINEQB then GF2P8AFFINEINVQB for SB3 and SB4 (the inverse of an
 * affine map).  AES-NI: nibble-table affine maps around AESENCLAST
 * (sbox-layer-x86.h).  aria-internal.h derives the operands and checks
 * them against the reference S-boxes on all 256 inputs at compile time.
 * The diffusion layer A (2.4.3) is aria-internal.h's network of 48
 * register XORs, the round-key bytes are broadcast from the context.
 *
 * crypt_one keeps one block in one xmm register (the chained modes and
 * single-block calls, cipher-batch-modes.h): the four S-boxes on the
 * whole register and byte masks, A as the XOR of seven byte shuffles.
 *
 * All data-independent: constant time.  The mode drivers are
 * cipher-batch-modes.h's, around crypt_blocks and crypt_one.
 */
#ifndef GCIPHER_ARIA_GFNI_H
#define GCIPHER_ARIA_GFNI_H

#include <string.h>
#include <type_traits>
#include "aria-internal.h"
#include "sbox-layer-x86.h"
#include "cipher-batch-modes.h"

#define ARIA_SIMD_INLINE inline __attribute__ ((always_inline))

template <class Ops, class SB>
struct aria_simd
{
  typedef typename Ops::T V;
  static constexpr size_t N = Ops::BYTES;   /* Blocks per batch.  */

  /* The in-lane 16x16 byte transpose (simd-x86.h).  */
  static ARIA_SIMD_INLINE void
  transpose (V (&x)[16])
  {
    simd_x86::byte_transpose16<Ops> (x);
  }

  /* SB1..SB4 (S = 1..4) on every byte of X.  */
  template <int S>
  static ARIA_SIMD_INLINE V
  sbox (V x)
  {
    using namespace aria_detail;
    if constexpr (std::is_same_v<SB, gfni_sbox_layer<Ops> >)
      {
        /* SB1, SB2: no input map, GF2P8AFFINEINVQB alone.  */
        constexpr gfni_sbox s = aria_gfni_sb[S];
        if constexpr (s.pre != GFNI_IDENTITY || s.cpre != 0)
          x = Ops::template affine<s.cpre> (x, Ops::bcast64 (s.pre));
        return Ops::template affineinv<s.cpost> (x, Ops::bcast64 (s.post));
      }
    else
      return SB::template apply<S == 1 ? aria_sbd1 : S == 2 ? aria_sbd2
                                : S == 3 ? aria_sbd3 : aria_sbd4> (x);
  }

  /* SL (1 or 2) on the 16 byte registers.  */
  template <int SL>
  static ARIA_SIMD_INLINE void
  subst (V (&x)[16])
  {
#pragma GCC unroll 16
    for (int p = 0; p < 16; p += 4)
      {
        x[p] = sbox<aria_detail::aria_sl_sbox (SL, 0)> (x[p]);
        x[p + 1] = sbox<aria_detail::aria_sl_sbox (SL, 1)> (x[p + 1]);
        x[p + 2] = sbox<aria_detail::aria_sl_sbox (SL, 2)> (x[p + 2]);
        x[p + 3] = sbox<aria_detail::aria_sl_sbox (SL, 3)> (x[p + 3]);
      }
  }

  static ARIA_SIMD_INLINE void
  xor_key (V (&x)[16], const aria_detail::aria_key &k)
  {
    const unsigned char *kb = (const unsigned char *) k.w;
#pragma GCC unroll 16
    for (int p = 0; p < 16; p++)
      x[p] ^= Ops::set1_8 ((char) kb[p]);
  }

  /* N blocks from IN to OUT (may be equal): encryption (RFC 5794 2.3)
   * with the encryption keys, decryption (2.4) the same with the
   * decryption keys, as aria.cpp's aria_crypt.  */
  template <bool DECRYPT>
  static __attribute__ ((noinline)) void
  crypt_blocks (const void *c, unsigned char *out, const unsigned char *in)
  {
    const ARIA_context *ctx = (const ARIA_context *) c;
    const aria_detail::aria_key *rk = DECRYPT ? ctx->dk : ctx->ek;
    const unsigned int n = ctx->rounds;
    V x[16];
#pragma GCC unroll 16
    for (int j = 0; j < 16; j++)
      x[j] = Ops::load (in + Ops::BYTES * j);
    transpose (x);
    for (unsigned int r = 0; r + 2 < n; r += 2)
      {
        xor_key (x, rk[r]);
        subst<1> (x);
        aria_detail::aria_diffuse (x);
        xor_key (x, rk[r + 1]);
        subst<2> (x);
        aria_detail::aria_diffuse (x);
      }
    xor_key (x, rk[n - 2]);
    subst<1> (x);
    aria_detail::aria_diffuse (x);
    xor_key (x, rk[n - 1]);
    subst<2> (x);
    xor_key (x, rk[n]);
    transpose (x);
#pragma GCC unroll 16
    for (int j = 0; j < 16; j++)
      Ops::store (out + Ops::BYTES * j, x[j]);
  }

  /* One block in one xmm register (Ops must be a 16-byte width; only
   * the narrowest kernel of a chain is asked), bytes in block order:
   * each substitution layer computes the four S-boxes on the whole
   * register and keeps each byte's own with masks; A is the XOR of
   * seven byte shuffles (aria-internal.h's aria_A_shuffles).  IN == OUT
   * allowed.  */
  template <bool DECRYPT>
  static __attribute__ ((noinline)) void
  crypt_one (const void *c, unsigned char *out, const unsigned char *in)
  {
    static_assert (Ops::W == 1, "crypt_one: xmm operations");
    static constexpr aria_detail::aria_A_shuffles shuf
      = aria_detail::aria_make_A_shuffles ();
    const ARIA_context *ctx = (const ARIA_context *) c;
    const aria_detail::aria_key *rk = DECRYPT ? ctx->dk : ctx->ek;
    const unsigned int n = ctx->rounds;
    V idx[7], m[4];
#pragma GCC unroll 7
    for (int k = 0; k < 7; k++)
      idx[k] = Ops::load (shuf.idx[k]);
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++)
      m[j] = Ops::set1_32 (0xffu << (8 * j));
    auto key = [&] (unsigned int r) {
      return Ops::load ((const unsigned char *) rk[r].w);
    };
    auto sl = [&] (V x, bool second) {
      const V s1 = sbox<1> (x), s2 = sbox<2> (x);
      const V s3 = sbox<3> (x), s4 = sbox<4> (x);
      return second ? (s3 & m[0]) | (s4 & m[1]) | (s1 & m[2]) | (s2 & m[3])
                    : (s1 & m[0]) | (s2 & m[1]) | (s3 & m[2]) | (s4 & m[3]);
    };
    auto diffuse = [&] (V x) {
      const V a = Ops::shuffle8 (x, idx[0]) ^ Ops::shuffle8 (x, idx[1]);
      const V b = Ops::shuffle8 (x, idx[2]) ^ Ops::shuffle8 (x, idx[3]);
      const V d = Ops::shuffle8 (x, idx[4]) ^ Ops::shuffle8 (x, idx[5]);
      return (a ^ b) ^ (d ^ Ops::shuffle8 (x, idx[6]));
    };
    V x = Ops::load (in);
    for (unsigned int r = 0; r + 2 < n; r += 2)
      {
        x = diffuse (sl (x ^ key (r), false));
        x = diffuse (sl (x ^ key (r + 1), true));
      }
    x = diffuse (sl (x ^ key (n - 2), false));
    x = sl (x ^ key (n - 1), true) ^ key (n);
    Ops::store (out, x);
  }

  /* Frame of crypt_blocks: the state and network temporaries, spilled
   * where registers run out (crypt_one needs less).  */
  static constexpr unsigned int BURN = 80 * Ops::BYTES + 512;
};

template <class Ops>
using aria_gfni = aria_simd<Ops, gfni_sbox_layer<Ops> >;

/* aria-aesni-avx2.cpp's xmm AES-NI kernel (16 blocks and crypt_one),
 * for aria-vaes-avx2.cpp to call instead of compiling a copy of its own
 * (the same instructions; aria-internal.h, cipher-batch-modes.h's
 * batch_called_one).  */
typedef batch_called_one<aria_simd<simd_x86::X1,
                                   aesni_sbox_layer<simd_x86::X1> >,
                         _gcry_aria_aesni_avx2_blk16_enc,
                         _gcry_aria_aesni_avx2_blk16_dec,
                         _gcry_aria_aesni_avx2_blk1_enc,
                         _gcry_aria_aesni_avx2_blk1_dec> aria_aesni_avx2_blk16;

#endif /* GCIPHER_ARIA_GFNI_H */
