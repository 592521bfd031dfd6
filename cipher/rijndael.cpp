/* rijndael.cpp - AES (FIPS-197): the three specs, path selection, self-test.
 *
 * Paths (fastest first; the first whose hwf bits are all present and not
 * disabled wins at setkey):
 *   "vaes-avx512"  512-bit VAES, x86-64   (rijndael-vaes-avx512.cpp)
 *   "vaes-avx2"    256-bit VAES           (rijndael-vaes-avx2.cpp)
 *   "aesni-avx" the same sources VEX-encoded (-mavx; x86-64: XTS, OCB)
 *   "aesni"    x86 AES instructions       (rijndael-aesni.cpp,
 *              rijndael-aesni-xts-ocb.cpp)
 *   "zvkned"   RISC-V vector AES, VLEN-agnostic (rijndael-riscv-zvkned.cpp)
 *   "armv8-ce" arm64 AESE/AESD (ARMv8 Crypto Extensions, rijndael-armv8-ce.cpp)
 *   "generic"  constant-time bitsliced    (rijndael-generic.cpp)
 *
 * Names, aliases and OIDs are the ones libgcrypt answers (NIST CSOR
 * 2.16.840.1.101.3.4.1.{1,2,3,4,6,7} = ECB, CBC, OFB, CFB, GCM, CCM for
 * AES-128; +20 for AES-192, +40 for AES-256).  As in libgcrypt every AES
 * algorithm id accepts any of the three key lengths (16, 24, 32 bytes);
 * the id only sets the default length.
 */
#include <config.h>
#include <string.h>
#include "rijndael-internal.h"
#include "cipher-impl.h"

