/* cipher-gcm-siv.cpp - AES-GCM-SIV (RFC 8452), libgcrypt's
 * GCRY_CIPHER_MODE_GCM_SIV, for 16-byte block ciphers with 128- or
 * 256-bit keys.
 *
 * Per message (RFC 8452 4):
 *
 *   setiv:  the 12-byte nonce N.  The key-generating key K (the handle's
 *           own algorithm context) derives, block i being the first 8
 *           bytes of CIPH_K (LE32 (i) || N):
 *             message-authentication key  = blocks 0, 1
 *             message-encryption key      = blocks 2, 3 (and 4, 5 for a
 *                                           256-bit K)
 *           The encryption key is expanded into a second algorithm
 *           context in the mode state (with its own bulk table).
 *   authenticate: AAD into POLYVAL, any split, before the text.
 *   encrypt: one call: POLYVAL over the zero-padded AAD, the zero-padded
 *           plaintext and LE64 (bits of AAD) || LE64 (bits of text) gives
 *           S; the tag is CIPH_Kenc ((S xor N) with bit 7 of byte 15
 *           cleared); the text is CTR-encrypted from the tag with bit 7 of
 *           byte 15 set, a 32-bit little-endian counter in bytes 0..3
 *           wrapping mod 2^32 (the bulk slot ctr32le_enc).
 *   decrypt: one call, after GCRYCTL_SET_DECRYPTION_TAG: CTR from that
 *           tag, POLYVAL over the recovered text, the tag recomputed and
 *           compared in constant time; a mismatch zeroes the output and
 *           gives GPG_ERR_CHECKSUM.
 *
 * POLYVAL back ends (chosen at setkey from hwf, like the AES path;
 * keyed at the message's first POLYVAL call, as the key changes with
 * every nonce):
 *   - "polyval-pclmul": native PCLMULQDQ in POLYVAL's own byte order
 *     with a cheap key set-up (H^1..H^8), cipher-gcm-siv-intel-pclmul.cpp;
 *     used for short calls whenever the CPU has PCLMULQDQ;
 *   - a native wide back end, which the message switches to (for good)
 *     at its first call of the back end's min_blocks blocks or more:
 *     "polyval-vpclmul-avx512" or "polyval-vpclmul-avx2" (VPCLMULQDQ on
 *     zmm / ymm, cipher-gcm-siv-vpclmul-kernel.h), whose set-up adds
 *     only the higher powers to the PCLMULQDQ key;
 *   - for the decryption of a long text, where the AES path has the
 *     stitched CTR + POLYVAL kernel (bulk slot gcm_siv_dec): GCM's wide
 *     GHASH back end vpclmul-avx512 or vpclmul-avx2 (which compute
 *     POLYVAL themselves, without byte reversals:
 *     cipher-gcm-intel-vpclmul.cpp), whose key the kernel reads; on a
 *     CPU without VPCLMULQDQ (x86-64), GCM's pclmul back end, whose key
 *     the AES-NI kernel reads (cipher-gcm-intel-pclmul.cpp);
 *   - without PCLMULQDQ, the GHASH back end hwf selects (generic).
 * A GHASH back end computes POLYVAL through RFC 8452 Appendix A:
 * POLYVAL (H, X_1..X_n) = ByteReverse (GHASH (mulX_GHASH (ByteReverse
 * (H)), ByteReverse (X_1), ..., ByteReverse (X_n))), the blocks
 * byte-reversed through a stack buffer (wiped), unless the back end has
 * a polyval function (vpclmul-avx512, vpclmul-avx2: their own byte
 * reversal of the blocks and the reversals above cancel, so they skip
 * both).  The
 * running value is kept in RFC 8452 order, so the message can change
 * back ends.
 *
 * State rules as libgcrypt 1.10 (observed side by side; c->marks.iv and
 * c->marks.tag have libgcrypt's meaning):
 *   - Key: 16 or 32 bytes whatever AES id was opened, else
 *     GPG_ERR_INV_KEYLEN.  A successful setkey ends the message (nonce,
 *     AAD, decryption tag gone).
 *   - setiv: length 12, else GPG_ERR_INV_ARG (checked first); no key or
 *     a nonce already set: GPG_ERR_INV_STATE.  Only GCRYCTL_RESET (or
 *     setkey) allows the next nonce.
 *   - authenticate: needs the nonce; not after the decryption tag, the
 *     text or the tag (GPG_ERR_INV_STATE).
 *   - encrypt: once, needs the nonce, not with a decryption tag set
 *     (GPG_ERR_INV_STATE); a short output buffer gives
 *     GPG_ERR_BUFFER_TOO_SHORT first and consumes nothing.
 *   - GCRYCTL_SET_DECRYPTION_TAG: exactly 16 bytes (else GPG_ERR_INV_ARG,
 *     checked first); GPG_ERR_INV_STATE once a tag exists (a decryption
 *     tag already set, or the message finished).  Allowed before the
 *     nonce and without a key; marks the tag as present.
 *   - decrypt: once, needs the nonce and the decryption tag.
 *   - gettag: needs the nonce; finishes a message without text (empty
 *     plaintext); GPG_ERR_INV_STATE while a decryption tag waits for its
 *     decrypt; writes min (TAGLEN, 16) bytes; after a decryption it gives
 *     the decryption tag.  checktag: the same, then TAGLEN must be 16
 *     and the bytes equal (else GPG_ERR_CHECKSUM).
 *   - Limits (RFC 8452 6): AAD and text at most 2^36 bytes each; going
 *     over gives GPG_ERR_INV_LENGTH and kills the message (every later
 *     AAD, text and tag call too) until reset or setkey.  (libgcrypt
 *     1.10 reads a too-long plaintext before refusing it; gcipher
 *     refuses first.)
 *   - A refused key (GPG_ERR_INV_KEYLEN) leaves the message as it was,
 *     and the handle without a key: text calls GPG_ERR_MISSING_KEY (the
 *     API layer), setiv too, where libgcrypt derives message keys from
 *     its stale key schedule; and a tag finished after a refused 24-byte
 *     key uses the message's encryption key, where libgcrypt uses the
 *     AES-192 schedule of the refused key.
 *
 * The derived keys (POLYVAL key powers, the encryption key schedule)
 * are wiped as soon as the message is finished, and with the handle.
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"
#include "cipher-gcm.h"
#include "cipher-gcm-siv.h"

namespace {

constexpr size_t SIV_BLOCK = 16;
constexpr size_t SIV_NONCE = 12;
/* RFC 8452 6: P_MAX = A_MAX = 2^36 bytes.  */
constexpr uint64_t SIV_MAX_LEN = UINT64_C (1) << 36;
/* Blocks in one POLYVAL call from which the native VPCLMULQDQ back
 * ends beat the PCLMULQDQ one despite their longer key set-up (the
 * powers beyond K_8): on Zen 4 the zmm one takes 37 ns more set-up and
 * 1.2 ns less per block, the ymm one 20 ns more and 0.8 ns less.  */
