/* cipher-stream.cpp - GCRY_CIPHER_MODE_STREAM: a stream cipher's own
 * keystream (ARCFOUR, Salsa20, ChaCha20), byte-granular, its position
 * kept in the algorithm context.  The nonce is the spec's setiv, which
 * cipher.cpp's generic setiv calls.
 */
#include <config.h>

#include "g10lib.h"
#include "cipher-internal.h"

namespace {

/* The algorithm's stencrypt/stdecrypt over all INBUFLEN bytes.
 * libgcrypt 1.10 does not compare OUTBUFLEN with INBUFLEN here and
 * writes INBUFLEN bytes whatever the caller said; gcipher refuses a
 * short output with GPG_ERR_BUFFER_TOO_SHORT instead of overrunning it
 * (as every other mode does).  */
inline gcry_err_code_t
stream_crypt (gcry_cipher_hd_t c, unsigned char *outbuf, size_t outbuflen,
              const unsigned char *inbuf, size_t inbuflen, bool encrypt)
{
  if (outbuflen < inbuflen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  auto fn = encrypt ? c->spec->stencrypt : c->spec->stdecrypt;
  cipher_burn (fn (c->ctx, outbuf, inbuf, inbuflen));
  return GPG_ERR_NO_ERROR;
}

/* A stream cipher with both directions (cipher.cpp asks only for
 * specs with stencrypt; a block cipher gets no here too).  */
int
stream_supported (const cipher_spec *spec)
{
  return spec->stencrypt && spec->stdecrypt;
}

} // namespace

gcry_err_code_t
_gcry_cipher_stream_encrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                             size_t outbuflen, const unsigned char *inbuf,
                             size_t inbuflen)
{
  return stream_crypt (c, outbuf, outbuflen, inbuf, inbuflen, true);
}

gcry_err_code_t
_gcry_cipher_stream_decrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                             size_t outbuflen, const unsigned char *inbuf,
                             size_t inbuflen)
{
  return stream_crypt (c, outbuf, outbuflen, inbuf, inbuflen, false);
}

extern const cipher_mode_ops _gcry_cipher_mode_stream = {
  .mode = GCRY_CIPHER_MODE_STREAM,
  .supported = stream_supported,
  .encrypt = _gcry_cipher_stream_encrypt,
  .decrypt = _gcry_cipher_stream_decrypt,
  .check = cipher_check_outsize,
};
