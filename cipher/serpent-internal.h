/* serpent-internal.h - Serpent: the context, the bitsliced S-box formulas,
 * the round function and the SIMD kernels every path shares.
 *
 * Serpent (Anderson, Biham, Knudsen, "Serpent: A Proposal for the
 * Advanced Encryption Standard", 1998) in its bitslice form (section 3 of
 * the proposal): the 128-bit block is four 32-bit words X0..X3 (little-
 * endian loads of the 16 block bytes, as libgcrypt and the NESSIE vectors
 * order them); each round XORs a round key, applies one of the eight
 * 4-bit S-boxes to the 32 bit columns at once (bit i of X0..X3 is the
 * input nibble's bit 0..3) and, except in the last round, the linear
 * transformation LT.  Round 31 ends with the XOR of round key 32.
 *
 * The S-boxes are computed as boolean formulas on whole words, never by
 * table look-up, so every path is constant time by construction.  The
 * formulas below were derived for gcipher by a small search program
 * (formula-size dynamic programming over the 2^16 four-input functions
 * with AND, OR, XOR, AND-NOT and NOT gates, outputs built one after the
 * other reusing the earlier ones' subterms, identical subterms merged;
 * of many orderings and tie-breaks, the forward S-boxes keep the circuit
 * of least depth, the inverse ones the fewest gates with a small depth
 * weight, the mix that measured fastest on the SIMD paths) from the
 * S-box tables of the proposal (section 2 / appendix); the VPTERNLOG
 * forms (AVX-512) by an exhaustive search over three-input functions.  Each is checked against the tables by the
 * self-test's known answers and by tests/t-serpent.cpp.
 *
 * One round engine, templated over an "Ops" type that says what a word
 * vector V is (uint32_t for the generic single-block code; 4, 8 or 16
 * blocks' words in an xmm/ymm/zmm register for the SIMD paths) and how to
 * rotate, shift, broadcast a key word and (for AVX-512) apply the ternary
 * S-box forms.  The SIMD kernels (serpent_simd<Ops>), which serve
 * cipher-batch-modes.h's mode drivers, are templates too and are
 * instantiated only in the ISA files, which are compiled with that ISA's
 * flags; this header itself uses no intrinsics.  The x86 Ops
 * (serpent-sse2.cpp, serpent-avx2.cpp, serpent-avx512.cpp) are
 * simd-x86.h's vector traits X1, Y2 and Z4 under these names
 * (serpent-x86.h's serpent_ops_x86) plus what each path has of its own;
 * the NEON one (serpent-neon.cpp) is written out.
 */
#ifndef GCIPHER_SERPENT_INTERNAL_H
#define GCIPHER_SERPENT_INTERNAL_H

#include <config.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <type_traits>
#include <utility>
#include "cipher-internal.h"
#include "cipher-batch-modes.h"

/* Serpent proposal 2: 32 rounds, 33 round keys of 128 bits.  */
#define SERPENT_ROUNDS 32

/* The path whose bulk slots the key was set up for (every path shares
 * the key layout and the generic single-block functions).  */
enum serpent_path : unsigned int
  {
    SERPENT_PATH_GENERIC = 0,
    SERPENT_PATH_SSE2 = 1,
    SERPENT_PATH_AVX2 = 2,
    SERPENT_PATH_AVX512 = 3,
    SERPENT_PATH_NEON = 4
  };

struct SERPENT_context
{
  /* Round keys K_0..K_32 (proposal 3, bitslice form): four words each,
   * word j XORed into X_j.  */
  alignas (64) uint32_t keys[SERPENT_ROUNDS + 1][4];
  /* Words 0 and 2 of K_1..K_31 rotated right by 5 and 22, for the
   * generic encryption's LT with the key folded in (serpent_lt_key);
   * row 0 and 32 unused.  */
  uint32_t keys_lt[SERPENT_ROUNDS + 1][2];
  serpent_path path;
};
/* serpent_enc_round finds keys_lt from the keys pointer.  */
static_assert (offsetof (SERPENT_context, keys) == 0);

/* ---- Generic path (serpent.cpp) ----------------------------------- */
/* One block, 16 bytes IN -> OUT (may alias).  Return the burn depth.  */
unsigned int _gcry_serpent_generic_encrypt (void *ctx, unsigned char *out,
                                            const unsigned char *in)
  GCIPHER_INTERNAL;
unsigned int _gcry_serpent_generic_decrypt (void *ctx, unsigned char *out,
                                            const unsigned char *in)
  GCIPHER_INTERNAL;

/* ---- SIMD paths (x86 only) ----------------------------------------- */
#ifdef GCIPHER_ARCH_X86
/* Blocks per full batch of each path (two interleaved sets of 4, 8 or
 * 16 blocks; one set on i386, which has 8 vector registers).  The
 * self-test runs lanes + 1 (CTR) and lanes + 2 (CBC, CFB) blocks.  */
#ifdef __x86_64__
#define SERPENT_SIMD_SETS 2
#else
#define SERPENT_SIMD_SETS 1
#endif
#define SERPENT_SSE2_LANES (4 * SERPENT_SIMD_SETS)
#define SERPENT_AVX2_LANES (8 * SERPENT_SIMD_SETS)
#define SERPENT_AVX512_LANES (16 * SERPENT_SIMD_SETS)
/* Fill ecb_crypt, cbc_dec, cfb_dec, ctr16be_enc, ctr32le_enc, xts_crypt,
 * ocb_crypt and ocb_auth.  */
void _gcry_serpent_sse2_fill_bulk (cipher_bulk_ops *bulk) GCIPHER_INTERNAL;
void _gcry_serpent_avx2_fill_bulk (cipher_bulk_ops *bulk) GCIPHER_INTERNAL;
void _gcry_serpent_avx512_fill_bulk (cipher_bulk_ops *bulk)
  GCIPHER_INTERNAL;
#endif

/* ---- NEON path (arm64: serpent-neon.cpp) ----------------------------
 * Two interleaved sets of 4 blocks (32 SIMD registers).  */
#ifdef GCIPHER_ARCH_AARCH64
#define SERPENT_SIMD_SETS 2
#define SERPENT_NEON_LANES (4 * SERPENT_SIMD_SETS)
/* The same slots as the x86 SIMD paths.  */
void _gcry_serpent_neon_fill_bulk (cipher_bulk_ops *bulk) GCIPHER_INTERNAL;
#endif

#define SERPENT_INLINE inline __attribute__ ((always_inline))
/* Fully unroll the loops over sets, words and vectors, so the arrays of
 * vectors live in registers.  */
#define SERPENT_UNROLL _Pragma ("GCC unroll 32")

/* ---- S-boxes S0..S7 and their inverses (two-input gates) ----------- */
/* ("N gates" counts AND/OR/XOR/AND-NOT/NOT operations.)  */
/* In: bit i of x0..x3 is bit 0..3 of the S-box input at column i; out:
 * likewise for the output.  */

