/* bench-limit.h - kernels of the AES round-instruction micro-benchmark
 * (bench-limit-x86.cpp; on other targets bench-limit-none.cpp
 * supplies stubs).
 *
 * Callers check the CPU first (bench::detect_aes_forms): a kernel of a
 * form the CPU lacks faults.  bench::measure_aes_insn times these and
 * reports nanoseconds per instruction.
 */
#ifndef GCIPHER_TESTS_BENCH_LIMIT_H
#define GCIPHER_TESTS_BENCH_LIMIT_H

#include <cstddef>

namespace bench {

/* Independent dependency chains in one throughput-kernel iteration, the
 * same for every form: more than latency x instructions per cycle on
 * every AES unit there is (4 x 2 = 8 in 2026), so the loop runs at the
 * instruction's sustained throughput.  */
extern const int kLimitChains;
/* Dependent instructions in one latency-kernel iteration.  */
extern const int kLimitLatencyChain;

/* True if this build has the kernels (x86 only).  */
bool limit_kernels_built ();

/* ITERS iterations of kLimitChains independent AES round instructions of
 * FORM (0 = aesenc xmm, 1 = vaesenc ymm, 2 = vaesenc zmm).  */
void limit_throughput_kernel (int form, size_t iters);

/* ITERS iterations of kLimitLatencyChain dependent aesenc xmm.  */
void limit_latency_kernel (size_t iters);

} // namespace bench

#endif /* GCIPHER_TESTS_BENCH_LIMIT_H */
