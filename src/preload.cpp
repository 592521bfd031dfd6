/* preload.cpp - the interposer: gcry_cipher_* served by gcipher, the rest
 * forwarded to the real libgcrypt (libgcipher-preload.so).
 *
 * Use:  LD_PRELOAD=/path/libgcipher-preload.so program-linked-to-libgcrypt
 *
 * Every gcry_cipher_* function of src/gcrypt.h is exported in libgcrypt's
 * version node GCRYPT_1.6 (preload.vers), so the program's versioned
 * references bind here.  Everything else (gcry_control, hashes, MPIs,
 * random, ...) stays in the real libgcrypt.
 *
 * Dispatch
 *   gcry_cipher_open: if _gcry_cipher_is_implemented (algo, mode, flags)
 *   the handle is gcipher's own (first field CTX_MAGIC_NORMAL/SECURE).
 *   Otherwise the call goes to the next definition in the lookup order
 *   (dlvsym (RTLD_NEXT, name, "GCRYPT_1.6"), i.e. the real libgcrypt) and
 *   the caller gets a small forwarding handle (struct preload_handle, first
 *   field PRELOAD_MAGIC) holding the real handle.  Every handle call
 *   dispatches on that first 32-bit field.  Handle-less calls (algo_info,
 *   algo_name, get_algo_keylen/blklen) are gcipher's when gcipher has the
 *   algorithm, else forwarded; map_name and mode_from_oid ask gcipher
 *   first and forward when it does not know the name/OID.  If the real
 *   libgcrypt is not in the process, forwarded calls fail with
 *   GPG_ERR_NOT_IMPLEMENTED (or return 0 / "?" for the handle-less ones).
 *
 * Environment (read once, at the first call)
 *   GCIPHER_STRICT=1     no forwarding: what gcipher does not implement
 *                        gets libgcrypt's "unknown" answers
 *                        (GPG_ERR_CIPHER_ALGO for an algorithm,
 *                        GPG_ERR_INV_CIPHER_MODE for a mode, "?", 0).
 *   GCIPHER_TRACE=1|/file  trace lines to stderr or appended to the file
 *                        (src/trace.cpp; the substitutes trace too).
 *   GCIPHER_DISABLE_HWF  gcipher's hwf disable list (src/hwfeatures.cpp;
 *                        gcry_control goes to the real libgcrypt here).
 *   GCIPHER_FORWARD=NAME[,NAME...]
 *                        algorithms gcipher does not serve even though it
 *                        implements them (names as gcry_cipher_map_name
 *                        takes them, e.g. "TWOFISH,CAMELLIA128"): they are
 *                        forwarded, or refused like unknown algorithms
 *                        under GCIPHER_STRICT.  For comparing one
 *                        algorithm against the real libgcrypt inside a
 *                        program, and for the forwarding path's tests.
 *
 * Trace format (one line per event; HD is the pointer the caller holds,
 * NAME the algorithm name as gcry_cipher_algo_name gives it, MODE one of
 * ECB CFB CBC STREAM OFB CTR AESWRAP CCM GCM POLY1305 OCB CFB8 XTS EAX SIV
 * GCM-SIV or the mode number):
 *   gcipher: open hd=<HD> algo=<NAME> mode=<MODE> -> gcipher
 *   gcipher: open hd=<HD> algo=<NAME> mode=<MODE> -> forwarded
 *   gcipher: open hd=(nil) algo=<NAME> mode=<MODE> -> rejected err=<CODE>
 *        (strict mode refused, or the open failed; CODE = gpg_err_code_t)
 *   gcipher: setkey hd=<HD> path=<IMPL>        (IMPL = the handle's
 *        impl_name after setkey, e.g. "aesni", "generic")
 *   gcipher: setkey hd=<HD> path=forwarded
 *   A failed setkey appends " err=<CODE>".
 */
#include <config.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "g10lib.h"
#include "../cipher/cipher-internal.h"

#define GCIPHER_EXPORT extern "C" __attribute__ ((visibility ("default")))

