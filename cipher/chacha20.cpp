/* chacha20.cpp - ChaCha20 (RFC 8439 2.3, 2.4): the spec, the generic
 * block function, the stream layer, nonce set-up and the self-test.
 *
 * As in libgcrypt 1.10 (observed side by side):
 *   - name "CHACHA20", no aliases or OIDs, block size 1, default key 256
 *     bits; setkey takes 32-byte keys and 16-byte keys ("expand 16-byte
 *     k", key repeated: Bernstein's original 128-bit variant), anything
 *     else GPG_ERR_INV_KEYLEN.  setkey also sets the zero nonce and block
 *     counter 0.
 *   - setiv takes an 8-byte nonce (original ChaCha: 64-bit counter in
 *     words 12..13, nonce in 14..15), a 12-byte nonce (RFC 8439: counter
 *     word 12, nonce 13..15) or 16 bytes (words 12..15 as given: counter
 *     and nonce, e.g. to start at block 1 as RFC 8439 2.4.2 does).  Any
 *     other length, or NULL, logs a warning (non-NULL only) and sets
 *     the zero nonce and counter.  Never an error.
 *   - The block counter is words 12..13 as one 64-bit number in every
 *     case (chacha20-internal.h); the keystream is a byte stream: calls
 *     may split it at any offset.
 *   - Modes: STREAM and POLY1305 (cipher-poly1305.cpp) only; the others
 *     answer GPG_ERR_INV_CIPHER_MODE at open.
 *
 * Constant time: additions, XORs and fixed rotations only.
 *
 * Paths (fastest first; the first whose hwf bits are present wins at
 * setkey): "avx512" (sixteen blocks at once, amd64 only,
 * chacha20-avx512.cpp), "avx2" (eight blocks at once, chacha20-avx2.cpp),
 * "neon" (arm64, four blocks at once, chacha20-neon.cpp), "rvv-zvkb" and
 * "rvv" (riscv64, VLEN / 32 blocks at once, chacha20-riscv-v.cpp),
 * "zbb" (riscv64: the generic function compiled with Zbb), "generic".
 */
#include <config.h>
#include <string.h>

#include "chacha20-internal.h"
#include "poly1305.h"
#include "bufhelp.h"
#include "cipher-impl.h"

