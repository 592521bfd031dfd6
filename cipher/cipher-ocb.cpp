/* cipher-ocb.cpp - OCB authenticated encryption (RFC 7253), as
 * libgcrypt's GCRY_CIPHER_MODE_OCB offers it, for 128-bit block ciphers.
 *
 * The math is RFC 7253 4.1-4.3.  The API rules are libgcrypt 1.10's, as
 * observed by running it side by side (tests/t-aes-xts-ocb.cpp holds the
 * differential proof):
 *
 *  - setiv: needs a key (else GPG_ERR_INV_STATE), then a non-NULL nonce
 *    (GPG_ERR_INV_ARG) of 8..15 bytes (GPG_ERR_INV_LENGTH).  It starts a
 *    new message and clears the gcry_cipher_final mark.  The nonce block
 *    carries the tag length current at setiv (RFC 7253 4.2).
 *  - GCRYCTL_SET_TAGLEN: 8, 12 or 16 bytes, any time (else
 *    GPG_ERR_INV_LENGTH); default 16; GCRYCTL_RESET restores 16.
 *  - authenticate: after setiv and before the tag (else
 *    GPG_ERR_INV_STATE); any lengths, any split, also interleaved with
 *    the data calls (the AAD hash is independent of them).
 *  - encrypt/decrypt: after setiv, before the tag and before the last
 *    data call (else GPG_ERR_INV_STATE); then OUTSIZE < INLEN
 *    GPG_ERR_BUFFER_TOO_SHORT; then, unless gcry_cipher_final was called,
 *    INLEN must be a multiple of 16 (GPG_ERR_INV_LENGTH).  The call after
 *    gcry_cipher_final is the last one and may end in a partial block.
 *  - gettag: TAGLEN below the tag length GPG_ERR_BUFFER_TOO_SHORT first,
 *    then GPG_ERR_INV_STATE unless the last data call was made; writes
 *    the tag length's bytes.  checktag: GPG_ERR_INV_STATE in the same
 *    cases, then GPG_ERR_CHECKSUM unless TAGLEN equals the tag length and
 *    the bytes match (constant-time compare).  Both end the message.
 *  - setkey keeps the message state (nonce, offsets, sums, tag length),
 *    as libgcrypt does; only the L table follows the new key.
 *
 * Constant time: offsets come from the public block counter (ntz); the
 * partial-block lengths are public; the tag compare does not exit early.
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"
#include "cipher-ocb.h"

namespace {

constexpr size_t BS = OCB_BLOCK_LEN;
/* Blocks per batch through the ECB bulk slot on the generic path.  */
constexpr size_t BATCH = 16;

inline void
xor16 (unsigned char *dst, const unsigned char *a, const unsigned char *b)
{
#if defined(__x86_64__) || (defined(__riscv) && __riscv_xlen == 64)
  /* Two 64-bit words in registers (a byte loop is a tenth of a small
   * message's time).  */
  uint64_t a0, a1, b0, b1;
  memcpy (&a0, a, 8);
  memcpy (&a1, a + 8, 8);
  memcpy (&b0, b, 8);
  memcpy (&b1, b + 8, 8);
  a0 ^= b0;
  a1 ^= b1;
  memcpy (dst, &a0, 8);
  memcpy (dst + 8, &a1, 8);
#else
  /* Bytes, no local arrays: on i386 the arrays went to the stack with
   * L_$ in them, inside the frame that burns (tests/t-hygiene).  */
  for (size_t i = 0; i < BS; i++)
    dst[i] = (unsigned char) (a[i] ^ b[i]);
#endif
}

inline uint64_t
load_be64 (const unsigned char *p)
{
  uint64_t v;
  memcpy (&v, p, 8);
  return __builtin_bswap64 (v);
}

inline void
store_be64 (unsigned char *p, uint64_t v)
{
  v = __builtin_bswap64 (v);
  memcpy (p, &v, 8);
}

inline unsigned int
taglen_of (const ocb_state *s)
{
  return s->taglen ? s->taglen : 16;
}

/* double(S) of RFC 7253 2: S << 1, xor 0x87 into the last byte when the
 * first bit was set (big-endian bit order); constant time.  */
