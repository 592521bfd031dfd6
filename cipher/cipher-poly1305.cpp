/* cipher-poly1305.cpp - GCRY_CIPHER_MODE_POLY1305: the ChaCha20-Poly1305
 * AEAD (RFC 8439 2.8) with libgcrypt 1.10's API rules.
 *
 * Construction (RFC 8439 2.8): the one-time Poly1305 key is the first 32
 * bytes of the ChaCha20 keystream block at the nonce's starting counter;
 * the payload is ChaCha20 from the next block on; the tag is Poly1305
 * over  AAD || pad16 || ciphertext || pad16 || le64(len AAD) ||
 * le64(len ciphertext).
 *
 * The API rules, as libgcrypt 1.10.1 answers them (tests/t-stream.cpp
 * compares every case with the system library):
 *   - Only ChaCha20 serves this mode; other algorithms fail at open with
 *     GPG_ERR_INV_CIPHER_MODE.
 *   - setiv: NULL with a length other than 12 is GPG_ERR_INV_ARG (nothing
 *     changes).  Otherwise it starts a new message: the IV goes to
 *     ChaCha20's setiv (12 bytes as RFC 8439; 8 and 16 bytes as
 *     chacha20.cpp describes; other lengths or NULL: the zero nonce), the
 *     Poly1305 key is taken (then, or by the first call that needs it:
 *     take_key), counters and tag state are cleared.  No key
 *     needed (a keyless handle works on the all-zero state, as libgcrypt).
 *   - Without setiv, the first authenticate/encrypt/decrypt/gettag uses
 *     the zero nonce.
 *   - authenticate: any number of calls before the first data call;
 *     after data (even 0 bytes) or a tag GPG_ERR_INV_STATE.
 *   - Without a key, setiv, authenticate, gettag and checktag answer
 *     GPG_ERR_MISSING_KEY (after the state and length rules above and
 *     below, whose codes come first); libgcrypt derives the Poly1305 key
 *     from a zero ChaCha20 key there and returns and accepts its tag:
 *     a deliberate difference (doc/gcipher.md 3).
 *   - encrypt/decrypt (the key is checked first, by cipher.cpp): output
 *     shorter than input GPG_ERR_BUFFER_TOO_SHORT, then after a tag
 *     GPG_ERR_INV_STATE.  Any lengths, any split; encrypt and decrypt
 *     calls may even be mixed (the MAC always covers the ciphertext).
 *   - gettag: TAGLEN < 16 GPG_ERR_BUFFER_TOO_SHORT (nothing changes);
 *     otherwise finalises once and copies 16 bytes (TAGLEN > 16 writes
 *     16).  checktag: < 16 GPG_ERR_BUFFER_TOO_SHORT; finalises; a length
 *     other than 16 or a wrong tag GPG_ERR_CHECKSUM (constant-time
 *     compare).  Both may be repeated.
 *   - setkey (success) clears the message state: next use starts with
 *     the zero nonce unless setiv is called.  A failed setkey keeps it.
 *   - GCRYCTL_RESET: like setkey's clearing; GCRYCTL_GET_TAGLEN: 16;
 *     GCRYCTL_SET_TAGLEN: GPG_ERR_INV_CIPHER_MODE.
 *   - Byte counts are 64-bit; a count passing 2^64 - 1 (not reachable
 *     with real buffers) would be GPG_ERR_INV_LENGTH from then on.
 */
#include <config.h>
#include <string.h>

#include "cipher-internal.h"
#include "chacha20-internal.h"
#include "poly1305.h"
#include "bufhelp.h"