namespace {

/* A path is its whole-block function (ctx->blocks).  */
constexpr cipher_impl<chacha20_blocks_fn> chacha20_impls[] = {
#ifdef CHACHA20_USE_AVX512
  { { "avx512", HWF_INTEL_AVX512 | HWF_INTEL_AVX2 },
    _gcry_chacha20_avx512_blocks },
#endif
#ifdef CHACHA20_USE_AVX2
  { { "avx2", HWF_INTEL_AVX2 }, _gcry_chacha20_avx2_blocks },
#endif
#ifdef CHACHA20_USE_NEON
  { { "neon", HWF_ARM_NEON }, _gcry_chacha20_neon_blocks },
#endif
#ifdef CHACHA20_USE_RVV
  { { "rvv-zvkb", HWF_RISCV_V | HWF_RISCV_ZVKB },
    _gcry_chacha20_rvv_zvkb_blocks },
  { { "rvv", HWF_RISCV_V }, _gcry_chacha20_rvv_blocks },
#endif
#ifdef CHACHA20_USE_ZBB
  { { "zbb", HWF_RISCV_ZBB }, _gcry_chacha20_zbb_blocks },
#endif
  { { "generic", 0 }, _gcry_chacha20_generic_blocks },
};
constexpr auto chacha20_impl_list = cipher_impl_info_list (chacha20_impls);
constexpr size_t n_chacha20_impls = chacha20_impl_list.n;

/* The 64-bit block counter in words 12..13 (see chacha20-internal.h).  */
inline void
counter_add (uint32_t *state, uint64_t n)
{
  uint64_t ctr = ((uint64_t) state[13] << 32) | state[12];
  ctr += n;
  state[12] = (uint32_t) ctr;
  state[13] = (uint32_t) (ctr >> 32);
}

/* Wipe the keystream left in PAD: its last DIRTY bytes (set by every
 * key setup, chacha20_keysetup).  The last 256 as a row of constant
 * stores (a short message's whole set: the call to memset a variable
 * length takes was a twentieth of a 64-byte ChaCha20-Poly1305 message
 * on AMD Zen 4), the rest of a wide key block's pass by memset.  */
inline void
wipe_pad (CHACHA20_context *ctx)
{
  constexpr size_t row = 4 * CHACHA20_BLOCKSIZE;
  static_assert (sizeof ctx->pad >= row, "PAD holds the row layout's four");
  if (!ctx->dirty)
    return;
  const size_t dirty = ctx->dirty < sizeof ctx->pad ? ctx->dirty
                                                    : sizeof ctx->pad;
  wipememory (ctx->pad + sizeof ctx->pad - row, row);
  if (dirty > row)
    wipememory (ctx->pad + sizeof ctx->pad - dirty, dirty - row);
  ctx->dirty = 0;
}

/* Words 12..15 from IV (see the file comment for the lengths).  */
void
chacha20_setiv (void *context, const unsigned char *iv, size_t ivlen)
{
  CHACHA20_context *ctx = static_cast<CHACHA20_context *> (context);
  if (iv && ivlen != 8 && ivlen != 12 && ivlen != 16)
    _gcry_log_info ("WARNING: chacha20_setiv: bad ivlen=%u\n",
                    (unsigned int) ivlen);
  uint32_t w[4] = { 0, 0, 0, 0 };
  if (iv && ivlen == 16)
    for (int i = 0; i < 4; i++)
      w[i] = buf_get_le32 (iv + 4 * i);
  else if (iv && ivlen == 12)
    for (int i = 0; i < 3; i++)
      w[i + 1] = buf_get_le32 (iv + 4 * i);
  else if (iv && ivlen == 8)
    for (int i = 0; i < 2; i++)
      w[i + 2] = buf_get_le32 (iv + 4 * i);
  memcpy (ctx->input + 12, w, sizeof w);
  wipe_pad (ctx);
  ctx->unused = 0;
}

/* The stack the generic block function's callers burn: its frame and
 * its caller's, with the 64-byte keystream buffer and the state words
 * the block function spills (about 280 bytes with GCC 12 on x86-64;
 * t-stream's ChaCha20PathsLeaveNoKeystreamOnTheStack checks it).  */
constexpr unsigned int GENERIC_DEPTH = 512;

/* "expand 32-byte k" / "expand 16-byte k" as little-endian words.  */
constexpr uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32,
                                0x6b206574 };
constexpr uint32_t tau[4] = { 0x61707865, 0x3120646e, 0x79622d36,
                              0x6b206574 };

/* Pick the path by index (the self-test walks them all).  */
void
chacha20_keysetup (CHACHA20_context *ctx, const unsigned char *key,
                   size_t keylen, size_t path)
{
  const uint32_t *c = keylen == 32 ? sigma : tau;
  for (int i = 0; i < 4; i++)
    ctx->input[i] = c[i];
  for (int i = 0; i < 8; i++)
    ctx->input[4 + i] = buf_get_le32 (key + 4 * (keylen == 32 ? i : i % 4));
  ctx->blocks = chacha20_impls[path].ops;
  /* The whole keystream area counts as written: setiv wipes it, and
   * DIRTY is set from here on (the self-test's context is an
   * uninitialised local).  */
  ctx->dirty = sizeof ctx->pad;
  chacha20_setiv (ctx, nullptr, 0);
}

gcry_err_code_t
chacha20_setkey (void *context, const unsigned char *key, size_t keylen,
                 cipher_bulk_ops *bulk, const char **impl_name)
{
  (void) bulk;  /* A stream cipher has no block bulk slots.  */
  keylen = (uint32_t) keylen;  /* libgcrypt's setkey takes 32 bits.  */
  if (keylen != 32 && keylen != 16)
    return GPG_ERR_INV_KEYLEN;
  CHACHA20_context *ctx = static_cast<CHACHA20_context *> (context);
  size_t idx = cipher_impl_choose (chacha20_impls, _gcry_get_hw_features ());
  chacha20_keysetup (ctx, key, keylen, idx);
  if (impl_name)
    *impl_name = chacha20_impls[idx].name;
  return GPG_ERR_NO_ERROR;
}

/* OUT = IN xor KS over N bytes (OUT may equal IN, no other overlap):
 * 16 bytes per step where the target has 16-byte vectors, then 8, then
 * bytes (the byte loop cost a tenth of a 64-byte ChaCha20-Poly1305
 * message on x86-64).  */
