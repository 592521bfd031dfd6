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

namespace {

/* Zero every vector register (ymm0-15 on x86-64, ymm0-7 on i386): no
 * key or data left behind.  A VEX XOR of an xmm register zeroes the
 * whole ymm; the zero idiom costs no execution unit, which makes this
 * cheaper per call than VZEROALL.  VZEROUPPER then marks the upper
 * halves clean for SSE code that follows (no transition penalty).  */
void
clear_ymm (void)
{
  asm volatile ("vpxor %%xmm0, %%xmm0, %%xmm0\n\tvpxor %%xmm1, %%xmm1, %%xmm1\n\t"
                "vpxor %%xmm2, %%xmm2, %%xmm2\n\tvpxor %%xmm3, %%xmm3, %%xmm3\n\t"
                "vpxor %%xmm4, %%xmm4, %%xmm4\n\tvpxor %%xmm5, %%xmm5, %%xmm5\n\t"
                "vpxor %%xmm6, %%xmm6, %%xmm6\n\tvpxor %%xmm7, %%xmm7, %%xmm7\n\t"
                ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
                "xmm7");
#ifdef __x86_64__
  asm volatile ("vpxor %%xmm8, %%xmm8, %%xmm8\n\tvpxor %%xmm9, %%xmm9, %%xmm9\n\t"
                "vpxor %%xmm10, %%xmm10, %%xmm10\n\tvpxor %%xmm11, %%xmm11, %%xmm11\n\t"
                "vpxor %%xmm12, %%xmm12, %%xmm12\n\tvpxor %%xmm13, %%xmm13, %%xmm13\n\t"
                "vpxor %%xmm14, %%xmm14, %%xmm14\n\tvpxor %%xmm15, %%xmm15, %%xmm15\n\t"
                ::: "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
                "xmm14", "xmm15");
#endif
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
