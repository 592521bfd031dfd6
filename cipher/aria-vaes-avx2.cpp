/* aria-vaes-avx2.cpp - ARIA bulk modes with VAES for CPUs without GFNI:
 * as aria-aesni-avx2.cpp, with VAESENCLAST on whole ymm registers.
 * Built with -maes -mvaes -mavx2 in its own convenience library; used
 * when HWF_INTEL_VAES_VPCLMUL, HWF_INTEL_AESNI and HWF_INTEL_AVX2 are
 * present.
 */
#include <config.h>
#include "simd-x86.h"
#include "vec-clear-x86.h"
#include "sbox-layer-x86.h"
#include "aria-gfni.h"
#include "cipher-batch-modes.h"

typedef aria_simd<simd_x86::Y2, aesni_sbox_layer<simd_x86::Y2> > aria_y;
typedef aria_aesni_avx2_blk16 aria_x;   /* aria-aesni-avx2.cpp's */
static_assert (aria_y::N == ARIA_AESNI_AVX2_LANES);

void
_gcry_aria_vaes_avx2_fill (cipher_bulk_ops *bulk, ARIA_context *ctx)
{
  typedef batch_modes<vec_clear_ymm, aria_y, aria_x> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
