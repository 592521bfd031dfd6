/* salsa20.cpp - Salsa20/20 and Salsa20/12 (D. J. Bernstein, "Salsa20
 * specification", 2005, sections 2-10; Salsa20/12 from "The Salsa20
 * family of stream ciphers", 2007): the two specs, one block function
 * templated over the round count, the stream layer, nonce set-up and the
 * self-test.
 *
 * As in libgcrypt 1.10 (observed side by side):
 *   - names "SALSA20" and "SALSA20R12", no aliases or OIDs, block size 1,
 *     default key 256 bits; setkey takes 32-byte keys and 16-byte keys
 *     (spec section 9, "expand 16-byte k"), anything else
 *     GPG_ERR_INV_KEYLEN.  setkey sets the zero nonce and counter 0.
 *   - setiv takes the 8-byte nonce only; any other length, or NULL,
 *     logs a warning (non-NULL only) and sets the zero nonce.  The
 *     block counter (words 8..9, 64 bits) restarts at 0.  Never an error.
 *   - The keystream is a byte stream: calls may split it at any offset.
 *   - Mode STREAM only.
 *
 * State layout (spec section 9): constants in words 0, 5, 10, 15; key
 * in 1..4 and 11..14 (a 16-byte key twice); nonce 6..7; counter 8..9.
 * Constant time: additions, XORs and fixed rotations only.
 *
 * Paths (fastest first; the first whose hwf bits are present wins at
 * setkey): "avx512" (sixteen blocks at once, amd64 only,
 * salsa20-avx512.cpp), "avx2" (eight blocks at once, x86,
 * salsa20-avx2.cpp), "generic".
 */
#include <config.h>
#include <string.h>

#include "salsa20-internal.h"
#include "bufhelp.h"
#include "cipher-impl.h"

namespace {

struct SALSA20_context
{
  uint32_t input[16];                    /* Spec section 9 state.  */
  unsigned char pad[SALSA20_BLOCKSIZE];  /* Keystream of the last block. */
  size_t unused;                         /* Unused bytes at its end.  */
  /* Whole-block path chosen at setkey; NULL (a never-keyed context)
   * means the generic one.  */
  salsa20_blocks_fn blocks;
};

/* A path is its whole-block function (ctx->blocks).  */
constexpr cipher_impl<salsa20_blocks_fn> salsa20_impls[] = {
#ifdef SALSA20_USE_AVX512
  { { "avx512", HWF_INTEL_AVX512 | HWF_INTEL_AVX2 },
    _gcry_salsa20_avx512_blocks },
#endif
#ifdef SALSA20_USE_AVX2
  { { "avx2", HWF_INTEL_AVX2 }, _gcry_salsa20_avx2_blocks },
#endif
  { { "generic", 0 }, _gcry_salsa20_generic_blocks },
};
constexpr auto salsa20_impl_list = cipher_impl_info_list (salsa20_impls);
constexpr size_t n_salsa20_impls = salsa20_impl_list.n;

inline uint32_t
rol32 (uint32_t x, unsigned int n)
{
  return (x << n) | (x >> (32 - n));
}

/* Spec section 3: quarterround on words A, B, C, D of X.  */
inline void
quarter_round (uint32_t *x, int a, int b, int c, int d)
{
  x[b] ^= rol32 (x[a] + x[d], 7);
  x[c] ^= rol32 (x[b] + x[a], 9);
  x[d] ^= rol32 (x[c] + x[b], 13);
  x[a] ^= rol32 (x[d] + x[c], 18);
}

/* Spec sections 6-8: ROUNDS/2 double rounds (column round, row round),
 * then the feed-forward; KS gets 64 bytes.  Counter not advanced.  */
template <int ROUNDS>
void
salsa20_block (const uint32_t *state, unsigned char *ks)
{
  static_assert (ROUNDS % 2 == 0);
  uint32_t x[16];
  memcpy (x, state, sizeof x);
  for (int i = 0; i < ROUNDS / 2; i++)
    {
      quarter_round (x, 0, 4, 8, 12);    /* Column round (section 5). */
      quarter_round (x, 5, 9, 13, 1);
      quarter_round (x, 10, 14, 2, 6);
      quarter_round (x, 15, 3, 7, 11);
      quarter_round (x, 0, 1, 2, 3);     /* Row round (section 4).  */
      quarter_round (x, 5, 6, 7, 4);
      quarter_round (x, 10, 11, 8, 9);
      quarter_round (x, 15, 12, 13, 14);
    }
  for (int i = 0; i < 16; i++)
    buf_put_le32 (ks + 4 * i, x[i] + state[i]);
  /* No wipememory (x) here: taking X's address would keep the whole
   * state in memory through the rounds.  X lives in registers and this
   * frame, inside the depth the callers return for burn_stack.  */
}

inline void
counter_inc (uint32_t *state)
{
  state[8]++;
  state[9] += state[8] == 0;  /* Public: the block position.  */
}

void
salsa20_setiv (void *context, const unsigned char *iv, size_t ivlen)
{
  SALSA20_context *ctx = static_cast<SALSA20_context *> (context);
  if (iv && ivlen != 8)
    _gcry_log_info ("WARNING: salsa20_setiv: bad ivlen=%u\n",
                    (unsigned int) ivlen);
  bool ok = iv && ivlen == 8;
  ctx->input[6] = ok ? buf_get_le32 (iv) : 0;
  ctx->input[7] = ok ? buf_get_le32 (iv + 4) : 0;
  ctx->input[8] = 0;
  ctx->input[9] = 0;
  wipememory (ctx->pad, sizeof ctx->pad);
  ctx->unused = 0;
}

/* Section 9: "expand 32-byte k" (sigma) / "expand 16-byte k" (tau).  */
constexpr uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32,
                                0x6b206574 };