inline void
keystream_xor (unsigned char *out, const unsigned char *in,
               const unsigned char *ks, size_t n)
{
  size_t i = 0;
#ifdef CIPHER_BLOCK16_VECTOR
  for (; i + 16 <= n; i += 16)
    block16_store (out + i, block16_load (in + i) ^ block16_load (ks + i));
#endif
  for (; i + 8 <= n; i += 8)
    buf_put_le64 (out + i, buf_get_le64 (in + i) ^ buf_get_le64 (ks + i));
  for (; i < n; i++)
    out[i] = in[i] ^ ks[i];
}

/* The stream layer: leftover keystream first, then whole blocks through
 * the chosen path, then one block into PAD for a tail.  LEN bytes.  */
unsigned int
chacha20_encrypt_stream (void *context, unsigned char *out,
                         const unsigned char *in, size_t len)
{
  CHACHA20_context *ctx = static_cast<CHACHA20_context *> (context);
  unsigned int depth = 0;
  if (!len)
    return 0;
  if (ctx->unused)
    {
      size_t n = ctx->unused < len ? ctx->unused : len;
      const unsigned char *ks = ctx->pad + sizeof ctx->pad - ctx->unused;
      keystream_xor (out, in, ks, n);
      ctx->unused -= n;
      out += n;
      in += n;
      len -= n;
    }
  chacha20_blocks_fn fn = ctx->blocks ? ctx->blocks
                                      : _gcry_chacha20_generic_blocks;
  if (len >= CHACHA20_BLOCKSIZE)
    {
      size_t nblocks = len / CHACHA20_BLOCKSIZE;
      depth = fn (ctx->input, out, in, nblocks);
      out += nblocks * CHACHA20_BLOCKSIZE;
      in += nblocks * CHACHA20_BLOCKSIZE;
      len -= nblocks * CHACHA20_BLOCKSIZE;
    }
  if (len)
    {
      /* The last partial block's keystream, kept for the next call, by
       * the path's own whole-block function (its vector tail kernel).  */
      static const unsigned char zeros[CHACHA20_BLOCKSIZE] = { 0 };
      unsigned char *ks = ctx->pad + sizeof ctx->pad - CHACHA20_BLOCKSIZE;
      unsigned int d = fn (ctx->input, ks, zeros, 1);
      keystream_xor (out, in, ks, len);
      ctx->unused = CHACHA20_BLOCKSIZE - len;
      if (ctx->dirty < CHACHA20_BLOCKSIZE)
        ctx->dirty = CHACHA20_BLOCKSIZE;
      depth = d > depth ? d : depth;
    }
  return depth;
}

/* ---- Self-test ------------------------------------------------------ */

/* RFC 8439 2.4.2: key 00..1f, counter 1, nonce 00:00:00:00:00:00:00:4a:
 * 00:00:00:00, the "sunscreen" plaintext (114 bytes).  */
const char rfc8439_pt[] =
  "Ladies and Gentlemen of the class of '99: If I could offer you only "
  "one tip for the future, sunscreen would be it.";
const unsigned char rfc8439_ct[114] = {
  0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80, 0x41, 0xba, 0x07, 0x28,
  0xdd, 0x0d, 0x69, 0x81, 0xe9, 0x7e, 0x7a, 0xec, 0x1d, 0x43, 0x60, 0xc2,
  0x0a, 0x27, 0xaf, 0xcc, 0xfd, 0x9f, 0xae, 0x0b, 0xf9, 0x1b, 0x65, 0xc5,
  0x52, 0x47, 0x33, 0xab, 0x8f, 0x59, 0x3d, 0xab, 0xcd, 0x62, 0xb3, 0x57,
  0x16, 0x39, 0xd6, 0x24, 0xe6, 0x51, 0x52, 0xab, 0x8f, 0x53, 0x0c, 0x35,
  0x9f, 0x08, 0x61, 0xd8, 0x07, 0xca, 0x0d, 0xbf, 0x50, 0x0d, 0x6a, 0x61,
  0x56, 0xa3, 0x8e, 0x08, 0x8a, 0x22, 0xb6, 0x5e, 0x52, 0xbc, 0x51, 0x4d,
  0x16, 0xcc, 0xf8, 0x06, 0x81, 0x8c, 0xe9, 0x1a, 0xb7, 0x79, 0x37, 0x36,
  0x5a, 0xf9, 0x0b, 0xbf, 0x74, 0xa3, 0x5b, 0xe6, 0xb4, 0x0b, 0x8e, 0xed,
  0xf2, 0x78, 0x5e, 0x42, 0x87, 0x4d
};

