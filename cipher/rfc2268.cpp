/* rfc2268.cpp - RC2 (RFC 2268): the specs GCRY_CIPHER_RFC2268_40 and
 * GCRY_CIPHER_RFC2268_128, key expansion, block functions, self-test.
 *
 * As libgcrypt 1.10 does, both ids run the same algorithm: any key of 5
 * to 128 bytes (else GPG_ERR_INV_KEYLEN) with the effective key length
 * T1 = 8 * key length in bits (RFC 2268 2: then T8 = T and TM = 255, so
 * the "effective bits" reduction step only maps L[128 - T] through
 * PITABLE).  The id only sets the default key length (5 or 16 bytes).
 *
 * Constant time:
 *  - PITABLE (RFC 2268 2, a public 256-byte permutation) is indexed by
 *    key bytes in the key expansion: every lookup scans all 256 entries
 *    with masks (key setup only: 128 scans).
 *  - The mashing rounds (RFC 2268 3.2, 4.2) index the expanded key by
 *    data (K[R[i-1] & 63]): every such lookup scans the 64 key words
 *    with masks (16 scans per block).
 *  - The rest is 16-bit additions, rotations by public amounts, AND, OR.
 */
#include <config.h>
#include <string.h>
#include "g10lib.h"
#include "cipher-internal.h"

