/* insn-driver.c - one cipher call of a given size, for counting the
 * instructions a mode executes per byte under an emulator
 * (tests/cross/insn-count runs it under qemu-riscv64 -d in_asm,exec,nochain).
 *
 *   insn-driver MODE KEYBITS NBYTES
 *
 * MODE: ecb-enc ecb-dec cbc-enc cbc-dec cfb-enc cfb-dec ofb ctr
 * xts-enc xts-dec ocb-enc ocb-dec gcm-enc gcm-dec gcm-auth ccm-enc
 * ccm-dec eax-enc eax-dec (AES), poly1305-auth (ChaCha20-Poly1305 with
 * NBYTES of AAD only: the Poly1305 MAC, RFC 8439 2.5, over NBYTES) and
 * chacha20-poly1305-enc/-dec (RFC 8439 2.8, NBYTES of payload, no AAD);
 * KEYBITS 128, 192 or 256 (XTS: the AES key size, the key is twice as
 * long; ignored by the ChaCha20 modes, 256-bit key); NBYTES a multiple
 * of 16, at most 65536.  Everything but the NBYTES-long call (open,
 * setkey and its one-time self-test, setiv, the CCM lengths, close) is
 * the same for every NBYTES, so the difference of two runs is the cost
 * of the extra bytes.  Uses only the public libgcrypt API.  Exit status
 * 0 on success.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <gcrypt.h>

struct mode_entry
{
  const char *name;
  int mode;
  int encrypt;    /* 1 encrypt, 0 decrypt, 2 authenticate only.  */
  int algo;       /* 0: AES of KEYBITS; else this algorithm.  */
};

static const struct mode_entry modes[] = {
  { "ecb-enc", GCRY_CIPHER_MODE_ECB, 1 }, { "ecb-dec", GCRY_CIPHER_MODE_ECB, 0 },
  { "cbc-enc", GCRY_CIPHER_MODE_CBC, 1 }, { "cbc-dec", GCRY_CIPHER_MODE_CBC, 0 },
  { "cfb-enc", GCRY_CIPHER_MODE_CFB, 1 }, { "cfb-dec", GCRY_CIPHER_MODE_CFB, 0 },
  { "ofb", GCRY_CIPHER_MODE_OFB, 1 }, { "ctr", GCRY_CIPHER_MODE_CTR, 1 },
  { "xts-enc", GCRY_CIPHER_MODE_XTS, 1 }, { "xts-dec", GCRY_CIPHER_MODE_XTS, 0 },
  { "ocb-enc", GCRY_CIPHER_MODE_OCB, 1 }, { "ocb-dec", GCRY_CIPHER_MODE_OCB, 0 },
  { "gcm-enc", GCRY_CIPHER_MODE_GCM, 1 }, { "gcm-dec", GCRY_CIPHER_MODE_GCM, 0 },
  { "gcm-auth", GCRY_CIPHER_MODE_GCM, 2 },
  { "ccm-enc", GCRY_CIPHER_MODE_CCM, 1 }, { "ccm-dec", GCRY_CIPHER_MODE_CCM, 0 },
  { "eax-enc", GCRY_CIPHER_MODE_EAX, 1 }, { "eax-dec", GCRY_CIPHER_MODE_EAX, 0 },
  { "poly1305-auth", GCRY_CIPHER_MODE_POLY1305, 2, GCRY_CIPHER_CHACHA20 },
  { "chacha20-poly1305-enc", GCRY_CIPHER_MODE_POLY1305, 1,
    GCRY_CIPHER_CHACHA20 },
  { "chacha20-poly1305-dec", GCRY_CIPHER_MODE_POLY1305, 0,
    GCRY_CIPHER_CHACHA20 },
};

int
main (int argc, char **argv)
{
  const struct mode_entry *m = NULL;
  /* A static buffer: no allocation whose cost depends on NBYTES;
   * 16-byte aligned like malloc's.  */
  static unsigned char buf[65536] __attribute__ ((aligned (16)));
  unsigned char key[64], iv[16];
  gcry_cipher_hd_t h;
  gcry_error_t err;
  size_t n, keylen;
  int algo, bits;

  if (argc != 4)
    {
      fprintf (stderr, "usage: insn-driver MODE KEYBITS NBYTES\n");
      return 2;
    }
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
    if (!strcmp (argv[1], modes[i].name))
      m = &modes[i];
  bits = atoi (argv[2]);
  n = (size_t)strtoul (argv[3], NULL, 10);
  algo = bits == 128 ? GCRY_CIPHER_AES128
         : bits == 192 ? GCRY_CIPHER_AES192
         : bits == 256 ? GCRY_CIPHER_AES256 : 0;
  if (m && m->algo && algo)
    {
      algo = m->algo;
      bits = 256;
    }
  if (!m || !algo || n % 16 || n > sizeof buf)
    {
      fprintf (stderr, "insn-driver: bad MODE, KEYBITS or NBYTES\n");
      return 2;
    }
  keylen = (size_t)bits / 8 * (m->mode == GCRY_CIPHER_MODE_XTS ? 2 : 1);
  for (size_t i = 0; i < sizeof key; i++)
    key[i] = (unsigned char)(i * 7 + 1);
  memset (iv, 0x5a, sizeof iv);
  if (!gcry_check_version (NULL))
    return 1;

  err = gcry_cipher_open (&h, algo, m->mode, 0);
  if (!err)
    err = gcry_cipher_setkey (h, key, keylen);
  /* Nonces: 12 bytes for OCB, CCM and ChaCha20-Poly1305 (RFC 8439
   * 2.8), 16 for the others.  */
  if (!err && m->mode != GCRY_CIPHER_MODE_ECB)
    err = m->mode == GCRY_CIPHER_MODE_CTR ? gcry_cipher_setctr (h, iv, 16)
          : gcry_cipher_setiv (h, iv, m->mode == GCRY_CIPHER_MODE_OCB
                                      || m->mode == GCRY_CIPHER_MODE_CCM
                                      || m->mode == GCRY_CIPHER_MODE_POLY1305
                                      ? 12 : 16);
  if (!err && m->mode == GCRY_CIPHER_MODE_CCM)
    {
      /* Payload NBYTES, no AAD, 16-byte tag.  */
      uint64_t lens[3] = { n, 0, 16 };
      err = gcry_cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS, lens, sizeof lens);
    }
  if (!err && m->encrypt == 2)
    err = gcry_cipher_authenticate (h, buf, n);
  else if (!err && m->encrypt)
    err = gcry_cipher_encrypt (h, buf, n, NULL, 0);
  else if (!err)
    err = gcry_cipher_decrypt (h, buf, n, NULL, 0);
  if (err)
    {
      fprintf (stderr, "insn-driver: %s\n", gcry_strerror (err));
      return 1;
    }
  gcry_cipher_close (h);
  return 0;
}
