/* cipher-cmac.cpp - internal CMAC (NIST SP 800-38B) over a handle's
 * block cipher, shared by EAX and SIV.  See cipher-cmac.h.
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"
#include "cipher-cmac.h"

namespace {

inline unsigned int
umax (unsigned int a, unsigned int b)
{
  return a > b ? a : b;
}

/* C_i = E(C_(i-1) xor M_i) over NBLOCKS whole blocks (SP 800-38B 6.2
 * step 6), through the CBC-MAC bulk slot when present.  */
unsigned int
cmac_blocks (gcry_cipher_hd_t c, unsigned char *x, const unsigned char *in,
             size_t nblocks)
{
  unsigned int depth = 0;
  if (!nblocks)
    return 0;
  if (c->bulk.cbc_enc)
    {
      alignas (16) unsigned char sink[16];
      depth = c->bulk.cbc_enc (c->ctx, x, sink, in, nblocks, 1);
      wipememory (sink, sizeof sink);
      return depth;
    }
  for (; nblocks; nblocks--, in += 16)
    {
      cipher_block_xor (x, x, in, 16);
      depth = umax (depth, c->spec->encrypt (c->ctx, x, x));
    }
  return depth;
}

} // namespace

void
_gcry_cmac_dbl (unsigned char *dst, const unsigned char *src)
{
  /* The block as two big-endian 64-bit halves.  */
  uint64_t hi, lo;
  memcpy (&hi, src, 8);
  memcpy (&lo, src + 8, 8);
  hi = __builtin_bswap64 (hi);
  lo = __builtin_bswap64 (lo);
  uint64_t mask = 0 - (hi >> 63);
  hi = (hi << 1) | (lo >> 63);
  lo = (lo << 1) ^ (mask & 0x87);
  hi = __builtin_bswap64 (hi);
  lo = __builtin_bswap64 (lo);
  memcpy (dst, &hi, 8);
  memcpy (dst + 8, &lo, 8);
}

unsigned int
_gcry_cmac_subkeys (gcry_cipher_hd_t c, cmac_subkeys *sk)
{
  alignas (16) unsigned char l[16] = { 0 };
  unsigned int depth = c->spec->encrypt (c->ctx, l, l);
  _gcry_cmac_dbl (sk->k1, l);
  _gcry_cmac_dbl (sk->k2, sk->k1);
  wipememory (l, sizeof l);
  return depth;
}

void
_gcry_cmac_reset (cmac_state *st)
{
  wipememory (st, sizeof *st);
}

unsigned int
_gcry_cmac_write (gcry_cipher_hd_t c, cmac_state *st,
                  const unsigned char *data, size_t len)
{
  unsigned int depth = 0;
  if (!len)
    return 0;
  /* Top up the pending block; it is processed only once more data
   * follows (the last block is final's business).  */
  if (st->buflen < 16)
    {
      size_t n = 16 - st->buflen;
      n = n < len ? n : len;
      memcpy (st->buf + st->buflen, data, n);
      st->buflen += (unsigned int) n;
      data += n;
      len -= n;
      if (!len)
        return 0;
    }
  /* BUF is full and more follows.  */
  depth = cmac_blocks (c, st->x, st->buf, 1);
  st->buflen = 0;
  /* Whole blocks, keeping at least one byte back.  */
  size_t nblocks = (len - 1) / 16;
  depth = umax (depth, cmac_blocks (c, st->x, data, nblocks));
  data += nblocks * 16;
  len -= nblocks * 16;
  memcpy (st->buf, data, len);
  st->buflen = (unsigned int) len;
  return depth;
}

unsigned int
_gcry_cmac_absorb_pending (gcry_cipher_hd_t c, cmac_state *st)
{
  if (st->buflen != 16)
    return 0;
  st->buflen = 0;
  return cmac_blocks (c, st->x, st->buf, 1);
}

unsigned int
_gcry_cmac_final (gcry_cipher_hd_t c, cmac_state *st, const cmac_subkeys *sk,
                  unsigned char *tag)
{
  /* SP 800-38B 6.2 step 3/4: a complete last block is xored with K1;
   * otherwise it is padded with 10* and xored with K2.  */
  alignas (16) unsigned char last[16];
  const unsigned char *k;
  if (st->buflen == 16)
    {
      memcpy (last, st->buf, 16);
      k = sk->k1;
    }
  else
    {
      memset (last, 0, 16);
      memcpy (last, st->buf, st->buflen);
      last[st->buflen] = 0x80;
      k = sk->k2;
    }
  cipher_block_xor (last, last, k, 16);
  cipher_block_xor (st->x, st->x, last, 16);
  unsigned int depth = c->spec->encrypt (c->ctx, st->x, st->x);
  memcpy (tag, st->x, 16);
  wipememory (last, sizeof last);
  wipememory (st->buf, sizeof st->buf);
  st->buflen = 0;
  return depth;
}

unsigned int
_gcry_cmac_short (gcry_cipher_hd_t c, const cmac_subkeys *sk,
                  const unsigned char *data, size_t len, unsigned char *tag)
{
  alignas (16) unsigned char x[16];
  unsigned int depth;
  if (len == 16)
    cipher_block_xor (x, data, sk->k1, 16);
  else
    {
      /* The length is public; the padded block is built in place.  */
      memset (x, 0, 16);
      memcpy (x, data, len);
      x[len] = 0x80;
      cipher_block_xor (x, x, sk->k2, 16);
    }
  depth = c->spec->encrypt (c->ctx, tag, x);
  wipememory (x, sizeof x);
  return depth;
}

unsigned int
_gcry_cmac_blocks_last (gcry_cipher_hd_t c, const cmac_subkeys *sk,
                        const unsigned char *data, size_t nblocks,
                        const unsigned char *last, unsigned char *tag)
{
  alignas (16) unsigned char x[16] = { 0 };
  unsigned int depth = cmac_blocks (c, x, data, nblocks);
  cipher_block_xor (x, x, last, 16);
  cipher_block_xor (x, x, sk->k1, 16);
  depth = umax (depth, c->spec->encrypt (c->ctx, tag, x));
  wipememory (x, sizeof x);
  return depth;
}