namespace {

/* RFC 2268 section 2, PITABLE (based on the digits of pi).  */
constexpr unsigned char pitable[256] = {
  0xd9, 0x78, 0xf9, 0xc4, 0x19, 0xdd, 0xb5, 0xed, 0x28, 0xe9, 0xfd, 0x79,
  0x4a, 0xa0, 0xd8, 0x9d, 0xc6, 0x7e, 0x37, 0x83, 0x2b, 0x76, 0x53, 0x8e,
  0x62, 0x4c, 0x64, 0x88, 0x44, 0x8b, 0xfb, 0xa2, 0x17, 0x9a, 0x59, 0xf5,
  0x87, 0xb3, 0x4f, 0x13, 0x61, 0x45, 0x6d, 0x8d, 0x09, 0x81, 0x7d, 0x32,
  0xbd, 0x8f, 0x40, 0xeb, 0x86, 0xb7, 0x7b, 0x0b, 0xf0, 0x95, 0x21, 0x22,
  0x5c, 0x6b, 0x4e, 0x82, 0x54, 0xd6, 0x65, 0x93, 0xce, 0x60, 0xb2, 0x1c,
  0x73, 0x56, 0xc0, 0x14, 0xa7, 0x8c, 0xf1, 0xdc, 0x12, 0x75, 0xca, 0x1f,
  0x3b, 0xbe, 0xe4, 0xd1, 0x42, 0x3d, 0xd4, 0x30, 0xa3, 0x3c, 0xb6, 0x26,
  0x6f, 0xbf, 0x0e, 0xda, 0x46, 0x69, 0x07, 0x57, 0x27, 0xf2, 0x1d, 0x9b,
  0xbc, 0x94, 0x43, 0x03, 0xf8, 0x11, 0xc7, 0xf6, 0x90, 0xef, 0x3e, 0xe7,
  0x06, 0xc3, 0xd5, 0x2f, 0xc8, 0x66, 0x1e, 0xd7, 0x08, 0xe8, 0xea, 0xde,
  0x80, 0x52, 0xee, 0xf7, 0x84, 0xaa, 0x72, 0xac, 0x35, 0x4d, 0x6a, 0x2a,
  0x96, 0x1a, 0xd2, 0x71, 0x5a, 0x15, 0x49, 0x74, 0x4b, 0x9f, 0xd0, 0x5e,
  0x04, 0x18, 0xa4, 0xec, 0xc2, 0xe0, 0x41, 0x6e, 0x0f, 0x51, 0xcb, 0xcc,
  0x24, 0x91, 0xaf, 0x50, 0xa1, 0xf4, 0x70, 0x39, 0x99, 0x7c, 0x3a, 0x85,
  0x23, 0xb8, 0xb4, 0x7a, 0xfc, 0x02, 0x36, 0x5b, 0x25, 0x55, 0x97, 0x31,
  0x2d, 0x5d, 0xfa, 0x98, 0xe3, 0x8a, 0x92, 0xae, 0x05, 0xdf, 0x29, 0x10,
  0x67, 0x6c, 0xba, 0xc9, 0xd3, 0x00, 0xe6, 0xcf, 0xe1, 0x9e, 0xa8, 0x2c,
  0x63, 0x16, 0x01, 0x3f, 0x58, 0xe2, 0x89, 0xa9, 0x0d, 0x38, 0x34, 0x1b,
  0xab, 0x33, 0xff, 0xb0, 0xbb, 0x48, 0x0c, 0x5f, 0xb9, 0xb1, 0xcd, 0x2e,
  0xc5, 0xf3, 0xdb, 0x47, 0xe5, 0xa5, 0x9c, 0x77, 0x0a, 0xa6, 0x20, 0x68,
  0xfe, 0x7f, 0xc1, 0xad
};

constexpr bool
is_permutation (const unsigned char (&t)[256])
{
  bool seen[256] = {};
  for (unsigned char v : t)
    {
      if (seen[v])
        return false;
      seen[v] = true;
    }
  return true;
}
static_assert (is_permutation (pitable), "PITABLE must be a permutation");

struct RFC2268_context
{
  uint16_t k[64];   /* K[0..63] (RFC 2268 2).  */
};

/* All-ones (as unsigned) if A == B, else 0.  */
inline unsigned int
eq_mask (unsigned int a, unsigned int b)
{
  return 0u - (((a ^ b) - 1u) >> 31);   /* A, B < 2^31.  */
}

/* PITABLE[X] by a masked scan of all 256 entries.  */
inline unsigned char
pitable_ct (unsigned int x)
{
  unsigned int r = 0;
  for (unsigned int i = 0; i < 256; i++)
    r |= pitable[i] & eq_mask (i, x);
  return (unsigned char) r;
}

/* K[IDX] (IDX < 64) by a masked scan of the 64 key words.  */
inline uint16_t
key_word_ct (const uint16_t *k, unsigned int idx)
{
  unsigned int r = 0;
  for (unsigned int i = 0; i < 64; i++)
    r |= k[i] & eq_mask (i, idx);
  return (uint16_t) r;
}

inline uint16_t
rol16 (uint16_t x, unsigned int n)
{
  return (uint16_t) ((x << n) | (x >> (16 - n)));
}

inline uint16_t
ror16 (uint16_t x, unsigned int n)
{
  return (uint16_t) ((x >> n) | (x << (16 - n)));
}

/* RFC 2268 2, with T = KEYLEN bytes (5..128) and T1 = 8T.  */
void
rc2_expand_key (RFC2268_context *ctx, const unsigned char *key, size_t t)
{
  unsigned char l[128];
  memcpy (l, key, t);
  for (size_t i = t; i < 128; i++)
    l[i] = pitable_ct ((l[i - 1] + l[i - t]) & 255);
  /* T8 = T, TM = 255.  */
  l[128 - t] = pitable_ct (l[128 - t]);
  for (size_t i = 128 - t; i-- > 0;)
    l[i] = pitable_ct (l[i + 1] ^ l[i + t]);
  for (int i = 0; i < 64; i++)
    ctx->k[i] = (uint16_t) (l[2 * i] | (l[2 * i + 1] << 8));
  wipememory (l, sizeof l);
}

constexpr unsigned int rc2_shift[4] = { 1, 2, 3, 5 };

/* RFC 2268 3: five mixing rounds, a mashing round, six mixing, a
 * mashing, five mixing.  R[0..3] little-endian 16-bit words.  */
unsigned int
rc2_encrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const RFC2268_context *ctx = static_cast<const RFC2268_context *> (c);
  uint16_t r[4];
  for (int i = 0; i < 4; i++)
    r[i] = (uint16_t) (in[2 * i] | (in[2 * i + 1] << 8));
  int j = 0;
  for (int round = 0; round < 16; round++)
    {
      for (int i = 0; i < 4; i++)
        {
          uint16_t a = r[(i + 3) & 3], b = r[(i + 2) & 3], d = r[(i + 1) & 3];
          r[i] = (uint16_t) (r[i] + ctx->k[j++] + (a & b) + (~a & d));
          r[i] = rol16 (r[i], rc2_shift[i]);
        }
      if (round == 4 || round == 10)
        for (int i = 0; i < 4; i++)
          r[i] = (uint16_t) (r[i] + key_word_ct (ctx->k, r[(i + 3) & 3] & 63));
    }
  for (int i = 0; i < 4; i++)
    {
      out[2 * i] = (unsigned char) r[i];
      out[2 * i + 1] = (unsigned char) (r[i] >> 8);
    }
  return 32 + 8 * sizeof (void *);
}

