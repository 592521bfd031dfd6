/* cipher-ccm.cpp - Counter with CBC-MAC (NIST SP 800-38C; block
 * formatting of RFC 3610 2.2 / SP 800-38C A.2), libgcrypt's
 * GCRY_CIPHER_MODE_CCM, 16-byte block ciphers only.
 *
 * The call protocol and every error code follow libgcrypt 1.10 as
 * observed by running it side by side (tests/t-aes-macmodes.cpp compares
 * call for call):
 *
 *   setiv (nonce, 7..13 bytes)     NULL: GPG_ERR_INV_ARG; other length
 *                                  GPG_ERR_INV_LENGTH.  Starts a new
 *                                  message (lengths must be set again).
 *   ctl (GCRYCTL_SET_CCM_LENGTHS, u64[3] = {encryptlen, aadlen, taglen})
 *                                  buffer not 24 bytes: GPG_ERR_INV_ARG;
 *                                  taglen not in {4,6,...,16}:
 *                                  GPG_ERR_INV_LENGTH; no nonce, lengths
 *                                  already set or tag done:
 *                                  GPG_ERR_INV_STATE.  ENCRYPTLEN is not
 *                                  checked against the counter width q
 *                                  (B_0 carries its low q bytes).
 *   authenticate                   exactly AADLEN bytes in any split
 *                                  (more: GPG_ERR_INV_LENGTH).
 *   encrypt / decrypt              after all AAD; exactly ENCRYPTLEN
 *                                  bytes in any split (the directions
 *                                  may even be mixed, as libgcrypt
 *                                  allows).
 *   gettag / checktag              TAGLEN must equal the set tag length
 *                                  (GPG_ERR_INV_LENGTH, checked first);
 *                                  AAD missing GPG_ERR_INV_STATE, data
 *                                  missing GPG_ERR_UNFINISHED; a wrong
 *                                  tag GPG_ERR_CHECKSUM (constant-time
 *                                  comparison).
 *
 * The counter blocks A_i = flags || nonce || [i]_q run through the
 * generic CTR code (cipher-ctr.cpp) on c->ctr, i.e. as one 128-bit
 * big-endian counter exactly like libgcrypt; with a declared ENCRYPTLEN
 * below 2^(8q) bytes the counter never leaves its q bytes.  Whole
 * payload blocks go through the bulk ccm_crypt slot (CBC-MAC and CTR
 * interleaved) when the path has one; otherwise CBC-MAC uses the bulk
 * cbc_enc slot (with cbc_mac) and CTR the ctr16be_enc slot, in L1-sized
 * chunks.
 *
 * Note: gcipher's setkey clears the mode state (cipher.cpp); libgcrypt
 * keeps a CCM message going across a re-key.
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"

namespace {

constexpr size_t CCM_BLOCK = 16;
/* Bytes per CBC-MAC + CTR chunk, so the data is still in L1 for the
 * second pass.  */
constexpr size_t CCM_CHUNK = 4096;

struct ccm_state
{
  alignas (16) unsigned char mac[16];     /* CBC-MAC register.  */
  alignas (16) unsigned char macbuf[16];  /* Pending MAC input.  */
  alignas (16) unsigned char s0[16];      /* E(A_0); then the tag.  */
  alignas (16) unsigned char a0[16];      /* A_0 = flags (q-1) || N || 0. */
  uint64_t encryptlen;                    /* Payload bytes still due.  */
  uint64_t aadlen;                        /* AAD bytes still due.  */
  unsigned int authlen;                   /* Tag length (M), bytes.  */
  unsigned int mac_unused;                /* Bytes in macbuf.  */
  unsigned int nonce : 1;                 /* Nonce set.  */
  unsigned int lengths : 1;               /* SET_CCM_LENGTHS done.  */
};

inline ccm_state *
state_of (gcry_cipher_hd_t c)
{
  return static_cast<ccm_state *> (c->mode_ctx);
}

/* Whole blocks into the CBC-MAC register (SP 800-38C 6.1 step 4).  */
unsigned int
mac_blocks (gcry_cipher_hd_t c, ccm_state *st, const unsigned char *in,
            size_t nblocks)
{
  if (!nblocks)
    return 0;
  if (c->bulk.cbc_enc)
    {
      alignas (16) unsigned char sink[16];
      unsigned int d = c->bulk.cbc_enc (c->ctx, st->mac, sink, in, nblocks, 1);
      wipememory (sink, sizeof sink);
      return d;
    }
  unsigned int depth = 0;
  for (; nblocks; nblocks--, in += CCM_BLOCK)
    {
      cipher_block_xor (st->mac, st->mac, in, CCM_BLOCK);
      depth = umax (depth, c->spec->encrypt (c->ctx, st->mac, st->mac));
    }
  return depth;
}

