/* camellia-internal.h - Camellia (RFC 3713): the context and the
 * compile-time S-box construction shared by the generic code
 * (camellia.cpp), the GFNI paths (camellia-gfni-*.cpp) and the AES-NI
 * paths (camellia-aesni-*.cpp).  See
 * camellia.cpp's file comment for the algebra.
 */
#ifndef GCIPHER_CAMELLIA_INTERNAL_H
#define GCIPHER_CAMELLIA_INTERNAL_H

#include <config.h>
#include <stddef.h>
#include <stdint.h>
#include "cipher-internal.h"
#include "gf256-ct.h"
#include "gf256-gfni.h"
#include "gf256-aesni.h"

namespace camellia_detail {

using namespace gf256ct;

struct CAMELLIA_context
{
  uint64_t kw[4];   /* Whitening keys kw1..kw4 (RFC 3713 2.2).  */
  uint64_t k[24];   /* Round keys k1..k24 (k1..k18 for 128-bit keys).  */
  uint64_t ke[6];   /* FL/FL^-1 keys ke1..ke6 (ke1..ke4).  */
  unsigned int rounds;  /* 18 or 24.  */
  /* The chosen path's single-block functions, NULL for "generic"
   * (camellia.cpp's cam_crypt).  */
  unsigned int (*encrypt1) (void *ctx, unsigned char *out,
                            const unsigned char *in);
  unsigned int (*decrypt1) (void *ctx, unsigned char *out,
                            const unsigned char *in);
};

/* ---- The S-box layer (see the file comment) ----------------------- */

constexpr unsigned CAM_POLY = 0x169;   /* X^8 + X^6 + X^5 + X^3 + 1 */

/* Bit a_I (I = 1..8, a_1 = most significant) of X.  */
constexpr unsigned
cbit (uint8_t x, int i)
{
  return (x >> (8 - i)) & 1u;
}

constexpr uint8_t
cpack (const unsigned (&b)[8])
{
  unsigned r = 0;
  for (int i = 0; i < 8; i++)
    r |= (b[i] & 1u) << (7 - i);
  return (uint8_t) r;
}

constexpr uint8_t
cam_f (uint8_t x)
{
  unsigned a[9] = { 0 };
  for (int i = 1; i <= 8; i++)
    a[i] = cbit (x, i);
  const unsigned b[8] = { a[6] ^ a[2], a[7] ^ a[1], a[8] ^ a[5] ^ a[3],
                          a[8] ^ a[3], a[7] ^ a[4], a[5] ^ a[2],
                          a[8] ^ a[1], a[6] ^ a[4] };
  return cpack (b);
}

constexpr uint8_t
cam_h (uint8_t x)
{
  unsigned a[9] = { 0 };
  for (int i = 1; i <= 8; i++)
    a[i] = cbit (x, i);
  const unsigned b[8] = { a[5] ^ a[6] ^ a[2], a[6] ^ a[2], a[7] ^ a[4],
                          a[8] ^ a[2], a[7] ^ a[3], a[8] ^ a[1],
                          a[5] ^ a[1], a[6] ^ a[3] };
  return cpack (b);
}

/* The element (b8 + b7 b + b6 b^2 + b5 b^3) + (b4 + b3 b + b2 b^2 +
 * b1 b^3) a of GF(2)[a] / CAM_POLY, as a polynomial in a.  */
constexpr uint8_t
cam_to_field (uint8_t v)
{
  const uint8_t beta = power (2, 238, CAM_POLY);
  uint8_t bp[4] = { 1, beta, mul (beta, beta, CAM_POLY), 0 };
  bp[3] = mul (bp[2], beta, CAM_POLY);
  uint8_t lo = 0, hi = 0;
  for (int i = 0; i < 4; i++)
    {
      if (cbit (v, 8 - i))
        lo ^= bp[i];
      if (cbit (v, 4 - i))
        hi ^= bp[i];
    }
  return (uint8_t) (lo ^ mul (hi, 2, CAM_POLY));
}

constexpr bitmat cam_M = matrix_of (cam_to_field);
constexpr bitmat cam_in = compose (cam_M, matrix_of (cam_f));
constexpr uint8_t cam_cin = apply (cam_in, 0xc5);
constexpr bitmat cam_out = compose (matrix_of (cam_h),
                                    compose (inverse (cam_M),
                                             frobenius (CAM_POLY, 1)));
constexpr uint8_t cam_cout = 0x6e;

constexpr uint8_t
cam_s1 (uint8_t x)
{
  return sbox_ref (CAM_POLY, cam_in, cam_cin, cam_out, cam_cout, x);
}

/* RFC 3713 2.4.4, SBOX1, first row.  */
static_assert (cam_s1 (0) == 112 && cam_s1 (1) == 130 && cam_s1 (2) == 44
               && cam_s1 (3) == 236 && cam_s1 (4) == 179 && cam_s1 (5) == 39
               && cam_s1 (6) == 192 && cam_s1 (7) == 229
               && cam_s1 (8) == 228 && cam_s1 (9) == 133
               && cam_s1 (10) == 87 && cam_s1 (11) == 53
               && cam_s1 (12) == 234 && cam_s1 (13) == 12
               && cam_s1 (14) == 174 && cam_s1 (15) == 65,
               "Camellia s1 construction");

constexpr bitmat rot_mat (int n)
{
  bitmat m {};
  for (int j = 0; j < 8; j++)
    m.col[j] = rotl8 ((uint8_t) (1u << j), n);
  return m;
}

/* SBOX1..SBOX4 (RFC 3713 2.4.4: SBOX2 = SBOX1 <<< 1, SBOX3 = SBOX1 >>> 1,
 * SBOX4(x) = SBOX1 (x <<< 1)) as affine_inv_sbox descriptions
 * (gf256-aesni.h), from which the SIMD S-box layers (sbox-layer-x86.h)
 * derive their GFNI or AES-NI operands; both operand sets are checked
 * against the reference on all 256 inputs.  */
inline constexpr affine_inv_sbox cam_sbox1
  = { CAM_POLY, cam_in, cam_cin, cam_out, cam_cout };
inline constexpr affine_inv_sbox cam_sbox2
  = { CAM_POLY, cam_in, cam_cin, compose (rot_mat (1), cam_out),
      rotl8 (cam_cout, 1) };
inline constexpr affine_inv_sbox cam_sbox3
  = { CAM_POLY, cam_in, cam_cin, compose (rot_mat (7), cam_out),
      rotl8 (cam_cout, 7) };
inline constexpr affine_inv_sbox cam_sbox4
  = { CAM_POLY, compose (cam_in, rot_mat (1)), cam_cin, cam_out, cam_cout };
static_assert (affine_sbox_check (cam_sbox1), "Camellia SIMD SBOX1");
static_assert (affine_sbox_check (cam_sbox2), "Camellia SIMD SBOX2");
static_assert (affine_sbox_check (cam_sbox3), "Camellia SIMD SBOX3");
static_assert (affine_sbox_check (cam_sbox4), "Camellia SIMD SBOX4");
static_assert (sbox_ref (cam_sbox1, 1) == 130 && sbox_ref (cam_sbox2, 0) == 224
               && sbox_ref (cam_sbox3, 0) == 56
               && sbox_ref (cam_sbox4, 0) == 112
               && sbox_ref (cam_sbox4, 1) == 44,
               "Camellia SBOX1(1), SBOX2(0), SBOX3(0), SBOX4(0), SBOX4(1) "
               "(RFC 3713 2.4.4)");

} // namespace camellia_detail

