/* sysgcrypt.h - the system libgcrypt, loaded beside gcipher.
 *
 * Differential tests and comparison tools call the real libgcrypt and
 * gcipher in the same process.  Both export the same gcry_* names, so the
 * system library is loaded with dlmopen (LM_ID_NEWLM): it lives in its
 * own link-map namespace (with its own libgpg-error) and its symbols
 * never resolve against ours, nor ours against its.  Functions are
 * looked up with dlvsym at libgcrypt's version node "GCRYPT_1.6".
 *
 * Usage:
 *
 *   const sysgcrypt *sys = sysgcrypt_load ();
 *   if (!sys)
 *     GTEST_SKIP () << sysgcrypt_error ();
 *   gcry_cipher_hd_t h;                       // a SYSTEM handle
 *   sys->cipher_open (&h, GCRY_CIPHER_AES, GCRY_CIPHER_MODE_CBC, 0);
 *   ...
 *   sys->cipher_close (h);
 *
 * Handles are opaque pointers: a handle from sys->cipher_open must only
 * go to sys-> functions, and one from gcipher's gcry_cipher_open only to
 * gcipher.  Error values are libgcrypt's gcry_error_t (source and code),
 * directly comparable with gcipher's.
 *
 * sysgcrypt_load () loads once per process (thread-safe), calls the
 * system gcry_check_version (NULL) (which initialises it) and returns the
 * table, or NULL when the library is missing (SYSTEM_LIBGCRYPT from
 * config.h is "" or the file cannot be loaded) or lacks a symbol;
 * sysgcrypt_error () then says why.  Nothing else is configured: callers
 * issue sys->control (...) themselves if they need secure memory etc.
 * The library stays loaded until exit.
 */
#ifndef GCIPHER_TESTS_SYSGCRYPT_H
#define GCIPHER_TESTS_SYSGCRYPT_H

#include <stdarg.h>
#include <stddef.h>
#include "gcrypt.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sysgcrypt
{
  void *dl;                  /* dlmopen handle.  */
  const char *path;          /* The file loaded.  */
  const char *version;       /* Its gcry_check_version (NULL).  */

  const char *(*check_version) (const char *req_version);
  gcry_error_t (*control) (enum gcry_ctl_cmds cmd, ...);

  gcry_error_t (*cipher_open) (gcry_cipher_hd_t *handle, int algo, int mode,
                               unsigned int flags);
  void (*cipher_close) (gcry_cipher_hd_t h);
  gcry_error_t (*cipher_ctl) (gcry_cipher_hd_t h, int cmd, void *buffer,
                              size_t buflen);
  gcry_error_t (*cipher_info) (gcry_cipher_hd_t h, int what, void *buffer,
                               size_t *nbytes);
  gcry_error_t (*cipher_algo_info) (int algo, int what, void *buffer,
                                    size_t *nbytes);
  const char *(*cipher_algo_name) (int algorithm);
  int (*cipher_map_name) (const char *name);
  int (*cipher_mode_from_oid) (const char *string);
  gcry_error_t (*cipher_encrypt) (gcry_cipher_hd_t h, void *out,
                                  size_t outsize, const void *in,
                                  size_t inlen);
  gcry_error_t (*cipher_decrypt) (gcry_cipher_hd_t h, void *out,
                                  size_t outsize, const void *in,
                                  size_t inlen);
  gcry_error_t (*cipher_setkey) (gcry_cipher_hd_t h, const void *key,
                                 size_t keylen);
  gcry_error_t (*cipher_setiv) (gcry_cipher_hd_t h, const void *iv,
                                size_t ivlen);
  gpg_error_t (*cipher_setctr) (gcry_cipher_hd_t h, const void *ctr,
                                size_t ctrlen);
  gcry_error_t (*cipher_authenticate) (gcry_cipher_hd_t h, const void *abuf,
                                       size_t abuflen);
  gcry_error_t (*cipher_gettag) (gcry_cipher_hd_t h, void *outtag,
                                 size_t taglen);
  gcry_error_t (*cipher_checktag) (gcry_cipher_hd_t h, const void *intag,
                                   size_t taglen);
  size_t (*cipher_get_algo_keylen) (int algo);
  size_t (*cipher_get_algo_blklen) (int algo);
};