/* Feed LEN bytes to the CBC-MAC; with PAD, zero-pad a pending partial
 * block and process it (the end of the AAD, or of the payload at tag
 * time, RFC 3610 2.2).  */
unsigned int
mac_update (gcry_cipher_hd_t c, ccm_state *st, const unsigned char *in,
            size_t len, bool pad)
{
  unsigned int depth = 0;
  if (st->mac_unused)
    {
      size_t n = CCM_BLOCK - st->mac_unused;
      n = n < len ? n : len;
      if (n)  /* IN may be NULL when LEN is 0 (ccm_tag).  */
        memcpy (st->macbuf + st->mac_unused, in, n);
      st->mac_unused += (unsigned int) n;
      in += n;
      len -= n;
      if (st->mac_unused == CCM_BLOCK)
        {
          depth = mac_blocks (c, st, st->macbuf, 1);
          st->mac_unused = 0;
        }
    }
  size_t nblocks = len / CCM_BLOCK;
  depth = umax (depth, mac_blocks (c, st, in, nblocks));
  in += nblocks * CCM_BLOCK;
  len -= nblocks * CCM_BLOCK;
  if (len)
    {
      memcpy (st->macbuf, in, len);
      st->mac_unused = (unsigned int) len;
    }
  if (pad && st->mac_unused)
    {
      memset (st->macbuf + st->mac_unused, 0, CCM_BLOCK - st->mac_unused);
      depth = umax (depth, mac_blocks (c, st, st->macbuf, 1));
      st->mac_unused = 0;
    }
  return depth;
}

int
ccm_supported (const cipher_spec *spec)
{
  return spec->blocksize == CCM_BLOCK;
}

size_t
ccm_state_size (const cipher_spec *)
{
  return sizeof (ccm_state);
}

/* Nonce N (RFC 3610 2.3: A_i = flags(q-1) || N || [i]_q).  */
gcry_err_code_t
ccm_setiv (gcry_cipher_hd_t c, const unsigned char *iv, size_t ivlen)
{
  if (!iv)
    return GPG_ERR_INV_ARG;
  if (ivlen < 7 || ivlen > 13)
    return GPG_ERR_INV_LENGTH;
  ccm_state *st = state_of (c);
  wipememory (st, sizeof *st);
  const size_t q = 15 - ivlen;
  /* The nonce lives in A_0 (the mode's state, not the counter, which
   * setctr may overwrite: B_0 and q never come from it).  */
  st->a0[0] = (unsigned char) (q - 1);
  memcpy (st->a0 + 1, iv, ivlen);
  memcpy (c->ctr, st->a0, CCM_BLOCK);
  c->ctr[15] = 1;
  c->unused = 0;
  c->marks.iv = 1;
  c->marks.tag = 0;
  st->nonce = 1;
  return GPG_ERR_NO_ERROR;
}

/* GCRYCTL_SET_CCM_LENGTHS: format B_0 and the AAD length prefix
 * (RFC 3610 2.2; SP 800-38C A.2.1, A.2.2) and start the CBC-MAC; compute
 * S_0 = E(A_0) and move the counter to A_1.  */
