/* cipher-eax.cpp - EAX mode (Bellare, Rogaway, Wagner, "The EAX Mode of
 * Operation", FSE 2004, figure 3), libgcrypt's GCRY_CIPHER_MODE_EAX,
 * for 16-byte and (as libgcrypt 1.10) 8-byte block ciphers; n below is
 * the block size in bytes (BS).
 *
 *   N = OMAC^0_K (nonce), H = OMAC^1_K (header), C = CTR_K^N (M),
 *   tag = N xor H xor OMAC^2_K (C),
 *
 * where OMAC^t (X) = CMAC (the block [t]_n || X) (NIST SP 800-38B,
 * cipher-cmac.cpp; R_64 = 0x1b for 8-byte blocks), and the counter is
 * the whole n-byte block, big-endian.  The nonce may have any length
 * (setiv; NULL = empty).
 * The header (authenticate) and the data (encrypt/decrypt) may come in
 * any number of calls of any length, interleaved.
 *
 * Behaviour as libgcrypt 1.10 (observed side by side):
 *  - Without setiv, the first authenticate/encrypt/decrypt uses the
 *    empty nonce; gettag/checktag do not start a message (the tag of a
 *    fresh handle is then all zero, as in libgcrypt).
 *  - setiv does not drop the unused keystream of the previous message's
 *    last partial block (the generic CTR state c->unused), as libgcrypt;
 *    GCRYCTL_RESET does.
 *  - After gettag/checktag the message is closed: authenticate,
 *    encrypt, decrypt give GPG_ERR_INV_STATE until setiv or reset.
 *  - gettag writes min (TAGLEN, BS) bytes and accepts any TAGLEN;
 *    checktag compares the first TAGLEN bytes (constant time), so TAGLEN
 *    0 succeeds, TAGLEN > BS is GPG_ERR_CHECKSUM.
 *  - GCRYCTL_GET_TAGLEN: BS (16, or 8 for 8-byte blocks).
 *  - Without a key (never keyed, or dropped by a failed setkey), setiv,
 *    authenticate, gettag and checktag answer GPG_ERR_MISSING_KEY after
 *    the state rule and the AAD pointer check (a checktag length over BS
 *    stays GPG_ERR_CHECKSUM): libgcrypt crashes there for AES and for
 *    other ciphers MACs with a zero key, returning the tag and accepting
 *    it; a deliberate difference (doc/gcipher.md 3).
 *
 * Whole blocks go through the bulk ccm_crypt slot (CTR and the OMAC
 * chain interleaved) when the path has one; otherwise CTR and OMAC run
 * one after the other over L1-sized chunks.
 *
 * Per key (setkey, reset), for t = 0, 1, 2: E_K ([t]_n), the chaining
 * value of OMAC^t after its tweak block (SP 800-38B 6.2 step 6 with
 * M_1 = [t]_n, which is never the last block once data follows), and
 * OMAC^t of the empty string, E_K ([t]_n xor K1) (the tweak block is
 * then the complete last block, step 4).  A message so costs no
 * encryption for its tweak blocks and none for an empty nonce, header
 * or message.  An OMAC started by setiv stays "primed" (its tweak
 * block pending, as if buffered) until its first byte of data: its
 * chaining value is then taken from the current key's table, so a
 * setkey between setiv and the data acts as in libgcrypt, which keeps
 * the tweak block buffered until then.
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"
#include "cipher-cmac.h"

namespace {

/* Largest block size (the arrays' size); the cipher's is BS.  */
constexpr size_t EAX_BLOCK = 16;
/* Bytes per CTR + OMAC chunk (the second pass finds them in L1).  */
constexpr size_t EAX_CHUNK = 4096;

