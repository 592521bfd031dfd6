/* camellia-aesni-avx2.cpp - Camellia bulk modes for CPUs without GFNI:
 * the byte-sliced kernel (camellia-gfni.h) with the AES-NI S-box layer
 * (sbox-layer-x86.h: nibble-table PSHUFBs around AESENCLAST) on ymm
 * registers, AESENCLAST on each 128-bit half: batches of 32 blocks, the
 * rest in batches of 16 on xmm registers.  Built with -maes -mavx2 in
 * its own convenience library; used when HWF_INTEL_AESNI and
 * HWF_INTEL_AVX2 are present.
 * Camellia: RFC 3713; S-box decomposition in camellia-internal.h.
 */
#include <config.h>
#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "camellia-gfni.h"
#include "cipher-batch-modes.h"

typedef camellia_simd<aesni_y2, aesni_sbox_layer<aesni_y2> > cam256;
typedef camellia_aesni_avx_blk16 cam128;   /* camellia-aesni-avx.cpp's */
static_assert (cam256::N == CAMELLIA_AESNI_AVX2_LANES);

void
_gcry_camellia_aesni_avx2_fill (cipher_bulk_ops *bulk, CAMELLIA_context *ctx)
{
  typedef batch_modes<vec_clear_ymm, cam256, cam128> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
