/* rijndael-vaes-avx512.cpp - AES (FIPS-197) parallel modes with 512-bit
 * VAES, x86-64 only.
 *
 * Built with -mvaes -mvpclmulqdq -mavx512f -mavx512vl -mavx512bw
 * -mavx512dq -maes -mpclmul in its own convenience library; selected at
 * setkey when HWF_INTEL_AESNI, HWF_INTEL_VAES_VPCLMUL and HWF_INTEL_AVX512
 * are all present ("vaes-avx512", first in rijndael.cpp's tables).  Four
 * blocks per zmm register; the kernels (ECB, CBC-dec, CFB-dec, CTR with
 * a 128-bit big-endian and a 32-bit little-endian counter, XTS, OCB
 * encryption/decryption and authentication) are those of
 * rijndael-vaes-kernels.h instantiated for zmm.
 *
 * Everything else is the "aesni-avx" path's: the key schedule and
 * single blocks (the table entry names _gcry_aes_aesni_avx_setkey), and
 * the slots fill_bulk inherits from _gcry_aes_aesni_avx_fill_bulk:
 * CBC-enc, CFB-enc, OFB and ccm_crypt.  gcm_crypt and gcm_siv_dec are
 * the zmm VAES kernels of cipher-gcm-intel-vaes-avx512.cpp (stitched
 * GCM, GCM-SIV decryption), which take the blocks when the GHASH back
 * end is vpclmul-avx512.
 *
 * 8 zmm per batch (32 blocks, RIJNDAEL_VAES_AVX512_LANES): with AESENC on
 * two pipes and a latency of 4 cycles, 8 independent registers keep both
 * busy.  With 32 registers the full batches of CTR, XTS and OCB load the
 * round keys into registers once per call (KEYS_IN_REGS) instead of
 * broadcasting one per round per batch; for XTS with AES-256 GCC 12
 * spills a few of them to the (burned) stack.
 */
#include <config.h>

#ifdef __x86_64__
#include "rijndael-vaes-kernels.h"
#include "cipher-gcm.h"

namespace {

/* Zero every vector register: a VEX XOR of xmm0-15 and an EVEX XOR of
 * xmm16-31 (each zeroes the full zmm; zero idioms use no execution unit,
 * cheaper per call than VZEROALL), then VZEROUPPER to mark the upper
 * halves clean for SSE code that follows (no transition penalty).  */
void
clear_zmm (void)
{
  asm volatile ("vpxor %%xmm0, %%xmm0, %%xmm0\n\tvpxor %%xmm1, %%xmm1, %%xmm1\n\t"
                "vpxor %%xmm2, %%xmm2, %%xmm2\n\tvpxor %%xmm3, %%xmm3, %%xmm3\n\t"
                "vpxor %%xmm4, %%xmm4, %%xmm4\n\tvpxor %%xmm5, %%xmm5, %%xmm5\n\t"
                "vpxor %%xmm6, %%xmm6, %%xmm6\n\tvpxor %%xmm7, %%xmm7, %%xmm7\n\t"
                "vpxor %%xmm8, %%xmm8, %%xmm8\n\tvpxor %%xmm9, %%xmm9, %%xmm9\n\t"
                "vpxor %%xmm10, %%xmm10, %%xmm10\n\tvpxor %%xmm11, %%xmm11, %%xmm11\n\t"
                "vpxor %%xmm12, %%xmm12, %%xmm12\n\tvpxor %%xmm13, %%xmm13, %%xmm13\n\t"
                "vpxor %%xmm14, %%xmm14, %%xmm14\n\tvpxor %%xmm15, %%xmm15, %%xmm15\n\t"
                ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
                "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
                "xmm14", "xmm15");
  asm volatile ("vpxord %%xmm16, %%xmm16, %%xmm16\n\t"
                "vpxord %%xmm17, %%xmm17, %%xmm17\n\t"
                "vpxord %%xmm18, %%xmm18, %%xmm18\n\t"
                "vpxord %%xmm19, %%xmm19, %%xmm19\n\t"
                "vpxord %%xmm20, %%xmm20, %%xmm20\n\t"
                "vpxord %%xmm21, %%xmm21, %%xmm21\n\t"
                "vpxord %%xmm22, %%xmm22, %%xmm22\n\t"
                "vpxord %%xmm23, %%xmm23, %%xmm23\n\t"
                "vpxord %%xmm24, %%xmm24, %%xmm24\n\t"
                "vpxord %%xmm25, %%xmm25, %%xmm25\n\t"
                "vpxord %%xmm26, %%xmm26, %%xmm26\n\t"
                "vpxord %%xmm27, %%xmm27, %%xmm27\n\t"
                "vpxord %%xmm28, %%xmm28, %%xmm28\n\t"
                "vpxord %%xmm29, %%xmm29, %%xmm29\n\t"
                "vpxord %%xmm30, %%xmm30, %%xmm30\n\t"
                "vpxord %%xmm31, %%xmm31, %%xmm31\n\t"
                ::: "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21",
                "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27",
                "xmm28", "xmm29", "xmm30", "xmm31");
  asm volatile ("vzeroupper" ::: "memory");
}

constexpr int VAES_AVX512_NVEC = RIJNDAEL_VAES_AVX512_LANES / 4;

typedef vaes::kernels<vaes::Z4, VAES_AVX512_NVEC, clear_zmm> avx512_kernels;

} // namespace

void
_gcry_aes_vaes_avx512_fill_bulk (cipher_bulk_ops *bulk)
{
  avx512_kernels::fill_bulk (bulk);
  /* The stitched GCM kernels of this width (cipher-gcm-intel-vaes-avx512). */
  bulk->gcm_crypt = _gcry_aes_vaes_avx512_gcm_crypt;
  bulk->gcm_siv_dec = _gcry_aes_vaes_avx512_gcm_siv_dec;
}
#endif /* __x86_64__ */