namespace {

/* First field of a forwarding handle; distinct from CTX_MAGIC_NORMAL and
 * CTX_MAGIC_SECURE ("PRLD").  Cleared on close.  */
constexpr uint32_t PRELOAD_MAGIC = 0x50524c44u;
static_assert (PRELOAD_MAGIC != CTX_MAGIC_NORMAL
               && PRELOAD_MAGIC != CTX_MAGIC_SECURE);

/* The handle the caller gets for a forwarded open.  */
struct preload_handle
{
  uint32_t magic;           /* PRELOAD_MAGIC.  */
  gcry_cipher_hd_t real;    /* The real libgcrypt's handle.  */
  int mode;                 /* As opened.  */
};

/* Modes whose authenticate/gettag/checktag read or write the buffer.  */
bool
aead_mode (int mode)
{
  switch (mode)
    {
    case GCRY_CIPHER_MODE_CCM: case GCRY_CIPHER_MODE_GCM:
    case GCRY_CIPHER_MODE_POLY1305: case GCRY_CIPHER_MODE_OCB:
    case GCRY_CIPHER_MODE_EAX: case GCRY_CIPHER_MODE_SIV:
    case GCRY_CIPHER_MODE_GCM_SIV:
      return true;
    default:
      return false;
    }
}

/* A NULL buffer of nonzero length would crash the real libgcrypt;
 * forwarded handles get gcipher's answer for it, GPG_ERR_INV_ARG, as
 * gcipher's own handles do.  */
bool
null_buffer (const void *p, size_t len)
{
  return !p && len;
}

/* The real libgcrypt's cipher API (NULL members if absent).  */
struct real_api
{
  gcry_error_t (*open) (gcry_cipher_hd_t *, int, int, unsigned int);
  void (*close) (gcry_cipher_hd_t);
  gcry_error_t (*ctl) (gcry_cipher_hd_t, int, void *, size_t);
  gcry_error_t (*info) (gcry_cipher_hd_t, int, void *, size_t *);
  gcry_error_t (*algo_info) (int, int, void *, size_t *);
  const char *(*algo_name) (int);
  int (*map_name) (const char *);
  int (*mode_from_oid) (const char *);
  gcry_error_t (*encrypt) (gcry_cipher_hd_t, void *, size_t, const void *,
                           size_t);
  gcry_error_t (*decrypt) (gcry_cipher_hd_t, void *, size_t, const void *,
                           size_t);
  gcry_error_t (*setkey) (gcry_cipher_hd_t, const void *, size_t);
  gcry_error_t (*setiv) (gcry_cipher_hd_t, const void *, size_t);
  gcry_error_t (*setctr) (gcry_cipher_hd_t, const void *, size_t);
  gcry_error_t (*authenticate) (gcry_cipher_hd_t, const void *, size_t);
  gcry_error_t (*gettag) (gcry_cipher_hd_t, void *, size_t);
  gcry_error_t (*checktag) (gcry_cipher_hd_t, const void *, size_t);
  size_t (*get_algo_keylen) (int);
  size_t (*get_algo_blklen) (int);
};

/* Process-wide state, set once by preload_init under pthread_once and
 * read-only afterwards.  Constant-initialised (no dynamic init).  */
pthread_once_t init_once = PTHREAD_ONCE_INIT;
real_api real;                 /* All NULL in strict mode.  */
const char *(*real_algo_name_for_trace) (int);
int strict_mode;
/* GCIPHER_FORWARD's algorithm ids (0-terminated).  */
constexpr int MAX_FORWARD = 32;
int forward_algos[MAX_FORWARD + 1];

/* Resolve the next definition of NAME in libgcrypt's version node.  */
template <typename F>
void
resolve (F &slot, const char *name)
{
  slot = reinterpret_cast<F> (dlvsym (RTLD_NEXT, name, "GCRYPT_1.6"));
}

void
preload_init (void)
{
  const char *s = getenv ("GCIPHER_STRICT");
  strict_mode = s && *s && strcmp (s, "0") != 0;

  const char *f = getenv ("GCIPHER_FORWARD");
  int n_forward = 0;
  while (f && *f && n_forward < MAX_FORWARD)
    {
      const char *end = strchr (f, ',');
      size_t len = end ? (size_t) (end - f) : strlen (f);
      char name[64];
      if (len && len < sizeof name)
        {
          memcpy (name, f, len);
          name[len] = 0;
          int algo = _gcry_cipher_map_name (name);
          if (algo)
            forward_algos[n_forward++] = algo;
        }
      f = end ? end + 1 : nullptr;
    }

  real_api r{};
  resolve (r.open, "gcry_cipher_open");
  resolve (r.close, "gcry_cipher_close");
  resolve (r.ctl, "gcry_cipher_ctl");
  resolve (r.info, "gcry_cipher_info");
  resolve (r.algo_info, "gcry_cipher_algo_info");
  resolve (r.algo_name, "gcry_cipher_algo_name");
  resolve (r.map_name, "gcry_cipher_map_name");
  resolve (r.mode_from_oid, "gcry_cipher_mode_from_oid");
  resolve (r.encrypt, "gcry_cipher_encrypt");
  resolve (r.decrypt, "gcry_cipher_decrypt");
  resolve (r.setkey, "gcry_cipher_setkey");
  resolve (r.setiv, "gcry_cipher_setiv");
  resolve (r.setctr, "gcry_cipher_setctr");
  resolve (r.authenticate, "gcry_cipher_authenticate");
  resolve (r.gettag, "gcry_cipher_gettag");
  resolve (r.checktag, "gcry_cipher_checktag");
  resolve (r.get_algo_keylen, "gcry_cipher_get_algo_keylen");
  resolve (r.get_algo_blklen, "gcry_cipher_get_algo_blklen");
  /* Names in the trace are wanted even when nothing is forwarded.  */
  real_algo_name_for_trace = r.algo_name;
  if (!strict_mode)
    real = r;
}

inline void
init (void)
{
  pthread_once (&init_once, preload_init);
}

inline gcry_error_t
wrap (gcry_err_code_t ec)
{
  return gcry_error_gcrypt (ec);
}

/* Name of ALGO for the trace: gcipher's, else the real library's, else
 * the number.  */
const char *
trace_algo_name (int algo, char *buf, size_t buflen)
{
  if (_gcry_cipher_spec_from_algo (algo))
    return _gcry_cipher_algo_name (algo);
  if (real_algo_name_for_trace)
    {
      const char *n = real_algo_name_for_trace (algo);
      if (n && strcmp (n, "?") != 0)
        return n;
    }
  snprintf (buf, buflen, "%d", algo);
  return buf;
}

/* The forwarding handle behind H, or NULL if H is gcipher's own (or
 * NULL).  */
inline preload_handle *
as_forwarded (gcry_cipher_hd_t h)
{
  if (!h)
    return nullptr;
  uint32_t magic;
  memcpy (&magic, static_cast<const void *> (h), sizeof magic);
  return magic == PRELOAD_MAGIC ? reinterpret_cast<preload_handle *> (h)
                                : nullptr;
}

inline bool
forwarded_by_request (int algo)
{
  for (int i = 0; forward_algos[i]; i++)
    if (forward_algos[i] == algo)
      return true;
  return false;
}

/* gcipher serves ALGO: it implements it and GCIPHER_FORWARD does not
 * name it.  */
inline bool
ours_algo (int algo)
{
  return _gcry_cipher_spec_from_algo (algo) != nullptr
         && !forwarded_by_request (algo);
}

/* ALGO for gcipher's handle-less answers: 0 (an id nobody knows) for
 * an algorithm GCIPHER_FORWARD takes away, so strict mode answers for
 * it as for an unknown algorithm.  */
inline int
gc_algo (int algo)
{
  return forwarded_by_request (algo) ? 0 : algo;
}

/* Error for a forwarded call when there is nothing to forward to.  */
inline gcry_error_t
no_real (void)
{
  return wrap (GPG_ERR_NOT_IMPLEMENTED);
}

} // namespace

