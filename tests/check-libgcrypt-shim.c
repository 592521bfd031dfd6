/* check-libgcrypt-shim.c - an observer that tests/check-libgcrypt preloads
 * in front of gcipher's interposer for the strict-mode runs of libgcrypt's
 * test programs:
 *
 *   LD_PRELOAD="check-libgcrypt-shim.so libgcipher-preload.so libgcrypt.so.20"
 *
 * Purpose: in strict mode every failure of a libgcrypt test program must
 * be traced back to an algorithm or mode gcipher does not implement.  The
 * programs learn that something is missing through a handful of entry
 * points, and not all of them appear in gcipher's own trace (which covers
 * open and setkey).  This shim exports exactly those entry points in
 * libgcrypt's version node GCRYPT_1.6, so the program's versioned
 * references bind here first:
 *
 *   gcry_cipher_open            algo, mode, flags
 *   gcry_cipher_algo_info       algo (gcry_cipher_test_algo is this call
 *                               with GCRYCTL_TEST_ALGO)
 *   gcry_cipher_algo_name       algo
 *   gcry_cipher_map_name        name
 *   gcry_cipher_mode_from_oid   oid
 *   gcry_cipher_get_algo_keylen algo
 *   gcry_cipher_get_algo_blklen algo
 *
 * Each call is passed on unchanged to the next definition in the lookup
 * order (gcipher's interposer) and its result returned unchanged.  Then
 * one line goes to stderr with a single write(2), so it lands between the
 * program's own failure messages (which go to the unbuffered stderr too)
 * in the order things happened:
 *
 *   check-libgcrypt-shim: CALL algo=A mode=M flags=F -> ok
 *   check-libgcrypt-shim: CALL algo=A mode=M flags=F -> refused err=E real=ok
 *   check-libgcrypt-shim: CALL algo=A mode=M flags=F -> refused err=E real=refused
 *
 * CALL is open, algo_info, algo_name, map_name, mode_from_oid, keylen or
 * blklen; mode and flags are -1 where the call has none; for map_name
 * and mode_from_oid a "name=" or "oid=" field follows CALL and algo/mode
 * is the real libgcrypt's answer.  E is the gpg_err_code of gcipher's
 * error (0 for the calls that answer 0 or "?" instead of an error).
 * "real=" is the real libgcrypt's answer to the same question, asked only
 * when gcipher says no, and a refused line ends with " rname=NAME", the
 * real libgcrypt's name of algorithm A ("-" when there is none):
 * "refused ... real=ok" marks what gcipher lacks,
 * "real=refused" a question libgcrypt refuses as well (a test of an error
 * path, which the program expects to fail).  The real library is asked
 * without side effects visible to the program: algo_info as
 * GCRYCTL_TEST_ALGO with no buffer, open as open + close.
 *
 * The real libgcrypt is the one named by CHECK_LIBGCRYPT_REAL (a path
 * given in LD_PRELOAD), else the loaded libgcrypt.so.20.  Symbols are
 * resolved in a constructor, before the program runs (no locking needed
 * later, t-lock runs threads).
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SHIM_EXPORT __attribute__ ((visibility ("default")))

/* libgcrypt ABI values (gcrypt.h, gpg-error.h).  */
typedef unsigned int gcry_error_t;
typedef struct gcry_cipher_handle *gcry_cipher_hd_t;
enum { GCRYCTL_TEST_ALGO = 8 };

/* The same entry points in one library.  */
struct api
{
  gcry_error_t (*open) (gcry_cipher_hd_t *, int, int, unsigned int);
  void (*close) (gcry_cipher_hd_t);
  gcry_error_t (*algo_info) (int, int, void *, size_t *);
  const char *(*algo_name) (int);
  int (*map_name) (const char *);
  int (*mode_from_oid) (const char *);
  size_t (*get_algo_keylen) (int);
  size_t (*get_algo_blklen) (int);
};