/* One path: the RFC vector in one call and split at odd offsets, and
 * a 2000-byte stream (31 blocks and a tail: 16-, 8- and 1-block passes)
 * whole against byte-by-byte (the whole-block path
 * against the single-block one, across the 32-bit counter wrap).  */
const char *
chacha20_selftest_path (size_t path)
{
  CHACHA20_context ctx;
  unsigned char key[32], iv[16] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x4a };
  unsigned char buf[2000], ref[2000];
  const char *err = nullptr;
  for (int i = 0; i < 32; i++)
    key[i] = (unsigned char) i;

  chacha20_keysetup (&ctx, key, 32, path);
  chacha20_setiv (&ctx, iv, 16);
  chacha20_encrypt_stream (&ctx, buf,
                           reinterpret_cast<const unsigned char *> (rfc8439_pt),
                           114);
  if (memcmp (buf, rfc8439_ct, 114))
    err = "RFC 8439 2.4.2 encryption failed";
  chacha20_setiv (&ctx, iv, 16);
  static const size_t cuts[] = { 1, 62, 3, 48 };  /* + 0 and the rest.  */
  size_t off = 0;
  chacha20_encrypt_stream (&ctx, buf, buf, 0);
  for (size_t cut : cuts)
    {
      chacha20_encrypt_stream (&ctx, buf + off, buf + off, cut);
      off += cut;
    }
  chacha20_encrypt_stream (&ctx, buf + off, buf + off, 114 - off);
  if (!err && memcmp (buf, rfc8439_pt, 114))
    err = "RFC 8439 2.4.2 split decryption failed";

  /* Counter 0xfffffffe: the long run crosses the word-12 wrap.  */
  unsigned char iv2[16] = { 0xfe, 0xff, 0xff, 0xff, 7, 6, 5, 4, 3, 2, 1 };
  for (size_t i = 0; i < sizeof buf; i++)
    buf[i] = (unsigned char) (i * 13 + 5);
  memcpy (ref, buf, sizeof ref);
  chacha20_setiv (&ctx, iv2, 16);
  chacha20_encrypt_stream (&ctx, buf, buf, sizeof buf);
  chacha20_keysetup (&ctx, key, 32, n_chacha20_impls - 1);
  chacha20_setiv (&ctx, iv2, 16);
  for (size_t i = 0; i < sizeof ref; i++)
    chacha20_encrypt_stream (&ctx, ref + i, ref + i, 1);
  if (!err && memcmp (buf, ref, sizeof buf))
    err = "bulk path differs from the single-block path";
#if defined(CHACHA20_USE_AVX512) && defined(POLY1305_RADIX44)
  /* The stitched ChaCha20-Poly1305 (cipher-poly1305.cpp uses it with this
   * path): 1920 bytes (30 blocks: 16 stitched) encrypted and decrypted in
   * place against ChaCha20 then Poly1305 on the generic paths.  */
  if (chacha20_impls[path].ops == _gcry_chacha20_avx512_blocks && !err)
    {
      poly1305_context mac;
      unsigned char tag[2][16];
      for (int dec = 0; dec < 2 && !err; dec++)
        {
          for (size_t i = 0; i < 1920; i++)
            buf[i] = ref[i] = (unsigned char) (i * 7 + dec);
          for (int k = 0; k < 2; k++)   /* k = 1: stitched.  */
            {
              unsigned char *p = k ? buf : ref;
              chacha20_keysetup (&ctx, key, 32,
                                 k ? path : n_chacha20_impls - 1);
              chacha20_setiv (&ctx, iv2, 16);
              _gcry_poly1305_init (&mac, key);
              size_t done = 0;
              if (k)
                {
                  _gcry_poly1305_powers (&mac);
                  _gcry_chacha20_poly1305_avx512 (ctx.input, &mac, p, p, 16,
                                                  !dec);
                  done = 1024;
                }
              if (dec)
                _gcry_poly1305_update (&mac, p + done, 1920 - done);
              chacha20_encrypt_stream (&ctx, p + done, p + done, 1920 - done);
              if (!dec)
                _gcry_poly1305_update (&mac, p + done, 1920 - done);
              _gcry_poly1305_finish (&mac, tag[k]);
            }
          if (memcmp (buf, ref, 1920) || memcmp (tag[0], tag[1], 16))
            err = "stitched ChaCha20-Poly1305 differs";
        }
    }
