/* serpent.cpp - Serpent: the three specs, key schedule, generic block
 * functions, path selection and self-test.
 *
 * Paths (fastest first; the first whose hwf bits are all present and not
 * disabled wins at setkey; every path keeps the same key layout and the
 * generic single-block functions, a SIMD path adds bulk slots):
 *   "avx512"   32 blocks per batch, VPTERNLOG S-boxes (serpent-avx512.cpp)
 *   "avx2"     16 blocks per batch                    (serpent-avx2.cpp)
 *   "sse2"      8 blocks per batch                    (serpent-sse2.cpp)
 *   "neon"      8 blocks per batch, arm64             (serpent-neon.cpp)
 *   "generic"  one block in four 32-bit words         (here)
 * All of them compute the S-boxes as boolean formulas on whole words
 * (serpent-internal.h): constant time by construction.
 *
 * Names, aliases and OIDs are those libgcrypt answers (GNU arc
 * 1.3.6.1.4.1.11591.13.2.{1,2,3,4} = ECB, CBC, OFB, CFB for Serpent-128,
 * +20 for 192, +40 for 256).  As in libgcrypt every Serpent id accepts
 * any key of 0..32 bytes; the id only sets the default length.
 *
 * Short keys (proposal 3, key schedule): a key shorter than 256 bits is
 * padded by appending one "1" bit and zeros.  libgcrypt 1.10 pads at a
 * 32-bit word boundary: bytes of an incomplete last word are ignored and
 * the "1" goes to bit 0 of the next word.  For every key length that is a
 * multiple of 4 bytes (16, 24, 32 among them) this is exactly the
 * proposal's padding; for the other lengths gcipher does what libgcrypt
 * does (the same key gives the same ciphertext under either library),
 * which tests/t-serpent.cpp checks against the system libgcrypt.
 */
#include <config.h>
#include <string.h>
#include "serpent-internal.h"
#include "cipher-impl.h"

namespace {

struct serpent_impl_ops
{
  serpent_path path;
  unsigned int lanes;                      /* Blocks per full batch.  */
  void (*fill_bulk) (cipher_bulk_ops *);   /* NULL: no bulk slots.  */
};

constexpr cipher_impl<serpent_impl_ops> serpent_impls[] = {
#ifdef GCIPHER_ARCH_X86
  { { "avx512", HWF_INTEL_AVX512 },
    { SERPENT_PATH_AVX512, SERPENT_AVX512_LANES,
      _gcry_serpent_avx512_fill_bulk } },
  { { "avx2", HWF_INTEL_AVX2 },
    { SERPENT_PATH_AVX2, SERPENT_AVX2_LANES, _gcry_serpent_avx2_fill_bulk } },
  { { "sse2", HWF_INTEL_SSE2 },
    { SERPENT_PATH_SSE2, SERPENT_SSE2_LANES, _gcry_serpent_sse2_fill_bulk } },
#endif
#ifdef GCIPHER_ARCH_AARCH64
  { { "neon", HWF_ARM_NEON },
    { SERPENT_PATH_NEON, SERPENT_NEON_LANES, _gcry_serpent_neon_fill_bulk } },
#endif
  { { "generic", 0 }, { SERPENT_PATH_GENERIC, 1, nullptr } },
};

constexpr auto serpent_impl_list = cipher_impl_info_list (serpent_impls);

/* Proposal 3: the golden-ratio constant of the key schedule.  */
constexpr uint32_t SERPENT_PHI = 0x9e3779b9;

inline uint32_t
get_le32 (const unsigned char *p)
{
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16)
         | ((uint32_t)p[3] << 24);
}

inline void
put_le32 (unsigned char *p, uint32_t v)
{
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}

/* S_IDX on the four words W (the index is public: it depends on the
 * round-key number only).  */
