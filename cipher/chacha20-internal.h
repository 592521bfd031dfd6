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
/* Blocks of keystream ChaCha20-Poly1305's key block brings along in
 * the row layout: it gives four (the key block and three more: two
 * chains of two blocks on ymm) in the time of one.  */
#define CHACHA20_ROWS_AHEAD 3
/* Blocks of keystream a context keeps ahead at most: sixteen, from the
 * AVX-512 path's key block with a whole pass after it
 * (_gcry_chacha20_poly1305_keyblock_wide).  */
#define CHACHA20_PAD_BLOCKS 16

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

/* riscv64 builds whose compiler assembles the vector crypto extensions
 * have the RVV path (cipher/Makefile.am, HAVE_RISCV_VCRYPTO).  */
#ifdef HAVE_RISCV_VCRYPTO
# define CHACHA20_USE_RVV 1
#endif
/* ... and riscv64 builds by a compiler that takes a function's target
 * extensions (clang 17 and later) the scalar Zbb one.  */
#if defined(GCIPHER_ARCH_RISCV64) && defined(__clang__) \
    && __clang_major__ >= 17
# define CHACHA20_USE_ZBB 1
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
  unsigned char pad[CHACHA20_PAD_BLOCKS * CHACHA20_BLOCKSIZE];
  size_t unused;
  /* PAD's last DIRTY bytes may hold keystream, used or not (setiv
   * wipes them; the rest of PAD is zero).  */
  size_t dirty;
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

/* ChaCha20-Poly1305's key block (RFC 8439 2.6) computed beside a
 * vector pass: X starts as STATE (the block at its counter), whose
 * counter then moves on by one for the pass; the caller runs the
 * rounds on X (double_round, quarter_pair) and ends with finish.  */
struct side_block
{
  uint32_t x[16];
  uint32_t c12, c13;   /* The key block's counter words.  */

  explicit __attribute__ ((always_inline)) side_block (uint32_t *state)
  {
    for (int i = 0; i < 16; i++)
      x[i] = state[i];
    c12 = state[12];
    c13 = state[13];
    const uint64_t ctr = (((uint64_t) c13 << 32) | c12) + 1;
    state[12] = (uint32_t) ctr;
    state[13] = (uint32_t) (ctr >> 32);
  }

  /* The feed-forward (RFC 8439 2.3, STATE's words but the counter's)
   * into OUT as 64 little-endian bytes.  X is left as it is: its
   * address would keep it in memory through the rounds, so the caller
   * counts its frame in the burn depth instead of wiping it.  */
  __attribute__ ((always_inline)) void
  finish (const uint32_t *state, unsigned char *out) const
  {
    for (int i = 0; i < 16; i++)
      {
        const uint32_t w = x[i] + (i == 12 ? c12 : i == 13 ? c13
                                                         : state[i]);
        out[4 * i] = (unsigned char) w;
        out[4 * i + 1] = (unsigned char) (w >> 8);
        out[4 * i + 2] = (unsigned char) (w >> 16);
        out[4 * i + 3] = (unsigned char) (w >> 24);
      }
  }
};

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
#ifdef CHACHA20_USE_AVX512
/* ChaCha20-Poly1305's key block at STATE's counter into BLOCK (64
 * bytes) and the sixteen keystream blocks after it into PAD (1024
 * bytes); the counter advances by 17 (chacha20-avx512.cpp).  Returns
 * the stack burn depth.  */
unsigned int _gcry_chacha20_avx512_keyblock16 (uint32_t *state,
                                               unsigned char *block,
                                               unsigned char *pad)
  GCIPHER_INTERNAL;
#endif
#if defined(CHACHA20_USE_AVX2) && defined(__x86_64__)
/* The same with one eight-block AVX2 pass: the key block into BLOCK,
 * the eight blocks after it into PAD (512 bytes), the counter advanced
 * by 9 (chacha20-avx2.cpp).  Returns the stack burn depth.  */
unsigned int _gcry_chacha20_avx2_keyblock8 (uint32_t *state,
                                            unsigned char *block,
                                            unsigned char *pad)
  GCIPHER_INTERNAL;
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
#ifdef CHACHA20_USE_ZBB
/* The generic path compiled with Zbb (rotations as rori; chacha20.cpp);
 * needs riscv-zbb.  */
unsigned int _gcry_chacha20_zbb_blocks (uint32_t *state, unsigned char *out,
                                        const unsigned char *in,
                                        size_t nblocks) GCIPHER_INTERNAL;
#endif
#ifdef CHACHA20_USE_RVV
/* RVV: VLEN / 32 blocks per pass (chacha20-riscv-v.cpp), the rotations
 * as shifts (needs riscv-v) or with Zvkb's vror (needs riscv-v and
 * riscv-zvkb); buffers not 4-byte aligned take the generic function.  */
unsigned int _gcry_chacha20_rvv_blocks (uint32_t *state, unsigned char *out,
                                        const unsigned char *in,
                                        size_t nblocks) GCIPHER_INTERNAL;
unsigned int _gcry_chacha20_rvv_zvkb_blocks (uint32_t *state,
                                             unsigned char *out,
                                             const unsigned char *in,
                                             size_t nblocks)
  GCIPHER_INTERNAL;
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
/* The same for a message known to be long (the caller's choice): the
 * key block and a whole pass of keystream after it, kept as CTX's
 * unused keystream, in the time of that pass (the key block's serial
 * rounds run beside it on the general-purpose registers): sixteen
 * blocks (1024 bytes) on the AVX-512 path, eight (512 bytes) on the
 * AVX2 one on x86-64 (_gcry_chacha20_poly1305_wide_blocks), what
 * _gcry_chacha20_poly1305_keyblock gives elsewhere.  */
unsigned int _gcry_chacha20_poly1305_keyblock_wide (CHACHA20_context *ctx,
                                                    unsigned char *block)
  GCIPHER_INTERNAL;
/* The blocks _gcry_chacha20_poly1305_keyblock_wide keeps ahead on CTX's
 * path: 16, 8, or 0 where it has no wide form.  */
size_t _gcry_chacha20_poly1305_wide_blocks (const CHACHA20_context *ctx)
  GCIPHER_INTERNAL;
/* The key block alone (no keystream kept ahead), by CTX's block
 * function for one block: on AVX2 one chain of the row layout (about
 * 420 instructions, against 1,200 for the scalar block, whose latency
 * is no shorter: 1 KiB decryptions 2.7% faster on AMD Zen 4); for a
 * message whose stitched passes start at its first byte.  The counter
 * advances by one.  Returns the stack burn depth.  */
unsigned int _gcry_chacha20_poly1305_keyblock_alone (CHACHA20_context *ctx,
                                                     unsigned char *block)
  GCIPHER_INTERNAL;
/* Give back whole blocks of keystream computed ahead: if CTX's unused
 * keystream is a nonzero number of whole blocks (only a key block call
 * leaves that), it is wiped and the counter moved back over those
 * blocks, so the next call computes them again (the same bytes: each
 * block depends only on the key, nonce and counter).  For a message
 * decrypted in stitched ChaCha20-Poly1305 passes, which then start at
 * its first byte.  Returns whether it did.  */
bool _gcry_chacha20_poly1305_drop_ahead (CHACHA20_context *ctx)
  GCIPHER_INTERNAL;
/* The portable path (chacha20.cpp).  */
unsigned int _gcry_chacha20_generic_blocks (uint32_t *state,
                                            unsigned char *out,
                                            const unsigned char *in,
                                            size_t nblocks) GCIPHER_INTERNAL;

#endif /* GCIPHER_CHACHA20_INTERNAL_H */
