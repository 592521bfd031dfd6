/* cipher-ecb.cpp - Electronic Codebook mode (NIST SP 800-38A 6.1):
 * each block on its own, whole blocks only, no state between calls.
 */
#include <config.h>

#include "g10lib.h"
#include "cipher-internal.h"

namespace {

/* ECB's rules in their order: OUTBUFLEN >= INBUFLEN, else
 * GPG_ERR_BUFFER_TOO_SHORT; INBUFLEN a multiple of the block size, else
 * GPG_ERR_INV_LENGTH.  */
inline gcry_err_code_t
ecb_check_lengths (gcry_cipher_hd_t c, size_t outbuflen, size_t inbuflen)
{
  if (outbuflen < inbuflen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (cipher_tail (inbuflen, c->spec->blocksize))
    return GPG_ERR_INV_LENGTH;
  return GPG_ERR_NO_ERROR;
}

/* Lengths in bytes; INBUFLEN must be a multiple of the block size.
 * The general case: any block size, one block at a time where there is
 * no bulk kernel (out of line: its loop's registers would otherwise
 * give the common case below a frame of six saved registers).  */
__attribute__ ((noinline)) gcry_err_code_t
ecb_crypt_general (gcry_cipher_hd_t c, unsigned char *outbuf,
                   size_t outbuflen, const unsigned char *inbuf,
                   size_t inbuflen, int encrypt)
{
  const size_t bs = c->spec->blocksize;
  if (gcry_err_code_t rc = ecb_check_lengths (c, outbuflen, inbuflen))
    return rc;

  size_t nblocks = cipher_nblocks (inbuflen, bs);
  unsigned int depth = 0;
  if (!nblocks)
    return GPG_ERR_NO_ERROR;
  /* One block: the single-block function (no wide-kernel set-up or
   * vector-register clearing; same result).  */
  if (c->bulk.ecb_crypt && bs == 16 && nblocks > 1)
    depth = c->bulk.ecb_crypt (c->ctx, outbuf, inbuf, nblocks, encrypt);
  else
    {
      auto fn = encrypt ? c->spec->encrypt : c->spec->decrypt;
      for (; nblocks; nblocks--, inbuf += bs, outbuf += bs)
        {
          unsigned int d = fn (c->ctx, outbuf, inbuf);
          depth = d > depth ? d : depth;
        }
    }
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

/* The common case first: 16-byte blocks, valid lengths, a bulk kernel
 * and more than one block, with the checks as masks and shifts and no
 * frame beyond the call (a short message's ECB call is mostly this
 * overhead: it divided by the block size and saved six registers).
 * Everything else, errors included, goes to ecb_crypt_general, which
 * checks in ECB's order.  */
inline gcry_err_code_t
ecb_crypt (gcry_cipher_hd_t c, unsigned char *outbuf, size_t outbuflen,
           const unsigned char *inbuf, size_t inbuflen, int encrypt)
{
  if (c->spec->blocksize == 16 && c->bulk.ecb_crypt
      && outbuflen >= inbuflen && !(inbuflen & 15) && inbuflen > 16)
    {
      cipher_burn (c->bulk.ecb_crypt (c->ctx, outbuf, inbuf, inbuflen >> 4,
                                      encrypt));
      return GPG_ERR_NO_ERROR;
    }
  return ecb_crypt_general (c, outbuf, outbuflen, inbuf, inbuflen, encrypt);
}

int
ecb_supported (const cipher_spec *spec)
{
  return cipher_block_spec_ok (spec);
}

gcry_err_code_t
ecb_check (gcry_cipher_hd_t c, size_t outsize, size_t inlen, bool)
{
  return ecb_check_lengths (c, outsize, inlen);
}

} // namespace

gcry_err_code_t
_gcry_cipher_ecb_encrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                          size_t outbuflen, const unsigned char *inbuf,
                          size_t inbuflen)
{
  return ecb_crypt (c, outbuf, outbuflen, inbuf, inbuflen, 1);
}

gcry_err_code_t
_gcry_cipher_ecb_decrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                          size_t outbuflen, const unsigned char *inbuf,
                          size_t inbuflen)
{
  return ecb_crypt (c, outbuf, outbuflen, inbuf, inbuflen, 0);
}

extern const cipher_mode_ops _gcry_cipher_mode_ecb = {
  .mode = GCRY_CIPHER_MODE_ECB,
  .supported = ecb_supported,
  .encrypt = _gcry_cipher_ecb_encrypt,
  .decrypt = _gcry_cipher_ecb_decrypt,
  .check = ecb_check,
};
