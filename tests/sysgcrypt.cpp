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

/* Look NAME up at GCRYPT_1.6 into *SLOT; false (and a reason) if
 * missing.  */
template <typename F>
bool
lookup (void *dl, const char *name, F *slot)
{
  void *p = dlvsym (dl, name, "GCRYPT_1.6");
  if (!p)
    {
      snprintf (sys_why, sizeof sys_why, "%s@GCRYPT_1.6 not found in %s",
                name, sys_path ? sys_path : SYSTEM_LIBGCRYPT);
      return false;
    }
  *slot = reinterpret_cast<F> (p);
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
  void *dl = dlmopen (LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
  if (!dl)
    {
      const char *e = dlerror ();
      snprintf (sys_why, sizeof sys_why, "dlmopen %s: %s", path,
                e ? e : "?");
      return;
    }
  sysgcrypt &t = sys_table;
  t.dl = dl;
  t.path = path;
  bool ok = lookup (dl, "gcry_check_version", &t.check_version)
    && lookup (dl, "gcry_control", &t.control)
    && lookup (dl, "gcry_cipher_open", &t.cipher_open)
    && lookup (dl, "gcry_cipher_close", &t.cipher_close)
    && lookup (dl, "gcry_cipher_ctl", &t.cipher_ctl)
    && lookup (dl, "gcry_cipher_info", &t.cipher_info)
    && lookup (dl, "gcry_cipher_algo_info", &t.cipher_algo_info)
    && lookup (dl, "gcry_cipher_algo_name", &t.cipher_algo_name)
    && lookup (dl, "gcry_cipher_map_name", &t.cipher_map_name)
    && lookup (dl, "gcry_cipher_mode_from_oid", &t.cipher_mode_from_oid)
    && lookup (dl, "gcry_cipher_encrypt", &t.cipher_encrypt)
    && lookup (dl, "gcry_cipher_decrypt", &t.cipher_decrypt)
    && lookup (dl, "gcry_cipher_setkey", &t.cipher_setkey)
    && lookup (dl, "gcry_cipher_setiv", &t.cipher_setiv)
    && lookup (dl, "gcry_cipher_setctr", &t.cipher_setctr)
    && lookup (dl, "gcry_cipher_authenticate", &t.cipher_authenticate)
    && lookup (dl, "gcry_cipher_gettag", &t.cipher_gettag)
    && lookup (dl, "gcry_cipher_checktag", &t.cipher_checktag)
    && lookup (dl, "gcry_cipher_get_algo_keylen", &t.cipher_get_algo_keylen)
    && lookup (dl, "gcry_cipher_get_algo_blklen", &t.cipher_get_algo_blklen);
  if (!ok)
    {
      dlclose (dl);
      memset (&t, 0, sizeof t);
      return;
    }
  for (int i = 0; i < sys_hwf_count; i++)
    if (t.control (GCRYCTL_DISABLE_HWF, sys_hwf_queue[i], NULL))
      {
        size_t used = strlen (sys_hwf_rejected);
        snprintf (sys_hwf_rejected + used, sizeof sys_hwf_rejected - used,
                  "%s ", sys_hwf_queue[i]);
      }
  t.version = t.check_version (nullptr);
  if (!t.version)
    {
      snprintf (sys_why, sizeof sys_why, "%s: gcry_check_version failed",
                path);
      return;
    }
  sys_loaded = &t;
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