using camellia_detail::CAMELLIA_context;

/* Blocks per call of the GFNI and AES-NI kernels (byte-sliced: one byte
 * position of W blocks per W-byte register).  */
constexpr unsigned int CAMELLIA_GFNI_AVX2_LANES = 32;
constexpr unsigned int CAMELLIA_GFNI_AVX512_LANES = 64;
constexpr unsigned int CAMELLIA_AESNI_AVX2_LANES = 32;
constexpr unsigned int CAMELLIA_AESNI_AVX_LANES = 16;

/* Fill BULK and CTX's encrypt1 / decrypt1 for the path.  */
void _gcry_camellia_gfni_avx2_fill (cipher_bulk_ops *bulk,
                                    CAMELLIA_context *ctx);
void _gcry_camellia_gfni_avx512_fill (cipher_bulk_ops *bulk,
                                      CAMELLIA_context *ctx);
void _gcry_camellia_vaes_avx2_fill (cipher_bulk_ops *bulk,
                                    CAMELLIA_context *ctx);
void _gcry_camellia_aesni_avx2_fill (cipher_bulk_ops *bulk,
                                     CAMELLIA_context *ctx);
void _gcry_camellia_aesni_avx_fill (cipher_bulk_ops *bulk,
                                    CAMELLIA_context *ctx);

/* camellia-aesni-avx.cpp's xmm kernel (16 blocks), which
 * camellia-aesni-avx2.cpp and camellia-vaes-avx2.cpp call instead of
 * copies of their own
 * (cipher-batch-modes.h, batch_called).  */
void _gcry_camellia_aesni_avx_blk16_enc (const void *ctx, unsigned char *out,
                                         const unsigned char *in);
void _gcry_camellia_aesni_avx_blk16_dec (const void *ctx, unsigned char *out,
                                         const unsigned char *in);

#endif /* GCIPHER_CAMELLIA_INTERNAL_H */
