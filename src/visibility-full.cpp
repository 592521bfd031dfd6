/* visibility-full.cpp - the full substitute's own core calls.
 *
 * The full libgcrypt.so.20 (src/full/) is gcipher's cipher API
 * (visibility.cpp) plus this file, linked with a DT_NEEDED entry on
 * the system libgcrypt under a private file name,
 * "libgcrypt-system.so.20" (a symbolic link in the directory
 * system-libgcrypt/ beside the library, found through the library's
 * DT_RUNPATH $ORIGIN/system-libgcrypt).  The dynamic linker binds a
 * program's versioned references (sym@GCRYPT_1.6) to the first loaded
 * object that defines the symbol in that version node, and gcipher's
 * object comes before its own dependency in every search order: so the
 * gcry_cipher_* calls reach gcipher and every other libgcrypt call
 * (hashes, MACs, public keys, MPIs, S-expressions, KDFs, random,
 * memory, errors, logging) reaches the real library directly, with no
 * wrapper, and variadic functions (gcry_sexp_build, gcry_log_debug,
 * ...) receive their arguments untouched.  libgcrypt calls its own code
 * through hidden aliases, so its internal cipher use stays inside it
 * and a handle of one half never reaches the other.
 *
 * Only two calls concern both halves and are defined here:
 *
 *  - gcry_check_version initialises both and returns the real
 *    library's answer unchanged (it serves most of the API, and programs
 *    such as libgcrypt's tests insist on an exact version match);
 *  - gcry_control forwards every command to the real library with its
 *    arguments re-read in the shape gcrypt.h gives them (a va_list
 *    cannot be handed on to another variadic function), and applies the
 *    commands that concern ciphers to gcipher too (GCRYCTL_DISABLE_HWF,
 *    GCRYCTL_SET_VERBOSITY, GCRYCTL_SELFTEST, the initialisation ones).
 *
 * One allocator: at load time gcipher's allocation handlers are set to
 * the real library's gcry_malloc, gcry_malloc_secure, gcry_is_secure,
 * gcry_realloc and gcry_free, so a cipher handle opened with
 * GCRY_CIPHER_SECURE lives in libgcrypt's secure pool, a program's
 * gcry_set_allocation_handler (served by the real library) applies to
 * both halves, and gcry_free frees whatever either half allocated.
 */
#include <config.h>

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g10lib.h"

#define GCRY_EXPORT extern "C" __attribute__ ((visibility ("default")))

/* The private name of the real library (the DT_NEEDED entry).  */
#define SYSTEM_LIBGCRYPT_NAME "libgcrypt-system.so.20"

namespace {

struct real_api
{
  const char *(*check_version) (const char *);
  gcry_error_t (*control) (enum gcry_ctl_cmds, ...);
  void *(*malloc) (size_t);
  void *(*malloc_secure) (size_t);
  int (*is_secure) (const void *);
  void *(*realloc) (void *, size_t);
  void (*free) (void *);
};

real_api real;

[[noreturn]] void
no_real_library (const char *what)
{
  /* Before main: no log handler can be installed yet.  */
  fprintf (stderr, "gcipher: %s: %s\n", SYSTEM_LIBGCRYPT_NAME, what);
  fprintf (stderr, "gcipher: it must name the system libgcrypt.so.20 "
           "(see gcipher(7), \"Full substitute\")\n");
  abort ();
}

void *
real_sym (void *handle, const char *name)
{
  void *p = dlvsym (handle, name, "GCRYPT_1.6");
  if (!p)
    no_real_library (name);
  return p;
}

/* Runs after the real library's own constructors (it is our
 * dependency) and before any code that uses libgcrypt.  */
__attribute__ ((constructor)) void
full_substitute_init (void)
{
  void *h = dlopen (SYSTEM_LIBGCRYPT_NAME, RTLD_NOW | RTLD_NOLOAD);
  if (!h)
    no_real_library ("not loaded");
  real.check_version = (const char *(*) (const char *))
    real_sym (h, "gcry_check_version");
  real.control = (gcry_error_t (*) (enum gcry_ctl_cmds, ...))
    real_sym (h, "gcry_control");
  real.malloc = (void *(*) (size_t)) real_sym (h, "gcry_malloc");
  real.malloc_secure = (void *(*) (size_t)) real_sym (h, "gcry_malloc_secure");
  real.is_secure = (int (*) (const void *)) real_sym (h, "gcry_is_secure");
  real.realloc = (void *(*) (void *, size_t)) real_sym (h, "gcry_realloc");
  real.free = (void (*) (void *)) real_sym (h, "gcry_free");
  /* The link must not lead back to gcipher (a diverted system
   * libgcrypt.so.20 that is gcipher itself): its gcry_control would be
   * this file's.  */
  if (dlvsym (h, "gcry_md_open", "GCRYPT_1.6") == nullptr)
    no_real_library ("is not libgcrypt (no gcry_md_open)");
  dlclose (h);   /* Drops only the reference NOLOAD took.  */
  _gcry_set_allocation_handler (real.malloc, real.malloc_secure,
                                real.is_secure, real.realloc, real.free);
}

/* How gcry_control reads the arguments of each command (libgcrypt
 * 1.10's gcrypt.h and the commands' documentation); a command not
 * listed has none.  Integers of either signedness travel as int.  */
enum ctl_shape
{
  CTL_NONE,
  CTL_INT,          /* int or unsigned int */
  CTL_INT_INT,      /* FIPS_SERVICE_INDICATOR_CIPHER: algo, mode */
  CTL_PTR,          /* const char *, FILE *, int *, ... */
  CTL_PTR_PTR,      /* DISABLE_HWF: name, NULL */
  CTL_PTR3,         /* libgcrypt-private 59: three pointers */
  CTL_DRBG          /* DRBG_REINIT: flags, pers, npers, guard */
};

ctl_shape
shape_of (int cmd)
{
  switch (cmd)
    {
    case GCRYCTL_INIT_SECMEM:
    case GCRYCTL_AUTO_EXPAND_SECMEM:
    case GCRYCTL_SET_DEBUG_FLAGS:
    case GCRYCTL_CLEAR_DEBUG_FLAGS:
    case GCRYCTL_SET_VERBOSITY:
    case GCRYCTL_USE_RANDOM_DAEMON:
    case GCRYCTL_SET_PREFERRED_RNG_TYPE:
    case GCRYCTL_FIPS_SERVICE_INDICATOR_KDF:
    case 61:                                   /* external lock test */
      return CTL_INT;
    case GCRYCTL_FIPS_SERVICE_INDICATOR_CIPHER:
      return CTL_INT_INT;
    case GCRYCTL_SET_RANDOM_SEED_FILE:
    case GCRYCTL_SET_RNDEGD_SOCKET:
    case GCRYCTL_SET_RANDOM_DAEMON_SOCKET:
    case GCRYCTL_PRINT_CONFIG:
    case GCRYCTL_SET_THREAD_CBS:
    case GCRYCTL_GET_CURRENT_RNG_TYPE:
    case 60:                                   /* deinit external test */
      return CTL_PTR;
    case GCRYCTL_DISABLE_HWF:
      return CTL_PTR_PTR;
    case 59:                                   /* run external test */
      return CTL_PTR3;
    case GCRYCTL_DRBG_REINIT:
      return CTL_DRBG;
    default:
      return CTL_NONE;
    }
}

/* gcipher's half of a command, with the arguments read once.  */
gcry_err_code_t
gcipher_control (enum gcry_ctl_cmds cmd, ...)
{
  va_list ap;
  va_start (ap, cmd);
  gcry_err_code_t rc = _gcry_vcontrol (cmd, ap);
  va_end (ap);
  return rc;
}

} // namespace