/* The loaded system libgcrypt, or NULL (see sysgcrypt_error).  */
const struct sysgcrypt *sysgcrypt_load (void);
/* Why the last sysgcrypt_load failed ("" if it did not).  */
const char *sysgcrypt_error (void);
/* Load PATH (e.g. libgcrypt master's libgcrypt.so.20, which finds its
 * own libgpg-error through its RUNPATH) instead of SYSTEM_LIBGCRYPT;
 * NULL or "" restores the default.  Call before the first
 * sysgcrypt_load; returns 0, or -1 if the library is already loaded.
 * The string must stay valid.  */
int sysgcrypt_set_path (const char *path);
/* Queue NAME for gcry_control (GCRYCTL_DISABLE_HWF, NAME, NULL) on the
 * system library, which sysgcrypt_load issues before it initialises the
 * library (the option has no effect later).  Call before the first
 * sysgcrypt_load; returns 0, or -1 if the library is already loaded or
 * 16 names are queued.  */
int sysgcrypt_disable_hwf (const char *name);
/* After sysgcrypt_load: the queued names the library rejected, each
 * followed by a space ("" if none).  */
const char *sysgcrypt_rejected_hwf (void);
/* The library sysgcrypt_load loads by default (SYSTEM_LIBGCRYPT from
 * config.h; "" if none was configured).  */
const char *sysgcrypt_default_path (void);
/* Load PATH into a namespace of its own, apart from sysgcrypt_load's and
 * from every earlier sysgcrypt_open: each call gives a new, independent
 * table (so several libgcrypt builds, or two copies of one, run side by
 * side; glibc allows 15 extra namespaces per process).  HWF[0..NHWF)
 * are disabled (GCRYCTL_DISABLE_HWF) before gcry_check_version (NULL)
 * initialises it; the names it refuses are written to REJECTED (REJLEN
 * bytes), each followed by a space.  Returns the table (never freed;
 * the library stays loaded until exit), or NULL with the reason in WHY
 * (WHYLEN bytes).  PATH must stay valid.  */
struct sysgcrypt *sysgcrypt_open (const char *path, const char *const *hwf,
                                  int nhwf, char *why, size_t whylen,
                                  char *rejected, size_t rejlen);
/* gcipher's own entry points (the library the program links) in the
 * same table, every member set, PATH naming it in messages; so a
 * differential test calls both libraries through one type.  */
struct sysgcrypt sysgcrypt_gcipher (const char *path);
/* sysgcrypt_gcipher ("gcipher"), made at the first call and shared: the
 * "ours" side a differential test sets beside sysgcrypt_load's.  */
const struct sysgcrypt *sysgcrypt_ours (void);

/* The tests provoke warnings (odd IV lengths, missing keys) on purpose.
 * sysgcrypt_quiet_log is a log handler that drops every message;
 * sysgcrypt_quiet_logs installs it in gcipher and, when SYS is not NULL,
 * in SYS (through its own gcry_set_log_handler).  */
void sysgcrypt_quiet_log (void *opaque, int level, const char *fmt,
                          va_list ap);
void sysgcrypt_quiet_logs (const struct sysgcrypt *sys);
/* sysgcrypt_load for a suite that compares where it can: the first call
 * also initialises gcipher (gcry_check_version (NULL)), quiets both
 * libraries' logs and, when the system library is missing, prints a
 * "[  NOTE    ]" line that the comparisons are skipped.  */
const struct sysgcrypt *sysgcrypt_load_quiet (void);

#ifdef __cplusplus
}
#endif
#endif /* GCIPHER_TESTS_SYSGCRYPT_H */
