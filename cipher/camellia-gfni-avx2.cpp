/* camellia-gfni-avx2.cpp - Camellia bulk modes with GFNI on ymm
 * registers: batches of 32 blocks (byte-sliced, camellia-gfni.h), the
 * rest in batches of 16 on xmm registers.  Built with -mgfni -mavx2 in
 * its own convenience library; used when HWF_INTEL_GFNI and
 * HWF_INTEL_AVX2 are present.
 */
#include <config.h>
#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "camellia-gfni.h"
#include "cipher-batch-modes.h"

static_assert (camellia_gfni<simd_x86::Y2>::N == CAMELLIA_GFNI_AVX2_LANES);

void
_gcry_camellia_gfni_avx2_fill (cipher_bulk_ops *bulk, CAMELLIA_context *ctx)
{
  typedef batch_modes<vec_clear_ymm, camellia_gfni<simd_x86::Y2>,
              camellia_gfni<simd_x86::X1> > modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
