/* sm4-internal.h - SM4 (GB/T 32907-2016): the context and the
 * compile-time S-box construction shared by the generic code (sm4.cpp),
 * the GFNI paths (sm4-gfni-*.cpp) and the AES-NI paths
 * (sm4-aesni-*.cpp).  See sm4.cpp's file comment for the algebra.
 */
#ifndef GCIPHER_SM4_INTERNAL_H
#define GCIPHER_SM4_INTERNAL_H

#include <config.h>
#include <stddef.h>
#include <stdint.h>
#include "cipher-internal.h"
#include "gf256-ct.h"
#include "gf256-gfni.h"
#include "gf256-aesni.h"

namespace sm4_detail {

using namespace gf256ct;

struct SM4_context
{
  uint32_t rkey_enc[32];   /* rk_0..rk_31 (GB/T 32907 7.3).  */
  uint32_t rkey_dec[32];   /* The same, reversed.  */
  /* The chosen path's single-block functions, NULL for "generic"
   * (sm4.cpp's sm4_crypt).  */
  unsigned int (*encrypt1) (void *ctx, unsigned char *out,
                            const unsigned char *in);
  unsigned int (*decrypt1) (void *ctx, unsigned char *out,
                            const unsigned char *in);
};

constexpr unsigned SM4_POLY = 0x1f5;
constexpr uint8_t SM4_C = 0xd3;

constexpr bitmat
sm4_A ()
{
  /* Row i, bit j: 11100101[(j - i) mod 8] (first bit = index 0).  */
  constexpr unsigned row[8] = { 1, 1, 1, 0, 0, 1, 0, 1 };
  bitmat m {};
  for (int j = 0; j < 8; j++)
    for (int i = 0; i < 8; i++)
      m.col[j] |= (uint8_t) (row[(j - i + 8) % 8] << i);
  return m;
}

constexpr bitmat sm4_in = sm4_A ();
constexpr bitmat sm4_out = compose (sm4_A (), frobenius (SM4_POLY, 1));

constexpr uint8_t
sm4_sbox_ref (uint8_t x)
{
  return sbox_ref (SM4_POLY, sm4_in, SM4_C, sm4_out, SM4_C, x);
}

/* GB/T 32907-2016 6.2, S-box table, first row.  */
static_assert (sm4_sbox_ref (0x0) == 0xd6 && sm4_sbox_ref (0x1) == 0x90
               && sm4_sbox_ref (0x2) == 0xe9 && sm4_sbox_ref (0x3) == 0xfe
               && sm4_sbox_ref (0x4) == 0xcc && sm4_sbox_ref (0x5) == 0xe1
               && sm4_sbox_ref (0x6) == 0x3d && sm4_sbox_ref (0x7) == 0xb7
               && sm4_sbox_ref (0x8) == 0x16 && sm4_sbox_ref (0x9) == 0xb6
               && sm4_sbox_ref (0xa) == 0x14 && sm4_sbox_ref (0xb) == 0xc2
               && sm4_sbox_ref (0xc) == 0x28 && sm4_sbox_ref (0xd) == 0xfb
               && sm4_sbox_ref (0xe) == 0x2c && sm4_sbox_ref (0xf) == 0x05,
               "SM4 S-box construction");

/* The S-box as an affine_inv_sbox description (gf256-aesni.h), from
 * which the SIMD S-box layers (sbox-layer-x86.h) derive their GFNI or
 * AES-NI operands; both operand sets are checked against the reference
 * on all 256 inputs.  */
inline constexpr affine_inv_sbox sm4_sbox
  = { SM4_POLY, sm4_in, SM4_C, sm4_out, SM4_C };
static_assert (affine_sbox_check (sm4_sbox), "SM4 SIMD S-box");
static_assert (aesni_eval (make_aesni_sbox (sm4_sbox), 0) == 0xd6
               && aesni_eval (make_aesni_sbox (sm4_sbox), 0xff) == 0x48,
               "SM4 S-box (0), (0xff) (GB/T 32907-2016 6.2)");

} // namespace sm4_detail

using sm4_detail::SM4_context;

/* Blocks per call of the GFNI and AES-NI kernels.  */
constexpr unsigned int SM4_GFNI_AVX2_LANES = 16;
constexpr unsigned int SM4_GFNI_AVX512_LANES = 64;
constexpr unsigned int SM4_AESNI_AVX2_LANES = 32;
constexpr unsigned int SM4_AESNI_AVX_LANES = 16;

/* Fill BULK and CTX's encrypt1 / decrypt1 for the path.  */
void _gcry_sm4_gfni_avx2_fill (cipher_bulk_ops *bulk, SM4_context *ctx);
void _gcry_sm4_gfni_avx512_fill (cipher_bulk_ops *bulk, SM4_context *ctx);
void _gcry_sm4_vaes_avx2_fill (cipher_bulk_ops *bulk, SM4_context *ctx);
void _gcry_sm4_aesni_avx2_fill (cipher_bulk_ops *bulk, SM4_context *ctx);
void _gcry_sm4_aesni_avx_fill (cipher_bulk_ops *bulk, SM4_context *ctx);

/* sm4-aesni-avx.cpp's xmm kernels (8 and 4 blocks), which
 * sm4-aesni-avx2.cpp and sm4-vaes-avx2.cpp call instead of copies of
 * their own
 * (cipher-batch-modes.h, batch_called).  */
void _gcry_sm4_aesni_avx_blk8_enc (const void *ctx, unsigned char *out,
                                   const unsigned char *in);
void _gcry_sm4_aesni_avx_blk8_dec (const void *ctx, unsigned char *out,
                                   const unsigned char *in);
void _gcry_sm4_aesni_avx_blk4_enc (const void *ctx, unsigned char *out,
                                   const unsigned char *in);
void _gcry_sm4_aesni_avx_blk4_dec (const void *ctx, unsigned char *out,
                                   const unsigned char *in);

#endif /* GCIPHER_SM4_INTERNAL_H */
