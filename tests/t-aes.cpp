/* t-aes.cpp - AES in the basic modes (ECB, CBC, CFB, CFB8, OFB, CTR):
 * known answers on every path this CPU has, and every path against the
 * generic one on random data.  AES's other modes have their own suites,
 * t-aes-*.cpp (GCM, GCM-SIV, XTS and OCB, CCM/EAX/SIV/key wrap).
 *
 * Known answers (AesKat).  Sources: FIPS-197 Appendix C (single block),
 * NIST SP 800-38A Appendix F (F.1 ECB, F.2 CBC, F.3 CFB8/CFB128, F.4 OFB,
 * F.5 CTR) for all key sizes, Botan's AES .vec files (block/aes.vec,
 * modes/cbc.vec, modes/cfb.vec, stream/ctr.vec, stream/ofb.vec; AES
 * sections only) and Wycheproof aes_cbc_pkcs5_test.json (padding done
 * here).  Every vector runs once per available path, forced with the hwf
 * test mask: at the spec level (setkey + bulk slots + single-block
 * functions driven by the reference modes in testutil) and through the
 * public API (gcry_cipher_open/setkey/setiv/encrypt/decrypt).
 *
 * Paths against generic (AesPathsBulk, AesPathsApi), two levels:
 *   Bulk   each path's bulk slots (ecb_crypt, cbc_enc/dec, cfb_enc/dec,
 *          ofb_enc, ctr16be_enc) against the same modes computed block by
 *          block with the generic path's single-block functions
 *          (testutil::SpecCipher), including the generic path's own bulk
 *          slots; checks the final IV / counter too.
 *   API    for each non-generic path, two handles (one forced to the path,
 *          one to "generic"), same key/IV/data through gcry_cipher_encrypt
 *          / decrypt: ECB, CBC, CFB, CFB8, OFB, CTR; lengths 0..4096 bytes
 *          (whole blocks for ECB/CBC), buffer offsets 0..15, in place and
 *          out of place, one call or many random-sized calls; CTR counters
 *          just below 2^64 and 2^128; every start value of the counter's
 *          last byte with runs up to past two of the widest batches
 *          (CtrByte15: the kernels' no-carry fast path and its edge).
 *
 * The random data is deterministic: the PRNG seed is fixed (printed);
 * GCIPHER_TEST_SEED overrides it.
 */
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "testutil.h"

using namespace testutil;

/* ==== Known answers ================================================== */

