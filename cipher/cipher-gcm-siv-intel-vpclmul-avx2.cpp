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

/* Eight ymm per run: 16 blocks, one reduction.  Stack burn depths: on
 * x86-64 GCC 12 spills five key registers of the set-up's four
 * parallel products (a 0xa0-byte frame, 32-byte aligned) and nothing in
 * the runs; i386 has eight vector registers and spills in both.  */
constexpr int NV = 8;
#ifdef __x86_64__
constexpr unsigned int BURN_SETKEY = 256, BURN_UPDATE = 0;
#else
constexpr unsigned int BURN_SETKEY = 1024, BURN_UPDATE = 1024;
#endif

unsigned int
setkey (gcm_ghash_key *key, const unsigned char *h)
{
  const unsigned int depth
    = polyval_vpclmul::setkey<simd_x86::Y2, NV> (key, h);
  _mm256_zeroall ();
  return depth > BURN_SETKEY ? depth : BURN_SETKEY;
}

unsigned int
update (const gcm_ghash_key *key, unsigned char *s, const unsigned char *x,
        size_t nblocks)
{
  const unsigned int depth
    = polyval_vpclmul::update<simd_x86::Y2, NV> (key, s, x, nblocks);
  _mm256_zeroall ();
  return depth > BURN_UPDATE ? depth : BURN_UPDATE;
}

} // namespace

const polyval_ops _gcry_polyval_ops_vpclmul_avx2
  = { setkey, update, sizeof (polyval_vpclmul::key_area<simd_x86::Y2, NV>) };
