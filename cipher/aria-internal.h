/* aria-internal.h - ARIA (RFC 5794; KS X 1213-1): the context, the
 * compile-time S-box construction and the diffusion network shared by
 * the generic code (aria.cpp) and the SIMD paths (aria-gfni.h: GFNI,
 * AES-NI and VAES S-box layers, aria-{gfni,aesni,vaes}-*.cpp).  See
 * aria.cpp's file comment for the algebra.
 */
#ifndef GCIPHER_ARIA_INTERNAL_H
#define GCIPHER_ARIA_INTERNAL_H

#include <config.h>
#include <stddef.h>
#include <stdint.h>
#include "cipher-internal.h"
#include "gf256-ct.h"
#include "gf256-gfni.h"
#include "gf256-aesni.h"

namespace aria_detail {

using namespace gf256ct;

/* Round keys in block byte order: byte p of a key is byte p of the
 * 16-byte block it is XORed into (RFC 5794 2.2 writes the keys as
 * 128-bit big-endian numbers, byte 0 the most significant).  As two
 * little-endian 64-bit words, w[0] holds bytes 0..7 (byte p in
 * bits 8p..8p+7), w[1] bytes 8..15.  */
struct aria_key
{
  uint64_t w[2];
};

struct ARIA_context
{
  aria_key ek[17];     /* ek1..ek(n+1) (RFC 5794 2.2), n = rounds.  */
  aria_key dk[17];     /* dk1..dk(n+1) (2.4): ek(n+1), A(ek(n)), ..., ek1. */
  unsigned int rounds; /* 12, 14 or 16 (key length 16, 24, 32 bytes).  */
  /* The chosen path's single-block functions, NULL for "generic"
   * (aria.cpp's aria_crypt).  */
  unsigned int (*encrypt1) (void *ctx, unsigned char *out,
                            const unsigned char *in);
  unsigned int (*decrypt1) (void *ctx, unsigned char *out,
                            const unsigned char *in);
};

/* ---- S-boxes (RFC 5794 2.4.2) -------------------------------------- */

/* Every ARIA S-box works in the AES field GF(2)[a] / (a^8 + a^4 + a^3 +
 * a + 1) (RFC 5794 2.4.2 uses FIPS-197's field for SB1 and SB2).  */
constexpr unsigned ARIA_POLY = 0x11b;

/* A matrix given by its rows as printed in RFC 5794 2.4.2: row i (the
 * top row first) produces output bit i, its first entry multiplies input
 * bit 0 (the RFC writes bytes as column vectors, least significant bit
 * on top; e.g. the AES constant 0x63 is the column (1,1,0,0,0,1,1,0)). */
constexpr bitmat
aria_rows (const char *const (&rows)[8])
{
  bitmat m {};
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      if (rows[i][j] == '1')
        m.col[j] |= (uint8_t) (1u << i);
  return m;
}

/* SB1(x) = A x^-1 ^ 0x63 (the FIPS-197 5.1.1 S-box).  */
constexpr const char *aria_A_rows[8] = {
  "10001111", "11000111", "11100011", "11110001",
  "11111000", "01111100", "00111110", "00011111"
};
/* SB2(x) = B x^247 ^ 0xe2.  */
constexpr const char *aria_B_rows[8] = {
  "01011110", "00111101", "11010111", "10011101",
  "00101100", "10000001", "01011101", "11010011"
};
constexpr bitmat aria_A = aria_rows (aria_A_rows);
constexpr bitmat aria_B = aria_rows (aria_B_rows);
constexpr uint8_t aria_a = 0x63, aria_b = 0xe2;

/* x^247 = (x^-1)^8: B x^247 = (B F3) x^-1, F3 the 8th power (linear). */
constexpr bitmat aria_BF3 = compose (aria_B, frobenius (ARIA_POLY, 3));

/* Each S-box as Aout inv (Ain x ^ cin) ^ cout (gf256-ct.h's form with
 * inv(y) = (y^127)^2, the squaring folded into OUT):
 *   SB1 = A inv (x) ^ a            SB3 = SB1^-1 = inv (A^-1 x ^ A^-1 a)
 *   SB2 = BF3 inv (x) ^ b          SB4 = SB2^-1 = inv (BF3^-1 x ^ BF3^-1 b)
 */
struct aria_sbox_def
{
  bitmat in;
  uint8_t cin;
  bitmat out_sq;
  uint8_t cout;
};

constexpr aria_sbox_def
aria_sbox_make (int s)
{
  const bitmat sq = frobenius (ARIA_POLY, 1);
  const bitmat ainv = inverse (aria_A), binv = inverse (aria_BF3);
  switch (s)
    {
    case 1:
      return { identity (), 0, compose (aria_A, sq), aria_a };
    case 2:
      return { identity (), 0, compose (aria_BF3, sq), aria_b };
    case 3:
      return { ainv, apply (ainv, aria_a), sq, 0 };
    default:
      return { binv, apply (binv, aria_b), sq, 0 };
    }
}

constexpr aria_sbox_def aria_sb[5] = { {}, aria_sbox_make (1),
                                       aria_sbox_make (2), aria_sbox_make (3),
                                       aria_sbox_make (4) };

constexpr uint8_t
aria_sbox_ref (int s, uint8_t x)
{
  const aria_sbox_def &d = aria_sb[s];
  return sbox_ref (ARIA_POLY, d.in, d.cin, d.out_sq, d.cout, x);
}

/* RFC 5794 2.4.2, the first row of each printed table.  */
constexpr bool
aria_sbox_row0_ok ()
{
  constexpr uint8_t row[5][16] = {
    {},
    { 0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5,
      0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76 },
    { 0xe2, 0x4e, 0x54, 0xfc, 0x94, 0xc2, 0x4a, 0xcc,
      0x62, 0x0d, 0x6a, 0x46, 0x3c, 0x4d, 0x8b, 0xd1 },
    { 0x52, 0x09, 0x6a, 0xd5, 0x30, 0x36, 0xa5, 0x38,
      0xbf, 0x40, 0xa3, 0x9e, 0x81, 0xf3, 0xd7, 0xfb },
    { 0x30, 0x68, 0x99, 0x1b, 0x87, 0xb9, 0x21, 0x78,
      0x50, 0x39, 0xdb, 0xe1, 0x72, 0x09, 0x62, 0x3c },
  };
  for (int s = 1; s <= 4; s++)
    for (int x = 0; x < 16; x++)
      if (aria_sbox_ref (s, (uint8_t) x) != row[s][x])
        return false;
  return true;
}
static_assert (aria_sbox_row0_ok (), "ARIA S-box construction");

/* SB3, SB4 are the inverses of SB1, SB2 on all 256 inputs.  */
constexpr bool
aria_sbox_inverses_ok ()
{
  for (unsigned x = 0; x < 256; x++)
    if (aria_sbox_ref (3, aria_sbox_ref (1, (uint8_t) x)) != x
        || aria_sbox_ref (4, aria_sbox_ref (2, (uint8_t) x)) != x)
      return false;
  return true;
}
static_assert (aria_sbox_inverses_ok (), "ARIA SB3 = SB1^-1, SB4 = SB2^-1");

/* The GFNI operands (gf256-gfni.h) of SB1..SB4 (index 1..4): in the AES
 * field already, so every S-box is GF2P8AFFINEQB (x, Ain, cin) then
 * GF2P8AFFINEINVQB (., Aout, cout), and SB1 / SB2 need only the second
 * (their PRE is the identity, CPRE 0).  Checked against the reference on
 * all 256 inputs.  */
constexpr gfni_sbox
aria_gfni_make (int s)
{
  const aria_sbox_def &d = aria_sb[s];
  return make_gfni_sbox (ARIA_POLY, d.in, d.cin, d.out_sq, d.cout);
}
constexpr gfni_sbox aria_gfni_sb[5] = { {}, aria_gfni_make (1),
                                        aria_gfni_make (2),
                                        aria_gfni_make (3),
                                        aria_gfni_make (4) };
constexpr uint64_t GFNI_IDENTITY = 0x0102040810204080ull;
static_assert (gfni_qword (identity ()) == GFNI_IDENTITY);

constexpr bool
aria_gfni_ok ()
{
  for (int s = 1; s <= 4; s++)
    {
      const aria_sbox_def &d = aria_sb[s];
      if (!gfni_check (aria_gfni_sb[s], ARIA_POLY, d.in, d.cin, d.out_sq,
                       d.cout))
        return false;
    }
  return aria_gfni_sb[1].pre == GFNI_IDENTITY && aria_gfni_sb[1].cpre == 0
         && aria_gfni_sb[2].pre == GFNI_IDENTITY && aria_gfni_sb[2].cpre == 0;
}
static_assert (aria_gfni_ok (), "ARIA GFNI S-boxes (all 256 inputs)");

/* The four S-boxes as gf256-aesni.h descriptions, for the SIMD S-box
 * layers (sbox-layer-x86.h: GFNI or AES-NI), checked there on all 256
 * inputs for both instruction sets.  */
constexpr affine_inv_sbox
aria_sbd_make (int s)
{
  return { ARIA_POLY, aria_sb[s].in, aria_sb[s].cin, aria_sb[s].out_sq,
           aria_sb[s].cout };
}
inline constexpr affine_inv_sbox aria_sbd1 = aria_sbd_make (1);
inline constexpr affine_inv_sbox aria_sbd2 = aria_sbd_make (2);
inline constexpr affine_inv_sbox aria_sbd3 = aria_sbd_make (3);
inline constexpr affine_inv_sbox aria_sbd4 = aria_sbd_make (4);
static_assert (affine_sbox_check (aria_sbd1) && affine_sbox_check (aria_sbd2)
               && affine_sbox_check (aria_sbd3)
               && affine_sbox_check (aria_sbd4),
               "ARIA S-boxes with GFNI and AES-NI (all 256 inputs)");

/* S-box of byte P of the block in the substitution layers (RFC 5794
 * 2.4.2): SL1 applies SB1, SB2, SB3, SB4 to bytes 4k, 4k+1, 4k+2, 4k+3,
 * SL2 SB3, SB4, SB1, SB2.  */
constexpr int
aria_sl_sbox (int sl, int p)
{
  constexpr int sl1[4] = { 1, 2, 3, 4 }, sl2[4] = { 3, 4, 1, 2 };
  return sl == 1 ? sl1[p & 3] : sl2[p & 3];
}

/* ---- Diffusion layer A (RFC 5794 2.4.3) ---------------------------- */

/* y_i is the XOR of the seven x_j, j in aria_A_eq[i] (the RFC's 16
 * equations).  */
constexpr uint8_t aria_A_eq[16][7] = {
  { 3, 4, 6, 8, 9, 13, 14 },   { 2, 5, 7, 8, 9, 12, 15 },
  { 1, 4, 6, 10, 11, 12, 15 }, { 0, 5, 7, 10, 11, 13, 14 },
  { 0, 2, 5, 8, 11, 14, 15 },  { 1, 3, 4, 9, 10, 14, 15 },
  { 0, 2, 7, 9, 10, 12, 13 },  { 1, 3, 6, 8, 11, 12, 13 },
  { 0, 1, 4, 7, 10, 13, 15 },  { 0, 1, 5, 6, 11, 12, 14 },
  { 2, 3, 5, 6, 8, 13, 15 },   { 2, 3, 4, 7, 9, 12, 14 },
  { 1, 2, 6, 7, 9, 11, 12 },   { 0, 3, 6, 7, 8, 10, 13 },
  { 0, 3, 4, 5, 9, 11, 14 },   { 1, 2, 4, 5, 8, 10, 15 },
};

/* The same map as a straight-line program of 48 two-input XORs (instead
 * of 16 x 6 = 96): t[0..15] = x, t[16 + k] = t[a_k] ^ t[b_k], y_i =
 * t[aria_A_out[i]].  Found by a greedy common-subexpression search
 * (Paar's method: repeatedly name the pair of inputs shared by most
 * outputs); aria_A_prog_ok checks it against the equations above.  */
struct aria_xor_op
{
  uint8_t a, b;
};
constexpr int ARIA_A_OPS = 48;
constexpr aria_xor_op aria_A_prog[ARIA_A_OPS] = {
  { 6, 8 }, { 7, 13 }, { 5, 11 }, { 3, 14 }, { 1, 10 }, { 4, 19 },
  { 0, 18 }, { 2, 15 }, { 9, 12 }, { 2, 24 }, { 10, 17 }, { 8, 23 },
  { 9, 21 }, { 14, 22 }, { 13, 16 }, { 15, 20 }, { 1, 11 }, { 3, 30 },
  { 5, 27 }, { 7, 25 }, { 6, 12 }, { 4, 31 }, { 0, 26 }, { 28, 30 },
  { 7, 24 }, { 40, 34 }, { 11, 36 }, { 42, 37 }, { 26, 29 }, { 27, 29 },
  { 28, 31 }, { 25, 38 }, { 12, 32 }, { 48, 33 }, { 0, 17 }, { 50, 37 },
  { 1, 29 }, { 52, 36 }, { 5, 23 }, { 54, 33 }, { 21, 35 }, { 6, 32 },
  { 57, 35 }, { 3, 16 }, { 59, 38 }, { 22, 28 }, { 4, 20 }, { 62, 34 },
};
constexpr uint8_t aria_A_out[16] = { 39, 41, 43, 44, 45, 46, 47, 49,
                                     51, 53, 55, 56, 58, 60, 61, 63 };

constexpr bool
aria_A_prog_ok ()
{
  uint16_t t[16 + ARIA_A_OPS] {};
  for (int i = 0; i < 16; i++)
    t[i] = (uint16_t) (1u << i);
  for (int k = 0; k < ARIA_A_OPS; k++)
    {
      if (aria_A_prog[k].a >= 16 + k || aria_A_prog[k].b >= 16 + k)
        return false;
      t[16 + k] = (uint16_t) (t[aria_A_prog[k].a] ^ t[aria_A_prog[k].b]);
    }
  for (int i = 0; i < 16; i++)
    {
      unsigned want = 0;
      for (int j = 0; j < 7; j++)
        want |= 1u << aria_A_eq[i][j];
      if (t[aria_A_out[i]] != want)
        return false;
    }
  return true;
}
static_assert (aria_A_prog_ok (), "ARIA diffusion network (RFC 5794 2.4.3)");

/* A on X[0..15] (bytes, or byte-sliced vector registers).  */
template <typename T>
inline __attribute__ ((always_inline)) void
aria_diffuse (T (&x)[16])
{
  T t[16 + ARIA_A_OPS];
#pragma GCC unroll 16
  for (int i = 0; i < 16; i++)
    t[i] = x[i];
#pragma GCC unroll 48
  for (int k = 0; k < ARIA_A_OPS; k++)
    t[16 + k] = t[aria_A_prog[k].a] ^ t[aria_A_prog[k].b];
#pragma GCC unroll 16
  for (int i = 0; i < 16; i++)
    x[i] = t[aria_A_out[i]];
}

/* A as the XOR of seven byte shuffles of the block (for a kernel that
 * keeps one block in one register): shuffle K takes byte
 * aria_A_eq[i][K] to byte i.  */
struct aria_A_shuffles
{
  uint8_t idx[7][16];
};

constexpr aria_A_shuffles
aria_make_A_shuffles ()
{
  aria_A_shuffles r {};
  for (int k = 0; k < 7; k++)
    for (int i = 0; i < 16; i++)
      r.idx[k][i] = aria_A_eq[i][k];
  return r;
}

} // namespace aria_detail

