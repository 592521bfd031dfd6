/* twofish-avx512.cpp - Twofish bulk modes with AVX-512: batches of 32
 * blocks on zmm registers, the rest in twofish-avx2.cpp's batches of 16
 * (ymm) and 8 (xmm), the chained modes and single blocks one block in
 * registers (tf_kernel_one_avx2, also twofish-avx2.cpp's: tf_avx2_ymm,
 * tf_avx2_one); twofish-simd.h with the S-boxes as 16-byte rows
 * (TF_SBOX_ROWS, the blends on k-masks), computed at setkey by the
 * nibble kernel.  Built with AVX-512 F/VL/BW/DQ in its own convenience
 * library; used when HWF_INTEL_AVX512 is present (and the gfni-avx512
 * path is not).
 */
#include <config.h>

/* GCC 12's AVX-512 intrinsics start from _mm512_undefined_epi32 (), a
 * self-initialised variable that trips -Wmaybe-uninitialized where they
 * are inlined.  */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include "twofish-simd.h"
#include "cipher-batch-modes.h"

using namespace twofish_detail;

static_assert (twofish_simd<tf_vec512, TF_SBOX_ROWS>::N == TWOFISH_AVX512_LANES);

void
_gcry_twofish_avx512_fill (cipher_bulk_ops *bulk, TWOFISH_context *ctx)
{
  tf_sbox_builder<tf_vec512, vec_clear_zmm>::build (ctx);
  typedef batch_modes<vec_clear_zmm, twofish_simd<tf_vec512, TF_SBOX_ROWS>,
                      tf_avx2_ymm, tf_avx2_one> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