void
ocb_double (unsigned char *out, const unsigned char *in)
{
  unsigned char carry = (unsigned char) (in[0] >> 7);
  for (size_t i = 0; i < BS - 1; i++)
    out[i] = (unsigned char) ((in[i] << 1) | (in[i + 1] >> 7));
  out[BS - 1] = (unsigned char) ((in[BS - 1] << 1)
                                 ^ (0x87 & (unsigned char) -carry));
}

/* N blocks of BUF in place through the block cipher (forward or
 * inverse): the ECB bulk slot when there is one, else block by block.
 * Returns the burn depth.  */
unsigned int
ecb_blocks (gcry_cipher_hd_t c, unsigned char *buf, size_t n, bool encrypt)
{
  if (c->bulk.ecb_crypt)
    return c->bulk.ecb_crypt (c->ctx, buf, buf, n, encrypt);
  unsigned int depth = 0;
  auto fn = encrypt ? c->spec->encrypt : c->spec->decrypt;
  for (size_t i = 0; i < n; i++)
    depth = umax (depth, fn (c->ctx, buf + i * BS, buf + i * BS));
  return depth;
}

/* RFC 7253 4.1 key-dependent values.  */
unsigned int
ocb_setup_l_table (gcry_cipher_hd_t c)
{
  ocb_state *s = ocb_state_of (c);
  unsigned char zero[BS] = { 0 };
  unsigned int depth = c->spec->encrypt (c->ctx, s->L_star, zero);
  ocb_double (s->L_dollar, s->L_star);
  ocb_double (s->L[0], s->L_dollar);
  for (size_t i = 1; i < OCB_L_TABLE_SIZE; i++)
    ocb_double (s->L[i], s->L[i - 1]);
  return depth;
}

/* Full data blocks, generic: Offset_i = Offset_{i-1} ^ L_ntz(i),
 * C_i = Offset_i ^ E(P_i ^ Offset_i), Checksum ^= P_i (RFC 7253 4.2;
 * 4.3 inverts the cipher and sums the recovered P_i).  IN == OUT ok.  */
unsigned int
ocb_crypt_generic (gcry_cipher_hd_t c, unsigned char *out,
                   const unsigned char *in, size_t nblocks, bool encrypt)
{
  ocb_state *s = ocb_state_of (c);
  alignas (16) unsigned char buf[BATCH * BS];
  alignas (16) unsigned char offs[BATCH * BS];
  unsigned int depth = 0;

  while (nblocks)
    {
      size_t n = nblocks < BATCH ? nblocks : BATCH;
      for (size_t j = 0; j < n; j++)
        {
          uint64_t i = ++s->data_nblocks;
          xor16 (c->iv, c->iv, s->L[ocb_ntz (i)]);
          memcpy (offs + j * BS, c->iv, BS);
          if (encrypt)
            xor16 (c->ctr, c->ctr, in + j * BS);
          xor16 (buf + j * BS, in + j * BS, c->iv);
        }
      depth = umax (depth, ecb_blocks (c, buf, n, encrypt));
      for (size_t j = 0; j < n; j++)
        {
          xor16 (out + j * BS, buf + j * BS, offs + j * BS);
          if (!encrypt)
            xor16 (c->ctr, c->ctr, out + j * BS);
        }
      in += n * BS;
      out += n * BS;
      nblocks -= n;
    }
  wipememory (buf, sizeof buf);
  wipememory (offs, sizeof offs);
  /* ecb_blocks's frames lie below BUF and OFFS.  */
  return depth ? depth + sizeof buf + sizeof offs + 16 * sizeof (void *)
               : 0;
}

/* Full AAD blocks, generic: Sum ^= E(A_i ^ Offset_i) (RFC 7253 4.1).  */
unsigned int
ocb_auth_generic (gcry_cipher_hd_t c, const unsigned char *abuf,
                  size_t nblocks)
{
  ocb_state *s = ocb_state_of (c);
  alignas (16) unsigned char buf[BATCH * BS];
  unsigned int depth = 0;

  while (nblocks)
    {
      size_t n = nblocks < BATCH ? nblocks : BATCH;
      for (size_t j = 0; j < n; j++)
        {
          uint64_t i = ++s->aad_nblocks;
          xor16 (s->aad_offset, s->aad_offset, s->L[ocb_ntz (i)]);
          xor16 (buf + j * BS, abuf + j * BS, s->aad_offset);
        }
      depth = umax (depth, ecb_blocks (c, buf, n, true));
      for (size_t j = 0; j < n; j++)
        xor16 (s->aad_sum, s->aad_sum, buf + j * BS);
      abuf += n * BS;
      nblocks -= n;
    }
  wipememory (buf, sizeof buf);
  /* ecb_blocks's frames lie below BUF.  */
  return depth ? depth + sizeof buf + 16 * sizeof (void *) : 0;
}