constexpr size_t POLYVAL_VPCLMUL512_WIDE_MIN = 32;
constexpr size_t POLYVAL_VPCLMUL256_WIDE_MIN = 32;
/* Blocks of text from which decryption takes the wide GHASH back end and
 * the stitched CTR + POLYVAL kernel (one pass over the text) rather than
 * the native wide one (CTR, then POLYVAL, per DEC_CHUNK).  The GHASH
 * key set-up costs more (H^1..H^64 on zmm, H^1..H^32 on ymm).  On Zen 4,
 * AES-128, best of 7-9 runs: the stitched pass takes 5-8% more time at
 * 2-4 KiB on both widths, 3-5% less at 6 KiB on ymm, 5-11% less at 8-16
 * KiB on both.  */
constexpr size_t POLYVAL_STITCH_MIN = 512;
/* The same for the AES-NI + PCLMULQDQ kernel on the pclmul key (x86-64,
 * the host class without VPCLMULQDQ), in place of the native PCLMULQDQ
 * back end.  Both keys hold H^1..H^8, but the GHASH one costs more to
 * set up.  On Zen 4 with VAES off, AES-128/256, bench-compare: the
 * stitched pass from 8 blocks on takes 0.72-0.89 of the time at 128-256
 * bytes, the same at 1-3 KiB (noise), 13-15% less at 4 KiB, 17-22% less
 * at 8-16 KiB.  */
constexpr size_t POLYVAL_PCLMUL_STITCH_MIN = 128;
/* Blocks byte-reversed per GHASH call (stack buffer of 1 KiB).  */
constexpr size_t REV_CHUNK = 64;
/* Bytes of text per CTR + POLYVAL step when decrypting (stays in L1). */
constexpr size_t DEC_CHUNK = 4096;
/* Counter blocks per ECB call in the ecb_crypt fallback of CTR.  */
constexpr size_t ECB_BATCH = 16;

struct gcm_siv_state
{
  gcm_ghash_key hkey;                 /* POLYVAL key area (secret).  */
  alignas (16) unsigned char hraw[16]; /* The POLYVAL key H itself.  */
  alignas (16) unsigned char s[16];   /* Running POLYVAL (RFC order).  */
  alignas (16) unsigned char buf[16]; /* Pending AAD bytes.  */
  alignas (16) unsigned char tag[16]; /* Tag, or the decryption tag.  */
  unsigned char nonce[SIV_NONCE];
  unsigned int buflen;                /* Bytes pending in buf.  */
  uint64_t aadlen;                    /* Bytes of AAD so far.  */
  uint64_t datalen;                   /* Bytes of text.  */
  unsigned int keylen;                /* 16 or 32; survives reset, as do
                                         narrow and wide.  */
  unsigned char data_done;            /* Text (or tag) finished.  */
  unsigned char over_limits;          /* A length limit was exceeded.  */
  unsigned char keys_live;            /* Derived keys present.  */
  const struct polyval_backend *narrow;  /* POLYVAL of short calls.  */
  const struct polyval_backend *wide;    /* Of long calls, or NULL.  */
  const struct polyval_backend *stitch;  /* A GHASH back end of the
                                            stitched decryption of long
                                            texts (gcm_siv_dec), or NULL. */
  const struct polyval_backend *cur;     /* hkey's back end, or NULL. */
  unsigned char short_key;               /* hkey has only cur's short
                                            set-up (ensure_key).  */
  size_t hkey_used;                      /* Bytes of hkey written since
                                            the keys were last wiped.  */
  const char *used_name;                 /* cur's name, kept after the
                                            message for the tests.  */
  cipher_bulk_ops bulk2;              /* Of the message-encryption key. */
  /* The message-encryption key's algorithm context follows at
   * ctx2_offset ().  */
};

constexpr size_t
ctx2_offset ()
{
  return (sizeof (gcm_siv_state) + CONTEXT_ALIGN - 1)
         & ~(size_t) (CONTEXT_ALIGN - 1);
}

inline gcm_siv_state *
state_of (gcry_cipher_hd_t c)
{
  return static_cast<gcm_siv_state *> (c->mode_ctx);
}

inline void *
ctx2_of (gcry_cipher_hd_t c)
{
  return static_cast<unsigned char *> (c->mode_ctx) + ctx2_offset ();
}

/* Wipe a small stack buffer (the barrier keeps the stores).  */
inline void
wipe_small (void *p, size_t n)
{
  memset (p, 0, n);
  asm volatile ("" : : "r" (p) : "memory");
}

inline void
put_le32 (unsigned char *p, uint32_t v)
{
  p[0] = (unsigned char) v;
  p[1] = (unsigned char) (v >> 8);
  p[2] = (unsigned char) (v >> 16);
  p[3] = (unsigned char) (v >> 24);
}

