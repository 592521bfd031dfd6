/* bench-limit-x86.cpp - AES round-instruction kernels for the lower bound
 * of tests/bench-compare (see bench-limit.h).
 *
 * Compiled with -maes -mvaes -mavx512f (tests/Makefile.am), so nothing but
 * the kernels lives here: everything else, the CPU checks included, is in
 * bench-common.cpp, built with the default flags.
 *
 *   throughput: kLimitChains independent accumulators, each one AES round
 *     instruction per iteration with a fixed round key; with more chains
 *     than latency x issue width, the loop runs at the instruction's
 *     reciprocal throughput.
 *   latency: one accumulator, kLimitLatencyChain dependent aesenc per
 *     iteration.
 *
 * The xmm kernels are written in inline assembly with the legacy (non-VEX)
 * encoding, the form gcipher's AES-NI path executes, so they also run on
 * AES-NI CPUs without AVX; the ymm and zmm forms use the VAES intrinsics
 * (Intel SDM, VAESENC).  Accumulators end in a volatile sink so the
 * compiler keeps every instruction.
 */
#include <immintrin.h>

#include <cstddef>

#include "bench-limit.h"

namespace bench {

#ifdef __x86_64__
const int kLimitChains = 12;
#else
const int kLimitChains = 6;     /* i386 has xmm0..xmm7 only */
#endif
const int kLimitLatencyChain = 16;

namespace {

volatile long long sink;

#define AESENC_KEY_X(n) "aesenc %%xmm7, %%xmm" #n "\n\t"

void
tput_xmm (size_t iters)
{
#ifdef __x86_64__
  __asm__ volatile ("pxor %%xmm0, %%xmm0\n\t"
                    "pcmpeqd %%xmm15, %%xmm15\n\t"
                    "movdqa %%xmm0, %%xmm1\n\t" "movdqa %%xmm0, %%xmm2\n\t"
                    "movdqa %%xmm0, %%xmm3\n\t" "movdqa %%xmm0, %%xmm4\n\t"
                    "movdqa %%xmm0, %%xmm5\n\t" "movdqa %%xmm0, %%xmm6\n\t"
                    "movdqa %%xmm0, %%xmm8\n\t" "movdqa %%xmm0, %%xmm9\n\t"
                    "movdqa %%xmm0, %%xmm10\n\t" "movdqa %%xmm0, %%xmm11\n\t"
                    "movdqa %%xmm0, %%xmm12\n\t" "movdqa %%xmm0, %%xmm13\n\t"
                    "1:\n\t"
                    "aesenc %%xmm15, %%xmm0\n\t" "aesenc %%xmm15, %%xmm1\n\t"
                    "aesenc %%xmm15, %%xmm2\n\t" "aesenc %%xmm15, %%xmm3\n\t"
                    "aesenc %%xmm15, %%xmm4\n\t" "aesenc %%xmm15, %%xmm5\n\t"
                    "aesenc %%xmm15, %%xmm6\n\t" "aesenc %%xmm15, %%xmm8\n\t"
                    "aesenc %%xmm15, %%xmm9\n\t" "aesenc %%xmm15, %%xmm10\n\t"
                    "aesenc %%xmm15, %%xmm11\n\t" "aesenc %%xmm15, %%xmm12\n\t"
                    "dec %0\n\t"
                    "jnz 1b\n\t"
                    : "+r"(iters)
                    :
                    : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",
                      "xmm6", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
                      "xmm13", "xmm15");
#else
  __asm__ volatile ("pxor %%xmm0, %%xmm0\n\t"
                    "pcmpeqd %%xmm7, %%xmm7\n\t"
                    "movdqa %%xmm0, %%xmm1\n\t" "movdqa %%xmm0, %%xmm2\n\t"
                    "movdqa %%xmm0, %%xmm3\n\t" "movdqa %%xmm0, %%xmm4\n\t"
                    "movdqa %%xmm0, %%xmm5\n\t"
                    "1:\n\t"
                    AESENC_KEY_X (0) AESENC_KEY_X (1) AESENC_KEY_X (2)
                    AESENC_KEY_X (3) AESENC_KEY_X (4) AESENC_KEY_X (5)
                    "dec %0\n\t"
                    "jnz 1b\n\t"
                    : "+r"(iters)
                    :
                    : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",
                      "xmm7");
#endif
}

/* The VAES forms, one template over the vector type.  */
template <typename V, V (*Enc) (V, V), V (*Set1) (long long),
          V (*Xor) (V, V)>
void
tput_vaes (size_t iters)
{
  constexpr int kChains = 12;
  V acc[kChains];
  for (int i = 0; i < kChains; i++)
    acc[i] = Set1 (i + 1);
  V key = Set1 (0x0123456789abcdefLL);
  for (size_t n = 0; n < iters; n++)
    {
#pragma GCC unroll 12
      for (int i = 0; i < kChains; i++)
        acc[i] = Enc (acc[i], key);
    }
  V x = acc[0];
  for (int i = 1; i < kChains; i++)
    x = Xor (x, acc[i]);
  long long out[sizeof (V) / sizeof (long long)];
  __builtin_memcpy (out, &x, sizeof out);
  sink = out[0];
}

__m256i enc256 (__m256i a, __m256i k) { return _mm256_aesenc_epi128 (a, k); }
__m256i set256 (long long v) { return _mm256_set1_epi64x (v); }
__m256i xor256 (__m256i a, __m256i b) { return _mm256_xor_si256 (a, b); }
__m512i enc512 (__m512i a, __m512i k) { return _mm512_aesenc_epi128 (a, k); }
__m512i set512 (long long v) { return _mm512_set1_epi64 (v); }
__m512i xor512 (__m512i a, __m512i b) { return _mm512_xor_si512 (a, b); }

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
      tput_vaes<__m256i, enc256, set256, xor256> (iters);
      break;
    case 2:
      tput_vaes<__m512i, enc512, set512, xor512> (iters);
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
