/* sm4.cpp - SM4 (GB/T 32907-2016; English text: draft-ribose-cfrg-sm4):
 * the spec, key schedule, constant-time generic block functions and
 * self-test.
 *
 * Paths (the first whose hwf bits are all present and not disabled wins
 * at setkey; all share the key layout):
 *   "gfni-avx512"  GFNI kernels on zmm/ymm/xmm (sm4-gfni-avx512.cpp)
 *   "gfni-avx2"    GFNI kernels on ymm/xmm     (sm4-gfni-avx2.cpp)
 *   "vaes-avx2"    AES-NI S-box layer, VAES on ymm, then xmm
 *                  (sm4-vaes-avx2.cpp)
 *   "aesni-avx2"   AES-NI S-box layer on ymm/xmm (sm4-aesni-avx2.cpp)
 *   "aesni-avx"    AES-NI S-box layer on xmm (sm4-aesni-avx.cpp)
 *   "generic"      the code below, no bulk slots: 8 MB/s in CTR on one
 *                  Zen 4 core.
 * A SIMD path fills the bulk slots (cipher-batch-modes.h) and the
 * context's encrypt1 / decrypt1, which the spec's single-block functions
 * call (sm4-gfni.h has the word-sliced kernel).
 *
 * S-box without a table.  GB/T 32907-2016 6.2 prints the S-box as a
 * table; it is the affine image of the inversion in GF(2^8)
 * (Liu, Ji, Hu et al., "Analysis of the SMS4 block cipher", ACISP 2007):
 *
 *   S(x) = A * inv(A * x ^ C) ^ C,   C = 0xd3,
 *
 * in GF(2)[a] / (a^8 + a^7 + a^6 + a^5 + a^4 + a^2 + 1), A the circulant
 * matrix whose row i is 11100101 rotated right by i (bit 0 first).
 * gf256-ct.h evaluates the four S-boxes of tau (6.2) at once, lane by
 * lane, with inv(y) = (y^127)^2 and the squaring folded into the output
 * matrix; static_asserts compare it with the first row of the standard's
 * table, the known answers of A.1 (self-test) and the test suite with
 * the rest.
 *
 * Constant time: the S-boxes as above; the rest is XOR and rotations by
 * constants.
 *
 * Name and OIDs as libgcrypt 1.10 answers: "SM4", no alias,
 * 1.2.156.10197.1.104.{1,2,3,4,7} = ECB, CBC, OFB, CFB, CTR; the key is
 * 16 bytes, other lengths give GPG_ERR_INV_KEYLEN.
 */
#include <config.h>
#include <string.h>
#include "cipher-internal.h"
#include "bufhelp.h"
#include "cipher-batch-modes.h"
#include "sm4-internal.h"
#include "cipher-impl.h"

namespace {

using namespace gf256ct;

using namespace sm4_detail;

constexpr lane_affine<uint32_t> sm4_lanes_in
  = make_uniform<uint32_t> (sm4_in, SM4_C);
constexpr lane_affine<uint32_t> sm4_lanes_out
  = make_uniform<uint32_t> (sm4_out, SM4_C);

inline uint32_t
rol32 (uint32_t x, int n)
{
  return (x << n) | (x >> (32 - n));
}

/* tau (6.2): the S-box on each byte of X.  */
inline uint32_t
sm4_tau (uint32_t x)
{
  return sbox_layer<SM4_POLY> (sm4_lanes_in, sm4_lanes_out, x);
}

/* T (6.2) of the round function and T' (7.3) of the key schedule.  */
inline uint32_t
sm4_T (uint32_t x)
{
  uint32_t b = sm4_tau (x);
  return b ^ rol32 (b, 2) ^ rol32 (b, 10) ^ rol32 (b, 18) ^ rol32 (b, 24);
}

inline uint32_t
sm4_Tkey (uint32_t x)
{
  uint32_t b = sm4_tau (x);
  return b ^ rol32 (b, 13) ^ rol32 (b, 23);
}

/* FK (7.3).  */
constexpr uint32_t sm4_fk[4] = { 0xa3b1bac6, 0x56aa3350, 0x677d9197,
                                 0xb27022dc };

/* CK_i (7.3): byte j of CK_i is (4i + j) * 7 mod 256, big-endian.  */
constexpr uint32_t
sm4_ck (unsigned i)
{
  uint32_t r = 0;
  for (unsigned j = 0; j < 4; j++)
    r = (r << 8) | (((4 * i + j) * 7) & 0xff);
  return r;
}

/* Key expansion (7.3); KEY is 16 bytes.  Returns the burn depth.  */
unsigned int
sm4_key_schedule (SM4_context *ctx, const unsigned char *key)
{
  uint32_t k[4];
  for (int i = 0; i < 4; i++)
    k[i] = buf_get_be32 (key + 4 * i) ^ sm4_fk[i];
  for (unsigned i = 0; i < 32; i++)
    {
      uint32_t rk = k[i % 4] ^ sm4_Tkey (k[(i + 1) % 4] ^ k[(i + 2) % 4]
                                         ^ k[(i + 3) % 4] ^ sm4_ck (i));
      k[i % 4] = rk;
      ctx->rkey_enc[i] = rk;
      ctx->rkey_dec[31 - i] = rk;
    }
  wipememory (k, sizeof k);
  return sizeof k + 128;
}

/* Encryption (7.1) with round keys RK; decryption (7.2) is the same with
 * the keys reversed.  */
unsigned int
sm4_crypt (const uint32_t *rk, unsigned char *out, const unsigned char *in)
{
  uint32_t x[4];
  for (int i = 0; i < 4; i++)
    x[i] = buf_get_be32 (in + 4 * i);
  for (unsigned i = 0; i < 32; i++)
    x[i % 4] ^= sm4_T (x[(i + 1) % 4] ^ x[(i + 2) % 4] ^ x[(i + 3) % 4]
                       ^ rk[i]);
  /* R (7.1): the last four words in reverse order.  */
  for (int i = 0; i < 4; i++)
    buf_put_be32 (out + 4 * i, x[3 - i]);
  return sizeof x + 128;
}

/* The spec's single-block functions: the chosen path's (a GFNI kernel
 * on one block) or the generic code.  The test is on the path, public. */
unsigned int
sm4_encrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const SM4_context *ctx = (const SM4_context *) c;
  if (ctx->encrypt1)
    return ctx->encrypt1 (c, out, in);
  return sm4_crypt (ctx->rkey_enc, out, in);
}

