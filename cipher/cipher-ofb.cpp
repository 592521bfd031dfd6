/* cipher-ofb.cpp - Output Feedback mode (NIST SP 800-38A 6.4).
 *
 * Byte-granular across calls: c->iv holds the current keystream block
 * (which is also the next register input), its last c->unused bytes not
 * yet used.  Encryption and decryption are the same operation.
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"

namespace {

gcry_err_code_t
ofb_crypt (gcry_cipher_hd_t c, unsigned char *outbuf, size_t outbuflen,
           const unsigned char *inbuf, size_t inbuflen)
{
  const size_t bs = c->spec->blocksize;
  unsigned int depth = 0;

  if (outbuflen < inbuflen)
    return GPG_ERR_BUFFER_TOO_SHORT;

  if (c->unused)
    {
      size_t n = inbuflen < c->unused ? inbuflen : c->unused;
      cipher_block_xor (outbuf, inbuf, c->iv + bs - c->unused, n);
      c->unused -= n;
      inbuf += n;
      outbuf += n;
      inbuflen -= n;
    }
  if (!inbuflen)
    return GPG_ERR_NO_ERROR;

  size_t nblocks = inbuflen / bs;
  if (nblocks)
    {
      if (c->bulk.ofb_enc && bs == 16)
        depth = c->bulk.ofb_enc (c->ctx, c->iv, outbuf, inbuf, nblocks);
      else
        for (size_t n = 0; n < nblocks; n++)
          {
            /* O_j = E(O_(j-1)); C_j = P_j xor O_j.  */
            unsigned int d = c->spec->encrypt (c->ctx, c->iv, c->iv);
            depth = d > depth ? d : depth;
            cipher_block_xor (outbuf + n * bs, inbuf + n * bs, c->iv, bs);
          }
      inbuf += nblocks * bs;
      outbuf += nblocks * bs;
      inbuflen -= nblocks * bs;
    }

  if (inbuflen)
    {
      unsigned int d = c->spec->encrypt (c->ctx, c->iv, c->iv);
      depth = d > depth ? d : depth;
      cipher_block_xor (outbuf, inbuf, c->iv, inbuflen);
      c->unused = bs - inbuflen;
    }

  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

} // namespace

gcry_err_code_t
_gcry_cipher_ofb_encrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                          size_t outbuflen, const unsigned char *inbuf,
                          size_t inbuflen)
{
  return ofb_crypt (c, outbuf, outbuflen, inbuf, inbuflen);
}

gcry_err_code_t
_gcry_cipher_ofb_decrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                          size_t outbuflen, const unsigned char *inbuf,
                          size_t inbuflen)
{
  return ofb_crypt (c, outbuf, outbuflen, inbuf, inbuflen);
}

namespace {

int
ofb_supported (const cipher_spec *spec)
{
  return cipher_block_spec_ok (spec);
}

} // namespace

extern const cipher_mode_ops _gcry_cipher_mode_ofb = {
  .mode = GCRY_CIPHER_MODE_OFB,
  .supported = ofb_supported,
  .encrypt = _gcry_cipher_ofb_encrypt,
  .decrypt = _gcry_cipher_ofb_decrypt,
  .check = cipher_check_outsize,
};
