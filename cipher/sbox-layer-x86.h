/* sbox-layer-x86.h - the S-box layer policies of the byte-oriented SIMD
 * kernels (camellia-gfni.h, sm4-gfni.h, aria-gfni.h): apply one affine-around-
 * inversion S-box (gf256-aesni.h's affine_inv_sbox) to every byte of a
 * vector register.
 *
 *   gfni_sbox_layer<Ops>   GF2P8AFFINEQB + GF2P8AFFINEINVQB (2 instructions;
 *                          operands from gf256-gfni.h)
 *   aesni_sbox_layer<Ops>  PSHUFB nibble tables (input affine map, moved
 *                          into the AES field), a PSHUFB with the
 *                          InvShiftRows index (FIPS-197 5.3.1), AESENCLAST
 *                          with a zero round key (= SubBytes (ShiftRows),
 *                          so the two shifts cancel and each byte stays
 *                          in place), PSHUFB nibble tables (undo the AES
 *                          affine map, apply the output one); tables from
 *                          gf256-aesni.h.  For CPUs without GFNI.
 *
 * Both also offer apply_moved<D, FWD>, the S-box with the bytes of each
 * 128-bit lane left permuted (AES-NI: by ShiftRows after AESENCLAST when
 * FWD, by InvShiftRows after AESDECLAST otherwise; GFNI: not at all) and
 * move<FWD>, the same permutation alone: a kernel whose data flow lets
 * the two permutations cancel (camellia-gfni.h: one Feistel half-round
 * forward, the next backward) saves the InvShiftRows PSHUFB.
 *
 * Both policies are checked against the reference S-box on all 256
 * inputs at compile time (affine_sbox_check, by the algorithm headers).
 * Every operation is data-independent: PSHUFB reads a table held in a
 * register, AESENCLAST is constant time; no memory index depends on the
 * data.
 *
 * Ops: simd-x86.h's vector traits (their byte operations; the AES-NI
 * policy also key, zero, enclast and declast): X1 (xmm, AES-NI), Y2
 * (ymm; VAES on the whole register), Z4 (zmm, GFNI only), or aesni_y2
 * below (ymm with AES-NI on each 128-bit half, for CPUs without VAES).
 * Intrinsics: included only by ISA files (camellia-, sm4- and aria-
 * gfni-*.cpp, aesni-*.cpp and vaes-avx2.cpp), each compiled with its
 * ISA's flags.
 */
#ifndef GCIPHER_SBOX_LAYER_X86_H
#define GCIPHER_SBOX_LAYER_X86_H

#include "simd-x86.h"
#include "gf256-aesni.h"

#define SBOX_LAYER_INLINE inline __attribute__ ((always_inline))

namespace gf256ct {

/* The operand sets of an S-box description D, as constants.  */
template <const affine_inv_sbox &D>
inline constexpr gfni_sbox gfni_operands = make_gfni_sbox (D);
template <const affine_inv_sbox &D>
alignas (16) inline constexpr aesni_sbox aesni_operands = make_aesni_sbox (D);

/* PSHUFB index of InvShiftRows (FIPS-197 5.3.1): byte 4c + r of the
 * result is byte 4((c - r) mod 4) + r of the source.  */
alignas (16) inline constexpr uint8_t aesni_inv_shift_rows[16] = {
  0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3
};
/* ShiftRows (FIPS-197 5.1.2): byte 4c + r from 4((c + r) mod 4) + r.  */
alignas (16) inline constexpr uint8_t aesni_shift_rows[16] = {
  0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11
};

} // namespace gf256ct

template <class Ops>
struct gfni_sbox_layer
{
  typedef typename Ops::T V;

  template <const gf256ct::affine_inv_sbox &D>
  static SBOX_LAYER_INLINE V
  apply (V x)
  {
    constexpr gf256ct::gfni_sbox s = gf256ct::gfni_operands<D>;
    const V a = Ops::template affine<s.cpre> (x, Ops::bcast64 (s.pre));
    return Ops::template affineinv<s.cpost> (a, Ops::bcast64 (s.post));
  }

  template <const gf256ct::affine_inv_sbox &D, bool FWD>
  static SBOX_LAYER_INLINE V
  apply_moved (V x)
  {
    return apply<D> (x);
  }

