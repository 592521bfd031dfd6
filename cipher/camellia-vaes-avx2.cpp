/* camellia-vaes-avx2.cpp - Camellia bulk modes for CPUs with VAES but
 * without GFNI: as camellia-aesni-avx2.cpp, with one VAESENCLAST per ymm
 * register instead of two AESENCLAST on its halves.  Built with -maes
 * -mvaes -mavx2 in its own convenience library; used when
 * HWF_INTEL_VAES_VPCLMUL, HWF_INTEL_AESNI and HWF_INTEL_AVX2 are
 * present.
 * Camellia: RFC 3713; S-box decomposition in camellia-internal.h.
 */
#include <config.h>
#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "camellia-gfni.h"
#include "cipher-batch-modes.h"

typedef camellia_simd<simd_x86::Y2, aesni_sbox_layer<simd_x86::Y2> > cam256;
typedef camellia_aesni_avx_blk16 cam128;   /* camellia-aesni-avx.cpp's */
static_assert (cam256::N == CAMELLIA_AESNI_AVX2_LANES);

void
_gcry_camellia_vaes_avx2_fill (cipher_bulk_ops *bulk, CAMELLIA_context *ctx)
{
  typedef batch_modes<vec_clear_ymm, cam256, cam128> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
