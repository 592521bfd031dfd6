/* cipher-cmac.cpp - internal CMAC (NIST SP 800-38B) over a handle's
 * block cipher (16- or 8-byte blocks), shared by EAX and SIV.  See
 * cipher-cmac.h.
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"
#include "cipher-cmac.h"

namespace {

/* The cipher's block size in bytes (16 or 8).  */
inline size_t
cmac_bs (gcry_cipher_hd_t c)
{
  return c->spec->blocksize;
}

/* C_i = E(C_(i-1) xor M_i) over NBLOCKS whole blocks (SP 800-38B 6.2
 * step 6), through the CBC-MAC bulk slot when present (16-byte blocks).  */
unsigned int
cmac_blocks (gcry_cipher_hd_t c, unsigned char *x, const unsigned char *in,
             size_t nblocks)
{
  unsigned int depth = 0;
  const size_t bs = cmac_bs (c);
  if (!nblocks)
    return 0;
  if (c->bulk.cbc_enc && bs == 16)
    {
      alignas (16) unsigned char sink[16];
      depth = c->bulk.cbc_enc (c->ctx, x, sink, in, nblocks, 1);
      wipememory (sink, sizeof sink);
      return depth;
    }
  for (; nblocks; nblocks--, in += bs)
    {
      cmac_xor (x, x, in, bs);
      depth = umax (depth, c->spec->encrypt (c->ctx, x, x));
    }
  return depth;
}

/* dbl for a block of BS bytes: GF(2^128) with R_128 = 0x87, or GF(2^64)
 * with R_64 = 0x1b (SP 800-38B 5.3, 6.1).  Constant time.  */
void
cmac_dbl_bs (unsigned char *dst, const unsigned char *src, size_t bs)
{
  if (bs == 16)
    {
      _gcry_cmac_dbl (dst, src);
      return;
    }
  uint64_t v;
  memcpy (&v, src, 8);
  v = __builtin_bswap64 (v);
  const uint64_t mask = 0 - (v >> 63);
  v = (v << 1) ^ (mask & 0x1b);
  v = __builtin_bswap64 (v);
  memcpy (dst, &v, 8);
}

} // namespace

void
_gcry_cmac_dbl (unsigned char *dst, const unsigned char *src)
{
  /* The block as two big-endian 64-bit halves, read and written as one
   * 16-byte block where the target has such vectors (cipher-internal.h,
   * block16_t: a kernel reads it next).  */
  uint64_t hi, lo;
#ifdef CIPHER_BLOCK16_VECTOR
  block16_t v = block16_load (src);
  hi = v[0];
  lo = v[1];
#else
  memcpy (&hi, src, 8);
  memcpy (&lo, src + 8, 8);
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  hi = __builtin_bswap64 (hi);
  lo = __builtin_bswap64 (lo);
#endif
  uint64_t mask = 0 - (hi >> 63);
  hi = (hi << 1) | (lo >> 63);
  lo = (lo << 1) ^ (mask & 0x87);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  hi = __builtin_bswap64 (hi);
  lo = __builtin_bswap64 (lo);
#endif
#ifdef CIPHER_BLOCK16_VECTOR
  v[0] = hi;
  v[1] = lo;
  block16_store (dst, v);
#else
  memcpy (dst, &hi, 8);
  memcpy (dst + 8, &lo, 8);
#endif
}

unsigned int
_gcry_cmac_subkeys (gcry_cipher_hd_t c, cmac_subkeys *sk)
{
  alignas (16) unsigned char l[16] = { 0 };
  const size_t bs = cmac_bs (c);
  unsigned int depth = c->spec->encrypt (c->ctx, l, l);
  cmac_dbl_bs (sk->k1, l, bs);
  cmac_dbl_bs (sk->k2, sk->k1, bs);
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
  const size_t bs = cmac_bs (c);
  if (!len)
    return 0;
  /* Top up the pending block; it is processed only once more data
   * follows (the last block is final's business).  */
  if (st->buflen < bs)
    {
      size_t n = bs - st->buflen;
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
  size_t nblocks = (len - 1) / bs;
  depth = umax (depth, cmac_blocks (c, st->x, data, nblocks));
  data += nblocks * bs;
  len -= nblocks * bs;
  memcpy (st->buf, data, len);
  st->buflen = (unsigned int) len;
  return depth;
}

unsigned int
_gcry_cmac_absorb_pending (gcry_cipher_hd_t c, cmac_state *st)
{
  if (st->buflen != cmac_bs (c))
    return 0;
  st->buflen = 0;
  return cmac_blocks (c, st->x, st->buf, 1);
}

unsigned int
_gcry_cmac_final (gcry_cipher_hd_t c, cmac_state *st, const cmac_subkeys *sk,
                  unsigned char *tag)
{
  /* SP 800-38B 6.2 step 3/4: a complete last block is xored with K1;
   * otherwise it is padded with 10* and xored with K2.  The padding is
   * written into BUF itself (wiped below), so no copy of the block is
   * left anywhere else.  */
  const unsigned char *k = sk->k1;
  const size_t bs = cmac_bs (c);
  if (st->buflen < bs)
    {
      st->buf[st->buflen] = 0x80;
      memset (st->buf + st->buflen + 1, 0, bs - st->buflen - 1);
      k = sk->k2;
    }
  cmac_xor (st->x, st->x, st->buf, bs);
  cmac_xor (st->x, st->x, k, bs);
  unsigned int depth = c->spec->encrypt (c->ctx, st->x, st->x);
  memcpy (tag, st->x, bs);
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
  const size_t bs = cmac_bs (c);
  if (len == bs)
    cmac_xor (x, data, sk->k1, bs);
  else
    {
      /* The length is public; the padded block is built in place.  */
      memset (x, 0, bs);
      memcpy (x, data, len);
      x[len] = 0x80;
      cmac_xor (x, x, sk->k2, bs);
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
  const size_t bs = cmac_bs (c);
  unsigned int depth = cmac_blocks (c, x, data, nblocks);
  cmac_xor (x, x, last, bs);
  cmac_xor (x, x, sk->k1, bs);
  depth = umax (depth, c->spec->encrypt (c->ctx, tag, x));
  wipememory (x, sizeof x);
  return depth;
}
