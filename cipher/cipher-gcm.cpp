/* cipher-gcm.cpp - Galois/Counter Mode (NIST SP 800-38D) for 16-byte
 * block ciphers.
 *
 * Message flow (SP 800-38D 7.1, 7.2), byte-granular across calls:
 *
 *   setiv:        J0 = IV || 0^31 || 1 for a 96-bit IV, else
 *                 J0 = GHASH_H (IV || 0^(s+64) || [len(IV)]_64);
 *                 tagiv = CIPH_K (J0); the counter starts at inc32 (J0).
 *   authenticate: AAD into GHASH, any split, only before any text.
 *   encrypt/decrypt: GCTR with inc32 (the low 32 bits wrap by
 *                 themselves, SP 800-38D 6.2), ciphertext into GHASH.
 *   gettag/checktag: pad, GHASH ([len(A)]_64 || [len(C)]_64), xor tagiv.
 *
 * State rules follow libgcrypt 1.10 as observed on the system library:
 *
 *   - No IV set when the first AAD or text arrives: a zero IV of 16 bytes
 *     is set implicitly.  gettag/checktag alone do not set one.
 *   - AAD after text, or anything after the tag: GPG_ERR_INV_STATE; a
 *     handle without key: GPG_ERR_INV_STATE (text calls: the API layer's
 *     GPG_ERR_MISSING_KEY).
 *   - Limits (SP 800-38D 5.2.1.1): text at most 2^36 - 32 bytes, AAD and
 *     IV at most 2^61 - 1 bytes.  Going over gives GPG_ERR_INV_LENGTH and
 *     the message is dead (every later call GPG_ERR_INV_LENGTH) until
 *     setiv or reset.  (libgcrypt 1.10 over-counts calls of 4 GiB or more
 *     by 4 GiB; gcipher counts exactly, so only such calls differ.)
 *   - Tag lengths (SP 800-38D 5.2.1.2): 4, 8, 12..16 bytes; gettag also
 *     takes more than 16 (writes 16); checktag with more than 16:
 *     GPG_ERR_CHECKSUM; others GPG_ERR_INV_LENGTH.  A wrong tag:
 *     GPG_ERR_CHECKSUM (constant-time comparison).
 *   - setiv with length 0: GPG_ERR_INV_LENGTH, the message state is
 *     cleared (the next text call sets the zero IV).  CIPH_K(J0) is
 *     used up by the tag: a tag computed after such a failed setiv is
 *     GHASH ^ 0, as in libgcrypt.
 *   - A new setiv starts a clean GHASH.  (libgcrypt 1.10 keeps a pending
 *     partial block of AAD or text of an unfinished message and hashes
 *     it into the next message's J0 or tag; gcipher does not copy that
 *     bug: its tags are SP 800-38D's.)
 *   - The counter lives in c->ctr and the unused keystream in c->lastiv /
 *     c->unused, as in libgcrypt, so gcry_cipher_setctr moves the counter.
 *   - setkey replaces H (and its powers) but keeps the message state, as
 *     libgcrypt does (cipher.cpp: mode_state_survives_setkey); a failed
 *     setkey leaves the old H in place (wiped on close).  Set an IV after
 *     a new key.
 *   - setiv without a (valid) key: GPG_ERR_MISSING_KEY (libgcrypt
 *     crashes on a never-keyed handle and uses the stale key schedule
 *     after a failed setkey; gcipher has wiped that schedule).
 *
 * GHASH back ends: see cipher-gcm.h (the generic one is
 * cipher-gcm-generic.cpp).
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#if defined(__i386__)
/* This file has SSE2 functions (GCM_TWO_BUILDS): GCC notes that the
 * header's 16-byte vector helpers, unused here, would return in memory
 * in the others.  Nothing passes a vector between the two builds.  */
# pragma GCC diagnostic push
# pragma GCC diagnostic ignored "-Wpsabi"
#endif
#include "cipher-internal.h"
#if defined(__i386__)
# pragma GCC diagnostic pop
#endif
#include "cipher-gcm.h"
#if defined(__i386__)
# include <emmintrin.h>
#endif

