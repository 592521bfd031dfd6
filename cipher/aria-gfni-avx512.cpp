/* aria-gfni-avx512.cpp - ARIA bulk modes with GFNI on zmm registers:
 * batches of 64 blocks (byte-sliced, aria-gfni.h; the 32 zmm registers of
 * x86-64 hold the state and most network temporaries), the rest in
 * batches of 32 (ymm) and 16 (xmm).  Built with -mgfni and AVX-512
 * F/VL/BW/DQ in its own convenience library; used when HWF_INTEL_GFNI and
 * HWF_INTEL_AVX512 are present.
 */
#include <config.h>

/* GCC 12's AVX-512 intrinsics start from _mm512_undefined_epi32 (), a
 * self-initialised variable that trips -Wmaybe-uninitialized where they
 * are inlined.  */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "aria-gfni.h"
#include "cipher-batch-modes.h"

static_assert (aria_gfni<simd_x86::Z4>::N == ARIA_GFNI_AVX512_LANES);

void
_gcry_aria_gfni_avx512_fill (cipher_bulk_ops *bulk, ARIA_context *ctx)
{
  typedef batch_modes<vec_clear_zmm, aria_gfni<simd_x86::Z4>,
              aria_gfni<simd_x86::Y2>,
              aria_gfni<simd_x86::X1> > modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
