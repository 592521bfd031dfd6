/* rijndael-aesni.h - what the AES-NI kernel files share: the xmm
 * helpers, the batch width and the drivers' rounds.
 *
 * Included by rijndael-aesni.cpp (key expansion, single blocks, the
 * serial modes, the drivers' parallel modes, CCM) and
 * rijndael-aesni-xts-ocb.cpp (XTS and OCB), each built in its own
 * convenience library with its ISA flags; both are built twice, SSE-
 * and VEX-encoded (AESNI_NAME).  Internal linkage: each including
 * object gets its own copy, in its own encoding.
 */
#ifndef GCIPHER_RIJNDAEL_AESNI_H
#define GCIPHER_RIJNDAEL_AESNI_H

#include <immintrin.h>
#include "rijndael-internal.h"
#include "rijndael-x86-drivers.h"
#include "vec-clear-x86.h"

/* The exported names of a build: _gcry_aes_aesni_NAME for the SSE build
 * ("aesni"), _gcry_aes_aesni_avx_NAME for the VEX build
 * (RIJNDAEL_AESNI_AVX, -mavx: "aesni-avx").  */
#ifdef RIJNDAEL_AESNI_AVX
# define AESNI_NAME(name) _gcry_aes_aesni_avx_##name
#else
# define AESNI_NAME(name) _gcry_aes_aesni_##name
#endif

namespace {

typedef __m128i V;

/* Fully unroll the fixed-count loops over lanes and rounds, so the lane
 * arrays live in registers.  */
#define UNROLL _Pragma ("GCC unroll 16")

inline V
loadu (const void *p)
{
  return _mm_loadu_si128 ((const V *)p);
}

inline void
storeu (void *p, V v)
{
  _mm_storeu_si128 ((V *)p, v);
}

inline const V *
enc_keys (const RIJNDAEL_context *ctx)
{
  return (const V *)ctx->keys.ni.enc;
}

inline const V *
dec_keys (const RIJNDAEL_context *ctx)
{
  return (const V *)ctx->keys.ni.dec;
}

/* Zero every xmm register (the ABI treats them as caller-saved), so no
 * key or state is left in them after a bulk call.  */
inline void
clear_xmm (void)
{
  vec_clear_xmm ();
}

/* Blocks per iteration of the parallel modes (RIJNDAEL_AESNI_LANES,
 * rijndael-internal.h).  Zen 4 and recent Intel cores run AESENC on two
 * pipes with a latency of 4 cycles, so at least 8 independent blocks
 * keep both busy; 12 on x86-64 also covers the batch's loads and XORs
 * and still leaves registers for the round key, the counter and the
 * chaining value.  i386 has 8 xmm registers: 4 lanes, so no state is
 * spilled to the stack.  */
constexpr int AESNI_LANES = RIJNDAEL_AESNI_LANES;
static_assert (AESNI_LANES == 4 || AESNI_LANES == 8 || AESNI_LANES == 12);

using simd_x86::X1;
using aes_x86::lanes_c;

/* XTS and OCB (rijndael-aesni-xts-ocb.cpp) use the drivers' rounds (round
 * key by round key over the batch's states) and, XTS, their batch
 * order.  */
template <unsigned int ROUNDS, int N, bool DECRYPT>
inline __attribute__ ((always_inline)) void
middle_rounds (const V *k, V *x)
{
  aes_x86::middle_rounds<X1, ROUNDS, N, DECRYPT>
    ((const unsigned char (*)[16])k, x);
}

/* Burn depth of a kernel whose frame may hold spilled round keys: its
 * frame plus the x86-64 red zone below it (bytes).  */
constexpr unsigned int AESNI_SPILL_BURN = 512;

} // namespace

#endif /* GCIPHER_RIJNDAEL_AESNI_H */
