/* cipher-gcm-siv-intel-vpclmul-avx512.cpp - POLYVAL (RFC 8452 3) with
 * VPCLMULQDQ on zmm, x86-64 only: cipher-gcm-siv-vpclmul-kernel.h for
 * four blocks per register and runs of 32 blocks (K_1..K_32).
 *
 * Built with the VAES/VPCLMULQDQ AVX-512 flags in its own convenience
 * library; cipher-gcm-siv.cpp uses it ("polyval-vpclmul-avx512") for
 * long calls when HWF_INTEL_PCLMUL, HWF_INTEL_VAES_VPCLMUL and
 * HWF_INTEL_AVX512 are present.  Every vector register is zeroed before
 * returning.
 */
#include <config.h>

#ifdef __x86_64__
#include "cipher-gcm-siv-vpclmul-kernel.h"
#include "vec-clear-x86.h"

namespace {

inline __attribute__ ((always_inline)) void
clear ()
{
  vec_clear_zmm ();
}

/* Eight zmm per run: 32 blocks, one reduction.  */
typedef polyval_vpclmul::entry<simd_x86::Z4, 8, clear> zmm;

} // namespace

const polyval_ops _gcry_polyval_ops_vpclmul_avx512 = zmm::ops;
#endif