inline uint32_t
get_le32 (const unsigned char *p)
{
  return (uint32_t) p[0] | ((uint32_t) p[1] << 8) | ((uint32_t) p[2] << 16)
         | ((uint32_t) p[3] << 24);
}

inline void
put_le64 (unsigned char *p, uint64_t v)
{
  put_le32 (p, (uint32_t) v);
  put_le32 (p + 4, (uint32_t) (v >> 32));
}

/* DST = ByteReverse (SRC), 16 bytes (RFC 8452 Appendix A).  */
inline void
byte_reverse (unsigned char *dst, const unsigned char *src)
{
  uint64_t lo, hi;
  memcpy (&lo, src, 8);
  memcpy (&hi, src + 8, 8);
  lo = __builtin_bswap64 (lo);
  hi = __builtin_bswap64 (hi);
  memcpy (dst, &hi, 8);
  memcpy (dst + 8, &lo, 8);
}

/* ---- POLYVAL back ends ----------------------------------------------- */

/* A POLYVAL back end: a native one (polyval_ops, POLYVAL byte order) or
 * a GHASH back end of cipher-gcm.h through RFC 8452 Appendix A.  */
struct polyval_backend
{
  const char *name;
  const polyval_ops *native;     /* Or: */
  const gcm_ghash_ops *ghash;
  /* A native wide back end: used for calls of MIN_BLOCKS blocks or
   * more; a GHASH back end with a stitched decryption kernel: used for
   * that decryption of texts of MIN_BLOCKS blocks or more (0: for
   * neither).  */
  size_t min_blocks;
  unsigned int hwf;              /* Native ones: the bits they need.  */
};

/* The min_blocks of GHASH back end G as a POLYVAL back end (0: no
 * stitched decryption kernel reads its key).  Not constexpr: comparing
 * the addresses of two external objects is not a constant expression
 * under -fsanitize=address.  */
size_t
polyval_stitch_min (const gcm_ghash_ops *g)
{
#ifdef GCIPHER_ARCH_X86
  if (g == &_gcry_ghash_ops_vpclmul_avx512
      || g == &_gcry_ghash_ops_vpclmul_avx2)
    return POLYVAL_STITCH_MIN;
# ifdef __x86_64__
  if (g == &_gcry_ghash_ops_pclmul)
    return POLYVAL_PCLMUL_STITCH_MIN;
# endif
#endif
  (void) g;
  return 0;
}

/* The GHASH back ends as POLYVAL ones: entry I is entry I of GCM's
 * table (_gcry_gcm_ghash_table, constant-initialised), built from it
 * when the library is loaded.  */
struct polyval_ghash_backends
{
  polyval_backend v[_gcry_gcm_n_ghash_impls];
};

polyval_ghash_backends
make_ghash_backends ()
{
  polyval_ghash_backends r {};
  for (size_t i = 0; i < _gcry_gcm_n_ghash_impls; i++)
    {
      const cipher_impl<const gcm_ghash_ops *> &g = _gcry_gcm_ghash_table[i];
      r.v[i] = { g.name, nullptr, g.ops, polyval_stitch_min (g.ops), 0 };
    }
  return r;
}

const polyval_ghash_backends ghash_backends = make_ghash_backends ();

#ifdef GCIPHER_ARCH_X86
/* The native PCLMULQDQ back end, for short calls.  */
constexpr polyval_backend polyval_pclmul_backend
  = { "polyval-pclmul", &_gcry_polyval_ops_pclmul, nullptr, 0,
      HWF_INTEL_PCLMUL };
/* The native VPCLMULQDQ back ends, for long calls, fastest first.  */
constexpr polyval_backend polyval_wide_backends[] = {
#ifdef __x86_64__
  { "polyval-vpclmul-avx512", &_gcry_polyval_ops_vpclmul_avx512, nullptr,
    POLYVAL_VPCLMUL512_WIDE_MIN,
    HWF_INTEL_PCLMUL | HWF_INTEL_VAES_VPCLMUL | HWF_INTEL_AVX512 },
#endif
  { "polyval-vpclmul-avx2", &_gcry_polyval_ops_vpclmul_avx2, nullptr,
    POLYVAL_VPCLMUL256_WIDE_MIN,
    HWF_INTEL_PCLMUL | HWF_INTEL_VAES_VPCLMUL | HWF_INTEL_AVX2 },
};
#endif

/* The back end named NAME (_gcry_polyval_test), or NULL.  */
const polyval_backend *
backend_by_name (const char *name)
{
#ifdef GCIPHER_ARCH_X86
  if (!strcmp (polyval_pclmul_backend.name, name))
    return &polyval_pclmul_backend;
  for (const polyval_backend &b : polyval_wide_backends)
    if (!strcmp (b.name, name))
      return &b;
#endif
  for (const polyval_backend &b : ghash_backends.v)
    if (!strcmp (b.name, name))
      return &b;
  return nullptr;
}

/* For HWF: the back end of short calls (*NARROW: the native PCLMULQDQ
 * one where the CPU has the instruction, else the GHASH one GCM would
 * choose), of long calls (*WIDE: a native VPCLMULQDQ one, or NULL) and
 * of the stitched decryption of long texts (*STITCH: that GHASH back
 * end if a kernel reads its key, or NULL).  */
void
choose_backends (unsigned int hwf, const polyval_backend **narrow,
                 const polyval_backend **wide,
                 const polyval_backend **stitch)
{
  const polyval_backend *g
    = &ghash_backends.v[cipher_impl_choose (_gcry_gcm_ghash_table, hwf)];
  *wide = nullptr;
  *stitch = g->min_blocks ? g : nullptr;
  *narrow = g;
#ifdef GCIPHER_ARCH_X86
  if (cipher_hwf_present (polyval_pclmul_backend.hwf, hwf))
    *narrow = &polyval_pclmul_backend;
  for (const polyval_backend &b : polyval_wide_backends)
    if (cipher_hwf_present (b.hwf, hwf))
      {
        *wide = &b;
        break;
      }
#endif
}