/* ------------------------------------------------------------------ */
/* Exported API.                                                       */
/* ------------------------------------------------------------------ */

GCIPHER_EXPORT gcry_error_t
gcry_cipher_open (gcry_cipher_hd_t *handle, int algo, int mode,
                  unsigned int flags)
{
  init ();
  if (!handle)
    return wrap (GPG_ERR_INV_ARG);
  *handle = nullptr;

  char ab[16], mb[16];
  gcry_err_code_t ec;
  if (!forwarded_by_request (algo)
      && _gcry_cipher_is_implemented (algo, mode, flags))
    {
      gcry_cipher_hd_t h = nullptr;
      ec = _gcry_cipher_open (&h, algo, mode, flags);
      if (!ec)
        {
          *handle = h;
          if (_gcry_trace_on ())
            _gcry_trace ("gcipher: open hd=%p algo=%s mode=%s -> gcipher",
                   static_cast<void *> (h), trace_algo_name (algo, ab, sizeof ab),
                   _gcry_trace_mode_name (mode, mb, sizeof mb));
          return 0;
        }
    }
  else if (strict_mode)
    {
      /* libgcrypt's answers for an algorithm / mode it does not know;
       * flag problems of a known combination come from gcipher.  */
      const cipher_spec *spec = _gcry_cipher_spec_from_algo (algo);
      if (!spec || forwarded_by_request (algo))
        ec = GPG_ERR_CIPHER_ALGO;
      else if (!_gcry_cipher_mode_supported (spec, mode))
        ec = GPG_ERR_INV_CIPHER_MODE;
      else
        {
          gcry_cipher_hd_t h = nullptr;
          ec = _gcry_cipher_open (&h, algo, mode, flags);
          if (!ec)   /* Cannot happen if is_implemented is consistent.  */
            {
              _gcry_cipher_close (h);
              ec = GPG_ERR_INV_FLAG;
            }
        }
    }
  else if (!real.open)
    ec = GPG_ERR_NOT_IMPLEMENTED;
  else
    {
      preload_handle *p
        = static_cast<preload_handle *> (malloc (sizeof (preload_handle)));
      if (!p)
        return wrap (gpg_err_code_from_syserror ());
      gcry_cipher_hd_t rh = nullptr;
      gcry_error_t err = real.open (&rh, algo, mode, flags);
      if (err)
        {
          free (p);
          if (_gcry_trace_on ())
            _gcry_trace ("gcipher: open hd=(nil) algo=%s mode=%s -> rejected err=%d",
                   trace_algo_name (algo, ab, sizeof ab),
                   _gcry_trace_mode_name (mode, mb, sizeof mb), (int) gpg_err_code (err));
          return err;   /* Already a libgcrypt error value.  */
        }
      p->magic = PRELOAD_MAGIC;
      p->real = rh;
      p->mode = mode;
      *handle = reinterpret_cast<gcry_cipher_hd_t> (p);
      if (_gcry_trace_on ())
        _gcry_trace ("gcipher: open hd=%p algo=%s mode=%s -> forwarded",
               static_cast<void *> (p), trace_algo_name (algo, ab, sizeof ab),
               _gcry_trace_mode_name (mode, mb, sizeof mb));
      return 0;
    }

  if (_gcry_trace_on ())
    _gcry_trace ("gcipher: open hd=(nil) algo=%s mode=%s -> rejected err=%d",
           trace_algo_name (algo, ab, sizeof ab),
           _gcry_trace_mode_name (mode, mb, sizeof mb), (int) ec);
  return wrap (ec);
}