struct eax_state
{
  cmac_subkeys sk;
  cmac_state header;                  /* OMAC^1 running over the header.  */
  cmac_state ciphertext;              /* OMAC^2 running over C.  */
  alignas (16) unsigned char n[16];   /* N; after finalisation the tag. */
  /* Per key, t = 0, 1, 2: E_K ([t]_n) and OMAC^t (empty string).  */
  alignas (16) unsigned char tweak_x[3][16];
  alignas (16) unsigned char omac_empty[3][16];
  /* OMAC^1 / OMAC^2 hold only their tweak block (no data yet).  */
  unsigned int header_primed : 1;
  unsigned int ciphertext_primed : 1;
};

inline eax_state *
state_of (gcry_cipher_hd_t c)
{
  return static_cast<eax_state *> (c->mode_ctx);
}

/* Stack bytes of EAX's own frames between the API call and the
 * cipher's functions (eax_ctr's keystream batch, the OMAC and table
 * helpers), over-estimated.  The depths the cipher returns count from
 * its own frame, which sits below these; without them the deepest part
 * of a kernel's frame stayed unburned (t-hygiene on i686: EAX state
 * bytes 2240 bytes below the caller with Camellia aesni-avx).  */
constexpr unsigned int EAX_OWN_FRAMES = 512 + 512;

inline void
burn (unsigned int depth)
{
  if (depth)
    _gcry_burn_stack (depth + EAX_OWN_FRAMES);
}

/* Stack bytes of eax_tweak_tables' own frame, over-estimated: the burn
 * must also reach the single-block function's frames below it.  */
constexpr unsigned int EAX_TABLES_FRAME = 256;

/* Counter blocks per ecb_crypt call in eax_ctr (the widest kernels').  */
constexpr size_t EAX_CTR_BATCH = 32;

/* The cipher's block size in bytes (16 or 8).  */
inline size_t
eax_bs (gcry_cipher_hd_t c)
{
  return c->spec->blocksize;
}

inline uint64_t
eax_load_be64 (const unsigned char *p)
{
  uint64_t v;
  memcpy (&v, p, 8);
  return __builtin_bswap64 (v);
}

inline void
eax_store_be64 (unsigned char *p, uint64_t v)
{
  v = __builtin_bswap64 (v);
  memcpy (p, &v, 8);
}

/* NB counter blocks CTR, CTR + 1, ... into KS and CTR += NB: the
 * counter is one BS-byte big-endian integer (wrapping at 2^(8 BS)),
 * held in 64-bit words whose carry is added, not branched on (the
 * empty asm keeps the compiler from splitting the loop where the low
 * word wraps): the counter is secret.  */
inline void
eax_ctr_blocks (unsigned char *ctr, unsigned char *ks, size_t nb, size_t bs)
{
  if (bs == 16)
    {
      uint64_t hi = eax_load_be64 (ctr), lo = eax_load_be64 (ctr + 8);
      for (size_t i = 0; i < nb; i++, ks += 16)
        {
          eax_store_be64 (ks, hi);
          eax_store_be64 (ks + 8, lo);
          lo++;
          __asm__ ("" : "+r" (lo));
          hi += lo == 0;
        }
      eax_store_be64 (ctr, hi);
      eax_store_be64 (ctr + 8, lo);
    }
  else
    {
      uint64_t v = eax_load_be64 (ctr);
      for (size_t i = 0; i < nb; i++, ks += 8, v++)
        eax_store_be64 (ks, v);
      eax_store_be64 (ctr, v);
    }
}

/* CTR (SP 800-38A 6.5) over LEN bytes on the generic CTR state (c->ctr,
 * c->unused, c->lastiv, laid out as cipher-ctr.cpp does).  EAX's counter
 * N = OMAC^0 (nonce) is secret, so it does not go to the ctr16be slot,
 * whose kernels branch on where the low counter byte wraps: the counter
 * blocks are built here without a branch and encrypted through
 * ecb_crypt (or block by block).  IN == OUT allowed.  Returns the stack
 * burn depth.  */