/* 17 gates */
template <class V>
SERPENT_INLINE void
serpent_sbox0 (V &x0, V &x1, V &x2, V &x3)
{
  const V t6 = ~x3;
  const V t7 = x1 ^ x0;
  const V t8 = x2 & t7;
  const V t9 = t6 | t8;
  const V t4 = x0 | x2;
  const V t5 = ~x1 & t4;
  const V t10 = t5 ^ t9;
  const V t19 = x3 & x0;
  const V t11 = t7 ^ x3;
  const V t12 = x1 | t11;
  const V t13 = x2 ^ t12;
  const V t16 = t11 ^ x2;
  const V t14 = t7 ^ t13;
  const V t17 = t13 | t16;
  const V t18 = t4 ^ t17;
  const V t20 = t16 ^ t19;
  const V t15 = t10 ^ t14;
  const V y0 = t10;
  const V y1 = t15;
  const V y2 = t18;
  const V y3 = t20;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 19 gates */
template <class V>
SERPENT_INLINE void
serpent_sbox1 (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = ~x0 & x2;
  const V t5 = x1 ^ t4;
  const V t12 = x3 ^ x1;
  const V t13 = x0 ^ x1;
  const V t14 = t12 | t13;
  const V t20 = ~x0 & t12;
  const V t6 = x2 ^ x0;
  const V t16 = ~x3 & x2;
  const V t21 = t16 ^ t20;
  const V t17 = t5 | t16;
  const V t18 = t6 ^ t17;
  const V t7 = x3 & t6;
  const V t8 = ~t7;
  const V t9 = ~t5 & t8;
  const V t10 = x3 ^ t9;
  const V t11 = x2 ^ t10;
  const V t15 = t9 ^ t14;
  const V t19 = t8 ^ t18;
  const V t22 = t8 ^ t21;
  const V y0 = t19;
  const V y1 = t15;
  const V y2 = t22;
  const V y3 = t11;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 15 gates */
template <class V>
SERPENT_INLINE void
serpent_sbox2 (V &x0, V &x1, V &x2, V &x3)
{
  const V t5 = ~x0 & x3;
  const V t6 = x1 ^ t5;
  const V t4 = x1 ^ x2;
  const V t7 = t4 & t6;
  const V t8 = x0 ^ t7;
  const V t9 = x3 ^ t8;
  const V t10 = x0 & x2;
  const V t11 = x3 ^ t10;
  const V t12 = t4 ^ t11;
  const V t13 = t11 & t6;
  const V t14 = x2 ^ t13;
  const V t16 = ~t6;
  const V t17 = t14 ^ t16;
  const V t18 = x0 ^ t17;
  const V t15 = t9 ^ t14;
  const V y0 = t12;
  const V y1 = t15;
  const V y2 = t9;
  const V y3 = t18;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 18 gates */
template <class V>
SERPENT_INLINE void
serpent_sbox3 (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = ~x2 & x3;
  const V t5 = x0 | t4;
  const V t9 = ~x2 & x1;
  const V t10 = ~t9 & x0;
  const V t15 = x3 & x0;
  const V t16 = ~t15 & x1;
  const V t14 = ~x2 & t5;
  const V t17 = t14 ^ t16;
  const V t18 = x3 ^ t17;
  const V t19 = ~t16 & x3;
  const V t20 = t10 ^ t19;
  const V t21 = x2 ^ t20;
  const V t6 = ~x3 & x2;
  const V t11 = t6 | t10;
  const V t12 = x3 ^ t11;
  const V t7 = ~t6 & x1;
  const V t8 = t5 ^ t7;
  const V t13 = x1 ^ t12;
  const V y0 = t8;
  const V y1 = t18;
  const V y2 = t21;
  const V y3 = t13;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 19 gates */
template <class V>
SERPENT_INLINE void
serpent_sbox4 (V &x0, V &x1, V &x2, V &x3)
{
  const V t12 = ~x0;
  const V t13 = x1 ^ t12;
  const V t11 = x3 ^ x0;
  const V t14 = t11 | t13;
  const V t4 = x3 | x2;
  const V t16 = ~t13 & t4;
  const V t5 = x0 ^ t4;
  const V t17 = ~x3 & t5;
  const V t18 = t16 ^ t17;
  const V t20 = x0 & t14;
  const V t6 = x3 ^ x2;
  const V t15 = t6 ^ t14;
  const V t19 = t6 ^ t18;
  const V t7 = ~t6 & x1;
  const V t8 = t5 | t7;
  const V t9 = x1 ^ t8;
  const V t10 = x3 ^ t9;
  const V t21 = t7 ^ t20;
  const V t22 = x2 ^ t21;
  const V y0 = t15;
  const V y1 = t19;
  const V y2 = t10;
  const V y3 = t22;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 18 gates */
template <class V>
SERPENT_INLINE void
serpent_sbox5 (V &x0, V &x1, V &x2, V &x3)
{
  const V t11 = x0 ^ x3;
  const V t12 = x1 | t11;
  const V t15 = ~x1 & x2;
  const V t16 = x0 ^ t15;
  const V t17 = t12 & t16;
  const V t13 = x2 ^ t12;
  const V t5 = ~x0;
  const V t6 = x3 | t5;
  const V t14 = t6 ^ t13;
  const V t7 = x1 ^ t6;
  const V t4 = x2 & x0;
  const V t8 = ~t4 & t7;
  const V t9 = x3 ^ t8;
  const V t19 = ~x3 & t14;
  const V t20 = x0 ^ t19;
  const V t21 = x1 ^ t20;
  const V t10 = x2 ^ t9;
  const V t18 = t9 ^ t17;
  const V y0 = t14;
  const V y1 = t21;
  const V y2 = t18;
  const V y3 = t10;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 18 gates */
template <class V>
SERPENT_INLINE void
serpent_sbox6 (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = x0 ^ x2;
  const V t5 = x1 & t4;
  const V t6 = ~x2;
  const V t7 = x0 | t6;
  const V t8 = x3 ^ t7;
  const V t9 = t5 | t8;
  const V t12 = t6 ^ x1;
  const V t20 = ~t8 & x0;
  const V t21 = t12 ^ t20;
  const V t13 = x0 ^ x3;
  const V t14 = t12 & t13;
  const V t16 = t14 | x2;
  const V t17 = ~x3 & x1;
  const V t18 = t16 ^ t17;
  const V t15 = t9 ^ t14;
  const V t10 = x0 ^ t9;
  const V t11 = x1 ^ t10;
  const V t19 = x0 ^ t18;
  const V y0 = t11;
  const V y1 = t21;
  const V y2 = t15;
  const V y3 = t19;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 18 gates */
template <class V>
SERPENT_INLINE void
serpent_sbox7 (V &x0, V &x1, V &x2, V &x3)
{
  const V t6 = ~x0 & x3;
  const V t7 = x2 ^ t6;
  const V t15 = x2 ^ x1;
  const V t4 = x0 ^ x3;
  const V t18 = ~x3;
  const V t11 = ~x1 & x0;
  const V t19 = ~t11 & t18;
  const V t12 = ~t11 & t7;
  const V t13 = t4 ^ t12;
  const V t16 = t13 | t15;
  const V t17 = t4 ^ t16;
  const V t5 = x1 & t4;
  const V t8 = ~t5 & t7;
  const V t9 = x0 ^ t8;
  const V t20 = t8 | t19;
  const V t10 = x1 ^ t9;
  const V t14 = x1 ^ t13;
  const V t21 = t13 ^ t20;
  const V y0 = t21;
  const V y1 = t17;
  const V y2 = t10;
  const V y3 = t14;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 15 gates */
template <class V>
SERPENT_INLINE void
serpent_inv_sbox0 (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = ~x1;
  const V t5 = ~x0 & t4;
  const V t6 = x2 ^ t5;
  const V t9 = ~x0 & t6;
  const V t10 = x1 ^ t9;
  const V t14 = x0 ^ t4;
  const V t15 = x3 | t14;
  const V t7 = x3 ^ t6;
  const V t8 = t7 & t6;
  const V t11 = ~t8 & t10;
  const V t12 = x0 ^ t11;
  const V t16 = t11 ^ t15;
  const V t13 = t7 ^ t12;
  const V t17 = t16 | t13;
  const V t18 = t6 ^ t17;
  const V y0 = t13;
  const V y1 = t18;
  const V y2 = t7;
  const V y3 = t16;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 17 gates */
template <class V>
SERPENT_INLINE void
serpent_inv_sbox1 (V &x0, V &x1, V &x2, V &x3)
{
  const V t6 = ~x1;
  const V t7 = x0 ^ x3;
  const V t8 = ~x2 & t7;
  const V t9 = t6 | t8;
  const V t11 = t6 ^ t7;
  const V t19 = x3 | t6;
  const V t4 = x3 & x2;
  const V t5 = ~t4 & x0;
  const V t10 = t5 ^ t9;
  const V t12 = ~x0 & t11;
  const V t16 = t11 ^ x2;
  const V t13 = x2 ^ t12;
  const V t17 = t12 | t16;
  const V t18 = t4 ^ t17;
  const V t20 = t16 ^ t19;
  const V t14 = t10 ^ t13;
  const V t15 = x1 ^ t14;
  const V y0 = t10;
  const V y1 = t15;
  const V y2 = t18;
  const V y3 = t20;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 17 gates */
template <class V>
SERPENT_INLINE void
serpent_inv_sbox2 (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = ~x3 & x0;
  const V t5 = x1 | t4;
  const V t6 = ~x0 & x3;
  const V t7 = ~t6 & x2;
  const V t8 = t5 ^ t7;
  const V t10 = x2 ^ x3;
  const V t11 = ~t10 & x1;
  const V t12 = x0 ^ t11;
  const V t15 = ~x3;
  const V t16 = ~x1 & t15;
  const V t18 = ~t15 & x2;
  const V t13 = x2 ^ t12;
  const V t14 = t12 & t8;
  const V t17 = t14 | t16;
  const V t19 = t16 | t18;
  const V t9 = x0 ^ t8;
  const V t20 = t8 ^ t19;
  const V y0 = t13;
  const V y1 = t9;
  const V y2 = t20;
  const V y3 = t17;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 14 gates */
template <class V>
SERPENT_INLINE void
serpent_inv_sbox3 (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = ~x2 & x1;
  const V t5 = x0 ^ t4;
  const V t6 = x3 | t5;
  const V t7 = x1 ^ t6;
  const V t8 = x2 ^ t7;
  const V t9 = t8 ^ x3;
  const V t10 = ~t9 & t6;
  const V t11 = t7 ^ t10;
  const V t13 = x1 | t5;
  const V t14 = t10 ^ t13;
  const V t12 = t5 ^ t11;
  const V t15 = t8 | t14;
  const V t16 = t5 ^ t15;
  const V t17 = t16 ^ t14;
  const V y0 = t8;
  const V y1 = t16;
  const V y2 = t12;
  const V y3 = t17;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 16 gates */
template <class V>
SERPENT_INLINE void
serpent_inv_sbox4 (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = ~x1 & x0;
  const V t5 = x2 ^ t4;
  const V t6 = ~x3 & t5;
  const V t7 = x0 ^ t6;
  const V t8 = x1 ^ t7;
  const V t9 = ~x2 & x0;
  const V t10 = x3 | t9;
  const V t11 = t5 ^ t10;
  const V t12 = ~t11 & x2;
  const V t13 = ~t8;
  const V t14 = ~x3 & t13;
  const V t15 = t12 | t14;
  const V t16 = x0 ^ t15;
  const V t17 = ~t11 & x0;
  const V t18 = x3 ^ t17;
  const V t19 = t13 ^ t18;
  const V y0 = t19;
  const V y1 = t11;
  const V y2 = t16;
  const V y3 = t8;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 16 gates */
template <class V>
SERPENT_INLINE void
serpent_inv_sbox5 (V &x0, V &x1, V &x2, V &x3)
{
  const V t9 = ~x2 & x0;
  const V t10 = ~x1;
  const V t11 = t9 | t10;
  const V t4 = x0 & x3;
  const V t5 = x2 ^ t4;
  const V t12 = t5 ^ t11;
  const V t6 = x1 & t5;
  const V t7 = x3 ^ t6;
  const V t16 = ~t12 & x2;
  const V t8 = x0 ^ t7;
  const V t13 = x0 & t12;
  const V t14 = x1 ^ t13;
  const V t17 = ~x1 & t8;
  const V t18 = t16 ^ t17;
  const V t15 = t7 ^ t14;
  const V t19 = t7 ^ t18;
  const V y0 = t8;
  const V y1 = t15;
  const V y2 = t19;
  const V y3 = t12;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 17 gates */
template <class V>
SERPENT_INLINE void
serpent_inv_sbox6 (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = ~x2;
  const V t5 = x0 | t4;
  const V t6 = x1 ^ t5;
  const V t9 = x0 ^ t4;
  const V t7 = x3 ^ t6;
  const V t10 = ~t7 & x1;
  const V t11 = t9 | t10;
  const V t14 = ~x3 & t9;
  const V t18 = x0 ^ t14;
  const V t15 = t6 ^ t14;
  const V t8 = ~t6 & x2;
  const V t12 = t8 ^ t11;
  const V t16 = x2 ^ t15;
  const V t13 = x3 ^ t12;
  const V t17 = t12 ^ t16;
  const V t19 = t7 | t18;
  const V t20 = t16 ^ t19;
  const V y0 = t13;
  const V y1 = t7;
  const V y2 = t20;
  const V y3 = t17;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 17 gates */
template <class V>
SERPENT_INLINE void
serpent_inv_sbox7 (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = x0 | x1;
  const V t5 = x3 & t4;
  const V t6 = x0 & x1;
  const V t7 = x2 | t6;
  const V t8 = t5 ^ t7;
  const V t9 = t5 ^ x1;
  const V t10 = ~x3;
  const V t11 = t8 ^ t10;
  const V t12 = t9 | t11;
  const V t13 = x0 ^ t12;
  const V t14 = x2 & x0;
  const V t15 = ~t12 & x3;
  const V t16 = t14 ^ t15;
  const V t17 = t9 ^ t16;
  const V t18 = t13 | x3;
  const V t19 = t9 ^ t18;
  const V t20 = x2 ^ t19;
  const V y0 = t20;
  const V y1 = t13;
  const V y2 = t17;
  const V y3 = t8;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* ---- The same S-boxes as VPTERNLOG three-input functions ------------ */
/* Ops::tern<IMM> (a, b, c) is the bitwise function whose truth table is
 * IMM, indexed by (a << 2) | (b << 1) | c (the VPTERNLOGD convention).  */

/* 8 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_sbox0_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x87> (x0, x1, x3);
  const V t5 = Ops::template tern<0x53> (x0, x1, x3);
  const V t6 = Ops::template tern<0xca> (x2, t5, t4);
  const V t7 = Ops::template tern<0x1d> (x0, x1, x3);
  const V t8 = Ops::template tern<0x69> (t7, x2, t6);
  const V t9 = Ops::template tern<0x36> (x0, x1, x3);
  const V t10 = Ops::template tern<0xe1> (t9, t6, t8);
  const V t11 = Ops::template tern<0x66> (x0, x2, t9);
  const V y0 = t8;
  const V y1 = t6;
  const V y2 = t10;
  const V y3 = t11;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 8 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_sbox1_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x25> (x1, x2, x3);
  const V t5 = Ops::template tern<0x6b> (x1, x2, x3);
  const V t6 = Ops::template tern<0xca> (x0, t5, t4);
  const V t7 = Ops::template tern<0x2b> (x0, x1, x3);
  const V t8 = Ops::template tern<0x69> (t7, x2, t6);
  const V t9 = Ops::template tern<0x59> (x0, x1, x2);
  const V t10 = Ops::template tern<0xb4> (t9, t6, t8);
  const V t11 = Ops::template tern<0x66> (x0, x3, t9);
  const V y0 = t10;
  const V y1 = t8;
  const V y2 = t11;
  const V y3 = t6;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 8 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_sbox2_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x0a> (x0, x1, x2);
  const V t5 = Ops::template tern<0x96> (t4, x1, x3);
  const V t6 = Ops::template tern<0x38> (x0, x3, t5);
  const V t7 = Ops::template tern<0xb4> (t6, x1, x2);
  const V t8 = Ops::template tern<0x3a> (x0, x2, t6);
  const V t9 = Ops::template tern<0x1e> (t8, x1, t5);
  const V t10 = Ops::template tern<0x16> (x0, x1, x2);
  const V t11 = Ops::template tern<0x87> (t10, x1, x3);
  const V y0 = t5;
  const V y1 = t9;
  const V y2 = t7;
  const V y3 = t11;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 9 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_sbox3_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0xf2> (x0, x2, x3);
  const V t5 = Ops::template tern<0x49> (x0, x2, x3);
  const V t6 = Ops::template tern<0xca> (x1, t5, t4);
  const V t7 = Ops::template tern<0x19> (x0, x1, x3);
  const V t8 = Ops::template tern<0x2d> (t7, x2, t4);
  const V t9 = Ops::template tern<0x76> (x0, x1, x2);
  const V t10 = Ops::template tern<0x78> (t9, x3, t4);
  const V t11 = Ops::template tern<0x1a> (x0, x1, x2);
  const V t12 = Ops::template tern<0xb4> (t11, x3, t7);
  const V y0 = t6;
  const V y1 = t8;
  const V y2 = t12;
  const V y3 = t10;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 8 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_sbox4_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x24> (x0, x1, x3);
  const V t5 = Ops::template tern<0x69> (t4, x2, x3);
  const V t6 = Ops::template tern<0x34> (x0, x2, x3);
  const V t7 = Ops::template tern<0x36> (t6, x1, t4);
  const V t8 = Ops::template tern<0x3a> (x0, x3, t5);
  const V t9 = Ops::template tern<0xe9> (t8, x1, t6);
  const V t10 = Ops::template tern<0x58> (x0, x1, x3);
  const V t11 = Ops::template tern<0x1e> (t10, x1, x2);
  const V y0 = t5;
  const V y1 = t9;
  const V y2 = t7;
  const V y3 = t11;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 8 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_sbox5_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x24> (x0, x1, x3);
  const V t5 = Ops::template tern<0x69> (t4, x2, x3);
  const V t6 = Ops::template tern<0x3c> (x0, x1, x2);
  const V t7 = Ops::template tern<0xd2> (t6, x3, t5);
  const V t8 = Ops::template tern<0x1b> (x1, x3, t5);
  const V t9 = Ops::template tern<0x78> (t8, t6, t7);
  const V t10 = Ops::template tern<0x46> (x0, x1, t5);
  const V t11 = Ops::template tern<0xe1> (t10, x3, t9);
  const V y0 = t5;
  const V y1 = t7;
  const V y2 = t9;
  const V y3 = t11;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 9 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_sbox6_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x29> (x1, x2, x3);
  const V t5 = Ops::template tern<0x7a> (x1, x2, x3);
  const V t6 = Ops::template tern<0xca> (x0, t5, t4);
  const V t7 = Ops::template tern<0x66> (x0, x1, x2);
  const V t8 = Ops::template tern<0x87> (t7, x0, x3);
  const V t9 = Ops::template tern<0x7c> (x0, x1, t8);
  const V t10 = Ops::template tern<0x1e> (t9, x3, t4);
  const V t11 = Ops::template tern<0x4a> (x0, x1, x2);
  const V t12 = Ops::template tern<0x92> (t11, t4, t5);
  const V y0 = t6;
  const V y1 = t8;
  const V y2 = t10;
  const V y3 = t12;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 8 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_sbox7_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x46> (x0, x1, x2);
  const V t5 = Ops::template tern<0xb4> (t4, x0, x3);
  const V t6 = Ops::template tern<0x1a> (x0, x1, x3);
  const V t7 = Ops::template tern<0x1e> (t6, x2, t5);
  const V t8 = Ops::template tern<0x34> (x2, x3, t7);
  const V t9 = Ops::template tern<0x87> (t8, x0, x1);
  const V t10 = Ops::template tern<0x51> (x0, x2, t6);
  const V t11 = Ops::template tern<0x96> (t10, t4, t9);
  const V y0 = t9;
  const V y1 = t7;
  const V y2 = t11;
  const V y3 = t5;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 9 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_inv_sbox0_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x5b> (x1, x2, x3);
  const V t5 = Ops::template tern<0x29> (x1, x2, x3);
  const V t6 = Ops::template tern<0xca> (x0, t5, t4);
  const V t7 = Ops::template tern<0x79> (x0, x1, t4);
  const V t8 = Ops::template tern<0x78> (t7, x2, t6);
  const V t9 = Ops::template tern<0x03> (x0, x1, x2);
  const V t10 = Ops::template tern<0x96> (t9, x2, x3);
  const V t11 = Ops::template tern<0x1b> (x0, x1, x3);
  const V t12 = Ops::template tern<0x96> (t11, t6, t10);
  const V y0 = t6;
  const V y1 = t8;
  const V y2 = t10;
  const V y3 = t12;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 8 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_inv_sbox1_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x2f> (x1, x2, x3);
  const V t5 = Ops::template tern<0x68> (x1, x2, x3);
  const V t6 = Ops::template tern<0xca> (x0, t5, t4);
  const V t7 = Ops::template tern<0x3a> (x0, x1, x3);
  const V t8 = Ops::template tern<0x69> (t7, x2, t6);
  const V t9 = Ops::template tern<0x2d> (x0, x1, x3);
  const V t10 = Ops::template tern<0xd2> (t9, t6, t8);
  const V t11 = Ops::template tern<0x99> (x0, x2, t9);
  const V y0 = t6;
  const V y1 = t8;
  const V y2 = t10;
  const V y3 = t11;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 8 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_inv_sbox2_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x1e> (x0, x1, x2);
  const V t5 = Ops::template tern<0x78> (t4, x1, x3);
  const V t6 = Ops::template tern<0xb4> (x1, x2, x3);
  const V t7 = Ops::template tern<0xc6> (x1, x2, x3);
  const V t8 = Ops::template tern<0xca> (x0, t7, t6);
  const V t9 = Ops::template tern<0xc5> (x0, t6, t7);
  const V t10 = Ops::template tern<0x79> (x0, x1, x3);
  const V t11 = Ops::template tern<0x94> (t10, t6, t7);
  const V y0 = t5;
  const V y1 = t8;
  const V y2 = t9;
  const V y3 = t11;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 8 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_inv_sbox3_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x2c> (x1, x2, x3);
  const V t5 = Ops::template tern<0x1e> (t4, x0, x3);
  const V t6 = Ops::template tern<0x68> (x0, x1, x3);
  const V t7 = Ops::template tern<0xb4> (t6, x2, t5);
  const V t8 = Ops::template tern<0x1c> (x0, x1, t7);
  const V t9 = Ops::template tern<0xb4> (t8, x2, x3);
  const V t10 = Ops::template tern<0x6c> (x0, x1, t9);
  const V t11 = Ops::template tern<0x94> (t10, t5, t6);
  const V y0 = t5;
  const V y1 = t11;
  const V y2 = t7;
  const V y3 = t9;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 8 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_inv_sbox4_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x76> (x0, x2, x3);
  const V t5 = Ops::template tern<0xb4> (t4, x0, x1);
  const V t6 = Ops::template tern<0x59> (x0, x1, x2);
  const V t7 = Ops::template tern<0x4b> (t6, x3, t5);
  const V t8 = Ops::template tern<0x60> (x0, x1, t4);
  const V t9 = Ops::template tern<0x69> (t8, x3, t7);
  const V t10 = Ops::template tern<0x62> (x0, x1, x3);
  const V t11 = Ops::template tern<0x94> (t10, t6, t8);
  const V y0 = t9;
  const V y1 = t5;
  const V y2 = t11;
  const V y3 = t7;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 8 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_inv_sbox5_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x16> (x0, x1, x3);
  const V t5 = Ops::template tern<0xb4> (t4, x1, x2);
  const V t6 = Ops::template tern<0x35> (x0, x2, t5);
  const V t7 = Ops::template tern<0x69> (t6, x3, t4);
  const V t8 = Ops::template tern<0x43> (x0, x2, x3);
  const V t9 = Ops::template tern<0x4b> (t8, x1, t4);
  const V t10 = Ops::template tern<0x26> (x0, x1, x2);
  const V t11 = Ops::template tern<0x87> (t10, x0, x3);
  const V y0 = t5;
  const V y1 = t7;
  const V y2 = t9;
  const V y3 = t11;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 8 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_inv_sbox6_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x65> (x0, x2, x3);
  const V t5 = Ops::template tern<0xb1> (x0, x2, x3);
  const V t6 = Ops::template tern<0xca> (x1, t5, t4);
  const V t7 = Ops::template tern<0x0a> (x0, x1, x2);
  const V t8 = Ops::template tern<0x69> (t7, x1, x3);
  const V t9 = Ops::template tern<0x3a> (x1, t4, t5);
  const V t10 = Ops::template tern<0x63> (x0, x1, x2);
  const V t11 = Ops::template tern<0xd2> (t10, t5, t8);
  const V y0 = t6;
  const V y1 = t8;
  const V y2 = t11;
  const V y3 = t9;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* 9 ternary ops */
template <class Ops, class V>
SERPENT_INLINE void
serpent_inv_sbox7_tern (V &x0, V &x1, V &x2, V &x3)
{
  const V t4 = Ops::template tern<0x67> (x1, x2, x3);
  const V t5 = Ops::template tern<0x38> (x1, x2, x3);
  const V t6 = Ops::template tern<0xca> (x0, t5, t4);
  const V t7 = Ops::template tern<0x3e> (x0, x2, x3);
  const V t8 = Ops::template tern<0x96> (t7, x1, t4);
  const V t9 = Ops::template tern<0x1c> (x0, x1, x3);
  const V t10 = Ops::template tern<0xd2> (t9, x2, t7);
  const V t11 = Ops::template tern<0x2d> (x0, x1, x3);
  const V t12 = Ops::template tern<0x86> (t11, t4, t7);
  const V y0 = t6;
  const V y1 = t8;
  const V y2 = t10;
  const V y3 = t12;
  x0 = y0;
  x1 = y1;
  x2 = y2;
  x3 = y3;
}

/* ---- Dispatch by (compile-time) S-box number ----------------------- */

template <int I, class V>
SERPENT_INLINE void
serpent_sbox (V &x0, V &x1, V &x2, V &x3)
{
  if constexpr (I == 0) serpent_sbox0 (x0, x1, x2, x3);
  else if constexpr (I == 1) serpent_sbox1 (x0, x1, x2, x3);
  else if constexpr (I == 2) serpent_sbox2 (x0, x1, x2, x3);
  else if constexpr (I == 3) serpent_sbox3 (x0, x1, x2, x3);
  else if constexpr (I == 4) serpent_sbox4 (x0, x1, x2, x3);
  else if constexpr (I == 5) serpent_sbox5 (x0, x1, x2, x3);
  else if constexpr (I == 6) serpent_sbox6 (x0, x1, x2, x3);
  else serpent_sbox7 (x0, x1, x2, x3);
}

template <int I, class V>
SERPENT_INLINE void
serpent_inv_sbox (V &x0, V &x1, V &x2, V &x3)
{
  if constexpr (I == 0) serpent_inv_sbox0 (x0, x1, x2, x3);
  else if constexpr (I == 1) serpent_inv_sbox1 (x0, x1, x2, x3);
  else if constexpr (I == 2) serpent_inv_sbox2 (x0, x1, x2, x3);
  else if constexpr (I == 3) serpent_inv_sbox3 (x0, x1, x2, x3);
  else if constexpr (I == 4) serpent_inv_sbox4 (x0, x1, x2, x3);
  else if constexpr (I == 5) serpent_inv_sbox5 (x0, x1, x2, x3);
  else if constexpr (I == 6) serpent_inv_sbox6 (x0, x1, x2, x3);
  else serpent_inv_sbox7 (x0, x1, x2, x3);
}

template <class Ops, int I, class V>
SERPENT_INLINE void
serpent_sbox_tern (V &x0, V &x1, V &x2, V &x3)
{
  if constexpr (I == 0) serpent_sbox0_tern<Ops> (x0, x1, x2, x3);
  else if constexpr (I == 1) serpent_sbox1_tern<Ops> (x0, x1, x2, x3);
  else if constexpr (I == 2) serpent_sbox2_tern<Ops> (x0, x1, x2, x3);
  else if constexpr (I == 3) serpent_sbox3_tern<Ops> (x0, x1, x2, x3);
  else if constexpr (I == 4) serpent_sbox4_tern<Ops> (x0, x1, x2, x3);
  else if constexpr (I == 5) serpent_sbox5_tern<Ops> (x0, x1, x2, x3);
  else if constexpr (I == 6) serpent_sbox6_tern<Ops> (x0, x1, x2, x3);
  else serpent_sbox7_tern<Ops> (x0, x1, x2, x3);
}

template <class Ops, int I, class V>
SERPENT_INLINE void
serpent_inv_sbox_tern (V &x0, V &x1, V &x2, V &x3)
{
  if constexpr (I == 0) serpent_inv_sbox0_tern<Ops> (x0, x1, x2, x3);
  else if constexpr (I == 1) serpent_inv_sbox1_tern<Ops> (x0, x1, x2, x3);
  else if constexpr (I == 2) serpent_inv_sbox2_tern<Ops> (x0, x1, x2, x3);
  else if constexpr (I == 3) serpent_inv_sbox3_tern<Ops> (x0, x1, x2, x3);
  else if constexpr (I == 4) serpent_inv_sbox4_tern<Ops> (x0, x1, x2, x3);
  else if constexpr (I == 5) serpent_inv_sbox5_tern<Ops> (x0, x1, x2, x3);
  else if constexpr (I == 6) serpent_inv_sbox6_tern<Ops> (x0, x1, x2, x3);
  else serpent_inv_sbox7_tern<Ops> (x0, x1, x2, x3);
}

/* ---- Round engine ---------------------------------------------------- */
/* Ops supplies: typedef V; key (kr, j) = word j of round key KR in every
 * lane; rol<N>, shl<N>; xor3 (a, b, c); sbox<I>, inv_sbox<I> (x0..x3);
 * the flags TERN (VPTERNLOG S-boxes), INTERLEAVE (sets as one
 * serpent_multi), ROUND_LOOP (rounds 0..23 as a loop, see
 * serpent_crypt_sets) and PIN (set-by-set rounds, see serpent_pin).
 * S independent sets of four word vectors are processed side by side
 * (their instructions interleave), each set its own blocks.  */

/* X ^= K (proposal 3: the key mixing of every round).  */
template <class Ops, int S, class V>
SERPENT_INLINE void
serpent_key_mix (const uint32_t *kr, V (&x)[S][4])
{
  SERPENT_UNROLL
  for (int j = 0; j < 4; j++)
    {
      const V k = Ops::key (kr, j);
      SERPENT_UNROLL
      for (int s = 0; s < S; s++)
        x[s][j] ^= k;
    }
}

/* LT, proposal 3 (bitslice form):
 *   X0 <<<= 13; X2 <<<= 3; X1 ^= X0 ^ X2; X3 ^= X2 ^ (X0 << 3);
 *   X1 <<<= 1; X3 <<<= 7; X0 ^= X1 ^ X3; X2 ^= X3 ^ (X1 << 7);
 *   X0 <<<= 5; X2 <<<= 22.  */
/* LT's first half: up to the rotations of X1 and X3.  */
template <class Ops, class V>
SERPENT_INLINE void
serpent_lt_head (V &x0, V &x1, V &x2, V &x3)
{
  x0 = Ops::template rol<13> (x0);
  x2 = Ops::template rol<3> (x2);
  x1 = Ops::xor3 (x1, x0, x2);
  x3 = Ops::xor3 (x3, x2, Ops::template shl<3> (x0));
  x1 = Ops::template rol<1> (x1);
  x3 = Ops::template rol<7> (x3);
}

template <class Ops, class V>
SERPENT_INLINE void
serpent_lt (V &x0, V &x1, V &x2, V &x3)
{
  serpent_lt_head<Ops> (x0, x1, x2, x3);
  x0 = Ops::xor3 (x0, x1, x3);
  x2 = Ops::xor3 (x2, x3, Ops::template shl<7> (x1));
  x0 = Ops::template rol<5> (x0);
  x2 = Ops::template rol<22> (x2);
}

/* LT followed by the next round's key mixing with KR, for one block in
 * general registers (serpent_ops_u32), where a round is bound by its
 * dependency chain.  X0 and X2 come out of LT last (rotated by 5 and 22
 * after two XOR levels); their key words, rotated right by as much (off
 * the chain: the key does not depend on the data), go in before the
 * rotation, XORed first into the early input: (X0 ^ (K0 >>> 5)) ^ X1 ^ X3,
 * then <<< 5, equals the XOR of K0 after it, one step earlier.  */
template <class Ops, class V>
SERPENT_INLINE void
serpent_lt_key (V &x0, V &x1, V &x2, V &x3, const uint32_t *kr,
                const uint32_t *kr_lt)
{
  serpent_lt_head<Ops> (x0, x1, x2, x3);
  x0 = Ops::xor3 (x0 ^ Ops::key (kr_lt, 0), x1, x3);
  x2 = Ops::xor3 (x2 ^ Ops::key (kr_lt, 1), x3, Ops::template shl<7> (x1));
  x1 ^= Ops::key (kr, 1);
  x3 ^= Ops::key (kr, 3);
  x0 = Ops::template rol<5> (x0);
  x2 = Ops::template rol<22> (x2);
}

/* LT^-1: the steps of LT undone in reverse order.  */
template <class Ops, class V>
SERPENT_INLINE void
serpent_inv_lt (V &x0, V &x1, V &x2, V &x3)
{
  x2 = Ops::template rol<10> (x2);
  x0 = Ops::template rol<27> (x0);
  x2 = Ops::xor3 (x2, x3, Ops::template shl<7> (x1));
  x0 = Ops::xor3 (x0, x1, x3);
  x3 = Ops::template rol<25> (x3);
  x1 = Ops::template rol<31> (x1);
  x3 = Ops::xor3 (x3, x2, Ops::template shl<3> (x0));
  x1 = Ops::xor3 (x1, x0, x2);
  x2 = Ops::template rol<29> (x2);
  x0 = Ops::template rol<19> (x0);
}

/* X ^= K for one set.  */
template <class Ops, class V>
SERPENT_INLINE void
serpent_key_mix1 (const uint32_t *kr, V (&x)[4])
{
  SERPENT_UNROLL
  for (int j = 0; j < 4; j++)
    x[j] ^= Ops::key (kr, j);
}

/* With Ops::PIN, an empty asm that takes and returns the four words of a
 * set in vector registers.  It is an ordering point for the compiler: a
 * round is then computed set by set, each S-box (and, encrypting, each
 * LT) as a unit, instead of the sets' formulas being interleaved, whose
 * temporaries together do not fit in 16 vector registers and were
 * spilled (a store and a reload in the dependency chain).  The
 * out-of-order core overlaps the sets by itself.  Measured on Zen 4 (GCC
 * 12): 5-7% faster with SSE2 and AVX2; decryption is fastest without a
 * pin after LT^-1.  */
template <class Ops, class V>
SERPENT_INLINE void
serpent_pin (V (&x)[4])
{
#if defined(__x86_64__) || defined(__i386__)
  if constexpr (Ops::PIN)
    asm volatile ("" : "+x" (x[0]), "+x" (x[1]), "+x" (x[2]), "+x" (x[3]));
#else
  /* The SIMD paths with PIN are x86; elsewhere (generic, NEON) nothing
   * pins.  */
  static_assert (!Ops::PIN);
  (void) x;
#endif
}

/* Round R (0..31) of the encryption: key mixing with K_R, S_(R mod 8),
 * then LT, or in round 31 the XOR of K_32.  */
template <class Ops, int R, int S, class V>
SERPENT_INLINE void
serpent_enc_round (const uint32_t (*k)[4], V (&x)[S][4])
{
  if constexpr (Ops::PIN)
    {
      SERPENT_UNROLL
      for (int s = 0; s < S; s++)
        {
          serpent_key_mix1<Ops> (k[R], x[s]);
          Ops::template sbox<R % 8> (x[s][0], x[s][1], x[s][2], x[s][3]);
          serpent_pin<Ops> (x[s]);
          if constexpr (R < SERPENT_ROUNDS - 1)
            serpent_lt<Ops> (x[s][0], x[s][1], x[s][2], x[s][3]);
          else
            serpent_key_mix1<Ops> (k[SERPENT_ROUNDS], x[s]);
          serpent_pin<Ops> (x[s]);
        }
      return;
    }
  if constexpr (requires { requires Ops::FUSE_KEY; })
    {
      /* One block in general registers: LT takes the next round's key
       * (serpent_lt_key), so only round 0 mixes its key here.  */
      static_assert (S == 1);
      /* K is ctx->keys (rounds not looped), the context's first member.  */
      const SERPENT_context *ctx = (const SERPENT_context *)k;
      if constexpr (R == 0)
        serpent_key_mix<Ops> (k[0], x);
      Ops::template sbox<R % 8> (x[0][0], x[0][1], x[0][2], x[0][3]);
      if constexpr (R < SERPENT_ROUNDS - 1)
        serpent_lt_key<Ops> (x[0][0], x[0][1], x[0][2], x[0][3], k[R + 1],
                             ctx->keys_lt[R + 1]);
      else
        serpent_key_mix<Ops> (k[SERPENT_ROUNDS], x);
      return;
    }
  serpent_key_mix<Ops> (k[R], x);
  SERPENT_UNROLL
  for (int s = 0; s < S; s++)
    Ops::template sbox<R % 8> (x[s][0], x[s][1], x[s][2], x[s][3]);
  if constexpr (R < SERPENT_ROUNDS - 1)
    {
      SERPENT_UNROLL
      for (int s = 0; s < S; s++)
        serpent_lt<Ops> (x[s][0], x[s][1], x[s][2], x[s][3]);
    }
  else
    serpent_key_mix<Ops> (k[SERPENT_ROUNDS], x);
}

/* Round R of the decryption (run R = 31 .. 0): the inverse steps.  */
template <class Ops, int R, int S, class V>
SERPENT_INLINE void
serpent_dec_round (const uint32_t (*k)[4], V (&x)[S][4])
{
  if constexpr (Ops::PIN)
    {
      SERPENT_UNROLL
      for (int s = 0; s < S; s++)
        {
          if constexpr (R < SERPENT_ROUNDS - 1)
            serpent_inv_lt<Ops> (x[s][0], x[s][1], x[s][2], x[s][3]);
          else
            serpent_key_mix1<Ops> (k[SERPENT_ROUNDS], x[s]);
          Ops::template inv_sbox<R % 8> (x[s][0], x[s][1], x[s][2], x[s][3]);
          serpent_pin<Ops> (x[s]);
          serpent_key_mix1<Ops> (k[R], x[s]);
        }
      return;
    }
  if constexpr (R < SERPENT_ROUNDS - 1)
    {
      SERPENT_UNROLL
      for (int s = 0; s < S; s++)
        serpent_inv_lt<Ops> (x[s][0], x[s][1], x[s][2], x[s][3]);
    }
  else
    serpent_key_mix<Ops> (k[SERPENT_ROUNDS], x);
  SERPENT_UNROLL
  for (int s = 0; s < S; s++)
    Ops::template inv_sbox<R % 8> (x[s][0], x[s][1], x[s][2], x[s][3]);
  serpent_key_mix<Ops> (k[R], x);
}

template <class Ops, int S, class V, int... R>
SERPENT_INLINE void
serpent_enc_rounds (const uint32_t (*k)[4], V (&x)[S][4],
                    std::integer_sequence<int, R...>)
{
  (serpent_enc_round<Ops, R> (k, x), ...);
}

/* Rounds BASE + N - 1 - R for R = 0..N-1 (the highest first).  */
template <class Ops, int BASE = 0, int S, class V, int... R>
SERPENT_INLINE void
serpent_dec_rounds (const uint32_t (*k)[4], V (&x)[S][4],
                    std::integer_sequence<int, R...>)
{
  constexpr int N = sizeof... (R);
  (serpent_dec_round<Ops, BASE + N - 1 - R> (k, x), ...);
}

/* S vectors handled as one: each operation is applied to the S
 * vectors in turn, so the formulas of S independent sets interleave
 * instruction by instruction (more independent work in flight).  */
template <class Ops, int S>
struct serpent_multi
{
  typename Ops::V v[S];
#define SERPENT_MULTI_OP(op)                                              \
  friend SERPENT_INLINE serpent_multi                                     \
  operator op (const serpent_multi &a, const serpent_multi &b)            \
  {                                                                       \
    serpent_multi r;                                                      \
    SERPENT_UNROLL                                                        \
    for (int s = 0; s < S; s++)                                           \
      r.v[s] = a.v[s] op b.v[s];                                          \
    return r;                                                             \
  }
  SERPENT_MULTI_OP (&)
  SERPENT_MULTI_OP (|)
  SERPENT_MULTI_OP (^)
#undef SERPENT_MULTI_OP
  friend SERPENT_INLINE serpent_multi
  operator~ (const serpent_multi &a)
  {
    serpent_multi r;
    SERPENT_UNROLL
    for (int s = 0; s < S; s++)
      r.v[s] = ~a.v[s];
    return r;
  }
  SERPENT_INLINE serpent_multi &
  operator^= (const serpent_multi &b)
  {
    SERPENT_UNROLL
    for (int s = 0; s < S; s++)
      v[s] ^= b.v[s];
    return *this;
  }
};

/* Ops over serpent_multi<Ops, S>, elementwise.  (The multi type is
 * named by Ops, not by its vector type, whose attributes a template
 * argument would drop.)  */
template <class Ops, int S>
struct serpent_multi_ops
{
  typedef serpent_multi<Ops, S> V;
  static constexpr bool TERN = Ops::TERN, INTERLEAVE = false;
  static constexpr bool ROUND_LOOP = Ops::ROUND_LOOP;
  static constexpr bool PIN = false;
  static SERPENT_INLINE V
  key (const uint32_t *kr, int j)
  {
    V r;
    const typename Ops::V k = Ops::key (kr, j);
    SERPENT_UNROLL
    for (int s = 0; s < S; s++)
      r.v[s] = k;
    return r;
  }
#define SERPENT_MULTI_FN(expr)                                            \
  {                                                                       \
    V r;                                                                  \
    SERPENT_UNROLL                                                        \
    for (int s = 0; s < S; s++)                                           \
      r.v[s] = expr;                                                      \
    return r;                                                             \
  }
  template <int N> static SERPENT_INLINE V rol (V x)
  SERPENT_MULTI_FN (Ops::template rol<N> (x.v[s]))
  template <int N> static SERPENT_INLINE V shl (V x)
  SERPENT_MULTI_FN (Ops::template shl<N> (x.v[s]))
  static SERPENT_INLINE V xor3 (V a, V b, V c)
  SERPENT_MULTI_FN (Ops::xor3 (a.v[s], b.v[s], c.v[s]))
  template <int IMM> static SERPENT_INLINE V tern (V a, V b, V c)
  SERPENT_MULTI_FN (Ops::template tern<IMM> (a.v[s], b.v[s], c.v[s]))
#undef SERPENT_MULTI_FN
  template <int I> static SERPENT_INLINE void
  sbox (V &a, V &b, V &c, V &d)
  {
    if constexpr (Ops::TERN)
      serpent_sbox_tern<serpent_multi_ops, I> (a, b, c, d);
    else
      serpent_sbox<I> (a, b, c, d);
  }
  template <int I> static SERPENT_INLINE void
  inv_sbox (V &a, V &b, V &c, V &d)
  {
    if constexpr (Ops::TERN)
      serpent_inv_sbox_tern<serpent_multi_ops, I> (a, b, c, d);
    else
      serpent_inv_sbox<I> (a, b, c, d);
  }
};

/* The 32 rounds on S sets of word vectors (proposal 3).  With
 * Ops::INTERLEAVE the sets run as one serpent_multi.  With
 * Ops::ROUND_LOOP the rounds 0..23 (encryption; 23..0 decryption) run
 * as a loop of three eight-round groups (the S-box sequence repeats
 * every eight rounds) and only rounds 24..31 are unrolled separately:
 * half the code of the fully unrolled form, so the kernel stays in the
 * decoded-op cache instead of running at the legacy decoders' rate.  */
template <class Ops, bool DECRYPT, int S, class V>
SERPENT_INLINE void
serpent_crypt_sets (const SERPENT_context *ctx, V (&x)[S][4])
{
  if constexpr (S > 1 && Ops::INTERLEAVE)
    {
      typedef serpent_multi_ops<Ops, S> M;
      typename M::V y[1][4];
      SERPENT_UNROLL
      for (int j = 0; j < 4; j++)
        SERPENT_UNROLL
        for (int s = 0; s < S; s++)
          y[0][j].v[s] = x[s][j];
      serpent_crypt_sets<M, DECRYPT> (ctx, y);
      SERPENT_UNROLL
      for (int j = 0; j < 4; j++)
        SERPENT_UNROLL
        for (int s = 0; s < S; s++)
          x[s][j] = y[0][j].v[s];
    }
  else if constexpr (Ops::ROUND_LOOP)
    {
      /* Rounds 8g + r with K_(8g + r) = (keys + 8g)[r]; none of rounds
       * 0..23 is the last, so the group's rounds are those of 0..7.  */
      typedef std::make_integer_sequence<int, 8> group;
      if constexpr (DECRYPT)
        {
          serpent_dec_rounds<Ops, 24> (ctx->keys, x, group ());
#pragma GCC unroll 1
          for (int g = 2; g >= 0; g--)
            serpent_dec_rounds<Ops> (ctx->keys + 8 * g, x, group ());
        }
      else
        {
#pragma GCC unroll 1
          for (int g = 0; g < 3; g++)
            serpent_enc_rounds<Ops> (ctx->keys + 8 * g, x, group ());
          serpent_enc_rounds<Ops> (ctx->keys, x,
                                   std::integer_sequence<int, 24, 25, 26, 27,
                                                         28, 29, 30, 31> ());
        }
    }
  else if constexpr (DECRYPT)
    serpent_dec_rounds<Ops> (ctx->keys, x,
                             std::make_integer_sequence<int, SERPENT_ROUNDS> ());
  else
    serpent_enc_rounds<Ops> (ctx->keys, x,
                             std::make_integer_sequence<int, SERPENT_ROUNDS> ());
}

/* Ops for one block in four uint32_t (the generic path, the key
 * schedule).  */
struct serpent_ops_u32
{
  typedef uint32_t V;
  static constexpr bool TERN = false, INTERLEAVE = false, ROUND_LOOP = false;
  static constexpr bool PIN = false, FUSE_KEY = true;
  static SERPENT_INLINE V key (const uint32_t *kr, int j) { return kr[j]; }
  template <int N> static SERPENT_INLINE V rol (V x)
  { return (x << N) | (x >> (32 - N)); }
  template <int N> static SERPENT_INLINE V shl (V x) { return x << N; }
  static SERPENT_INLINE V xor3 (V a, V b, V c) { return a ^ b ^ c; }
  template <int I> static SERPENT_INLINE void sbox (V &a, V &b, V &c, V &d)
  { serpent_sbox<I> (a, b, c, d); }
  template <int I> static SERPENT_INLINE void inv_sbox (V &a, V &b, V &c,
                                                        V &d)
  { serpent_inv_sbox<I> (a, b, c, d); }
};

/* ---- SIMD kernels --------------------------------------------------- */
/* Ops (an ISA file's) adds to the round-engine members:
 *   BPV        blocks per vector in the block domain (1, 2, 4), SETS;
 *   BURN       stack bytes its kernels may leave secrets in (0 if none;
 *              spills go to the frame and, in leaf code, the 128-byte red
 *              zone below it);
 *   zero (), loadn (p0, p1, n): the first N (0..BPV) blocks of a
 *              vector, the first at P0, the others from P1 on (the
 *              other lanes zero), each a 16-byte load (they forward
 *              from cipher-batch-modes.h's 16-byte stores, which a wider
 *              load spanning several would not);
 *   storen (p, v, n): the first N blocks to P (the others untouched);
 *   transpose (v0..v3): block domain <-> word slices (an involution:
 *              4x4 32-bit transpose inside each 128-bit lane);
 *   clear (): zero every vector register the kernels use.
 * A batch is 4 * S vectors, 4 * S * BPV blocks; a short last batch uses
 * the same code with partial loads and stores.  On x86, serpent_ops_x86
 * (serpent-x86.h) makes of the simd_x86 traits V, BPV, SETS, the
 * round-engine members (key, rol, shl, xor3, Z4's tern, sbox, inv_sbox),
 * zero and transpose; each ISA file adds the flags, burn depth and the
 * rest (AVX-512: its own rol and S-boxes).
 *
 * The modes are cipher-batch-modes.h's (SP 800-38A, IEEE 1619, RFC 7253,
 * RFC 8452 counters): the kernels below are its batches of 4 * SETS * BPV
 * blocks (FULL) and 4 * BPV (HALF, one set), each an out-of-line
 * function per direction and set count from memory to memory, shared by
 * every mode (the modes' code holds no copy of the 32 unrolled rounds,
 * and the rounds' register allocation does not depend on the mode code
 * around them), with crypt_part for a short batch (partial loads and
 * stores instead of a padded copy; a run of more than HALF blocks takes
 * the FULL kernel, as one batch).  The serial modes (CBC, CFB and OFB
 * encryption) are not filled: the generic single-block functions run
 * them, faster than a batch per block.  */
template <class Ops>
struct serpent_simd
{
  typedef typename Ops::V V;
  static constexpr size_t BPV = Ops::BPV;
  static constexpr int SETS = Ops::SETS;
  static constexpr size_t FULL = 4 * SETS * BPV;   /* Blocks.  */
  static constexpr size_t HALF = 4 * BPV;

  /* Blocks of vector J in a batch of N blocks.  */
  static SERPENT_INLINE size_t
  cnt (size_t n, int j)
  {
    size_t first = (size_t)j * BPV;
    return n <= first ? 0 : n - first >= BPV ? BPV : n - first;
  }

  /* Encrypt or decrypt N blocks (N <= 4 * S * BPV) to OUT: block 0 from
   * IN0, block i >= 1 from IN1 + 16 (i - 1) (IN1 = IN0 + 16 for one
   * buffer).  All input is read before OUT is written (in place
   * allowed).  */
  template <bool DECRYPT, int S>
  static __attribute__ ((noinline)) void
  crypt_n (const void *ctx, unsigned char *out, const unsigned char *in0,
           const unsigned char *in1, size_t n)
  {
    V b[4 * S];
    SERPENT_UNROLL
    for (int j = 0; j < 4 * S; j++)
      b[j] = Ops::loadn (j ? in1 + 16 * (BPV * j - 1) : in0,
                         in1 + 16 * BPV * j, cnt (n, j));
    crypt_inline<DECRYPT, S> ((const SERPENT_context *)ctx, b);
    SERPENT_UNROLL
    for (int j = 0; j < 4 * S; j++)
      Ops::storen (out + 16 * BPV * j, b[j], cnt (n, j));
  }

  template <bool DECRYPT, int S>
  static SERPENT_INLINE void
  crypt_inline (const SERPENT_context *ctx, V (&b)[4 * S])
  {
    V x[S][4];
    SERPENT_UNROLL
    for (int s = 0; s < S; s++)
      {
        Ops::transpose (b[4 * s], b[4 * s + 1], b[4 * s + 2], b[4 * s + 3]);
        SERPENT_UNROLL
        for (int j = 0; j < 4; j++)
          x[s][j] = b[4 * s + j];
      }
    serpent_crypt_sets<Ops, DECRYPT> (ctx, x);
    SERPENT_UNROLL
    for (int s = 0; s < S; s++)
      {
        Ops::transpose (x[s][0], x[s][1], x[s][2], x[s][3]);
        SERPENT_UNROLL
        for (int j = 0; j < 4; j++)
          b[4 * s + j] = x[s][j];
      }
  }

  /* A cipher-batch-modes.h kernel of S sets.  */
  template <int S>
  struct kernel
  {
    static constexpr size_t N = 4 * S * BPV;
    static constexpr unsigned int BURN = Ops::BURN;

    template <bool DECRYPT>
    static SERPENT_INLINE void
    crypt_blocks (const void *ctx, unsigned char *out,
                  const unsigned char *in)
    {
      crypt_n<DECRYPT, S> (ctx, out, in, in + 16, N);
    }

    template <bool DECRYPT>
    static SERPENT_INLINE void
    crypt_part (const void *ctx, unsigned char *out, const unsigned char *in,
                size_t n)
    {
      crypt_n<DECRYPT, S> (ctx, out, in, in + 16, n);
    }

    template <bool DECRYPT>
    static SERPENT_INLINE void
    crypt_shifted (const void *ctx, unsigned char *out,
                   const unsigned char *first, const unsigned char *in,
                   size_t n)
    {
      crypt_n<DECRYPT, S> (ctx, out, first, in, n);
    }
  };

  typedef std::conditional_t<
      (SETS > 1), batch_modes<Ops::clear, kernel<SETS>, kernel<1> >,
      batch_modes<Ops::clear, kernel<1> > > modes;

  /* ecb_crypt, cbc_dec, cfb_dec, ctr16be_enc, ctr32le_enc, xts_crypt,
   * ocb_crypt and ocb_auth.  */
  static void
  fill_bulk (cipher_bulk_ops *bulk)
  {
    modes::fill_parallel (bulk);
  }
};

#endif /* GCIPHER_SERPENT_INTERNAL_H */