namespace {

constexpr size_t GCM_BLOCK_LEN = 16;
/* SP 800-38D 5.2.1.1: len(P) <= 2^39 - 256 bits; len(A), len(IV) <=
 * 2^64 - 1 bits.  In bytes.  */
constexpr uint64_t GCM_MAX_DATA = (UINT64_C (1) << 36) - 32;
constexpr uint64_t GCM_MAX_AAD = (UINT64_C (1) << 61) - 1;
/* Bytes per CTR pass before the GHASH pass over them (stays in L1).  */
constexpr size_t GCM_CHUNK = 4096;

/* Wipe a small buffer inline (the compiler may not drop the stores:
 * the barrier makes the zeroed memory observable).  */
inline void
wipe_small (void *p, size_t n)
{
  memset (p, 0, n);
  asm volatile ("" : : "r" (p) : "memory");
}

inline uint32_t
get_be32 (const unsigned char *p)
{
  return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16)
         | ((uint32_t) p[2] << 8) | p[3];
}

inline void
put_be32 (unsigned char *p, uint32_t v)
{
  p[0] = (unsigned char) (v >> 24);
  p[1] = (unsigned char) (v >> 16);
  p[2] = (unsigned char) (v >> 8);
  p[3] = (unsigned char) v;
}

inline void
put_be64 (unsigned char *p, uint64_t v)
{
  put_be32 (p, (uint32_t) (v >> 32));
  put_be32 (p + 4, (uint32_t) v);
}

/* A 16-byte block as one value (GCC vector extension, no ISA header:
 * SSE2 on x86-64, pairs of scalars elsewhere).  A block that the next
 * step reads with one 16-byte load is written with one 16-byte store:
 * a load covering several smaller pending stores cannot be forwarded
 * from the store queue and waits for them to reach the cache (about
 * 15 cycles on Zen 4, on the J0 -> CIPH_K (J0) and tag chains).  */
typedef uint32_t gcm_u32x4 __attribute__ ((vector_size (16)));
typedef uint64_t gcm_u64x2 __attribute__ ((vector_size (16)));

/* The 32-bit word whose bytes in memory are V big-endian.  */
inline uint32_t
be32_word (uint32_t v)
{
  unsigned char b[4];
  uint32_t w;
  put_be32 (b, v);
  memcpy (&w, b, 4);
  return w;
}

/* ---- Two builds of the per-message steps (i386) -------------------- */

/* i686's baseline has no 16-byte register: there a gcm_u32x4 or
 * gcm_u64x2 is written as four 32-bit stores, and the tag xor is a byte
 * loop whose bytes gettag reads back as 32-bit words.  The back ends
 * then read those blocks with one 16-byte load (or a word load over
 * byte stores), which the store queue cannot forward: setiv's J0, the
 * zeroed GHASH value, the length block and the tag each waited for the
 * cache (a 64-byte message's tag took 34 ns against master's 24 on AMD
 * Zen 4).  So the steps that build such blocks (gcm_clear_message,
 * gcm_start, gcm_finish) are written once, as templates always inlined
 * into their callers, and on i386 compiled a second time for SSE2; the
 * SSE2 build runs when the GHASH back end is not the generic one (all
 * the others need PCLMULQDQ, so SSE2).  V16: 16-byte vector registers
 * (that build, or a target whose baseline has them).  */
#define GCM_BODY inline __attribute__ ((always_inline))
#if defined(__i386__)
# define GCM_TWO_BUILDS 1
# define GCM_SSE2 __attribute__ ((target ("sse2")))
#endif
#ifdef CIPHER_BLOCK16_VECTOR
constexpr bool GCM_BASE_V16 = true;
#else
constexpr bool GCM_BASE_V16 = false;
#endif

#ifdef GCM_TWO_BUILDS
/* J0 = IV || 0^31 || 1 and inc32 (J0) for a 12-byte IV, one 16-byte
 * store each.  GCC's i386 SSE2 code for the gcm_u32x4 of the other
 * builds inserts the words through the stack (a 16-byte load over
 * 4-byte stores again).  */
GCM_SSE2 void
j0_96_sse2 (unsigned char *j0, unsigned char *ctr, const unsigned char *iv)
{
  uint32_t w2;
  memcpy (&w2, iv + 8, 4);
  const __m128i w01 = _mm_loadl_epi64 ((const __m128i *) iv);
  const __m128i v2 = _mm_cvtsi32_si128 ((int) w2);
  const __m128i t0 = _mm_unpacklo_epi32 (
      v2, _mm_cvtsi32_si128 ((int) be32_word (1)));
  const __m128i t1 = _mm_unpacklo_epi32 (
      v2, _mm_cvtsi32_si128 ((int) be32_word (2)));
  _mm_storeu_si128 ((__m128i *) j0, _mm_unpacklo_epi64 (w01, t0));
  _mm_storeu_si128 ((__m128i *) ctr, _mm_unpacklo_epi64 (w01, t1));
}
#endif

