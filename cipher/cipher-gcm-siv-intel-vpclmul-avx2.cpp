/* cipher-gcm-siv-intel-vpclmul-avx2.cpp - POLYVAL (RFC 8452 3) with
 * VPCLMULQDQ on ymm: cipher-gcm-siv-vpclmul-kernel.h for two blocks per
 * register and runs of 16 blocks (K_1..K_16).
 *
 * Built with the VAES/VPCLMULQDQ AVX2 flags in its own convenience
 * library (amd64 and i386); cipher-gcm-siv.cpp uses it
 * ("polyval-vpclmul-avx2") for long calls when HWF_INTEL_PCLMUL,
 * HWF_INTEL_VAES_VPCLMUL and HWF_INTEL_AVX2 are present and AVX-512 is
 * not.  Every vector register is zeroed before returning (VZEROALL).
 */
#include <config.h>

#include "cipher-gcm-siv-vpclmul-kernel.h"

namespace {

inline __attribute__ ((always_inline)) void
clear ()
{
  _mm256_zeroall ();
}

/* Eight ymm per run: 16 blocks, one reduction.  */
typedef polyval_vpclmul::entry<simd_x86::Y2, 8, clear> ymm;

} // namespace

const polyval_ops _gcry_polyval_ops_vpclmul_avx2 = ymm::ops;