constexpr uint32_t tau[4] = { 0x61707865, 0x3120646e, 0x79622d36,
                              0x6b206574 };

/* Pick the path by index (the self-test walks them all).  */
void
salsa20_keysetup (SALSA20_context *ctx, const unsigned char *key,
                  size_t keylen, size_t path)
{
  const uint32_t *c = keylen == 32 ? sigma : tau;
  const unsigned char *k2 = keylen == 32 ? key + 16 : key;
  ctx->input[0] = c[0];
  ctx->input[5] = c[1];
  ctx->input[10] = c[2];
  ctx->input[15] = c[3];
  for (int i = 0; i < 4; i++)
    {
      ctx->input[1 + i] = buf_get_le32 (key + 4 * i);
      ctx->input[11 + i] = buf_get_le32 (k2 + 4 * i);
    }
  ctx->blocks = salsa20_impls[path].ops;
  salsa20_setiv (ctx, nullptr, 0);
}

gcry_err_code_t
salsa20_setkey (void *context, const unsigned char *key, size_t keylen,
                cipher_bulk_ops *bulk, const char **impl_name)
{
  (void) bulk;
  keylen = (uint32_t) keylen;  /* libgcrypt's setkey takes 32 bits.  */
  if (keylen != 32 && keylen != 16)
    return GPG_ERR_INV_KEYLEN;
  size_t idx = cipher_impl_choose (salsa20_impls, _gcry_get_hw_features ());
  salsa20_keysetup (static_cast<SALSA20_context *> (context), key, keylen,
                    idx);
  if (impl_name)
    *impl_name = salsa20_impls[idx].name;
  return GPG_ERR_NO_ERROR;
}

/* Leftover keystream, whole blocks through the chosen path, then a
 * tail through PAD.  LEN bytes.  */
template <int ROUNDS>
unsigned int
salsa20_encrypt_stream (void *context, unsigned char *out,
                        const unsigned char *in, size_t len)
{
  SALSA20_context *ctx = static_cast<SALSA20_context *> (context);
  unsigned int depth = 0;
  if (!len)
    return 0;
  if (ctx->unused)
    {
      size_t n = ctx->unused < len ? ctx->unused : len;
      cipher_block_xor (out, in, ctx->pad + SALSA20_BLOCKSIZE - ctx->unused,
                        n);
      ctx->unused -= n;
      out += n;
      in += n;
      len -= n;
    }
  if (len >= SALSA20_BLOCKSIZE)
    {
      size_t nblocks = len / SALSA20_BLOCKSIZE;
      salsa20_blocks_fn fn = ctx->blocks ? ctx->blocks
                                         : _gcry_salsa20_generic_blocks;
      depth = fn (ctx->input, out, in, nblocks, ROUNDS);
      out += nblocks * SALSA20_BLOCKSIZE;
      in += nblocks * SALSA20_BLOCKSIZE;
      len -= nblocks * SALSA20_BLOCKSIZE;
    }
  if (len)
    {
      salsa20_block<ROUNDS> (ctx->input, ctx->pad);
      counter_inc (ctx->input);
      cipher_block_xor (out, in, ctx->pad, len);
      ctx->unused = SALSA20_BLOCKSIZE - len;
      unsigned int d = 2 * 64 + 16 * sizeof (void *);
      depth = d > depth ? d : depth;
    }
  if (!ctx->unused)
    wipememory (ctx->pad, sizeof ctx->pad);
  return depth;
}

