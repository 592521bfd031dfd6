/* cipher-siv.cpp - Synthetic Initialization Vector mode (RFC 5297,
 * AES-CMAC-SIV), libgcrypt's GCRY_CIPHER_MODE_SIV, 16-byte block
 * ciphers only.
 *
 * The key is K1 || K2 (32, 48 or 64 bytes for AES; RFC 5297 2.2):
 * K1 keys CMAC for S2V (the handle's own algorithm context), K2 keys the
 * CTR encryption (a second context plus its bulk table in the mode state,
 * set up with _gcry_cipher_setkey_algo_ctx).
 *
 * S2V (RFC 5297 2.4) runs incrementally: D = CMAC (0^128); every
 * authenticate call is one associated-data vector S_i (D = dbl (D) xor
 * CMAC (S_i)); setiv adds the nonce as the last such vector; the
 * plaintext is the final vector (xorend / dbl-and-pad).  V = S2V (...)
 * is the tag; CTR starts at Q = V with bits 31 and 63 (counted from the
 * right) cleared (RFC 5297 2.5, 2.6) and counts as one 128-bit
 * big-endian integer.
 *
 * Behaviour as libgcrypt 1.10 (observed side by side):
 *  - encrypt once per message (a second call, or one after gettag,
 *    GPG_ERR_INV_STATE); a too-short output buffer GPG_ERR_BUFFER_TOO_SHORT
 *    first, without consuming the message.
 *  - decrypt needs GCRYCTL_SET_DECRYPTION_TAG (exactly 16 bytes, else
 *    GPG_ERR_INV_ARG) first, else GPG_ERR_INV_STATE; a wrong tag gives
 *    GPG_ERR_CHECKSUM and a zeroed output.  With a decryption tag set,
 *    encrypt is GPG_ERR_INV_STATE.
 *  - setiv once, after any authenticate calls (later authenticate/setiv
 *    GPG_ERR_INV_STATE); at most 126 strings of associated data per
 *    message, the nonce included (the 127th authenticate, or setiv
 *    after 126, GPG_ERR_INV_STATE).
 *  - gettag before encrypt finishes the message with an empty
 *    plaintext; gettag writes min (TAGLEN, 16) bytes; checktag needs
 *    TAGLEN 16 (else GPG_ERR_CHECKSUM), compared in constant time.
 *  - setkey restarts the message (as libgcrypt's SIV setkey does).
 *  - Without a key (never keyed, or dropped by a failed setkey), setiv,
 *    authenticate, gettag and checktag answer GPG_ERR_MISSING_KEY after
 *    the state rules (a checktag length other than 16 stays
 *    GPG_ERR_CHECKSUM; SET_DECRYPTION_TAG needs no key); libgcrypt
 *    crashes there for AES and for other ciphers MACs with a zero key: a
 *    deliberate difference (doc/gcipher.md 3).
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"
#include "cipher-cmac.h"

namespace {

constexpr size_t SIV_BLOCK = 16;
constexpr unsigned int SIV_MAX_AD = 126;   /* siv_authenticate.  */

struct siv_state
{
  cmac_subkeys sk;
  alignas (16) unsigned char d0[16];       /* CMAC (0^128), per key.  */
  alignas (16) unsigned char d[16];        /* S2V accumulator D.  */
  alignas (16) unsigned char v[16];        /* V (the tag) once final.  */
  alignas (16) unsigned char dec_tag[16];  /* SET_DECRYPTION_TAG.  */
  unsigned int nonce : 1;                  /* setiv done.  */
  unsigned int dec_tag_set : 1;
  unsigned int decrypted : 1;              /* Finished by decrypt.  */
  unsigned int aad_count;                  /* authenticate calls so far.  */
  cipher_bulk_ops bulk2;                   /* K2's bulk functions.  */
  /* K2's algorithm context follows at ctx2_offset ().  */
};

