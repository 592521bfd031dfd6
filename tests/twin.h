/* twin.h - a pair of cipher handles driven call for call.
 *
 * The differential suites (t-api-diff, t-aes-gcm, t-aes-gcm-siv,
 * t-aes-macmodes, t-aes-xts-ocb, t-stream) open one handle in library A
 * (gcipher, through sysgcrypt_ours) and one in library B (the system
 * libgcrypt, loaded by sysgcrypt_load), make every call on both and
 * compare the return values (gcry_error_t: source and code) and every
 * byte written, including a guard past the output.  The first difference
 * fails the test (ADD_FAILURE) with the trace of the last calls; OK is
 * false from then on, and the caller stops.  After an error both handles
 * go on, so the state a failing call leaves behind is compared too.
 *
 * A suite derives its own Twin from this one (or holds one) for what is
 * its own: more calls, state it tracks, statistics (SAME is virtual, so
 * an override sees every comparison, the wrappers' included).
 *
 *   testutil::Twin t (sysgcrypt_ours (), sys);
 *   if (t.open (GCRY_CIPHER_AES, GCRY_CIPHER_MODE_CBC))
 *     {
 *       t.setkey (key, 16);
 *       t.crypt (true, data, 32, 32, testutil::Twin::SEPARATE);
 *     }
 *   EXPECT_TRUE (t.ok);
 */
#ifndef GCIPHER_TESTS_TWIN_H
#define GCIPHER_TESTS_TWIN_H

#include <string>

#include "sysgcrypt.h"
#include "testutil.h"

namespace testutil {

class Twin
{
public:
  Twin (const sysgcrypt *a, const sysgcrypt *b) : A (a), B (b) {}
  virtual ~Twin () { close (); }
  Twin (const Twin &) = delete;
  Twin &operator= (const Twin &) = delete;

  /* False once a difference was reported.  */
  bool ok = true;
  /* The last calls, one a line (trimmed at line ends to a few KB).  */
  std::string trace;
  /* The case at hand, when set: a report begins with it.  */
  std::string where;

  /* Add S to the trace.  */
  void note (const std::string &s);
  /* Report WHAT (after WHERE) with the trace, the first time only; OK
   * goes false.  */
  void fail (const std::string &what);
  /* "source/code (text)" of E.  */
  static std::string err_str (gcry_error_t e);
  /* EA (A's result) and EB (B's) must be equal.  */
  virtual void same (gcry_error_t ea, gcry_error_t eb, const char *what);
  /* A's bytes and B's must be equal; the report gives the first
   * differing offset and both buffers (a window of them when long).  */
  void same_bytes (const Bytes &a, const Bytes &b, const std::string &what);

  /* Close both handles, open new ones; true when both opened.  Return
   * values and the NULL-ness of the handles compared.  */
  bool open (int algo, int mode, unsigned int flags = 0);
  void close ();

  /* The calls, made on both handles; each returns A's result.  */
  gcry_error_t setkey (const void *key, size_t len);
  gcry_error_t setkey (const Bytes &key, size_t len)
  { return setkey (key.data (), len); }
  gcry_error_t setiv (const void *iv, size_t len);
  gcry_error_t setctr (const void *ctr, size_t len);
  gcry_error_t authenticate (const void *p, size_t len);
  gcry_error_t authenticate (const Bytes &ad)
  { return authenticate (ad.data (), ad.size ()); }
  /* ctl CMD with BUFLEN: each library gets its own copy of the BUFSIZE
   * bytes at BUF (BUFLEN when 0; NULL stays NULL), compared after.  */
  gcry_error_t ctl (int cmd, const void *buf, size_t buflen,
                    size_t bufsize = 0);
  /* info WHAT into a 32-byte buffer (or NULL) and a length (or NULL):
   * both compared.  */
  gcry_error_t info (int what, bool with_buffer, bool with_nbytes = true);
  /* gettag of LEN bytes into a buffer with a guard (8 bytes at least,
   * 24 bytes in all at least), compared;
   * A's LEN bytes go to LAST_TAG.  */
  gcry_error_t gettag (size_t len);
  /* checktag of LEN bytes of TAG (read from a zero-padded copy).  */
  gcry_error_t checktag (const Bytes &tag, size_t len);
  gcry_error_t checktag (const Bytes &tag)
  { return checktag (tag, tag.size ()); }

  enum InMode { SEPARATE, IN_NULL, IN_EQ_OUT };
  /* Encrypt or decrypt INLEN bytes of DATA into an OUTSIZE-byte output
   * buffer (plus a guard, all compared): the input separate, in place
   * via IN == NULL (the buffer then holds DATA's first OUTSIZE bytes,
   * INLEN is passed through and ignored by both), or in place with
   * IN == OUT.  A's first min (INLEN, OUTSIZE) output bytes go to
   * LAST_OUT.  */
  gcry_error_t crypt (bool enc, const uint8_t *data, size_t inlen,
                      size_t outsize, InMode inmode);
  gcry_error_t crypt (bool enc, const Bytes &data, size_t inlen,
                      size_t outsize, InMode inmode)
  { return crypt (enc, data.data (), inlen, outsize, inmode); }

  /* FN (a handle call of the table: cipher_setiv, ...) with ARGS on
   * both handles, the results compared as WHAT; returns A's.  */
  template <typename Fn, typename... Args>
  gcry_error_t
  call (Fn sysgcrypt::*fn, const char *what, Args... args)
  {
    gcry_error_t ea = (A->*fn) (ha, args...);
    same (ea, (B->*fn) (hb, args...), what);
    return ea;
  }

  const sysgcrypt *A, *B;
  gcry_cipher_hd_t ha = nullptr, hb = nullptr;
  /* Clear A's bulk table after each setkey, so the modes' own
   * per-block code runs (A must be gcipher then).  */
  bool strip_bulk = false;
  Bytes last_out, last_tag;
};

}  // namespace testutil

#endif /* GCIPHER_TESTS_TWIN_H */