void
sbox_words (unsigned int idx, uint32_t *w)
{
  switch (idx)
    {
    case 0: serpent_sbox<0> (w[0], w[1], w[2], w[3]); break;
    case 1: serpent_sbox<1> (w[0], w[1], w[2], w[3]); break;
    case 2: serpent_sbox<2> (w[0], w[1], w[2], w[3]); break;
    case 3: serpent_sbox<3> (w[0], w[1], w[2], w[3]); break;
    case 4: serpent_sbox<4> (w[0], w[1], w[2], w[3]); break;
    case 5: serpent_sbox<5> (w[0], w[1], w[2], w[3]); break;
    case 6: serpent_sbox<6> (w[0], w[1], w[2], w[3]); break;
    default: serpent_sbox<7> (w[0], w[1], w[2], w[3]); break;
    }
}

/* Key schedule (proposal 3, bitslice form), KEYLEN 0..32 bytes (checked
 * by the caller), padded as the file comment says.  Prekeys
 * w_-8..w_-1 = the padded key, w_i = (w_(i-8) ^ w_(i-5) ^ w_(i-3) ^
 * w_(i-1) ^ PHI ^ i) <<< 11 for i = 0..131, and K_i = S_((3-i) mod 8)
 * (w_4i, w_4i+1, w_4i+2, w_4i+3).  Returns the burn depth.  */
unsigned int
serpent_key_schedule (SERPENT_context *ctx, const unsigned char *key,
                      size_t keylen)
{
  uint32_t w[8 + 4 * (SERPENT_ROUNDS + 1)];
  size_t nwords = keylen / 4, i;

  memset (w, 0, 8 * sizeof w[0]);
  for (i = 0; i < nwords; i++)
    w[i] = get_le32 (key + 4 * i);
  if (nwords < 8)
    w[nwords] = 1;
  for (i = 0; i < 4 * (SERPENT_ROUNDS + 1); i++)
    w[i + 8] = serpent_ops_u32::rol<11> (w[i] ^ w[i + 3] ^ w[i + 5]
                                         ^ w[i + 7] ^ SERPENT_PHI
                                         ^ (uint32_t)i);
  for (i = 0; i <= SERPENT_ROUNDS; i++)
    {
      uint32_t *k = w + 8 + 4 * i;
      sbox_words ((unsigned int)(3 + 8 * 5 - i) % 8, k);
      memcpy (ctx->keys[i], k, 16);
      ctx->keys_lt[i][0] = serpent_ops_u32::rol<32 - 5> (k[0]);
      ctx->keys_lt[i][1] = serpent_ops_u32::rol<32 - 22> (k[2]);
    }
  wipememory (w, sizeof w);
  return sizeof w + 8 * sizeof (void *);
}

template <bool DECRYPT>
unsigned int
generic_crypt (void *c, unsigned char *out, const unsigned char *in)
{
  const SERPENT_context *ctx = (const SERPENT_context *)c;
  uint32_t x[1][4];
  for (int j = 0; j < 4; j++)
    x[0][j] = get_le32 (in + 4 * j);
  serpent_crypt_sets<serpent_ops_u32, DECRYPT> (ctx, x);
  for (int j = 0; j < 4; j++)
    put_le32 (out + 4 * j, x[0][j]);
  /* The state words live in registers on x86-64 and in the frame on
   * register-poor targets: burn a frame's worth either way.  */
  return 64 + 8 * sizeof (void *);
}

unsigned int
setkey_path (SERPENT_context *ctx, const unsigned char *key, size_t keylen,
             cipher_bulk_ops *bulk, size_t idx)
{
  const serpent_impl_ops &p = serpent_impls[idx].ops;
  wipememory (ctx, sizeof *ctx);
  memset (bulk, 0, sizeof *bulk);
  unsigned int burn = serpent_key_schedule (ctx, key, keylen);
  ctx->path = p.path;
  if (p.fill_bulk)
    p.fill_bulk (bulk);
  return burn;
}

/* setkey of the three specs: KEYLEN 0..32 bytes, else
 * GPG_ERR_INV_KEYLEN.  The caller has run the self-test.  */
