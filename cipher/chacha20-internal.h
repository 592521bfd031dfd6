/* chacha20-internal.h - ChaCha20 context shared by chacha20.cpp and its
 * ISA back ends.
 *
 * The state is RFC 8439 2.3's sixteen 32-bit words:
 *   0..3   the constants ("expand 32-byte k", or "expand 16-byte k" for
 *          the 16-byte keys libgcrypt also takes)
 *   4..11  the key (a 16-byte key twice)
 *   12..15 block counter and nonce.  libgcrypt (and so gcipher) treats
 *          words 12..13 as one 64-bit little-endian block counter that
 *          wraps at 2^64 without touching word 14; with the 12-byte nonce
 *          of RFC 8439 2.3 the counter is word 12 and a wrap carries into
 *          the first nonce word (RFC 8439 leaves that case undefined).
 */
#ifndef GCIPHER_CHACHA20_INTERNAL_H
#define GCIPHER_CHACHA20_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "cipher-internal.h"

#define CHACHA20_BLOCKSIZE 64
/* Blocks of keystream a context keeps ahead at most: the row layout
 * gives four (the key block and three more: two chains of two blocks
 * on ymm) in the time of one.  */
#define CHACHA20_PAD_BLOCKS 3

/* x86 builds have the AVX2 path (cipher/Makefile.am, ARCH_X86).  */
#ifdef GCIPHER_ARCH_X86
# define CHACHA20_USE_AVX2 1
/* ... and amd64 builds the AVX-512 one (ARCH_X86_64).  */
# ifdef __x86_64__
#  define CHACHA20_USE_AVX512 1
# endif
#endif

/* arm64 builds have the NEON path (cipher/Makefile.am, ARCH_AARCH64).  */
#ifdef GCIPHER_ARCH_AARCH64
# define CHACHA20_USE_NEON 1
#endif

/* XOR NBLOCKS keystream blocks (64 bytes each) of STATE into IN, writing
 * OUT (IN == OUT allowed), and advance the 64-bit counter in words 12..13
 * by NBLOCKS.  Returns the stack burn depth in bytes.  */
typedef unsigned int (*chacha20_blocks_fn) (uint32_t *state,
                                            unsigned char *out,
                                            const unsigned char *in,
                                            size_t nblocks);

struct CHACHA20_context
{
  uint32_t input[16];                     /* RFC 8439 2.3 state.  */
  /* Keystream computed ahead: its last UNUSED bytes are the next ones
   * (the tail block of a partial call, or the blocks that came with
   * ChaCha20-Poly1305's key block, which passes through the first
   * block and is wiped there).  */
  unsigned char pad[(1 + CHACHA20_PAD_BLOCKS) * CHACHA20_BLOCKSIZE];
  size_t unused;
  /* Whole-block path chosen at setkey; NULL (a never-keyed context)
   * means the generic one.  */
  chacha20_blocks_fn blocks;
};

/* The scalar rounds, for the generic block function (chacha20.cpp) and
 * for the ChaCha20-Poly1305 key block the vector paths run on the
 * general-purpose registers beside a vector pass.  In an unnamed
 * namespace: each ISA file gets its own copy, compiled with its flags
 * (no copy built with AVX-512 may stand in for the generic file's).  */
namespace {
namespace chacha20_scalar {

inline uint32_t
rol32 (uint32_t x, unsigned int n)
{
  return (x << n) | (x >> (32 - n));
}

/* RFC 8439 2.1: the quarter round on words A, B, C, D of X.  */
inline __attribute__ ((always_inline)) void
quarter_round (uint32_t *x, int a, int b, int c, int d)
{
  x[a] += x[b]; x[d] = rol32 (x[d] ^ x[a], 16);
  x[c] += x[d]; x[b] = rol32 (x[b] ^ x[c], 12);
  x[a] += x[b]; x[d] = rol32 (x[d] ^ x[a], 8);
  x[c] += x[d]; x[b] = rol32 (x[b] ^ x[c], 7);
}

/* Pair Q (0..3) of a double round's quarter rounds on X[0..15]: 0 and
 * 1 the column round, 2 and 3 the diagonal one (RFC 8439 2.3).  */
inline __attribute__ ((always_inline)) void
quarter_pair (uint32_t *x, int q)
{
  switch (q)
    {
    case 0:
      quarter_round (x, 0, 4, 8, 12); quarter_round (x, 1, 5, 9, 13);
      break;
    case 1:
      quarter_round (x, 2, 6, 10, 14); quarter_round (x, 3, 7, 11, 15);
      break;
    case 2:
      quarter_round (x, 0, 5, 10, 15); quarter_round (x, 1, 6, 11, 12);
      break;
    default:
      quarter_round (x, 2, 7, 8, 13); quarter_round (x, 3, 4, 9, 14);
      break;
    }
}

/* RFC 8439 2.3: a column round, then a diagonal round, on X[0..15].  */
inline __attribute__ ((always_inline)) void
double_round (uint32_t *x)
{
  quarter_pair (x, 0);
  quarter_pair (x, 1);
  quarter_pair (x, 2);
  quarter_pair (x, 3);
}

} // namespace chacha20_scalar
} // namespace

#ifdef CHACHA20_USE_AVX2
/* AVX2: eight blocks per pass (chacha20-avx2.cpp); a last NBLOCKS % 8
 * of up to four in the row layout of chacha20-rows.h, more as a partly
 * stored eight-block pass.  */
unsigned int _gcry_chacha20_avx2_blocks (uint32_t *state, unsigned char *out,
                                         const unsigned char *in,
                                         size_t nblocks) GCIPHER_INTERNAL;