unsigned int
eax_ctr (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
         size_t len)
{
  unsigned int depth = 0;
  const size_t bs = eax_bs (c);
  if (c->unused)
    {
      size_t n = len < c->unused ? len : c->unused;
      cmac_xor (out, in, c->lastiv + bs - c->unused, n);
      c->unused -= n;
      in += n;
      out += n;
      len -= n;
    }
  if (!len)
    return 0;
  alignas (16) unsigned char ks[EAX_CTR_BATCH * EAX_BLOCK];
  size_t ks_used = 0;   /* Bytes of KS written (wiped at the end).  */
  while (len)
    {
      size_t nb = (len + bs - 1) / bs;
      nb = nb < EAX_CTR_BATCH ? nb : EAX_CTR_BATCH;
      eax_ctr_blocks (c->ctr, ks, nb, bs);
      ks_used = ks_used > nb * bs ? ks_used : nb * bs;
      if (c->bulk.ecb_crypt && bs == 16 && nb > 1)
        depth = umax (depth, c->bulk.ecb_crypt (c->ctx, ks, ks, nb, 1));
      else
        for (size_t i = 0; i < nb; i++)
          depth = umax (depth, c->spec->encrypt (c->ctx, ks + i * bs,
                                                 ks + i * bs));
      const size_t n = len < nb * bs ? len : nb * bs;
      cmac_xor (out, in, ks, n);
      if (n < nb * bs)
        {
          /* The last block was partial: keep its unused keystream.  */
          const size_t used = n % bs;
          c->unused = bs - used;
          memcpy (c->lastiv + used, ks + (nb - 1) * bs + used, c->unused);
        }
      in += n;
      out += n;
      len -= n;
    }
  wipememory (ks, ks_used);
  return depth;
}

int
eax_supported (const cipher_spec *spec)
{
  return spec->blocksize == 16 || spec->blocksize == 8;
}

size_t
eax_state_size (const cipher_spec *)
{
  return sizeof (eax_state);
}

/* For t = 0, 1, 2: E_K ([t]_n) and OMAC^t of the empty string
 * E_K ([t]_n xor K1) (EAX, figure 3: OMAC^t (M) = CMAC ([t]_n || M)),
 * from the subkeys in st->sk.  Returns the stack burn depth.  */
unsigned int
eax_tweak_tables (gcry_cipher_hd_t c)
{
  eax_state *st = state_of (c);
  const size_t bs = eax_bs (c);
  unsigned int depth = 0;
  alignas (16) unsigned char b[16];
  for (unsigned int t = 0; t < 3; t++)
    {
      memset (b, 0, sizeof b);
      b[bs - 1] = (unsigned char) t;
      depth = umax (depth, c->spec->encrypt (c->ctx, st->tweak_x[t], b));
      cmac_xor (b, b, st->sk.k1, bs);
      depth = umax (depth, c->spec->encrypt (c->ctx, st->omac_empty[t], b));
    }
  wipememory (b, sizeof b);
  /* The block function's frames lie below this one's (and the caller
   * burns from its own): add this frame's size.  */
  return depth + EAX_TABLES_FRAME;
}

/* What depends on the key only: the CMAC subkeys K1, K2 (SP 800-38B
 * 6.1) and the tweak tables above.  Returns the stack burn depth.  */
unsigned int
eax_key_tables (gcry_cipher_hd_t c)
{
  unsigned int depth = _gcry_cmac_subkeys (c, &state_of (c)->sk);
  return umax (depth, eax_tweak_tables (c));
}

/* Drop the key tables (a failed setkey: no key is left).  */
void
eax_wipe_key_tables (eax_state *st)
{
  wipememory (&st->sk, sizeof st->sk);
  wipememory (st->tweak_x, sizeof st->tweak_x);
  wipememory (st->omac_empty, sizeof st->omac_empty);
}