gcry_err_code_t
serpent_setkey (void *c, const unsigned char *key, size_t keylen,
                cipher_bulk_ops *bulk, const char **impl_name)
{
  SERPENT_context *ctx = (SERPENT_context *)c;
  if (keylen > 32)
    return GPG_ERR_INV_KEYLEN;
  size_t idx = cipher_impl_choose (serpent_impls, _gcry_get_hw_features ());
  _gcry_burn_stack (setkey_path (ctx, key, keylen, bulk, idx));
  if (impl_name)
    *impl_name = serpent_impls[idx].name;
  return GPG_ERR_NO_ERROR;
}

/* ---- Self-test ---------------------------------------------------- */

/* Known answers (NESSIE set 1 / Botan block/serpent.vec, libgcrypt byte
 * order): key, its length, plaintext, ciphertext.  */
struct serpent_kat
{
  unsigned char key[32];
  size_t keylen;
  unsigned char pt[16], ct[16];
};

const serpent_kat serpent_kats[3] = {
  { { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80 }, 16, { 0 },
    { 0xdd, 0xd2, 0x6b, 0x98, 0xa5, 0xff, 0xd8, 0x2c,
      0x05, 0x34, 0x5a, 0x9d, 0xad, 0xbf, 0xaf, 0x49 } },
  { { 0 }, 24,
    { 0xd2, 0x9d, 0x57, 0x6f, 0xce, 0xab, 0xa3, 0xa7,
      0xed, 0x98, 0x99, 0xf2, 0x92, 0x7b, 0xd7, 0x8e },
    { 0x13, 0x0e, 0x35, 0x3e, 0x10, 0x37, 0xc2, 0x24,
      0x05, 0xe8, 0xfa, 0xef, 0xb2, 0xc3, 0xc3, 0xe9 } },
  { { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80 }, 32, { 0 },
    { 0x19, 0x08, 0xef, 0x82, 0x1a, 0xd2, 0xeb, 0xc0,
      0xcb, 0x28, 0xbf, 0x66, 0xe7, 0x96, 0xed, 0xab } },
};

const char *
selftest_path (size_t idx)
{
  alignas (CONTEXT_ALIGN) SERPENT_context ctx;
  cipher_bulk_ops bulk;
  unsigned char buf[16];
  const char *err = NULL;
  const unsigned int lanes = serpent_impls[idx].ops.lanes;

  for (int k = 0; k < 3 && !err; k++)
    {
      const serpent_kat &v = serpent_kats[k];
      setkey_path (&ctx, v.key, v.keylen, &bulk, idx);
      _gcry_serpent_generic_encrypt (&ctx, buf, v.pt);
      if (memcmp (buf, v.ct, 16))
        err = "Serpent: encryption known answer failed";
      else
        {
          _gcry_serpent_generic_decrypt (&ctx, buf, buf);
          if (memcmp (buf, v.pt, 16))
            err = "Serpent: decryption known answer failed";
        }
      if (!err && bulk.ecb_crypt)
        {
          bulk.ecb_crypt (&ctx, buf, v.pt, 1, 1);
          if (memcmp (buf, v.ct, 16))
            err = "Serpent: bulk ECB known answer failed";
          else
            {
              bulk.ecb_crypt (&ctx, buf, buf, 1, 0);
              if (memcmp (buf, v.pt, 16))
                err = "Serpent: bulk ECB decryption known answer failed";
            }
        }
      if (!err && bulk.ctr16be_enc)
        err = _gcry_selftest_helper_ctr ("SERPENT",
                                         &_gcry_cipher_spec_serpent128,
                                         &ctx, &bulk, lanes + 1);
      if (!err && bulk.cbc_dec)
        err = _gcry_selftest_helper_cbc ("SERPENT",
                                         &_gcry_cipher_spec_serpent128,
                                         &ctx, &bulk, lanes + 2);
      if (!err && bulk.cfb_dec)
        err = _gcry_selftest_helper_cfb ("SERPENT",
                                         &_gcry_cipher_spec_serpent128,
                                         &ctx, &bulk, lanes + 2);
    }
  wipememory (&ctx, sizeof ctx);
  _gcry_burn_stack (1024);
  return err;
}

