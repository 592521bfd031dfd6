/* gf256-aesni.h - compile-time operands for evaluating the S-boxes of
 * gf256-ct.h (affine maps around the inversion in GF(2^8)) with the AES
 * instruction AESENCLAST and byte shuffles (PSHUFB nibble tables), for
 * CPUs without GFNI; and the S-box description both SIMD S-box layers
 * (sbox-layer-x86.h: GFNI and AES-NI) start from.
 *
 * AESENCLAST with an all-zero round key is SubBytes (ShiftRows (state))
 * (FIPS-197 5.1.1, 5.1.2, 5.1.4; Intel SDM vol. 2, AESENCLAST), and
 * SubBytes (y) = A_aes * inv_AES (y) ^ 0x63, A_aes the matrix whose
 * column j is 0x1f <<< j (FIPS-197 5.1.1, eq. 5.1).  With the field
 * isomorphism T of gf256-gfni.h (the S-box's field to the AES field),
 *
 *   S(x) = Aout * inv_P (Ain x ^ cin) ^ cout
 *        = (Aout T^-1) inv_AES ((T Ain) x ^ T cin) ^ cout
 *        = POST (SubBytes (PRE (x)))
 *
 *   PRE (x)  = (T Ain) x ^ T cin
 *   POST (s) = (Aout T^-1 A_aes^-1) s ^ ((Aout T^-1 A_aes^-1) 0x63 ^ cout).
 *
 * PRE and POST are affine byte maps; each is applied as two 16-entry
 * table look-ups, one per nibble (PSHUFB with the nibble as index:
 * f(x) = LO[x & 15] ^ HI[x >> 4], the constant folded into LO).  The
 * ShiftRows inside AESENCLAST moves the bytes; sbox-layer-x86.h either
 * undoes it (a PSHUFB with the InvShiftRows index before it) or lets the
 * kernel keep track of it.  For the latter, the same S-box also has a
 * form around AESDECLAST (zero round key: InvSubBytes (InvShiftRows)),
 * InvSubBytes (y) = inv_AES (A_aes^-1 (y ^ 0x63)) (FIPS-197 5.3.2):
 *
 *   DPRE (x)  = (A_aes T Ain) x ^ (A_aes T cin ^ 0x63)
 *   DPOST (s) = (Aout T^-1) s ^ cout,
 *
 * which moves the bytes back.  affine_sbox_check evaluates both chains
 * byte by byte (and the GFNI pair), for a compile-time comparison with
 * the reference S-box on all 256 inputs.  No intrinsics here.
 */
#ifndef GCIPHER_GF256_AESNI_H
#define GCIPHER_GF256_AESNI_H

#include "gf256-ct.h"
#include "gf256-gfni.h"

