/* gf256-gfni.h - compile-time GFNI operands for the S-boxes of
 * gf256-ct.h (affine maps around the inversion in GF(2^8)).
 *
 * GF2P8AFFINEQB x, A, b computes, for each byte x of the source, the byte
 * whose bit i is parity (A.byte[7 - i] & x) ^ b.bit i (Intel SDM, vol. 2,
 * GF2P8AFFINEQB: the matrix row producing output bit 0 is the MOST
 * significant byte of the qword A).  GF2P8AFFINEINVQB does the same to
 * the inverse of x in GF(2)[a] / (a^8 + a^4 + a^3 + a + 1) (inv(0) = 0).
 *
 * An S-box S(x) = Aout * inv_P (Ain x ^ cin) ^ cout over another field
 * GF(2)[a] / P is moved to the AES field with the field isomorphism
 * T: a -> g, g a root of P in the AES field (T is GF(2)-linear and
 * inv_P = T^-1 inv_AES T), so
 *
 *   S(x) = (Aout T^-1) inv_AES ((T Ain) x ^ T cin) ^ cout
 *        = GF2P8AFFINEINVQB (GF2P8AFFINEQB (x, T Ain, T cin),
 *                            Aout T^-1, cout).
 *
 * gfni_check evaluates that pair exactly as the SDM defines the two
 * instructions, for a compile-time comparison with the reference S-box
 * on all 256 inputs.  No intrinsics here: the ISA files take the
 * operands as constants.
 */
#ifndef GCIPHER_GF256_GFNI_H
#define GCIPHER_GF256_GFNI_H

#include "gf256-ct.h"

namespace gf256ct {

constexpr unsigned AES_POLY = 0x11b;

/* The GFNI qword of the matrix M (see the file comment).  */
constexpr uint64_t
gfni_qword (const bitmat &m)
{
  uint64_t q = 0;
  for (int i = 0; i < 8; i++)
    {
      unsigned row = 0;
      for (int j = 0; j < 8; j++)
        row |= ((m.col[j] >> i) & 1u) << j;
      q |= (uint64_t) row << (8 * (7 - i));
    }
  return q;
}

/* GF2P8AFFINEQB on one byte, as the SDM defines it.  */
constexpr uint8_t
gfni_affine (uint64_t a, uint8_t x, uint8_t b)
{
  unsigned r = 0;
  for (int i = 0; i < 8; i++)
    {
      unsigned v = (unsigned) (a >> (8 * (7 - i))) & x, p = 0;
      for (int k = 0; k < 8; k++)
        p ^= (v >> k) & 1u;
      r |= (p ^ ((b >> i) & 1u)) << i;
    }
  return (uint8_t) r;
}

/* GF2P8AFFINEINVQB on one byte.  */
constexpr uint8_t
gfni_affineinv (uint64_t a, uint8_t x, uint8_t b)
{
  return gfni_affine (a, power (x, 254, AES_POLY), b);
}

/* The isomorphism GF(2)[a] / POLY -> AES field, a -> the least root of
 * POLY there.  */
constexpr bitmat
field_iso (unsigned poly)
{
  unsigned g = 2;
  for (; g < 256; g++)
    {
      uint8_t v = 0;
      for (int i = 0; i < 8; i++)
        if ((poly >> i) & 1)
          v ^= power ((uint8_t) g, (unsigned) i, AES_POLY);
      if ((uint8_t) (v ^ power ((uint8_t) g, 8, AES_POLY)) == 0)
        break;
    }
  bitmat t {};
  for (int j = 0; j < 8; j++)
    t.col[j] = power ((uint8_t) g, (unsigned) j, AES_POLY);
  return t;
}

/* Operands of one S-box: PRE/CPRE for GF2P8AFFINEQB, POST/CPOST for
 * GF2P8AFFINEINVQB.  */
struct gfni_sbox
{
  uint64_t pre, post;
  uint8_t cpre, cpost;
};

/* From the gf256-ct.h description S(x) = OUT_SQ * (IN x ^ CIN)^127 ^
 * COUT, whose OUT_SQ has the final squaring folded in.  */
constexpr gfni_sbox
make_gfni_sbox (unsigned poly, const bitmat &in, uint8_t cin,
                const bitmat &out_sq, uint8_t cout)
{
  const bitmat t = field_iso (poly);
  const bitmat out = compose (out_sq, inverse (frobenius (poly, 1)));
  return { gfni_qword (compose (t, in)),
           gfni_qword (compose (out, inverse (t))),
           apply (t, cin), cout };
}

/* True when S agrees with the reference for all 256 inputs.  */
constexpr bool
gfni_check (const gfni_sbox &s, unsigned poly, const bitmat &in, uint8_t cin,
            const bitmat &out_sq, uint8_t cout)
{
  for (unsigned x = 0; x < 256; x++)
    if (gfni_affineinv (s.post, gfni_affine (s.pre, (uint8_t) x, s.cpre),
                        s.cpost)
        != sbox_ref (poly, in, cin, out_sq, cout, (uint8_t) x))
      return false;
  return true;
}

} // namespace gf256ct

#endif /* GCIPHER_GF256_GFNI_H */
