/* aria-gfni-avx2.cpp - ARIA bulk modes with GFNI on ymm registers:
 * batches of 32 blocks (byte-sliced, aria-gfni.h), the rest in batches of
 * 16 on xmm registers.  Built with -mgfni -mavx2 in its own convenience
 * library; used when HWF_INTEL_GFNI and HWF_INTEL_AVX2 are present.
 */
#include <config.h>
#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "aria-gfni.h"
#include "cipher-batch-modes.h"

static_assert (aria_gfni<simd_x86::Y2>::N == ARIA_GFNI_AVX2_LANES);

void
_gcry_aria_gfni_avx2_fill (cipher_bulk_ops *bulk, ARIA_context *ctx)
{
  typedef batch_modes<vec_clear_ymm, aria_gfni<simd_x86::Y2>,
              aria_gfni<simd_x86::X1> > modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
