/* cipher-cfb.cpp - Cipher Feedback mode (NIST SP 800-38A 6.3): CFB-128
 * (GCRY_CIPHER_MODE_CFB, segment = block) and CFB-8
 * (GCRY_CIPHER_MODE_CFB8, 8-bit segments).
 *
 * CFB is byte-granular across calls.  State (same layout as libgcrypt,
 * see cipher-internal.h): c->iv holds E(register) while a block is in
 * progress, its first (blocksize - unused) bytes already replaced by
 * ciphertext; so once the block is complete c->iv is the ciphertext
 * block, which is the next register.  When a call ends inside a block
 * c->lastiv keeps the register that block came from, for OpenPGP
 * resynchronisation (GCRYCTL_CFB_SYNC, see cipher.cpp).
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"

namespace {

/* XOR N bytes of IN with the keystream bytes at KS into OUT, leaving the
 * ciphertext bytes in KS.  ENCRYPT: ciphertext = output; else
 * ciphertext = input (read first: IN may equal OUT).  */
inline void
cfb_xor (unsigned char *out, unsigned char *ks, const unsigned char *in,
         size_t n, bool encrypt)
{
  for (size_t i = 0; i < n; i++)
    {
      unsigned char x = in[i];
      unsigned char y = ks[i] ^ x;
      ks[i] = encrypt ? y : x;
      out[i] = y;
    }
}

gcry_err_code_t
cfb_crypt (gcry_cipher_hd_t c, unsigned char *outbuf, size_t outbuflen,
           const unsigned char *inbuf, size_t inbuflen, bool encrypt)
{
  const size_t bs = c->spec->blocksize;
  unsigned int depth = 0;

  if (outbuflen < inbuflen)
    return GPG_ERR_BUFFER_TOO_SHORT;

  /* Leftover keystream of the block in progress.  */
  if (c->unused)
    {
      size_t n = inbuflen < c->unused ? inbuflen : c->unused;
      cfb_xor (outbuf, c->iv + bs - c->unused, inbuf, n, encrypt);
      c->unused -= n;
      inbuf += n;
      outbuf += n;
      inbuflen -= n;
    }
  if (!inbuflen)
    return GPG_ERR_NO_ERROR;

  /* Whole blocks.  */
  size_t nblocks = cipher_nblocks (inbuflen, bs);
  if (nblocks)
    {
      auto bulk_fn = encrypt ? c->bulk.cfb_enc : c->bulk.cfb_dec;
      if (bulk_fn && bs == 16)
        depth = bulk_fn (c->ctx, c->iv, outbuf, inbuf, nblocks);
      else
        for (size_t n = 0; n < nblocks; n++)
          {
            depth = umax (depth, c->spec->encrypt (c->ctx, c->iv, c->iv));
            cfb_xor (outbuf + n * bs, c->iv, inbuf + n * bs, bs, encrypt);
          }
      inbuf += nblocks * bs;
      outbuf += nblocks * bs;
      inbuflen -= nblocks * bs;
    }

  /* A partial block: start a new keystream block, keep the rest.  */
  if (inbuflen)
    {
      memcpy (c->lastiv, c->iv, bs);
      depth = umax (depth, c->spec->encrypt (c->ctx, c->iv, c->iv));
      cfb_xor (outbuf, c->iv, inbuf, inbuflen, encrypt);
      c->unused = bs - inbuflen;
    }

  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

/* CFB-8: per byte, keystream byte = first byte of E(register) (kept in
 * c->lastiv); the register shifts left by one byte and takes in the
 * ciphertext byte.  */
gcry_err_code_t
cfb8_crypt (gcry_cipher_hd_t c, unsigned char *outbuf, size_t outbuflen,
            const unsigned char *inbuf, size_t inbuflen, bool encrypt)
{
  const size_t bs = c->spec->blocksize;
  unsigned int depth = 0;

  if (outbuflen < inbuflen)
    return GPG_ERR_BUFFER_TOO_SHORT;

  for (size_t i = 0; i < inbuflen; i++)
    {
      depth = umax (depth, c->spec->encrypt (c->ctx, c->lastiv, c->iv));
      unsigned char x = inbuf[i];
      unsigned char y = c->lastiv[0] ^ x;
      memmove (c->iv, c->iv + 1, bs - 1);
      c->iv[bs - 1] = encrypt ? y : x;
      outbuf[i] = y;
    }

  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

} // namespace

gcry_err_code_t
_gcry_cipher_cfb_encrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                          size_t outbuflen, const unsigned char *inbuf,
                          size_t inbuflen)
{
  return cfb_crypt (c, outbuf, outbuflen, inbuf, inbuflen, true);
}

gcry_err_code_t
_gcry_cipher_cfb_decrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                          size_t outbuflen, const unsigned char *inbuf,
                          size_t inbuflen)
{
  return cfb_crypt (c, outbuf, outbuflen, inbuf, inbuflen, false);
}

gcry_err_code_t
_gcry_cipher_cfb8_encrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                           size_t outbuflen, const unsigned char *inbuf,
                           size_t inbuflen)
{
  return cfb8_crypt (c, outbuf, outbuflen, inbuf, inbuflen, true);
}

gcry_err_code_t
_gcry_cipher_cfb8_decrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                           size_t outbuflen, const unsigned char *inbuf,
                           size_t inbuflen)
{
  return cfb8_crypt (c, outbuf, outbuflen, inbuf, inbuflen, false);
}

namespace {

int
cfb_supported (const cipher_spec *spec)
{
  return cipher_block_spec_ok (spec);
}

} // namespace

extern const cipher_mode_ops _gcry_cipher_mode_cfb = {
  .mode = GCRY_CIPHER_MODE_CFB,
  .supported = cfb_supported,
  .encrypt = _gcry_cipher_cfb_encrypt,
  .decrypt = _gcry_cipher_cfb_decrypt,
  .check = cipher_check_outsize,
};

extern const cipher_mode_ops _gcry_cipher_mode_cfb8 = {
  .mode = GCRY_CIPHER_MODE_CFB8,
  .supported = cfb_supported,
  .encrypt = _gcry_cipher_cfb8_encrypt,
  .decrypt = _gcry_cipher_cfb8_decrypt,
  .check = cipher_check_outsize,
};
