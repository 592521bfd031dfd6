/* sm4-aesni-avx2.cpp - SM4 bulk modes for CPUs without GFNI: the
 * word-sliced kernel (sm4-gfni.h) with the AES-NI S-box layer
 * (sbox-layer-x86.h: nibble-table PSHUFBs around AESENCLAST) on ymm
 * registers, AESENCLAST on each 128-bit half: batches of 32 blocks (four
 * independent sets of 8: the 32 rounds are a serial chain per set, and
 * four sets hide its latency; two sets ran at 1.75 ns/B, four at 0.98 on
 * Zen 4), then 16 (ymm), 8 and 4 (xmm) for the rest.  Built with
 * -maes -mavx2 in its own convenience library; used when HWF_INTEL_AESNI
 * and HWF_INTEL_AVX2 are present.
 * SM4: GB/T 32907-2016; S-box decomposition in sm4-internal.h.
 */
#include <config.h>
#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "sm4-gfni.h"
#include "cipher-batch-modes.h"

typedef sm4_simd<aesni_y2, 4, aesni_sbox_layer<aesni_y2> > sm4_32;
typedef sm4_simd<aesni_y2, 2, aesni_sbox_layer<aesni_y2> > sm4_16;
typedef sm4_aesni_avx_blk8 sm4_8;   /* sm4-aesni-avx.cpp's */
typedef sm4_aesni_avx_blk4 sm4_4;
static_assert (sm4_32::N == SM4_AESNI_AVX2_LANES);

void
_gcry_sm4_aesni_avx2_fill (cipher_bulk_ops *bulk, SM4_context *ctx)
{
  typedef batch_modes<vec_clear_ymm, sm4_32, sm4_16, sm4_8, sm4_4> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