namespace {

/* ---- Data ------------------------------------------------------------- */

/* FIPS-197 Appendix C: key 00 01 02 ..., plaintext 00 11 22 ... ff.  */
struct Fips197Vec
{
  size_t keylen;
  const char *ct;
};
const Fips197Vec fips197_c[] = {
  { 16, "69c4e0d86a7b0430d8cdb78070b4c55a" },
  { 24, "dda97ca4864cdfe06eaf70a0ec0d7191" },
  { 32, "8ea2b7ca516745bfeafc49904b496089" },
};

/* SP 800-38A Appendix F.  */
const char *const sp_keys[3] = {
  "2b7e151628aed2a6abf7158809cf4f3c",
  "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
  "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
};
const char sp_plain[] =
  "6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
  "30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710";
const char sp_iv[] = "000102030405060708090a0b0c0d0e0f";
const char sp_ctr[] = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

struct SpVec
{
  BlockMode mode;
  int keybits;
  const char *ct;    /* CFB8: 18 bytes (F.3.7-F.3.12), else 64.  */
};
const SpVec sp800_38a[] = {
    { BlockMode::ECB, 128,
      "3ad77bb40d7a3660a89ecaf32466ef97"
        "f5d3d58503b9699de785895a96fdbaaf"
        "43b1cd7f598ece23881b00e3ed030688"
        "7b0c785e27e8ad3f8223207104725dd4" },
    { BlockMode::ECB, 192,
      "bd334f1d6e45f25ff712a214571fa5cc"
        "974104846d0ad3ad7734ecb3ecee4eef"
        "ef7afd2270e2e60adce0ba2face6444e"
        "9a4b41ba738d6c72fb16691603c18e0e" },
    { BlockMode::ECB, 256,
      "f3eed1bdb5d2a03c064b5a7e3db181f8"
        "591ccb10d410ed26dc5ba74a31362870"
        "b6ed21b99ca6f4f9f153e7b1beafed1d"
        "23304b7a39f9f3ff067d8d8f9e24ecc7" },
    { BlockMode::CBC, 128,
      "7649abac8119b246cee98e9b12e9197d"
        "5086cb9b507219ee95db113a917678b2"
        "73bed6b8e3c1743b7116e69e22229516"
        "3ff1caa1681fac09120eca307586e1a7" },
    { BlockMode::CBC, 192,
      "4f021db243bc633d7178183a9fa071e8"
        "b4d9ada9ad7dedf4e5e738763f69145a"
        "571b242012fb7ae07fa9baac3df102e0"
        "08b0e27988598881d920a9e64f5615cd" },
    { BlockMode::CBC, 256,
      "f58c4c04d6e5f1ba779eabfb5f7bfbd6"
        "9cfc4e967edb808d679f777bc6702c7d"
        "39f23369a9d9bacfa530e26304231461"
        "b2eb05e2c39be9fcda6c19078c6a9d1b" },
    { BlockMode::CFB, 128,
      "3b3fd92eb72dad20333449f8e83cfb4a"
        "c8a64537a0b3a93fcde3cdad9f1ce58b"
        "26751f67a3cbb140b1808cf187a4f4df"
        "c04b05357c5d1c0eeac4c66f9ff7f2e6" },
    { BlockMode::CFB, 192,
      "cdc80d6fddf18cab34c25909c99a4174"
        "67ce7f7f81173621961a2b70171d3d7a"
        "2e1e8a1dd59b88b1c8e60fed1efac4c9"
        "c05f9f9ca9834fa042ae8fba584b09ff" },
    { BlockMode::CFB, 256,
      "dc7e84bfda79164b7ecd8486985d3860"
        "39ffed143b28b1c832113c6331e5407b"
        "df10132415e54b92a13ed0a8267ae2f9"
        "75a385741ab9cef82031623d55b1e471" },
    { BlockMode::CFB8, 128,
      "3b79424c9c0dd436bace9e0ed4586a4f"
        "32b9" },
    { BlockMode::CFB8, 192,
      "cda2521ef0a905ca44cd057cbf0d47a0"
        "678a" },
    { BlockMode::CFB8, 256,
      "dc1f1a8520a64db55fcc8ac554844e88"
        "9700" },
    { BlockMode::OFB, 128,
      "3b3fd92eb72dad20333449f8e83cfb4a"
        "7789508d16918f03f53c52dac54ed825"
        "9740051e9c5fecf64344f7a82260edcc"
        "304c6528f659c77866a510d9c1d6ae5e" },
    { BlockMode::OFB, 192,
      "cdc80d6fddf18cab34c25909c99a4174"
        "fcc28b8d4c63837c09e81700c1100401"
        "8d9a9aeac0f6596f559c6d4daf59a5f2"
        "6d9f200857ca6c3e9cac524bd9acc92a" },
    { BlockMode::OFB, 256,
      "dc7e84bfda79164b7ecd8486985d3860"
        "4febdc6740d20b3ac88f6ad82a4fb08d"
        "71ab47a086e86eedf39d1c5bba97c408"
        "0126141d67f37be8538f5a8be740e484" },
    { BlockMode::CTR, 128,
      "874d6191b620e3261bef6864990db6ce"
        "9806f66b7970fdff8617187bb9fffdff"
        "5ae4df3edbd5d35e5b4f09020db03eab"
        "1e031dda2fbe03d1792170a0f3009cee" },
    { BlockMode::CTR, 192,
      "1abc932417521ca24f2b0459fe7e6e0b"
        "090339ec0aa6faefd5ccc2c6f4ce8e94"
        "1e36b26bd1ebc670d1bd1d665620abf7"
        "4f78a7f6d29809585a97daec58c6b050" },
    { BlockMode::CTR, 256,
      "601ec313775789a5b7a7f504bbf3d228"
        "f443e3ca4d62b59aca84e990cacaf5c5"
        "2b0930daa23de94ce87017ba2d84988d"
        "dfc9c58db67aada613c2dd08457941a6" },
};

/* One test case in a common shape.  */
struct Case
{
  std::string where;     /* File:line or standard section.  */
  BlockMode mode;
  Bytes key, iv, pt, ct;
  size_t skip = 0;       /* Leading keystream bytes to discard (Seek).  */
};

/* ---- Runners ----------------------------------------------------------- */

int
algo_for_keylen (size_t keylen)
{
  return keylen == 16 ? GCRY_CIPHER_AES
         : keylen == 24 ? GCRY_CIPHER_AES192 : GCRY_CIPHER_AES256;
}

/* Print once per suite which paths run and which are skipped.  */
void
announce_paths ()
{
  static bool done;
  if (done)
    return;
  done = true;
  std::printf ("[ paths    ] run: %s; skipped (CPU lacks feature): %s\n",
               path_names (available_paths (&_gcry_cipher_spec_aes)).c_str (),
               path_names (unavailable_paths (&_gcry_cipher_spec_aes)).c_str ());
}

/* Spec level: encrypt and decrypt C on path IMPL, with bulk slots and
 * without.  */
void
check_spec (const Case &c, const cipher_impl_info &impl)
{
  const cipher_spec *spec = aes_spec_for_keylen (c.key.size ());
  ASSERT_NE (spec, nullptr) << c.where;
  Bytes pt (c.skip, 0), ct (c.skip, 0);
  pt.insert (pt.end (), c.pt.begin (), c.pt.end ());
  ct.insert (ct.end (), c.ct.begin (), c.ct.end ());

  for (int bulk = 1; bulk >= 0; bulk--)
    {
      SpecCipher sc (spec);
      ASSERT_EQ (sc.setkey (c.key), 0) << c.where;
      EXPECT_EQ (sc.impl (), impl.name) << c.where;
      sc.setiv (c.iv);
      Bytes out = sc.crypt (c.mode, pt, true, bulk);
      if (c.skip)
        out.erase (out.begin (), out.begin () + c.skip);
      EXPECT_EQ (hex_encode (out), hex_encode (c.ct))
        << c.where << " spec-level encrypt, path " << impl.name
        << (bulk ? " (bulk)" : " (single-block)");

      sc.setiv (c.iv);
      Bytes back = sc.crypt (c.mode, ct, false, bulk);
      if (c.skip)
        back.erase (back.begin (), back.begin () + c.skip);
      EXPECT_EQ (hex_encode (back), hex_encode (c.pt))
        << c.where << " spec-level decrypt, path " << impl.name
        << (bulk ? " (bulk)" : " (single-block)");
    }
}

/* Public API: one-shot encrypt and decrypt of C.  */
void
check_api (const Case &c, const cipher_impl_info &impl)
{
  const int algo = algo_for_keylen (c.key.size ());
  Bytes pt (c.skip, 0), ct (c.skip, 0), out;
  pt.insert (pt.end (), c.pt.begin (), c.pt.end ());
  ct.insert (ct.end (), c.ct.begin (), c.ct.end ());
  std::string used;

  gcry_error_t err = api_crypt (algo, c.mode, c.key, c.iv, pt, true, &out,
                                &used);
  ASSERT_EQ (err, 0u) << c.where << ": " << gcry_strerror (err);
  EXPECT_EQ (used, impl.name) << c.where;
  if (c.skip)
    out.erase (out.begin (), out.begin () + c.skip);
  EXPECT_EQ (hex_encode (out), hex_encode (c.ct))
    << c.where << " API encrypt, path " << impl.name;

  err = api_crypt (algo, c.mode, c.key, c.iv, ct, false, &out);
  ASSERT_EQ (err, 0u) << c.where << ": " << gcry_strerror (err);
  if (c.skip)
    out.erase (out.begin (), out.begin () + c.skip);
  EXPECT_EQ (hex_encode (out), hex_encode (c.pt))
    << c.where << " API decrypt, path " << impl.name;
}

enum class Level { Spec, Api };

void
run_cases (const std::vector<Case> &cases, Level level)
{
  announce_paths ();
  ASSERT_FALSE (cases.empty ());
  for (const cipher_impl_info *impl : available_paths (&_gcry_cipher_spec_aes))
    {
      ScopedPath force (*impl);
      for (const Case &c : cases)
        {
          if (level == Level::Spec)
            check_spec (c, *impl);
          else
            check_api (c, *impl);
        }
      std::printf ("[ path     ] %-8s %zu vectors (%s level)\n", impl->name,
                   cases.size (), level == Level::Spec ? "spec" : "API");
    }
}

std::vector<Case>
fips197_cases ()
{
  std::vector<Case> v;
  for (const auto &f : fips197_c)
    {
      Case c;
      c.where = "FIPS-197 C (" + std::to_string (8 * f.keylen) + ")";
      c.mode = BlockMode::ECB;
      for (size_t i = 0; i < f.keylen; i++)
        c.key.push_back ((uint8_t)i);
      for (int i = 0; i < 16; i++)
        c.pt.push_back ((uint8_t)(0x11 * i));
      c.ct = hex_decode (f.ct);
      v.push_back (c);
    }
  return v;
}

std::vector<Case>
sp800_38a_cases ()
{
  std::vector<Case> v;
  for (const auto &s : sp800_38a)
    {
      Case c;
      c.where = std::string ("SP 800-38A F ") + mode_name (s.mode) + "-AES"
                + std::to_string (s.keybits);
      c.mode = s.mode;
      c.key = hex_decode (sp_keys[(s.keybits - 128) / 64]);
      c.pt = hex_decode (sp_plain);
      c.ct = hex_decode (s.ct);
      c.pt.resize (c.ct.size ());
      if (s.mode == BlockMode::CTR)
        c.iv = hex_decode (sp_ctr);
      else if (s.mode != BlockMode::ECB)
        c.iv = hex_decode (sp_iv);
      v.push_back (c);
    }
  return v;
}

/* Botan sections: "[AES-128]", "[AES-128/CBC/NoPadding]",
 * "[AES-128/CBC/PKCS7]", "[AES-128/CFB]", "[AES-128/CFB(8)]",
 * "[CTR-BE(AES-128)]", "[OFB(AES-128)]".  Counter-width variants
 * "CTR-BE(AES-128,W)" (a W-byte counter, wrapping inside the block) and
 * CBC/CTS are not libgcrypt's CTR / plain CBC and are skipped.  */
bool
botan_section_mode (const std::string &name, BlockMode *mode, bool *pkcs7)
{
  *pkcs7 = false;
  static const char *const sizes[] = { "128", "192", "256" };
  for (const char *sz : sizes)
    {
      std::string a = std::string ("AES-") + sz;
      if (name == a)
        { *mode = BlockMode::ECB; return true; }
      if (name == a + "/CBC/NoPadding")
        { *mode = BlockMode::CBC; return true; }
      if (name == a + "/CBC/PKCS7")
        { *mode = BlockMode::CBC; *pkcs7 = true; return true; }
      if (name == a + "/CFB")
        { *mode = BlockMode::CFB; return true; }
      if (name == a + "/CFB(8)")
        { *mode = BlockMode::CFB8; return true; }
      if (name == "CTR-BE(" + a + ")")
        { *mode = BlockMode::CTR; return true; }
      if (name == "OFB(" + a + ")")
        { *mode = BlockMode::OFB; return true; }
    }
  return false;
}

Bytes
pkcs7_pad (const Bytes &in)
{
  Bytes out = in;
  size_t n = 16 - in.size () % 16;
  out.insert (out.end (), n, (uint8_t)n);
  return out;
}

/* PKCS#5/#7 padding check (RFC 8018 6.1.1 step 4 / RFC 5652 6.3).  */
bool
pkcs7_unpad (const Bytes &in, Bytes *out)
{
  if (in.empty () || in.size () % 16)
    return false;
  size_t n = in.back ();
  if (n == 0 || n > 16)
    return false;
  for (size_t i = in.size () - n; i < in.size (); i++)
    if (in[i] != n)
      return false;
  out->assign (in.begin (), in.end () - n);
  return true;
}

std::vector<Case>
botan_cases ()
{
  static const char *const files[] = { "botan/block/aes.vec",
                                       "botan/modes/cbc.vec",
                                       "botan/modes/cfb.vec",
                                       "botan/stream/ctr.vec",
                                       "botan/stream/ofb.vec" };
  std::vector<Case> v;
  for (const char *f : files)
    {
      std::vector<VecSection> secs;
      std::string err;
      const std::string path = testvector_path (f);
      if (!parse_vec_file (path, &secs, &err))
        {
          ADD_FAILURE () << err;
          continue;
        }
      size_t n = 0;
      for (const auto &s : secs)
        {
          BlockMode mode;
          bool pkcs7;
          if (!botan_section_mode (s.name, &mode, &pkcs7))
            continue;
          for (const auto &r : s.records)
            {
              Case c;
              c.where = std::string (f) + ":" + std::to_string (r.line)
                        + " [" + s.name + "]";
              c.mode = mode;
              c.key = r.bytes ("Key");
              c.iv = r.bytes ("Nonce");
              c.ct = r.bytes ("Out");
              c.pt = r.has ("In") ? r.bytes ("In") : Bytes (c.ct.size (), 0);
              /* Botan zero-extends a short nonce to the block size.  */
              if (mode == BlockMode::CTR && c.iv.size () < 16)
                c.iv.resize (16, 0);
              if (r.has ("Seek"))
                {
                  /* Start SEEK bytes into the key stream.  CTR: advance
                   * the counter by whole blocks here (Botan has a 100 MiB
                   * seek) and discard the rest.  */
                  uint64_t seek = std::stoull (r.str ("Seek"));
                  if (mode == BlockMode::CTR)
                    {
                      uint64_t add = seek / 16;
                      for (size_t i = 16; i-- > 0 && add;)
                        {
                          uint64_t sum = c.iv[i] + (add & 0xff);
                          c.iv[i] = (uint8_t)sum;
                          add = (add >> 8) + (sum >> 8);
                        }
                      seek %= 16;
                    }
                  c.skip = (size_t)seek;
                }
              if (pkcs7)
                c.pt = pkcs7_pad (c.pt);
              if (c.pt.size () != c.ct.size ())
                {
                  ADD_FAILURE () << c.where << ": In/Out lengths differ";
                  continue;
                }
              v.push_back (c);
              n++;
            }
        }
      std::printf ("[ vectors  ] %s: %zu AES records\n", f, n);
      EXPECT_GT (n, 0u) << f;
    }
  return v;
}

}  // namespace

