/* t-preload-helper.c - a libgcrypt client for t-preload-gpg.sh.
 *
 * Usage: t-preload-helper ALGO MODE [FLAGS]     (numbers, as in gcrypt.h)
 *
 * Links no libgcrypt: it finds the gcry_* functions with
 * dlsym (RTLD_DEFAULT), so the script decides what is in the process:
 *   LD_PRELOAD=libgcrypt.so.20                       stock libgcrypt
 *   LD_PRELOAD="libgcipher-preload.so libgcrypt.so.20"  interposed
 *   LD_PRELOAD=libgcipher-preload.so                 no real libgcrypt
 * and compares the printed line between them.  The line holds the
 * handle-less answers (name, key/block length in bytes, map_name) and,
 * if the open succeeded, the hex ciphertext of 64 fixed bytes under a
 * fixed key and IV/counter, and whether decryption restores them:
 *   name=<s> keylen=<n> blklen=<n> map=<n> test=<code> open=<code>
 *     [ct=<hex> rt=<ok|BAD|code>]
 * Codes are gpg_err_code_t values (0 = success).  Exit status 0 unless
 * the process could not run at all (2).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcrypt.h"

#define LOOKUP(var, name)                                            \
  do {                                                               \
    *(void **) (&var) = dlsym (RTLD_DEFAULT, name);                  \
    if (!var)                                                        \
      {                                                              \
        fprintf (stderr, "t-preload-helper: %s not found\n", name);  \
        return 2;                                                    \
      }                                                              \
  } while (0)

int
main (int argc, char **argv)
{
  const char *(*check_version) (const char *);
  gcry_error_t (*c_open) (gcry_cipher_hd_t *, int, int, unsigned int);
  void (*c_close) (gcry_cipher_hd_t);
  gcry_error_t (*c_algo_info) (int, int, void *, size_t *);
  const char *(*c_algo_name) (int);
  int (*c_map_name) (const char *);
  gcry_error_t (*c_setkey) (gcry_cipher_hd_t, const void *, size_t);
  gcry_error_t (*c_setiv) (gcry_cipher_hd_t, const void *, size_t);
  gcry_error_t (*c_setctr) (gcry_cipher_hd_t, const void *, size_t);
  gcry_error_t (*c_encrypt) (gcry_cipher_hd_t, void *, size_t, const void *,
                             size_t);
  gcry_error_t (*c_decrypt) (gcry_cipher_hd_t, void *, size_t, const void *,
                             size_t);
  size_t (*c_keylen) (int);
  size_t (*c_blklen) (int);

  if (argc < 3)
    {
      fprintf (stderr, "usage: t-preload-helper ALGO MODE [FLAGS]\n");
      return 2;
    }
  int algo = atoi (argv[1]);
  int mode = atoi (argv[2]);
  unsigned int flags = argc > 3 ? (unsigned int) atoi (argv[3]) : 0;

  /* Initialise the real libgcrypt when there is one.  */
  *(void **) (&check_version) = dlsym (RTLD_DEFAULT, "gcry_check_version");
  if (check_version)
    check_version (NULL);

  LOOKUP (c_open, "gcry_cipher_open");
  LOOKUP (c_close, "gcry_cipher_close");
  LOOKUP (c_algo_info, "gcry_cipher_algo_info");
  LOOKUP (c_algo_name, "gcry_cipher_algo_name");
  LOOKUP (c_map_name, "gcry_cipher_map_name");
  LOOKUP (c_setkey, "gcry_cipher_setkey");
  LOOKUP (c_setiv, "gcry_cipher_setiv");
  LOOKUP (c_setctr, "gcry_cipher_setctr");
  LOOKUP (c_encrypt, "gcry_cipher_encrypt");
  LOOKUP (c_decrypt, "gcry_cipher_decrypt");
  LOOKUP (c_keylen, "gcry_cipher_get_algo_keylen");
  LOOKUP (c_blklen, "gcry_cipher_get_algo_blklen");

  const char *name = c_algo_name (algo);
  size_t keylen = c_keylen (algo);
  size_t blklen = c_blklen (algo);
  int mapped = name ? c_map_name (name) : 0;
  gcry_error_t test = c_algo_info (algo, GCRYCTL_TEST_ALGO, NULL, NULL);
  printf ("name=%s keylen=%zu blklen=%zu map=%d test=%d", name ? name : "(null)",
          keylen, blklen, mapped, (int) gpg_err_code (test));

  gcry_cipher_hd_t hd = NULL;
  gcry_error_t err = c_open (&hd, algo, mode, flags);
  printf (" open=%d", (int) gpg_err_code (err));
  if (!err)
    {
      unsigned char key[64], iv[32], pt[64], ct[64], back[64];
      size_t i;
      if (!keylen || keylen > sizeof key)
        keylen = 16;
      if (!blklen || blklen > sizeof iv)
        blklen = 16;
      for (i = 0; i < sizeof key; i++)
        key[i] = (unsigned char) (0x11 * i + 3);
      for (i = 0; i < sizeof iv; i++)
        iv[i] = (unsigned char) (0xa5 ^ i);
      for (i = 0; i < sizeof pt; i++)
        pt[i] = (unsigned char) (i * 7);

      gcry_error_t e = c_setkey (hd, key, keylen);
      if (!e)
        e = mode == GCRY_CIPHER_MODE_CTR ? c_setctr (hd, iv, blklen)
            : mode == GCRY_CIPHER_MODE_ECB ? 0 : c_setiv (hd, iv, blklen);
      if (!e)
        e = c_encrypt (hd, ct, sizeof ct, pt, sizeof pt);
      if (e)
        printf (" ct=err%d", (int) gpg_err_code (e));
      else
        {
          printf (" ct=");
          for (i = 0; i < sizeof ct; i++)
            printf ("%02x", ct[i]);
          e = mode == GCRY_CIPHER_MODE_CTR ? c_setctr (hd, iv, blklen)
              : mode == GCRY_CIPHER_MODE_ECB ? 0 : c_setiv (hd, iv, blklen);
          if (!e)
            e = c_decrypt (hd, back, sizeof back, ct, sizeof ct);
          if (e)
            printf (" rt=%d", (int) gpg_err_code (e));
          else
            printf (" rt=%s", memcmp (back, pt, sizeof pt) ? "BAD" : "ok");
        }
      c_close (hd);
    }
  printf ("\n");
  return 0;
}