namespace {

/* What a path brings beside its name and hwf bits.  */
struct rijndael_impl_ops
{
  rijndael_path path;          /* Key layout (the GCM slots check it).  */
  unsigned int lanes;          /* Blocks per parallel batch.  */
  unsigned int (*setkey) (RIJNDAEL_context *, const unsigned char *, size_t);
  void (*fill_bulk) (cipher_bulk_ops *);
  rijndael_block_fn encrypt, decrypt;   /* One block.  */
};

constexpr cipher_impl<rijndael_impl_ops> rijndael_impls[] = {
#ifdef GCIPHER_ARCH_X86
  /* The VAES paths keep the AES-NI key schedule and single blocks (the
   * VEX build: VAES implies AVX).  */
#ifdef __x86_64__
  { { "vaes-avx512",
      HWF_INTEL_AESNI | HWF_INTEL_VAES_VPCLMUL | HWF_INTEL_AVX512 },
    { RIJNDAEL_PATH_AESNI, RIJNDAEL_VAES_AVX512_LANES,
      _gcry_aes_aesni_avx_setkey, _gcry_aes_vaes_avx512_fill_bulk,
      _gcry_aes_aesni_avx_encrypt, _gcry_aes_aesni_avx_decrypt } },
#endif
  { { "vaes-avx2", HWF_INTEL_AESNI | HWF_INTEL_VAES_VPCLMUL | HWF_INTEL_AVX2 },
    { RIJNDAEL_PATH_AESNI, RIJNDAEL_VAES_AVX2_LANES,
      _gcry_aes_aesni_avx_setkey, _gcry_aes_vaes_avx2_fill_bulk,
      _gcry_aes_aesni_avx_encrypt, _gcry_aes_aesni_avx_decrypt } },
  /* The AES-NI sources VEX-encoded (on x86-64 only XTS and OCB: see
   * _gcry_aes_aesni_avx_fill_bulk).  */
  { { "aesni-avx", HWF_INTEL_AESNI | HWF_INTEL_AVX },
    { RIJNDAEL_PATH_AESNI, RIJNDAEL_AESNI_LANES, _gcry_aes_aesni_avx_setkey,
      _gcry_aes_aesni_avx_fill_bulk, _gcry_aes_aesni_avx_encrypt,
      _gcry_aes_aesni_avx_decrypt } },
  { { "aesni", HWF_INTEL_AESNI },
    { RIJNDAEL_PATH_AESNI, RIJNDAEL_AESNI_LANES, _gcry_aes_aesni_setkey,
      _gcry_aes_aesni_fill_bulk, _gcry_aes_aesni_encrypt,
      _gcry_aes_aesni_decrypt } },
#endif
#ifdef HAVE_RISCV_VCRYPTO
  { { "zvkned", HWF_RISCV_V | HWF_RISCV_ZVKNED | HWF_RISCV_ZVKB },
    { RIJNDAEL_PATH_ZVKNED, RIJNDAEL_ZVKNED_LANES, _gcry_aes_zvkned_setkey,
      _gcry_aes_zvkned_fill_bulk, _gcry_aes_zvkned_encrypt,
      _gcry_aes_zvkned_decrypt } },
#endif
#ifdef GCIPHER_ARCH_AARCH64
  { { "armv8-ce", HWF_ARM_NEON | HWF_ARM_AES },
    { RIJNDAEL_PATH_ARMV8_CE, RIJNDAEL_ARMV8_CE_LANES,
      _gcry_aes_armv8_ce_setkey, _gcry_aes_armv8_ce_fill_bulk,
      _gcry_aes_armv8_ce_encrypt, _gcry_aes_armv8_ce_decrypt } },
#endif
  { { "generic", 0 },
    { RIJNDAEL_PATH_GENERIC, 4, _gcry_aes_generic_setkey,
      _gcry_aes_generic_fill_bulk, _gcry_aes_generic_encrypt,
      _gcry_aes_generic_decrypt } },
};

constexpr auto rijndael_impl_list = cipher_impl_info_list (rijndael_impls);

/* Wipe CTX and the bulk table, then key path IDX.  KEYLEN is checked.  */
unsigned int
setkey_path (RIJNDAEL_context *ctx, const unsigned char *key, size_t keylen,
             cipher_bulk_ops *bulk, size_t idx)
{
  const rijndael_impl_ops &p = rijndael_impls[idx].ops;
  unsigned int burn;

  wipememory (ctx, sizeof *ctx);
  memset (bulk, 0, sizeof *bulk);
  burn = p.setkey (ctx, key, keylen);
  ctx->path = p.path;
  ctx->encrypt = p.encrypt;
  ctx->decrypt = p.decrypt;
  p.fill_bulk (bulk);
  return burn;
}

/* FIPS-197 5.1 / 5.3 on one block with the functions of the context's
 * path; a never-keyed (zeroed) context gets the generic code, as its
 * path field says.  The test is on the path, public.  */
unsigned int
rijndael_encrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c;
  if (__builtin_expect (!ctx->encrypt, 0))
    return _gcry_aes_generic_encrypt (c, out, in);
  return ctx->encrypt (c, out, in);
}

unsigned int
rijndael_decrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c;
  if (__builtin_expect (!ctx->decrypt, 0))
    return _gcry_aes_generic_decrypt (c, out, in);
  return ctx->decrypt (c, out, in);
}

/* setkey of all three specs: KEYLEN 16, 24 or 32 bytes (FIPS-197 5:
 * Nk = 4, 6, 8), else GPG_ERR_INV_KEYLEN.  The caller has run the
 * self-test (_gcry_cipher_setkey runs it once per process).  */
gcry_err_code_t
rijndael_setkey (void *c, const unsigned char *key, size_t keylen,
                 cipher_bulk_ops *bulk, const char **impl_name)
{
  RIJNDAEL_context *ctx = (RIJNDAEL_context *)c;
  size_t idx;

  if (keylen != 16 && keylen != 24 && keylen != 32)
    return GPG_ERR_INV_KEYLEN;
  idx = cipher_impl_choose (rijndael_impls, _gcry_get_hw_features ());
  _gcry_burn_stack (setkey_path (ctx, key, keylen, bulk, idx));
  if (impl_name)
    *impl_name = rijndael_impls[idx].name;
  return GPG_ERR_NO_ERROR;
}

