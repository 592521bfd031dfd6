/* cipher-cbc.cpp - Cipher Block Chaining (NIST SP 800-38A 6.2), with
 * ciphertext stealing (GCRY_CIPHER_CBC_CTS) and CBC-MAC
 * (GCRY_CIPHER_CBC_MAC) as libgcrypt offers them.
 *
 * Ciphertext stealing is the "always swap" variant (NIST SP 800-38A
 * Addendum CBC-CS3, the Kerberos form of RFC 3962): whenever a call has
 * more than one block, the last two ciphertext blocks are exchanged and
 * the final one truncated to the length of the last plaintext piece,
 * also when that piece is a whole block.  One block: plain CBC.  Less
 * than a block, or a non-multiple without CTS: GPG_ERR_INV_LENGTH.
 *
 * Whether a handle does CTS is decided by the flags given to open:
 * GCRYCTL_SET_CBC_CTS later only changes the flag word (and so what
 * GCRYCTL_SET_CBC_MAC accepts), not the mode's behaviour.  CBC-MAC in
 * contrast follows the current flag (GCRYCTL_SET_CBC_MAC takes effect),
 * except on a handle opened with CTS, which ignores it.  Observed on
 * libgcrypt 1.10.
 *
 * After a CTS encryption the chaining value is the last full CBC
 * ciphertext block C_n (written at the second-to-last position); after
 * a CTS decryption it is the recovered C_(n-1).  libgcrypt leaves the
 * two directions in these different states; so do we.
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"

namespace {

} // namespace

/* Encrypt INBUFLEN bytes.  OUTBUFLEN must be >= INBUFLEN, or >= one
 * block with CBC_MAC (every block's output lands in the first block of
 * OUTBUF, which ends as the MAC and the IV).  */
