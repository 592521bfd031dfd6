/* camellia-aesni-avx.cpp - Camellia bulk modes for CPUs with AES-NI and
 * AVX but neither AVX2 nor GFNI: the byte-sliced kernel (camellia-gfni.h)
 * with the AES-NI S-box layer (sbox-layer-x86.h) on xmm registers
 * (VEX-encoded), batches of 16 blocks.  Built with -maes -mavx in its
 * own convenience library; used when HWF_INTEL_AESNI and HWF_INTEL_AVX
 * are present.
 * Camellia: RFC 3713; S-box decomposition in camellia-internal.h.
 */
#include <config.h>
#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "camellia-gfni.h"
#include "cipher-batch-modes.h"

typedef camellia_simd<simd_x86::X1, aesni_sbox_layer<simd_x86::X1> > cam128;
static_assert (cam128::N == CAMELLIA_AESNI_AVX_LANES);

/* For camellia-aesni-avx2.cpp and camellia-vaes-avx2.cpp, whose xmm
 * kernel this is.  */
BATCH_KERNEL_EXPORT (_gcry_camellia_aesni_avx_blk16, cam128)

void
_gcry_camellia_aesni_avx_fill (cipher_bulk_ops *bulk, CAMELLIA_context *ctx)
{
  typedef batch_modes<vec_clear_ymm, cam128> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
