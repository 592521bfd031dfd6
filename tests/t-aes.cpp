/* t-aes.cpp - AES known answers on every path this CPU has.
 *
 * Sources: FIPS-197 Appendix C (single block), NIST SP 800-38A Appendix F
 * (F.1 ECB, F.2 CBC, F.3 CFB8/CFB128, F.4 OFB, F.5 CTR) for all key sizes,
 * Botan's AES .vec files (block/aes.vec, modes/cbc.vec, modes/cfb.vec,
 * stream/ctr.vec, stream/ofb.vec; AES sections only) and Wycheproof
 * aes_cbc_pkcs5_test.json (padding done here).
 *
 * Every vector runs once per available path, forced with the hwf test
 * mask: at the spec level (setkey + bulk slots + single-block functions
 * driven by the reference modes in testutil) and through the public API
 * (gcry_cipher_open/setkey/setiv/encrypt/decrypt).
 */
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "testutil.h"

using namespace testutil;

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
