/* aria-aesni-avx2.cpp - ARIA bulk modes with AES-NI for CPUs without
 * GFNI: the S-boxes as nibble-table affine maps around AESENCLAST
 * (sbox-layer-x86.h), batches of 32 blocks on ymm registers (AES-NI on
 * each 128-bit half; byte-sliced, aria-gfni.h), the rest in batches of 16
 * on xmm registers, single blocks in one xmm register.  Built with -maes
 * -mavx2 in its own convenience library; used when HWF_INTEL_AESNI and
 * HWF_INTEL_AVX2 are present.
 */
#include <config.h>
#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "sbox-layer-x86.h"
#include "aria-gfni.h"
#include "cipher-batch-modes.h"

typedef aria_simd<aesni_y2, aesni_sbox_layer<aesni_y2> > aria_y;
typedef aria_simd<simd_x86::X1, aesni_sbox_layer<simd_x86::X1> > aria_x;
static_assert (aria_y::N == ARIA_AESNI_AVX2_LANES);

/* For aria-vaes-avx2.cpp, whose xmm kernels would be these.  */
BATCH_KERNEL_EXPORT (_gcry_aria_aesni_avx2_blk16, aria_x)
BATCH_KERNEL_EXPORT_ONE (_gcry_aria_aesni_avx2_blk1, aria_x)

void
_gcry_aria_aesni_avx2_fill (cipher_bulk_ops *bulk, ARIA_context *ctx)
{
  typedef batch_modes<vec_clear_ymm, aria_y, aria_x> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
