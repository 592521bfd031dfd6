/* visibility-core.cpp - the exported non-cipher calls of libgcrypt's API.
 *
 * Thin extern "C" shells over the hidden _gcry_* runtime (global.cpp,
 * secmem.cpp, misc.cpp, random.cpp) and libgpg-error.  Internal error
 * codes become gcry_error_t here, with GPG_ERR_SOURCE_GCRYPT, as
 * libgcrypt returns them.  The gcry_cipher_* shells are in
 * visibility.cpp.  All names are exported in version node GCRYPT_1.6
 * (libgcrypt.vers).
 */
#include <config.h>

#include <stdarg.h>

#include "g10lib.h"

#define GCRY_EXPORT __attribute__ ((visibility ("default")))

extern "C" {

/* ---- Errors (libgpg-error's tables) ---------------------------------- */

GCRY_EXPORT const char *
gcry_strerror (gcry_error_t err)
{
  return gpg_strerror (err);
}

GCRY_EXPORT const char *
gcry_strsource (gcry_error_t err)
{
  return gpg_strsource (err);
}

GCRY_EXPORT gcry_err_code_t
gcry_err_code_from_errno (int err)
{
  return gpg_err_code_from_errno (err);
}

GCRY_EXPORT int
gcry_err_code_to_errno (gcry_err_code_t code)
{
  return gpg_err_code_to_errno (code);
}

GCRY_EXPORT gcry_error_t
gcry_err_make_from_errno (gcry_err_source_t source, int err)
{
  return gpg_err_make_from_errno (source, err);
}

GCRY_EXPORT gcry_error_t
gcry_error_from_errno (int err)
{
  return gpg_err_make_from_errno (GPG_ERR_SOURCE_GCRYPT, err);
}

/* ---- Version and control ---------------------------------------------- */

GCRY_EXPORT const char *
gcry_check_version (const char *req_version)
{
  return _gcry_check_version (req_version);
}

GCRY_EXPORT gcry_error_t
gcry_control (enum gcry_ctl_cmds cmd, ...)
{
  va_list ap;
  va_start (ap, cmd);
  gcry_err_code_t rc = _gcry_vcontrol (cmd, ap);
  va_end (ap);
  return rc ? gcry_error_gcrypt (rc) : 0;
}

GCRY_EXPORT char *
gcry_get_config (int mode, const char *what)
{
  return _gcry_get_config (mode, what);
}

/* ---- Random ------------------------------------------------------------- */

GCRY_EXPORT void
gcry_randomize (void *buffer, size_t length, enum gcry_random_level level)
{
  _gcry_randomize (buffer, length, (int) level);
}

GCRY_EXPORT void
gcry_create_nonce (void *buffer, size_t length)
{
  _gcry_randomize (buffer, length, GCRY_WEAK_RANDOM);
}

/* ---- Handlers ------------------------------------------------------------ */

GCRY_EXPORT void
gcry_set_allocation_handler (gcry_handler_alloc_t func_alloc,
                             gcry_handler_alloc_t func_alloc_secure,
                             gcry_handler_secure_check_t func_secure_check,
                             gcry_handler_realloc_t func_realloc,
                             gcry_handler_free_t func_free)
{
  _gcry_set_allocation_handler (func_alloc, func_alloc_secure,
                                func_secure_check, func_realloc, func_free);
}

GCRY_EXPORT void
gcry_set_outofcore_handler (gcry_handler_no_mem_t h, void *opaque)
{
  _gcry_set_outofcore_handler (h, opaque);
}

GCRY_EXPORT void
gcry_set_fatalerror_handler (gcry_handler_error_t fnc, void *opaque)
{
  _gcry_set_fatalerror_handler (fnc, opaque);
}

GCRY_EXPORT void
gcry_set_log_handler (gcry_handler_log_t f, void *opaque)
{
  _gcry_set_log_handler (f, opaque);
}

/* gcipher does no long computations (no prime or key generation): the
 * progress callback is accepted and never called.  */
GCRY_EXPORT void
gcry_set_progress_handler (gcry_handler_progress_t cb, void *cb_data)
{
  (void) cb;
  (void) cb_data;
}

/* Messages are not translated; accepted for source compatibility.  */
GCRY_EXPORT void
gcry_set_gettext_handler (const char *(*f) (const char *))
{
  (void) f;
}

/* ---- Memory ---------------------------------------------------------------- */

GCRY_EXPORT void *
gcry_malloc (size_t n)
{
  return _gcry_malloc (n);
}

GCRY_EXPORT void *
gcry_calloc (size_t n, size_t m)
{
  return _gcry_calloc (n, m);
}

GCRY_EXPORT void *
gcry_malloc_secure (size_t n)
{
  return _gcry_malloc_secure (n);
}

GCRY_EXPORT void *
gcry_calloc_secure (size_t n, size_t m)
{
  return _gcry_calloc_secure (n, m);
}

GCRY_EXPORT void *
gcry_realloc (void *a, size_t n)
{
  return _gcry_realloc (a, n);
}

GCRY_EXPORT char *
gcry_strdup (const char *string)
{
  return _gcry_strdup (string);
}

GCRY_EXPORT void *
gcry_xmalloc (size_t n)
{
  return _gcry_xmalloc (n);
}

GCRY_EXPORT void *
gcry_xcalloc (size_t n, size_t m)
{
  return _gcry_xcalloc (n, m);
}

GCRY_EXPORT void *
gcry_xmalloc_secure (size_t n)
{
  return _gcry_xmalloc_secure (n);
}

GCRY_EXPORT void *
gcry_xcalloc_secure (size_t n, size_t m)
{
  return _gcry_xcalloc_secure (n, m);
}

GCRY_EXPORT void *
gcry_xrealloc (void *a, size_t n)
{
  return _gcry_xrealloc (a, n);
}

GCRY_EXPORT char *
gcry_xstrdup (const char *a)
{
  return _gcry_xstrdup (a);
}

GCRY_EXPORT void
gcry_free (void *a)
{
  _gcry_free (a);
}

GCRY_EXPORT int
gcry_is_secure (const void *a)
{
  return _gcry_is_secure (a);
}

/* ---- Debug logging ---------------------------------------------------------- */

GCRY_EXPORT void
gcry_log_debug (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  _gcry_logv (GCRY_LOG_DEBUG, fmt, ap);
  va_end (ap);
}

GCRY_EXPORT void
gcry_log_debughex (const char *text, const void *buffer, size_t length)
{
  _gcry_log_printhex (text, buffer, length);
}

} /* extern "C" */