/* ---- Tests ----------------------------------------------------------- */

TEST (AesKat, Names)
{
  EXPECT_STREQ (_gcry_cipher_spec_aes.name, "AES");
  EXPECT_STREQ (_gcry_cipher_spec_aes192.name, "AES192");
  EXPECT_STREQ (_gcry_cipher_spec_aes256.name, "AES256");
  EXPECT_EQ (_gcry_cipher_spec_aes.keylen, 128u);
  EXPECT_EQ (_gcry_cipher_spec_aes192.keylen, 192u);
  EXPECT_EQ (_gcry_cipher_spec_aes256.keylen, 256u);
  EXPECT_EQ (_gcry_cipher_spec_aes.blocksize, 16u);
  EXPECT_STREQ (_gcry_cipher_spec_aes.impls[_gcry_cipher_spec_aes.n_impls - 1]
                  .name, "generic");
}

TEST (AesKat, KeyLengths)
{
  /* libgcrypt: every AES id takes 16, 24 and 32 bytes, nothing else.  */
  for (const cipher_spec *spec : { &_gcry_cipher_spec_aes,
                                   &_gcry_cipher_spec_aes192,
                                   &_gcry_cipher_spec_aes256 })
    for (size_t kl = 0; kl <= 40; kl++)
      {
        SpecCipher sc (spec);
        Bytes key (kl, 0x5a);
        gcry_err_code_t ec = sc.setkey (key);
        if (kl == 16 || kl == 24 || kl == 32)
          EXPECT_EQ (ec, GPG_ERR_NO_ERROR) << spec->name << " " << kl;
        else
          EXPECT_EQ (ec, GPG_ERR_INV_KEYLEN) << spec->name << " " << kl;
      }
}

