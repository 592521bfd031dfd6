/* cipher-xts.cpp - XTS (IEEE 1619-2018, NIST SP 800-38E) as libgcrypt's
 * GCRY_CIPHER_MODE_XTS offers it, for 128-bit block ciphers.
 *
 * Key: twice an algorithm key, Key1 || Key2 (IEEE 1619-2018 5.1): Key1
 * (c->ctx) encrypts the data, Key2 (a second algorithm context in the
 * handle's mode_ctx area) encrypts the tweak.  An odd length, or halves
 * the algorithm refuses, give its error (GPG_ERR_INV_KEYLEN).  libgcrypt
 * refuses equal halves (GPG_ERR_WEAK_KEY) only in FIPS mode, which
 * gcipher does not have; so equal halves are accepted, as in libgcrypt's
 * normal mode.
 *
 * Tweak: the IV (c->iv, set by the generic setiv: zero-padded or
 * truncated to 16 bytes) is the 128-bit data unit sequence number i,
 * little-endian as IEEE 1619-2018 5.1 writes it.  Each successful
 * encrypt/decrypt call is one data unit: T = E_Key2(i), then i += 1
 * (mod 2^128), as libgcrypt does; a failing call leaves i alone.  setctr
 * has no effect on XTS; GCRYCTL_RESET sets i to 0 and keeps both keys.
 *
 * Lengths (per call): fewer than 16 bytes or OUTSIZE < INLEN
 * GPG_ERR_BUFFER_TOO_SHORT, more than 2^20 blocks GPG_ERR_INV_LENGTH
 * (IEEE 1619-2018 5.1's limit on a data unit); a partial last block is
 * handled by ciphertext stealing (IEEE 1619-2018 5.3.2 / 5.4.2).
 *
 * Per block j (IEEE 1619-2018 5.3.1): T_j = T * alpha^j in GF(2^128)
 * (x^128 + x^7 + x^2 + x + 1, little-endian bytes), C_j = E_Key1(P_j ^
 * T_j) ^ T_j.  Whole blocks go to the cipher's xts_crypt bulk slot when
 * it has one, else through its ECB slot / single-block functions.
 */
#include <config.h>

#include <string.h>

#include <bit>

#include "g10lib.h"
#include "cipher-internal.h"