/* TAG = Y ^ TAGIV, 16 bytes, one 16-byte store when V16.  */
template <bool V16>
GCM_BODY void
tag_xor (unsigned char *tag, const unsigned char *y,
         const unsigned char *tagiv)
{
  if constexpr (V16)
    {
      gcm_u64x2 a, b;
      memcpy (&a, y, sizeof a);
      memcpy (&b, tagiv, sizeof b);
      a ^= b;
      memcpy (tag, &a, sizeof a);
    }
  else
    cipher_block_xor (tag, y, tagiv, GCM_BLOCK_LEN);
}

/* ---- Mode helpers --------------------------------------------------- */

inline gcm_state *
state_of (gcry_cipher_hd_t c)
{
  return static_cast<gcm_state *> (c->mode_ctx);
}

/* H = CIPH_K (0^128) (SP 800-38D 7.1 step 1) and the back end's key.
 * Needs the algorithm key.  */
void
gcm_derive_hash_key (gcry_cipher_hd_t c)
{
  gcm_state *st = state_of (c);
  unsigned char h[GCM_BLOCK_LEN] = { 0 };
  /* The new back end may fill less of the area than the old one did.  */
  wipememory (&st->key, sizeof st->key);
  unsigned int depth = c->spec->encrypt (c->ctx, h, h);
  const cipher_impl<const gcm_ghash_ops *> &impl = _gcry_gcm_ghash_table[
      cipher_impl_choose (_gcry_gcm_ghash_table, _gcry_get_hw_features ())];
  depth = umax (depth, impl.ops->setkey (&st->key, h));
  st->ghash = impl.ops;
  st->ghash_name = impl.name;
  wipe_small (h, sizeof h);
  cipher_burn (depth);
}

/* GHASH over LEN bytes continuing the byte stream in macbuf.  */
unsigned int
ghash_buf (gcm_state *st, const unsigned char *buf, size_t len)
{
  unsigned int depth = 0;
  if (st->mac_unused)
    {
      size_t n = GCM_BLOCK_LEN - st->mac_unused;
      n = n < len ? n : len;
      memcpy (st->macbuf + st->mac_unused, buf, n);
      st->mac_unused += (unsigned int) n;
      buf += n;
      len -= n;
      if (st->mac_unused < GCM_BLOCK_LEN)
        return 0;
      depth = st->ghash->ghash (&st->key, st->y, st->macbuf, 1);
      st->mac_unused = 0;
    }
  size_t nblocks = len / GCM_BLOCK_LEN;
  if (nblocks)
    depth = umax (depth, st->ghash->ghash (&st->key, st->y, buf, nblocks));
  buf += nblocks * GCM_BLOCK_LEN;
  len -= nblocks * GCM_BLOCK_LEN;
  if (len)
    {
      memcpy (st->macbuf, buf, len);
      st->mac_unused = (unsigned int) len;
    }
  return depth;
}

/* Zero-pad a pending partial block into GHASH (end of AAD or text).  */
unsigned int
ghash_pad (gcm_state *st)
{
  if (!st->mac_unused)
    return 0;
  memset (st->macbuf + st->mac_unused, 0, GCM_BLOCK_LEN - st->mac_unused);
  st->mac_unused = 0;
  unsigned int depth = st->ghash->ghash (&st->key, st->y, st->macbuf, 1);
  wipe_small (st->macbuf, sizeof st->macbuf);
  return depth;
}

/* Counter blocks per ecb_crypt call in gctr_secret (the widest AES
 * kernels' batch).  */
constexpr size_t GCTR_SECRET_BATCH = 32;

/* GCTR (SP 800-38D 6.5) over NBLOCKS whole blocks (16 bytes each) when
 * the counter is secret: an IV other than 96 bits makes J0 = GHASH_H (IV
 * || ...) (7.1 step 2), a function of H = CIPH_K (0^128), and knowing J0
 * would give H away.  The ctr16be_enc and stitched gcm_crypt kernels
 * branch on where the low counter byte wraps (right for a public
 * counter), so here the counter blocks are built without a branch, inc32
 * (6.2: the low 32 bits mod 2^32), and encrypted through ecb_crypt (or
 * block by block).  IN == OUT allowed; c->ctr advances by NBLOCKS.
 * Returns the stack burn depth.  */