/* Whole blocks through the bulk slot (which burns its own stack) with
 * the generic code for what it leaves.  */
unsigned int
ocb_crypt_blocks (gcry_cipher_hd_t c, unsigned char *out,
                  const unsigned char *in, size_t nblocks, bool encrypt)
{
  if (c->bulk.ocb_crypt && nblocks)
    {
      size_t left = c->bulk.ocb_crypt (c, out, in, nblocks, encrypt);
      size_t done = nblocks - left;
      in += done * BS;
      out += done * BS;
      nblocks = left;
    }
  return nblocks ? ocb_crypt_generic (c, out, in, nblocks, encrypt) : 0;
}

unsigned int
ocb_auth_blocks (gcry_cipher_hd_t c, const unsigned char *abuf,
                 size_t nblocks)
{
  if (c->bulk.ocb_auth && nblocks)
    {
      size_t left = c->bulk.ocb_auth (c, abuf, nblocks);
      abuf += (nblocks - left) * BS;
      nblocks = left;
    }
  return nblocks ? ocb_auth_generic (c, abuf, nblocks) : 0;
}

gcry_err_code_t
ocb_crypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
           const unsigned char *in, size_t inlen, bool encrypt)
{
  ocb_state *s = ocb_state_of (c);

  if (!c->marks.iv || c->marks.tag || s->data_finalized)
    return GPG_ERR_INV_STATE;
  if (outsize < inlen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  const bool last = c->marks.finalize;
  if (!last && (inlen % BS))
    return GPG_ERR_INV_LENGTH;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;

  size_t nblocks = inlen / BS;
  unsigned int depth = ocb_crypt_blocks (c, out, in, nblocks, encrypt);
  in += nblocks * BS;
  out += nblocks * BS;
  size_t rest = inlen % BS;

  if (rest)
    {
      /* RFC 7253 4.2: Offset_* = Offset_m ^ L_*, Pad = E(Offset_*),
       * C_* = P_* ^ Pad[1..bitlen(P_*)],
       * Checksum ^= P_* || 1 || 0^(127-bitlen(P_*)).  */
      alignas (16) unsigned char pad[BS];
      alignas (16) unsigned char p[BS];
      xor16 (c->iv, c->iv, s->L_star);
      depth = umax (depth, c->spec->encrypt (c->ctx, pad, c->iv));
      memset (p, 0, BS);
      if (encrypt)
        {
          memcpy (p, in, rest);
          cipher_block_xor (out, in, pad, rest);
        }
      else
        {
          cipher_block_xor (out, in, pad, rest);
          memcpy (p, out, rest);
        }
      p[rest] = 0x80;
      xor16 (c->ctr, c->ctr, p);
      wipememory (pad, sizeof pad);
      wipememory (p, sizeof p);
    }
  if (last)
    {
      /* The data half of the tag, E(Checksum ^ Offset ^ L_$), is made
       * now, with the key of this moment (a later re-key only affects
       * the AAD half), as libgcrypt does.  */
      xor16 (s->tag, c->ctr, c->iv);
      xor16 (s->tag, s->tag, s->L_dollar);
      depth = umax (depth, c->spec->encrypt (c->ctx, s->tag, s->tag));
      s->data_finalized = 1;
    }
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

/* RFC 7253 4.2 tag: E(Checksum ^ Offset ^ L_$) ^ HASH(K, A).  The first
 * half was stored at the last data call; HASH is finished here with the
 * buffered partial AAD block (RFC 7253 4.1).  Stores the 16-byte tag and
 * marks the handle.  */
void
ocb_compute_tag (gcry_cipher_hd_t c)
{
  ocb_state *s = ocb_state_of (c);
  unsigned int depth = 0;

  if (s->aad_nleftover)
    {
      alignas (16) unsigned char x[BS];
      memset (x, 0, BS);
      memcpy (x, s->aad_leftover, s->aad_nleftover);
      x[s->aad_nleftover] = 0x80;
      xor16 (s->aad_offset, s->aad_offset, s->L_star);
      xor16 (x, x, s->aad_offset);
      depth = umax (depth, c->spec->encrypt (c->ctx, x, x));
      xor16 (s->aad_sum, s->aad_sum, x);
      s->aad_nleftover = 0;
      wipememory (x, sizeof x);
    }
  xor16 (s->tag, s->tag, s->aad_sum);
  c->marks.tag = 1;
  cipher_burn (depth);
}

/* ---- Hooks --------------------------------------------------------- */

int
ocb_supported (const cipher_spec *spec)
{
  return spec->blocksize == BS;
}

size_t
ocb_state_size (const cipher_spec *)
{
  return sizeof (ocb_state);
}

gcry_err_code_t
ocb_setkey (gcry_cipher_hd_t c, const unsigned char *key, size_t keylen)
{
  ocb_state *s = ocb_state_of (c);
  s->stretch_valid = 0;
  wipememory (s->stretch, sizeof s->stretch);
  gcry_err_code_t rc = _gcry_cipher_setkey_algo (c, key, keylen);
  if (rc)
    return rc;
  cipher_burn (ocb_setup_l_table (c));
  return GPG_ERR_NO_ERROR;
}

/* RFC 7253 4.2 nonce processing: Nonce = num2str(TAGLEN mod 128, 7) ||
 * 0* || 1 || N; Ktop = E(Nonce with the low 6 bits cleared);
 * Stretch = Ktop || (Ktop[1..64] ^ Ktop[9..72]);
 * Offset_0 = Stretch[1+bottom..128+bottom].  BOTTOM comes from the
 * (public) nonce.  */
gcry_err_code_t
ocb_setiv (gcry_cipher_hd_t c, const unsigned char *iv, size_t ivlen)
{
  if (!c->marks.key)
    return GPG_ERR_INV_STATE;
  if (!iv)
    return GPG_ERR_INV_ARG;
  if (ivlen < 8 || ivlen >= BS)
    return GPG_ERR_INV_LENGTH;

  ocb_state *s = ocb_state_of (c);
  unsigned char nonce[BS];   /* Public.  */
  const unsigned char *stretch = s->stretch;
  unsigned int depth = 0;

  memset (nonce, 0, BS);
  nonce[0] = (unsigned char) (((taglen_of (s) * 8) % 128) << 1);
  memcpy (nonce + BS - ivlen, iv, ivlen);
  nonce[BS - 1 - ivlen] |= 0x01;
  const unsigned int bottom = nonce[BS - 1] & 0x3f;
  nonce[BS - 1] &= 0xc0;
  if (!s->stretch_valid || memcmp (nonce, s->ktop_nonce, BS))
    {
      depth = c->spec->encrypt (c->ctx, s->stretch, nonce);
      for (size_t i = 0; i < 8; i++)
        s->stretch[BS + i] = s->stretch[i] ^ s->stretch[i + 1];
      memcpy (s->ktop_nonce, nonce, BS);
      s->stretch_valid = 1;
    }
  /* Bits BOTTOM .. BOTTOM+127 of the 192-bit big-endian Stretch
   * (BOTTOM < 64; the double shift keeps BOTTOM = 0 defined).  */
  const uint64_t w0 = load_be64 (stretch), w1 = load_be64 (stretch + 8),
                 w2 = load_be64 (stretch + 16);
  store_be64 (c->iv, (w0 << bottom) | ((w1 >> 1) >> (63 - bottom)));
  store_be64 (c->iv + 8, (w1 << bottom) | ((w2 >> 1) >> (63 - bottom)));

  memset (c->ctr, 0, BS);
  memset (s->aad_offset, 0, BS);
  memset (s->aad_sum, 0, BS);
  memset (s->aad_leftover, 0, BS);
  memset (s->tag, 0, BS);
  s->data_nblocks = 0;
  s->aad_nblocks = 0;
  s->aad_nleftover = 0;
  s->data_finalized = 0;
  c->marks.iv = 1;
  c->marks.tag = 0;
  c->marks.finalize = 0;
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

/* After GCRYCTL_RESET cleared the area: the L table again.  */
void
ocb_reset (gcry_cipher_hd_t c)
{
  if (c->marks.key)
    cipher_burn (ocb_setup_l_table (c));
}

gcry_err_code_t
ocb_encrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen)
{
  return ocb_crypt (c, out, outsize, in, inlen, true);
}

gcry_err_code_t
ocb_decrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen)
{
  return ocb_crypt (c, out, outsize, in, inlen, false);
}

gcry_err_code_t
ocb_authenticate (gcry_cipher_hd_t c, const unsigned char *abuf,
                  size_t abuflen)
{
  ocb_state *s = ocb_state_of (c);
  unsigned int depth = 0;

  if (!c->marks.iv || c->marks.tag)
    return GPG_ERR_INV_STATE;
  /* A message whose key a failed setkey dropped (libgcrypt would go on
   * with the stale key).  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  if (!abuflen)
    return GPG_ERR_NO_ERROR;
  /* No buffer is that long (libgcrypt reads on and crashes).  */
  if (abuflen > PTRDIFF_MAX)
    return GPG_ERR_INV_LENGTH;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;

  if (s->aad_nleftover)
    {
      size_t n = BS - s->aad_nleftover;
      n = n < abuflen ? n : abuflen;
      memcpy (s->aad_leftover + s->aad_nleftover, abuf, n);
      s->aad_nleftover += (unsigned int) n;
      abuf += n;
      abuflen -= n;
      if (s->aad_nleftover < BS)
        return GPG_ERR_NO_ERROR;
      depth = ocb_auth_blocks (c, s->aad_leftover, 1);
      s->aad_nleftover = 0;
    }
  size_t nblocks = abuflen / BS;
  depth = umax (depth, ocb_auth_blocks (c, abuf, nblocks));
  abuf += nblocks * BS;
  abuflen -= nblocks * BS;
  if (abuflen)
    {
      memcpy (s->aad_leftover, abuf, abuflen);
      s->aad_nleftover = (unsigned int) abuflen;
    }
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
ocb_gettag (gcry_cipher_hd_t c, unsigned char *tag, size_t taglen)
{
  ocb_state *s = ocb_state_of (c);
  const size_t n = taglen_of (s);

  if (taglen < n)
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (!c->marks.iv || !s->data_finalized)
    return GPG_ERR_INV_STATE;
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;   /* Dropped by a failed setkey.  */
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  if (!c->marks.tag)
    ocb_compute_tag (c);
  memcpy (tag, s->tag, n);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
ocb_checktag (gcry_cipher_hd_t c, const unsigned char *tag, size_t taglen)
{
  ocb_state *s = ocb_state_of (c);
  const size_t n = taglen_of (s);

  if (!c->marks.iv || !s->data_finalized)
    return GPG_ERR_INV_STATE;
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;   /* Dropped by a failed setkey.  */
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  if (!c->marks.tag)
    ocb_compute_tag (c);
  /* The length is public; the bytes are compared without an early
   * exit.  */
  unsigned int diff = taglen != n;
  const size_t m = taglen < n ? taglen : n;
  for (size_t i = 0; i < m; i++)
    diff |= (unsigned int) (tag[i] ^ s->tag[i]);
  return ct_checksum_error (diff);
}

gcry_err_code_t
ocb_ctl (gcry_cipher_hd_t c, int cmd, void *buffer, size_t)
{
  if (cmd != GCRYCTL_SET_TAGLEN)
    return GPG_ERR_INV_CIPHER_MODE;  /* CCM lengths, SIV tag: not OCB.  */
  int v = *static_cast<const int *> (buffer);
  if (v != 8 && v != 12 && v != 16)
    return GPG_ERR_INV_LENGTH;
  ocb_state_of (c)->taglen = (unsigned int) v;
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
ocb_info (gcry_cipher_hd_t c, int what, void *, size_t *nbytes)
{
  if (what != GCRYCTL_GET_TAGLEN)
    return GPG_ERR_INV_CIPHER_MODE;
  *nbytes = taglen_of (ocb_state_of (c));
  return GPG_ERR_NO_ERROR;
}

} // namespace

const cipher_mode_ops _gcry_cipher_mode_ocb = {
  .mode = GCRY_CIPHER_MODE_OCB,
  .keeps = MODE_KEEPS_ON_SETKEY,
  .supported = ocb_supported,
  .state_size = ocb_state_size,
  .setkey = ocb_setkey,
  .setiv = ocb_setiv,
  .reset = ocb_reset,
  .encrypt = ocb_encrypt,
  .decrypt = ocb_decrypt,
  .authenticate = ocb_authenticate,
  .gettag = ocb_gettag,
  .checktag = ocb_checktag,
  .ctl = ocb_ctl,
  .info = ocb_info,
};
