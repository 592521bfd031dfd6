/* bench-limit-none.cpp - no AES round-instruction kernels on this target
 * (see bench-limit.h); bench-compare then prints no lower bound.  */
#include <cstddef>

#include "bench-limit.h"

namespace bench {

const int kLimitChains = 1;
const int kLimitLatencyChain = 1;

bool
limit_kernels_built ()
{
  return false;
}

void
limit_throughput_kernel (int, size_t)
{
}

void
limit_latency_kernel (size_t)
{
}

} // namespace bench