#endif
  wipememory (&ctx, sizeof ctx);
  return err;
}

const char *
chacha20_selftest (void)
{
  unsigned int hwf = _gcry_get_hw_features ();
  const char *err = nullptr;
  for (size_t i = 0; i < n_chacha20_impls && !err; i++)
    if (cipher_impl_usable (chacha20_impls[i], hwf))
      err = chacha20_selftest_path (i);
  _gcry_burn_stack (8192);
  return err;
}

/* GCRYCTL_RESET: back to the state setkey left (libgcrypt copies back
 * its saved context): zero nonce and counter, no leftover keystream.  */
void
chacha20_reset (void *context)
{
  chacha20_setiv (context, nullptr, 0);
}

} // namespace

unsigned int
_gcry_chacha20_poly1305_keyblock (CHACHA20_context *ctx,
                                  unsigned char *block)
{
  chacha20_blocks_fn fn = ctx->blocks ? ctx->blocks
                                      : _gcry_chacha20_generic_blocks;
#ifdef CHACHA20_USE_AVX2
  if (fn == _gcry_chacha20_avx2_blocks
# ifdef CHACHA20_USE_AVX512
      || fn == _gcry_chacha20_avx512_blocks
# endif
      )
    {
      /* All four blocks to the end of PAD; block 0 from there to
       * BLOCK.  */
      constexpr size_t n = (1 + CHACHA20_ROWS_AHEAD) * CHACHA20_BLOCKSIZE;
      static const unsigned char zeros[n] = { 0 };
      unsigned char *ks = ctx->pad + sizeof ctx->pad - n;
      unsigned int depth = fn (ctx->input, ks, zeros,
                               n / CHACHA20_BLOCKSIZE);
      memcpy (block, ks, CHACHA20_BLOCKSIZE);
      wipememory (ks, CHACHA20_BLOCKSIZE);
      ctx->unused = CHACHA20_ROWS_AHEAD * CHACHA20_BLOCKSIZE;
      if (ctx->dirty < n)
        ctx->dirty = n;
      return depth;
    }
#endif
  static const unsigned char zeros[CHACHA20_BLOCKSIZE] = { 0 };
  return fn (ctx->input, block, zeros, 1);
}

size_t
_gcry_chacha20_poly1305_wide_blocks (const CHACHA20_context *ctx)
{
#ifdef CHACHA20_USE_AVX512
  if (ctx->blocks == _gcry_chacha20_avx512_blocks)
    return 16;
#endif
#if defined(CHACHA20_USE_AVX2) && defined(__x86_64__)
  if (ctx->blocks == _gcry_chacha20_avx2_blocks)
    return 8;
#endif
  (void) ctx;
  return 0;
}

unsigned int
_gcry_chacha20_poly1305_keyblock_wide (CHACHA20_context *ctx,
                                       unsigned char *block)
{
  unsigned int depth;
  size_t n = _gcry_chacha20_poly1305_wide_blocks (ctx);
#ifdef CHACHA20_USE_AVX512
  if (n == 16)
    depth = _gcry_chacha20_avx512_keyblock16 (ctx->input, block, ctx->pad);
  else
#endif
#if defined(CHACHA20_USE_AVX2) && defined(__x86_64__)
  if (n == 8)
    depth = _gcry_chacha20_avx2_keyblock8 (
        ctx->input, block, ctx->pad + sizeof ctx->pad - 8 * CHACHA20_BLOCKSIZE);
  else
#endif
    return _gcry_chacha20_poly1305_keyblock (ctx, block);
  ctx->unused = n * CHACHA20_BLOCKSIZE;
  if (ctx->dirty < ctx->unused)
    ctx->dirty = ctx->unused;
  return depth;
}

unsigned int
_gcry_chacha20_poly1305_keyblock_alone (CHACHA20_context *ctx,
                                        unsigned char *block)
{
  static const unsigned char zeros[CHACHA20_BLOCKSIZE] = { 0 };
  chacha20_blocks_fn fn = ctx->blocks ? ctx->blocks
                                      : _gcry_chacha20_generic_blocks;
  return fn (ctx->input, block, zeros, 1);
}