  template <bool FWD>
  static SBOX_LAYER_INLINE V
  move (V x)
  {
    return x;
  }
};

template <class Ops>
struct aesni_sbox_layer
{
  typedef typename Ops::T V;

  /* LO[x & 15] ^ HI[x >> 4] for every byte x of X (Ops::key: the 16
   * aligned bytes of a table in every lane).  */
  static SBOX_LAYER_INLINE V
  nibble_map (V x, const uint8_t *lo, const uint8_t *hi)
  {
    return Ops::shuffle8 (Ops::key (lo), Ops::nib_lo (x))
           ^ Ops::shuffle8 (Ops::key (hi), Ops::nib_hi (x));
  }

  template <const gf256ct::affine_inv_sbox &D>
  static SBOX_LAYER_INLINE V
  apply (V x)
  {
    constexpr const gf256ct::aesni_sbox &s = gf256ct::aesni_operands<D>;
    V y = nibble_map (x, s.pre_lo, s.pre_hi);
    y = Ops::shuffle8 (y, Ops::key (gf256ct::aesni_inv_shift_rows));
    y = Ops::enclast (y, Ops::zero ());
    return nibble_map (y, s.post_lo, s.post_hi);
  }

  /* FWD: move<true> (S (x)) with AESENCLAST; else move<false> (S (x))
   * with AESDECLAST.  */
  template <const gf256ct::affine_inv_sbox &D, bool FWD>
  static SBOX_LAYER_INLINE V
  apply_moved (V x)
  {
    constexpr const gf256ct::aesni_sbox &s = gf256ct::aesni_operands<D>;
    if constexpr (FWD)
      {
        const V y = Ops::enclast (nibble_map (x, s.pre_lo, s.pre_hi),
                                  Ops::zero ());
        return nibble_map (y, s.post_lo, s.post_hi);
      }
    else
      {
        const V y = Ops::declast (nibble_map (x, s.dpre_lo, s.dpre_hi),
                                  Ops::zero ());
        return nibble_map (y, s.dpost_lo, s.dpost_hi);
      }
  }

  /* ShiftRows (FWD) or InvShiftRows of each 128-bit lane.  */
  template <bool FWD>
  static SBOX_LAYER_INLINE V
  move (V x)
  {
    return Ops::shuffle8 (x, Ops::key (FWD ? gf256ct::aesni_shift_rows
                                       : gf256ct::aesni_inv_shift_rows));
  }
};

#ifdef __AVX2__
namespace {

/* simd_x86::Y2 with AES-NI on each 128-bit half instead of VAES: the
 * last-round forms, which aesni_sbox_layer uses (with a zero key).  */
struct aesni_y2 : simd_x86::Y2
{
  /* Half H of the round key K by element access, which folds the
   * S-box layer's zero key to a constant before register allocation
   * (the cast and extract intrinsics would not).  */
  static SBOX_LAYER_INLINE __m128i key_half (T k, int h)
  {
    const __v4di q = (__v4di) k;
    return (__m128i){ q[2 * h], q[2 * h + 1] };
  }
  static SBOX_LAYER_INLINE T enclast (T a, T k)
  {
    const __m128i lo = _mm_aesenclast_si128 (_mm256_castsi256_si128 (a),
                                             key_half (k, 0));
    const __m128i hi = _mm_aesenclast_si128 (_mm256_extracti128_si256 (a, 1),
                                             key_half (k, 1));
    return _mm256_inserti128_si256 (_mm256_castsi128_si256 (lo), hi, 1);
  }
  static SBOX_LAYER_INLINE T declast (T a, T k)
  {
    const __m128i lo = _mm_aesdeclast_si128 (_mm256_castsi256_si128 (a),
                                             key_half (k, 0));
    const __m128i hi = _mm_aesdeclast_si128 (_mm256_extracti128_si256 (a, 1),
                                             key_half (k, 1));
    return _mm256_inserti128_si256 (_mm256_castsi128_si256 (lo), hi, 1);
  }
};

} // namespace
#endif

#endif /* GCIPHER_SBOX_LAYER_X86_H */