constexpr size_t
ctx2_offset ()
{
  return (sizeof (siv_state) + CONTEXT_ALIGN - 1) & ~(size_t) (CONTEXT_ALIGN - 1);
}

inline siv_state *
state_of (gcry_cipher_hd_t c)
{
  return static_cast<siv_state *> (c->mode_ctx);
}

inline void *
ctx2_of (gcry_cipher_hd_t c)
{
  return static_cast<unsigned char *> (c->mode_ctx) + ctx2_offset ();
}

/* CTR += 1 as a 128-bit big-endian integer; no data-dependent branch
 * (the carry into the high half is an add of 0 or 1).  */
inline void
ctr_increment (unsigned char *ctr)
{
  uint64_t hi, lo;
  memcpy (&hi, ctr, 8);
  memcpy (&lo, ctr + 8, 8);
  hi = __builtin_bswap64 (hi);
  lo = __builtin_bswap64 (lo) + 1;
  hi += (uint64_t) (lo == 0);
  hi = __builtin_bswap64 (hi);
  lo = __builtin_bswap64 (lo);
  memcpy (ctr, &hi, 8);
  memcpy (ctr + 8, &lo, 8);
}

int
siv_supported (const cipher_spec *spec)
{
  return spec->blocksize == SIV_BLOCK;
}

size_t
siv_state_size (const cipher_spec *spec)
{
  return ctx2_offset () + spec->contextsize;
}

/* CMAC_K1 (DATA) in one go.  */
unsigned int
cmac_once (gcry_cipher_hd_t c, const unsigned char *data, size_t len,
           unsigned char *mac)
{
  if (len <= SIV_BLOCK)
    return _gcry_cmac_short (c, &state_of (c)->sk, data, len, mac);
  cmac_state m;
  _gcry_cmac_reset (&m);
  unsigned int depth = _gcry_cmac_write (c, &m, data, len);
  depth = umax (depth, _gcry_cmac_final (c, &m, &state_of (c)->sk, mac));
  wipememory (&m, sizeof m);
  return depth;
}

/* A new message: D = CMAC (<zero>) (RFC 5297 2.4), kept per key in D0
 * by siv_setkey.  */
void
s2v_start (gcry_cipher_hd_t c)
{
  siv_state *st = state_of (c);
  st->nonce = 0;
  st->dec_tag_set = 0;
  st->decrypted = 0;
  st->aad_count = 0;
  wipememory (st->v, sizeof st->v);
  wipememory (st->dec_tag, sizeof st->dec_tag);
  c->marks.iv = 0;
  c->marks.tag = 0;
  memcpy (st->d, st->d0, sizeof st->d);
}

/* D = dbl (D) xor CMAC (S_i).  */
unsigned int
s2v_add (gcry_cipher_hd_t c, const unsigned char *s, size_t len)
{
  siv_state *st = state_of (c);
  alignas (16) unsigned char mac[16];
  unsigned int depth = cmac_once (c, s, len, mac);
  _gcry_cmac_dbl (st->d, st->d);
  cmac_xor (st->d, st->d, mac, SIV_BLOCK);
  wipememory (mac, sizeof mac);
  return depth;
}

/* V = CMAC (S_n xorend D) for |S_n| >= 16, else CMAC (dbl (D) xor
 * pad (S_n)) (RFC 5297 2.4); into V.  */
