/* cipher-ctr.cpp - Counter mode (NIST SP 800-38A 6.5) with the whole
 * block as one big-endian counter, incremented by one per block and
 * wrapping modulo 2^(8*blocksize) (SP 800-38A B.1, "the standard
 * incrementing function" with m = b).
 *
 * Byte-granular across calls: the unused tail of the last keystream
 * block is kept in the last c->unused bytes of c->lastiv; c->ctr is the
 * next unused counter block.  Encryption and decryption are the same.
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"

namespace {

/* CTR += 1, big-endian over N bytes.  Runs over every byte whatever the
 * carries (no data-dependent exit).  */
inline void
ctr_increment (unsigned char *ctr, size_t n)
{
  unsigned int carry = 1;
  for (size_t i = n; i-- > 0;)
    {
      carry += ctr[i];
      ctr[i] = (unsigned char) carry;
      carry >>= 8;
    }
}

/* The general case: leftover keystream first, then whole blocks, then
 * a partial block whose unused keystream is kept.  */
__attribute__ ((noinline)) gcry_err_code_t
ctr_crypt_general (gcry_cipher_hd_t c, unsigned char *outbuf,
                   const unsigned char *inbuf, size_t inbuflen)
{
  const size_t bs = c->spec->blocksize;
  unsigned int depth = 0;

  if (c->unused)
    {
      size_t n = inbuflen < c->unused ? inbuflen : c->unused;
      cipher_block_xor (outbuf, inbuf, c->lastiv + bs - c->unused, n);
      c->unused -= n;
      inbuf += n;
      outbuf += n;
      inbuflen -= n;
    }
  if (!inbuflen)
    return GPG_ERR_NO_ERROR;

  size_t nblocks = inbuflen / bs;
  unsigned char ks[MAX_BLOCKSIZE];
  bool ks_used = false;  /* Whether KS held keystream (public: lengths). */
  if (nblocks)
    {
      if (c->bulk.ctr16be_enc && bs == 16)
        depth = c->bulk.ctr16be_enc (c->ctx, c->ctr, outbuf, inbuf, nblocks);
      else
        for (size_t n = 0; n < nblocks; n++, ks_used = true)
          {
            unsigned int d = c->spec->encrypt (c->ctx, ks, c->ctr);
            depth = d > depth ? d : depth;
            ctr_increment (c->ctr, bs);
            cipher_block_xor (outbuf + n * bs, inbuf + n * bs, ks, bs);
          }
      inbuf += nblocks * bs;
      outbuf += nblocks * bs;
      inbuflen -= nblocks * bs;
    }

  if (inbuflen)
    {
      unsigned int d = c->spec->encrypt (c->ctx, ks, c->ctr);
      depth = d > depth ? d : depth;
      ctr_increment (c->ctr, bs);
      cipher_block_xor (outbuf, inbuf, ks, inbuflen);
      c->unused = bs - inbuflen;
      memcpy (c->lastiv + inbuflen, ks + inbuflen, c->unused);
      ks_used = true;
    }
  if (ks_used)
    wipememory (ks, sizeof ks);

  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

/* Fast path for the common call: no leftover keystream, whole 16-byte
 * blocks and a bulk function: straight to it, with a small frame (the
 * general case lives in its own function).  */
inline gcry_err_code_t
ctr_crypt (gcry_cipher_hd_t c, unsigned char *outbuf, size_t outbuflen,
           const unsigned char *inbuf, size_t inbuflen)
{
  if (outbuflen < inbuflen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  const auto bulk = c->bulk.ctr16be_enc;
  if (__builtin_expect (!c->unused && !(inbuflen % 16) && bulk
                        && c->spec->blocksize == 16, 1))
    {
      if (inbuflen)
        cipher_burn (bulk (c->ctx, c->ctr, outbuf, inbuf, inbuflen / 16));
      return GPG_ERR_NO_ERROR;
    }
  return ctr_crypt_general (c, outbuf, inbuf, inbuflen);
}

} // namespace

gcry_err_code_t
_gcry_cipher_ctr_encrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                          size_t outbuflen, const unsigned char *inbuf,
                          size_t inbuflen)
{
  return ctr_crypt (c, outbuf, outbuflen, inbuf, inbuflen);
}

gcry_err_code_t
_gcry_cipher_ctr_decrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                          size_t outbuflen, const unsigned char *inbuf,
                          size_t inbuflen)
{
  return ctr_crypt (c, outbuf, outbuflen, inbuf, inbuflen);
}

namespace {

int
ctr_supported (const cipher_spec *spec)
{
  return cipher_block_spec_ok (spec);
}

} // namespace

extern const cipher_mode_ops _gcry_cipher_mode_ctr = {
  .mode = GCRY_CIPHER_MODE_CTR,
  .supported = ctr_supported,
  .encrypt = _gcry_cipher_ctr_encrypt,
  .decrypt = _gcry_cipher_ctr_decrypt,
  .check = cipher_check_outsize,
};
