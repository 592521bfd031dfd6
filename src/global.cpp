/* global.cpp - gcry_check_version, gcry_control and gcry_get_config.
 *
 * gcipher presents itself as libgcrypt GCRYPT_VERSION (the API level its
 * header describes) with its own version as a suffix:
 *   gcry_check_version (NULL) == "1.10.1-gcipher0.1.0".
 * Requests are compared as libgcrypt compares them: "MAJOR.MINOR.MICRO"
 * with decimal numbers (no leading zeros, no sign, no leading blanks),
 * anything after MICRO ignored; fewer than three numbers is no version
 * at all and is refused.
 *
 * gcry_control results follow the system libgcrypt 1.10.1 command by
 * command (probed side by side): predicates answer "true" with
 * GPG_ERR_GENERAL, commands that do not apply to a cipher-only library
 * but are harmless succeed, retired or unknown command codes give
 * GPG_ERR_INV_OP.
 */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g10lib.h"
#include "../cipher/cipher-internal.h"

namespace {

const char version_string[] = GCRYPT_VERSION "-gcipher" GCIPHER_VERSION;

/* Lifecycle flags (atomics).  */
bool any_init;           /* Something initialised the library.  */
bool init_finished;      /* GCRYCTL_INITIALIZATION_FINISHED seen.  */

void
global_init (void)
{
  __atomic_store_n (&any_init, true, __ATOMIC_SEQ_CST);
  (void) _gcry_get_hw_features ();   /* Detect once, now.  */
}

/* Parse a decimal number without sign or leading zeros ("0" itself is
 * fine).  Returns the position after it, or NULL.  */
const char *
parse_number (const char *s, int *out)
{
  if (*s < '0' || *s > '9')
    return nullptr;
  if (*s == '0' && s[1] >= '0' && s[1] <= '9')
    return nullptr;
  long v = 0;
  for (; *s >= '0' && *s <= '9'; s++)
    {
      v = v * 10 + (*s - '0');
      if (v > 0xffffff)
        return nullptr;
    }
  *out = (int) v;
  return s;
}

/* "MAJOR.MINOR.MICRO[anything]" -> true and the three numbers.  */
bool
parse_version (const char *s, int *major, int *minor, int *micro)
{
  s = parse_number (s, major);
  if (!s || *s != '.')
    return false;
  s = parse_number (s + 1, minor);
  if (!s || *s != '.')
    return false;
  s = parse_number (s + 1, micro);
  return s != nullptr;
}

/* The libgpg-error version as 0xMMmmuu, for the "version:" line.  */
unsigned int
version_hex (const char *s)
{
  int a = 0, b = 0, c = 0;
  if (!s)
    return 0;
  a = atoi (s);
  const char *p = strchr (s, '.');
  if (p)
    {
      b = atoi (p + 1);
      p = strchr (p + 1, '.');
      if (p)
        c = atoi (p + 1);
    }
  return ((unsigned) a << 16) | ((unsigned) b << 8) | (unsigned) c;
}

/* libgcrypt's cipher modules in the order its "ciphers:" line lists
 * them (libgcrypt 1.10 built with every cipher, as Debian's is), each
 * with its algorithm ids; a module is printed when gcipher implements
 * one of them.  */
struct cipher_module
{
  const char *name;
  int algos[4];   /* 0-terminated.  */
};

const cipher_module cipher_modules[] = {
  { "arcfour", { GCRY_CIPHER_ARCFOUR } },
  { "blowfish", { GCRY_CIPHER_BLOWFISH } },
  { "cast5", { GCRY_CIPHER_CAST5 } },
  { "des", { GCRY_CIPHER_DES, GCRY_CIPHER_3DES } },
  { "aes", { GCRY_CIPHER_AES, GCRY_CIPHER_AES192, GCRY_CIPHER_AES256 } },
  { "twofish", { GCRY_CIPHER_TWOFISH, GCRY_CIPHER_TWOFISH128 } },
  { "serpent", { GCRY_CIPHER_SERPENT128, GCRY_CIPHER_SERPENT192,
                 GCRY_CIPHER_SERPENT256 } },
  { "rfc2268", { GCRY_CIPHER_RFC2268_40, GCRY_CIPHER_RFC2268_128 } },
  { "seed", { GCRY_CIPHER_SEED } },
  { "camellia", { GCRY_CIPHER_CAMELLIA128, GCRY_CIPHER_CAMELLIA192,
                  GCRY_CIPHER_CAMELLIA256 } },
  { "idea", { GCRY_CIPHER_IDEA } },
  { "salsa20", { GCRY_CIPHER_SALSA20, GCRY_CIPHER_SALSA20R12 } },
  { "gost28147", { GCRY_CIPHER_GOST28147, GCRY_CIPHER_GOST28147_MESH } },
  { "chacha20", { GCRY_CIPHER_CHACHA20 } },
  { "sm4", { GCRY_CIPHER_SM4 } },
  /* libgcrypt 1.11 lists its new module last.  */
  { "aria", { GCRY_CIPHER_ARIA128, GCRY_CIPHER_ARIA192,
              GCRY_CIPHER_ARIA256 } },
};

void
print_ciphers (FILE *fp)
{
  fputs ("ciphers:", fp);
  for (const cipher_module &m : cipher_modules)
    {
      bool have = false;
      for (int i = 0; i < 4 && m.algos[i]; i++)
        have |= _gcry_cipher_spec_from_algo (m.algos[i]) != nullptr;
      if (have)
        fprintf (fp, "%s:", m.name);
    }
  putc ('\n', fp);
}

void
print_config (FILE *fp)
{
  const char *gpgrt = gpg_error_check_version (nullptr);
  fprintf (fp, "version:%s:%x:%s:%x:\n", version_string,
           GCRYPT_VERSION_NUMBER, gpgrt ? gpgrt : "", version_hex (gpgrt));
#if defined(__clang__)
  fprintf (fp, "cc:%d:clang:%s:\n",
           __clang_major__ * 10000 + __clang_minor__ * 100
           + __clang_patchlevel__, __clang_version__);
#elif defined(__GNUC__)
  fprintf (fp, "cc:%d:gcc:%s:\n",
           __GNUC__ * 10000 + __GNUC_MINOR__ * 100 + __GNUC_PATCHLEVEL__,
           __VERSION__);
#else
  fputs ("cc:0:cc::\n", fp);
#endif
  print_ciphers (fp);
  fputs ("pubkeys:\n", fp);
  fputs ("digests:\n", fp);
  fputs ("rnd-mod:getrandom:\n", fp);
#if defined(__x86_64__) || defined(__i386__)
  fputs ("cpu-arch:x86:\n", fp);
#elif defined(__riscv)
  fputs ("cpu-arch:riscv:\n", fp);
#else
  fputs ("cpu-arch::\n", fp);
#endif
  _gcry_print_hwflist (fp);
  /* Not in FIPS mode, not enforced, no module version.  */
  fputs ("fips-mode:n:::\n", fp);
  /* The kernel's generator (libgcrypt's "system" type, 3); no jitter
   * entropy collector (version 0, inactive).  */
  fprintf (fp, "rng-type:system:%d:0:0:\n", GCRY_RNG_TYPE_SYSTEM);
}

} // namespace

