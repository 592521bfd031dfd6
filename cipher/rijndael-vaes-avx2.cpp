/* rijndael-vaes-avx2.cpp - AES (FIPS-197) parallel modes with 256-bit VAES.
 *
 * Built with -mvaes -mvpclmulqdq -mavx2 -maes -mpclmul in its own
 * convenience library; selected at setkey when HWF_INTEL_AESNI,
 * HWF_INTEL_VAES_VPCLMUL and HWF_INTEL_AVX2 are all present ("vaes-avx2").
 * Two blocks per ymm register; the kernels (ECB, CBC-dec, CFB-dec, CTR
 * with a 128-bit big-endian and a 32-bit little-endian counter, XTS, OCB)
 * are those of rijndael-vaes-kernels.h instantiated for ymm.
 * gcm_crypt and gcm_siv_dec are the ymm VAES kernels of
 * cipher-gcm-intel-vaes-avx2.cpp (stitched GCM on x86-64, GCM-SIV
 * decryption).  Everything else (key expansion, single blocks, CBC-enc,
 * CFB-enc, OFB, CCM) is the AES-NI path's.
 *
 * x86-64: 8 ymm per batch (16 blocks), leaving 8 of the 16 registers for
 * the round key, the counter / chaining value and the mode's temporaries.
 * i386: 4 ymm per batch (8 blocks) so the 8 registers suffice; round
 * keys are broadcast from the context as memory operands there too.
 */
#include "rijndael-vaes-kernels.h"
#include "cipher-gcm.h"
#include "vec-clear-x86.h"

namespace {

/* Zero every vector register (ymm0-15 on x86-64, ymm0-7 on i386): no
 * key or data left behind.  A VEX XOR of an xmm register zeroes the
 * whole ymm; the zero idiom costs no execution unit, which makes this
 * cheaper per call than VZEROALL.  VZEROUPPER then marks the upper
 * halves clean for SSE code that follows (no transition penalty).  */
void
clear_ymm (void)
{
  vec_clear_xmm ();   /* VEX: each zeroes its whole ymm.  */
  asm volatile ("vzeroupper" ::: "memory");
}

constexpr int VAES_AVX2_NVEC = RIJNDAEL_VAES_AVX2_LANES / 2;

typedef vaes::kernels<vaes::Y2, VAES_AVX2_NVEC, clear_ymm> avx2_kernels;

} // namespace

void
_gcry_aes_vaes_avx2_fill_bulk (cipher_bulk_ops *bulk)
{
  avx2_kernels::fill_bulk (bulk);
  /* The stitched GCM kernels of this width (cipher-gcm-intel-vaes-avx2).  */
  bulk->gcm_crypt = _gcry_aes_vaes_avx2_gcm_crypt;
  bulk->gcm_siv_dec = _gcry_aes_vaes_avx2_gcm_siv_dec;
}
