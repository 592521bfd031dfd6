/* sm4-gfni-avx512.cpp - SM4 bulk modes with GFNI: batches of 64 blocks
 * on zmm registers (four sets of 16, word-sliced: sm4-gfni.h; rotations
 * by VPROLD), the rest in batches of 16 (ymm, two sets) and 4 (xmm).
 * Built with -mgfni and AVX-512 F/VL/BW/DQ in its own convenience
 * library; used when HWF_INTEL_GFNI and HWF_INTEL_AVX512 are present.
 */
#include <config.h>

/* GCC 12's AVX-512 intrinsics (unpack, rotate) start from
 * _mm512_undefined_epi32 (), a self-initialised variable that trips
 * -Wmaybe-uninitialized where they are inlined.  */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "sm4-gfni.h"
#include "cipher-batch-modes.h"

static_assert (sm4_gfni<simd_x86::Z4, 4>::N == SM4_GFNI_AVX512_LANES);

void
_gcry_sm4_gfni_avx512_fill (cipher_bulk_ops *bulk, SM4_context *ctx)
{
  typedef batch_modes<vec_clear_zmm, sm4_gfni<simd_x86::Z4, 4>,
              sm4_gfni<simd_x86::Y2, 2>,
              sm4_gfni<simd_x86::X1, 1> > modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