static struct api next_api;   /* gcipher's interposer */
static struct api real_api;   /* the real libgcrypt (may have NULLs) */

static void
resolve_all (struct api *a, void *where)
{
#define R(field, name) \
  *(void **) &a->field = dlvsym (where, name, "GCRYPT_1.6")
  R (open, "gcry_cipher_open");
  R (close, "gcry_cipher_close");
  R (algo_info, "gcry_cipher_algo_info");
  R (algo_name, "gcry_cipher_algo_name");
  R (map_name, "gcry_cipher_map_name");
  R (mode_from_oid, "gcry_cipher_mode_from_oid");
  R (get_algo_keylen, "gcry_cipher_get_algo_keylen");
  R (get_algo_blklen, "gcry_cipher_get_algo_blklen");
#undef R
}

__attribute__ ((constructor)) static void
shim_init (void)
{
  resolve_all (&next_api, RTLD_NEXT);
  const char *path = getenv ("CHECK_LIBGCRYPT_REAL");
  void *h = NULL;
  if (path && *path)
    h = dlopen (path, RTLD_LAZY | RTLD_NOLOAD);
  if (!h)
    h = dlopen ("libgcrypt.so.20", RTLD_LAZY | RTLD_NOLOAD);
  if (h)
    resolve_all (&real_api, h);
  if (!next_api.open || !next_api.algo_info)
    {
      static const char msg[] = "check-libgcrypt-shim: FATAL: no next "
                                "gcry_cipher_open@GCRYPT_1.6\n";
      if (write (STDERR_FILENO, msg, sizeof msg - 1) < 0)
        _exit (127);
      _exit (127);
    }
}

/* One stderr line, one write.  */
__attribute__ ((format (printf, 1, 2))) static void
logline (const char *fmt, ...)
{
  char line[512];
  int n = snprintf (line, sizeof line, "check-libgcrypt-shim: ");
  va_list ap;
  va_start (ap, fmt);
  int m = vsnprintf (line + n, sizeof line - (size_t) n - 1, fmt, ap);
  va_end (ap);
  if (m < 0)
    return;
  n += m;
  if ((size_t) n > sizeof line - 2)
    n = sizeof line - 2;
  line[n++] = '\n';
  ssize_t w;
  int saved = errno;
  do
    w = write (STDERR_FILENO, line, (size_t) n);
  while (w < 0 && errno == EINTR);
  errno = saved;
}

/* The real libgcrypt's name of ALGO, for the log ("-" if none).  */
static const char *
real_name (int algo)
{
  const char *n = algo > 0 && real_api.algo_name ? real_api.algo_name (algo)
                                                 : NULL;
  return n && *n && strcmp (n, "?") != 0 ? n : "-";
}

static const char *
verdict (int ok)
{
  return ok ? "ok" : "refused";
}

/* Names and OIDs come from the program; keep them on one line.  */
static const char *
printable (const char *s, char *buf, size_t len)
{
  if (!s)
    return "(null)";
  size_t i = 0;
  for (; s[i] && i + 1 < len; i++)
    buf[i] = (s[i] > ' ' && s[i] < 127) ? s[i] : '_';
  buf[i] = 0;
  return buf;
}

SHIM_EXPORT gcry_error_t
gcry_cipher_open (gcry_cipher_hd_t *hd, int algo, int mode,
                  unsigned int flags)
{
  gcry_error_t err = next_api.open (hd, algo, mode, flags);
  if (!err)
    {
      logline ("open algo=%d mode=%d flags=%u -> ok", algo, mode, flags);
      return err;
    }
  int real_ok = 0;
  if (real_api.open)
    {
      gcry_cipher_hd_t rh = NULL;
      real_ok = real_api.open (&rh, algo, mode, flags) == 0;
      if (real_ok && real_api.close)
        real_api.close (rh);
    }
  logline ("open algo=%d mode=%d flags=%u -> refused err=%u real=%s rname=%s",
           algo, mode, flags, err & 0xffffu, verdict (real_ok),
           real_name (algo));
  return err;
}