/* ---- Self-test ---------------------------------------------------- */

/* FIPS-197 Appendix C.1-C.3: key 00 01 .. (16/24/32 bytes), plaintext
 * 00 11 22 .. ff.  */
const unsigned char fips197_c_ct[3][16] = {
  { 0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
    0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a },
  { 0xdd, 0xa9, 0x7c, 0xa4, 0x86, 0x4c, 0xdf, 0xe0,
    0x6e, 0xaf, 0x70, 0xa0, 0xec, 0x0d, 0x71, 0x91 },
  { 0x8e, 0xa2, 0xb7, 0xca, 0x51, 0x67, 0x45, 0xbf,
    0xea, 0xfc, 0x49, 0x90, 0x4b, 0x49, 0x60, 0x89 },
};

/* Known answers and bulk-vs-single-block checks for path IDX.  */
const char *
selftest_path (size_t idx)
{
  alignas (CONTEXT_ALIGN) RIJNDAEL_context ctx;
  cipher_bulk_ops bulk;
  unsigned char key[32], pt[16], buf[16];
  const char *err = NULL;
  const unsigned int lanes = rijndael_impls[idx].ops.lanes;

  for (int i = 0; i < 32; i++)
    key[i] = (unsigned char)i;
  for (int i = 0; i < 16; i++)
    pt[i] = (unsigned char)(0x11 * i);

  for (int k = 0; k < 3 && !err; k++)
    {
      setkey_path (&ctx, key, 16 + 8 * k, &bulk, idx);
      rijndael_encrypt (&ctx, buf, pt);
      if (memcmp (buf, fips197_c_ct[k], 16))
        err = "AES: FIPS-197 C encryption known answer failed";
      else
        {
          rijndael_decrypt (&ctx, buf, buf);
          if (memcmp (buf, pt, 16))
            err = "AES: FIPS-197 C decryption known answer failed";
        }
      if (!err && bulk.ctr16be_enc)
        err = _gcry_selftest_helper_ctr ("AES", &_gcry_cipher_spec_aes,
                                         &ctx, &bulk, lanes + 1);
      if (!err && bulk.cbc_dec)
        err = _gcry_selftest_helper_cbc ("AES", &_gcry_cipher_spec_aes,
                                         &ctx, &bulk, lanes + 2);
      if (!err && bulk.cfb_dec)
        err = _gcry_selftest_helper_cfb ("AES", &_gcry_cipher_spec_aes,
                                         &ctx, &bulk, lanes + 2);
      /* lanes + 1 and + 2: a full batch, then the narrow tails; XTS also
       * 2 * lanes + 1, so a tweak carried from batch to batch is used.  */
      const size_t runs[3] = { lanes + 1, lanes + 2, 2 * lanes + 1 };
      for (int r = 0; r < 3 && !err; r++)
        {
          if (!err && bulk.ctr32le_enc && r < 2)
            err = _gcry_selftest_helper_ctr32le (
                "AES", &_gcry_cipher_spec_aes, &ctx, &bulk, runs[r]);
          if (!err && bulk.xts_crypt)
            err = _gcry_selftest_helper_xts ("AES", &_gcry_cipher_spec_aes,
                                             &ctx, &bulk, runs[r]);
          if (!err && bulk.ecb_crypt && r < 2)
            err = _gcry_selftest_helper_ecb ("AES", &_gcry_cipher_spec_aes,
                                             &ctx, &bulk, runs[r]);
        }
    }
  wipememory (&ctx, sizeof ctx);
  _gcry_burn_stack (1024);
  return err;
}

/* Every path this CPU has (detected and not disabled).  Paths are
 * selected by index with the hwf test of setkey, not through the global
 * test mask, so a self-test running in one thread never changes the path
 * another thread's setkey picks.  */
