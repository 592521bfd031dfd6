/* bench-limit-x86.cpp - AES round-instruction kernels for the bound of
 * tests/bench-compare (see bench-limit.h).
 *
 *   throughput: kLimitChains independent accumulators (15 on x86-64, 7 on
 *     i386: every vector register but the one holding the round key),
 *     each one AES round instruction per iteration, all with the same
 *     round key; no instruction depends on another of the same iteration,
 *     so the loop runs at the sustained rate of the AES units.
 *   latency: one accumulator, kLimitLatencyChain dependent aesenc per
 *     iteration.
 *
 * Every kernel is one asm statement holding the whole loop, so the
 * compiler can neither drop, merge nor reorder the instructions (the
 * asm is volatile and the accumulators are clobbered registers).  xmm
 * uses the legacy (non-VEX) aesenc that gcipher's AES-NI path runs, so
 * it also works on AES-NI CPUs without AVX; ymm and zmm are VAES
 * (vaesenc with VEX and EVEX encodings).  Nothing here needs compiler
 * ISA flags: the assembler takes the mnemonics as they are.
 */
#include <cstddef>

#include "bench-limit.h"

namespace bench {

#ifdef __x86_64__
const int kLimitChains = 15;
#else
const int kLimitChains = 7;     /* i386 has xmm0..xmm7 only */
#endif
const int kLimitLatencyChain = 16;

namespace {

/* One iteration: the round instruction OP (prefix P, key register K) on
 * the accumulator registers.  */
#define R(op, p, k, n) op " %%" p k ", %%" p #n ", %%" p #n "\n\t"
#define LEG(n) "aesenc %%xmm15, %%xmm" #n "\n\t"
#define LEG32(n) "aesenc %%xmm7, %%xmm" #n "\n\t"

#ifdef __x86_64__
#define CHAINS15(X) X (0) X (1) X (2) X (3) X (4) X (5) X (6) X (7) \
                    X (8) X (9) X (10) X (11) X (12) X (13) X (14)
#define VAES_Y(n) R ("vaesenc", "ymm", "15", n)
#define VAES_Z(n) R ("vaesenc", "zmm", "15", n)
#define ZERO_X "pxor %%xmm0, %%xmm0\n\t" "pcmpeqd %%xmm15, %%xmm15\n\t"
#define COPY_X(n) "movdqa %%xmm0, %%xmm" #n "\n\t"
#define COPY_Y(n) "vmovdqa %%ymm0, %%ymm" #n "\n\t"
#define COPY_Z(n) "vmovdqa64 %%zmm0, %%zmm" #n "\n\t"
#define CLOBBER_16 "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", \
                   "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",      \
                   "xmm13", "xmm14", "xmm15"

void
tput_xmm (size_t iters)
{
  __asm__ volatile (ZERO_X
                    COPY_X (1) COPY_X (2) COPY_X (3) COPY_X (4) COPY_X (5)
                    COPY_X (6) COPY_X (7) COPY_X (8) COPY_X (9) COPY_X (10)
                    COPY_X (11) COPY_X (12) COPY_X (13) COPY_X (14)
                    "1:\n\t"
                    CHAINS15 (LEG)
                    "dec %0\n\t"
                    "jnz 1b\n\t"
                    : "+r"(iters)
                    :
                    : "cc", CLOBBER_16);
}

void
tput_ymm (size_t iters)
{
  __asm__ volatile ("vpxor %%xmm0, %%xmm0, %%xmm0\n\t"
                    "vpcmpeqd %%ymm15, %%ymm15, %%ymm15\n\t"
                    COPY_Y (1) COPY_Y (2) COPY_Y (3) COPY_Y (4) COPY_Y (5)
                    COPY_Y (6) COPY_Y (7) COPY_Y (8) COPY_Y (9) COPY_Y (10)
                    COPY_Y (11) COPY_Y (12) COPY_Y (13) COPY_Y (14)
                    "1:\n\t"
                    CHAINS15 (VAES_Y)
                    "dec %0\n\t"
                    "jnz 1b\n\t"
                    "vzeroupper\n\t"
                    : "+r"(iters)
                    :
                    : "cc", CLOBBER_16);
}

void
tput_zmm (size_t iters)
{
  __asm__ volatile ("vpxor %%xmm0, %%xmm0, %%xmm0\n\t"
                    "vpternlogd $0xff, %%zmm15, %%zmm15, %%zmm15\n\t"
                    COPY_Z (1) COPY_Z (2) COPY_Z (3) COPY_Z (4) COPY_Z (5)
                    COPY_Z (6) COPY_Z (7) COPY_Z (8) COPY_Z (9) COPY_Z (10)
                    COPY_Z (11) COPY_Z (12) COPY_Z (13) COPY_Z (14)
                    "1:\n\t"
                    CHAINS15 (VAES_Z)
                    "dec %0\n\t"
                    "jnz 1b\n\t"
                    "vzeroupper\n\t"
                    : "+r"(iters)
                    :
                    : "cc", CLOBBER_16);
}
#else /* i386 */
#define CHAINS7(X) X (0) X (1) X (2) X (3) X (4) X (5) X (6)
#define VAES_Y(n) R ("vaesenc", "ymm", "7", n)
#define VAES_Z(n) R ("vaesenc", "zmm", "7", n)
#define CLOBBER_8 "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", \
                  "xmm7"

void
tput_xmm (size_t iters)
{
  __asm__ volatile ("pxor %%xmm0, %%xmm0\n\t"
                    "pcmpeqd %%xmm7, %%xmm7\n\t"
                    "movdqa %%xmm0, %%xmm1\n\t" "movdqa %%xmm0, %%xmm2\n\t"
                    "movdqa %%xmm0, %%xmm3\n\t" "movdqa %%xmm0, %%xmm4\n\t"
                    "movdqa %%xmm0, %%xmm5\n\t" "movdqa %%xmm0, %%xmm6\n\t"
                    "1:\n\t"
                    CHAINS7 (LEG32)
                    "dec %0\n\t"
                    "jnz 1b\n\t"
                    : "+r"(iters)
                    :
                    : "cc", CLOBBER_8);
}

void
tput_ymm (size_t iters)
{
  __asm__ volatile ("vpxor %%xmm0, %%xmm0, %%xmm0\n\t"
                    "vpcmpeqd %%ymm7, %%ymm7, %%ymm7\n\t"
                    "vmovdqa %%ymm0, %%ymm1\n\t" "vmovdqa %%ymm0, %%ymm2\n\t"
                    "vmovdqa %%ymm0, %%ymm3\n\t" "vmovdqa %%ymm0, %%ymm4\n\t"
                    "vmovdqa %%ymm0, %%ymm5\n\t" "vmovdqa %%ymm0, %%ymm6\n\t"
                    "1:\n\t"
                    CHAINS7 (VAES_Y)
                    "dec %0\n\t"
                    "jnz 1b\n\t"
                    "vzeroupper\n\t"
                    : "+r"(iters)
                    :
                    : "cc", CLOBBER_8);
}

void
tput_zmm (size_t iters)
{
  __asm__ volatile ("vpxor %%xmm0, %%xmm0, %%xmm0\n\t"
                    "vpternlogd $0xff, %%zmm7, %%zmm7, %%zmm7\n\t"
                    "vmovdqa64 %%zmm0, %%zmm1\n\t"
                    "vmovdqa64 %%zmm0, %%zmm2\n\t"
                    "vmovdqa64 %%zmm0, %%zmm3\n\t"
                    "vmovdqa64 %%zmm0, %%zmm4\n\t"
                    "vmovdqa64 %%zmm0, %%zmm5\n\t"
                    "vmovdqa64 %%zmm0, %%zmm6\n\t"
                    "1:\n\t"
                    CHAINS7 (VAES_Z)
                    "dec %0\n\t"
                    "jnz 1b\n\t"
                    "vzeroupper\n\t"
                    : "+r"(iters)
                    :
                    : "cc", CLOBBER_8);
}
#endif

} // namespace

bool
limit_kernels_built ()
{
  return true;
}

void
limit_throughput_kernel (int form, size_t iters)
{
  if (!iters)
    return;
  switch (form)
    {
    case 0:
      tput_xmm (iters);
      break;
    case 1:
      tput_ymm (iters);
      break;
    case 2:
      tput_zmm (iters);
      break;
    default:
      break;
    }
}

void
limit_latency_kernel (size_t iters)
{
  if (!iters)
    return;
  __asm__ volatile ("pxor %%xmm0, %%xmm0\n\t"
                    "pcmpeqd %%xmm1, %%xmm1\n\t"
                    "1:\n\t"
                    "aesenc %%xmm1, %%xmm0\n\t" "aesenc %%xmm1, %%xmm0\n\t"
                    "aesenc %%xmm1, %%xmm0\n\t" "aesenc %%xmm1, %%xmm0\n\t"
                    "aesenc %%xmm1, %%xmm0\n\t" "aesenc %%xmm1, %%xmm0\n\t"
                    "aesenc %%xmm1, %%xmm0\n\t" "aesenc %%xmm1, %%xmm0\n\t"
                    "aesenc %%xmm1, %%xmm0\n\t" "aesenc %%xmm1, %%xmm0\n\t"
                    "aesenc %%xmm1, %%xmm0\n\t" "aesenc %%xmm1, %%xmm0\n\t"
                    "aesenc %%xmm1, %%xmm0\n\t" "aesenc %%xmm1, %%xmm0\n\t"
                    "aesenc %%xmm1, %%xmm0\n\t" "aesenc %%xmm1, %%xmm0\n\t"
                    "dec %0\n\t"
                    "jnz 1b\n\t"
                    : "+r"(iters)
                    :
                    : "cc", "xmm0", "xmm1");
}

} // namespace bench
