/* cipher-ocb.h - OCB (RFC 7253) state, shared by cipher-ocb.cpp and the
 * bulk functions (ocb_crypt, ocb_auth) of the cipher implementations.
 *
 * The state lives in the handle's mode_ctx area (h->mode_ctx, CONTEXT_ALIGNed).
 * Block indices are 1-based as in RFC 7253 4.2: the data block processed
 * next is number data_nblocks + 1 and its offset is
 *
 *     Offset_i = Offset_{i-1} xor L_{ntz(i)}        (RFC 7253 4.2)
 *
 * so a bulk function reads L[ntz (i)] for the (public) block counter i,
 * updates the offset (c->iv), the checksum (c->ctr) and DATA_NBLOCKS
 * (resp. AAD_OFFSET, AAD_SUM, AAD_NBLOCKS) exactly as the per-block code
 * in cipher-ocb.cpp does, and returns the number of blocks it did not
 * process (0 = all).  The checksum is the xor of the plaintext blocks
 * (RFC 7253 4.2), on decryption the decrypted ones.
 */
#ifndef GCIPHER_CIPHER_OCB_H
#define GCIPHER_CIPHER_OCB_H

#include <stdint.h>
#include "cipher-internal.h"

#define OCB_BLOCK_LEN 16
/* L_0 .. L_63: enough for every ntz of a 64-bit block counter, so no
 * offset ever needs an L_i computed on the fly.  */
#define OCB_L_TABLE_SIZE 64

struct ocb_state
{
  /* Key-derived (RFC 7253 4.1): L_* = E_K(0^128), L_$ = double(L_*),
   * L_0 = double(L_$), L_i = double(L_{i-1}).  Re-derived at setkey and
   * after GCRYCTL_RESET.  */
  alignas (16) unsigned char L_star[OCB_BLOCK_LEN];
  alignas (16) unsigned char L_dollar[OCB_BLOCK_LEN];
  alignas (16) unsigned char L[OCB_L_TABLE_SIZE][OCB_BLOCK_LEN];

  /* Encryption / decryption (RFC 7253 4.2, 4.3).  Offset_i lives in the
   * handle's c->iv and Checksum_i in c->ctr, where libgcrypt keeps them
   * (so gcry_cipher_setctr on an OCB handle replaces the checksum, and
   * GCRYCTL_RESET clears both, as there).  */
  uint64_t data_nblocks;           /* i: full data blocks processed.  */

  /* HASH (RFC 7253 4.1).  */
  alignas (16) unsigned char aad_offset[OCB_BLOCK_LEN];
  alignas (16) unsigned char aad_sum[OCB_BLOCK_LEN];
  alignas (16) unsigned char aad_leftover[OCB_BLOCK_LEN]; /* Partial A.  */
  uint64_t aad_nblocks;            /* Full AAD blocks hashed.  */
  unsigned int aad_nleftover;      /* Bytes in aad_leftover (0..15).  */

  /* Stretch (RFC 7253 4.2) of the last nonce block with its low 6 bits
   * cleared, kept while the key stays: nonces that differ only in those
   * bits (counters) need no block encryption at setiv.  */
  alignas (16) unsigned char ktop_nonce[OCB_BLOCK_LEN];
  alignas (16) unsigned char stretch[OCB_BLOCK_LEN + 8];
  unsigned int stretch_valid;

  /* The full 16-byte tag once computed (h->marks.tag set); until then,
   * from the last data call on, its data half.  */
  alignas (16) unsigned char tag[OCB_BLOCK_LEN];

  /* GCRYCTL_SET_TAGLEN value in bytes (8, 12, 16); 0 means the default
   * 16 (the area starts zeroed).  The nonce uses the value current at
   * setiv, gettag/checktag the current one, as libgcrypt.  */
  unsigned int taglen;
  /* The last data call (the one after gcry_cipher_final) was made.  */
  unsigned int data_finalized;
};

static inline ocb_state *
ocb_state_of (gcry_cipher_hd_t c)
{
  return static_cast<ocb_state *> (c->mode_ctx);
}

/* Number of trailing zero bits of the (public, nonzero) block index.  */
static inline unsigned int
ocb_ntz (uint64_t i)
{
#ifdef __i386__
  /* No 64-bit count on i386: __builtin_ctzll is a call to libgcc's
   * __ctzdi2 there, around which the vector kernels spilled and
   * reloaded their registers (and ran VZEROUPPER) once per batch.  The
   * branch is on the public block index.  */
  const uint32_t lo = (uint32_t) i;
  return lo ? (unsigned int) __builtin_ctz (lo)
            : 32u + (unsigned int) __builtin_ctz ((uint32_t) (i >> 32));
#else
  return (unsigned int) __builtin_ctzll (i);
#endif
}

#endif /* GCIPHER_CIPHER_OCB_H */