unsigned int
gctr_secret (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
             size_t nblocks)
{
  alignas (16) unsigned char ks[GCTR_SECRET_BATCH * GCM_BLOCK_LEN];
  unsigned int depth = 0;
  uint32_t low = get_be32 (c->ctr + 12);
  while (nblocks)
    {
      const size_t nb = nblocks < GCTR_SECRET_BATCH ? nblocks
                                                    : GCTR_SECRET_BATCH;
      for (size_t i = 0; i < nb; i++)
        {
          memcpy (ks + i * GCM_BLOCK_LEN, c->ctr, 12);
          put_be32 (ks + i * GCM_BLOCK_LEN + 12, low);
          low++;
          /* Opaque to the compiler: otherwise it may count the loop
           * with the secret counter itself (a compare on it).  */
          __asm__ ("" : "+r" (low));
        }
      if (c->bulk.ecb_crypt)
        depth = umax (depth, c->bulk.ecb_crypt (c->ctx, ks, ks, nb, 1));
      else
        for (size_t i = 0; i < nb; i++)
          depth = umax (depth, c->spec->encrypt (c->ctx,
                                                 ks + i * GCM_BLOCK_LEN,
                                                 ks + i * GCM_BLOCK_LEN));
      cipher_block_xor (out, in, ks, nb * GCM_BLOCK_LEN);
      in += nb * GCM_BLOCK_LEN;
      out += nb * GCM_BLOCK_LEN;
      nblocks -= nb;
    }
  put_be32 (c->ctr + 12, low);
  wipememory (ks, sizeof ks);
  /* The callees' frames lie below KS.  */
  return depth ? depth + sizeof ks + 16 * sizeof (void *) : 0;
}

/* GCTR (SP 800-38D 6.5) over LEN bytes with c->ctr as the next counter
 * block, inc32 between blocks; the unused keystream tail carries over in
 * c->lastiv / c->unused.  Whole-block runs go to the cipher's bulk
 * ctr16be_enc slot, split where the low 32 bits wrap (the bulk slot
 * increments all 128 bits; the upper 96 are restored after each run).  */
unsigned int
gctr (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
      size_t len)
{
  unsigned int depth = 0;
  unsigned char ks[GCM_BLOCK_LEN];

  if (c->unused)
    {
      size_t n = len < c->unused ? len : c->unused;
      cipher_block_xor (out, in, c->lastiv + GCM_BLOCK_LEN - c->unused, n);
      c->unused -= n;
      in += n;
      out += n;
      len -= n;
    }

  size_t nblocks = len / GCM_BLOCK_LEN;
  if (nblocks && state_of (c)->ctr_secret)
    {
      depth = gctr_secret (c, out, in, nblocks);
      in += nblocks * GCM_BLOCK_LEN;
      out += nblocks * GCM_BLOCK_LEN;
      len -= nblocks * GCM_BLOCK_LEN;
      nblocks = 0;
    }
  while (nblocks)
    {
      /* Blocks until the low 32 bits wrap (the counter is public: a
       * 96-bit IV).  */
      uint64_t room = (UINT64_C (1) << 32) - get_be32 (c->ctr + 12);
      size_t n = (uint64_t) nblocks < room ? nblocks : (size_t) room;
      if (c->bulk.ctr16be_enc)
        {
          unsigned char upper[12];
          memcpy (upper, c->ctr, 12);
          depth = umax (depth, c->bulk.ctr16be_enc (c->ctx, c->ctr, out, in,
                                                    n));
          memcpy (c->ctr, upper, 12);
        }
      else
        for (size_t i = 0; i < n; i++)
          {
            depth = umax (depth, c->spec->encrypt (c->ctx, ks, c->ctr));
            put_be32 (c->ctr + 12, get_be32 (c->ctr + 12) + 1);
            cipher_block_xor (out + i * GCM_BLOCK_LEN, in + i * GCM_BLOCK_LEN,
                              ks, GCM_BLOCK_LEN);
          }
      in += n * GCM_BLOCK_LEN;
      out += n * GCM_BLOCK_LEN;
      len -= n * GCM_BLOCK_LEN;
      nblocks -= n;
    }

  if (len)
    {
      depth = umax (depth, c->spec->encrypt (c->ctx, ks, c->ctr));
      put_be32 (c->ctr + 12, get_be32 (c->ctr + 12) + 1);
      cipher_block_xor (out, in, ks, len);
      c->unused = GCM_BLOCK_LEN - len;
      memcpy (c->lastiv + len, ks + len, c->unused);
    }
  wipe_small (ks, sizeof ks);
  return depth;
}

/* SP 800-38D 7.1 steps 2-3 for IVLEN bytes at IV (IVLEN > 0, within the
 * limit, key set): J0 into c->ctr, tagiv = CIPH_K (J0), counter to
 * inc32 (J0).  Returns the stack burn depth.  gcm_start below.  */
