/* rijndael-vaes-avx2.cpp - AES (FIPS-197) parallel modes with 256-bit VAES.
 *
 * Built with -mvaes -mvpclmulqdq -mavx2 -maes -mpclmul in its own
 * convenience library; selected at setkey when HWF_INTEL_AESNI,
 * HWF_INTEL_VAES_VPCLMUL and HWF_INTEL_AVX2 are all present ("vaes-avx2").
 * Two blocks per ymm register; the kernels (ECB, CBC-dec, CFB-dec, CTR,
 * XTS, OCB) are those of rijndael-vaes-kernels.h instantiated for ymm.
 * Everything else (key expansion, single blocks, CBC-enc, CFB-enc, OFB,
 * CCM, GCM) is the AES-NI path's.
 *
 * x86-64: 8 ymm per batch (16 blocks), leaving 8 of the 16 registers for
 * the round key, the counter / chaining value and the mode's temporaries.
 * i386: 4 ymm per batch (8 blocks) so the 8 registers suffice; round
 * keys are broadcast from the context as memory operands there too.
 */
#include "rijndael-vaes-kernels.h"

namespace {

/* Zero every vector register (ymm0-15 on x86-64, ymm0-7 on i386) with
 * VZEROALL: no key or data left behind, upper halves clean for SSE code
 * that follows.  */
void
clear_ymm (void)
{
#ifdef __x86_64__
  asm volatile ("vzeroall" ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",
                "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
                "xmm13", "xmm14", "xmm15", "memory");
#else
  asm volatile ("vzeroall" ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",
                "xmm6", "xmm7", "memory");
#endif
}

constexpr int VAES_AVX2_NVEC = RIJNDAEL_VAES_AVX2_LANES / 2;

typedef vaes::kernels<vaes::Y2, VAES_AVX2_NVEC, clear_ymm> avx2_kernels;

} // namespace

void
_gcry_aes_vaes_avx2_fill_bulk (cipher_bulk_ops *bulk)
{
  avx2_kernels::fill_bulk (bulk);
}