gcry_err_code_t
eax_setkey (gcry_cipher_hd_t c, const unsigned char *key, size_t keylen)
{
  gcry_err_code_t rc = _gcry_cipher_setkey_algo (c, key, keylen);
  if (rc && rc != GPG_ERR_WEAK_KEY)
    {
      eax_wipe_key_tables (state_of (c));
      return rc;
    }
  burn (eax_key_tables (c));
  /* A weak key allowed by GCRYCTL_SET_ALLOW_WEAK_KEY: libgcrypt 1.10's
   * EAX setkey answers with its subkey step's code (success), not
   * GPG_ERR_WEAK_KEY as the other modes do (observed side by side).  */
  if (rc == GPG_ERR_WEAK_KEY && c->marks.allow_weak_key)
    return GPG_ERR_NO_ERROR;
  return rc;
}

/* GCRYCTL_RESET cleared the state; the subkeys derive from the key.  */
void
eax_reset (gcry_cipher_hd_t c)
{
  if (c->marks.key)
    burn (eax_key_tables (c));
}

/* The first data of a primed OMAC^t: its chaining value is E_K ([t]_n)
 * and nothing is pending (SP 800-38B 6.2 step 6 for M_1 = [t]_n).  */
inline void
eax_omac_open (eax_state *st, cmac_state *cm, unsigned int t)
{
  memcpy (cm->x, st->tweak_x[t], sizeof cm->x);
  cm->buflen = 0;
}

/* Start a message: N = OMAC^0 (nonce), the counter = N, and the two
 * OMACs primed with their tweak blocks.  */
gcry_err_code_t
eax_setiv (gcry_cipher_hd_t c, const unsigned char *iv, size_t ivlen)
{
  if (!iv && ivlen)
    {
      /* libgcrypt has dropped the old message's OMACs by then (N and
       * the counter stay): the next data call starts a message with the
       * empty nonce.  */
      _gcry_cmac_reset (&state_of (c)->header);
      _gcry_cmac_reset (&state_of (c)->ciphertext);
      state_of (c)->header_primed = 0;
      state_of (c)->ciphertext_primed = 0;
      c->marks.iv = 0;
      c->marks.tag = 0;
      return GPG_ERR_INV_ARG;
    }
  if (ivlen > PTRDIFF_MAX)
    return GPG_ERR_INV_LENGTH;   /* No buffer is that long.  */
  /* N = OMAC (nonce) needs the key (libgcrypt crashes or, for ciphers
   * whose functions exist before setkey, computes with a zero key).  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  eax_state *st = state_of (c);
  const size_t bs = eax_bs (c);
  unsigned int depth = 0;

  if (iv && ivlen)
    {
      cmac_state nonce_mac;
      eax_omac_open (st, &nonce_mac, 0);
      depth = _gcry_cmac_write (c, &nonce_mac, iv, ivlen);
      depth = umax (depth, _gcry_cmac_final (c, &nonce_mac, &st->sk, st->n));
      wipememory (&nonce_mac, sizeof nonce_mac);
    }
  else
    memcpy (st->n, st->omac_empty[0], bs);
  memcpy (c->ctr, st->n, bs);

  /* OMAC^1 and OMAC^2 hold their tweak blocks (taken from the key
   * tables at their first data or at the tag); what the previous
   * message left in their states is never read again (the tag wiped
   * the pending blocks).  */
  st->header_primed = 1;
  st->ciphertext_primed = 1;
  c->marks.iv = 1;
  c->marks.tag = 0;
  burn (depth);
  return GPG_ERR_NO_ERROR;
}

/* The implicit empty nonce of a message started without setiv.  */
inline void
eax_need_nonce (gcry_cipher_hd_t c)
{
  if (!c->marks.iv)
    eax_setiv (c, nullptr, 0);
}