const char *
rijndael_selftest (void)
{
  const unsigned int hwf = _gcry_get_hw_features ();

  for (size_t i = 0; i < rijndael_impl_list.n; i++)
    {
      if (!cipher_impl_usable (rijndael_impls[i], hwf))
        continue;
      const char *err = selftest_path (i);
      if (err)
        return err;
    }
  return NULL;
}

/* ---- Names -------------------------------------------------------- */

const char *const aes128_aliases[] = { "RIJNDAEL", "AES128", "AES-128", NULL };
const char *const aes192_aliases[] = { "RIJNDAEL192", "AES-192", NULL };
const char *const aes256_aliases[] = { "RIJNDAEL256", "AES-256", NULL };

const cipher_oid_spec aes128_oids[] = {
  { "2.16.840.1.101.3.4.1.1", GCRY_CIPHER_MODE_ECB },
  { "2.16.840.1.101.3.4.1.2", GCRY_CIPHER_MODE_CBC },
  { "2.16.840.1.101.3.4.1.3", GCRY_CIPHER_MODE_OFB },
  { "2.16.840.1.101.3.4.1.4", GCRY_CIPHER_MODE_CFB },
  { "2.16.840.1.101.3.4.1.6", GCRY_CIPHER_MODE_GCM },
  { "2.16.840.1.101.3.4.1.7", GCRY_CIPHER_MODE_CCM },
  { NULL, 0 }
};
const cipher_oid_spec aes192_oids[] = {
  { "2.16.840.1.101.3.4.1.21", GCRY_CIPHER_MODE_ECB },
  { "2.16.840.1.101.3.4.1.22", GCRY_CIPHER_MODE_CBC },
  { "2.16.840.1.101.3.4.1.23", GCRY_CIPHER_MODE_OFB },
  { "2.16.840.1.101.3.4.1.24", GCRY_CIPHER_MODE_CFB },
  { "2.16.840.1.101.3.4.1.26", GCRY_CIPHER_MODE_GCM },
  { "2.16.840.1.101.3.4.1.27", GCRY_CIPHER_MODE_CCM },
  { NULL, 0 }
};
const cipher_oid_spec aes256_oids[] = {
  { "2.16.840.1.101.3.4.1.41", GCRY_CIPHER_MODE_ECB },
  { "2.16.840.1.101.3.4.1.42", GCRY_CIPHER_MODE_CBC },
  { "2.16.840.1.101.3.4.1.43", GCRY_CIPHER_MODE_OFB },
  { "2.16.840.1.101.3.4.1.44", GCRY_CIPHER_MODE_CFB },
  { "2.16.840.1.101.3.4.1.46", GCRY_CIPHER_MODE_GCM },
  { "2.16.840.1.101.3.4.1.47", GCRY_CIPHER_MODE_CCM },
  { NULL, 0 }
};

} // namespace

const cipher_spec _gcry_cipher_spec_aes = {
  GCRY_CIPHER_AES, "AES", aes128_aliases, aes128_oids,
  16, 128, sizeof (RIJNDAEL_context),
  rijndael_setkey, rijndael_encrypt, rijndael_decrypt, rijndael_selftest,
  rijndael_impl_list.v, rijndael_impl_list.n
};

const cipher_spec _gcry_cipher_spec_aes192 = {
  GCRY_CIPHER_AES192, "AES192", aes192_aliases, aes192_oids,
  16, 192, sizeof (RIJNDAEL_context),
  rijndael_setkey, rijndael_encrypt, rijndael_decrypt, rijndael_selftest,
  rijndael_impl_list.v, rijndael_impl_list.n
};

const cipher_spec _gcry_cipher_spec_aes256 = {
  GCRY_CIPHER_AES256, "AES256", aes256_aliases, aes256_oids,
  16, 256, sizeof (RIJNDAEL_context),
  rijndael_setkey, rijndael_encrypt, rijndael_decrypt, rijndael_selftest,
  rijndael_impl_list.v, rijndael_impl_list.n
};