unsigned int
s2v_final (gcry_cipher_hd_t c, const unsigned char *s, size_t len,
           unsigned char *v)
{
  siv_state *st = state_of (c);
  alignas (16) unsigned char t[16];
  unsigned int depth;
  if (len == SIV_BLOCK)
    {
      cmac_xor (t, s, st->d, SIV_BLOCK);
      depth = cmac_once (c, t, SIV_BLOCK, v);
    }
  else if (len > SIV_BLOCK && len % SIV_BLOCK == 0)
    {
      /* Whole blocks: the leading ones in one bulk call.  */
      cmac_xor (t, s + len - SIV_BLOCK, st->d, SIV_BLOCK);
      depth = _gcry_cmac_blocks_last (c, &st->sk, s, len / SIV_BLOCK - 1, t,
                                      v);
    }
  else if (len > SIV_BLOCK)
    {
      cmac_state m;
      _gcry_cmac_reset (&m);
      depth = _gcry_cmac_write (c, &m, s, len - SIV_BLOCK);
      cmac_xor (t, s + len - SIV_BLOCK, st->d, SIV_BLOCK);
      depth = umax (depth, _gcry_cmac_write (c, &m, t, SIV_BLOCK));
      depth = umax (depth, _gcry_cmac_final (c, &m, &st->sk, v));
      wipememory (&m, sizeof m);
    }
  else
    {
      _gcry_cmac_dbl (t, st->d);
      for (size_t i = 0; i < len; i++)
        t[i] ^= s[i];
      t[len] ^= 0x80;
      depth = cmac_once (c, t, SIV_BLOCK, v);
    }
  wipememory (t, sizeof t);
  return depth;
}

/* CTR_K2 from Q = V & 1^64 0 1^31 0 1^31 (RFC 5297 2.5/2.6).  Like
 * libgcrypt, this runs on the handle's generic CTR state: keystream left
 * unused by the previous message's last partial block (c->unused bytes
 * at the end of c->lastiv) is consumed first, and this message's unused
 * tail is kept there.  */
unsigned int
siv_ctr (gcry_cipher_hd_t c, const unsigned char *v, unsigned char *out,
         const unsigned char *in, size_t len)
{
  siv_state *st = state_of (c);
  void *ctx2 = ctx2_of (c);
  alignas (16) unsigned char ks[16];
  unsigned int depth = 0;
  unsigned char *ctr = c->ctr;
  /* Q = V with bits 31 and 63 cleared (RFC 5297 2.6), one 16-byte store
   * where the target has such vectors (the CTR kernel reads it whole
   * next: block16_t).  V is public: the tag to be output, or the one
   * received.  */
#ifdef CIPHER_BLOCK16_VECTOR
  alignas (16) static const unsigned char clear_31_63[16] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0x7f, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff
  };
  block16_store (ctr, block16_load (v) & block16_load (clear_31_63));
  ct_public (ctr, SIV_BLOCK);
#else
  memcpy (ctr, v, SIV_BLOCK);
  ct_public (ctr, SIV_BLOCK);
  ctr[8] &= 0x7f;
  ctr[12] &= 0x7f;
#endif
  if (c->unused)
    {
      size_t n = len < c->unused ? len : c->unused;
      cmac_xor (out, in, c->lastiv + SIV_BLOCK - c->unused, n);
      c->unused -= n;
      in += n;
      out += n;
      len -= n;
    }
  size_t nblocks = len / SIV_BLOCK;
  if (nblocks)
    {
      /* One block: the single-block function (no wide-kernel set-up).  */
      if (st->bulk2.ctr16be_enc && nblocks > 1)
        depth = st->bulk2.ctr16be_enc (ctx2, ctr, out, in, nblocks);
      else
        for (size_t n = 0; n < nblocks; n++)
          {
            depth = umax (depth, c->spec->encrypt (ctx2, ks, ctr));
            ctr_increment (ctr);
            cmac_xor (out + n * SIV_BLOCK, in + n * SIV_BLOCK, ks,
                              SIV_BLOCK);
          }
      in += nblocks * SIV_BLOCK;
      out += nblocks * SIV_BLOCK;
      len -= nblocks * SIV_BLOCK;
    }
  if (len)
    {
      depth = umax (depth, c->spec->encrypt (ctx2, ks, ctr));
      ctr_increment (ctr);
      cmac_xor (out, in, ks, len);
      c->unused = SIV_BLOCK - len;
      memcpy (c->lastiv + len, ks + len, c->unused);
    }
  wipememory (ks, sizeof ks);
  return depth;
}