TEST (AesKat, SelfTest)
{
  EXPECT_EQ (_gcry_cipher_spec_aes.selftest (), nullptr);
}

TEST (AesKat, Fips197SpecLevel) { run_cases (fips197_cases (), Level::Spec); }
TEST (AesKat, Fips197Api) { run_cases (fips197_cases (), Level::Api); }
TEST (AesKat, Sp800_38aSpecLevel) { run_cases (sp800_38a_cases (), Level::Spec); }
TEST (AesKat, Sp800_38aApi) { run_cases (sp800_38a_cases (), Level::Api); }
TEST (AesKat, BotanSpecLevel) { run_cases (botan_cases (), Level::Spec); }
TEST (AesKat, BotanApi) { run_cases (botan_cases (), Level::Api); }

/* Wycheproof AES-CBC-PKCS5: valid vectors encrypt to ct and decrypt
 * back; invalid ones must fail at decryption (length) or unpadding.  */
TEST (AesKat, WycheproofCbcPkcs5Api)
{
  announce_paths ();
  Json root;
  std::string err;
  ASSERT_TRUE (load_json_file (testvector_path ("wycheproof/aes_cbc_pkcs5_test.json"),
                               &root, &err)) << err;
  const Json &groups = root["testGroups"];
  ASSERT_GT (groups.size (), 0u);

  for (const cipher_impl_info *impl : available_paths (&_gcry_cipher_spec_aes))
    {
      ScopedPath force (*impl);
      size_t nvalid = 0, ninvalid = 0;
      for (size_t g = 0; g < groups.size (); g++)
        {
          const Json &tests = groups[g]["tests"];
          for (size_t t = 0; t < tests.size (); t++)
            {
              const Json &tc = tests[t];
              const std::string where = "wycheproof tcId "
                                        + std::to_string (tc["tcId"].i ());
              Bytes key = hex_decode (tc["key"].s ());
              Bytes iv = hex_decode (tc["iv"].s ());
              Bytes msg = hex_decode (tc["msg"].s ());
              Bytes ct = hex_decode (tc["ct"].s ());
              const bool valid = tc["result"].s () != "invalid";
              const int algo = algo_for_keylen (key.size ());
              Bytes out, unpadded;

              if (valid)
                {
                  gcry_error_t e = api_crypt (algo, BlockMode::CBC, key, iv,
                                              pkcs7_pad (msg), true, &out);
                  ASSERT_EQ (e, 0u) << where << ": " << gcry_strerror (e);
                  EXPECT_EQ (hex_encode (out), hex_encode (ct)) << where;
                  e = api_crypt (algo, BlockMode::CBC, key, iv, ct, false,
                                 &out);
                  ASSERT_EQ (e, 0u) << where << ": " << gcry_strerror (e);
                  ASSERT_TRUE (pkcs7_unpad (out, &unpadded)) << where;
                  EXPECT_EQ (hex_encode (unpadded), hex_encode (msg)) << where;
                  nvalid++;
                }
              else
                {
                  gcry_error_t e = api_crypt (algo, BlockMode::CBC, key, iv,
                                              ct, false, &out);
                  EXPECT_TRUE (e != 0 || !pkcs7_unpad (out, &unpadded))
                    << where << " (invalid) was accepted";
                  ninvalid++;
                }
            }
        }
      std::printf ("[ path     ] %-8s wycheproof: %zu valid, %zu invalid\n",
                   impl->name, nvalid, ninvalid);
    }
}