using aria_detail::ARIA_context;

/* Blocks per call of the SIMD kernels (byte-sliced: one byte position of
 * W blocks per W-byte register).  */
constexpr unsigned int ARIA_GFNI_AVX2_LANES = 32;
constexpr unsigned int ARIA_GFNI_AVX512_LANES = 64;
constexpr unsigned int ARIA_AESNI_AVX2_LANES = 32;

/* Fill BULK and CTX's encrypt1 / decrypt1 for the path.  */
void _gcry_aria_gfni_avx2_fill (cipher_bulk_ops *bulk, ARIA_context *ctx);
void _gcry_aria_gfni_avx512_fill (cipher_bulk_ops *bulk, ARIA_context *ctx);
void _gcry_aria_vaes_avx2_fill (cipher_bulk_ops *bulk, ARIA_context *ctx);
void _gcry_aria_aesni_avx2_fill (cipher_bulk_ops *bulk, ARIA_context *ctx);

/* aria-aesni-avx2.cpp's xmm kernels (16 blocks; one block), which
 * aria-vaes-avx2.cpp calls instead of a copy of its own
 * (cipher-batch-modes.h, batch_called_one).  */
void _gcry_aria_aesni_avx2_blk16_enc (const void *ctx, unsigned char *out,
                                      const unsigned char *in);
void _gcry_aria_aesni_avx2_blk16_dec (const void *ctx, unsigned char *out,
                                      const unsigned char *in);
void _gcry_aria_aesni_avx2_blk1_enc (const void *ctx, unsigned char *out,
                                     const unsigned char *in);
void _gcry_aria_aesni_avx2_blk1_dec (const void *ctx, unsigned char *out,
                                     const unsigned char *in);

#endif /* GCIPHER_ARIA_INTERNAL_H */