gcry_err_code_t
siv_setkey (gcry_cipher_hd_t c, const unsigned char *key, size_t keylen)
{
  /* Two halves; each the algorithm's business (32, 48 or 64 bytes for
   * AES, any even length up to 64 for Serpent), as in libgcrypt.  */
  if (keylen % 2)
    return GPG_ERR_INV_KEYLEN;
  siv_state *st = state_of (c);
  const size_t half = keylen / 2;
  gcry_err_code_t rc = _gcry_cipher_setkey_algo (c, key, half);
  if (rc)
    return rc;
  rc = _gcry_cipher_setkey_algo_ctx (c, ctx2_of (c), key + half, half,
                                     &st->bulk2);
  if (rc)
    return rc;
  unsigned int depth = _gcry_cmac_subkeys (c, &st->sk);
  alignas (16) const unsigned char zero[16] = { 0 };
  depth = umax (depth, cmac_once (c, zero, sizeof zero, st->d0));
  /* s2v_start needs the key mark only conceptually; cipher.cpp sets it
   * when we return success.  */
  s2v_start (c);
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

/* GCRYCTL_RESET keeps the SIV state area (cipher.cpp: the K2 schedule
 * and the subkeys must survive); start a new message here.  */
void
siv_reset (gcry_cipher_hd_t c)
{
  if (c->marks.key)
    s2v_start (c);
}

gcry_err_code_t
siv_setiv (gcry_cipher_hd_t c, const unsigned char *iv, size_t ivlen)
{
  siv_state *st = state_of (c);
  /* After a failed setkey (which restarts gcipher's S2V) libgcrypt
   * still sees the old message's nonce.  */
  if (st->nonce || c->marks.tag || (!c->marks.key && c->marks.iv))
    return GPG_ERR_INV_STATE;
  if (st->aad_count >= SIV_MAX_AD)
    return GPG_ERR_INV_STATE;   /* No room for the nonce (below).  */
  if (!iv && ivlen)
    return GPG_ERR_INV_ARG;
  if (ivlen > PTRDIFF_MAX)
    return GPG_ERR_INV_LENGTH;   /* No buffer is that long.  */
  /* S2V needs K1 (libgcrypt crashes or computes with a zero key).  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  cipher_burn (s2v_add (c, iv, iv ? ivlen : 0));
  st->nonce = 1;
  c->marks.iv = 1;
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
siv_authenticate (gcry_cipher_hd_t c, const unsigned char *abuf,
                  size_t abuflen)
{
  siv_state *st = state_of (c);
  /* After a failed setkey (which restarts gcipher's S2V) libgcrypt
   * still sees the old message's nonce.  */
  if (st->nonce || c->marks.tag || (!c->marks.key && c->marks.iv))
    return GPG_ERR_INV_STATE;
  /* SIV's associated data is a vector of at most 126 strings (RFC 5297
   * 2.6; the nonce is one of them when used): the 127th authenticate
   * call of a message, or a setiv after 126, is GPG_ERR_INV_STATE, as
   * in libgcrypt (the message can still be encrypted).  */
  if (st->aad_count >= SIV_MAX_AD)
    return GPG_ERR_INV_STATE;
  /* libgcrypt: the state, then the buffer (also without a key).  */
  if (!abuf)
    return GPG_ERR_INV_ARG;
  if (abuflen > PTRDIFF_MAX)
    return GPG_ERR_INV_LENGTH;   /* No buffer is that long.  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  cipher_burn (s2v_add (c, abuf, abuflen));
  st->aad_count++;
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
siv_encrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen)
{
  siv_state *st = state_of (c);
  if (outsize < inlen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (c->marks.tag || st->dec_tag_set)
    return GPG_ERR_INV_STATE;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  /* V over the plaintext first (IN may be OUT).  */
  unsigned int depth = s2v_final (c, in, inlen, st->v);
  depth = umax (depth, siv_ctr (c, st->v, out, in, inlen));
  c->marks.tag = 1;
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
siv_decrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen)
{
  siv_state *st = state_of (c);
  if (outsize < inlen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (c->marks.tag || !st->dec_tag_set)
    return GPG_ERR_INV_STATE;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  unsigned int depth = siv_ctr (c, st->dec_tag, out, in, inlen);
  depth = umax (depth, s2v_final (c, out, inlen, st->v));
  c->marks.tag = 1;
  st->decrypted = 1;
  unsigned char diff = 0;
  for (size_t i = 0; i < SIV_BLOCK; i++)
    diff |= (unsigned char) (st->v[i] ^ st->dec_tag[i]);
  cipher_burn (depth);
  ct_wipe_if_nonzero (out, inlen, diff);
  return ct_checksum_error (diff);
}

/* The tag of a message with an empty plaintext, if encrypt did not
 * finish it.  */
void
siv_finalize (gcry_cipher_hd_t c)
{
  if (c->marks.tag)
    return;
  cipher_burn (s2v_final (c, nullptr, 0, state_of (c)->v));
  c->marks.tag = 1;
}

gcry_err_code_t
siv_gettag (gcry_cipher_hd_t c, unsigned char *tag, size_t taglen)
{
  siv_state *st = state_of (c);
  if (st->decrypted || st->dec_tag_set)
    return GPG_ERR_INV_STATE;
  /* No tag without a key (libgcrypt crashes, or for ciphers whose
   * functions exist before setkey gives the tag of a zero key).  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  siv_finalize (c);
  memcpy (tag, st->v, taglen < SIV_BLOCK ? taglen : SIV_BLOCK);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
siv_checktag (gcry_cipher_hd_t c, const unsigned char *tag, size_t taglen)
{
  siv_state *st = state_of (c);
  /* As eax_checktag: a wrong length is GPG_ERR_CHECKSUM anyway.  */
  if (!c->marks.key)
    return taglen != SIV_BLOCK ? GPG_ERR_CHECKSUM : GPG_ERR_MISSING_KEY;
  /* Checks only: as eax_checktag.  */
  if (cipher_check_only (c) && taglen == SIV_BLOCK)
    return GPG_ERR_NO_ERROR;
  siv_finalize (c);
  if (taglen != SIV_BLOCK)
    return GPG_ERR_CHECKSUM;
  unsigned char diff = 0;
  for (size_t i = 0; i < SIV_BLOCK; i++)
    diff |= (unsigned char) (tag[i] ^ st->v[i]);
  return ct_checksum_error (diff);
}

gcry_err_code_t
siv_ctl (gcry_cipher_hd_t c, int cmd, void *buffer, size_t buflen)
{
  if (cmd != GCRYCTL_SET_DECRYPTION_TAG)
    return GPG_ERR_INV_CIPHER_MODE;
  siv_state *st = state_of (c);
  if (buflen != SIV_BLOCK)
    return GPG_ERR_INV_ARG;
  if (c->marks.tag)
    return GPG_ERR_INV_STATE;
  memcpy (st->dec_tag, buffer, SIV_BLOCK);
  st->dec_tag_set = 1;
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
siv_info (gcry_cipher_hd_t, int what, void *, size_t *nbytes)
{
  if (what != GCRYCTL_GET_TAGLEN)
    return GPG_ERR_INV_CIPHER_MODE;
  *nbytes = SIV_BLOCK;
  return GPG_ERR_NO_ERROR;
}

} // namespace

extern const cipher_mode_ops _gcry_cipher_mode_siv = {
  .mode = GCRY_CIPHER_MODE_SIV,
  .keeps = MODE_KEEPS_ON_RESET,
  .supported = siv_supported,
  .state_size = siv_state_size,
  .setkey = siv_setkey,
  .setiv = siv_setiv,
  .reset = siv_reset,
  .encrypt = siv_encrypt,
  .decrypt = siv_decrypt,
  .authenticate = siv_authenticate,
  .gettag = siv_gettag,
  .checktag = siv_checktag,
  .ctl = siv_ctl,
  .info = siv_info,
};
