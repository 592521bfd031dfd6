/* sm4-aesni-avx.cpp - SM4 bulk modes for CPUs with AES-NI and AVX but
 * neither AVX2 nor GFNI: the word-sliced kernel (sm4-gfni.h) with the
 * AES-NI S-box layer (sbox-layer-x86.h) on xmm registers (VEX-encoded):
 * batches of 16 blocks (four independent sets of 4, to hide the latency
 * of the round chain), then 8 and 4.  Built
 * with -maes -mavx in its own convenience library; used when
 * HWF_INTEL_AESNI and HWF_INTEL_AVX are present.
 * SM4: GB/T 32907-2016; S-box decomposition in sm4-internal.h.
 */
#include <config.h>
#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "sm4-gfni.h"
#include "cipher-batch-modes.h"

typedef sm4_simd<simd_x86::X1, 4, aesni_sbox_layer<simd_x86::X1> > sm4_16;
typedef sm4_simd<simd_x86::X1, 2, aesni_sbox_layer<simd_x86::X1> > sm4_8;
typedef sm4_simd<simd_x86::X1, 1, aesni_sbox_layer<simd_x86::X1> > sm4_4;
static_assert (sm4_16::N == SM4_AESNI_AVX_LANES);

/* For sm4-aesni-avx2.cpp and sm4-vaes-avx2.cpp, whose xmm kernels these
 * are.  */
BATCH_KERNEL_EXPORT (_gcry_sm4_aesni_avx_blk8, sm4_8)
BATCH_KERNEL_EXPORT (_gcry_sm4_aesni_avx_blk4, sm4_4)

void
_gcry_sm4_aesni_avx_fill (cipher_bulk_ops *bulk, SM4_context *ctx)
{
  typedef batch_modes<vec_clear_ymm, sm4_16, sm4_8, sm4_4> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