/* The GHASH key for POLYVAL key H: mulX_GHASH (ByteReverse (H)), i.e.
 * multiplication by x in GHASH's bit order (a right shift of the string
 * by one bit, the bit shifted out of byte 15 folding back as 0xe1 into
 * byte 0; SP 800-38D 6.3).  Constant time.  */
void
polyval_key_to_ghash (unsigned char *out, const unsigned char *h)
{
  unsigned char v[16];
  byte_reverse (v, h);
  const unsigned char carry = (unsigned char) (-(v[15] & 1));
  for (int i = 15; i > 0; i--)
    out[i] = (unsigned char) ((v[i] >> 1) | (v[i - 1] << 7));
  out[0] = (unsigned char) ((v[0] >> 1) ^ (0xe1 & carry));
  wipe_small (v, sizeof v);
}

/* The bytes at the start of the key area that back end B's set-up
 * writes: a native one says; a GHASH one may use the whole area.  */
inline size_t
backend_key_size (const polyval_backend *b)
{
  return b->native ? b->native->key_size : sizeof (gcm_ghash_key);
}

/* Key area of back end B for the POLYVAL key H.  Burn depth.  */
unsigned int
backend_setkey (const polyval_backend *b, gcm_ghash_key *key,
                const unsigned char *h)
{
  if (b->native)
    return b->native->setkey (key, h);
  alignas (16) unsigned char hg[16];
  polyval_key_to_ghash (hg, h);
  unsigned int depth = b->ghash->setkey (key, hg);
  wipe_small (hg, sizeof hg);
  return depth;
}

/* S (RFC 8452 order) = POLYVAL continued over NBLOCKS blocks of X on
 * back end B.  A GHASH back end with a polyval function does it itself;
 * another gets ByteReverse (S) and each block byte-reversed through a
 * stack buffer (wiped).  Burn depth.  */
unsigned int
backend_update (const polyval_backend *b, const gcm_ghash_key *key,
                unsigned char *s, const unsigned char *x, size_t nblocks)
{
  if (b->native)
    return b->native->update (key, s, x, nblocks);
  if (b->ghash->polyval)
    return b->ghash->polyval (key, s, x, nblocks);
  alignas (16) unsigned char rev[REV_CHUNK * SIV_BLOCK];
  alignas (16) unsigned char sg[SIV_BLOCK];
  unsigned int depth = 0;
  size_t used = 0;
  byte_reverse (sg, s);
  while (nblocks)
    {
      size_t n = nblocks < REV_CHUNK ? nblocks : REV_CHUNK;
      for (size_t i = 0; i < n; i++)
        byte_reverse (rev + i * SIV_BLOCK, x + i * SIV_BLOCK);
      /* The back end's frame is below this one's buffers: the depth
       * from the caller (who burns) counts them too (the generic
       * back end's multiply pieces were left 1,864 bytes deep).  */
      const unsigned int d = b->ghash->ghash (key, sg, rev, n);
      if (d)
        depth = umax (depth, d + sizeof rev + sizeof sg
                               + 16 * sizeof (void *));
      used = n > used ? n : used;
      x += n * SIV_BLOCK;
      nblocks -= n;
    }
  byte_reverse (s, sg);
  if (used)
    wipe_small (rev, used * SIV_BLOCK);
  wipe_small (sg, sizeof sg);
  return depth;
}

/* Set the POLYVAL key up for the back end a call of NBLOCKS blocks
 * should use: the wide one (if any) for a long call, else the narrow
 * one; once wide, the message stays wide (the key areas differ).  A
 * decryption of a long text (STITCHED) takes the stitched kernel's back
 * end, which the message then keeps.  A narrow native back end with a
 * short set-up gets only that for a first call of few blocks, and the
 * rest of its powers when a longer call follows.  Returns the stack
 * burn depth.  */
unsigned int
ensure_key (gcm_siv_state *st, size_t nblocks, bool stitched = false)
{
  if (stitched && st->stitch && nblocks >= st->stitch->min_blocks)
    {
      if (st->cur == st->stitch)
        return 0;
      st->cur = st->stitch;
    }
  else
    {
      bool go_wide = st->wide && nblocks >= st->wide->min_blocks;
      if (st->cur
          && (st->cur == st->wide || st->cur == st->stitch || !go_wide))
        {
          if (!st->short_key || nblocks <= st->cur->native->short_blocks)
            return 0;
          /* The narrow key's short set-up, and a longer call.  */
          st->short_key = 0;
          return st->cur->native->extend (&st->hkey);
        }
      st->cur = go_wide ? st->wide : st->narrow;
    }
  st->used_name = st->cur->name;
  const size_t size = backend_key_size (st->cur);
  st->hkey_used = size > st->hkey_used ? size : st->hkey_used;
  /* A first call short enough for the narrow back end's short set-up
   * (what a short message's calls are).  */
  const polyval_ops *native = st->cur->native;
  st->short_key = st->cur == st->narrow && native && native->setkey_short
                  && nblocks <= native->short_blocks;
  if (st->short_key)
    return native->setkey_short (&st->hkey, st->hraw);
  return backend_setkey (st->cur, &st->hkey, st->hraw);
}

/* POLYVAL of the message continued over NBLOCKS blocks at X.  */
unsigned int
st_polyval (gcm_siv_state *st, const unsigned char *x, size_t nblocks)
{
  unsigned int depth = ensure_key (st, nblocks);
  return umax (depth, backend_update (st->cur, &st->hkey, st->s, x, nblocks));
}

/* POLYVAL over LEN bytes of text (zero-padded to whole blocks).  */
unsigned int
polyval_padded (gcm_siv_state *st, const unsigned char *x, size_t len)
{
  unsigned int depth = 0;
  size_t full = len / SIV_BLOCK, rest = len % SIV_BLOCK;
  if (full)
    depth = st_polyval (st, x, full);
  if (rest)
    {
      alignas (16) unsigned char blk[SIV_BLOCK] = { 0 };
      memcpy (blk, x + full * SIV_BLOCK, rest);
      depth = umax (depth, st_polyval (st, blk, 1));
      wipe_small (blk, sizeof blk);
    }
  return depth;
}