SHIM_EXPORT gcry_error_t
gcry_cipher_algo_info (int algo, int what, void *buffer, size_t *nbytes)
{
  gcry_error_t err = next_api.algo_info (algo, what, buffer, nbytes);
  if (!err)
    logline ("algo_info algo=%d mode=-1 flags=-1 what=%d -> ok", algo, what);
  else
    {
      int real_ok = real_api.algo_info
                    && !real_api.algo_info (algo, GCRYCTL_TEST_ALGO, NULL, NULL);
      logline ("algo_info algo=%d mode=-1 flags=-1 what=%d -> refused err=%u"
               " real=%s rname=%s", algo, what, err & 0xffffu,
               verdict (real_ok), real_name (algo));
    }
  return err;
}

SHIM_EXPORT const char *
gcry_cipher_algo_name (int algo)
{
  const char *name = next_api.algo_name (algo);
  int ok = name && strcmp (name, "?") != 0;
  if (ok)
    logline ("algo_name algo=%d mode=-1 flags=-1 -> ok", algo);
  else
    {
      const char *r = real_api.algo_name ? real_api.algo_name (algo) : NULL;
      logline ("algo_name algo=%d mode=-1 flags=-1 -> refused err=0 real=%s"
               " rname=%s", algo, verdict (r && strcmp (r, "?") != 0),
               real_name (algo));
    }
  return name;
}

SHIM_EXPORT int
gcry_cipher_map_name (const char *name)
{
  char buf[64];
  int algo = next_api.map_name (name);
  if (algo)
    logline ("map_name name=%s algo=%d mode=-1 flags=-1 -> ok",
             printable (name, buf, sizeof buf), algo);
  else
    {
      int r = real_api.map_name ? real_api.map_name (name) : 0;
      logline ("map_name name=%s algo=%d mode=-1 flags=-1 -> refused err=0"
               " real=%s rname=%s", printable (name, buf, sizeof buf), r,
               verdict (r != 0), real_name (r));
    }
  return algo;
}

SHIM_EXPORT int
gcry_cipher_mode_from_oid (const char *oid)
{
  char buf[64];
  int mode = next_api.mode_from_oid (oid);
  if (mode)
    logline ("mode_from_oid oid=%s algo=-1 mode=%d flags=-1 -> ok",
             printable (oid, buf, sizeof buf), mode);
  else
    {
      int r = real_api.mode_from_oid ? real_api.mode_from_oid (oid) : 0;
      logline ("mode_from_oid oid=%s algo=-1 mode=%d flags=-1 -> refused"
               " err=0 real=%s rname=-", printable (oid, buf, sizeof buf), r,
               verdict (r != 0));
    }
  return mode;
}

SHIM_EXPORT size_t
gcry_cipher_get_algo_keylen (int algo)
{
  size_t n = next_api.get_algo_keylen (algo);
  if (n)
    logline ("keylen algo=%d mode=-1 flags=-1 -> ok", algo);
  else
    logline ("keylen algo=%d mode=-1 flags=-1 -> refused err=0 real=%s"
             " rname=%s", algo,
             verdict (real_api.get_algo_keylen
                      && real_api.get_algo_keylen (algo) != 0),
             real_name (algo));
  return n;
}

SHIM_EXPORT size_t
gcry_cipher_get_algo_blklen (int algo)
{
  size_t n = next_api.get_algo_blklen (algo);
  if (n)
    logline ("blklen algo=%d mode=-1 flags=-1 -> ok", algo);
  else
    logline ("blklen algo=%d mode=-1 flags=-1 -> refused err=0 real=%s"
             " rname=%s", algo,
             verdict (real_api.get_algo_blklen
                      && real_api.get_algo_blklen (algo) != 0),
             real_name (algo));
  return n;
}