/* ==== Paths against generic ========================================== */

namespace {

uint64_t
test_seed ()
{
  return suite_seed (0x6763697068657231ull);
}

const cipher_impl_info *
generic_impl ()
{
  const cipher_spec &s = _gcry_cipher_spec_aes;
  return &s.impls[s.n_impls - 1];
}

/* Non-generic paths this CPU has; prints the skipped ones.  */
std::vector<const cipher_impl_info *>
fast_paths ()
{
  std::vector<const cipher_impl_info *> v;
  for (const auto *i : available_paths (&_gcry_cipher_spec_aes))
    if (std::strcmp (i->name, "generic") != 0)
      v.push_back (i);
  static bool told;
  if (!told)
    {
      told = true;
      std::printf ("[ paths    ] against generic: %s; skipped (CPU lacks "
                   "feature): %s\n", path_names (v).c_str (),
                   path_names (unavailable_paths (&_gcry_cipher_spec_aes))
                     .c_str ());
    }
  return v;
}

const size_t key_lengths[3] = { 16, 24, 32 };

bool
block_mode (BlockMode m)
{
  return m == BlockMode::ECB || m == BlockMode::CBC;
}

/* An IV / initial counter: random, or for CTR every third one just below
 * a carry out of the low 64 bits, every third just below 2^128.  */
Bytes
make_iv (Prng &rng, BlockMode m, unsigned int t)
{
  Bytes iv = rng.bytes (16);
  if (m == BlockMode::CTR)
    {
      const unsigned int below = 1 + (unsigned int)rng.below (24);
      if (t % 3 == 1)
        {
          std::memset (iv.data () + 8, 0xff, 8);
          iv[15] = (uint8_t)(0x100 - below);
        }
      else if (t % 3 == 2)
        {
          std::memset (iv.data (), 0xff, 16);
          iv[15] = (uint8_t)(0x100 - below);
        }
    }
  return iv;
}

/* Random split of LEN into chunks (multiples of UNIT but the last may be
 * anything if UNIT is 1).  Mostly small pieces, sometimes large ones.  */
std::vector<size_t>
make_chunks (Prng &rng, size_t len, size_t unit)
{
  std::vector<size_t> v;
  while (len)
    {
      size_t maxn = len / unit;
      size_t n = rng.below (4) == 0 ? rng.below (maxn + 1)
                                    : rng.below ((maxn < 40 ? maxn : 40) + 1);
      v.push_back (n * unit);
      len -= n * unit;
    }
  return v;
}

/* ---- Bulk level ------------------------------------------------------ */

void
bulk_vs_single (BlockMode m)
{
  const uint64_t seed = test_seed () ^ (0x100 + (uint64_t)m);
  Prng rng (seed);
  const cipher_impl_info *gen = generic_impl ();

  for (const cipher_impl_info *impl : available_paths (&_gcry_cipher_spec_aes))
    {
      unsigned int checked = 0;
      for (unsigned int t = 0; t < 1000; t++)
        {
          const size_t keylen = key_lengths[t % 3];
          const cipher_spec *spec = aes_spec_for_keylen (keylen);
          const Bytes key = rng.bytes (keylen);
          const Bytes iv = make_iv (rng, m, t);
          const size_t nblocks = t < 40 ? t : rng.below (300);
          const bool encrypt = rng.below (2);
          const bool inplace = rng.below (2);
          const size_t off_in = rng.below (16), off_out = rng.below (16);
          const Bytes data = rng.bytes (16 * nblocks);

          SpecCipher fast (spec), ref (spec);
          {
            ScopedPath force (*impl);
            ASSERT_EQ (fast.setkey (key), 0);
          }
          ASSERT_EQ (fast.impl (), impl->name);
          {
            ScopedPath force (*gen);
            ASSERT_EQ (ref.setkey (key), 0);
          }
          ASSERT_EQ (ref.impl (), std::string ("generic"));
          fast.setiv (iv);
          ref.setiv (iv);

          Bytes bin (16 * nblocks + 32), bout (16 * nblocks + 32);
          if (!data.empty ())   /* data.data () may be NULL */
            std::memcpy (bin.data () + off_in, data.data (), data.size ());
          uint8_t *in = bin.data () + off_in;
          uint8_t *out = inplace ? in : bout.data () + off_out;
          fast.crypt (m, out, in, data.size (), encrypt, true);
          Bytes got (out, out + data.size ());
          Bytes want = ref.crypt (m, data, encrypt, false);

          ASSERT_EQ (hex_encode (got), hex_encode (want))
            << "bulk " << impl->name << " " << mode_name (m)
            << (encrypt ? " enc" : " dec") << " keylen " << keylen
            << " nblocks " << nblocks << (inplace ? " in place" : "")
            << " offsets " << off_in << "/" << off_out << " iv "
            << hex_encode (iv) << " (seed " << seed << ", t " << t << ")";
          ASSERT_EQ (hex_encode (fast.iv ()), hex_encode (ref.iv ()))
            << "final IV/counter, bulk " << impl->name << " "
            << mode_name (m) << " nblocks " << nblocks;
          checked++;
        }
      std::printf ("[ path     ] %-8s bulk %-4s: %u cases vs generic "
                   "single-block\n", impl->name, mode_name (m), checked);
    }
}

/* ---- API level ------------------------------------------------------- */

/* Open ALGO/M and key it with the path IMPL forced.  */
void
open_forced (ApiHandle *a, const cipher_impl_info &impl, int algo,
             BlockMode m, const Bytes &key)
{
  ScopedPath force (impl);
  ASSERT_EQ (gcry_cipher_open (&a->h, algo, gcry_mode_of (m), 0), 0u);
  ASSERT_EQ (gcry_cipher_setkey (a->h, key.data (), key.size ()), 0u);
  ASSERT_STREQ (a->h->impl_name, impl.name);
}

/* Run DATA through H in the given chunks (in place or OUT-of-place at
 * the given offsets); returns the output.  */
Bytes
api_run (gcry_cipher_hd_t h, BlockMode m, const Bytes &iv, const Bytes &data,
         const std::vector<size_t> &chunks, bool encrypt, bool inplace,
         size_t off_in, size_t off_out)
{
  Bytes bin (data.size () + 32), bout (data.size () + 32);
  if (!data.empty ())   /* data.data () may be NULL */
    std::memcpy (bin.data () + off_in, data.data (), data.size ());
  uint8_t *in = bin.data () + off_in;
  uint8_t *out = inplace ? in : bout.data () + off_out;
  gcry_error_t err = m == BlockMode::CTR ? gcry_cipher_setctr (h, iv.data (), 16)
                                         : gcry_cipher_setiv (h, iv.data (), 16);
  EXPECT_EQ (err, 0u);
  size_t pos = 0;
  for (size_t n : chunks)
    {
      err = encrypt ? gcry_cipher_encrypt (h, out + pos, n, in + pos, n)
                    : gcry_cipher_decrypt (h, out + pos, n, in + pos, n);
      EXPECT_EQ (err, 0u) << gcry_strerror (err);
      pos += n;
    }
  return Bytes (out, out + data.size ());
}

/* Lengths to try: every byte length 0..4096 for CFB, OFB and CTR; every
 * block count 0..256 (4096 bytes) four times over for ECB and CBC (with
 * fresh offsets, chunking, key and IV); CFB8 costs a block encryption per
 * byte, so it gets 0..300 and 200 random lengths up to 4096.  */
std::vector<size_t>
api_lengths (BlockMode m, Prng &rng)
{
  std::vector<size_t> v;
  if (block_mode (m))
    {
      for (int pass = 0; pass < 4; pass++)
        for (size_t nb = 0; nb <= 256; nb++)
          v.push_back (16 * nb);
      return v;
    }
  if (m != BlockMode::CFB8)
    {
      for (size_t l = 0; l <= 4096; l++)
        v.push_back (l);
      return v;
    }
  for (size_t l = 0; l <= 300; l++)
    v.push_back (l);
  for (size_t i = 0; i < 200; i++)
    v.push_back (301 + rng.below (4096 - 300));
  v.push_back (4096);
  return v;
}

void
api_vs_generic (BlockMode m)
{
  const uint64_t seed = test_seed () ^ (0x200 + (uint64_t)m);
  const auto fast = fast_paths ();
  if (fast.empty ())
    GTEST_SKIP () << "no non-generic AES path on this CPU";

  for (const cipher_impl_info *impl : fast)
    {
      Prng rng (seed);
      const std::vector<size_t> lengths = api_lengths (m, rng);
      unsigned int t = 0, ncalls = 0;
      for (size_t len : lengths)
        {
          const size_t keylen = key_lengths[t % 3];
          const int algo = algo_for_keylen (keylen);
          const Bytes key = rng.bytes (keylen);
          const Bytes iv = make_iv (rng, m, t);
          const Bytes data = rng.bytes (len);
          const bool inplace = rng.below (2);
          const bool chunked = rng.below (2);
          const size_t off_in = rng.below (16), off_out = rng.below (16);
          const std::vector<size_t> chunks
            = chunked ? make_chunks (rng, len, block_mode (m) ? 16 : 1)
                      : std::vector<size_t> { len };
          ncalls += (unsigned int)chunks.size ();

          ApiHandle a, b;
          open_forced (&a, *impl, algo, m, key);
          open_forced (&b, *generic_impl (), algo, m, key);
          if (::testing::Test::HasFatalFailure ())
            return;

          for (int encrypt = 1; encrypt >= 0; encrypt--)
            {
              Bytes got = api_run (a.h, m, iv, data, chunks, encrypt, inplace,
                                   off_in, off_out);
              Bytes want = api_run (b.h, m, iv, data, chunks, encrypt,
                                    inplace, off_in, off_out);
              ASSERT_EQ (hex_encode (got), hex_encode (want))
                << impl->name << " vs generic, " << mode_name (m)
                << (encrypt ? " encrypt" : " decrypt") << ", keylen "
                << keylen << ", " << len << " bytes in " << chunks.size ()
                << " calls" << (inplace ? ", in place" : "")
                << ", offsets " << off_in << "/" << off_out << ", iv "
                << hex_encode (iv) << " (seed " << seed << ", case " << t
                << ")";
            }
          t++;
        }
      std::printf ("[ path     ] %-8s API  %-4s: %u cases, %u calls, vs "
                   "generic\n", impl->name, mode_name (m), t, ncalls);
    }
}

}  // namespace