GCIPHER_EXPORT void
gcry_cipher_close (gcry_cipher_hd_t h)
{
  if (!h)
    return;
  init ();
  if (preload_handle *p = as_forwarded (h))
    {
      if (real.close)
        real.close (p->real);
      p->magic = 0;
      p->real = nullptr;
      free (p);
      return;
    }
  _gcry_cipher_close (h);
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_ctl (gcry_cipher_hd_t h, int cmd, void *buffer, size_t buflen)
{
  init ();
  if (preload_handle *p = as_forwarded (h))
    return real.ctl ? real.ctl (p->real, cmd, buffer, buflen) : no_real ();
  return wrap (_gcry_cipher_ctl (h, cmd, buffer, buflen));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_info (gcry_cipher_hd_t h, int what, void *buffer, size_t *nbytes)
{
  init ();
  if (preload_handle *p = as_forwarded (h))
    return real.info ? real.info (p->real, what, buffer, nbytes) : no_real ();
  return wrap (_gcry_cipher_info (h, what, buffer, nbytes));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_algo_info (int algo, int what, void *buffer, size_t *nbytes)
{
  init ();
  if (ours_algo (algo) || strict_mode)
    return wrap (_gcry_cipher_algo_info (gc_algo (algo), what, buffer,
                                         nbytes));
  return real.algo_info ? real.algo_info (algo, what, buffer, nbytes)
                        : no_real ();
}

GCIPHER_EXPORT const char *
gcry_cipher_algo_name (int algo)
{
  init ();
  if (ours_algo (algo) || strict_mode || !real.algo_name)
    return _gcry_cipher_algo_name (gc_algo (algo));
  return real.algo_name (algo);
}

GCIPHER_EXPORT int
gcry_cipher_map_name (const char *name)
{
  init ();
  int algo = gc_algo (_gcry_cipher_map_name (name));
  if (!algo && real.map_name)
    algo = real.map_name (name);
  return algo;
}

GCIPHER_EXPORT int
gcry_cipher_mode_from_oid (const char *oid)
{
  init ();
  int mode = _gcry_cipher_mode_from_oid (oid);
  if (!mode && real.mode_from_oid)
    mode = real.mode_from_oid (oid);
  return mode;
}

GCIPHER_EXPORT size_t
gcry_cipher_get_algo_keylen (int algo)
{
  init ();
  if (ours_algo (algo) || !real.get_algo_keylen)
    return _gcry_cipher_get_algo_keylen (gc_algo (algo));
  return real.get_algo_keylen (algo);
}

GCIPHER_EXPORT size_t
gcry_cipher_get_algo_blklen (int algo)
{
  init ();
  if (ours_algo (algo) || !real.get_algo_blklen)
    return _gcry_cipher_get_algo_blklen (gc_algo (algo));
  return real.get_algo_blklen (algo);
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_encrypt (gcry_cipher_hd_t h, void *out, size_t outsize,
                     const void *in, size_t inlen)
{
  init ();
  if (preload_handle *p = as_forwarded (h))
    {
      if (null_buffer (out, outsize))
        return wrap (GPG_ERR_INV_ARG);
      return real.encrypt ? real.encrypt (p->real, out, outsize, in, inlen)
                        : no_real ();
    }
  return wrap (_gcry_cipher_encrypt (h, out, outsize, in, inlen));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_decrypt (gcry_cipher_hd_t h, void *out, size_t outsize,
                     const void *in, size_t inlen)
{
  init ();
  if (preload_handle *p = as_forwarded (h))
    {
      if (null_buffer (out, outsize))
        return wrap (GPG_ERR_INV_ARG);
      return real.decrypt ? real.decrypt (p->real, out, outsize, in, inlen)
                        : no_real ();
    }
  return wrap (_gcry_cipher_decrypt (h, out, outsize, in, inlen));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_setkey (gcry_cipher_hd_t h, const void *key, size_t keylen)
{
  init ();
  if (preload_handle *p = as_forwarded (h))
    {
      if (null_buffer (key, keylen))
        return gcry_error_user1 (GPG_ERR_INV_ARG);
      gcry_error_t err = real.setkey ? real.setkey (p->real, key, keylen)
                                     : no_real ();
      if (_gcry_trace_on ())
        {
          if (err)
            _gcry_trace ("gcipher: setkey hd=%p path=forwarded err=%d",
                   static_cast<void *> (h), (int) gpg_err_code (err));
          else
            _gcry_trace ("gcipher: setkey hd=%p path=forwarded",
                   static_cast<void *> (h));
        }
      return err;
    }
  gcry_err_code_t ec = _gcry_cipher_setkey (h, key, keylen);
  _gcry_trace_setkey (h, ec);
  return gcry_error_user1 (ec);
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_setiv (gcry_cipher_hd_t h, const void *iv, size_t ivlen)
{
  init ();
  if (preload_handle *p = as_forwarded (h))
    return real.setiv ? real.setiv (p->real, iv, ivlen) : no_real ();
  return gcry_error_user1 (_gcry_cipher_setiv (h, iv, ivlen));
}

GCIPHER_EXPORT gpg_error_t
gcry_cipher_setctr (gcry_cipher_hd_t h, const void *ctr, size_t ctrlen)
{
  init ();
  if (preload_handle *p = as_forwarded (h))
    return real.setctr ? real.setctr (p->real, ctr, ctrlen) : no_real ();
  return gcry_error_user1 (_gcry_cipher_setctr (h, ctr, ctrlen));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_authenticate (gcry_cipher_hd_t h, const void *abuf,
                          size_t abuflen)
{
  init ();
  if (preload_handle *p = as_forwarded (h))
    {
      if (aead_mode (p->mode) && null_buffer (abuf, abuflen))
        return wrap (GPG_ERR_INV_ARG);
      return real.authenticate ? real.authenticate (p->real, abuf, abuflen)
                               : no_real ();
    }
  return wrap (_gcry_cipher_authenticate (h, abuf, abuflen));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_gettag (gcry_cipher_hd_t h, void *outtag, size_t taglen)
{
  init ();
  if (preload_handle *p = as_forwarded (h))
    {
      if (aead_mode (p->mode) && null_buffer (outtag, taglen))
        return wrap (GPG_ERR_INV_ARG);
      return real.gettag ? real.gettag (p->real, outtag, taglen) : no_real ();
    }
  return wrap (_gcry_cipher_gettag (h, outtag, taglen));
}

GCIPHER_EXPORT gcry_error_t
gcry_cipher_checktag (gcry_cipher_hd_t h, const void *intag, size_t taglen)
{
  init ();
  if (preload_handle *p = as_forwarded (h))
    {
      if (aead_mode (p->mode) && null_buffer (intag, taglen))
        return wrap (GPG_ERR_INV_ARG);
      return real.checktag ? real.checktag (p->real, intag, taglen)
                           : no_real ();
    }
  return wrap (_gcry_cipher_checktag (h, intag, taglen));
}