const char *
_gcry_check_version (const char *req)
{
  global_init ();
  if (!req)
    return version_string;
  int rmaj, rmin, rmic;
  if (!parse_version (req, &rmaj, &rmin, &rmic))
    return nullptr;
  int maj, min, mic;
  parse_version (GCRYPT_VERSION, &maj, &min, &mic);
  if (maj > rmaj
      || (maj == rmaj && min > rmin)
      || (maj == rmaj && min == rmin && mic >= rmic))
    return version_string;
  return nullptr;
}

gcry_err_code_t
_gcry_vcontrol (enum gcry_ctl_cmds cmd, va_list ap)
{
  gcry_err_code_t rc = GPG_ERR_NO_ERROR;
  switch ((int) cmd)
    {
    case GCRYCTL_DUMP_RANDOM_STATS:
    case GCRYCTL_DUMP_MEMORY_STATS:
    case GCRYCTL_SET_DEBUG_FLAGS:
    case GCRYCTL_CLEAR_DEBUG_FLAGS:
    case GCRYCTL_ENABLE_M_GUARD:
    case GCRYCTL_ENABLE_QUICK_RANDOM:     /* Kernel RNG has no quick mode. */
    case GCRYCTL_SET_RANDOM_SEED_FILE:    /* No seed file: nothing to do. */
    case GCRYCTL_SET_ENFORCED_FIPS_FLAG:
    case GCRYCTL_SET_PREFERRED_RNG_TYPE:  /* Always the system RNG.  */
    case GCRYCTL_DISABLE_PRIV_DROP:
    case GCRYCTL_CLOSE_RANDOM_DEVICE:     /* getrandom keeps no fd.  */
    case GCRYCTL_REINIT_SYSCALL_CLAMP:
    case GCRYCTL_NO_FIPS_MODE:
      break;

    case GCRYCTL_DUMP_SECMEM_STATS:
      _gcry_secmem_dump_stats ();
      break;

    case GCRYCTL_SET_VERBOSITY:
      __atomic_store_n (&_gcry_verbosity, va_arg (ap, int), __ATOMIC_RELAXED);
      break;

    case GCRYCTL_USE_SECURE_RNDPOOL:
    case GCRYCTL_DISABLE_INTERNAL_LOCKING:
    case GCRYCTL_UPDATE_RANDOM_SEED_FILE:
    case GCRYCTL_DROP_PRIVS:              /* gcipher never gains any.  */
    case GCRYCTL_SET_THREAD_CBS:          /* Unused since libgcrypt 1.6. */
    case GCRYCTL_FAST_POLL:
      global_init ();
      break;

    case GCRYCTL_INIT_SECMEM:
      global_init ();
      _gcry_secmem_init (va_arg (ap, unsigned int));
      break;

    case GCRYCTL_TERM_SECMEM:
      global_init ();
      _gcry_secmem_term ();
      break;

    case GCRYCTL_DISABLE_SECMEM_WARN:
      _gcry_secmem_set_warning (0);
      break;
    case GCRYCTL_SUSPEND_SECMEM_WARN:
      _gcry_secmem_set_warning (1);
      break;
    case GCRYCTL_RESUME_SECMEM_WARN:
      _gcry_secmem_set_warning (2);
      break;

    case GCRYCTL_DISABLE_SECMEM:
      global_init ();
      _gcry_secmem_disable ();
      break;

    case GCRYCTL_DISABLE_LOCKED_SECMEM:
      _gcry_secmem_disable_locking ();
      break;

    case GCRYCTL_AUTO_EXPAND_SECMEM:
      _gcry_secmem_set_auto_expand (va_arg (ap, unsigned int));
      break;

    case GCRYCTL_INITIALIZATION_FINISHED:
      global_init ();
      __atomic_store_n (&init_finished, true, __ATOMIC_SEQ_CST);
      break;

    case GCRYCTL_INITIALIZATION_FINISHED_P:
      if (__atomic_load_n (&init_finished, __ATOMIC_SEQ_CST))
        rc = GPG_ERR_GENERAL;   /* "true" */
      break;

    case GCRYCTL_ANY_INITIALIZATION_P:
      if (__atomic_load_n (&any_init, __ATOMIC_SEQ_CST))
        rc = GPG_ERR_GENERAL;
      break;

    case GCRYCTL_OPERATIONAL_P:
      if (__atomic_load_n (&any_init, __ATOMIC_SEQ_CST))
        rc = GPG_ERR_GENERAL;
      break;

    case GCRYCTL_FAKED_RANDOM_P:
    case GCRYCTL_FIPS_MODE_P:            /* Never in FIPS mode.  */
      break;

    case GCRYCTL_FORCE_FIPS_MODE:
      /* After initialisation libgcrypt refuses with GPG_ERR_GENERAL;
       * before it gcipher cannot honour the request at all.  */
      rc = __atomic_load_n (&any_init, __ATOMIC_SEQ_CST)
           ? GPG_ERR_GENERAL : GPG_ERR_NOT_SUPPORTED;
      break;

    case GCRYCTL_PRINT_CONFIG:
      {
        /* NULL: libgcrypt logs the text (stderr or the log handler),
         * never touching the program's stdout.  */
        FILE *fp = va_arg (ap, FILE *);
        if (fp)
          print_config (fp);
        else
          {
            char *text = _gcry_get_config (0, nullptr);
            if (text)
              {
                _gcry_log_info ("%s", text);
                _gcry_free (text);
              }
          }
      }
      break;

    case GCRYCTL_SELFTEST:
      global_init ();
      rc = _gcry_cipher_selftest_all ();
      break;

    case GCRYCTL_DISABLE_HWF:
      rc = _gcry_disable_hw_feature (va_arg (ap, const char *));
      break;

    case GCRYCTL_GET_CURRENT_RNG_TYPE:
      {
        int *p = va_arg (ap, int *);
        if (p)
          *p = GCRY_RNG_TYPE_SYSTEM;
      }
      break;

    case GCRYCTL_DRBG_REINIT:
      /* No DRBG here; libgcrypt 1.10 (not in FIPS mode) answers every
       * reinit request with GPG_ERR_INV_ARG.  */
      rc = GPG_ERR_INV_ARG;
      break;

    case GCRYCTL_SET_RANDOM_DAEMON_SOCKET:
    case GCRYCTL_USE_RANDOM_DAEMON:
    case GCRYCTL_SET_RNDEGD_SOCKET:
    case GCRYCTL_FIPS_SERVICE_INDICATOR_CIPHER:
    case GCRYCTL_FIPS_SERVICE_INDICATOR_KDF:
    case 58: case 59: case 60: case 61: case 62:   /* libgcrypt-private. */
      rc = GPG_ERR_NOT_SUPPORTED;
      break;

    case GCRYCTL_INACTIVATE_FIPS_FLAG:
    case GCRYCTL_REACTIVATE_FIPS_FLAG:
      rc = GPG_ERR_NOT_IMPLEMENTED;
      break;

    default:
      rc = GPG_ERR_INV_OP;
      break;
    }
  return rc;
}

