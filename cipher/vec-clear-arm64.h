/* vec-clear-arm64.h - zero the arm64 SIMD registers after NEON or
 * ARMv8-CE code.
 *
 * Kernels keep keys, keystream and hash state in SIMD registers; none
 * may survive the call that used them (the wiped-secrets rule).  The
 * caller-saved v0-v7 and v16-v31 are zeroed; v8-v15 are named as
 * clobbered too, so the compiler saves the caller's low halves before
 * and restores them after (the AAPCS64 preserves only those), which
 * overwrites whatever a kernel left there.  Inline assembly only (no
 * intrinsics), so any arm64 file may include it.
 */
#ifndef GCIPHER_VEC_CLEAR_ARM64_H
#define GCIPHER_VEC_CLEAR_ARM64_H

static inline __attribute__ ((always_inline)) void
vec_clear_arm64 (void)
{
  asm volatile ("movi v0.16b, #0\n\tmovi v1.16b, #0\n\tmovi v2.16b, #0\n\t"
                "movi v3.16b, #0\n\tmovi v4.16b, #0\n\tmovi v5.16b, #0\n\t"
                "movi v6.16b, #0\n\tmovi v7.16b, #0\n\t"
                "movi v8.16b, #0\n\tmovi v9.16b, #0\n\tmovi v10.16b, #0\n\t"
                "movi v11.16b, #0\n\tmovi v12.16b, #0\n\tmovi v13.16b, #0\n\t"
                "movi v14.16b, #0\n\tmovi v15.16b, #0\n\t"
                "movi v16.16b, #0\n\tmovi v17.16b, #0\n\tmovi v18.16b, #0\n\t"
                "movi v19.16b, #0\n\tmovi v20.16b, #0\n\tmovi v21.16b, #0\n\t"
                "movi v22.16b, #0\n\tmovi v23.16b, #0\n\tmovi v24.16b, #0\n\t"
                "movi v25.16b, #0\n\tmovi v26.16b, #0\n\tmovi v27.16b, #0\n\t"
                "movi v28.16b, #0\n\tmovi v29.16b, #0\n\tmovi v30.16b, #0\n\t"
                "movi v31.16b, #0"
                ::: "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",
                "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15",
                "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23",
                "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31",
                "memory");
}

#endif /* GCIPHER_VEC_CLEAR_ARM64_H */
