/* idea.cpp - IDEA (X. Lai, "On the Design and Security of Block
 * Ciphers", ETH Series in Information Processing 1, 1992, chapter 3;
 * the algorithm as RFC 3058 section 1 refers to it): spec, key
 * schedule, block function and self-test.
 *
 * 64-bit block as four big-endian 16-bit words, 128-bit key, eight
 * rounds and an output transformation, 52 16-bit subkeys.  Operations:
 * XOR, addition mod 2^16, multiplication mod 2^16 + 1 with the all-zero
 * word standing for 2^16.
 *
 * Constant time: the multiplication has no branch on a zero operand (the
 * usual "if (a == 0) return 1 - b" shortcut is replaced by mapping 0 to
 * 2^16 arithmetically and reducing the 33-bit product with a mask), the
 * decryption subkeys use inverses computed as x^(2^16 - 1) mod 2^16 + 1
 * (Fermat) with the same multiplication and a fixed exponent, and there
 * are no tables.  Only lengths are branched on.
 *
 * libgcrypt 1.10 takes exactly 16 key bytes (else GPG_ERR_INV_KEYLEN).
 */
#include <config.h>
#include <string.h>
#include "g10lib.h"
#include "cipher-internal.h"

namespace {

constexpr int IDEA_ROUNDS = 8;
constexpr int IDEA_KEYS = 6 * IDEA_ROUNDS + 4;  /* 52 subkeys.  */

struct IDEA_context
{
  uint16_t ek[IDEA_KEYS];   /* Encryption subkeys Z1..Z52.  */
  uint16_t dk[IDEA_KEYS];   /* Decryption subkeys.  */
};

/* A * B mod 2^16 + 1, 0 meaning 2^16 (both in and out).  Branch-free:
 * with a' = a or 2^16, p = a' b' < 2^32 + 1 and, writing p = 2^16 h + l,
 * p = l - h (mod 2^16 + 1) with -2^16 <= l - h < 2^16: one conditional
 * addition of 2^16 + 1, done with the sign mask.  2^16 then maps back
 * to 0 through the final truncation.  */
inline uint16_t
idea_mul (uint32_t a, uint32_t b)
{
  a += ((a - 1) >> 31) << 16;   /* a == 0 -> 2^16 (a < 2^16).  */
  b += ((b - 1) >> 31) << 16;
  uint64_t p = (uint64_t) a * b;
  int64_t t = (int64_t) (p & 0xffff) - (int64_t) (p >> 16);
  t += (int64_t) ((uint64_t) (t >> 63) & 0x10001);
  return (uint16_t) t;
}

/* Multiplicative inverse mod 2^16 + 1: x^(2^16 - 1) = x^(p - 2).  0
 * (2^16 = -1) is its own inverse and comes out as 0.  */
inline uint16_t
idea_inv (uint16_t x)
{
  uint16_t r = 1, b = x;
  for (int i = 0; i < 16; i++)
    {
      r = idea_mul (r, b);
      b = idea_mul (b, b);
    }
  return r;
}

/* Subkeys: the 128-bit key split into eight 16-bit words, then the key
 * rotated left by 25 bits for each next eight.  */
void
idea_expand_key (uint16_t *ek, const unsigned char *key)
{
  uint64_t hi = 0, lo = 0;
  for (int i = 0; i < 8; i++)
    {
      hi = (hi << 8) | key[i];
      lo = (lo << 8) | key[8 + i];
    }
  for (int i = 0; i < IDEA_KEYS; i += 8)
    {
      for (int j = 0; j < 8 && i + j < IDEA_KEYS; j++)
        ek[i + j] = (uint16_t) (j < 4 ? hi >> (48 - 16 * j)
                                      : lo >> (48 - 16 * (j - 4)));
      uint64_t nhi = (hi << 25) | (lo >> 39);
      uint64_t nlo = (lo << 25) | (hi >> 39);
      hi = nhi;
      lo = nlo;
    }
  hi = lo = 0;
}

/* Decryption subkeys: rounds in reverse order, multiplicative keys
 * inverted, additive keys negated (and the middle two swapped, except
 * in the first and last group), MA keys of the preceding round.  */
void
idea_invert_key (uint16_t *dk, const uint16_t *ek)
{
  for (int r = 0; r <= IDEA_ROUNDS; r++)
    {
      const uint16_t *z = ek + 6 * (IDEA_ROUNDS - r);
      const bool outer = r == 0 || r == IDEA_ROUNDS;
      dk[6 * r + 0] = idea_inv (z[0]);
      dk[6 * r + 1] = (uint16_t) -z[outer ? 1 : 2];
      dk[6 * r + 2] = (uint16_t) -z[outer ? 2 : 1];
      dk[6 * r + 3] = idea_inv (z[3]);
      if (r < IDEA_ROUNDS)
        {
          dk[6 * r + 4] = z[-2];
          dk[6 * r + 5] = z[-1];
        }
    }
}

/* Eight rounds and the output transformation with subkeys K.  */
void
idea_crypt (const uint16_t *k, unsigned char *out, const unsigned char *in)
{
  uint16_t x1 = (uint16_t) ((in[0] << 8) | in[1]);
  uint16_t x2 = (uint16_t) ((in[2] << 8) | in[3]);
  uint16_t x3 = (uint16_t) ((in[4] << 8) | in[5]);
  uint16_t x4 = (uint16_t) ((in[6] << 8) | in[7]);
  for (int r = 0; r < IDEA_ROUNDS; r++, k += 6)
    {
      x1 = idea_mul (x1, k[0]);
      x2 = (uint16_t) (x2 + k[1]);
      x3 = (uint16_t) (x3 + k[2]);
      x4 = idea_mul (x4, k[3]);
      uint16_t t0 = idea_mul (k[4], x1 ^ x3);
      uint16_t t1 = idea_mul (k[5], (uint16_t) (t0 + (x2 ^ x4)));
      t0 = (uint16_t) (t0 + t1);
      x1 ^= t1;
      x4 ^= t0;
      uint16_t t = x2 ^ t0;
      x2 = x3 ^ t1;
      x3 = t;
    }
  /* Output transformation (the last round's swap undone).  */
  uint16_t y1 = idea_mul (x1, k[0]);
  uint16_t y2 = (uint16_t) (x3 + k[1]);
  uint16_t y3 = (uint16_t) (x2 + k[2]);
  uint16_t y4 = idea_mul (x4, k[3]);
  out[0] = (unsigned char) (y1 >> 8); out[1] = (unsigned char) y1;
  out[2] = (unsigned char) (y2 >> 8); out[3] = (unsigned char) y2;
  out[4] = (unsigned char) (y3 >> 8); out[5] = (unsigned char) y3;
  out[6] = (unsigned char) (y4 >> 8); out[7] = (unsigned char) y4;
}

/* The block's frame (GCC 12 on i686: 120 bytes deep, an audit of the
 * frames against 112 that this was).  */
constexpr unsigned int idea_burn = 128 + 12 * sizeof (void *);

unsigned int
idea_encrypt (void *c, unsigned char *out, const unsigned char *in)
{
  idea_crypt (static_cast<const IDEA_context *> (c)->ek, out, in);
  return idea_burn;
}

unsigned int
idea_decrypt (void *c, unsigned char *out, const unsigned char *in)
{
  idea_crypt (static_cast<const IDEA_context *> (c)->dk, out, in);
  return idea_burn;
}

const cipher_impl_info idea_impls[] = { { "generic", 0 } };

void
idea_schedule (IDEA_context *ctx, const unsigned char *key)
{
  idea_expand_key (ctx->ek, key);
  idea_invert_key (ctx->dk, ctx->ek);
}

/* KEYLEN must be 16, else GPG_ERR_INV_KEYLEN.  */
gcry_err_code_t
idea_setkey (void *c, const unsigned char *key, size_t keylen,
             cipher_bulk_ops *bulk, const char **impl_name)
{
  (void) bulk;
  if (keylen != 16)
    return GPG_ERR_INV_KEYLEN;
  idea_schedule (static_cast<IDEA_context *> (c), key);
  _gcry_burn_stack (128);
  if (impl_name)
    *impl_name = idea_impls[0].name;
  return GPG_ERR_NO_ERROR;
}

/* Known answers: Lai's thesis test key 0001 0002 ... 0008, plaintext
 * 0000 0001 0002 0003 (also Botan block/idea.vec), and the multiply
 * corner cases (0 standing for 2^16).  */
const char *
idea_selftest (void)
{
  static const unsigned char key[16] = { 0, 1, 0, 2, 0, 3, 0, 4,
                                         0, 5, 0, 6, 0, 7, 0, 8 };
  static const unsigned char pt[8] = { 0, 0, 0, 1, 0, 2, 0, 3 };
  static const unsigned char ct[8] = { 0x11, 0xfb, 0xed, 0x2b,
                                       0x01, 0x98, 0x6d, 0xe5 };
  IDEA_context ctx;
  unsigned char buf[8];
  const char *err = NULL;
  if (idea_mul (0, 0) != 1 || idea_mul (0, 1) != 0 || idea_mul (2, 0) != 0xffff
      || idea_mul (0x8000, 2) != 0 || idea_mul (idea_inv (3), 3) != 1
      || idea_inv (0) != 0 || idea_inv (1) != 1)
    err = "IDEA: multiplication mod 2^16+1 failed";
  idea_schedule (&ctx, key);
  idea_encrypt (&ctx, buf, pt);
  if (!err && memcmp (buf, ct, 8))
    err = "IDEA: encryption known answer failed";
  idea_decrypt (&ctx, buf, ct);
  if (!err && memcmp (buf, pt, 8))
    err = "IDEA: decryption known answer failed";
  wipememory (&ctx, sizeof ctx);
  _gcry_burn_stack (256);
  return err;
}

} // namespace

const cipher_spec _gcry_cipher_spec_idea = {
  GCRY_CIPHER_IDEA, "IDEA", NULL, NULL,
  8, 128, sizeof (IDEA_context),
  idea_setkey, idea_encrypt, idea_decrypt, idea_selftest,
  idea_impls, 1
};