TEST (AesPathsBulk, ECB) { bulk_vs_single (BlockMode::ECB); }
TEST (AesPathsBulk, CBC) { bulk_vs_single (BlockMode::CBC); }
TEST (AesPathsBulk, CFB) { bulk_vs_single (BlockMode::CFB); }
TEST (AesPathsBulk, OFB) { bulk_vs_single (BlockMode::OFB); }
TEST (AesPathsBulk, CTR) { bulk_vs_single (BlockMode::CTR); }

/* cbc_enc with CBC_MAC set: every block goes to the same 16 bytes, which
 * end as the last CBC ciphertext block, and so does the IV.  */
TEST (AesPathsBulk, CbcMac)
{
  Prng rng (test_seed () ^ 0x300);
  for (const cipher_impl_info *impl : available_paths (&_gcry_cipher_spec_aes))
    for (unsigned int t = 0; t < 200; t++)
      {
        const size_t keylen = key_lengths[t % 3];
        SpecCipher sc (aes_spec_for_keylen (keylen));
        {
          ScopedPath force (*impl);
          ASSERT_EQ (sc.setkey (rng.bytes (keylen)), 0);
        }
        if (!sc.bulk.cbc_enc)
          continue;
        const size_t nblocks = 1 + rng.below (40);
        const Bytes iv = rng.bytes (16), data = rng.bytes (16 * nblocks);
        sc.setiv (iv);
        Bytes ct = sc.crypt (BlockMode::CBC, data, true, false);
        Bytes mac (16), ivb = iv;
        sc.bulk.cbc_enc (sc.ctx, ivb.data (), mac.data (), data.data (),
                         nblocks, 1);
        const std::string last = hex_encode (ct.data () + ct.size () - 16, 16);
        ASSERT_EQ (hex_encode (mac), last) << impl->name << " " << nblocks;
        ASSERT_EQ (hex_encode (ivb), last) << impl->name << " " << nblocks;
      }
}