namespace {

struct poly1305_mode_state
{
  poly1305_context mac;
  uint64_t aadcount;          /* Bytes of AAD.  */
  uint64_t datacount;         /* Bytes of ciphertext.  */
  bool over_limits;           /* A count passed 2^64 - 1.  */
  bool aad_finalized;         /* AAD padded; data may follow.  */
  /* setiv left the key block to the first call that needs MAC
   * (take_key); MAC still holds the last message's state until then.  */
  bool key_pending;
  /* The last message's first data call had WIDE_MIN bytes or more: the
   * next setiv leaves its key block pending (take_key).  */
  bool expect_long;
};

/* The data length from which a wide key block pays (take_key).  */
constexpr size_t WIDE_MIN = 512;

inline poly1305_mode_state *
state_of (gcry_cipher_hd_t c)
{
  return static_cast<poly1305_mode_state *> (c->mode_ctx);
}

int
poly1305_supported (const cipher_spec *spec)
{
  return spec->algo == GCRY_CIPHER_CHACHA20 && spec->stencrypt
         && spec->stdecrypt && spec->setiv;
}

size_t
poly1305_state_size (const cipher_spec *)
{
  return sizeof (poly1305_mode_state);
}

/* Add N to *CTR; true if it passed 2^64 - 1.  */
inline bool
count_add (uint64_t *ctr, size_t n)
{
  uint64_t v = *ctr + (uint64_t) n;
  bool overflow = v < (uint64_t) n;
  *ctr = v;
  return overflow;
}

void
pad16 (poly1305_mode_state *st, uint64_t count)
{
  static const unsigned char zeros[15] = { 0 };
  if (count % 16)
    _gcry_poly1305_update (&st->mac, zeros, 16 - count % 16);
}

/* The ways to the key block (chacha20-internal.h): the row layout's
 * with three blocks ahead, the wide one with a pass ahead, the scalar
 * one alone.  */
enum key_kind
{
  KEY_ROWS,
  KEY_WIDE,
  KEY_ALONE
};

/* The message's key block the way KIND says, and the MAC keyed with it
 * (RFC 8439 2.6); the block wiped, the stack burned.  */
void
key_from (gcry_cipher_hd_t c, key_kind kind)
{
  CHACHA20_context *cc = static_cast<CHACHA20_context *> (c->ctx);
  unsigned char block[64];
  unsigned int depth;
  if (kind == KEY_WIDE)
    depth = _gcry_chacha20_poly1305_keyblock_wide (cc, block);
  else if (kind == KEY_ALONE)
    depth = _gcry_chacha20_poly1305_keyblock_alone (cc, block);
  else
    depth = _gcry_chacha20_poly1305_keyblock (cc, block);
  _gcry_poly1305_init (&state_of (c)->mac, block);
  wipememory (block, sizeof block);
  /* _gcry_poly1305_init is scalar code.  */
  depth = depth > POLY1305_SCALAR_BURN_DEPTH ? depth
                                              : POLY1305_SCALAR_BURN_DEPTH;
  _gcry_burn_stack (depth + 4 * sizeof (void *));
}

/* RFC 8439 2.6: the Poly1305 key from keystream block "counter".  */
gcry_err_code_t
poly1305_setiv (gcry_cipher_hd_t c, const unsigned char *iv, size_t ivlen)
{
  if (!iv && ivlen != 12)
    return GPG_ERR_INV_ARG;
  /* The Poly1305 key comes from the ChaCha20 keystream: no key, no MAC
   * (libgcrypt computes one from a zero key there).  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  poly1305_mode_state *st = state_of (c);
  /* The counters and flags; key_from (below, or in take_key) sets the
   * MAC state (its vector paths' key powers are filled before their
   * first use, so the last message's stay until then, in the handle's
   * context, which close and setkey wipe).  */
  st->aadcount = st->datacount = 0;
  st->over_limits = st->aad_finalized = false;
  c->marks.tag = 0;
  c->marks.iv = 0;
  c->spec->setiv (c->ctx, iv, ivlen);
  c->marks.iv = 1;
  /* After a long message, on a path with a wide key block, the first
   * call that needs the MAC takes the key, knowing what follows
   * (take_key).  Otherwise now: a short message's data call then finds
   * its first keystream ready, and the latency of the key block overlaps
   * whatever the caller does before that call.  */
  st->key_pending = st->expect_long
                    && _gcry_chacha20_poly1305_wide_blocks (
                        static_cast<CHACHA20_context *> (c->ctx));
  if (!st->key_pending)
    key_from (c, KEY_ROWS);
  return GPG_ERR_NO_ERROR;
}

/* The message's Poly1305 key (RFC 8439 2.6) if setiv left it pending,
 * by the key block function that suits what follows: LEN, the bytes of
 * data the call brings (AAD passes WIDE_MIN after a long message, else
 * 0, as the tag does); ENCRYPT 1 or 0 for a data call, -1 otherwise.
 * Every use of the MAC comes after this.  On AMD Zen 4:
 *   - AVX-512, from WIDE_MIN bytes: the key block beside a sixteen-block
 *     pass kept ahead (about 190 ns, against 95 ns of latency for the
 *     row layout's four blocks, after which 512 bytes still need five
 *     more blocks and 1 KiB thirteen); AAD takes it too when the last
 *     message was long;
 *   - AVX2, encrypting from 1 KiB: beside an eight-block pass, whose 512
 *     bytes the first stitched pass then absorbs as its PRE blocks;
 *   - AVX2, decrypting from WIDE_MIN bytes: the stitched passes start at
 *     the message's first byte (poly1305_crypt gives back any keystream
 *     kept ahead), so the key block alone: one chain of the row layout,
 *     no blocks ahead;
 *   - otherwise the row layout's key block and three blocks ahead.  */
void
take_key (gcry_cipher_hd_t c, size_t len, int encrypt)
{
  poly1305_mode_state *st = state_of (c);
  if (!st->key_pending)
    return;
  st->key_pending = false;
  const size_t wide = _gcry_chacha20_poly1305_wide_blocks (
      static_cast<CHACHA20_context *> (c->ctx));
  key_kind kind = KEY_ROWS;
  if (wide == 16 && len >= WIDE_MIN)
    kind = KEY_WIDE;
  else if (wide == 8 && encrypt == 1 && len >= 1024)
    kind = KEY_WIDE;
  else if (wide == 8 && encrypt == 0 && len >= WIDE_MIN)
    kind = KEY_ALONE;
  key_from (c, kind);
}

inline void
set_zeroiv (gcry_cipher_hd_t c)
{
  static const unsigned char zero[12] = { 0 };
  poly1305_setiv (c, zero, sizeof zero);
}

inline void
aad_finish (poly1305_mode_state *st)
{
  pad16 (st, st->aadcount);
  st->aad_finalized = true;
  st->datacount = 0;
}

gcry_err_code_t
poly1305_setkey (gcry_cipher_hd_t c, const unsigned char *key, size_t keylen)
{
  gcry_err_code_t rc = _gcry_cipher_setkey_algo (c, key, keylen);
  if (rc)
    return rc;  /* The message state stays (MODE_KEEPS_ON_SETKEY).  */
  poly1305_mode_state *st = state_of (c);
  wipememory (st, sizeof *st);
  c->marks.tag = 0;
  c->marks.iv = 0;
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
poly1305_authenticate (gcry_cipher_hd_t c, const unsigned char *abuf,
                       size_t abuflen)
{
  poly1305_mode_state *st = state_of (c);
  if (st->over_limits)
    return GPG_ERR_INV_LENGTH;
  if (st->aad_finalized || c->marks.tag)
    return GPG_ERR_INV_STATE;
  /* A length whose byte count comes within 4 KiB of 2^64 ends the
   * message (libgcrypt's answer, observed; without a key there is no
   * message to end, the code is the same); any
   * other length over PTRDIFF_MAX is refused with the message left as
   * it was (no buffer is that long; libgcrypt crashes).  */
  if ((uint64_t) abuflen > UINT64_MAX - 4096 - (c->marks.iv ? st->aadcount
                                                              : 0))
    {
      if (c->marks.key)
        {
          if (!c->marks.iv)
            set_zeroiv (c);
          st->over_limits = true;
        }
      return GPG_ERR_INV_LENGTH;
    }
  if (abuflen > PTRDIFF_MAX)
    return GPG_ERR_INV_LENGTH;
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  if (!c->marks.iv)
    set_zeroiv (c);
  take_key (c, st->expect_long ? WIDE_MIN : 0, -1);
  if (count_add (&st->aadcount, abuflen))
    {
      st->over_limits = true;
      return GPG_ERR_INV_LENGTH;
    }
  _gcry_poly1305_update (&st->mac, abuf, abuflen);
  _gcry_burn_stack (POLY1305_UPDATE_BURN_DEPTH (abuflen));
  return GPG_ERR_NO_ERROR;
}

/* Data, in pieces so the MAC reads ciphertext before an in-place
 * decryption overwrites it (and stays in cache while it does).  */
gcry_err_code_t
poly1305_crypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
                const unsigned char *in, size_t inlen, bool encrypt)
{
  if (outsize < inlen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (c->marks.tag)
    return GPG_ERR_INV_STATE;
  poly1305_mode_state *st = state_of (c);
  if (st->over_limits)
    return GPG_ERR_INV_LENGTH;
  /* Checks only (a NULL buffer, or a length over PTRDIFF_MAX: no buffer
   * is that long).  libgcrypt answers a length whose byte count comes
   * within 4 KiB of 2^64 with GPG_ERR_INV_LENGTH and ends the message
   * (observed); gcipher does the same.  Any other impossible length is
   * GPG_ERR_INV_LENGTH with the message left as it was (libgcrypt
   * crashes there).  */
  if (cipher_check_only (c))
    {
      const uint64_t base = st->aad_finalized && c->marks.iv
                            ? st->datacount : 0;
      if ((uint64_t) inlen > UINT64_MAX - 4096 - base)
        {
          if (!c->marks.iv)
            set_zeroiv (c);
          take_key (c, 0, -1);
          if (!st->aad_finalized)
            aad_finish (st);
          st->over_limits = true;
          return GPG_ERR_INV_LENGTH;
        }
      return inlen > PTRDIFF_MAX ? GPG_ERR_INV_LENGTH : GPG_ERR_NO_ERROR;
    }
  if (!c->marks.iv)
    set_zeroiv (c);
  take_key (c, inlen, encrypt);
  if (!st->datacount)
    st->expect_long = inlen >= WIDE_MIN;
  if (!st->aad_finalized)
    aad_finish (st);
  if (count_add (&st->datacount, inlen))
    {
      st->over_limits = true;
      return GPG_ERR_INV_LENGTH;
    }
  constexpr size_t CHUNK = 4096;
  /* The scalar Poly1305 code at least (aad_finish above, the powers
   * below); raised to what ran.  */
  unsigned int depth = POLY1305_SCALAR_BURN_DEPTH;
  /* N bytes through ChaCha20 and Poly1305 one after the other.  */
  auto crypt_run = [&] (size_t n) {
    unsigned int d = POLY1305_UPDATE_BURN_DEPTH (n);
    depth = d > depth ? d : depth;
    if (encrypt)
      {
        d = c->spec->stencrypt (c->ctx, out, in, n);
        _gcry_poly1305_update (&st->mac, out, n);
      }
    else
      {
        _gcry_poly1305_update (&st->mac, in, n);
        d = c->spec->stdecrypt (c->ctx, out, in, n);
      }
    depth = d > depth ? d : depth;
    out += n;
    in += n;
    inlen -= n;
  };
#if defined(CHACHA20_USE_AVX2) && defined(POLY1305_RADIX44)
  /* The stitched functions (ChaCha20's vector rounds with the scalar
   * Poly1305 beside them) take the runs of whole passes, with no
   * keystream or MAC block pending; the keystream setiv computed ahead
   * (_gcry_chacha20_poly1305_keyblock) goes first.  AVX2 always (on
   * AMD Zen 4 with AVX-512 off, 0.35 against 0.53 ns/byte for the two
   * vector paths one after the other); AVX-512 only beside the scalar
   * Poly1305 (its own vector path is faster).  */
  CHACHA20_context *cc = static_cast<CHACHA20_context *> (c->ctx);
  /* Decrypting a fresh message of 256 to 511 bytes (longer than the
   * keystream kept ahead, shorter than a pass): its whole Poly1305
   * blocks in the row kernel's loop that makes the blocks after those,
   * then the kept keystream, then the rest.  Every ciphertext byte is
   * read into Poly1305 before its plaintext is written.  */
  typedef unsigned int short_fn (uint32_t *, poly1305_context *,
                                 unsigned char *, const unsigned char *,
                                 size_t, const unsigned char *, size_t);
  short_fn *short_rows = nullptr;
  if (cc->blocks == _gcry_chacha20_avx2_blocks)
    short_rows = _gcry_chacha20_poly1305_avx2_rows;
# ifdef CHACHA20_USE_AVX512
  if (cc->blocks == _gcry_chacha20_avx512_blocks)
    short_rows = _gcry_chacha20_poly1305_avx512_rows;
# endif
  constexpr size_t ahead = CHACHA20_ROWS_AHEAD * CHACHA20_BLOCKSIZE;
  if (short_rows && !encrypt && cc->unused == ahead && !st->mac.leftover
      && inlen >= ahead + CHACHA20_BLOCKSIZE
      && inlen < ahead + 5 * CHACHA20_BLOCKSIZE)
    {
      const size_t nb = (inlen - ahead) / CHACHA20_BLOCKSIZE;
      const size_t mb = inlen / POLY1305_BLOCKSIZE;
      const size_t done = ahead + nb * CHACHA20_BLOCKSIZE;
      unsigned int d = short_rows (cc->input, &st->mac, out + ahead,
                                   in + ahead, nb, in, mb);
      depth = d > depth ? d : depth;
      d = c->spec->stdecrypt (c->ctx, out, in, ahead);
      depth = d > depth ? d : depth;
      _gcry_poly1305_update (&st->mac, in + mb * POLY1305_BLOCKSIZE,
                             inlen - mb * POLY1305_BLOCKSIZE);
      if (inlen > done)
        {
          d = c->spec->stdecrypt (c->ctx, out + done, in + done,
                                  inlen - done);
          depth = d > depth ? d : depth;
        }
      out += inlen;
      in += inlen;
      inlen = 0;
    }
  size_t pass = 0;   /* Blocks per pass of the stitched function.  */
  if (cc->blocks == _gcry_chacha20_avx2_blocks)
    pass = 8;
# ifdef CHACHA20_USE_AVX512
  if (cc->blocks == _gcry_chacha20_avx512_blocks
      && !_gcry_poly1305_uses_simd (&st->mac))
    pass = 16;
# endif
  if (pass)
    {
      /* Decrypting a fresh message of a whole pass or more: the passes
       * start at its first byte, all of its Poly1305 beside the vector
       * rounds and every pass full (with the three blocks setiv kept
       * ahead used first, 1 KiB would be 192 bytes of serial Poly1305,
       * then a pass and a pass of five blocks).  Encryption gains
       * nothing: its first pass has no ciphertext to absorb yet and
       * its last pass's Poly1305 runs after the loop either way.  */
      if (!encrypt && inlen >= pass * CHACHA20_BLOCKSIZE
          && !st->mac.leftover)
        _gcry_chacha20_poly1305_drop_ahead (cc);
      /* Encrypting (AVX2) with whole blocks of keystream kept ahead:
       * their ciphertext goes into the first pass's Poly1305, which
       * encryption leaves empty, instead of a serial run first.  */
      const unsigned char *pre = nullptr;
      size_t pre_blocks = 0;
      if (cc->unused && inlen >= cc->unused + pass * CHACHA20_BLOCKSIZE)
        {
          const size_t n = cc->unused;
          if (encrypt && pass == 8 && !st->mac.leftover
              && n % CHACHA20_BLOCKSIZE == 0 && n <= 8 * CHACHA20_BLOCKSIZE)
            {
              unsigned int d = c->spec->stencrypt (c->ctx, out, in, n);
              depth = d > depth ? d : depth;
              pre = out;
              pre_blocks = n / POLY1305_BLOCKSIZE;
              out += n;
              in += n;
              inlen -= n;
            }
          else
            crypt_run (n);
        }
      if (!cc->unused && !st->mac.leftover
          && inlen >= pass * CHACHA20_BLOCKSIZE)
        {
          /* AVX2: every whole block (its last pass may be partial).  */
          size_t nblocks = pass == 8 ? inlen / CHACHA20_BLOCKSIZE
                                     : inlen / (pass * CHACHA20_BLOCKSIZE)
                                       * pass;
          unsigned int d;
# ifdef CHACHA20_USE_AVX512
          if (pass == 16)
            {
              _gcry_poly1305_powers (&st->mac);   /* Its four-block steps.  */
              d = _gcry_chacha20_poly1305_avx512 (cc->input, &st->mac, out,
                                                  in, nblocks, encrypt);
            }
          else
# endif
            d = _gcry_chacha20_poly1305_avx2 (cc->input, &st->mac, out, in,
                                              nblocks, encrypt, pre,
                                              pre_blocks);
          pre = nullptr;
          depth = d > depth ? d : depth;
          out += nblocks * CHACHA20_BLOCKSIZE;
          in += nblocks * CHACHA20_BLOCKSIZE;
          inlen -= nblocks * CHACHA20_BLOCKSIZE;
        }
      if (pre)   /* Not reached: the pass above takes it.  */
        {
          _gcry_poly1305_update (&st->mac, pre,
                                 pre_blocks * POLY1305_BLOCKSIZE);
          const unsigned int d = POLY1305_UPDATE_BURN_DEPTH (
              pre_blocks * POLY1305_BLOCKSIZE);
          depth = d > depth ? d : depth;
        }
    }
#endif
  while (inlen)
    crypt_run (inlen < CHUNK ? inlen : CHUNK);
  _gcry_burn_stack (depth + 4 * sizeof (void *));
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
poly1305_encrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
                  const unsigned char *in, size_t inlen)
{
  return poly1305_crypt (c, out, outsize, in, inlen, true);
}

gcry_err_code_t
poly1305_decrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
                  const unsigned char *in, size_t inlen)
{
  return poly1305_crypt (c, out, outsize, in, inlen, false);
}

/* Finalise once (the tag lives in c->iv, as libgcrypt keeps it in its
 * IV buffer); common part of gettag and checktag.  */
gcry_err_code_t
poly1305_tag (gcry_cipher_hd_t c, size_t taglen)
{
  if (taglen < POLY1305_TAGLEN)
    return GPG_ERR_BUFFER_TOO_SHORT;
  poly1305_mode_state *st = state_of (c);
  if (st->over_limits)
    return GPG_ERR_INV_LENGTH;
  /* No tag without a key (libgcrypt returns the tag of a zero key and
   * accepts it in checktag).  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  if (!c->marks.iv)
    set_zeroiv (c);
  take_key (c, 0, -1);
  if (!st->aad_finalized)
    aad_finish (st);
  if (!c->marks.tag)
    {
      pad16 (st, st->datacount);
      unsigned char lens[16];
      buf_put_le64 (lens, st->aadcount);
      buf_put_le64 (lens + 8, st->datacount);
      _gcry_poly1305_update (&st->mac, lens, sizeof lens);
      _gcry_poly1305_finish (&st->mac, c->iv);
      c->marks.tag = 1;
      /* At most two blocks (the padding and the lengths): scalar.  */
      _gcry_burn_stack (POLY1305_SCALAR_BURN_DEPTH);
    }
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
poly1305_gettag (gcry_cipher_hd_t c, unsigned char *tag, size_t taglen)
{
  gcry_err_code_t rc = poly1305_tag (c, taglen);
  if (!rc && !cipher_check_only (c))
    memcpy (tag, c->iv, POLY1305_TAGLEN);
  return rc;
}

gcry_err_code_t
poly1305_checktag (gcry_cipher_hd_t c, const unsigned char *tag,
                   size_t taglen)
{
  gcry_err_code_t rc = poly1305_tag (c, taglen);
  /* Without a key a length other than 16 is GPG_ERR_CHECKSUM anyway
   * (libgcrypt's code there, independent of any tag).  */
  if (rc == GPG_ERR_MISSING_KEY && taglen != POLY1305_TAGLEN)
    return GPG_ERR_CHECKSUM;
  if (rc || cipher_check_only (c))
    return rc;
  unsigned int diff = 0;
  for (size_t i = 0; i < POLY1305_TAGLEN; i++)
    diff |= (unsigned int) (tag[i] ^ c->iv[i]);
  diff |= (unsigned int) (taglen != POLY1305_TAGLEN);  /* Public.  */
  return ct_checksum_error (diff);
}

gcry_err_code_t
poly1305_info (gcry_cipher_hd_t, int what, void *, size_t *nbytes)
{
  if (what != GCRYCTL_GET_TAGLEN)
    return GPG_ERR_INV_CIPHER_MODE;
  *nbytes = POLY1305_TAGLEN;
  return GPG_ERR_NO_ERROR;
}

} // namespace

extern const cipher_mode_ops _gcry_cipher_mode_poly1305 = {
  .mode = GCRY_CIPHER_MODE_POLY1305,
  .keeps = MODE_KEEPS_ON_SETKEY,
  .supported = poly1305_supported,
  .state_size = poly1305_state_size,
  .setkey = poly1305_setkey,
  .setiv = poly1305_setiv,
  .encrypt = poly1305_encrypt,
  .decrypt = poly1305_decrypt,
  .authenticate = poly1305_authenticate,
  .gettag = poly1305_gettag,
  .checktag = poly1305_checktag,
  .info = poly1305_info,
};
