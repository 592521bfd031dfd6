/* salsa20-internal.h - Salsa20 whole-block paths shared by salsa20.cpp
 * and its ISA back ends.
 *
 * The state is the Salsa20 specification's (section 9) sixteen 32-bit
 * words: constants in 0, 5, 10, 15; key in 1..4 and 11..14; nonce 6..7;
 * the 64-bit little-endian block counter in words 8 (low) and 9 (high),
 * wrapping at 2^64.
 */
#ifndef GCIPHER_SALSA20_INTERNAL_H
#define GCIPHER_SALSA20_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "cipher-internal.h"

#define SALSA20_BLOCKSIZE 64

/* x86 builds have the AVX2 path (cipher/Makefile.am, ARCH_X86), amd64
 * builds the AVX-512 one too (ARCH_X86_64).  */
#ifdef GCIPHER_ARCH_X86
# define SALSA20_USE_AVX2 1
# ifdef __x86_64__
#  define SALSA20_USE_AVX512 1
# endif
#endif

/* XOR NBLOCKS keystream blocks (64 bytes each) of STATE, with ROUNDS
 * rounds (20 or 12), into IN, writing OUT (IN == OUT allowed), and
 * advance the counter in words 8..9 by NBLOCKS.  Returns the stack burn
 * depth in bytes.  */
typedef unsigned int (*salsa20_blocks_fn) (uint32_t *state,
                                           unsigned char *out,
                                           const unsigned char *in,
                                           size_t nblocks, int rounds);

#ifdef SALSA20_USE_AVX512
/* AVX-512: sixteen blocks per pass (salsa20-avx512.cpp); the last
 * NBLOCKS % 16 go to the AVX2 function.  */
unsigned int _gcry_salsa20_avx512_blocks (uint32_t *state,
                                          unsigned char *out,
                                          const unsigned char *in,
                                          size_t nblocks, int rounds)
  GCIPHER_INTERNAL;
#endif
#ifdef SALSA20_USE_AVX2
/* AVX2: eight blocks per pass (salsa20-avx2.cpp); the last NBLOCKS % 8
 * go to the generic function.  */
unsigned int _gcry_salsa20_avx2_blocks (uint32_t *state, unsigned char *out,
                                        const unsigned char *in,
                                        size_t nblocks, int rounds)
  GCIPHER_INTERNAL;
#endif
/* The portable path (salsa20.cpp).  */
unsigned int _gcry_salsa20_generic_blocks (uint32_t *state,
                                           unsigned char *out,
                                           const unsigned char *in,
                                           size_t nblocks, int rounds)
  GCIPHER_INTERNAL;

#endif /* GCIPHER_SALSA20_INTERNAL_H */