unsigned int
sm4_decrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const SM4_context *ctx = (const SM4_context *) c;
  if (ctx->decrypt1)
    return ctx->decrypt1 (c, out, in);
  return sm4_crypt (ctx->rkey_dec, out, in);
}

/* What a path brings beside its name and hwf bits.  */
struct sm4_impl_ops
{
  unsigned int lanes;                      /* Blocks per batch.  */
  /* Bulk slots and single-block functions; NULL: none.  */
  void (*fill) (cipher_bulk_ops *, SM4_context *);
};

/* Paths, fastest first (the first whose hwf bits are all present and
 * not disabled wins at setkey); all share the key layout and the
 * single-block functions, a SIMD path adds bulk slots.  The AES-NI
 * paths (the GFNI kernels' templates with sbox-layer-x86.h's AES-NI
 * S-box layer) serve CPUs without GFNI.  */
constexpr cipher_impl<sm4_impl_ops> sm4_impls[] = {
#ifdef GCIPHER_ARCH_X86
  { { "gfni-avx512", HWF_INTEL_GFNI | HWF_INTEL_AVX512 },
    { SM4_GFNI_AVX512_LANES, _gcry_sm4_gfni_avx512_fill } },
  { { "gfni-avx2", HWF_INTEL_GFNI | HWF_INTEL_AVX2 },
    { SM4_GFNI_AVX2_LANES, _gcry_sm4_gfni_avx2_fill } },
  { { "vaes-avx2",
      HWF_INTEL_VAES_VPCLMUL | HWF_INTEL_AESNI | HWF_INTEL_AVX2 },
    { SM4_AESNI_AVX2_LANES, _gcry_sm4_vaes_avx2_fill } },
  { { "aesni-avx2", HWF_INTEL_AESNI | HWF_INTEL_AVX2 },
    { SM4_AESNI_AVX2_LANES, _gcry_sm4_aesni_avx2_fill } },
  { { "aesni-avx", HWF_INTEL_AESNI | HWF_INTEL_AVX },
    { SM4_AESNI_AVX_LANES, _gcry_sm4_aesni_avx_fill } },
#endif
  { { "generic", 0 }, { 1, nullptr } },
};

constexpr auto sm4_impl_list = cipher_impl_info_list (sm4_impls);

/* Key CTX for path IDX and fill BULK; returns the burn depth.  */
unsigned int
sm4_setkey_path (SM4_context *ctx, const unsigned char *key,
                 cipher_bulk_ops *bulk, size_t idx)
{
  wipememory (ctx, sizeof *ctx);
  memset (bulk, 0, sizeof *bulk);
  unsigned int burn = sm4_key_schedule (ctx, key);
  if (sm4_impls[idx].ops.fill)
    sm4_impls[idx].ops.fill (bulk, ctx);
  return burn;
}

