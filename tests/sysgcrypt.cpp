/* sysgcrypt.cpp - load the system libgcrypt with dlmopen; see
 * sysgcrypt.h.  */
#include <config.h>

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <new>

#include "sysgcrypt.h"

namespace {

sysgcrypt sys_table;
const sysgcrypt *sys_loaded;
char sys_why[512];
const char *sys_path;      /* sysgcrypt_set_path, or NULL: the default.  */
pthread_once_t sys_once = PTHREAD_ONCE_INIT;
/* sysgcrypt_disable_hwf's queue and the names the library refused.  */
const char *sys_hwf_queue[16];
int sys_hwf_count;
bool sys_load_started;
char sys_hwf_rejected[512];

/* Look NAME up at GCRYPT_1.6 into *SLOT; false (and a reason in WHY)
 * if missing.  */
template <typename F>
bool
lookup (void *dl, const char *path, const char *name, F *slot, char *why,
        size_t whylen)
{
  void *p = dlvsym (dl, name, "GCRYPT_1.6");
  if (!p)
    {
      snprintf (why, whylen, "%s@GCRYPT_1.6 not found in %s", name, path);
      return false;
    }
  *slot = reinterpret_cast<F> (p);
  return true;
}

/* dlmopen PATH into a new namespace and fill *T: the common part of
 * sysgcrypt_load and sysgcrypt_open.  HWF[0..NHWF) go to
 * GCRYCTL_DISABLE_HWF before gcry_check_version (NULL) initialises the
 * library; the names it refuses are appended to REJ (each followed by a
 * space).  False with a reason in WHY on failure (unloaded again,
 * unless gcry_check_version itself failed).  */
bool
load_table (sysgcrypt *t, const char *path, const char *const *hwf,
            int nhwf, char *why, size_t whylen, char *rej, size_t rejlen)
{
  memset (t, 0, sizeof *t);
  void *dl = dlmopen (LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
  if (!dl)
    {
      const char *e = dlerror ();
      snprintf (why, whylen, "dlmopen %s: %s", path, e ? e : "?");
      return false;
    }
  t->dl = dl;
  t->path = path;
#define LOOKUP(name, slot) lookup (dl, path, name, slot, why, whylen)
  bool ok = LOOKUP ("gcry_check_version", &t->check_version)
    && LOOKUP ("gcry_control", &t->control)
    && LOOKUP ("gcry_cipher_open", &t->cipher_open)
    && LOOKUP ("gcry_cipher_close", &t->cipher_close)
    && LOOKUP ("gcry_cipher_ctl", &t->cipher_ctl)
    && LOOKUP ("gcry_cipher_info", &t->cipher_info)
    && LOOKUP ("gcry_cipher_algo_info", &t->cipher_algo_info)
    && LOOKUP ("gcry_cipher_algo_name", &t->cipher_algo_name)
    && LOOKUP ("gcry_cipher_map_name", &t->cipher_map_name)
    && LOOKUP ("gcry_cipher_mode_from_oid", &t->cipher_mode_from_oid)
    && LOOKUP ("gcry_cipher_encrypt", &t->cipher_encrypt)
    && LOOKUP ("gcry_cipher_decrypt", &t->cipher_decrypt)
    && LOOKUP ("gcry_cipher_setkey", &t->cipher_setkey)
    && LOOKUP ("gcry_cipher_setiv", &t->cipher_setiv)
    && LOOKUP ("gcry_cipher_setctr", &t->cipher_setctr)
    && LOOKUP ("gcry_cipher_authenticate", &t->cipher_authenticate)
    && LOOKUP ("gcry_cipher_gettag", &t->cipher_gettag)
    && LOOKUP ("gcry_cipher_checktag", &t->cipher_checktag)
    && LOOKUP ("gcry_cipher_get_algo_keylen", &t->cipher_get_algo_keylen)
    && LOOKUP ("gcry_cipher_get_algo_blklen", &t->cipher_get_algo_blklen);
#undef LOOKUP
  if (!ok)
    {
      dlclose (dl);
      memset (t, 0, sizeof *t);
      return false;
    }
  for (int i = 0; i < nhwf; i++)
    if (t->control (GCRYCTL_DISABLE_HWF, hwf[i], NULL))
      {
        size_t used = strlen (rej);
        if (used < rejlen)
          snprintf (rej + used, rejlen - used, "%s ", hwf[i]);
      }
  t->version = t->check_version (nullptr);
  if (!t->version)
    {
      snprintf (why, whylen, "%s: gcry_check_version failed", path);
      /* Left loaded: the library may have started threads.  */
      return false;
    }
  return true;
}

void
load_once ()
{
  const char *path = sys_path ? sys_path : SYSTEM_LIBGCRYPT;
  if (!*path)
    {
      snprintf (sys_why, sizeof sys_why,
                "no system libgcrypt configured (--with-system-libgcrypt)");
      return;
    }
  if (load_table (&sys_table, path, sys_hwf_queue, sys_hwf_count, sys_why,
                  sizeof sys_why, sys_hwf_rejected, sizeof sys_hwf_rejected))
    sys_loaded = &sys_table;
}

} // namespace

const sysgcrypt *
sysgcrypt_load (void)
{
  __atomic_store_n (&sys_load_started, true, __ATOMIC_SEQ_CST);
  pthread_once (&sys_once, load_once);
  return sys_loaded;
}

const char *
sysgcrypt_error (void)
{
  return sys_why;
}

int
sysgcrypt_set_path (const char *path)
{
  if (__atomic_load_n (&sys_load_started, __ATOMIC_SEQ_CST))
    return -1;
  sys_path = path && *path ? path : nullptr;
  return 0;
}

int
sysgcrypt_disable_hwf (const char *name)
{
  if (__atomic_load_n (&sys_load_started, __ATOMIC_SEQ_CST)
      || sys_hwf_count >= 16)
    return -1;
  sys_hwf_queue[sys_hwf_count++] = name;
  return 0;
}

const char *
sysgcrypt_rejected_hwf (void)
{
  return sys_hwf_rejected;
}

struct sysgcrypt
sysgcrypt_gcipher (const char *path)
{
  struct sysgcrypt t;
  memset (&t, 0, sizeof t);
  t.path = path;
  t.check_version = gcry_check_version;
  t.control = gcry_control;
  t.cipher_open = gcry_cipher_open;
  t.cipher_close = gcry_cipher_close;
  t.cipher_ctl = gcry_cipher_ctl;
  t.cipher_info = gcry_cipher_info;
  t.cipher_algo_info = gcry_cipher_algo_info;
  t.cipher_algo_name = gcry_cipher_algo_name;
  t.cipher_map_name = gcry_cipher_map_name;
  t.cipher_mode_from_oid = gcry_cipher_mode_from_oid;
  t.cipher_encrypt = gcry_cipher_encrypt;
  t.cipher_decrypt = gcry_cipher_decrypt;
  t.cipher_setkey = gcry_cipher_setkey;
  t.cipher_setiv = gcry_cipher_setiv;
  t.cipher_setctr = gcry_cipher_setctr;
  t.cipher_authenticate = gcry_cipher_authenticate;
  t.cipher_gettag = gcry_cipher_gettag;
  t.cipher_checktag = gcry_cipher_checktag;
  t.cipher_get_algo_keylen = gcry_cipher_get_algo_keylen;
  t.cipher_get_algo_blklen = gcry_cipher_get_algo_blklen;
  return t;
}

const struct sysgcrypt *
sysgcrypt_ours (void)
{
  static const sysgcrypt ours = sysgcrypt_gcipher ("gcipher");
  return &ours;
}

void
sysgcrypt_quiet_log (void *, int, const char *, va_list)
{
}

void
sysgcrypt_quiet_logs (const struct sysgcrypt *sys)
{
  gcry_set_log_handler (sysgcrypt_quiet_log, nullptr);
  if (!sys)
    return;
  typedef void (*set_log_fn) (gcry_handler_log_t, void *);
  if (void *p = dlvsym (sys->dl, "gcry_set_log_handler", "GCRYPT_1.6"))
    reinterpret_cast<set_log_fn> (p) (sysgcrypt_quiet_log, nullptr);
}

const struct sysgcrypt *
sysgcrypt_load_quiet (void)
{
  static const sysgcrypt *const sys = [] {
    const sysgcrypt *s = sysgcrypt_load ();
    gcry_check_version (nullptr);
    sysgcrypt_quiet_logs (s);
    if (!s)
      printf ("[  NOTE    ] system libgcrypt unavailable (%s): "
              "comparisons skipped\n", sysgcrypt_error ());
    return s;
  } ();
  return sys;
}

const char *
sysgcrypt_default_path (void)
{
  return SYSTEM_LIBGCRYPT;
}

struct sysgcrypt *
sysgcrypt_open (const char *path, const char *const *hwf, int nhwf,
                char *why, size_t whylen, char *rejected, size_t rejlen)
{
  static char no_why[8], no_rej[8];
  if (!why || !whylen)
    {
      why = no_why;
      whylen = sizeof no_why;
    }
  if (!rejected || !rejlen)
    {
      rejected = no_rej;
      rejlen = sizeof no_rej;
    }
  why[0] = 0;
  rejected[0] = 0;
  if (!path || !*path)
    {
      snprintf (why, whylen, "no libgcrypt path given");
      return nullptr;
    }
  sysgcrypt *t = new (std::nothrow) sysgcrypt;
  if (!t)
    {
      snprintf (why, whylen, "out of memory");
      return nullptr;
    }
  if (!load_table (t, path, hwf, nhwf, why, whylen, rejected, rejlen))
    {
      delete t;
      return nullptr;
    }
  return t;
}