bool
_gcry_chacha20_poly1305_drop_ahead (CHACHA20_context *ctx)
{
  /* Whole blocks only after a key block: a stream tail leaves at most
   * 63 bytes.  */
  if (!ctx->unused || ctx->unused % CHACHA20_BLOCKSIZE)
    return false;
  wipe_pad (ctx);
  counter_add (ctx->input, -(uint64_t) (ctx->unused / CHACHA20_BLOCKSIZE));
  ctx->unused = 0;
  return true;
}

namespace {

/* The block function (RFC 8439 2.3) XORed into the 64 bytes at IN,
 * written to OUT (IN == OUT allowed), word by word with no keystream
 * buffer.  ALIGNED: IN and OUT are 4-byte aligned, so the words move as
 * whole words (riscv64 without fast misaligned access would otherwise
 * move every word as four bytes).  */
template <bool ALIGNED>
inline __attribute__ ((always_inline)) void
block_xor (const uint32_t *state, unsigned char *out,
           const unsigned char *in)
{
  uint32_t x[16];
  memcpy (x, state, sizeof x);
  for (int i = 0; i < 10; i++)
    chacha20_scalar::double_round (x);
  for (int i = 0; i < 16; i++)
    {
      const uint32_t k = x[i] + state[i];
      if constexpr (ALIGNED)
        buf_put_le32 (__builtin_assume_aligned (out + 4 * i, 4),
                      buf_get_le32 (__builtin_assume_aligned (in + 4 * i, 4))
                      ^ k);
      else
        for (int j = 0; j < 4; j++)
          out[4 * i + j] = (unsigned char) (in[4 * i + j] ^ (k >> (8 * j)));
    }
  /* No wipememory (x) here: taking X's address would keep the whole
   * state in memory through the rounds.  X lives in registers and this
   * frame, inside the depth the callers return for burn_stack.  */
}

template <bool ALIGNED>
inline __attribute__ ((always_inline)) void
blocks_xor (uint32_t *state, unsigned char *out, const unsigned char *in,
            size_t nblocks)
{
  for (; nblocks; nblocks--)
    {
      block_xor<ALIGNED> (state, out, in);
      counter_add (state, 1);
      out += CHACHA20_BLOCKSIZE;
      in += CHACHA20_BLOCKSIZE;
    }
}

/* The scalar whole-block paths' body: one block at a time.  */
inline __attribute__ ((always_inline)) unsigned int
scalar_blocks (uint32_t *state, unsigned char *out, const unsigned char *in,
               size_t nblocks)
{
  if (((uintptr_t) out | (uintptr_t) in) & 3)
    blocks_xor<false> (state, out, in, nblocks);
  else
    blocks_xor<true> (state, out, in, nblocks);
  return GENERIC_DEPTH;
}

} // namespace

/* The generic whole-block path.  */
unsigned int
_gcry_chacha20_generic_blocks (uint32_t *state, unsigned char *out,
                               const unsigned char *in, size_t nblocks)
{
  return scalar_blocks (state, out, in, nblocks);
}

#ifdef CHACHA20_USE_ZBB
/* The same compiled with Zbb: each rotation one rori instead of two
 * shifts and an OR.  */
__attribute__ ((target ("arch=+zbb"))) unsigned int
_gcry_chacha20_zbb_blocks (uint32_t *state, unsigned char *out,
                           const unsigned char *in, size_t nblocks)
{
  return scalar_blocks (state, out, in, nblocks);
}
#endif

extern const cipher_spec _gcry_cipher_spec_chacha20 = {
  GCRY_CIPHER_CHACHA20, "CHACHA20", nullptr, nullptr,
  1, 256, sizeof (CHACHA20_context),
  chacha20_setkey, nullptr, nullptr, chacha20_selftest,
  chacha20_impl_list.v, chacha20_impl_list.n,
  chacha20_encrypt_stream, chacha20_encrypt_stream, chacha20_setiv
};

/* As in libgcrypt, a failed setkey leaves the context alone (the handle
 * has no key then, but setiv + gettag in POLY1305 mode still use the
 * old state, as libgcrypt's do); a successful one overwrites all of it.
 * RESET returns to the state setkey left.  */
extern const cipher_extra_ops _gcry_cipher_extra_chacha20 = {
  &_gcry_cipher_spec_chacha20, sizeof (CHACHA20_context), nullptr,
  chacha20_reset
};
