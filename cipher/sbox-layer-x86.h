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
 * The AES-NI policy needs, beyond gfni-vec-x86.h's operations, those
 * of the aesni_vec* structs below (defined when the file is compiled
 * with -maes; aesni_vec256 with AES-NI on each 128-bit half, vaes_vec256
 * with VAES on the whole ymm register).  Intrinsics: included only by
 * ISA files (camellia-, sm4- and aria- gfni-*.cpp, aesni-*.cpp and
 * vaes-avx2.cpp), each compiled with its ISA's flags.
 */
#ifndef GCIPHER_SBOX_LAYER_X86_H
#define GCIPHER_SBOX_LAYER_X86_H

#include "gfni-vec-x86.h"
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
  typedef typename Ops::V V;

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
  typedef typename Ops::V V;

  /* LO[x & 15] ^ HI[x >> 4] for every byte x of X.  */
  static SBOX_LAYER_INLINE V
  nibble_map (V x, const uint8_t *lo, const uint8_t *hi)
  {
    return Ops::shuffle8 (Ops::bcast128 (lo), Ops::nib_lo (x))
           ^ Ops::shuffle8 (Ops::bcast128 (hi), Ops::nib_hi (x));
  }

  template <const gf256ct::affine_inv_sbox &D>
  static SBOX_LAYER_INLINE V
  apply (V x)
  {
    constexpr const gf256ct::aesni_sbox &s = gf256ct::aesni_operands<D>;
    V y = nibble_map (x, s.pre_lo, s.pre_hi);
    y = Ops::shuffle8 (y, Ops::bcast128 (gf256ct::aesni_inv_shift_rows));
    y = Ops::aesenclast_zero (y);
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
        const V y = Ops::aesenclast_zero (nibble_map (x, s.pre_lo, s.pre_hi));
        return nibble_map (y, s.post_lo, s.post_hi);
      }
    else
      {
        const V y = Ops::aesdeclast_zero (nibble_map (x, s.dpre_lo,
                                                      s.dpre_hi));
        return nibble_map (y, s.dpost_lo, s.dpost_hi);
      }
  }

  /* ShiftRows (FWD) or InvShiftRows of each 128-bit lane.  */
  template <bool FWD>
  static SBOX_LAYER_INLINE V
  move (V x)
  {
    return Ops::shuffle8 (x, Ops::bcast128 (FWD ? gf256ct::aesni_shift_rows
                                            : gf256ct::aesni_inv_shift_rows));
  }
};

#ifdef __AES__
/* gfni_vec128 plus what aesni_sbox_layer needs (the GFNI operations are
 * templates, never instantiated without -mgfni).  */
struct aesni_vec128 : gfni_vec128
{
  GFNI_VEC_INLINE V bcast128 (const uint8_t *p)
  { return _mm_load_si128 ((const V *) p); }
  GFNI_VEC_INLINE V nib_lo (V x) { return x & _mm_set1_epi8 (0x0f); }
  GFNI_VEC_INLINE V nib_hi (V x)
  { return _mm_srli_epi16 (x, 4) & _mm_set1_epi8 (0x0f); }
  GFNI_VEC_INLINE V aesenclast_zero (V x)
  { return _mm_aesenclast_si128 (x, _mm_setzero_si128 ()); }
  GFNI_VEC_INLINE V aesdeclast_zero (V x)
  { return _mm_aesdeclast_si128 (x, _mm_setzero_si128 ()); }
};

#ifdef __AVX2__
/* ymm with AES-NI on each 128-bit half (no VAES).  */
struct aesni_vec256 : gfni_vec256
{
  GFNI_VEC_INLINE V bcast128 (const uint8_t *p)
  { return _mm256_broadcastsi128_si256 (_mm_load_si128 ((const __m128i *) p)); }
  GFNI_VEC_INLINE V nib_lo (V x) { return x & _mm256_set1_epi8 (0x0f); }
  GFNI_VEC_INLINE V nib_hi (V x)
  { return _mm256_srli_epi16 (x, 4) & _mm256_set1_epi8 (0x0f); }
  GFNI_VEC_INLINE V aesenclast_zero (V x)
  {
    const __m128i z = _mm_setzero_si128 ();
    const __m128i lo = _mm_aesenclast_si128 (_mm256_castsi256_si128 (x), z);
    const __m128i hi = _mm_aesenclast_si128 (_mm256_extracti128_si256 (x, 1),
                                             z);
    return _mm256_inserti128_si256 (_mm256_castsi128_si256 (lo), hi, 1);
  }
  GFNI_VEC_INLINE V aesdeclast_zero (V x)
  {
    const __m128i z = _mm_setzero_si128 ();
    const __m128i lo = _mm_aesdeclast_si128 (_mm256_castsi256_si128 (x), z);
    const __m128i hi = _mm_aesdeclast_si128 (_mm256_extracti128_si256 (x, 1),
                                             z);
    return _mm256_inserti128_si256 (_mm256_castsi128_si256 (lo), hi, 1);
  }
};

#ifdef __VAES__
/* ymm with VAES (VEX-encoded VAESENCLAST on both halves at once).  */
struct vaes_vec256 : aesni_vec256
{
  GFNI_VEC_INLINE V aesenclast_zero (V x)
  { return _mm256_aesenclast_epi128 (x, _mm256_setzero_si256 ()); }
  GFNI_VEC_INLINE V aesdeclast_zero (V x)
  { return _mm256_aesdeclast_epi128 (x, _mm256_setzero_si256 ()); }
};
#endif
#endif
#endif

#endif /* GCIPHER_SBOX_LAYER_X86_H */