#endif
#ifdef CHACHA20_USE_AVX512
/* AVX-512: sixteen blocks per pass (chacha20-avx512.cpp); a last
 * NBLOCKS % 16 of up to eight in the row layout on zmm (chacha20-rows.h,
 * four blocks per register), more as a partly stored sixteen-block
 * pass.  */
unsigned int _gcry_chacha20_avx512_blocks (uint32_t *state,
                                           unsigned char *out,
                                           const unsigned char *in,
                                           size_t nblocks) GCIPHER_INTERNAL;
#endif
#if defined(CHACHA20_USE_AVX2) && defined(__SIZEOF_INT128__)
struct poly1305_context;
/* ChaCha20-Poly1305 stitched with the scalar Poly1305
 * (chacha20-avx2.cpp, used by cipher-poly1305.cpp): NBLOCKS any count
 * (passes of eight, the last one partly stored); when encrypting, the
 * PRE_BLOCKS (a multiple of 4, at most 32) 16-byte blocks of ciphertext
 * at PRE are absorbed first, in the first pass; otherwise as
 * _gcry_chacha20_poly1305_avx512 below.  */
unsigned int _gcry_chacha20_poly1305_avx2 (uint32_t *state,
                                           poly1305_context *mac,
                                           unsigned char *out,
                                           const unsigned char *in,
                                           size_t nblocks, int encrypt,
                                           const unsigned char *pre,
                                           size_t pre_blocks)
  GCIPHER_INTERNAL;
/* A short message's last NBLOCKS (1..4) keystream blocks in the row
 * layout XORed from IN to OUT, with MBLOCKS (at most 40) whole blocks
 * at M absorbed into MAC (no partial block pending) before the kernel
 * writes OUT (chacha20-avx2.cpp).  Returns the stack burn depth.  */
unsigned int _gcry_chacha20_poly1305_avx2_rows (uint32_t *state,
                                                poly1305_context *mac,
                                                unsigned char *out,
                                                const unsigned char *in,
                                                size_t nblocks,
                                                const unsigned char *m,
                                                size_t mblocks)
  GCIPHER_INTERNAL;
#endif
#if defined(CHACHA20_USE_AVX512) && defined(__SIZEOF_INT128__)
/* The same as _gcry_chacha20_poly1305_avx2_rows on the AVX-512 path
 * (chacha20-avx512.cpp).  */
unsigned int _gcry_chacha20_poly1305_avx512_rows (uint32_t *state,
                                                  poly1305_context *mac,
                                                  unsigned char *out,
                                                  const unsigned char *in,
                                                  size_t nblocks,
                                                  const unsigned char *m,
                                                  size_t mblocks)
  GCIPHER_INTERNAL;
/* ChaCha20-Poly1305 stitched (chacha20-avx512.cpp, used by
 * cipher-poly1305.cpp): NBLOCKS must be a multiple of 16 (the last
 * NBLOCKS % 16 would be left undone); keystream blocks XORed from IN to
 * OUT and the ciphertext absorbed into MAC, which must hold no partial
 * block (and STATE no unused keystream).  ENCRYPT: nonzero if IN is the
 * plaintext.  Returns the stack burn depth.  */
unsigned int _gcry_chacha20_poly1305_avx512 (uint32_t *state,
                                             poly1305_context *mac,
                                             unsigned char *out,
                                             const unsigned char *in,
                                             size_t nblocks, int encrypt)
  GCIPHER_INTERNAL;
#endif
#ifdef CHACHA20_USE_NEON
/* NEON: four blocks per pass (chacha20-neon.cpp); falls back to the
 * generic function for the last NBLOCKS % 4.  */
unsigned int _gcry_chacha20_neon_blocks (uint32_t *state, unsigned char *out,
                                         const unsigned char *in,
                                         size_t nblocks) GCIPHER_INTERNAL;
#endif
/* RFC 8439 2.6: the 64-byte keystream block at CTX's counter, whose
 * first 32 bytes are ChaCha20-Poly1305's one-time Poly1305 key, into
 * BLOCK; the counter advances by one.  CTX must hold no unused
 * keystream (a fresh IV).  On the x86 vector paths the next three
 * blocks come out of the same kernel call at no extra latency (the row
 * layout, two chains of two blocks on ymm) and are kept as CTX's unused
 * keystream, so the first 192 bytes of the message cost no kernel call.
 * Returns the stack burn depth in bytes (chacha20.cpp).  */
unsigned int _gcry_chacha20_poly1305_keyblock (CHACHA20_context *ctx,
                                               unsigned char *block)
  GCIPHER_INTERNAL;
/* Give back the keystream _gcry_chacha20_poly1305_keyblock kept ahead,
 * if CTX still holds all of it: wiped, and the counter moved back over
 * those blocks, so the next call computes them again (the same bytes:
 * each block depends only on the key, nonce and counter).  For a
 * message decrypted in stitched ChaCha20-Poly1305 passes, which then
 * start at its first byte.  Returns whether it did.  */
bool _gcry_chacha20_poly1305_drop_ahead (CHACHA20_context *ctx)
  GCIPHER_INTERNAL;
/* The portable path (chacha20.cpp).  */
unsigned int _gcry_chacha20_generic_blocks (uint32_t *state,
                                            unsigned char *out,
                                            const unsigned char *in,
                                            size_t nblocks) GCIPHER_INTERNAL;

#endif /* GCIPHER_CHACHA20_INTERNAL_H */