gcry_err_code_t
ccm_set_lengths (gcry_cipher_hd_t c, uint64_t encryptlen, uint64_t aadlen,
                 uint64_t taglen)
{
  ccm_state *st = state_of (c);
  if (taglen < 4 || taglen > 16 || (taglen & 1))
    return GPG_ERR_INV_LENGTH;
  if (!st->nonce || st->lengths || c->marks.tag)
    return GPG_ERR_INV_STATE;
  /* B_0 and S_0 need the key (libgcrypt crashes without one).  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;

  const size_t q = (size_t) st->a0[0] + 1;   /* 2..8 (ccm_setiv).  */
  alignas (16) unsigned char b[16];
  b[0] = (unsigned char) ((aadlen ? 0x40 : 0) | (((taglen - 2) / 2) << 3)
                          | (q - 1));
  memcpy (b + 1, st->a0 + 1, 15 - q);
  /* [encryptlen]_q, big-endian (q <= 8).  */
  for (size_t i = 0; i < q; i++)
    b[15 - i] = (unsigned char) (encryptlen >> (8 * i));
  /* The first CBC-MAC block, E (0 xor B_0), through the single-block
   * function: a bulk call costs more for one block.  */
  unsigned int depth = c->spec->encrypt (c->ctx, st->mac, b);

  if (aadlen)
    {
      /* RFC 3610 2.2: 2 bytes below 2^16 - 2^8, else 0xfffe + 4 bytes,
       * else 0xffff + 8 bytes.  */
      unsigned char enc[10];
      size_t n;
      if (aadlen < 0xff00)
        {
          enc[0] = (unsigned char) (aadlen >> 8);
          enc[1] = (unsigned char) aadlen;
          n = 2;
        }
      else if (aadlen <= 0xffffffffu)
        {
          enc[0] = 0xff;
          enc[1] = 0xfe;
          for (int i = 0; i < 4; i++)
            enc[2 + i] = (unsigned char) (aadlen >> (24 - 8 * i));
          n = 6;
        }
      else
        {
          enc[0] = 0xff;
          enc[1] = 0xff;
          for (int i = 0; i < 8; i++)
            enc[2 + i] = (unsigned char) (aadlen >> (56 - 8 * i));
          n = 10;
        }
      depth = umax (depth, mac_update (c, st, enc, n, false));
    }

  /* S_0 = E(A_0), and the counter is A_1 (RFC 3610 2.3), whatever a
   * setctr wrote since setiv (libgcrypt 1.10 gives other results there:
   * a documented difference).  */
  depth = umax (depth, c->spec->encrypt (c->ctx, st->s0, st->a0));
  memcpy (c->ctr, st->a0, CCM_BLOCK);
  c->ctr[15] = 1;
  c->unused = 0;

  st->encryptlen = encryptlen;
  st->aadlen = aadlen;
  st->authlen = (unsigned int) taglen;
  st->lengths = 1;
  wipememory (b, sizeof b);
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
ccm_ctl (gcry_cipher_hd_t c, int cmd, void *buffer, size_t buflen)
{
  if (cmd != GCRYCTL_SET_CCM_LENGTHS)
    return GPG_ERR_INV_CIPHER_MODE;
  if (!buffer || buflen != 3 * sizeof (uint64_t))
    return GPG_ERR_INV_ARG;
  uint64_t params[3];
  memcpy (params, buffer, sizeof params);
  return ccm_set_lengths (c, params[0], params[1], params[2]);
}

gcry_err_code_t
ccm_authenticate (gcry_cipher_hd_t c, const unsigned char *abuf,
                  size_t abuflen)
{
  ccm_state *st = state_of (c);
  /* libgcrypt checks the buffer before the state here.  */
  if (!abuf && abuflen)
    return GPG_ERR_INV_ARG;
  if (!st->nonce || !st->lengths || c->marks.tag)
    return GPG_ERR_INV_STATE;
  if (abuflen > st->aadlen)
    return GPG_ERR_INV_LENGTH;
  /* A key dropped by a failed setkey after SET_CCM_LENGTHS.  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  if (!abuflen)
    return GPG_ERR_NO_ERROR;
  st->aadlen -= abuflen;
  cipher_burn (mac_update (c, st, abuf, abuflen, st->aadlen == 0));
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
ccm_crypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
           const unsigned char *in, size_t inlen, bool encrypt)
{
  ccm_state *st = state_of (c);
  if (outsize < inlen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (!st->nonce || !st->lengths || c->marks.tag || st->aadlen)
    return GPG_ERR_INV_STATE;
  if (inlen > st->encryptlen)
    return GPG_ERR_INV_LENGTH;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;

  st->encryptlen -= inlen;
  unsigned int depth = 0;
  while (inlen)
    {
      /* Whole blocks through the interleaved CBC-MAC + CTR slot when
       * the MAC buffer and the keystream are at a block boundary (they
       * move together: the AAD was padded to one).  */
      if (c->bulk.ccm_crypt && !st->mac_unused && !c->unused
          && inlen >= CCM_BLOCK)
        {
          size_t nblocks = inlen / CCM_BLOCK;
          depth = umax (depth, c->bulk.ccm_crypt (c->ctx, st->mac, c->ctr,
                                                  out, in, nblocks, encrypt));
          in += nblocks * CCM_BLOCK;
          out += nblocks * CCM_BLOCK;
          inlen -= nblocks * CCM_BLOCK;
          continue;
        }
      size_t n = inlen < CCM_CHUNK ? inlen : CCM_CHUNK;
      if (c->bulk.ccm_crypt && st->mac_unused)
        {
          /* Up to the next block boundary, then the bulk slot.  */
          size_t head = CCM_BLOCK - st->mac_unused;
          n = n < head ? n : head;
        }
      gcry_err_code_t rc;
      if (encrypt)
        {
          /* MAC the plaintext before it may be overwritten.  */
          depth = umax (depth, mac_update (c, st, in, n, false));
          rc = _gcry_cipher_ctr_encrypt (c, out, n, in, n);
        }
      else
        {
          rc = _gcry_cipher_ctr_encrypt (c, out, n, in, n);
          depth = umax (depth, mac_update (c, st, out, n, false));
        }
      if (rc)
        return rc;
      in += n;
      out += n;
      inlen -= n;
    }
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
ccm_encrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen)
{
  return ccm_crypt (c, out, outsize, in, inlen, true);
}