gcry_err_code_t
_gcry_cipher_cbc_encrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                          size_t outbuflen, const unsigned char *inbuf,
                          size_t inbuflen)
{
  const size_t bs = c->spec->blocksize;
  const bool cts_handle = (c->open_flags & GCRY_CIPHER_CBC_CTS) != 0;
  const bool is_mac = !cts_handle && (c->flags & GCRY_CIPHER_CBC_MAC) != 0;
  const bool is_cts = cts_handle && inbuflen > bs;
  unsigned int depth = 0;

  if (outbuflen < (is_mac ? bs : inbuflen))
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (!cipher_cbc_length_ok (c, inbuflen))
    return GPG_ERR_INV_LENGTH;

  size_t nblocks = cipher_nblocks (inbuflen, bs);
  if (is_cts && !cipher_tail (inbuflen, bs))
    nblocks--;  /* The last whole block is stolen from, below.  */

  if (nblocks)
    {
      if (c->bulk.cbc_enc && bs == 16)
        {
          depth = c->bulk.cbc_enc (c->ctx, c->iv, outbuf, inbuf, nblocks,
                                   is_mac);
          inbuf += nblocks * bs;
          if (!is_mac)
            outbuf += nblocks * bs;
        }
      else
        for (size_t n = 0; n < nblocks; n++)
          {
            /* C_j = E(P_j xor C_(j-1)); the register holds C_(j-1).  */
            cipher_block_xor (c->iv, c->iv, inbuf, bs);
            depth = umax (depth, c->spec->encrypt (c->ctx, c->iv, c->iv));
            memcpy (outbuf, c->iv, bs);
            inbuf += bs;
            if (!is_mac)
              outbuf += bs;
          }
    }

  if (is_cts)
    {
      /* INBUF: the last piece P_n (R bytes); OUTBUF - BS holds C_(n-1).
       * C_n = E((P_n || 0...) xor C_(n-1)) goes to OUTBUF - BS and the
       * first R bytes of C_(n-1) move to OUTBUF.  INBUF may equal
       * OUTBUF: each input byte is read before its slot is written.  */
      size_t r = cipher_tail (inbuflen, bs);
      r = r ? r : bs;
      unsigned char *prev = outbuf - bs;
      for (size_t i = 0; i < r; i++)
        {
          unsigned char p = inbuf[i];
          outbuf[i] = prev[i];
          c->iv[i] ^= p;
        }
      depth = umax (depth, c->spec->encrypt (c->ctx, c->iv, c->iv));
      memcpy (prev, c->iv, bs);
    }

  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
_gcry_cipher_cbc_decrypt (gcry_cipher_hd_t c, unsigned char *outbuf,
                          size_t outbuflen, const unsigned char *inbuf,
                          size_t inbuflen)
{
  const size_t bs = c->spec->blocksize;
  const bool is_cts = (c->open_flags & GCRY_CIPHER_CBC_CTS) != 0
                      && inbuflen > bs;
  unsigned int depth = 0;

  if (outbuflen < inbuflen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (!cipher_cbc_length_ok (c, inbuflen))
    return GPG_ERR_INV_LENGTH;

  size_t nblocks = cipher_nblocks (inbuflen, bs);
  if (is_cts)
    {
      /* Leave the swapped pair (one full block and the R-byte piece)
       * for the tail code.  */
      nblocks--;
      if (!cipher_tail (inbuflen, bs))
        nblocks--;
    }

  if (nblocks)
    {
      if (c->bulk.cbc_dec && bs == 16)
        {
          depth = c->bulk.cbc_dec (c->ctx, c->iv, outbuf, inbuf, nblocks);
          inbuf += nblocks * bs;
          outbuf += nblocks * bs;
        }
      else
        {
          unsigned char saved[MAX_BLOCKSIZE];
          for (size_t n = 0; n < nblocks; n++, inbuf += bs, outbuf += bs)
            {
              /* P_j = D(C_j) xor C_(j-1); keep C_j before OUTBUF (which
               * may be INBUF) is written.  */
              memcpy (saved, inbuf, bs);
              depth = umax (depth, c->spec->decrypt (c->ctx, outbuf, inbuf));
              cipher_block_xor (outbuf, outbuf, c->iv, bs);
              memcpy (c->iv, saved, bs);
            }
          wipememory (saved, sizeof saved);
        }
    }

  if (is_cts)
    {
      /* INBUF: X = C_n (a whole block), then Y = the first R bytes of
       * C_(n-1).  D(X) = (P_n || 0...) xor C_(n-1), so P_n = D(X) xor Y
       * on R bytes and the missing tail of C_(n-1) is D(X)[R..].  Then
       * P_(n-1) = D(C_(n-1)) xor C_(n-2).  */
      size_t r = cipher_tail (inbuflen, bs);
      r = r ? r : bs;
      unsigned char dx[MAX_BLOCKSIZE], pn[MAX_BLOCKSIZE];

      memcpy (c->lastiv, c->iv, bs);          /* C_(n-2).  */
      memcpy (c->iv, inbuf + bs, r);          /* Y.  */
      depth = umax (depth, c->spec->decrypt (c->ctx, dx, inbuf));
      for (size_t i = 0; i < r; i++)
        pn[i] = dx[i] ^ c->iv[i];
      memcpy (c->iv + r, dx + r, bs - r);     /* iv = C_(n-1).  */
      depth = umax (depth, c->spec->decrypt (c->ctx, outbuf, c->iv));
      cipher_block_xor (outbuf, outbuf, c->lastiv, bs);
      memcpy (outbuf + bs, pn, r);
      wipememory (dx, sizeof dx);
      wipememory (pn, sizeof pn);
    }

  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

namespace {

int
cbc_supported (const cipher_spec *spec)
{
  return cipher_block_spec_ok (spec);
}

/* _gcry_cipher_cbc_encrypt's and _decrypt's checks in their order: the
 * output size (one block for a CBC-MAC encryption, else INLEN), then
 * the length rule (cipher_cbc_length_ok).  */
gcry_err_code_t
cbc_check (gcry_cipher_hd_t c, size_t outsize, size_t inlen, bool encrypt)
{
  const size_t bs = c->spec->blocksize;
  const bool mac = encrypt && !(c->open_flags & GCRY_CIPHER_CBC_CTS)
                   && (c->flags & GCRY_CIPHER_CBC_MAC);
  if (outsize < (mac ? bs : inlen))
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (!cipher_cbc_length_ok (c, inlen))
    return GPG_ERR_INV_LENGTH;
  return GPG_ERR_NO_ERROR;
}

/* CBC-MAC (GCRY_CIPHER_CBC_MAC without CBC_CTS): encryption writes only
 * the last ciphertext block.  */
bool
cbc_writes_one_block (gcry_cipher_hd_t c, bool encrypt)
{
  return encrypt && !(c->open_flags & GCRY_CIPHER_CBC_CTS)
         && (c->flags & GCRY_CIPHER_CBC_MAC);
}

} // namespace

extern const cipher_mode_ops _gcry_cipher_mode_cbc = {
  .mode = GCRY_CIPHER_MODE_CBC,
  .supported = cbc_supported,
  .encrypt = _gcry_cipher_cbc_encrypt,
  .decrypt = _gcry_cipher_cbc_decrypt,
  .check = cbc_check,
  .writes_one_block = cbc_writes_one_block,
};
