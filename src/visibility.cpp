/* visibility.cpp - the exported gcry_cipher_* functions of the
 * substitute libgcrypt.so.20 (and of the static test library).
 *
 * Each one wraps its _gcry_cipher_* counterpart (cipher/cipher.cpp) and
 * turns the error code into a gcry_error_t with the error source
 * libgcrypt 1.10 itself reports for that function, as observed on the
 * system library: GPG_ERR_SOURCE_GCRYPT for most, but
 * GPG_ERR_SOURCE_USER_1 (libgcrypt's GCRY_ERR_SOURCE_DEFAULT) for
 * setkey, setiv and setctr.  A 0 code stays 0.  No logic beyond that.
 * The core calls (gcry_control, memory, ...) are in visibility-core.cpp
 * (cipher-only substitute) or visibility-full.cpp (full substitute).
 * With GCIPHER_TRACE (src/trace.cpp) open and setkey write the
 * interposer's trace lines ("-> gcipher", "-> rejected", "path=").
 */
#include <config.h>

#include <stdio.h>

#include "g10lib.h"
#include "../cipher/cipher-internal.h"

#define GCIPHER_EXPORT extern "C" __attribute__ ((visibility ("default")))

namespace {
inline gcry_error_t err_gcrypt (gcry_err_code_t ec) { return gcry_error_gcrypt (ec); }
inline gcry_error_t err_user1 (gcry_err_code_t ec) { return gcry_error_user1 (ec); }
} // namespace

GCIPHER_EXPORT gcry_error_t
gcry_cipher_open (gcry_cipher_hd_t *handle, int algo, int mode,
                  unsigned int flags)
{
  gcry_err_code_t ec = _gcry_cipher_open (handle, algo, mode, flags);
  if (_gcry_trace_on ())
    {
      char ab[16], mb[16];
      const char *an = _gcry_cipher_spec_from_algo (algo)
                       ? _gcry_cipher_algo_name (algo) : nullptr;
      if (!an)
        {
          snprintf (ab, sizeof ab, "%d", algo);
          an = ab;
        }
      if (ec)
        _gcry_trace ("gcipher: open hd=(nil) algo=%s mode=%s -> rejected err=%d",
                     an, _gcry_trace_mode_name (mode, mb, sizeof mb), (int) ec);
      else
        _gcry_trace ("gcipher: open hd=%p algo=%s mode=%s -> gcipher",
                     static_cast<void *> (*handle), an,
                     _gcry_trace_mode_name (mode, mb, sizeof mb));
    }
  return err_gcrypt (ec);
}

GCIPHER_EXPORT void
gcry_cipher_close (gcry_cipher_hd_t h)
{
  _gcry_cipher_close (h);
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_ctl (gcry_cipher_hd_t h, int cmd, void *buffer, size_t buflen)
{
  return err_gcrypt (_gcry_cipher_ctl (h, cmd, buffer, buflen));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_info (gcry_cipher_hd_t h, int what, void *buffer, size_t *nbytes)
{
  return err_gcrypt (_gcry_cipher_info (h, what, buffer, nbytes));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_algo_info (int algo, int what, void *buffer, size_t *nbytes)
{
  return err_gcrypt (_gcry_cipher_algo_info (algo, what, buffer, nbytes));
}

GCIPHER_EXPORT const char *
gcry_cipher_algo_name (int algorithm)
{
  return _gcry_cipher_algo_name (algorithm);
}

GCIPHER_EXPORT int
gcry_cipher_map_name (const char *name)
{
  return _gcry_cipher_map_name (name);
}

GCIPHER_EXPORT int
gcry_cipher_mode_from_oid (const char *string)
{
  return _gcry_cipher_mode_from_oid (string);
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_encrypt (gcry_cipher_hd_t h, void *out, size_t outsize,
                     const void *in, size_t inlen)
{
  return err_gcrypt (_gcry_cipher_encrypt (h, out, outsize, in, inlen));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_decrypt (gcry_cipher_hd_t h, void *out, size_t outsize,
                     const void *in, size_t inlen)
{
  return err_gcrypt (_gcry_cipher_decrypt (h, out, outsize, in, inlen));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_setkey (gcry_cipher_hd_t hd, const void *key, size_t keylen)
{
  gcry_err_code_t ec = _gcry_cipher_setkey (hd, key, keylen);
  _gcry_trace_setkey (hd, ec);
  return err_user1 (ec);
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_setiv (gcry_cipher_hd_t hd, const void *iv, size_t ivlen)
{
  return err_user1 (_gcry_cipher_setiv (hd, iv, ivlen));
}

GCIPHER_EXPORT gpg_error_t
gcry_cipher_setctr (gcry_cipher_hd_t hd, const void *ctr, size_t ctrlen)
{
  return err_user1 (_gcry_cipher_setctr (hd, ctr, ctrlen));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_authenticate (gcry_cipher_hd_t hd, const void *abuf,
                          size_t abuflen)
{
  return err_gcrypt (_gcry_cipher_authenticate (hd, abuf, abuflen));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_gettag (gcry_cipher_hd_t hd, void *outtag, size_t taglen)
{
  return err_gcrypt (_gcry_cipher_gettag (hd, outtag, taglen));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_checktag (gcry_cipher_hd_t hd, const void *intag, size_t taglen)
{
  return err_gcrypt (_gcry_cipher_checktag (hd, intag, taglen));
}

GCIPHER_EXPORT size_t
gcry_cipher_get_algo_keylen (int algo)
{
  return _gcry_cipher_get_algo_keylen (algo);
}

GCIPHER_EXPORT size_t
gcry_cipher_get_algo_blklen (int algo)
{
  return _gcry_cipher_get_algo_blklen (algo);
}