namespace gf256ct {

/* One S-box in gf256-ct.h's form S(x) = OUT_SQ * (IN x ^ CIN)^127 ^
 * COUT over GF(2)[a] / POLY (OUT_SQ with the final squaring folded in):
 * what the SIMD S-box layers are instantiated with.  */
struct affine_inv_sbox
{
  unsigned poly;
  bitmat in;
  uint8_t cin;
  bitmat out_sq;
  uint8_t cout;
};

constexpr uint8_t
sbox_ref (const affine_inv_sbox &d, uint8_t x)
{
  return sbox_ref (d.poly, d.in, d.cin, d.out_sq, d.cout, x);
}

/* The GFNI operands of D (gf256-gfni.h).  */
constexpr gfni_sbox
make_gfni_sbox (const affine_inv_sbox &d)
{
  return make_gfni_sbox (d.poly, d.in, d.cin, d.out_sq, d.cout);
}

/* The affine part of SubBytes (FIPS-197 5.1.1): column j = 0x1f <<< j. */
constexpr bitmat
aes_affine ()
{
  bitmat m {};
  for (int j = 0; j < 8; j++)
    m.col[j] = rotl8 (0x1f, j);
  return m;
}

/* Inverses in the AES field (inv(0) = 0), from powers of the generator
 * 3: computed once, so the 256-input checks below stay cheap for the
 * compiler (clang counts constexpr steps).  */
struct gf_inv_table
{
  uint8_t v[256];
};

constexpr gf_inv_table
make_aes_inv_table ()
{
  uint8_t exp[255] {}, log[256] {};
  uint8_t x = 1;
  for (int i = 0; i < 255; i++)
    {
      exp[i] = x;
      log[x] = (uint8_t) i;
      x = mul (x, 3, AES_POLY);
    }
  gf_inv_table t {};
  for (int i = 1; i < 256; i++)
    t.v[i] = exp[(255 - log[i]) % 255];
  return t;
}

inline constexpr gf_inv_table aes_inv_table = make_aes_inv_table ();

constexpr bool
aes_inv_table_ok ()
{
  for (unsigned x = 1; x < 256; x++)
    if (mul ((uint8_t) x, aes_inv_table.v[x], AES_POLY) != 1)
      return false;
  return aes_inv_table.v[0] == 0;
}
static_assert (aes_inv_table_ok (), "AES field inverses");

/* SubBytes on one byte.  */
constexpr uint8_t
aes_subbyte (uint8_t x)
{
  return (uint8_t) (apply (aes_affine (), aes_inv_table.v[x]) ^ 0x63);
}

static_assert (aes_subbyte (0x00) == 0x63 && aes_subbyte (0x01) == 0x7c
               && aes_subbyte (0x53) == 0xed && aes_subbyte (0xff) == 0x16,
               "AES S-box (FIPS-197 Figure 7)");

/* InvSubBytes on one byte.  */
constexpr uint8_t
aes_inv_subbyte (uint8_t y)
{
  return aes_inv_table.v[apply (inverse (aes_affine ()),
                               (uint8_t) (y ^ 0x63))];
}

static_assert (aes_inv_subbyte (0x63) == 0x00 && aes_inv_subbyte (0xed) == 0x53,
               "AES inverse S-box (FIPS-197 Figure 14)");

/* PSHUFB tables of D: PRE_LO/PRE_HI before AESENCLAST, POST_LO/POST_HI
 * after it; DPRE_* / DPOST_* around AESDECLAST (see the file
 * comment).  */
struct aesni_sbox
{
  uint8_t pre_lo[16], pre_hi[16], post_lo[16], post_hi[16];
  uint8_t dpre_lo[16], dpre_hi[16], dpost_lo[16], dpost_hi[16];
};

constexpr aesni_sbox
make_aesni_sbox (const affine_inv_sbox &d)
{
  const bitmat t = field_iso (d.poly);
  const bitmat out = compose (d.out_sq, inverse (frobenius (d.poly, 1)));
  const bitmat pre = compose (t, d.in);
  const uint8_t cpre = apply (t, d.cin);
  const bitmat post = compose (out, compose (inverse (t),
                                             inverse (aes_affine ())));
  const uint8_t cpost = (uint8_t) (apply (post, 0x63) ^ d.cout);
  const bitmat dpre = compose (aes_affine (), pre);
  const uint8_t cdpre = (uint8_t) (apply (aes_affine (), cpre) ^ 0x63);
  const bitmat dpost = compose (out, inverse (t));
  aesni_sbox s {};
  for (int n = 0; n < 16; n++)
    {
      s.pre_lo[n] = (uint8_t) (apply (pre, (uint8_t) n) ^ cpre);
      s.pre_hi[n] = apply (pre, (uint8_t) (n << 4));
      s.post_lo[n] = (uint8_t) (apply (post, (uint8_t) n) ^ cpost);
      s.post_hi[n] = apply (post, (uint8_t) (n << 4));
      s.dpre_lo[n] = (uint8_t) (apply (dpre, (uint8_t) n) ^ cdpre);
      s.dpre_hi[n] = apply (dpre, (uint8_t) (n << 4));
      s.dpost_lo[n] = (uint8_t) (apply (dpost, (uint8_t) n) ^ d.cout);
      s.dpost_hi[n] = apply (dpost, (uint8_t) (n << 4));
    }
  return s;
}

/* The AES-NI chain on one byte: nibble look-ups, SubBytes (with DEC:
 * the AESDECLAST tables, InvSubBytes), nibble look-ups.  */
constexpr uint8_t
aesni_eval (const aesni_sbox &s, uint8_t x, bool dec = false)
{
  if (dec)
    {
      const uint8_t y = (uint8_t) (s.dpre_lo[x & 15] ^ s.dpre_hi[x >> 4]);
      const uint8_t z = aes_inv_subbyte (y);
      return (uint8_t) (s.dpost_lo[z & 15] ^ s.dpost_hi[z >> 4]);
    }
  const uint8_t y = (uint8_t) (s.pre_lo[x & 15] ^ s.pre_hi[x >> 4]);
  const uint8_t z = aes_subbyte (y);
  return (uint8_t) (s.post_lo[z & 15] ^ s.post_hi[z >> 4]);
}

/* True when the GFNI and both sets of AES-NI operands of D agree with
 * the reference on all 256 inputs.  */
constexpr bool
affine_sbox_check (const affine_inv_sbox &d)
{
  const gfni_sbox g = make_gfni_sbox (d);
  const aesni_sbox a = make_aesni_sbox (d);
  for (unsigned x = 0; x < 256; x++)
    {
      const uint8_t want = sbox_ref (d, (uint8_t) x);
      /* GF2P8AFFINEINVQB: the affine map of the inverse (gf256-gfni.h's
       * gfni_affineinv, with the inverse from the table).  */
      const uint8_t gin = gfni_affine (g.pre, (uint8_t) x, g.cpre);
      if (aesni_eval (a, (uint8_t) x) != want
          || aesni_eval (a, (uint8_t) x, true) != want
          || gfni_affine (g.post, aes_inv_table.v[gin], g.cpost) != want)
        return false;
    }
  return true;
}

} // namespace gf256ct

#endif /* GCIPHER_GF256_AESNI_H */
