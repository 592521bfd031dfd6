/* camellia-gfni-avx2.cpp - Camellia bulk modes with GFNI on ymm
 * registers: batches of 32 blocks (byte-sliced, camellia-gfni.h), the
 * rest in batches of 16 on xmm registers.  Built with -mgfni -mavx2 in
 * its own convenience library; used when HWF_INTEL_GFNI and
 * HWF_INTEL_AVX2 are present.
 */
#include <config.h>
#include "gfni-vec-x86.h"
#include "camellia-gfni.h"
#include "cipher-batch-modes.h"

static_assert (camellia_gfni<gfni_vec256>::N == CAMELLIA_GFNI_AVX2_LANES);

void
_gcry_camellia_gfni_avx2_fill (cipher_bulk_ops *bulk, CAMELLIA_context *ctx)
{
  typedef batch_modes<gfni_vec_clear_ymm, camellia_gfni<gfni_vec256>,
              camellia_gfni<gfni_vec128> > modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