TEST (AesPathsApi, ECB) { api_vs_generic (BlockMode::ECB); }
TEST (AesPathsApi, CBC) { api_vs_generic (BlockMode::CBC); }
TEST (AesPathsApi, CFB) { api_vs_generic (BlockMode::CFB); }
TEST (AesPathsApi, CFB8) { api_vs_generic (BlockMode::CFB8); }
TEST (AesPathsApi, OFB) { api_vs_generic (BlockMode::OFB); }
TEST (AesPathsApi, CTR) { api_vs_generic (BlockMode::CTR); }

/* The CTR counter carries across all 128 bits and wraps to zero: encrypt
 * zeros from 2^128 - 3 for 8+ blocks with the path forced and compare
 * with counters computed here.  */
TEST (AesPathsApi, CtrWrap)
{
  for (const cipher_impl_info *impl : available_paths (&_gcry_cipher_spec_aes))
    for (int start : { 0, 1 })
      {
        const Bytes key (16, 0x24);
        Bytes ctr (16, 0xff);
        if (start == 1)
          std::memset (ctr.data (), 0, 8);   /* Just below 2^64.  */
        ctr[15] = 0xfd;
        const size_t nblocks = 19;
        Bytes zeros (16 * nblocks, 0), out;
        ScopedPath force (*impl);
        ASSERT_EQ (api_crypt (GCRY_CIPHER_AES, BlockMode::CTR, key, ctr, zeros,
                              true, &out), 0u);
        /* Expected: ECB of the counter sequence.  */
        Bytes ctrs;
        Bytes c = ctr;
        for (size_t i = 0; i < nblocks; i++)
          {
            ctrs.insert (ctrs.end (), c.begin (), c.end ());
            for (size_t k = 16; k-- > 0;)
              if (++c[k])
                break;
          }
        Bytes want;
        ASSERT_EQ (api_crypt (GCRY_CIPHER_AES, BlockMode::ECB, key, Bytes (),
                              ctrs, true, &want), 0u);
        EXPECT_EQ (hex_encode (out), hex_encode (want))
          << impl->name << (start ? " 2^64 carry" : " 2^128 wrap");
      }
}