namespace {

constexpr size_t BS = 16;
/* Blocks per batch on the generic path.  */
constexpr size_t BATCH = 16;
/* IEEE 1619-2018 5.1: at most 2^20 blocks per data unit.  */
constexpr size_t XTS_MAX_BLOCKS = (size_t) 1 << 20;

/* Wipe a 16-byte local (a tweak): inline stores the compiler may not
 * drop (the asm makes them observable), instead of a library call.  */
inline void
wipe16 (unsigned char *p)
{
  memset (p, 0, BS);
  asm volatile ("" : : "r" (p) : "memory");
}

/* T *= alpha (IEEE 1619-2018 5.2): shift the little-endian 128-bit value
 * left by one, folding the carry back as 0x87; constant time.  */
inline void
xts_mul_alpha (unsigned char *t)
{
  uint64_t lo, hi;
  memcpy (&lo, t, 8);
  memcpy (&hi, t + 8, 8);
  if constexpr (std::endian::native == std::endian::big)
    {
      lo = __builtin_bswap64 (lo);
      hi = __builtin_bswap64 (hi);
    }
  uint64_t carry = hi >> 63;
  hi = (hi << 1) | (lo >> 63);
  lo = (lo << 1) ^ (0x87 & (0 - carry));
  if constexpr (std::endian::native == std::endian::big)
    {
      lo = __builtin_bswap64 (lo);
      hi = __builtin_bswap64 (hi);
    }
  memcpy (t, &lo, 8);
  memcpy (t + 8, &hi, 8);
}

/* i += 1 (mod 2^128) over 16 little-endian bytes; the data unit
 * number is public.  */
inline void
xts_next_unit (unsigned char *iv)
{
  uint64_t lo, hi;
  memcpy (&lo, iv, 8);
  memcpy (&hi, iv + 8, 8);
  if constexpr (std::endian::native == std::endian::big)
    {
      lo = __builtin_bswap64 (lo);
      hi = __builtin_bswap64 (hi);
    }
  lo++;
  hi += (lo == 0);
  if constexpr (std::endian::native == std::endian::big)
    {
      lo = __builtin_bswap64 (lo);
      hi = __builtin_bswap64 (hi);
    }
  memcpy (iv, &lo, 8);
  memcpy (iv + 8, &hi, 8);
}

/* NBLOCKS whole blocks with the running tweak T (updated to T_nblocks):
 * the bulk slot, else batches of (xor, ECB, xor).  IN == OUT ok.  */
__attribute__ ((noinline)) unsigned int
xts_blocks_generic (gcry_cipher_hd_t c, unsigned char *t, unsigned char *out,
                    const unsigned char *in, size_t nblocks, bool encrypt)
{
  alignas (16) unsigned char buf[BATCH * BS];
  alignas (16) unsigned char tw[BATCH * BS];
  unsigned int depth = 0;
  auto fn = encrypt ? c->spec->encrypt : c->spec->decrypt;
  while (nblocks)
    {
      size_t n = nblocks < BATCH ? nblocks : BATCH;
      for (size_t j = 0; j < n; j++)
        {
          memcpy (tw + j * BS, t, BS);
          cipher_block_xor (buf + j * BS, in + j * BS, t, BS);
          xts_mul_alpha (t);
        }
      if (c->bulk.ecb_crypt)
        depth = umax (depth, c->bulk.ecb_crypt (c->ctx, buf, buf, n,
                                                encrypt));
      else
        for (size_t j = 0; j < n; j++)
          depth = umax (depth, fn (c->ctx, buf + j * BS, buf + j * BS));
      for (size_t j = 0; j < n; j++)
        cipher_block_xor (out + j * BS, buf + j * BS, tw + j * BS, BS);
      in += n * BS;
      out += n * BS;
      nblocks -= n;
    }
  wipememory (buf, sizeof buf);
  wipememory (tw, sizeof tw);
  /* The callees' frames lie below this one's (BUF and TW): add it.  */
  return depth ? depth + sizeof buf + sizeof tw + 128 : 0;
}

inline unsigned int
xts_blocks (gcry_cipher_hd_t c, unsigned char *t, unsigned char *out,
            const unsigned char *in, size_t nblocks, bool encrypt)
{
  if (!nblocks)
    return 0;
  if (c->bulk.xts_crypt)
    return c->bulk.xts_crypt (c->ctx, t, out, in, nblocks, encrypt);
  return xts_blocks_generic (c, t, out, in, nblocks, encrypt);
}

/* One block with tweak T (T unchanged).  */
unsigned int
xts_one (gcry_cipher_hd_t c, const unsigned char *t, unsigned char *out,
         const unsigned char *in, bool encrypt)
{
  alignas (16) unsigned char tt[BS];
  memcpy (tt, t, BS);
  unsigned int depth = xts_blocks (c, tt, out, in, 1, encrypt);
  wipe16 (tt);
  return depth;
}

/* A data unit that ends in a partial block (ciphertext stealing), with
 * the encrypted tweak T.  */
__attribute__ ((noinline)) unsigned int
xts_crypt_cts (gcry_cipher_hd_t c, unsigned char *t, unsigned char *out,
               const unsigned char *in, size_t inlen, bool encrypt)
{
  unsigned int depth = 0;
  size_t nblocks = inlen / BS;
  const size_t rest = inlen % BS;

  if (encrypt)
    {
      /* IEEE 1619-2018 5.3.2: CC = block m-1 as usual (it sits at the
       * second-to-last position for now), C_m = CC[0..b),
       * C_{m-1} = enc (P_m || CC[b..16), T_m).  */
      alignas (16) unsigned char pp[BS];
      depth = umax (depth, xts_blocks (c, t, out, in, nblocks, true));
      unsigned char *cc = out + (nblocks - 1) * BS;
      memcpy (pp, in + nblocks * BS, rest);       /* Read P_m first.  */
      memcpy (pp + rest, cc + rest, BS - rest);
      memcpy (out + nblocks * BS, cc, rest);
      depth = umax (depth, xts_one (c, t, cc, pp, true));
      wipememory (pp, sizeof pp);
    }
  else
    {
      /* IEEE 1619-2018 5.4.2: PP = dec (C_{m-1}, T_m), P_m = PP[0..b),
       * P_{m-1} = dec (C_m || PP[b..16), T_{m-1}).  */
      alignas (16) unsigned char pp[BS], cc[BS], t1[BS];
      depth = umax (depth, xts_blocks (c, t, out, in, nblocks - 1, false));
      memcpy (t1, t, BS);                         /* T_{m-1} */
      xts_mul_alpha (t);                          /* T_m */
      const unsigned char *cm1 = in + (nblocks - 1) * BS;
      depth = umax (depth, xts_one (c, t, pp, cm1, false));
      memcpy (cc, in + nblocks * BS, rest);       /* Read C_m first.  */
      memcpy (cc + rest, pp + rest, BS - rest);
      memcpy (out + nblocks * BS, pp, rest);
      depth = umax (depth, xts_one (c, t1, out + (nblocks - 1) * BS, cc,
                                    false));
      wipememory (pp, sizeof pp);
      wipememory (cc, sizeof cc);
      wipememory (t1, sizeof t1);
    }
  /* The callees' frames lie below this one's: add it.  */
  return depth ? depth + 256 : 0;
}

gcry_err_code_t
xts_crypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
           const unsigned char *in, size_t inlen, bool encrypt)
{
  if (inlen < BS || outsize < inlen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (inlen > XTS_MAX_BLOCKS * BS)
    return GPG_ERR_INV_LENGTH;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;

  alignas (16) unsigned char t[BS];
  unsigned int depth = c->spec->encrypt (c->mode_ctx, t, c->iv);
  if (__builtin_expect (!(inlen % BS), 1))
    depth = umax (depth, xts_blocks (c, t, out, in, inlen / BS, encrypt));
  else
    depth = umax (depth, xts_crypt_cts (c, t, out, in, inlen, encrypt));
  wipe16 (t);
  xts_next_unit (c->iv);
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

/* ---- Hooks --------------------------------------------------------- */

int
xts_supported (const cipher_spec *spec)
{
  return spec->blocksize == BS;
}

/* The tweak key's algorithm context.  */
size_t
xts_state_size (const cipher_spec *spec)
{
  return spec->contextsize;
}

gcry_err_code_t
xts_setkey (gcry_cipher_hd_t c, const unsigned char *key, size_t keylen)
{
  if (keylen % 2)
    return GPG_ERR_INV_KEYLEN;
  const size_t half = keylen / 2;
  gcry_err_code_t rc = _gcry_cipher_setkey_algo (c, key, half);
  if (rc)
    return rc;
  cipher_bulk_ops scratch;
  memset (&scratch, 0, sizeof scratch);
  rc = _gcry_cipher_setkey_algo_ctx (c, c->mode_ctx, key + half, half,
                                     &scratch);
  memset (&scratch, 0, sizeof scratch);
  return rc;
}

gcry_err_code_t
xts_encrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen)
{
  return xts_crypt (c, out, outsize, in, inlen, true);
}

gcry_err_code_t
xts_decrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen)
{
  return xts_crypt (c, out, outsize, in, inlen, false);
}

/* IEEE 1619-2018 5.1: the key is Key1 || Key2 of equal length; libgcrypt
 * refuses an odd length before it touches the handle.  */
gcry_err_code_t
xts_keylen_check (size_t keylen)
{
  return keylen % 2 ? GPG_ERR_INV_KEYLEN : GPG_ERR_NO_ERROR;
}

} // namespace

const cipher_mode_ops _gcry_cipher_mode_xts = {
  .mode = GCRY_CIPHER_MODE_XTS,
  .keeps = MODE_KEEPS_ON_RESET,
  .supported = xts_supported,
  .state_size = xts_state_size,
  .setkey = xts_setkey,
  .encrypt = xts_encrypt,
  .decrypt = xts_decrypt,
  .keylen_check = xts_keylen_check,
};
