/* sm4-gfni-avx2.cpp - SM4 bulk modes with GFNI: batches of 16 blocks on
 * ymm registers (two sets of 8, word-sliced: sm4-gfni.h), the rest in
 * batches of 4 on xmm registers.  Built with -mgfni -mavx2 in its own
 * convenience library; used when HWF_INTEL_GFNI and HWF_INTEL_AVX2 are
 * present.
 */
#include <config.h>
#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "sm4-gfni.h"
#include "cipher-batch-modes.h"

static_assert (sm4_gfni<simd_x86::Y2, 2>::N == SM4_GFNI_AVX2_LANES);

void
_gcry_sm4_gfni_avx2_fill (cipher_bulk_ops *bulk, SM4_context *ctx)
{
  typedef batch_modes<vec_clear_ymm, sm4_gfni<simd_x86::Y2, 2>,
              sm4_gfni<simd_x86::X1, 1> > modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