/* AAD into POLYVAL, continuing the byte stream in st->buf.  */
unsigned int
polyval_aad (gcm_siv_state *st, const unsigned char *a, size_t len)
{
  unsigned int depth = 0;
  if (st->buflen)
    {
      size_t n = SIV_BLOCK - st->buflen;
      n = n < len ? n : len;
      memcpy (st->buf + st->buflen, a, n);
      st->buflen += (unsigned int) n;
      a += n;
      len -= n;
      if (st->buflen < SIV_BLOCK)
        return 0;
      depth = st_polyval (st, st->buf, 1);
      st->buflen = 0;
    }
  size_t full = len / SIV_BLOCK;
  if (full)
    depth = umax (depth, st_polyval (st, a, full));
  a += full * SIV_BLOCK;
  len -= full * SIV_BLOCK;
  if (len)
    {
      memcpy (st->buf, a, len);
      st->buflen = (unsigned int) len;
    }
  return depth;
}

/* Close the AAD: its pending partial block, zero-padded.  */
unsigned int
polyval_aad_pad (gcm_siv_state *st)
{
  if (!st->buflen)
    return 0;
  memset (st->buf + st->buflen, 0, SIV_BLOCK - st->buflen);
  st->buflen = 0;
  unsigned int depth = st_polyval (st, st->buf, 1);
  wipe_small (st->buf, sizeof st->buf);
  return depth;
}

/* ---- Keys and CTR -------------------------------------------------- */

/* Wipe the per-message keys (RFC 8452 4: they live for one message).  */
void
wipe_message_keys (gcry_cipher_hd_t c)
{
  gcm_siv_state *st = state_of (c);
  if (!st->keys_live)
    return;
  /* Only what a back end wrote (the rest stays zero from the last wipe;
   * the short-message back end's key is an eighth of the area).  */
  wipememory (&st->hkey, st->hkey_used);
  st->hkey_used = 0;
  wipe_small (st->hraw, sizeof st->hraw);
  st->cur = nullptr;
  wipememory (ctx2_of (c), c->spec->contextsize);
  memset (&st->bulk2, 0, sizeof st->bulk2);
  wipe_small (st->s, sizeof st->s);
  wipe_small (st->buf, sizeof st->buf);
  st->keys_live = 0;
}

/* RFC 8452 4: derive the message keys for NONCE from the key-generating
 * key (c->ctx), set up the POLYVAL key and the encryption key schedule.
 * Returns an error code (the algorithm's setkey) and burns its stack.  */
gcry_err_code_t
derive_keys (gcry_cipher_hd_t c, const unsigned char *nonce)
{
  gcm_siv_state *st = state_of (c);
  const size_t nblk = st->keylen == 32 ? 6 : 4;
  alignas (16) unsigned char blk[6 * SIV_BLOCK];
  alignas (16) unsigned char keys[16 + 32];   /* auth key || enc key.  */
  unsigned int depth = 0;

  for (size_t i = 0; i < nblk; i++)
    {
      put_le32 (blk + i * SIV_BLOCK, (uint32_t) i);
      memcpy (blk + i * SIV_BLOCK + 4, nonce, SIV_NONCE);
    }
  if (c->bulk.ecb_crypt)
    depth = c->bulk.ecb_crypt (c->ctx, blk, blk, nblk, 1);
  else
    for (size_t i = 0; i < nblk; i++)
      depth = umax (depth, c->spec->encrypt (c->ctx, blk + i * SIV_BLOCK,
                                             blk + i * SIV_BLOCK));
  for (size_t i = 0; i < nblk; i++)
    memcpy (keys + 8 * i, blk + i * SIV_BLOCK, 8);

  /* The POLYVAL key is set up for a back end at its first use
   * (ensure_key).  */
  st->cur = nullptr;
  st->used_name = nullptr;
  memcpy (st->hraw, keys, 16);
  st->keys_live = 1;
  gcry_err_code_t rc = _gcry_cipher_setkey_algo_ctx (c, ctx2_of (c),
                                                     keys + 16, st->keylen,
                                                     &st->bulk2);
  /* The handle's bulk table governs: a slot the handle lacks (or the
   * tests cleared) is not used for the derived key either.  */
  if (!c->bulk.ctr32le_enc)
    {
      st->bulk2.ctr32le_enc = nullptr;
      st->bulk2.gcm_siv_dec = nullptr;
    }
  if (!c->bulk.gcm_siv_dec)
    st->bulk2.gcm_siv_dec = nullptr;
  if (!c->bulk.ecb_crypt)
    st->bulk2.ecb_crypt = nullptr;
  memset (st->s, 0, sizeof st->s);
  wipe_small (blk, sizeof blk);
  wipe_small (keys, sizeof keys);
  cipher_burn (depth);  /* blk and keys are wiped.  */
  if (rc)
    wipe_message_keys (c);
  return rc;
}

/* The encryption of the message-encryption key (ctx2).  */
inline unsigned int
enc2 (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in)
{
  return c->spec->encrypt (ctx2_of (c), out, in);
}

/* CTR (RFC 8452 4) over LEN bytes from TAG: counter block = TAG with bit
 * 7 of byte 15 set, bytes 0..3 a little-endian counter incremented mod
 * 2^32 per block.  Whole blocks go to the bulk ctr32le_enc slot, else to
 * ecb_crypt over batches of counter blocks, else block by block.  */
