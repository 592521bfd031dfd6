/* cipher-cmac.h - internal CMAC (OMAC1), NIST SP 800-38B, for EAX and SIV.
 *
 * Not an exported MAC API: the EAX (cipher-eax.cpp) and SIV
 * (cipher-siv.cpp) modes run it over the handle's algorithm context
 * (c->ctx, c->spec, c->bulk): a 16-byte block cipher, or (EAX) an
 * 8-byte one (SP 800-38B with b = 64: R_64 = 0x1b).
 *
 * Shapes: all lengths are bytes; the MAC is one cipher block (16 or 8
 * bytes: "block" below means the cipher's block size BS; the 16-byte
 * arrays hold BS bytes).  The
 * state keeps the last block (complete or not) unprocessed in BUF until
 * cmac_final, because SP 800-38B 6.2 step 3 treats the last block
 * specially.
 */
#ifndef GCIPHER_CIPHER_CMAC_H
#define GCIPHER_CIPHER_CMAC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "cipher-internal.h"

/* DST = A xor B over BYTES bytes (any length; DST may equal A or B, no
 * other overlap), 8 bytes per step: the byte loop of cipher_block_xor
 * cost about a tenth of a short EAX message on x86-64.  */
static inline void
cmac_xor (unsigned char *dst, const unsigned char *a, const unsigned char *b,
          size_t bytes)
{
#ifdef CIPHER_BLOCK16_VECTOR
  if (bytes == 16)
    {
      /* One 16-byte store: the next kernel reads the block whole.  */
      block16_store (dst, block16_load (a) ^ block16_load (b));
      return;
    }
#endif
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8)
    {
      uint64_t x, y;
      memcpy (&x, a + i, 8);
      memcpy (&y, b + i, 8);
      x ^= y;
      memcpy (dst + i, &x, 8);
    }
  for (; i < bytes; i++)
    dst[i] = a[i] ^ b[i];
}

/* The two subkeys K1, K2 of SP 800-38B 6.1 (derived from the cipher
 * key; secret).  */
struct cmac_subkeys
{
  alignas (16) unsigned char k1[16];
  alignas (16) unsigned char k2[16];
};

/* A running CMAC computation.  */
struct cmac_state
{
  alignas (16) unsigned char x[16];    /* Chaining value C_(i-1).  */
  alignas (16) unsigned char buf[16];  /* Pending (last) block bytes.  */
  unsigned int buflen;                 /* 0..BS bytes in BUF.  */
};

/* The doubling in GF(2^128) of SP 800-38B 6.1 / RFC 5297 2.3 (the
 * "dbl" of S2V): shift left by one bit, xor 0x87 into the last byte if
 * the bit shifted out was set.  Constant time.  DST may equal SRC.  */
void _gcry_cmac_dbl (unsigned char *dst, const unsigned char *src)
  GCIPHER_INTERNAL;

/* Derive K1, K2 from the key in C's algorithm context (SP 800-38B
 * 6.1: L = E_K(0^b), K1 = dbl(L), K2 = dbl(K1), dbl in GF(2^b) for
 * the block size b = 128 or 64).  Returns the stack
 * burn depth.  */
unsigned int _gcry_cmac_subkeys (gcry_cipher_hd_t c, cmac_subkeys *sk)
  GCIPHER_INTERNAL;

/* Start a new message (C_0 = 0, nothing pending).  */
void _gcry_cmac_reset (cmac_state *st) GCIPHER_INTERNAL;

/* Feed LEN bytes.  Whole blocks go through c->bulk.cbc_enc (with
 * cbc_mac) when there is one.  Returns the stack burn depth.  */
unsigned int _gcry_cmac_write (gcry_cipher_hd_t c, cmac_state *st,
                               const unsigned char *data, size_t len)
  GCIPHER_INTERNAL;

/* If a whole block is pending, fold it into the chaining value now
 * (BUFLEN becomes 0): for callers that then run whole blocks through a
 * bulk function on ST->x themselves and leave the last block pending
 * again (BUF, BUFLEN BS).  Returns the stack burn depth.  */
unsigned int _gcry_cmac_absorb_pending (gcry_cipher_hd_t c, cmac_state *st)
  GCIPHER_INTERNAL;

/* CMAC of a message of at most one block (LEN 0..BS bytes) in one
 * step (SP 800-38B 6.2 with n = 1: M_1 xor K1 if LEN is BS, else
 * pad (M_1) xor K2, then one encryption) into TAG (BS bytes; may equal
 * DATA).  Same result as reset/write/final.  Returns the stack burn
 * depth.  */
unsigned int _gcry_cmac_short (gcry_cipher_hd_t c, const cmac_subkeys *sk,
                               const unsigned char *data, size_t len,
                               unsigned char *tag) GCIPHER_INTERNAL;

/* CMAC of NBLOCKS whole blocks at DATA followed by one complete last
 * block LAST (BS bytes), i.e. of a message of BS * (NBLOCKS + 1) bytes,
 * with one bulk call for the leading blocks, into TAG (BS bytes).  Same
 * result as reset/write/final.  Returns the stack burn depth.  */
unsigned int _gcry_cmac_blocks_last (gcry_cipher_hd_t c,
                                     const cmac_subkeys *sk,
                                     const unsigned char *data,
                                     size_t nblocks,
                                     const unsigned char *last,
                                     unsigned char *tag) GCIPHER_INTERNAL;

/* Finish (SP 800-38B 6.2 steps 3-6) into TAG (BS bytes); ST is left
 * finished (its X holds the tag).  Returns the stack burn depth.  */
unsigned int _gcry_cmac_final (gcry_cipher_hd_t c, cmac_state *st,
                               const cmac_subkeys *sk, unsigned char *tag)
  GCIPHER_INTERNAL;

#endif /* GCIPHER_CIPHER_CMAC_H */
