/* twofish-avx2.cpp - Twofish bulk modes with AVX2: batches of 16 blocks
 * on ymm registers, the rest in batches of 8 on xmm registers
 * (twofish-simd.h, byte planes; the key-dependent S-boxes as 16 rows of
 * 16 bytes each, looked up by PSHUFB, the row chosen per byte by a tree
 * of PBLENDVB on the bits of the high nibble: TF_SBOX_ROWS).  The rows
 * come from the nibble kernel at setkey.  The chained modes and single
 * blocks run one block in registers (twofish-simd.h's
 * tf_kernel_one_avx2).  Built with -mavx2 in its own convenience library;
 * used when HWF_INTEL_AVX2 is present.
 */
#include <config.h>
#include "twofish-simd.h"
#include "cipher-batch-modes.h"

using namespace twofish_detail;

static_assert (twofish_simd<tf_vec256, TF_SBOX_ROWS>::N == TWOFISH_AVX2_LANES);

void
_gcry_twofish_avx2_fill (cipher_bulk_ops *bulk, TWOFISH_context *ctx)
{
  tf_sbox_builder<tf_vec256, vec_clear_ymm>::build (ctx);
  typedef batch_modes<vec_clear_ymm, twofish_simd<tf_vec256, TF_SBOX_ROWS>,
                      tf_kernel_one_avx2> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}

int
_gcry_twofish_have_vbmi (void)
{
  return (_gcry_hwf_x86_extra () & HWF_X86_AVX512_VBMI) != 0;
}
