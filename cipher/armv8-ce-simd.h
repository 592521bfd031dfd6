/* armv8-ce-simd.h - helpers shared by the arm64 files built with the
 * ARMv8 Cryptography Extensions (rijndael-armv8-ce.cpp,
 * cipher-gcm-armv8-ce.cpp): unaligned block moves, the AES round
 * sequence on N states, the round-count dispatch and the register
 * clearing every bulk call ends with.  Include only from files compiled
 * with -march=armv8-a+crypto.
 */
#ifndef GCIPHER_ARMV8_CE_SIMD_H
#define GCIPHER_ARMV8_CE_SIMD_H

#include <arm_neon.h>
#include "rijndael-internal.h"
#include "vec-clear-arm64.h"

namespace armv8_ce {

using V = uint8x16_t;

#define ARMV8_UNROLL _Pragma ("GCC unroll 16")

inline V
loadu (const void *p)
{
  return vld1q_u8 ((const uint8_t *)p);
}

inline void
storeu (void *p, V v)
{
  vst1q_u8 ((uint8_t *)p, v);
}

inline V
xor3 (V a, V b, V c)
{
  return veorq_u8 (veorq_u8 (a, b), c);
}

inline void
clear_vregs (void)
{
  vec_clear_arm64 ();
}

/* Round keys of an AES context (keys.ni, rijndael-internal.h) loaded
 * into registers: the cipher's (enc) or the equivalent inverse
 * cipher's (dec).  */
template <unsigned int ROUNDS>
struct round_keys
{
  V k[ROUNDS + 1];
  round_keys (const RIJNDAEL_context *ctx, bool decrypt)
  {
    const unsigned char (*src)[16] = decrypt ? ctx->keys.ni.dec
                                             : ctx->keys.ni.enc;
    ARMV8_UNROLL
    for (unsigned int r = 0; r <= ROUNDS; r++)
      k[r] = loadu (src[r]);
  }
};

/* AESE+AESMC (DECRYPT: AESD+AESIMC) with round keys FROM .. ROUNDS-2 on
 * N states in place, key by key, then AESE (AESD) with k[ROUNDS-1]; the
 * caller XORs k[ROUNDS] (AESE XORs its key operand first, so FIPS-197
 * round r is AESE with k_(r-1), then AESMC).  */
template <unsigned int ROUNDS, int N, bool DECRYPT, unsigned int FROM = 0>
inline __attribute__ ((always_inline)) void
rounds_upto_last (const V *k, V *x)
{
  ARMV8_UNROLL
  for (unsigned int r = FROM; r + 1 < ROUNDS; r++)
    {
      ARMV8_UNROLL
      for (int i = 0; i < N; i++)
        x[i] = DECRYPT ? vaesimcq_u8 (vaesdq_u8 (x[i], k[r]))
                       : vaesmcq_u8 (vaeseq_u8 (x[i], k[r]));
    }
  ARMV8_UNROLL
  for (int i = 0; i < N; i++)
    x[i] = DECRYPT ? vaesdq_u8 (x[i], k[ROUNDS - 1])
                   : vaeseq_u8 (x[i], k[ROUNDS - 1]);
}

} // namespace armv8_ce

#endif /* GCIPHER_ARMV8_CE_SIMD_H */