unsigned int
siv_ctr (gcry_cipher_hd_t c, const unsigned char *tag, unsigned char *out,
         const unsigned char *in, size_t len)
{
  gcm_siv_state *st = state_of (c);
  void *ctx2 = ctx2_of (c);
  alignas (16) unsigned char ctr[SIV_BLOCK];
  alignas (16) unsigned char ks[ECB_BATCH * SIV_BLOCK];
  unsigned int depth = 0;
  size_t ks_used = 0;

  memcpy (ctr, tag, SIV_BLOCK);
  /* The tag is public: the one to be output, or the one received.  */
  ct_public (ctr, SIV_BLOCK);
  ctr[15] |= 0x80;
  size_t nblocks = len / SIV_BLOCK;
  if (nblocks && st->bulk2.ctr32le_enc)
    {
      depth = st->bulk2.ctr32le_enc (ctx2, ctr, out, in, nblocks);
      in += nblocks * SIV_BLOCK;
      out += nblocks * SIV_BLOCK;
      nblocks = 0;
    }
  else if (nblocks && st->bulk2.ecb_crypt)
    {
      uint32_t n32 = get_le32 (ctr);
      while (nblocks)
        {
          size_t n = nblocks < ECB_BATCH ? nblocks : ECB_BATCH;
          for (size_t i = 0; i < n; i++)
            {
              memcpy (ks + i * SIV_BLOCK, ctr, SIV_BLOCK);
              put_le32 (ks + i * SIV_BLOCK, n32++);
            }
          depth = umax (depth, st->bulk2.ecb_crypt (ctx2, ks, ks, n, 1));
          cipher_block_xor (out, in, ks, n * SIV_BLOCK);
          ks_used = n > ks_used ? n : ks_used;
          in += n * SIV_BLOCK;
          out += n * SIV_BLOCK;
          nblocks -= n;
        }
      put_le32 (ctr, n32);
    }
  for (; nblocks; nblocks--, in += SIV_BLOCK, out += SIV_BLOCK)
    {
      depth = umax (depth, enc2 (c, ks, ctr));
      ks_used = ks_used ? ks_used : 1;
      put_le32 (ctr, get_le32 (ctr) + 1);
      cipher_block_xor (out, in, ks, SIV_BLOCK);
    }
  size_t rest = len % SIV_BLOCK;
  if (rest)
    {
      depth = umax (depth, enc2 (c, ks, ctr));
      ks_used = ks_used ? ks_used : 1;
      cipher_block_xor (out, in, ks, rest);
    }
  if (ks_used)
    wipe_small (ks, ks_used * SIV_BLOCK);
  /* ks and ctr are wiped; the callees' frames lie below them.  */
  return depth ? depth + sizeof ks + sizeof ctr + 16 * sizeof (void *) : 0;
}

/* Finish POLYVAL (AAD closed, TEXTLEN bytes of text hashed) and compute
 * the tag into OUT (RFC 8452 4).  */
unsigned int
compute_tag (gcry_cipher_hd_t c, unsigned char *out)
{
  gcm_siv_state *st = state_of (c);
  alignas (16) unsigned char blk[SIV_BLOCK];
  unsigned int depth;

  put_le64 (blk, st->aadlen * 8);
  put_le64 (blk + 8, st->datalen * 8);
  depth = st_polyval (st, blk, 1);
  memcpy (blk, st->s, SIV_BLOCK);   /* S_s = POLYVAL (...).  */
  for (size_t i = 0; i < SIV_NONCE; i++)
    blk[i] ^= st->nonce[i];
  blk[15] &= 0x7f;
  depth = umax (depth, enc2 (c, out, blk));
  wipe_small (blk, sizeof blk);
  return depth;
}

/* A message without text (gettag / checktag first): the tag over the
 * AAD and an empty plaintext.  */
unsigned int
finish_empty (gcry_cipher_hd_t c)
{
  gcm_siv_state *st = state_of (c);
  unsigned int depth = polyval_aad_pad (st);
  st->datalen = 0;
  depth = umax (depth, compute_tag (c, st->tag));
  st->data_done = 1;
  c->marks.tag = 1;
  wipe_message_keys (c);
  return depth;
}

/* ---- Hooks ----------------------------------------------------------- */

int
gcm_siv_supported (const cipher_spec *spec)
{
  return spec->blocksize == SIV_BLOCK;
}

size_t
gcm_siv_state_size (const cipher_spec *spec)
{
  return ctx2_offset () + spec->contextsize;
}

/* cipher.cpp keeps this mode's state over setkey (as libgcrypt does,
 * a refused key leaves the message alone; the handle has no key then);
 * a new key ends the message.  */
gcry_err_code_t
gcm_siv_setkey (gcry_cipher_hd_t c, const unsigned char *key, size_t keylen)
{
  if (keylen != 16 && keylen != 32)
    return GPG_ERR_INV_KEYLEN;
  gcry_err_code_t rc = _gcry_cipher_setkey_algo (c, key, keylen);
  if (rc)
    return rc;
  gcm_siv_state *st = state_of (c);
  wipememory (c->mode_ctx, c->mode_ctx_size);
  st->keylen = (unsigned int) keylen;
  /* The POLYVAL back ends, like the AES path, are chosen at setkey.  */
  choose_backends (_gcry_get_hw_features (), &st->narrow, &st->wide,
                   &st->stitch);
  c->marks.iv = 0;
  c->marks.tag = 0;
  return GPG_ERR_NO_ERROR;
}

/* GCRYCTL_RESET: cipher.cpp keeps this mode's state area (the key length
 * and the POLYVAL back ends must survive) and has cleared the marks;
 * clear the message here.  */
void
gcm_siv_reset (gcry_cipher_hd_t c)
{
  gcm_siv_state *st = state_of (c);
  unsigned int keylen = st->keylen;
  const polyval_backend *narrow = st->narrow, *wide = st->wide;
  const polyval_backend *stitch = st->stitch;
  /* The key area and the derived key schedule are zero unless a
   * message's keys are live (open, setkey and every message's end wipe
   * them): wipe those if need be, then the rest of the state.  */
  wipe_message_keys (c);
  static_assert (offsetof (gcm_siv_state, hkey) == 0, "key area first");
  memset (reinterpret_cast<unsigned char *> (st) + sizeof st->hkey, 0,
          sizeof *st - sizeof st->hkey);
  st->keylen = keylen;
  st->narrow = narrow;
  st->wide = wide;
  st->stitch = stitch;
}