/* The byte-15 fast path of the CTR kernels (no carry out of the last
 * byte within a batch) against the carrying path: every start value of
 * byte 15, with the bytes above it random, all-ones up to 2^64 or up to
 * 2^128, and runs of 1 block to past two full batches of the widest path
 * (32 blocks), so the carry lands in every position of a wide batch and
 * of the narrower tail steps.  A second call on the same handle checks
 * the counter the first one left.  */
TEST (AesPathsApi, CtrByte15)
{
  Prng rng (test_seed () ^ 0x400);
  const size_t runs[] = { 1, 3, 16, 17, 31, 32, 33, 63, 100 };
  for (const cipher_impl_info *impl : available_paths (&_gcry_cipher_spec_aes))
    {
      unsigned int n = 0;
      for (int prefix = 0; prefix < 3; prefix++)
        for (unsigned int b15 = 0; b15 < 256; b15++)
          for (size_t nblocks : runs)
            {
              const Bytes key = rng.bytes (16);
              Bytes ctr = rng.bytes (16);
              if (prefix == 1)
                std::memset (ctr.data () + 8, 0xff, 7);   /* 2^64 carry */
              else if (prefix == 2)
                std::memset (ctr.data (), 0xff, 15);      /* 2^128 wrap */
              ctr[15] = (uint8_t)b15;
              const size_t total = nblocks + 3;
              ApiHandle a;
              {
                ScopedPath force (*impl);
                ASSERT_EQ (gcry_cipher_open (&a.h, GCRY_CIPHER_AES,
                                             GCRY_CIPHER_MODE_CTR, 0), 0u);
                ASSERT_EQ (gcry_cipher_setkey (a.h, key.data (), 16), 0u);
              }
              ASSERT_STREQ (a.h->impl_name, impl->name);
              ASSERT_EQ (gcry_cipher_setctr (a.h, ctr.data (), 16), 0u);
              Bytes out (16 * total, 0);
              ASSERT_EQ (gcry_cipher_encrypt (a.h, out.data (), 16 * nblocks,
                                              NULL, 0), 0u);
              ASSERT_EQ (gcry_cipher_encrypt (a.h, out.data () + 16 * nblocks,
                                              48, NULL, 0), 0u);
              Bytes ctrs, c = ctr;
              for (size_t i = 0; i < total; i++)
                {
                  ctrs.insert (ctrs.end (), c.begin (), c.end ());
                  for (size_t k = 16; k-- > 0;)
                    if (++c[k])
                      break;
                }
              Bytes want;
              {
                ScopedPath force (*generic_impl ());
                ASSERT_EQ (api_crypt (GCRY_CIPHER_AES, BlockMode::ECB, key,
                                      Bytes (), ctrs, true, &want), 0u);
              }
              ASSERT_EQ (hex_encode (out), hex_encode (want))
                << impl->name << " ctr " << hex_encode (ctr) << " nblocks "
                << nblocks;
              n++;
            }
      std::printf ("[ path     ] %-8s CTR byte-15 boundary: %u runs\n",
                   impl->name, n);
    }
}
