/* vec-clear-x86.h - zero every vector register after AVX or AVX-512
 * code, or every xmm register after SSE code.
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

/* Zero xmm0-15 (xmm0-7 on i386) for code built for SSE (legacy
 * encoding) or, built with -mavx, with VEX instructions (no SSE/AVX
 * transition in VEX code).  */
static inline __attribute__ ((always_inline)) void
vec_clear_xmm (void)
{
#ifdef __AVX__
  asm volatile ("vpxor %%xmm0, %%xmm0, %%xmm0\n\tvpxor %%xmm1, %%xmm1, %%xmm1\n\t"
                "vpxor %%xmm2, %%xmm2, %%xmm2\n\tvpxor %%xmm3, %%xmm3, %%xmm3\n\t"
                "vpxor %%xmm4, %%xmm4, %%xmm4\n\tvpxor %%xmm5, %%xmm5, %%xmm5\n\t"
                "vpxor %%xmm6, %%xmm6, %%xmm6\n\tvpxor %%xmm7, %%xmm7, %%xmm7\n\t"
                ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
                "xmm7");
# ifdef __x86_64__
  asm volatile ("vpxor %%xmm8, %%xmm8, %%xmm8\n\tvpxor %%xmm9, %%xmm9, %%xmm9\n\t"
                "vpxor %%xmm10, %%xmm10, %%xmm10\n\tvpxor %%xmm11, %%xmm11, %%xmm11\n\t"
                "vpxor %%xmm12, %%xmm12, %%xmm12\n\tvpxor %%xmm13, %%xmm13, %%xmm13\n\t"
                "vpxor %%xmm14, %%xmm14, %%xmm14\n\tvpxor %%xmm15, %%xmm15, %%xmm15\n\t"
                ::: "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
                "xmm14", "xmm15");
# endif
#else
  asm volatile ("pxor %%xmm0, %%xmm0\n\tpxor %%xmm1, %%xmm1\n\t"
                "pxor %%xmm2, %%xmm2\n\tpxor %%xmm3, %%xmm3\n\t"
                "pxor %%xmm4, %%xmm4\n\tpxor %%xmm5, %%xmm5\n\t"
                "pxor %%xmm6, %%xmm6\n\tpxor %%xmm7, %%xmm7\n\t"
                ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
                "xmm7");
#ifdef __x86_64__
  asm volatile ("pxor %%xmm8, %%xmm8\n\tpxor %%xmm9, %%xmm9\n\t"
                "pxor %%xmm10, %%xmm10\n\tpxor %%xmm11, %%xmm11\n\t"
                "pxor %%xmm12, %%xmm12\n\tpxor %%xmm13, %%xmm13\n\t"
                "pxor %%xmm14, %%xmm14\n\tpxor %%xmm15, %%xmm15\n\t"
                ::: "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
                "xmm14", "xmm15");
#endif
#endif
}

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