gcry_err_code_t
sm4_setkey (void *c, const unsigned char *key, size_t keylen,
            cipher_bulk_ops *bulk, const char **impl_name)
{
  SM4_context *ctx = (SM4_context *) c;
  if (keylen != 16)
    return GPG_ERR_INV_KEYLEN;
  size_t idx = cipher_impl_choose (sm4_impls, _gcry_get_hw_features ());
  _gcry_burn_stack (sm4_setkey_path (ctx, key, bulk, idx));
  if (impl_name)
    *impl_name = sm4_impls[idx].name;
  return GPG_ERR_NO_ERROR;
}

/* ---- Self-test: GB/T 32907-2016 A.1 ---------------------------------- */

const char *
sm4_selftest (void)
{
  static const unsigned char key[16] = {
    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
    0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10
  };
  static const unsigned char ct1[16] = {
    0x68, 0x1e, 0xdf, 0x34, 0xd2, 0x06, 0x96, 0x5e,
    0x86, 0xb3, 0xe9, 0x4f, 0x53, 0x6e, 0x42, 0x46
  };
  /* (A.2, 1 000 000 chained encryptions, is too slow for a self-test;
   * tests/t-block128.cpp runs it.)  */
  const unsigned int hwf = _gcry_get_hw_features ();
  alignas (CONTEXT_ALIGN) SM4_context ctx;
  cipher_bulk_ops bulk;
  unsigned char buf[16];
  const char *err = NULL;
  /* Every path this CPU has, by index.  */
  for (size_t p = 0; p < sm4_impl_list.n && !err; p++)
    {
      if (!cipher_impl_usable (sm4_impls[p], hwf))
        continue;
      const unsigned int lanes = sm4_impls[p].ops.lanes;
      sm4_setkey_path (&ctx, key, &bulk, p);
      sm4_encrypt (&ctx, buf, key);   /* The plaintext equals the key.  */
      if (memcmp (buf, ct1, 16))
        err = "SM4: encryption known answer failed";
      else
        {
          sm4_decrypt (&ctx, buf, buf);
          if (memcmp (buf, key, 16))
            err = "SM4: decryption known answer failed";
        }
      if (!err && bulk.ecb_crypt)
        {
          bulk.ecb_crypt (&ctx, buf, key, 1, 1);
          if (memcmp (buf, ct1, 16))
            err = "SM4: bulk ECB known answer failed";
          else
            {
              bulk.ecb_crypt (&ctx, buf, buf, 1, 0);
              if (memcmp (buf, key, 16))
                err = "SM4: bulk ECB decryption known answer failed";
            }
        }
      if (!err && bulk.ctr16be_enc)
        err = _gcry_selftest_helper_ctr ("SM4", &_gcry_cipher_spec_sm4, &ctx,
                                         &bulk, lanes + 1);
      if (!err && bulk.cbc_dec)
        err = _gcry_selftest_helper_cbc ("SM4", &_gcry_cipher_spec_sm4, &ctx,
                                         &bulk, lanes + 2);
      if (!err && bulk.cfb_dec)
        err = _gcry_selftest_helper_cfb ("SM4", &_gcry_cipher_spec_sm4, &ctx,
                                         &bulk, lanes + 2);
      if (!err && bulk.ecb_crypt)
        err = _gcry_selftest_helper_ecb ("SM4", &_gcry_cipher_spec_sm4, &ctx,
                                         &bulk, 2 * lanes + 3);
      if (!err && bulk.xts_crypt)
        err = _gcry_selftest_helper_xts ("SM4", &_gcry_cipher_spec_sm4, &ctx,
                                         &bulk, lanes + 3);
      if (!err && bulk.cbc_enc && bulk.cfb_enc && bulk.ofb_enc)
        err = batch_selftest_chained (&_gcry_cipher_spec_sm4, &ctx, &bulk);
    }
  wipememory (&ctx, sizeof ctx);
  _gcry_burn_stack (1024);
  return err;
}

const cipher_oid_spec sm4_oids[] = {
  { "1.2.156.10197.1.104.1", GCRY_CIPHER_MODE_ECB },
  { "1.2.156.10197.1.104.2", GCRY_CIPHER_MODE_CBC },
  { "1.2.156.10197.1.104.3", GCRY_CIPHER_MODE_OFB },
  { "1.2.156.10197.1.104.4", GCRY_CIPHER_MODE_CFB },
  { "1.2.156.10197.1.104.7", GCRY_CIPHER_MODE_CTR },
  { NULL, 0 }
};

} // namespace

const cipher_spec _gcry_cipher_spec_sm4 = {
  GCRY_CIPHER_SM4, "SM4", NULL, sm4_oids,
  16, 128, sizeof (SM4_context),
  sm4_setkey, sm4_encrypt, sm4_decrypt, sm4_selftest,
  sm4_impl_list.v, sm4_impl_list.n
};