/* The generic whole-block path: one block at a time, straight into OUT
 * (the keystream in a local buffer wiped once at the end).  */
template <int ROUNDS>
unsigned int
salsa20_generic_blocks (uint32_t *state, unsigned char *out,
                        const unsigned char *in, size_t nblocks)
{
  unsigned char ks[SALSA20_BLOCKSIZE];
  for (; nblocks; nblocks--)
    {
      salsa20_block<ROUNDS> (state, ks);
      counter_inc (state);
      cipher_block_xor (out, in, ks, SALSA20_BLOCKSIZE);
      out += SALSA20_BLOCKSIZE;
      in += SALSA20_BLOCKSIZE;
    }
  wipememory (ks, sizeof ks);
  /* This frame (KS) and salsa20_block's below it, whose state words go
   * into the red zone on x86-64: GCC 12 reaches 292 bytes there, 248 on
   * i386 (an audit of the frames; 256 and 192 were returned).  */
  return 512;
}

/* ---- Self-test ------------------------------------------------------ */

/* Known answers computed with libgcrypt 1.10.1 (tests/t-stream.cpp
 * also checks the Salsa20 specification's and eSTREAM's vectors and
 * compares with the system library): key bytes 7i+1 (32 bytes), nonce
 * a0..a7, the first 32 keystream bytes.  */
const unsigned char kat_key[32] = {
  0x01, 0x08, 0x0f, 0x16, 0x1d, 0x24, 0x2b, 0x32, 0x39, 0x40, 0x47, 0x4e,
  0x55, 0x5c, 0x63, 0x6a, 0x71, 0x78, 0x7f, 0x86, 0x8d, 0x94, 0x9b, 0xa2,
  0xa9, 0xb0, 0xb7, 0xbe, 0xc5, 0xcc, 0xd3, 0xda
};
const unsigned char kat_nonce[8] = { 0xa0, 0xa1, 0xa2, 0xa3,
                                     0xa4, 0xa5, 0xa6, 0xa7 };
const unsigned char kat_ks20[32] = {
  0xf7, 0x67, 0xb8, 0xcf, 0xaa, 0xf4, 0x3d, 0x26, 0xe7, 0x78, 0xb0, 0x93,
  0x92, 0xa0, 0x40, 0x75, 0xec, 0xb4, 0xef, 0x08, 0x15, 0x0d, 0xed, 0x48,
  0x2c, 0x63, 0xcf, 0xd9, 0x91, 0x06, 0x3b, 0x8a
};
const unsigned char kat_ks12[32] = {
  0xb5, 0xee, 0x6a, 0xdb, 0x83, 0x5c, 0x95, 0x3d, 0xa1, 0xd7, 0x50, 0x87,
  0x03, 0x06, 0x39, 0x91, 0x92, 0x36, 0x24, 0xa5, 0xad, 0x4f, 0x19, 0x27,
  0x26, 0xb9, 0x4f, 0x9a, 0xd4, 0xf9, 0x9d, 0xa1
};

/* One path: the known answer, the stream in one call against odd pieces,
 * and a 2000-byte stream (31 blocks and a tail: 16-, 8- and 1-block
 * passes) whole against byte-by-byte on the generic path, across the
 * 32-bit counter wrap (word 8 into word 9).  */
