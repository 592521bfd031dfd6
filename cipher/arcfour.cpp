/* arcfour.cpp - ARCFOUR (the RC4 keystream generator as described in
 * RFC 6229 section 1 and RFC 7465's references): the spec, key schedule,
 * stream layer and self-test.
 *
 * NOT CONSTANT TIME, inherently: RC4's key schedule and every keystream
 * byte index the 256-byte state with key-dependent values (the swap
 * positions j and S[i] + S[j]), so cache and timing side channels can
 * leak key-dependent information.  No implementation of RC4 can avoid
 * this short of touching the whole table for every byte; gcipher keeps
 * the plain algorithm, as libgcrypt does.  RC4 is also cryptographically
 * broken (RFC 7465 prohibits it in TLS); it is here for compatibility.
 *
 * As in libgcrypt 1.10 (observed side by side):
 *   - name "ARCFOUR", no aliases or OIDs, block size 1, default key 128
 *     bits; setkey takes keys of 5 bytes (40 bits) or more (the schedule
 *     uses the first 256 bytes), shorter ones GPG_ERR_INV_KEYLEN; the
 *     length counts modulo 2^32 (libgcrypt passes it as 32 bits).
 *   - No IV: setiv is the generic one (it does not touch the keystream).
 *   - GCRYCTL_RESET restarts the keystream of the current key.
 *   - Mode STREAM only.
 */
#include <config.h>
#include <string.h>

#include "cipher-internal.h"

namespace {

struct ARCFOUR_context
{
  unsigned char sbox[256];    /* The running permutation S.  */
  unsigned char sbox0[256];   /* S as the key schedule left it (RESET). */
  unsigned int idx_i, idx_j;  /* The PRGA's i and j.  */
};

const cipher_impl_info arcfour_impls[] = {
  { "generic", 0 },
};

/* The key schedule (KSA): S = identity, then 256 swaps driven by the
 * key bytes, cycled.  */
void
arcfour_keysetup (ARCFOUR_context *ctx, const unsigned char *key,
                  size_t keylen)
{
  for (int i = 0; i < 256; i++)
    ctx->sbox[i] = (unsigned char) i;
  unsigned int j = 0;
  size_t k = 0;
  for (int i = 0; i < 256; i++)
    {
      j = (j + ctx->sbox[i] + key[k]) & 255;
      if (++k == keylen)
        k = 0;  /* Public: the key length.  */
      unsigned char t = ctx->sbox[i];
      ctx->sbox[i] = ctx->sbox[j];
      ctx->sbox[j] = t;
    }
  memcpy (ctx->sbox0, ctx->sbox, sizeof ctx->sbox);
  ctx->idx_i = ctx->idx_j = 0;
}

gcry_err_code_t
arcfour_setkey (void *context, const unsigned char *key, size_t keylen,
                cipher_bulk_ops *bulk, const char **impl_name)
{
  (void) bulk;
  /* libgcrypt's setkey takes the length as a 32-bit unsigned int: a
   * size_t length is cut to its low 32 bits (2^32 + 7 is a 7-byte key,
   * 2^32 is refused), for the check and the key cycling alike.  */
  keylen = (uint32_t) keylen;
  if (keylen < 40 / 8)
    return GPG_ERR_INV_KEYLEN;
  arcfour_keysetup (static_cast<ARCFOUR_context *> (context), key, keylen);
  if (impl_name)
    *impl_name = arcfour_impls[0].name;
  return GPG_ERR_NO_ERROR;
}

/* The generator (PRGA), one byte per input byte.  LEN bytes.  */
unsigned int
arcfour_encrypt_stream (void *context, unsigned char *out,
                        const unsigned char *in, size_t len)
{
  ARCFOUR_context *ctx = static_cast<ARCFOUR_context *> (context);
  unsigned char *s = ctx->sbox;
  unsigned int i = ctx->idx_i, j = ctx->idx_j;
  for (size_t n = 0; n < len; n++)
    {
      i = (i + 1) & 255;
      j = (j + s[i]) & 255;
      unsigned char t = s[i];
      s[i] = s[j];
      s[j] = t;
      out[n] = in[n] ^ s[(s[i] + t) & 255];
    }
  ctx->idx_i = i;
  ctx->idx_j = j;
  return 8 * sizeof (void *);
}

/* Known answer computed with libgcrypt 1.10.1 (tests/t-stream.cpp also
 * checks RFC 6229's vectors and compares with the system library): key
 * bytes 7i+1 (16 bytes), the first 32 keystream bytes.  */
const unsigned char kat_ks[32] = {
  0x45, 0xc0, 0xf2, 0x87, 0x2c, 0xc3, 0xdc, 0xec, 0x25, 0x1d, 0xf9, 0xc9,
  0x7d, 0xf3, 0xb4, 0xb4, 0x02, 0xb6, 0xe7, 0x1c, 0x69, 0xe4, 0x32, 0x51,
  0xbd, 0x95, 0xc3, 0xe6, 0x44, 0xc4, 0x1f, 0x5a
};

const char *
arcfour_selftest (void)
{
  ARCFOUR_context ctx;
  unsigned char key[16], buf[32];
  for (int i = 0; i < 16; i++)
    key[i] = (unsigned char) (7 * i + 1);
  arcfour_keysetup (&ctx, key, sizeof key);
  memset (buf, 0, sizeof buf);
  arcfour_encrypt_stream (&ctx, buf, buf, 5);
  arcfour_encrypt_stream (&ctx, buf + 5, buf + 5, sizeof buf - 5);
  const char *err = memcmp (buf, kat_ks, sizeof buf)
                    ? "known answer failed" : nullptr;
  wipememory (&ctx, sizeof ctx);
  wipememory (buf, sizeof buf);
  return err;
}

/* GCRYCTL_RESET: the keystream restarts (libgcrypt copies back the
 * context setkey left).  */
void
arcfour_reset (void *context)
{
  ARCFOUR_context *ctx = static_cast<ARCFOUR_context *> (context);
  memcpy (ctx->sbox, ctx->sbox0, sizeof ctx->sbox);
  ctx->idx_i = ctx->idx_j = 0;
}

} // namespace

extern const cipher_spec _gcry_cipher_spec_arcfour = {
  GCRY_CIPHER_ARCFOUR, "ARCFOUR", nullptr, nullptr,
  1, 128, sizeof (ARCFOUR_context),
  arcfour_setkey, nullptr, nullptr, arcfour_selftest,
  arcfour_impls, 1,
  arcfour_encrypt_stream, arcfour_encrypt_stream, nullptr
};

/* The context is not wiped before setkey (a failed setkey leaves it as
 * libgcrypt does; a successful one overwrites all of it); RESET returns
 * to the state setkey left.  */
extern const cipher_extra_ops _gcry_cipher_extra_arcfour = {
  &_gcry_cipher_spec_arcfour, sizeof (ARCFOUR_context), nullptr, arcfour_reset
};
