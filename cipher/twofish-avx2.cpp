/* twofish-avx2.cpp - Twofish bulk modes with AVX2: batches of 16 blocks
 * on ymm registers, the rest in batches of 8 on xmm registers
 * (twofish-simd.h, byte planes; the key-dependent S-boxes as 16 rows of
 * 16 bytes each, looked up by PSHUFB, the row chosen per byte by a tree
 * of PBLENDVB on the bits of the high nibble: TF_SBOX_ROWS).  The rows
 * come from the nibble kernel at setkey.  The chained modes and single
 * blocks run one block in registers (twofish-simd.h's
 * tf_kernel_one_avx2).  These three kernels serve the AVX-512 paths too
 * (_gcry_twofish_avx2_blk16 / blk8 / blk1, twofish-simd.h's
 * tf_avx2_ymm, tf_avx2_xmm and tf_avx2_one).  Built with -mavx2 in its own convenience library; used
 * when HWF_INTEL_AVX2 is present.
 */
#include <config.h>
#include "twofish-simd.h"
#include "cipher-batch-modes.h"

using namespace twofish_detail;

static_assert (tf_avx2_ymm::N == TWOFISH_AVX2_LANES);

/* The ymm and xmm batches and the one block of every path
 * (twofish-simd.h's tf_avx2_ymm, tf_avx2_xmm and tf_avx2_one), built
 * here once and exported for the AVX-512 files (cipher-batch-modes.h's
 * BATCH_KERNEL_EXPORT: a jump to the batch kernel; the one-block kernel
 * is inline, so its exported function holds its body).  */
typedef twofish_simd<tf_vec256, TF_SBOX_ROWS> tf_kernel_ymm;
typedef twofish_simd<tf_vec128, TF_SBOX_ROWS> tf_kernel_xmm;
static_assert (tf_kernel_ymm::N == 16 && tf_kernel_xmm::N == 8);
BATCH_KERNEL_EXPORT (_gcry_twofish_avx2_blk16, tf_kernel_ymm)
BATCH_KERNEL_EXPORT (_gcry_twofish_avx2_blk8, tf_kernel_xmm)
BATCH_KERNEL_EXPORT_ONE (_gcry_twofish_avx2_blk1, tf_kernel_one_avx2)

void
_gcry_twofish_avx2_fill (cipher_bulk_ops *bulk, TWOFISH_context *ctx)
{
  tf_sbox_builder<tf_vec256, vec_clear_ymm>::build (ctx);
  typedef batch_modes<vec_clear_ymm, tf_avx2_ymm, tf_avx2_one> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}

int
_gcry_twofish_have_vbmi (void)
{
  return (_gcry_hwf_x86_extra () & HWF_X86_AVX512_VBMI) != 0;
}