template <int ROUNDS>
const char *
salsa20_selftest_path (size_t path)
{
  SALSA20_context ctx;
  unsigned char buf[2000], ref[2000];
  const char *err = nullptr;
  salsa20_keysetup (&ctx, kat_key, 32, path);
  salsa20_setiv (&ctx, kat_nonce, 8);
  memset (buf, 0, 32);
  salsa20_encrypt_stream<ROUNDS> (&ctx, buf, buf, 32);
  if (memcmp (buf, ROUNDS == 20 ? kat_ks20 : kat_ks12, 32))
    err = "known answer failed";
  /* The stream in one call against odd pieces.  */
  for (size_t i = 0; i < 200; i++)
    buf[i] = ref[i] = (unsigned char) (i * 3 + 1);
  salsa20_setiv (&ctx, kat_nonce, 8);
  salsa20_encrypt_stream<ROUNDS> (&ctx, buf, buf, 200);
  salsa20_setiv (&ctx, kat_nonce, 8);
  static const size_t cuts[] = { 7, 0, 64, 1, 63, 65 };
  size_t off = 0;
  for (size_t cut : cuts)
    {
      salsa20_encrypt_stream<ROUNDS> (&ctx, ref + off, ref + off, cut);
      off += cut;
    }
  salsa20_encrypt_stream<ROUNDS> (&ctx, ref + off, ref + off, 200 - off);
  if (!err && memcmp (buf, ref, 200))
    err = "split stream differs";

  for (size_t i = 0; i < sizeof buf; i++)
    buf[i] = ref[i] = (unsigned char) (i * 13 + 5);
  salsa20_setiv (&ctx, kat_nonce, 8);
  ctx.input[8] = 0xfffffffe;
  salsa20_encrypt_stream<ROUNDS> (&ctx, buf, buf, sizeof buf);
  salsa20_keysetup (&ctx, kat_key, 32, n_salsa20_impls - 1);
  salsa20_setiv (&ctx, kat_nonce, 8);
  ctx.input[8] = 0xfffffffe;
  for (size_t i = 0; i < sizeof ref; i++)
    salsa20_encrypt_stream<ROUNDS> (&ctx, ref + i, ref + i, 1);
  if (!err && memcmp (buf, ref, sizeof buf))
    err = "bulk path differs from the single-block path";
  wipememory (&ctx, sizeof ctx);
  return err;
}

template <int ROUNDS>
const char *
salsa20_selftest (void)
{
  unsigned int hwf = _gcry_get_hw_features ();
  const char *err = nullptr;
  for (size_t i = 0; i < n_salsa20_impls && !err; i++)
    if (cipher_impl_usable (salsa20_impls[i], hwf))
      err = salsa20_selftest_path<ROUNDS> (i);
  _gcry_burn_stack (8192);
  return err;
}

/* GCRYCTL_RESET: the state setkey left (zero nonce, counter 0).  */
void
salsa20_reset (void *context)
{
  salsa20_setiv (context, nullptr, 0);
}

} // namespace

unsigned int
_gcry_salsa20_generic_blocks (uint32_t *state, unsigned char *out,
                              const unsigned char *in, size_t nblocks,
                              int rounds)
{
  return rounds == 12 ? salsa20_generic_blocks<12> (state, out, in, nblocks)
                      : salsa20_generic_blocks<20> (state, out, in, nblocks);
}

extern const cipher_spec _gcry_cipher_spec_salsa20 = {
  GCRY_CIPHER_SALSA20, "SALSA20", nullptr, nullptr,
  1, 256, sizeof (SALSA20_context),
  salsa20_setkey, nullptr, nullptr, salsa20_selftest<20>,
  salsa20_impl_list.v, salsa20_impl_list.n,
  salsa20_encrypt_stream<20>, salsa20_encrypt_stream<20>, salsa20_setiv
};

extern const cipher_spec _gcry_cipher_spec_salsa20r12 = {
  GCRY_CIPHER_SALSA20R12, "SALSA20R12", nullptr, nullptr,
  1, 256, sizeof (SALSA20_context),
  salsa20_setkey, nullptr, nullptr, salsa20_selftest<12>,
  salsa20_impl_list.v, salsa20_impl_list.n,
  salsa20_encrypt_stream<12>, salsa20_encrypt_stream<12>, salsa20_setiv
};

/* The context is not wiped before setkey (a failed setkey leaves it as
 * libgcrypt does; a successful one overwrites all of it); RESET returns
 * to the state setkey left.  */
extern const cipher_extra_ops _gcry_cipher_extra_salsa20 = {
  &_gcry_cipher_spec_salsa20, sizeof (SALSA20_context), nullptr, salsa20_reset
};

extern const cipher_extra_ops _gcry_cipher_extra_salsa20r12 = {
  &_gcry_cipher_spec_salsa20r12, sizeof (SALSA20_context), nullptr, salsa20_reset
};