/* Every path this CPU has (detected and not disabled), selected by index
 * (not through the global test mask), as rijndael.cpp does.  */
const char *
serpent_selftest (void)
{
  const unsigned int hwf = _gcry_get_hw_features ();
  for (size_t i = 0; i < serpent_impl_list.n; i++)
    {
      if (!cipher_impl_usable (serpent_impls[i], hwf))
        continue;
      const char *err = selftest_path (i);
      if (err)
        return err;
    }
  return NULL;
}

/* ---- Names -------------------------------------------------------- */

const char *const serpent128_aliases[] = { "SERPENT", "SERPENT-128", NULL };
const char *const serpent192_aliases[] = { "SERPENT-192", NULL };
const char *const serpent256_aliases[] = { "SERPENT-256", NULL };

const cipher_oid_spec serpent128_oids[] = {
  { "1.3.6.1.4.1.11591.13.2.1", GCRY_CIPHER_MODE_ECB },
  { "1.3.6.1.4.1.11591.13.2.2", GCRY_CIPHER_MODE_CBC },
  { "1.3.6.1.4.1.11591.13.2.3", GCRY_CIPHER_MODE_OFB },
  { "1.3.6.1.4.1.11591.13.2.4", GCRY_CIPHER_MODE_CFB },
  { NULL, 0 }
};
const cipher_oid_spec serpent192_oids[] = {
  { "1.3.6.1.4.1.11591.13.2.21", GCRY_CIPHER_MODE_ECB },
  { "1.3.6.1.4.1.11591.13.2.22", GCRY_CIPHER_MODE_CBC },
  { "1.3.6.1.4.1.11591.13.2.23", GCRY_CIPHER_MODE_OFB },
  { "1.3.6.1.4.1.11591.13.2.24", GCRY_CIPHER_MODE_CFB },
  { NULL, 0 }
};
const cipher_oid_spec serpent256_oids[] = {
  { "1.3.6.1.4.1.11591.13.2.41", GCRY_CIPHER_MODE_ECB },
  { "1.3.6.1.4.1.11591.13.2.42", GCRY_CIPHER_MODE_CBC },
  { "1.3.6.1.4.1.11591.13.2.43", GCRY_CIPHER_MODE_OFB },
  { "1.3.6.1.4.1.11591.13.2.44", GCRY_CIPHER_MODE_CFB },
  { NULL, 0 }
};

} // namespace

unsigned int
_gcry_serpent_generic_encrypt (void *ctx, unsigned char *out,
                               const unsigned char *in)
{
  return generic_crypt<false> (ctx, out, in);
}

unsigned int
_gcry_serpent_generic_decrypt (void *ctx, unsigned char *out,
                               const unsigned char *in)
{
  return generic_crypt<true> (ctx, out, in);
}

const cipher_spec _gcry_cipher_spec_serpent128 = {
  GCRY_CIPHER_SERPENT128, "SERPENT128", serpent128_aliases, serpent128_oids,
  16, 128, sizeof (SERPENT_context),
  serpent_setkey, _gcry_serpent_generic_encrypt,
  _gcry_serpent_generic_decrypt, serpent_selftest,
  serpent_impl_list.v, serpent_impl_list.n
};

const cipher_spec _gcry_cipher_spec_serpent192 = {
  GCRY_CIPHER_SERPENT192, "SERPENT192", serpent192_aliases, serpent192_oids,
  16, 192, sizeof (SERPENT_context),
  serpent_setkey, _gcry_serpent_generic_encrypt,
  _gcry_serpent_generic_decrypt, serpent_selftest,
  serpent_impl_list.v, serpent_impl_list.n
};

const cipher_spec _gcry_cipher_spec_serpent256 = {
  GCRY_CIPHER_SERPENT256, "SERPENT256", serpent256_aliases, serpent256_oids,
  16, 256, sizeof (SERPENT_context),
  serpent_setkey, _gcry_serpent_generic_encrypt,
  _gcry_serpent_generic_decrypt, serpent_selftest,
  serpent_impl_list.v, serpent_impl_list.n
};