template <bool V16>
GCM_BODY unsigned int
start_body (gcry_cipher_hd_t c, const unsigned char *iv, size_t ivlen)
{
  gcm_state *st = state_of (c);
  unsigned int depth = 0;
  unsigned char j0[GCM_BLOCK_LEN];

  if (ivlen == 12)
    {
      /* J0 = IV || 0^31 || 1 and inc32 (J0) = IV || 0^30 || 10, each
       * with one 16-byte store (see gcm_u32x4).  */
#ifdef GCM_TWO_BUILDS
      if constexpr (V16)
        j0_96_sse2 (j0, c->ctr, iv);
      else
#endif
        {
          uint32_t w[3];
          memcpy (w, iv, 12);
          const gcm_u32x4 v0 = { w[0], w[1], w[2], be32_word (1) };
          const gcm_u32x4 v1 = { w[0], w[1], w[2], be32_word (2) };
          memcpy (j0, &v0, GCM_BLOCK_LEN);
          memcpy (c->ctr, &v1, GCM_BLOCK_LEN);
        }
      depth = c->spec->encrypt (c->ctx, st->tagiv, j0);
      c->unused = 0;
      c->marks.iv = 1;
      st->ctr_secret = 0;
      wipe_small (j0, sizeof j0);
      return depth;
    }
  else
    {
      /* J0 = GHASH_H (IV || 0^(s+64) || [len(IV)]_64).  */
      unsigned char blk[GCM_BLOCK_LEN];
      size_t full = ivlen / GCM_BLOCK_LEN, rest = ivlen % GCM_BLOCK_LEN;
      memset (j0, 0, sizeof j0);
      depth = st->ghash->ghash (&st->key, j0, iv, full);
      if (rest)
        {
          memset (blk, 0, sizeof blk);
          memcpy (blk, iv + full * GCM_BLOCK_LEN, rest);
          depth = umax (depth, st->ghash->ghash (&st->key, j0, blk, 1));
        }
      memset (blk, 0, 8);
      put_be64 (blk + 8, (uint64_t) ivlen * 8);
      depth = umax (depth, st->ghash->ghash (&st->key, j0, blk, 1));
      wipe_small (blk, sizeof blk);
    }
  memcpy (c->ctr, j0, GCM_BLOCK_LEN);
  st->ctr_secret = 1;   /* See gctr_secret.  */
  depth = umax (depth, c->spec->encrypt (c->ctx, st->tagiv, j0));
  put_be32 (c->ctr + 12, get_be32 (c->ctr + 12) + 1);
  c->unused = 0;
  c->marks.iv = 1;
  wipe_small (j0, sizeof j0);
  return depth;
}

/* Clear the per-message state (not the hash key, not tagiv).
 * gcm_clear_message below.  */
template <bool>
GCM_BODY void
clear_message_body (gcry_cipher_hd_t c)
{
  gcm_state *st = state_of (c);
  c->marks.iv = 0;
  c->marks.tag = 0;
  memset (st->y, 0, sizeof st->y);
  wipe_small (st->macbuf, sizeof st->macbuf);
  st->mac_unused = 0;
  st->aadlen = 0;
  st->datalen = 0;
  st->aad_finalized = 0;
  st->data_finalized = 0;
  st->over_limits = 0;
}

/* Whether the SSE2 build of the steps above and of finish_body runs
 * (see GCM_TWO_BUILDS).  */
inline bool
gcm_use_sse2 (gcry_cipher_hd_t c)
{
  const gcm_ghash_ops *g = state_of (c)->ghash;
  return g && g != &_gcry_ghash_ops_generic;
}

#ifdef GCM_TWO_BUILDS
GCM_SSE2 void
gcm_clear_message_sse2 (gcry_cipher_hd_t c)
{
  clear_message_body<true> (c);
}

GCM_SSE2 unsigned int
gcm_start_sse2 (gcry_cipher_hd_t c, const unsigned char *iv, size_t ivlen)
{
  return start_body<true> (c, iv, ivlen);
}
#endif

void
gcm_clear_message (gcry_cipher_hd_t c)
{
#ifdef GCM_TWO_BUILDS
  if (gcm_use_sse2 (c))
    return gcm_clear_message_sse2 (c);
#endif
  clear_message_body<GCM_BASE_V16> (c);
}

unsigned int
gcm_start (gcry_cipher_hd_t c, const unsigned char *iv, size_t ivlen)
{
#ifdef GCM_TWO_BUILDS
  if (gcm_use_sse2 (c))
    return gcm_start_sse2 (c, iv, ivlen);
#endif
  return start_body<GCM_BASE_V16> (c, iv, ivlen);
}

