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
#ifdef __AVX__
  /* VEX code clears with VEX instructions (no SSE/AVX transition).  */
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