gcry_err_code_t
gcm_siv_setiv (gcry_cipher_hd_t c, const unsigned char *iv, size_t ivlen)
{
  gcm_siv_state *st = state_of (c);
  if (ivlen != SIV_NONCE)
    return GPG_ERR_INV_ARG;
  if (!st->keylen || c->marks.iv)
    return GPG_ERR_INV_STATE;
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;  /* After a refused key (see above).  */
  if (!iv)
    return GPG_ERR_INV_ARG;  /* libgcrypt would crash.  */
  gcry_err_code_t rc = derive_keys (c, iv);
  if (rc)
    return rc;
  memcpy (st->nonce, iv, SIV_NONCE);
  st->aadlen = 0;
  st->datalen = 0;
  st->buflen = 0;
  st->data_done = 0;
  c->marks.iv = 1;
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
gcm_siv_authenticate (gcry_cipher_hd_t c, const unsigned char *abuf,
                      size_t abuflen)
{
  gcm_siv_state *st = state_of (c);
  if (st->over_limits)
    return GPG_ERR_INV_LENGTH;
  if (c->marks.tag || !c->marks.iv || st->data_done)
    return GPG_ERR_INV_STATE;
  /* A message whose key a failed setkey dropped.  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  /* Checks only: as in gcm_siv_encrypt.  */
  if (cipher_check_only (c) && (uint64_t) abuflen <= SIV_MAX_LEN - st->aadlen)
    return GPG_ERR_NO_ERROR;
  if ((uint64_t) abuflen > SIV_MAX_LEN - st->aadlen)
    {
      st->over_limits = 1;
      return GPG_ERR_INV_LENGTH;
    }
  st->aadlen += abuflen;
  if (abuflen)
    cipher_burn (polyval_aad (st, abuf, abuflen));
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
gcm_siv_encrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
                 const unsigned char *in, size_t inlen)
{
  gcm_siv_state *st = state_of (c);
  if (outsize < inlen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (st->over_limits)
    return GPG_ERR_INV_LENGTH;
  if (c->marks.tag || !c->marks.iv || st->data_done)
    return GPG_ERR_INV_STATE;
  /* Checks only: a length over the limit takes the real path (it ends
   * the message, as libgcrypt's answer does).  */
  if (cipher_check_only (c) && (uint64_t) inlen <= SIV_MAX_LEN)
    return GPG_ERR_NO_ERROR;
  if ((uint64_t) inlen > SIV_MAX_LEN)
    {
      st->over_limits = 1;
      return GPG_ERR_INV_LENGTH;
    }

  /* The tag over the plaintext first (IN may be OUT), then CTR.  */
  unsigned int depth = polyval_aad_pad (st);
  depth = umax (depth, polyval_padded (st, in, inlen));
  st->datalen = inlen;
  depth = umax (depth, compute_tag (c, st->tag));
  depth = umax (depth, siv_ctr (c, st->tag, out, in, inlen));
  st->data_done = 1;
  c->marks.tag = 1;
  wipe_message_keys (c);
  cipher_burn (depth);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
gcm_siv_decrypt (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
                 const unsigned char *in, size_t inlen)
{
  gcm_siv_state *st = state_of (c);
  if (outsize < inlen)
    return GPG_ERR_BUFFER_TOO_SHORT;
  if (st->over_limits)
    return GPG_ERR_INV_LENGTH;
  if (!c->marks.tag || !c->marks.iv || st->data_done)
    return GPG_ERR_INV_STATE;
  /* Checks only: a length over the limit takes the real path (it ends
   * the message, as libgcrypt's answer does).  */
  if (cipher_check_only (c) && (uint64_t) inlen <= SIV_MAX_LEN)
    return GPG_ERR_NO_ERROR;
  if ((uint64_t) inlen > SIV_MAX_LEN)
    {
      st->over_limits = 1;
      return GPG_ERR_INV_LENGTH;
    }

  /* CTR from the decryption tag and POLYVAL over the recovered text,
   * chunk by chunk while it is in the cache.  The counter of chunk k
   * starts k * DEC_CHUNK / 16 blocks later (the 32-bit counter in bytes
   * 0..3 of the tag, mod 2^32).  */
  alignas (16) unsigned char ctr_tag[SIV_BLOCK];
  alignas (16) unsigned char expect[SIV_BLOCK];
  unsigned int depth = polyval_aad_pad (st);
  /* The back end by the whole text's length, not the chunks'.  */
  depth = umax (depth, ensure_key (st, inlen / SIV_BLOCK,
                                   st->bulk2.gcm_siv_dec != nullptr));
  memcpy (ctr_tag, st->tag, SIV_BLOCK);
  /* The received tag is public (siv_ctr says so again per chunk); said
   * here too because the stitched kernel below starts from it.  */
  ct_public (ctr_tag, SIV_BLOCK);
  size_t done = 0;
  if (st->bulk2.gcm_siv_dec && st->cur && st->cur->ghash)
    {
      /* CTR and POLYVAL in one pass over whole blocks, where the cipher
       * path has a kernel for this back end.  */
      ctr_tag[15] |= 0x80;
      const size_t nblocks = inlen / SIV_BLOCK;
      const size_t left = st->bulk2.gcm_siv_dec (ctx2_of (c), st->cur->ghash,
                                                 &st->hkey, st->s, ctr_tag,
                                                 out, in, nblocks);
      done = (nblocks - left) * SIV_BLOCK;
    }
  while (done < inlen)
    {
      size_t n = inlen - done < DEC_CHUNK ? inlen - done : DEC_CHUNK;
      depth = umax (depth, siv_ctr (c, ctr_tag, out + done, in + done, n));
      depth = umax (depth, polyval_padded (st, out + done, n));
      put_le32 (ctr_tag, get_le32 (ctr_tag) + (uint32_t) (n / SIV_BLOCK));
      done += n;
    }
  st->datalen = inlen;
  depth = umax (depth, compute_tag (c, expect));
  st->data_done = 1;
  wipe_message_keys (c);

  /* Constant time over the 16 bytes.  */
  unsigned int diff = 0;
  for (size_t i = 0; i < SIV_BLOCK; i++)
    diff |= (unsigned int) (expect[i] ^ st->tag[i]);
  wipe_small (expect, sizeof expect);
  wipe_small (ctr_tag, sizeof ctr_tag);
  cipher_burn (depth);
  ct_wipe_if_nonzero (out, inlen, diff);
  return ct_checksum_error (diff);
}

/* gettag / checktag common part: the finished tag, or an error.  */
gcry_err_code_t
tag_ready (gcry_cipher_hd_t c)
{
  gcm_siv_state *st = state_of (c);
  if (st->over_limits)
    return GPG_ERR_INV_LENGTH;
  if (!c->marks.iv || (c->marks.tag && !st->data_done))
    return GPG_ERR_INV_STATE;
  /* A message whose key a failed setkey dropped: no tag.  */
  if (!c->marks.key)
    return GPG_ERR_MISSING_KEY;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  if (!c->marks.tag)
    cipher_burn (finish_empty (c));
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
gcm_siv_gettag (gcry_cipher_hd_t c, unsigned char *tag, size_t taglen)
{
  gcry_err_code_t rc = tag_ready (c);
  if (rc || cipher_check_only (c))
    return rc;
  if (taglen)
    memcpy (tag, state_of (c)->tag, taglen < SIV_BLOCK ? taglen : SIV_BLOCK);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
gcm_siv_checktag (gcry_cipher_hd_t c, const unsigned char *tag, size_t taglen)
{
  gcry_err_code_t rc = tag_ready (c);
  /* As gcm_checktag: a wrong length is GPG_ERR_CHECKSUM anyway.  */
  if (rc == GPG_ERR_MISSING_KEY && taglen != SIV_BLOCK)
    return GPG_ERR_CHECKSUM;
  if (rc)
    return rc;
  if (taglen != SIV_BLOCK)
    return GPG_ERR_CHECKSUM;
  if (cipher_check_only (c))
    return GPG_ERR_NO_ERROR;
  const unsigned char *t = state_of (c)->tag;
  unsigned int diff = 0;
  for (size_t i = 0; i < SIV_BLOCK; i++)
    diff |= (unsigned int) (t[i] ^ tag[i]);
  /* diff in 0..255: (diff - 1) >> 8 is 1 only for diff == 0.  */
  return ((diff - 1) >> 8) & 1 ? GPG_ERR_NO_ERROR : GPG_ERR_CHECKSUM;
}

gcry_err_code_t
gcm_siv_ctl (gcry_cipher_hd_t c, int cmd, void *buffer, size_t buflen)
{
  if (cmd != GCRYCTL_SET_DECRYPTION_TAG)
    return GPG_ERR_INV_CIPHER_MODE;
  if (buflen != SIV_BLOCK)
    return GPG_ERR_INV_ARG;
  if (c->marks.tag)
    return GPG_ERR_INV_STATE;
  memcpy (state_of (c)->tag, buffer, SIV_BLOCK);
  c->marks.tag = 1;
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
gcm_siv_info (gcry_cipher_hd_t, int what, void *, size_t *nbytes)
{
  if (what != GCRYCTL_GET_TAGLEN)
    return GPG_ERR_INV_CIPHER_MODE;
  *nbytes = SIV_BLOCK;
  return GPG_ERR_NO_ERROR;
}

} // namespace

const char *
_gcry_cipher_gcm_siv_polyval_name (gcry_cipher_hd_t c)
{
  if (!c || c->mode != GCRY_CIPHER_MODE_GCM_SIV || !c->mode_ctx)
    return nullptr;
  return state_of (c)->used_name;
}

int
_gcry_polyval_test (const char *name, const unsigned char *h,
                    const unsigned char *x, size_t nblocks,
                    unsigned char *result)
{
  const polyval_backend *b = name ? backend_by_name (name) : nullptr;
  if (!b || !cipher_hwf_present (b->hwf, _gcry_get_hw_features ()))
    return -1;
  /* The key area is 64-byte aligned (the wide back ends load it so). */
  void *mem = _gcry_malloc (sizeof (gcm_ghash_key) + 63);
  if (!mem)
    return -1;
  uintptr_t a = (reinterpret_cast<uintptr_t> (mem) + 63) & ~(uintptr_t) 63;
  gcm_ghash_key *key = reinterpret_cast<gcm_ghash_key *> (a);
  alignas (16) unsigned char s[16] = { 0 };
  backend_setkey (b, key, h);
  backend_update (b, key, s, x, nblocks);
  memcpy (result, s, 16);
  wipememory (key, sizeof *key);
  _gcry_free (mem);
  return 0;
}

const cipher_mode_ops _gcry_cipher_mode_gcm_siv = {
  .mode = GCRY_CIPHER_MODE_GCM_SIV,
  .keeps = MODE_KEEPS_ON_SETKEY | MODE_KEEPS_ON_RESET,
  .supported = gcm_siv_supported,
  .state_size = gcm_siv_state_size,
  .setkey = gcm_siv_setkey,
  .setiv = gcm_siv_setiv,
  .reset = gcm_siv_reset,
  .encrypt = gcm_siv_encrypt,
  .decrypt = gcm_siv_decrypt,
  .authenticate = gcm_siv_authenticate,
  .gettag = gcm_siv_gettag,
  .checktag = gcm_siv_checktag,
  .ctl = gcm_siv_ctl,
  .info = gcm_siv_info,
};
