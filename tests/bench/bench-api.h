/* bench-api.h - the libgcrypt entry points of tests/benchmark and
 * tests/bench-slope, referenced weakly.
 *
 * Both programs link the shared gcipher with a RUNPATH that
 * LD_LIBRARY_PATH overrides, so they also run on the system libgcrypt
 * (or any libgcrypt.so.20).  With weak references a program links and
 * starts even on a library that lacks some entry point (gcipher while
 * it is being built) and names what is missing instead of failing in
 * the dynamic linker.  Include after <gcrypt.h>, in the program's one
 * file that calls the library.  */
#ifndef GCIPHER_TESTS_BENCH_API_H
#define GCIPHER_TESTS_BENCH_API_H

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

#define BENCH_API_FUNCS(X)                                                    \
  X (gcry_check_version) X (gcry_control) X (gcry_strerror)                  \
  X (gcry_cipher_open) X (gcry_cipher_close) X (gcry_cipher_setkey)          \
  X (gcry_cipher_setiv) X (gcry_cipher_setctr) X (gcry_cipher_encrypt)       \
  X (gcry_cipher_decrypt) X (gcry_cipher_ctl) X (gcry_cipher_gettag)         \
  X (gcry_cipher_checktag) X (gcry_cipher_authenticate)                      \
  X (gcry_cipher_algo_info) X (gcry_cipher_algo_name)                        \
  X (gcry_cipher_map_name) X (gcry_cipher_get_algo_keylen)                   \
  X (gcry_cipher_get_algo_blklen)

#pragma weak gcry_check_version
#pragma weak gcry_control
#pragma weak gcry_strerror
#pragma weak gcry_cipher_open
#pragma weak gcry_cipher_close
#pragma weak gcry_cipher_setkey
#pragma weak gcry_cipher_setiv
#pragma weak gcry_cipher_setctr
#pragma weak gcry_cipher_encrypt
#pragma weak gcry_cipher_decrypt
#pragma weak gcry_cipher_ctl
#pragma weak gcry_cipher_gettag
#pragma weak gcry_cipher_checktag
#pragma weak gcry_cipher_authenticate
#pragma weak gcry_cipher_algo_info
#pragma weak gcry_cipher_algo_name
#pragma weak gcry_cipher_map_name
#pragma weak gcry_cipher_get_algo_keylen
#pragma weak gcry_cipher_get_algo_blklen

namespace bench {

/* Exit with status 2 and a line "PGM: the loaded libgcrypt lacks NAME"
 * per entry point the loaded library lacks.  */
inline void
check_api (const char *pgm)
{
  int missing = 0;
#define BENCH_CHECK(f)                                                        \
  if (!reinterpret_cast<void *> (&f))                                        \
    {                                                                         \
      fprintf (stderr, "%s: the loaded libgcrypt lacks %s\n", pgm, #f);      \
      missing++;                                                              \
    }
  BENCH_API_FUNCS (BENCH_CHECK)
#undef BENCH_CHECK
  if (missing)
    exit (2);
}

/* The file of the shared object that provides gcry_check_version (for
 * --verbose), or "(unknown)".  */
inline const char *
library_path ()
{
  void *sym = dlsym (RTLD_DEFAULT, "gcry_check_version");
  Dl_info info;
  if (sym && dladdr (sym, &info) && info.dli_fname)
    return info.dli_fname;
  return "(unknown)";
}

} // namespace bench

#endif /* GCIPHER_TESTS_BENCH_API_H */