gcry_err_code_t
eax_authenticate (gcry_cipher_hd_t c, const unsigned char *abuf,
                  size_t abuflen)
{
  if (c->marks.tag)
    return GPG_ERR_INV_STATE;
  /* libgcrypt: the state, then the buffer (also without a key).  */
  if (!abuf)
    {
      if (c->marks.key)
        eax_need_nonce (c);
      return GPG_ERR_INV_ARG;
    }
  if (abuflen > PTRDIFF_MAX)
    return GPG_ERR_INV_LENGTH;   /* No buffer is that long.  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  eax_need_nonce (c);
  if (!abuflen)
    return GPG_ERR_NO_ERROR;
  eax_state *st = state_of (c);
  if (st->header_primed)
    {
      eax_omac_open (st, &st->header, 1);
      st->header_primed = 0;
    }
  burn (_gcry_cmac_write (c, &st->header, abuf, abuflen));
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
eax_crypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
           const unsigned char *in, size_t inlen, bool encrypt)
{
  if (outsize < inlen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (c->marks.tag)
    return GPG_ERR_INV_STATE;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  eax_need_nonce (c);
  eax_state *st = state_of (c);
  unsigned int depth = 0;
  if (inlen && st->ciphertext_primed)
    {
      eax_omac_open (st, &st->ciphertext, 2);
      st->ciphertext_primed = 0;
    }
  while (inlen)
    {
      cmac_state *cm = &st->ciphertext;
      if (c->bulk.ccm_crypt && eax_bs (c) == EAX_BLOCK && !c->unused
          && (cm->buflen == EAX_BLOCK || !cm->buflen)
          && inlen >= 2 * EAX_BLOCK)
        {
          /* Whole blocks: CTR and the OMAC^2 chain interleaved by the
           * CCM slot (which MACs its output when told "decrypt", its
           * input otherwise: the ciphertext either way here).  The last
           * ciphertext block stays pending in the OMAC.  */
          size_t nblocks = inlen / EAX_BLOCK - 1;
          depth = umax (depth, _gcry_cmac_absorb_pending (c, cm));
          depth = umax (depth, c->bulk.ccm_crypt (c->ctx, cm->x, c->ctr, out,
                                                  in, nblocks, !encrypt));
          in += nblocks * EAX_BLOCK;
          out += nblocks * EAX_BLOCK;
          inlen -= nblocks * EAX_BLOCK;
          if (!encrypt)
            memcpy (cm->buf, in, EAX_BLOCK);
          depth = umax (depth, eax_ctr (c, out, in, EAX_BLOCK));
          if (encrypt)
            memcpy (cm->buf, out, EAX_BLOCK);
          cm->buflen = EAX_BLOCK;
          in += EAX_BLOCK;
          out += EAX_BLOCK;
          inlen -= EAX_BLOCK;
          continue;
        }
      size_t n = inlen < EAX_CHUNK ? inlen : EAX_CHUNK;
      if (encrypt)
        {
          depth = umax (depth, eax_ctr (c, out, in, n));
          depth = umax (depth, _gcry_cmac_write (c, &st->ciphertext, out, n));
        }
      else
        {
          depth = umax (depth, _gcry_cmac_write (c, &st->ciphertext, in, n));
          depth = umax (depth, eax_ctr (c, out, in, n));
        }
      in += n;
      out += n;
      inlen -= n;
    }
  burn (depth);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
eax_encrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen)
{
  return eax_crypt (c, out, outsize, in, inlen, true);
}

gcry_err_code_t
eax_decrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen)
{
  return eax_crypt (c, out, outsize, in, inlen, false);
}