/* The implicit zero IV (16 zero bytes) of a message started without
 * setiv.  */
unsigned int
gcm_setiv_zero (gcry_cipher_hd_t c)
{
  static const unsigned char zero[GCM_BLOCK_LEN] = { 0 };
  gcm_clear_message (c);
  return gcm_start (c, zero, sizeof zero);
}

/* ---- Hooks ---------------------------------------------------------- */

int
gcm_supported (const cipher_spec *spec)
{
  return spec->blocksize == GCM_BLOCK_LEN;
}

size_t
gcm_state_size (const cipher_spec *)
{
  return sizeof (gcm_state);
}

gcry_err_code_t
gcm_setkey (gcry_cipher_hd_t c, const unsigned char *key, size_t keylen)
{
  gcry_err_code_t rc = _gcry_cipher_setkey_algo (c, key, keylen);
  if (rc && !(rc == GPG_ERR_WEAK_KEY && c->marks.allow_weak_key))
    return rc;
  gcm_derive_hash_key (c);
  return rc;
}

void
gcm_reset (gcry_cipher_hd_t c)
{
  if (c->marks.key)
    gcm_derive_hash_key (c);
}

gcry_err_code_t
gcm_setiv (gcry_cipher_hd_t c, const unsigned char *iv, size_t ivlen)
{
  /* Refused before the message is touched: a NULL IV (libgcrypt
   * crashes) and a length no buffer can have.  */
  if (ivlen && !iv)
    return GPG_ERR_INV_ARG;
  /* Without a key libgcrypt refuses any IV but a 12-byte one before
   * looking at its length (below).  */
  if (ivlen > PTRDIFF_MAX && (!state_of (c)->ghash || !c->marks.key))
    return GPG_ERR_INV_STATE;
  if (ivlen > PTRDIFF_MAX)
    return GPG_ERR_INV_LENGTH;
  gcm_state *st = state_of (c);
  gcm_clear_message (c);
  if (ivlen == 0)
    return GPG_ERR_INV_LENGTH;
  if ((uint64_t) ivlen > GCM_MAX_AAD)
    {
      st->over_limits = 1;
      return GPG_ERR_INV_LENGTH;
    }
  /* No key: libgcrypt answers GPG_ERR_INV_STATE for an IV it must
   * GHASH (any length but 12) and crashes on a 12-byte one, where
   * gcipher answers GPG_ERR_MISSING_KEY; the same after a failed re-key
   * (libgcrypt would use the old key schedule, which gcipher has
   * wiped).  */
  if (!st->ghash || !c->marks.key)
    return ivlen == 12 ? GPG_ERR_MISSING_KEY : GPG_ERR_INV_STATE;
  if (!iv)
    return GPG_ERR_INV_ARG;
  cipher_burn (gcm_start (c, iv, ivlen));
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
gcm_authenticate (gcry_cipher_hd_t c, const unsigned char *abuf,
                  size_t abuflen)
{
  gcm_state *st = state_of (c);
  unsigned int depth = 0;
  if (st->over_limits)
    return GPG_ERR_INV_LENGTH;
  if (c->marks.tag || st->aad_finalized || st->data_finalized || !st->ghash)
    return GPG_ERR_INV_STATE;
  if (!c->marks.iv && !c->marks.key)
    return GPG_ERR_MISSING_KEY;  /* After a failed re-key.  */
  /* Checks only: as in gcm_crypt.  */
  if (cipher_check_only (c)
      && (uint64_t) abuflen <= GCM_MAX_AAD - (c->marks.iv ? st->aadlen : 0))
    return GPG_ERR_NO_ERROR;
  if (!c->marks.iv)
    {
      if (!c->marks.key)
        return GPG_ERR_MISSING_KEY;  /* After a failed re-key.  */
      depth = gcm_setiv_zero (c);
    }
  if ((uint64_t) abuflen > GCM_MAX_AAD - st->aadlen)
    {
      st->over_limits = 1;
      cipher_burn (depth);
      return GPG_ERR_INV_LENGTH;
    }
  st->aadlen += abuflen;
  if (abuflen)
    depth = umax (depth, ghash_buf (st, abuf, abuflen));
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
gcm_crypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
           const unsigned char *in, size_t inlen, bool encrypt)
{
  gcm_state *st = state_of (c);
  unsigned int depth = 0;

  if (outsize < inlen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (st->over_limits)
    return GPG_ERR_INV_LENGTH;
  if (c->marks.tag || st->data_finalized || !st->ghash)
    return GPG_ERR_INV_STATE;
  /* Checks only: the length rule below as it will apply (the implicit
   * zero IV starts the count at 0).  A length over the limit takes the
   * real path, which ends the message as libgcrypt does when it answers
   * such a call.  */
  if (cipher_check_only (c)
      && (uint64_t) inlen <= GCM_MAX_DATA - (c->marks.iv ? st->datalen : 0))
    return GPG_ERR_NO_ERROR;
  if (!c->marks.iv)
    depth = gcm_setiv_zero (c);
  if (!st->aad_finalized)
    {
      /* The first text closes the AAD (SP 800-38D 7.1 step 5).  */
      depth = umax (depth, ghash_pad (st));
      st->aad_finalized = 1;
    }
  if ((uint64_t) inlen > GCM_MAX_DATA - st->datalen)
    {
      st->over_limits = 1;
      cipher_burn (depth);
      return GPG_ERR_INV_LENGTH;
    }
  st->datalen += inlen;

  while (inlen)
    {
      /* The cipher's stitched CTR + GHASH, when it has one and both
       * streams are at a block boundary.  */
      if (c->bulk.gcm_crypt && !c->unused && !st->mac_unused
          && !st->ctr_secret && inlen >= GCM_BLOCK_LEN)
        {
          size_t nblocks = inlen / GCM_BLOCK_LEN;
          size_t left = c->bulk.gcm_crypt (c, out, in, nblocks, encrypt);
          size_t done = (nblocks - left) * GCM_BLOCK_LEN;
          in += done;
          out += done;
          inlen -= done;
          if (!inlen)
            break;
        }
      size_t n = inlen < GCM_CHUNK ? inlen : GCM_CHUNK;
      if (!encrypt)
        depth = umax (depth, ghash_buf (st, in, n));
      depth = umax (depth, gctr (c, out, in, n));
      if (encrypt)
        depth = umax (depth, ghash_buf (st, out, n));
      in += n;
      out += n;
      inlen -= n;
    }
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
gcm_encrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen)
{
  return gcm_crypt (c, out, outsize, in, inlen, true);
}

gcry_err_code_t
gcm_decrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen)
{
  return gcm_crypt (c, out, outsize, in, inlen, false);
}

/* SP 800-38D 5.2.1.2 tag lengths (and "at least a block" for gettag). */
bool
tag_length_valid (size_t taglen)
{
  return taglen == 4 || taglen == 8 || taglen >= 12;
}

/* Compute the tag once (SP 800-38D 7.1 steps 5-6): close AAD and text,
 * GHASH the length block, xor tagiv.  gcm_finish below.  */
template <bool V16>
GCM_BODY gcry_err_code_t
finish_body (gcry_cipher_hd_t c)
{
  gcm_state *st = state_of (c);
  if (st->over_limits)
    return GPG_ERR_INV_LENGTH;
  /* A message whose key a failed setkey dropped: no tag (libgcrypt
   * would MAC with the stale key).  Also without an IV: the tag of the
   * empty message under a zero IV would come from the dropped key's
   * hash key (found by the fuzzer, gettag after a refused re-key).  */
  if (!c->marks.key && (c->marks.iv || st->ghash))
    return GPG_ERR_MISSING_KEY;
  if (c->marks.tag)
    return GPG_ERR_NO_ERROR;
  if (!st->ghash)
    return GPG_ERR_INV_STATE;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;

  /* The pending partial block (of the AAD if no text came, else of the
   * text), zero-padded, and the length block, in one GHASH call.  */
  unsigned char blk[2 * GCM_BLOCK_LEN];
  size_t n = 0;
  if (st->mac_unused)
    {
      memcpy (blk, st->macbuf, st->mac_unused);
      memset (blk + st->mac_unused, 0, GCM_BLOCK_LEN - st->mac_unused);
      wipe_small (st->macbuf, sizeof st->macbuf);
      st->mac_unused = 0;
      n = GCM_BLOCK_LEN;
    }
  st->aad_finalized = 1;
  /* [len(A)]_64 || [len(C)]_64 in bits, one store (gcm_u32x4), built
   * from 32-bit words: i386 builds a 64-bit word in memory.  The counts
   * are read into general registers (the asm), where the text calls
   * wrote them: i386's SSE2 build would read each with one 8-byte load
   * over two pending 4-byte stores.  */
  uint64_t abits = st->aadlen, cbits = st->datalen;
  __asm__ ("" : "+r" (abits), "+r" (cbits));
  abits *= 8;
  cbits *= 8;
  const gcm_u32x4 lens = { be32_word ((uint32_t) (abits >> 32)),
                           be32_word ((uint32_t) abits),
                           be32_word ((uint32_t) (cbits >> 32)),
                           be32_word ((uint32_t) cbits) };
  memcpy (blk + n, &lens, GCM_BLOCK_LEN);
  unsigned int depth = st->ghash->ghash (&st->key, st->y, blk,
                                         n / GCM_BLOCK_LEN + 1);
  wipe_small (blk, sizeof blk);
  tag_xor<V16> (st->tag, st->y, st->tagiv);
  /* tagiv is used up (libgcrypt too: a tag computed after a failed
   * setiv then has tagiv = 0).  */
  wipe_small (st->tagiv, sizeof st->tagiv);
  st->data_finalized = 1;
  c->marks.tag = 1;
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

#ifdef GCM_TWO_BUILDS
GCM_SSE2 gcry_err_code_t
gcm_finish_sse2 (gcry_cipher_hd_t c)
{
  return finish_body<true> (c);
}
#endif

gcry_err_code_t
gcm_finish (gcry_cipher_hd_t c)
{
#ifdef GCM_TWO_BUILDS
  if (gcm_use_sse2 (c))
    return gcm_finish_sse2 (c);
#endif
  return finish_body<GCM_BASE_V16> (c);
}

gcry_err_code_t
gcm_gettag (gcry_cipher_hd_t c, unsigned char *tag, size_t taglen)
{
  if (!tag_length_valid (taglen))
    return GPG_ERR_INV_LENGTH;
  gcry_err_code_t rc = gcm_finish (c);
  if (rc || cipher_check_only (c))
    return rc;
  memcpy (tag, state_of (c)->tag,
          taglen < GCM_BLOCK_LEN ? taglen : GCM_BLOCK_LEN);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
gcm_checktag (gcry_cipher_hd_t c, const unsigned char *tag, size_t taglen)
{
  if (!tag_length_valid (taglen))
    return GPG_ERR_INV_LENGTH;
  gcry_err_code_t rc = gcm_finish (c);
  /* A length no GCM tag has is GPG_ERR_CHECKSUM also when the key was
   * dropped (libgcrypt's code, whatever the tag).  */
  if (rc == GPG_ERR_MISSING_KEY && taglen > GCM_BLOCK_LEN)
    return GPG_ERR_CHECKSUM;
  if (rc)
    return rc;
  if (taglen > GCM_BLOCK_LEN)
    return GPG_ERR_CHECKSUM;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  /* Constant time over TAGLEN bytes.  */
  const unsigned char *t = state_of (c)->tag;
  if (taglen == GCM_BLOCK_LEN)
    {
      /* The usual full tag: two 64-bit words instead of 16 byte steps.
       * d == 0 exactly when (d | -d) has bit 63 clear.  */
      uint64_t t0, t1, u0, u1;
      memcpy (&t0, t, 8);
      memcpy (&t1, t + 8, 8);
      memcpy (&u0, tag, 8);
      memcpy (&u1, tag + 8, 8);
      const uint64_t d = (t0 ^ u0) | (t1 ^ u1);
      return ct_checksum_error (d);
    }
  unsigned int diff = 0;
  for (size_t i = 0; i < taglen; i++)
    diff |= t[i] ^ tag[i];
  return ct_checksum_error (diff);
}

gcry_err_code_t
gcm_info (gcry_cipher_hd_t, int what, void *, size_t *nbytes)
{
  if (what == GCRYCTL_GET_TAGLEN)
    {
      *nbytes = GCM_BLOCK_LEN;
      return GPG_ERR_NO_ERROR;
    }
  return GPG_ERR_INV_CIPHER_MODE;
}

} // namespace

const char *
_gcry_cipher_gcm_ghash_name (gcry_cipher_hd_t c)
{
  if (!c || c->mode != GCRY_CIPHER_MODE_GCM || !c->mode_ctx)
    return nullptr;
  return state_of (c)->ghash_name;
}

const cipher_mode_ops _gcry_cipher_mode_gcm = {
  .mode = GCRY_CIPHER_MODE_GCM,
  .keeps = MODE_KEEPS_ON_SETKEY,
  .supported = gcm_supported,
  .state_size = gcm_state_size,
  .setkey = gcm_setkey,
  .setiv = gcm_setiv,
  .reset = gcm_reset,
  .encrypt = gcm_encrypt,
  .decrypt = gcm_decrypt,
  .authenticate = gcm_authenticate,
  .gettag = gcm_gettag,
  .checktag = gcm_checktag,
  .info = gcm_info,
};
