/* vec-clear-x86.h - zero every vector register after AVX or AVX-512
 * code.
 *
 * Kernels keep keys, keystream and hash state in vector registers; none
 * may survive the call that used them (the wiped-secrets rule,
 * ARCHITECTURE.md).  VZEROALL zeroes ymm0-15 (ymm0-7 on i386) and, on a
 * CPU with AVX-512, the whole of zmm0-15 (Intel SDM vol. 2, VZEROALL):
 * vec_clear_ymm, for code without AVX-512 registers.  zmm16-31 exist on
 * x86-64 only and vec_clear_zmm zeroes them by hand too.  Inline
 * assembly only (no intrinsics), so any x86 ISA file may include it; run
 * vec_clear_ymm only where AVX is present, vec_clear_zmm only where
 * AVX-512 is.
 */
#ifndef GCIPHER_VEC_CLEAR_X86_H
#define GCIPHER_VEC_CLEAR_X86_H

static inline __attribute__ ((always_inline)) void
vec_clear_ymm (void)
{
  asm volatile ("vzeroall" ::: "memory");
}

static inline __attribute__ ((always_inline)) void
vec_clear_zmm (void)
{
  asm volatile ("vzeroall" ::: "memory");
#ifdef __x86_64__
  asm volatile ("vpxord %%zmm16, %%zmm16, %%zmm16\n\t"
                "vpxord %%zmm17, %%zmm17, %%zmm17\n\t"
                "vpxord %%zmm18, %%zmm18, %%zmm18\n\t"
                "vpxord %%zmm19, %%zmm19, %%zmm19\n\t"
                "vpxord %%zmm20, %%zmm20, %%zmm20\n\t"
                "vpxord %%zmm21, %%zmm21, %%zmm21\n\t"
                "vpxord %%zmm22, %%zmm22, %%zmm22\n\t"
                "vpxord %%zmm23, %%zmm23, %%zmm23\n\t"
                "vpxord %%zmm24, %%zmm24, %%zmm24\n\t"
                "vpxord %%zmm25, %%zmm25, %%zmm25\n\t"
                "vpxord %%zmm26, %%zmm26, %%zmm26\n\t"
                "vpxord %%zmm27, %%zmm27, %%zmm27\n\t"
                "vpxord %%zmm28, %%zmm28, %%zmm28\n\t"
                "vpxord %%zmm29, %%zmm29, %%zmm29\n\t"
                "vpxord %%zmm30, %%zmm30, %%zmm30\n\t"
                "vpxord %%zmm31, %%zmm31, %%zmm31\n\t"
                ::: "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21",
                "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27",
                "xmm28", "xmm29", "xmm30", "xmm31", "memory");
#endif
}

#endif /* GCIPHER_VEC_CLEAR_X86_H */