gcry_err_code_t
ccm_decrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen)
{
  return ccm_crypt (c, out, outsize, in, inlen, false);
}

/* T = MSB_M (CBC-MAC xor S_0) (RFC 3610 2.3).  */
gcry_err_code_t
ccm_tag (gcry_cipher_hd_t c, unsigned char *tag, size_t taglen, bool check)
{
  ccm_state *st = state_of (c);
  if (!tag || !taglen)
    return GPG_ERR_INV_ARG;
  if (taglen != st->authlen)
    return GPG_ERR_INV_LENGTH;
  if (!st->nonce || !st->lengths || st->aadlen)
    return GPG_ERR_INV_STATE;
  if (st->encryptlen)
    return GPG_ERR_UNFINISHED;
  /* No tag without a key (a failed setkey dropped it).  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  if (!c->marks.tag)
    {
      unsigned int depth = mac_update (c, st, nullptr, 0, true);
      for (size_t i = 0; i < CCM_BLOCK; i += 8)
        {
          uint64_t x, y;
          memcpy (&x, st->s0 + i, 8);
          memcpy (&y, st->mac + i, 8);
          x ^= y;
          memcpy (st->s0 + i, &x, 8);
        }
      wipememory (st->mac, sizeof st->mac);
      wipememory (st->macbuf, sizeof st->macbuf);
      wipememory (c->ctr, sizeof c->ctr);
      wipememory (c->lastiv, sizeof c->lastiv);
      c->unused = 0;
      c->marks.tag = 1;
      cipher_burn (depth);
    }
  if (!check)
    {
      memcpy (tag, st->s0, taglen);
      return GPG_ERR_NO_ERROR;
    }
  unsigned char diff = 0;
  for (size_t i = 0; i < taglen; i++)
    diff |= (unsigned char) (tag[i] ^ st->s0[i]);
  return ct_checksum_error (diff);
}

gcry_err_code_t
ccm_gettag (gcry_cipher_hd_t c, unsigned char *tag, size_t taglen)
{
  return ccm_tag (c, tag, taglen, false);
}

gcry_err_code_t
ccm_checktag (gcry_cipher_hd_t c, const unsigned char *tag, size_t taglen)
{
  return ccm_tag (c, const_cast<unsigned char *> (tag), taglen, true);
}

gcry_err_code_t
ccm_info (gcry_cipher_hd_t c, int what, void *, size_t *nbytes)
{
  if (what != GCRYCTL_GET_TAGLEN)
    return GPG_ERR_INV_CIPHER_MODE;
  *nbytes = state_of (c)->authlen;
  return GPG_ERR_NO_ERROR;
}

} // namespace

extern const cipher_mode_ops _gcry_cipher_mode_ccm = {
  .mode = GCRY_CIPHER_MODE_CCM,
  .keeps = MODE_KEEPS_ON_SETKEY,
  .supported = ccm_supported,
  .state_size = ccm_state_size,
  .setiv = ccm_setiv,
  .encrypt = ccm_encrypt,
  .decrypt = ccm_decrypt,
  .authenticate = ccm_authenticate,
  .gettag = ccm_gettag,
  .checktag = ccm_checktag,
  .ctl = ccm_ctl,
  .info = ccm_info,
};