/* tag = N xor H xor C' (computed once per message).  */
void
eax_finalize (gcry_cipher_hd_t c)
{
  if (c->marks.tag)
    return;
  /* No implicit nonce here (libgcrypt): with no message started both
   * OMACs are CMAC of the empty string, which cancel, so the tag is N
   * (zero on a fresh or reset handle).  */
  eax_state *st = state_of (c);
  const size_t bs = eax_bs (c);
  alignas (16) unsigned char t[16];
  unsigned int depth = 0;
  /* A primed OMAC saw no data: OMAC^t of the empty string.  */
  if (st->header_primed)
    cmac_xor (st->n, st->n, st->omac_empty[1], bs);
  else
    {
      depth = _gcry_cmac_final (c, &st->header, &st->sk, t);
      cmac_xor (st->n, st->n, t, bs);
    }
  if (st->ciphertext_primed)
    cmac_xor (st->n, st->n, st->omac_empty[2], bs);
  else
    {
      depth = umax (depth, _gcry_cmac_final (c, &st->ciphertext, &st->sk,
                                             t));
      cmac_xor (st->n, st->n, t, bs);
    }
  st->header_primed = 0;
  st->ciphertext_primed = 0;
  wipememory (t, sizeof t);
  c->marks.tag = 1;
  burn (depth);
}

/* gettag and checktag: no tag is produced or verified without a key
 * (libgcrypt crashes there, or for ciphers whose functions exist
 * before setkey returns the tag of a zero key).  */
gcry_err_code_t
eax_gettag (gcry_cipher_hd_t c, unsigned char *tag, size_t taglen)
{
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  eax_finalize (c);
  const size_t bs = eax_bs (c);
  memcpy (tag, state_of (c)->n, taglen < bs ? taglen : bs);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
eax_checktag (gcry_cipher_hd_t c, const unsigned char *tag, size_t taglen)
{
  /* A length the tag cannot have is GPG_ERR_CHECKSUM whatever the key
   * (libgcrypt's code there).  */
  if (!c->marks.key)
    return taglen > eax_bs (c) ? GPG_ERR_CHECKSUM : GPG_ERR_MISSING_KEY;
  /* Checks only: a length over the block size is refused after the tag
   * is computed, without reading the tag; libgcrypt does the same.  */
  if (cipher_check_only (c) && taglen <= eax_bs (c))
    return GPG_ERR_NO_ERROR;
  eax_finalize (c);
  if (taglen > eax_bs (c))
    return GPG_ERR_CHECKSUM;
  const unsigned char *t = state_of (c)->n;
  unsigned char diff = 0;
  for (size_t i = 0; i < taglen; i++)
    diff |= (unsigned char) (tag[i] ^ t[i]);
  return ct_checksum_error (diff);
}

gcry_err_code_t
eax_info (gcry_cipher_hd_t c, int what, void *, size_t *nbytes)
{
  if (what != GCRYCTL_GET_TAGLEN)
    return GPG_ERR_INV_CIPHER_MODE;
  *nbytes = eax_bs (c);
  return GPG_ERR_NO_ERROR;
}

/* GCRYCTL_SET_SBOX under a key (GOST 28147): libgcrypt keeps K1, K2
 * from setkey but encrypts the tweak blocks [t]_n, buffered until their
 * OMAC gets data or is finished, with the S-box of that moment.  So K1,
 * K2 stay and the tweak tables are re-derived with the new block
 * function; a nonce OMAC already finished by setiv keeps its value, as
 * does an OMAC already past its tweak block.  */
void
eax_block_changed (gcry_cipher_hd_t c)
{
  burn (eax_tweak_tables (c));
}

gcry_err_code_t
eax_ctl (gcry_cipher_hd_t, int, void *, size_t)
{
  return GPG_ERR_INV_CIPHER_MODE;
}

} // namespace

extern const cipher_mode_ops _gcry_cipher_mode_eax = {
  .mode = GCRY_CIPHER_MODE_EAX,
  .keeps = MODE_KEEPS_ON_SETKEY,
  .supported = eax_supported,
  .state_size = eax_state_size,
  .setkey = eax_setkey,
  .setiv = eax_setiv,
  .reset = eax_reset,
  .encrypt = eax_encrypt,
  .decrypt = eax_decrypt,
  .authenticate = eax_authenticate,
  .gettag = eax_gettag,
  .checktag = eax_checktag,
  .ctl = eax_ctl,
  .info = eax_info,
  .block_changed = eax_block_changed,
};
