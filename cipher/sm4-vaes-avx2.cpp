/* sm4-vaes-avx2.cpp - SM4 bulk modes for CPUs with VAES but without
 * GFNI: as sm4-aesni-avx2.cpp, with one VAESENCLAST per ymm register
 * instead of two AESENCLAST on its halves (batches of 32, 16, 8, 4
 * blocks).  Built with -maes -mvaes
 * -mavx2 in its own convenience library; used when
 * HWF_INTEL_VAES_VPCLMUL, HWF_INTEL_AESNI and HWF_INTEL_AVX2 are
 * present.
 * SM4: GB/T 32907-2016; S-box decomposition in sm4-internal.h.
 */
#include <config.h>
#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "sm4-gfni.h"
#include "cipher-batch-modes.h"

typedef sm4_simd<simd_x86::Y2, 4, aesni_sbox_layer<simd_x86::Y2> > sm4_32;
typedef sm4_simd<simd_x86::Y2, 2, aesni_sbox_layer<simd_x86::Y2> > sm4_16;
typedef sm4_aesni_avx_blk8 sm4_8;   /* sm4-aesni-avx.cpp's */
typedef sm4_aesni_avx_blk4 sm4_4;
static_assert (sm4_32::N == SM4_AESNI_AVX2_LANES);

void
_gcry_sm4_vaes_avx2_fill (cipher_bulk_ops *bulk, SM4_context *ctx)
{
  typedef batch_modes<vec_clear_ymm, sm4_32, sm4_16, sm4_8, sm4_4> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