/* The real library's answer, string and all: programs (libgcrypt's own
 * tests among them) may compare it with the version they were built
 * for.  GCIPHER_TRACE, ldd or gcipher-system status show that gcipher
 * is in the process.  */
GCRY_EXPORT const char *
gcry_check_version (const char *req_version)
{
  const char *ok = real.check_version (req_version);
  (void) _gcry_check_version (nullptr);   /* gcipher's initialisation. */
  return ok;
}

GCRY_EXPORT gcry_error_t
gcry_control (enum gcry_ctl_cmds cmd, ...)
{
  va_list ap;
  va_start (ap, cmd);
  gcry_error_t rc = 0;
  int i1 = 0, i2 = 0;
  void *p1 = nullptr, *p2 = nullptr, *p3 = nullptr;
  switch (shape_of (cmd))
    {
    case CTL_NONE:
      rc = real.control (cmd);
      break;
    case CTL_INT:
      i1 = va_arg (ap, int);
      rc = real.control (cmd, i1);
      break;
    case CTL_INT_INT:
      i1 = va_arg (ap, int);
      i2 = va_arg (ap, int);
      rc = real.control (cmd, i1, i2);
      break;
    case CTL_PTR:
      p1 = va_arg (ap, void *);
      rc = real.control (cmd, p1);
      break;
    case CTL_PTR_PTR:
      p1 = va_arg (ap, void *);
      p2 = va_arg (ap, void *);
      rc = real.control (cmd, p1, p2);
      break;
    case CTL_PTR3:
      p1 = va_arg (ap, void *);
      p2 = va_arg (ap, void *);
      p3 = va_arg (ap, void *);
      rc = real.control (cmd, p1, p2, p3);
      break;
    case CTL_DRBG:
      p1 = va_arg (ap, void *);
      p2 = va_arg (ap, void *);
      i1 = va_arg (ap, int);
      p3 = va_arg (ap, void *);
      rc = real.control (cmd, p1, p2, i1, p3);
      break;
    }
  va_end (ap);

  switch ((int) cmd)
    {
    case GCRYCTL_DISABLE_HWF:
      /* The names of both halves are accepted; unknown to both keeps
       * libgcrypt's error.  */
      if (!gcipher_control (cmd, p1, p2))
        rc = 0;
      break;
    case GCRYCTL_SET_VERBOSITY:
      gcipher_control (cmd, i1);
      break;
    case GCRYCTL_SELFTEST:
      {
        gcry_err_code_t ec = gcipher_control (cmd);
        if (!rc && ec)
          rc = gcry_error_gcrypt (ec);
      }
      break;
    case GCRYCTL_INITIALIZATION_FINISHED:
    case GCRYCTL_INIT_SECMEM:
    case GCRYCTL_DISABLE_SECMEM:
    case GCRYCTL_DROP_PRIVS:
    case GCRYCTL_USE_SECURE_RNDPOOL:
      /* gcipher's initialisation (CPU features); its secure memory is
       * libgcrypt's, so nothing else.  */
      (void) _gcry_check_version (nullptr);
      break;
    default:
      break;
    }
  return rc;
}