char *
_gcry_get_config (int mode, const char *what)
{
  if (mode)
    {
      errno = EINVAL;
      return nullptr;
    }
  char *text = nullptr;
  size_t textlen = 0;
  FILE *fp = open_memstream (&text, &textlen);
  if (!fp)
    return nullptr;
  print_config (fp);
  if (fclose (fp) || !text)
    {
      free (text);
      return nullptr;
    }

  /* Select the line "WHAT:..." (without its newline) or everything.  */
  const char *start = text;
  size_t len = textlen;
  if (what)
    {
      size_t wl = strlen (what);
      start = nullptr;
      for (const char *line = text; *line;)
        {
          const char *nl = strchr (line, '\n');
          size_t ll = nl ? (size_t) (nl - line) : strlen (line);
          if (ll > wl && !strncmp (line, what, wl) && line[wl] == ':')
            {
              start = line;
              len = ll;
              break;
            }
          line += ll + (nl ? 1 : 0);
        }
      if (!start)
        {
          free (text);
          errno = 0;
          return nullptr;
        }
    }
  /* Hand back gcry_malloc memory: the program frees it with gcry_free. */
  char *result = (char *) _gcry_malloc (len + 1);
  if (result)
    {
      memcpy (result, start, len);
      result[len] = 0;
    }
  free (text);
  return result;
}