/* RFC 2268 4: the inverse, R-mixing and R-mashing in reverse order.  */
unsigned int
rc2_decrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const RFC2268_context *ctx = static_cast<const RFC2268_context *> (c);
  uint16_t r[4];
  for (int i = 0; i < 4; i++)
    r[i] = (uint16_t) (in[2 * i] | (in[2 * i + 1] << 8));
  int j = 63;
  for (int round = 15; round >= 0; round--)
    {
      if (round == 4 || round == 10)
        for (int i = 3; i >= 0; i--)
          r[i] = (uint16_t) (r[i] - key_word_ct (ctx->k, r[(i + 3) & 3] & 63));
      for (int i = 3; i >= 0; i--)
        {
          r[i] = ror16 (r[i], rc2_shift[i]);
          uint16_t a = r[(i + 3) & 3], b = r[(i + 2) & 3], d = r[(i + 1) & 3];
          r[i] = (uint16_t) (r[i] - ctx->k[j--] - (a & b) - (~a & d));
        }
    }
  for (int i = 0; i < 4; i++)
    {
      out[2 * i] = (unsigned char) r[i];
      out[2 * i + 1] = (unsigned char) (r[i] >> 8);
    }
  return 32 + 8 * sizeof (void *);
}

const cipher_impl_info rc2_impls[] = { { "generic", 0 } };

/* KEYLEN 5..128 bytes, else GPG_ERR_INV_KEYLEN.  */
gcry_err_code_t
rc2_setkey (void *c, const unsigned char *key, size_t keylen,
            cipher_bulk_ops *bulk, const char **impl_name)
{
  (void) bulk;
  if (keylen < 5 || keylen > 128)
    return GPG_ERR_INV_KEYLEN;
  rc2_expand_key (static_cast<RFC2268_context *> (c), key, keylen);
  _gcry_burn_stack (256);
  if (impl_name)
    *impl_name = rc2_impls[0].name;
  return GPG_ERR_NO_ERROR;
}

/* RFC 2268 5 test vectors with T1 = 8T (the ones libgcrypt can key).  */
struct rc2_kat
{
  unsigned char key[16];
  size_t keylen;
  unsigned char pt[8], ct[8];
};

const rc2_kat rc2_kats[] = {
  { { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, 8,
    { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
    { 0x27, 0x8b, 0x27, 0xe4, 0x2e, 0x2f, 0x0d, 0x49 } },
  { { 0x30, 0, 0, 0, 0, 0, 0, 0 }, 8,
    { 0x10, 0, 0, 0, 0, 0, 0, 0x01 },
    { 0x30, 0x64, 0x9e, 0xdf, 0x9b, 0xe7, 0xd2, 0xc2 } },
  { { 0x88, 0xbc, 0xa9, 0x0e, 0x90, 0x87, 0x5a, 0x7f,
      0x0f, 0x79, 0xc3, 0x84, 0x62, 0x7b, 0xaf, 0xb2 }, 16,
    { 0 },
    { 0x22, 0x69, 0x55, 0x2a, 0xb0, 0xf8, 0x5c, 0xa6 } },
};

const char *
rc2_selftest (void)
{
  RFC2268_context ctx;
  unsigned char buf[8];
  const char *err = NULL;
  for (const rc2_kat &v : rc2_kats)
    {
      rc2_expand_key (&ctx, v.key, v.keylen);
      rc2_encrypt (&ctx, buf, v.pt);
      if (!err && memcmp (buf, v.ct, 8))
        err = "RFC2268: encryption known answer failed";
      rc2_decrypt (&ctx, buf, v.ct);
      if (!err && memcmp (buf, v.pt, 8))
        err = "RFC2268: decryption known answer failed";
    }
  wipememory (&ctx, sizeof ctx);
  _gcry_burn_stack (512);
  return err;
}

/* PKCS #12 (RFC 7292 appendix C) PBE OIDs, mode CBC, as libgcrypt.  */
const cipher_oid_spec rc2_40_oids[] = {
  { "1.2.840.113549.1.12.1.6", GCRY_CIPHER_MODE_CBC },
  { NULL, 0 }
};
const cipher_oid_spec rc2_128_oids[] = {
  { "1.2.840.113549.1.12.1.5", GCRY_CIPHER_MODE_CBC },
  { NULL, 0 }
};

} // namespace

const cipher_spec _gcry_cipher_spec_rfc2268_40 = {
  GCRY_CIPHER_RFC2268_40, "RFC2268_40", NULL, rc2_40_oids,
  8, 40, sizeof (RFC2268_context),
  rc2_setkey, rc2_encrypt, rc2_decrypt, rc2_selftest,
  rc2_impls, 1
};

const cipher_spec _gcry_cipher_spec_rfc2268_128 = {
  GCRY_CIPHER_RFC2268_128, "RFC2268_128", NULL, rc2_128_oids,
  8, 128, sizeof (RFC2268_context),
  rc2_setkey, rc2_encrypt, rc2_decrypt, rc2_selftest,
  rc2_impls, 1
};
