/* t-block128.cpp - the 128-bit-block ciphers beyond AES and Serpent, one
 * table row per algorithm family (Camellia, SM4, SEED, Twofish, ARIA;
 * more families are added as rows of block_algos[]).
 *
 *   Kat        Botan block/<family>.vec (every record whose key length
 *              the family accepts; the others must be refused with
 *              GPG_ERR_INV_KEYLEN) through the public API in ECB, with
 *              every algorithm id of the family, both directions.
 *   Standard   the known answers printed in the standards: RFC 3713
 *              Appendix A, GB/T 32907-2016 Appendix A (A.2: 1 000 000
 *              chained encryptions), RFC 4269 Appendix B, the Twofish
 *              paper's all-zero vectors, RFC 5794 Appendix A.
 *   Wycheproof camellia_cbc_pkcs5, camellia_ccm, camellia_wrap, seed_ccm,
 *              seed_gcm, sm4_ccm, sm4_gcm, aria_cbc_pkcs5, aria_ccm,
 *              aria_gcm: valid vectors must give the expected ciphertext
 *              and tag, invalid ones must be refused.
 *   System     differential against the system libgcrypt (tests/
 *              sysgcrypt.h): names, OIDs, key and block lengths, key
 *              lengths 0..40, and every mode libgcrypt allows for a
 *              16-byte block cipher (ECB, CBC, CBC-CTS, CBC-MAC, CFB,
 *              CFB8, OFB, CTR, AES-WRAP, CCM, GCM, OCB, XTS, EAX, SIV,
 *              GCM-SIV) on random keys, IVs, lengths and call splits,
 *              in place and out of place: same return codes, same bytes,
 *              same tags.  ARIA is a libgcrypt 1.11 algorithm, not in the
 *              system 1.10: its row is gcipher-only (no differential;
 *              Block128GcipherOnly checks its names, OIDs and key lengths
 *              against libgcrypt 1.11's answers, and that the system
 *              library answers as for an unknown algorithm).
 *   Paths      every SIMD path against "generic" through the API (ECB,
 *              CBC, CFB, CTR, OFB, XTS, OCB), and the ctr32le_enc slot
 *              (GCM-SIV's counter) below the API.
 *
 * Deterministic: fixed PRNG seed (GCIPHER_TEST_SEED overrides).
 */
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sysgcrypt-test.h"
#include "testutil.h"

using namespace testutil;

namespace {

uint64_t
test_seed ()
{
  return suite_seed (0x626c6f636b733130ull);
}

/* ---- The table of algorithm families ---------------------------------- */

struct BlockAlgo
{
  const char *family;
  /* Algorithm ids, each with the key length (bytes) it defaults to.  */
  std::vector<std::pair<int, size_t>> ids;
  /* Key lengths (bytes) every id of the family accepts.  */
  std::vector<size_t> keylens;
  size_t blocksize;
  /* Botan block vector file (relative to TESTVECTORS_DIR) and its
   * section, or nullptr.  */
  const char *vec_file;
  const char *vec_section;
  /* Names, aliases, OIDs and near misses for the map_name check.  */
  std::vector<const char *> names;
  /* A libgcrypt 1.11 algorithm, not in the system 1.10 (ARIA): left out
   * of the differential tests against the system library.  */
  bool gcipher_only = false;
};

const std::vector<BlockAlgo> &
block_algos ()
{
  static const std::vector<BlockAlgo> v = {
    { "Camellia",
      { { GCRY_CIPHER_CAMELLIA128, 16 }, { GCRY_CIPHER_CAMELLIA192, 24 },
        { GCRY_CIPHER_CAMELLIA256, 32 } },
      { 16, 24, 32 }, 16, "botan/block/camellia.vec", nullptr,
      { "CAMELLIA", "CAMELLIA128", "camellia128", "CAMELLIA-128",
        "CAMELLIA192", "Camellia192", "CAMELLIA256", "CAMELLIA-256",
        "1.2.392.200011.61.1.1.1.2", "1.2.392.200011.61.1.1.1.3",
        "1.2.392.200011.61.1.1.1.4", "1.2.392.200011.61.1.1.1.5",
        "0.3.4401.5.3.1.9.1", "0.3.4401.5.3.1.9.2", "0.3.4401.5.3.1.9.3",
        "0.3.4401.5.3.1.9.4", "0.3.4401.5.3.1.9.21", "0.3.4401.5.3.1.9.23",
        "0.3.4401.5.3.1.9.24", "0.3.4401.5.3.1.9.41", "0.3.4401.5.3.1.9.43",
        "0.3.4401.5.3.1.9.44", "oid.0.3.4401.5.3.1.9.44",
        "OID.1.2.392.200011.61.1.1.1.2" } },
    { "SM4", { { GCRY_CIPHER_SM4, 16 } }, { 16 }, 16,
      "botan/block/sm4.vec", "SM4",
      { "SM4", "sm4", "SM4-128", "SM4128", "1.2.156.10197.1.104.1",
        "1.2.156.10197.1.104.2", "1.2.156.10197.1.104.3",
        "1.2.156.10197.1.104.4", "1.2.156.10197.1.104.5",
        "1.2.156.10197.1.104.6", "1.2.156.10197.1.104.7",
        "1.2.156.10197.1.104.8", "oid.1.2.156.10197.1.104.7" } },
    { "SEED", { { GCRY_CIPHER_SEED, 16 } }, { 16 }, 16,
      "botan/block/seed.vec", "SEED",
      { "SEED", "seed", "SEED128", "SEED-128", "1.2.410.200004.1.3",
        "1.2.410.200004.1.4", "1.2.410.200004.1.5", "1.2.410.200004.1.6",
        "1.2.410.200004.1.7", "1.2.410.200004.1.2", "OID.1.2.410.200004.1.4" } },
    { "Twofish",
      { { GCRY_CIPHER_TWOFISH128, 16 }, { GCRY_CIPHER_TWOFISH, 32 } },
      { 16, 32 }, 16, "botan/block/twofish.vec", "Twofish",
      { "TWOFISH", "twofish", "TWOFISH128", "twofish128", "TWOFISH256",
        "TWOFISH-128", "TWOFISH-256", "TWOFISH192" } },
    { "ARIA",
      { { GCRY_CIPHER_ARIA128, 16 }, { GCRY_CIPHER_ARIA192, 24 },
        { GCRY_CIPHER_ARIA256, 32 } },
      { 16, 24, 32 }, 16, "botan/block/aria.vec", nullptr,
      { "ARIA128", "aria128", "ARIA192", "Aria192", "ARIA256", "ARIA",
        "ARIA-128", "1.2.410.200046.1.1.1", "1.2.410.200046.1.1.5",
        "1.2.410.200046.1.1.34", "1.2.410.200046.1.1.39",
        "oid.1.2.410.200046.1.1.12", "1.2.410.200046.1.1.16" },
      true },
  };
  return v;
}

bool
accepts (const BlockAlgo &a, size_t keylen)
{
  for (size_t k : a.keylens)
    if (k == keylen)
      return true;
  return false;
}

std::vector<int>
all_ids ()
{
  std::vector<int> v;
  for (const BlockAlgo &a : block_algos ())
    for (auto &p : a.ids)
      v.push_back (p.first);
  return v;
}

/* The ids the system libgcrypt 1.10 knows too (not gcipher_only).  */
std::vector<int>
system_ids ()
{
  std::vector<int> v;
  for (const BlockAlgo &a : block_algos ())
    if (!a.gcipher_only)
      for (auto &p : a.ids)
        v.push_back (p.first);
  return v;
}

/* ---- API helpers -------------------------------------------------------- */

Bytes
ecb (int algo, const Bytes &key, const Bytes &in, bool encrypt,
     gcry_error_t *err)
{
  Bytes out;
  *err = api_crypt (algo, BlockMode::ECB, key, Bytes (), in, encrypt, &out);
  return out;
}

TEST (Block128Ciphers, Registered)
{
  for (int algo : all_ids ())
    {
      const cipher_spec *spec = _gcry_cipher_spec_from_algo (algo);
      ASSERT_NE (spec, nullptr) << algo;
      EXPECT_EQ (spec->blocksize, 16u);
      EXPECT_EQ (spec->selftest (), nullptr) << spec->name;
      EXPECT_EQ (gcry_cipher_algo_info (algo, GCRYCTL_TEST_ALGO, nullptr,
                                        nullptr), 0u) << spec->name;
    }
}

/* ---- Known answers ------------------------------------------------------ */

TEST (Block128Kat, BotanVec)
{
  for (const BlockAlgo &a : block_algos ())
    {
      if (!a.vec_file)
        continue;
      std::vector<VecSection> secs;
      std::string err;
      ASSERT_TRUE (parse_vec_file (testvector_path (a.vec_file), &secs, &err))
        << err;
      unsigned int n = 0, refused = 0;
      for (const VecSection &s : secs)
        {
          if (a.vec_section && s.name != a.vec_section)
            continue;
          for (const VecRecord &r : s.records)
            {
              const Bytes key = r.bytes ("Key"), in = r.bytes ("In");
              const Bytes out = r.bytes ("Out");
              ASSERT_EQ (in.size (), out.size ());
              for (auto &id : a.ids)
                {
                  gcry_error_t e;
                  Bytes got = ecb (id.first, key, in, true, &e);
                  if (!accepts (a, key.size ()))
                    {
                      EXPECT_EQ (gcry_err_code (e), GPG_ERR_INV_KEYLEN)
                        << a.family << " line " << r.line;
                      refused++;
                      continue;
                    }
                  ASSERT_EQ (e, 0u) << a.family << " line " << r.line;
                  EXPECT_EQ (hex_encode (got), hex_encode (out))
                    << a.family << " id " << id.first << " line " << r.line;
                  got = ecb (id.first, key, out, false, &e);
                  ASSERT_EQ (e, 0u);
                  EXPECT_EQ (hex_encode (got), hex_encode (in))
                    << a.family << " id " << id.first << " line " << r.line;
                  n++;
                }
            }
        }
      EXPECT_GT (n, 0u) << a.family;
      std::printf ("[ botan    ] %-9s %u checks, %u refused key lengths\n",
                   a.family, n, refused);
    }
}

struct StdKat
{
  int algo;
  const char *key, *pt, *ct;
  const char *source;
};

const StdKat std_kats[] = {
  { GCRY_CIPHER_CAMELLIA128, "0123456789abcdeffedcba9876543210",
    "0123456789abcdeffedcba9876543210", "67673138549669730857065648eabe43",
    "RFC 3713 A (128)" },
  { GCRY_CIPHER_CAMELLIA192,
    "0123456789abcdeffedcba98765432100011223344556677",
    "0123456789abcdeffedcba9876543210", "b4993401b3e996f84ee5cee7d79b09b9",
    "RFC 3713 A (192)" },
  { GCRY_CIPHER_CAMELLIA256,
    "0123456789abcdeffedcba987654321000112233445566778899aabbccddeeff",
    "0123456789abcdeffedcba9876543210", "9acc237dff16d76c20ef7c919e3a7509",
    "RFC 3713 A (256)" },
  { GCRY_CIPHER_SM4, "0123456789abcdeffedcba9876543210",
    "0123456789abcdeffedcba9876543210", "681edf34d206965e86b3e94f536e4246",
    "GB/T 32907-2016 A.1" },
  { GCRY_CIPHER_SEED, "00000000000000000000000000000000",
    "000102030405060708090a0b0c0d0e0f", "5ebac6e0054e166819aff1cc6d346cdb",
    "RFC 4269 B.1" },
  { GCRY_CIPHER_SEED, "000102030405060708090a0b0c0d0e0f",
    "00000000000000000000000000000000", "c11f22f20140505084483597e4370f43",
    "RFC 4269 B.2" },
  { GCRY_CIPHER_SEED, "4706480851e61be85d74bfb3fd956185",
    "83a2f8a288641fb9a4e9a5cc2f131c7d", "ee54d13ebcae706d226bc3142cd40d4a",
    "RFC 4269 B.3" },
  { GCRY_CIPHER_SEED, "28dbc3bc49ffd87dcfa509b11d422be7",
    "b41e6be2eba84a148e2eed84593c5ec7", "9b9b7bfcd1813cb95d0b3618f40f5122",
    "RFC 4269 B.4" },
  { GCRY_CIPHER_TWOFISH128, "00000000000000000000000000000000",
    "00000000000000000000000000000000", "9f589f5cf6122c32b6bfec2f2ae8c35a",
    "Twofish paper, 128-bit zero key" },
  { GCRY_CIPHER_TWOFISH,
    "0000000000000000000000000000000000000000000000000000000000000000",
    "00000000000000000000000000000000", "57ff739d4dc92c1bd7fc01700cc8216f",
    "Twofish paper, 256-bit zero key" },
  { GCRY_CIPHER_ARIA128, "000102030405060708090a0b0c0d0e0f",
    "00112233445566778899aabbccddeeff", "d718fbd6ab644c739da95f3be6451778",
    "RFC 5794 A.1" },
  { GCRY_CIPHER_ARIA192, "000102030405060708090a0b0c0d0e0f1011121314151617",
    "00112233445566778899aabbccddeeff", "26449c1805dbe7aa25a468ce263a9e79",
    "RFC 5794 A.2" },
  { GCRY_CIPHER_ARIA256,
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    "00112233445566778899aabbccddeeff", "f92bd7c79fb72e2f2b8f80c1972d24fc",
    "RFC 5794 A.3" },
};

TEST (Block128Kat, Standards)
{
  for (const StdKat &k : std_kats)
    {
      gcry_error_t e;
      Bytes ct = ecb (k.algo, hex_decode (k.key), hex_decode (k.pt), true, &e);
      ASSERT_EQ (e, 0u) << k.source;
      EXPECT_EQ (hex_encode (ct), k.ct) << k.source;
      Bytes pt = ecb (k.algo, hex_decode (k.key), ct, false, &e);
      EXPECT_EQ (hex_encode (pt), k.pt) << k.source;
    }
}

/* GB/T 32907-2016 A.2: the plaintext of A.1 encrypted 1 000 000 times
 * under the same key.  */
TEST (Block128Kat, Sm4MillionIterations)
{
  ApiHandle h;
  const Bytes key = hex_decode ("0123456789abcdeffedcba9876543210");
  ASSERT_EQ (gcry_cipher_open (&h.h, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_ECB,
                               0), 0u);
  ASSERT_EQ (gcry_cipher_setkey (h.h, key.data (), key.size ()), 0u);
  Bytes buf = key;
  auto t0 = std::chrono::steady_clock::now ();
  for (int i = 0; i < 1000000; i++)
    ASSERT_EQ (gcry_cipher_encrypt (h.h, buf.data (), 16, nullptr, 0), 0u);
  double s = std::chrono::duration<double> (std::chrono::steady_clock::now ()
                                            - t0).count ();
  EXPECT_EQ (hex_encode (buf), "595298c7c6fd271f0402f804c33d3f66");
  std::printf ("[ sm4 A.2  ] 10^6 blocks in %.2f s (%.1f MB/s)\n", s,
               16.0 / s);
}

/* ---- Wycheproof ---------------------------------------------------------- */

int
algo_for (const char *family, size_t keylen)
{
  for (const BlockAlgo &a : block_algos ())
    if (!std::strcmp (a.family, family))
      for (auto &id : a.ids)
        if (id.second == keylen)
          return id.first;
  return 0;
}

Bytes
pkcs5_pad (Bytes m)
{
  size_t p = 16 - m.size () % 16;
  m.insert (m.end (), p, (uint8_t)p);
  return m;
}

bool
pkcs5_ok (const Bytes &m)
{
  if (m.empty () || m.size () % 16)
    return false;
  size_t p = m.back ();
  if (p < 1 || p > 16)
    return false;
  for (size_t i = m.size () - p; i < m.size (); i++)
    if (m[i] != p)
      return false;
  return true;
}

/* One AEAD vector (GCM or CCM) through the API.  Returns "" on the
 * expected outcome, else what went wrong.  */
std::string
aead_vector (int algo, int mode, const Json &t, size_t tagbytes)
{
  const Bytes key = hex_decode (t["key"].s ()), iv = hex_decode (t["iv"].s ());
  const Bytes aad = hex_decode (t["aad"].s ()), msg = hex_decode (t["msg"].s ());
  const Bytes ct = hex_decode (t["ct"].s ()), tag = hex_decode (t["tag"].s ());
  const bool valid = t["result"].s () != "invalid";
  for (int dir = 0; dir < 2; dir++)
    {
      ApiHandle h;
      if (gcry_cipher_open (&h.h, algo, mode, 0))
        return "open failed";
      if (gcry_cipher_setkey (h.h, key.data (), key.size ()))
        return "setkey failed";
      gcry_error_t e = gcry_cipher_setiv (h.h, iv.data (), iv.size ());
      if (!e && mode == GCRY_CIPHER_MODE_CCM)
        {
          uint64_t p[3] = { msg.size (), aad.size (), tagbytes };
          e = gcry_cipher_ctl (h.h, GCRYCTL_SET_CCM_LENGTHS, p, sizeof p);
        }
      if (!e)
        e = gcry_cipher_authenticate (h.h, aad.data (), aad.size ());
      Bytes out (msg.size ());
      if (!e && mode == GCRY_CIPHER_MODE_GCM)
        e = gcry_cipher_final (h.h);
      if (!e)
        e = dir == 0 ? gcry_cipher_encrypt (h.h, out.data (), out.size (),
                                            msg.data (), msg.size ())
                     : gcry_cipher_decrypt (h.h, out.data (), out.size (),
                                            ct.data (), ct.size ());
      if (dir == 0)
        {
          Bytes got (tagbytes);
          if (!e)
            e = gcry_cipher_gettag (h.h, got.data (), got.size ());
          if (valid && e)
            return "encryption refused: " + std::string (gcry_strerror (e));
          if (valid && (out != ct || got != tag))
            return "wrong ciphertext or tag";
        }
      else
        {
          if (!e)
            e = gcry_cipher_checktag (h.h, tag.data (), tag.size ());
          if (valid && e)
            return "decryption refused: " + std::string (gcry_strerror (e));
          if (valid && out != msg)
            return "wrong plaintext";
          if (!valid && !e)
            return "invalid vector accepted";
        }
    }
  return "";
}

TEST (Block128Wycheproof, All)
{
  struct File
  {
    const char *name, *family;
    int mode;       /* 0: CBC-PKCS5, else the mode.  */
  };
  const File files[] = {
    { "camellia_cbc_pkcs5_test.json", "Camellia", 0 },
    { "camellia_ccm_test.json", "Camellia", GCRY_CIPHER_MODE_CCM },
    { "camellia_wrap_test.json", "Camellia", GCRY_CIPHER_MODE_AESWRAP },
    { "seed_ccm_test.json", "SEED", GCRY_CIPHER_MODE_CCM },
    { "seed_gcm_test.json", "SEED", GCRY_CIPHER_MODE_GCM },
    { "sm4_ccm_test.json", "SM4", GCRY_CIPHER_MODE_CCM },
    { "sm4_gcm_test.json", "SM4", GCRY_CIPHER_MODE_GCM },
    { "aria_cbc_pkcs5_test.json", "ARIA", 0 },
    { "aria_ccm_test.json", "ARIA", GCRY_CIPHER_MODE_CCM },
    { "aria_gcm_test.json", "ARIA", GCRY_CIPHER_MODE_GCM },
  };
  for (const File &f : files)
    {
      Json j;
      std::string err;
      ASSERT_TRUE (load_json_file (testvector_path (std::string ("wycheproof/")
                                                     + f.name), &j, &err))
        << f.name << ": " << err;
      unsigned int n = 0;
      const Json &groups = j["testGroups"];
      for (size_t g = 0; g < groups.size (); g++)
        {
          const Json &grp = groups[g];
          const size_t keylen = (size_t)grp["keySize"].i () / 8;
          const int algo = algo_for (f.family, keylen);
          ASSERT_NE (algo, 0) << f.name << " keySize " << keylen;
          const Json &tests = grp["tests"];
          for (size_t i = 0; i < tests.size (); i++)
            {
              const Json &t = tests[i];
              const long long id = t["tcId"].i ();
              const bool valid = t["result"].s () != "invalid";
              const Bytes key = hex_decode (t["key"].s ());
              const Bytes msg = hex_decode (t["msg"].s ());
              const Bytes ct = hex_decode (t["ct"].s ());
              n++;
              if (f.mode == 0)
                {
                  const Bytes iv = hex_decode (t["iv"].s ());
                  Bytes out;
                  if (valid)
                    {
                      ASSERT_EQ (api_crypt (algo, BlockMode::CBC, key, iv,
                                            pkcs5_pad (msg), true, &out), 0u);
                      EXPECT_EQ (hex_encode (out), hex_encode (ct))
                        << f.name << " tcId " << id;
                    }
                  gcry_error_t e = api_crypt (algo, BlockMode::CBC, key, iv,
                                              ct, false, &out);
                  EXPECT_EQ (!e && pkcs5_ok (out), valid)
                    << f.name << " tcId " << id;
                }
              else if (f.mode == GCRY_CIPHER_MODE_AESWRAP)
                {
                  ApiHandle h;
                  ASSERT_EQ (gcry_cipher_open (&h.h, algo, f.mode, 0), 0u);
                  ASSERT_EQ (gcry_cipher_setkey (h.h, key.data (),
                                                 key.size ()), 0u);
                  Bytes out (ct.size () + 8);
                  gcry_error_t e = gcry_cipher_decrypt (h.h, out.data (),
                                                        ct.size () - 8,
                                                        ct.data (),
                                                        ct.size ());
                  if (t["result"].s () == "valid")
                    {
                      EXPECT_EQ (e, 0u) << f.name << " tcId " << id;
                      out.resize (ct.size () - 8);
                      EXPECT_EQ (hex_encode (out), hex_encode (msg))
                        << f.name << " tcId " << id;
                      Bytes w (msg.size () + 8);
                      EXPECT_EQ (gcry_cipher_encrypt (h.h, w.data (),
                                                      w.size (), msg.data (),
                                                      msg.size ()), 0u);
                      EXPECT_EQ (hex_encode (w), hex_encode (ct))
                        << f.name << " tcId " << id;
                    }
                  else if (!valid)
                    {
                      EXPECT_NE (e, 0u) << f.name << " tcId " << id;
                    }
                }
              else
                {
                  const size_t tagbytes = (size_t)grp["tagSize"].i () / 8;
                  std::string what = aead_vector (algo, f.mode, t, tagbytes);
                  EXPECT_EQ (what, "") << f.name << " tcId " << id << " ("
                                       << t["comment"].s () << ")";
                }
            }
        }
      EXPECT_GT (n, 0u) << f.name;
      std::printf ("[ wycheprf ] %-30s %u vectors\n", f.name, n);
    }
}

/* ---- Differential against the system libgcrypt --------------------------- */

/* One message: key, IV, data, AAD; how it is cut into calls; whether in
 * place.  */
struct Msg
{
  unsigned int flags = 0;
  Bytes key, iv, aad, data, tag;
  bool encrypt = true;
  size_t taglen = 16;
  std::vector<size_t> chunks;   /* Data call lengths (sum = size).  */
  bool in_place = false;
};

bool
aead_mode (int mode)
{
  return mode == GCRY_CIPHER_MODE_CCM || mode == GCRY_CIPHER_MODE_GCM
         || mode == GCRY_CIPHER_MODE_OCB || mode == GCRY_CIPHER_MODE_EAX
         || mode == GCRY_CIPHER_MODE_SIV || mode == GCRY_CIPHER_MODE_GCM_SIV;
}

/* Every return code, output byte and tag of M through (ALGO, MODE) on
 * API, as a printable transcript.  */
std::string
run (const sysgcrypt &api, int algo, int mode, const Msg &m)
{
  std::string t;
  auto rc = [&] (const char *what, gcry_error_t e) {
    t += what;
    t += "=";
    t += std::to_string (e);
    t += " ";
  };
  gcry_cipher_hd_t h = nullptr;
  gcry_error_t e = api.cipher_open (&h, algo, mode, m.flags);
  rc ("open", e);
  if (e)
    return t;
  e = api.cipher_setkey (h, m.key.data (), m.key.size ());
  rc ("setkey", e);
  if (e)
    {
      /* What a handle does after a refused key is not this suite's
       * business (libgcrypt 1.10 even crashes in setiv for AES-GCM);
       * the refusal itself must match.  */
      api.cipher_close (h);
      return t;
    }
  if (mode == GCRY_CIPHER_MODE_CTR)
    rc ("setctr", api.cipher_setctr (h, m.iv.data (), m.iv.size ()));
  else if (!m.iv.empty ())
    rc ("setiv", api.cipher_setiv (h, m.iv.data (), m.iv.size ()));
  if (mode == GCRY_CIPHER_MODE_CCM)
    {
      uint64_t p[3] = { m.data.size (), m.aad.size (), m.taglen };
      rc ("lengths", api.cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS, p, sizeof p));
    }
  if (aead_mode (mode) && !m.aad.empty ())
    {
      /* AAD in two pieces where the mode allows it.  */
      size_t a1 = mode == GCRY_CIPHER_MODE_OCB ? m.aad.size () / 32 * 16
                  : mode == GCRY_CIPHER_MODE_SIV
                    || mode == GCRY_CIPHER_MODE_GCM_SIV
                    ? 0 : m.aad.size () / 3;
      if (a1)
        rc ("aad1", api.cipher_authenticate (h, m.aad.data (), a1));
      rc ("aad",
          api.cipher_authenticate (h, m.aad.data () + a1, m.aad.size () - a1));
    }
  if ((mode == GCRY_CIPHER_MODE_SIV || mode == GCRY_CIPHER_MODE_GCM_SIV)
      && !m.encrypt)
    rc ("dectag", api.cipher_ctl (h, GCRYCTL_SET_DECRYPTION_TAG,
                                  (void *)m.tag.data (), m.tag.size ()));
  const bool wrap = mode == GCRY_CIPHER_MODE_AESWRAP;
  const size_t outlen = wrap ? (m.encrypt ? m.data.size () + 8
                                          : m.data.size () - 8)
                             : m.data.size ();
  Bytes out (m.data.size () + 8, 0);
  Bytes buf = m.data;   /* In-place buffer.  */
  buf.resize (m.data.size () + 8);
  size_t pos = 0;
  for (size_t i = 0; i < m.chunks.size (); i++)
    {
      size_t n = m.chunks[i];
      if (i + 1 == m.chunks.size () && aead_mode (mode)
          && mode != GCRY_CIPHER_MODE_CCM)
        rc ("final", api.cipher_ctl (h, GCRYCTL_FINALIZE, nullptr, 0));
      size_t on = wrap ? outlen : n;
      if (m.in_place)
        e = m.encrypt
                ? api.cipher_encrypt (h, buf.data () + pos, on, nullptr, 0)
                : api.cipher_decrypt (h, buf.data () + pos, on, nullptr, 0);
      else
        e = m.encrypt ? api.cipher_encrypt (h, out.data () + pos, on,
                                            m.data.data () + pos, n)
                      : api.cipher_decrypt (h, out.data () + pos, on,
                                            m.data.data () + pos, n);
      rc ("crypt", e);
      pos += n;
    }
  const Bytes &res = m.in_place ? buf : out;
  t += hex_encode (res.data (), outlen) + " ";
  if (aead_mode (mode))
    {
      if (m.encrypt)
        {
          Bytes tag (m.taglen);
          e = api.cipher_gettag (h, tag.data (), tag.size ());
          rc ("gettag", e);
          if (!e)
            t += "tag " + hex_encode (tag);
        }
      else if (mode != GCRY_CIPHER_MODE_SIV
               && mode != GCRY_CIPHER_MODE_GCM_SIV)
        rc ("checktag", api.cipher_checktag (h, m.tag.data (), m.tag.size ()));
    }
  api.cipher_close (h);
  return t;
}

const int all_modes[] = {
  GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_MODE_CFB,
  GCRY_CIPHER_MODE_CFB8, GCRY_CIPHER_MODE_OFB, GCRY_CIPHER_MODE_CTR,
  GCRY_CIPHER_MODE_AESWRAP, GCRY_CIPHER_MODE_CCM, GCRY_CIPHER_MODE_GCM,
  GCRY_CIPHER_MODE_OCB, GCRY_CIPHER_MODE_XTS, GCRY_CIPHER_MODE_EAX,
  GCRY_CIPHER_MODE_SIV, GCRY_CIPHER_MODE_GCM_SIV
};

/* Cut LEN bytes into calls MODE accepts: the streaming modes anywhere,
 * ECB/CBC/OCB on block boundaries (the last call takes the rest), the
 * one-shot modes (XTS, SIV, GCM-SIV, AES-WRAP, CBC-CTS, CCM is
 * streaming) in one call.  */
std::vector<size_t>
make_chunks (Prng &rng, int mode, unsigned int flags, size_t len)
{
  std::vector<size_t> v;
  const bool one = mode == GCRY_CIPHER_MODE_XTS || mode == GCRY_CIPHER_MODE_SIV
                   || mode == GCRY_CIPHER_MODE_GCM_SIV
                   || mode == GCRY_CIPHER_MODE_AESWRAP
                   || (flags & GCRY_CIPHER_CBC_CTS) || rng.below (4) == 0;
  const bool blocks = mode == GCRY_CIPHER_MODE_ECB
                      || mode == GCRY_CIPHER_MODE_CBC
                      || mode == GCRY_CIPHER_MODE_OCB;
  if (one || len == 0)
    {
      v.push_back (len);
      return v;
    }
  size_t pos = 0;
  while (pos < len)
    {
      size_t n = 1 + rng.below (rng.below (2) ? 40 : 300);
      if (blocks)
        n = 16 * (1 + rng.below (8));
      if (n >= len - pos)
        n = len - pos;
      v.push_back (n);
      pos += n;
    }
  return v;
}

Msg
make_msg (Prng &rng, const BlockAlgo &a, int mode, unsigned int t)
{
  Msg m;
  size_t keylen = a.keylens[t % a.keylens.size ()];
  if (t % 23 == 7)
    keylen = rng.below (41);   /* Mostly invalid: same error expected.  */
  if (mode == GCRY_CIPHER_MODE_XTS || mode == GCRY_CIPHER_MODE_SIV)
    keylen *= 2;
  m.key = rng.bytes (keylen);
  size_t ivlen = 16;
  switch (mode)
    {
    case GCRY_CIPHER_MODE_ECB:
    case GCRY_CIPHER_MODE_AESWRAP:
      ivlen = 0;
      break;
    case GCRY_CIPHER_MODE_CCM:
      ivlen = 7 + rng.below (7);
      break;
    case GCRY_CIPHER_MODE_GCM:
      ivlen = t % 4 ? 12 : 1 + rng.below (40);
      break;
    case GCRY_CIPHER_MODE_OCB:
      ivlen = t % 4 ? 12 : 1 + rng.below (15);
      break;
    case GCRY_CIPHER_MODE_EAX:
      ivlen = rng.below (40);
      break;
    case GCRY_CIPHER_MODE_GCM_SIV:
      ivlen = 12;
      break;
    case GCRY_CIPHER_MODE_SIV:
      ivlen = t % 2 ? 0 : 1 + rng.below (32);
      break;
    default:
      break;
    }
  m.iv = rng.bytes (ivlen);
  if (mode == GCRY_CIPHER_MODE_CTR && t % 3 == 0)
    std::memset (m.iv.data (), 0xff, 12 + rng.below (4));  /* Carries. */
  if (mode == GCRY_CIPHER_MODE_CBC)
    m.flags = t % 5 == 1 ? GCRY_CIPHER_CBC_CTS
              : t % 5 == 3 ? GCRY_CIPHER_CBC_MAC : 0;
  size_t len = t < 24 ? t * 7 : rng.below (t % 5 ? 700 : 2500);
  if (mode == GCRY_CIPHER_MODE_ECB
      || (mode == GCRY_CIPHER_MODE_CBC && !(m.flags & GCRY_CIPHER_CBC_CTS)))
    len -= len % 16;
  if (mode == GCRY_CIPHER_MODE_CBC && (m.flags & GCRY_CIPHER_CBC_CTS)
      && len < 17)
    len += 17;
  if (mode == GCRY_CIPHER_MODE_AESWRAP)
    len = 16 + 8 * rng.below (40);
  if (mode == GCRY_CIPHER_MODE_XTS && len < 16)
    len += 16;
  m.data = rng.bytes (len);
  m.aad = rng.bytes (rng.below (3) ? rng.below (100) : 0);
  if (mode == GCRY_CIPHER_MODE_CCM)
    m.taglen = 4 + 2 * rng.below (7);
  m.encrypt = rng.below (2);
  m.tag = rng.bytes (16);
  m.in_place = mode != GCRY_CIPHER_MODE_AESWRAP && rng.below (2);
  m.chunks = make_chunks (rng, mode, m.flags, len);
  return m;
}

/* Whether every "call=code" of transcript T has code 0.  */
bool
all_calls_succeeded (const std::string &t)
{
  for (size_t p = t.find ('='); p != std::string::npos; p = t.find ('=', p + 1))
    if (t.compare (p, 3, "=0 ") != 0)
      return false;
  return true;
}

/* Turn decryption message M into one of a valid ciphertext and tag:
 * the system library encrypts M's data first (one call, out of place),
 * so the authenticated modes' decryption paths run to the end.  False if
 * that encryption fails (then M is left alone).  */
bool
make_valid_ciphertext (const sysgcrypt &api, int algo, int mode, Msg *m)
{
  Msg e = *m;
  e.encrypt = true;
  e.in_place = false;
  e.chunks = { e.data.size () };
  const std::string t = run (api, algo, mode, e);
  std::vector<std::string> tok;
  for (size_t p = 0, q; p < t.size (); p = q + 1)
    {
      q = t.find (' ', p);
      if (q == std::string::npos)
        q = t.size ();
      tok.push_back (t.substr (p, q - p));
    }
  size_t crypt = tok.size (), tag = tok.size ();
  for (size_t i = 0; i + 1 < tok.size (); i++)
    {
      if (tok[i].rfind ("crypt=", 0) == 0)
        crypt = i;
      if (tok[i] == "tag")
        tag = i;
    }
  if (crypt == tok.size () || tok[crypt] != "crypt=0")
    return false;
  m->data = hex_decode (tok[crypt + 1]);
  if (tag != tok.size ())
    m->tag = hex_decode (tok[tag + 1]);
  if (mode == GCRY_CIPHER_MODE_AESWRAP)
    m->chunks = { m->data.size () };
  return true;
}

class Block128System : public SysgcryptTest {};

TEST_F (Block128System, NamesAndLengths)
{
  for (const BlockAlgo &a : block_algos ())
    {
      if (a.gcipher_only)
        continue;   /* Block128GcipherOnly.  */
      for (const char *n : a.names)
        {
          EXPECT_EQ (gcry_cipher_map_name (n), sys->cipher_map_name (n)) << n;
          EXPECT_EQ (gcry_cipher_mode_from_oid (n),
                     sys->cipher_mode_from_oid (n)) << n;
        }
      for (auto &id : a.ids)
        {
          const int algo = id.first;
          EXPECT_STREQ (gcry_cipher_algo_name (algo),
                        sys->cipher_algo_name (algo));
          EXPECT_EQ (gcry_cipher_map_name (gcry_cipher_algo_name (algo)),
                     algo);
          EXPECT_EQ (gcry_cipher_get_algo_keylen (algo),
                     sys->cipher_get_algo_keylen (algo));
          EXPECT_EQ (gcry_cipher_get_algo_keylen (algo), id.second);
          EXPECT_EQ (gcry_cipher_get_algo_blklen (algo),
                     sys->cipher_get_algo_blklen (algo));
          size_t n1 = 0, n2 = 0;
          EXPECT_EQ (gcry_cipher_algo_info (algo, GCRYCTL_GET_KEYLEN, nullptr,
                                            &n1),
                     sys->cipher_algo_info (algo, GCRYCTL_GET_KEYLEN, nullptr,
                                            &n2));
          EXPECT_EQ (n1, n2);
          for (int mode = 0; mode <= 17; mode++)
            {
              gcry_cipher_hd_t h1 = nullptr, h2 = nullptr;
              gcry_error_t e1 = gcry_cipher_open (&h1, algo, mode, 0);
              gcry_error_t e2 = sys->cipher_open (&h2, algo, mode, 0);
              EXPECT_EQ (e1, e2) << a.family << " algo " << algo << " mode "
                                 << mode;
              if (!e1)
                gcry_cipher_close (h1);
              if (!e2)
                sys->cipher_close (h2);
            }
        }
    }
}

/* EAX and SIV before a key is set: libgcrypt 1.10 runs these ciphers
 * on a zeroed key schedule, returns the tag and accepts it in checktag;
 * gcipher refuses every call that needs the key with
 * GPG_ERR_MISSING_KEY and writes no tag (doc/gcipher.md "Error codes";
 * t-badinput KeylessHandlesRefuse has the whole table).  */
TEST_F (Block128System, UnkeyedContextRefuses)
{
  const sysgcrypt &A = ours, &B = *sys;
  Prng rng (test_seed () ^ 0x300);
  for (int algo : system_ids ())
    for (int mode : { GCRY_CIPHER_MODE_EAX, GCRY_CIPHER_MODE_SIV })
      {
        const Bytes aad = rng.bytes (1 + rng.below (60));
        /* libgcrypt's tag of the unkeyed handle.  */
        Bytes sys_tag (16);
        gcry_cipher_hd_t h = nullptr;
        ASSERT_EQ (B.cipher_open (&h, algo, mode, 0), 0u) << algo;
        B.cipher_authenticate (h, aad.data (), aad.size ());
        const gcry_error_t se
            = B.cipher_gettag (h, sys_tag.data (), sys_tag.size ());
        B.cipher_close (h);
        ASSERT_EQ (A.cipher_open (&h, algo, mode, 0), 0u) << algo;
        EXPECT_EQ (gcry_err_code (
                       A.cipher_authenticate (h, aad.data (), aad.size ())),
                   GPG_ERR_MISSING_KEY)
            << "algo " << algo << " mode " << mode;
        Bytes tag (16);
        EXPECT_EQ (
            gcry_err_code (A.cipher_gettag (h, tag.data (), tag.size ())),
            GPG_ERR_MISSING_KEY)
            << "algo " << algo << " mode " << mode;
        EXPECT_EQ (tag, Bytes (16)) << "a tag without a key";
        if (!se)
          EXPECT_EQ (gcry_err_code (A.cipher_checktag (h, sys_tag.data (),
                                                       sys_tag.size ())),
                     GPG_ERR_MISSING_KEY)
              << "algo " << algo << " mode " << mode;
        A.cipher_close (h);
      }
}

TEST_F (Block128System, KeyLengths)
{
  const sysgcrypt &A = ours, &B = *sys;
  Prng rng (test_seed () ^ 0x100);
  unsigned int accepted = 0, n = 0;
  for (int algo : system_ids ())
    for (size_t kl = 0; kl <= 40; kl++)
      {
        Msg m;
        m.key = rng.bytes (kl);
        m.data = rng.bytes (16 * 4);
        m.chunks = { m.data.size () };
        for (bool enc : { true, false })
          {
            m.encrypt = enc;
            const std::string got = run (A, algo, GCRY_CIPHER_MODE_ECB, m);
            ASSERT_EQ (got, run (B, algo, GCRY_CIPHER_MODE_ECB, m))
              << "algo " << algo << " keylen " << kl;
            accepted += got.find ("setkey=0 ") != std::string::npos;
            n++;
          }
      }
  std::printf ("[ keylen   ] %u ECB runs, %u with an accepted key\n", n,
               accepted);
  EXPECT_EQ (accepted, 2u * (3 * 3 + 1 + 1 + 2 * 2));
}

TEST_F (Block128System, AllModes)
{
  const sysgcrypt &A = ours, &B = *sys;
  for (const BlockAlgo &a : block_algos ())
    for (int mode : all_modes)
      {
        if (a.gcipher_only)
          continue;   /* No reference: Block128Paths and Wycheproof.  */
        Prng rng (test_seed () ^ (0x200 + (uint64_t)mode)
                  ^ ((uint64_t)a.ids[0].first << 20));
        const unsigned int n = mode == GCRY_CIPHER_MODE_CFB8 ? 40 : 90;
        unsigned int ok = 0;
        for (unsigned int t = 0; t < n; t++)
          {
            Msg m = make_msg (rng, a, mode, t);
            const int algo = a.ids[t % a.ids.size ()].first;
            if (!m.encrypt && (aead_mode (mode)
                               || mode == GCRY_CIPHER_MODE_AESWRAP)
                && t % 3)
              make_valid_ciphertext (B, algo, mode, &m);
            std::string want = run (B, algo, mode, m);
            std::string got = run (A, algo, mode, m);
            ASSERT_EQ (got, want)
              << a.family << " algo " << algo << " mode " << mode
              << " flags " << m.flags << " keylen " << m.key.size ()
              << " ivlen " << m.iv.size () << " len " << m.data.size ()
              << " aad " << m.aad.size () << " calls " << m.chunks.size ()
              << (m.encrypt ? " enc" : " dec")
              << (m.in_place ? " in place" : "") << " (case " << t << ")";
            ok += all_calls_succeeded (want);
          }
        std::printf ("[ system   ] %-9s mode %2d: %u messages match (%u "
                     "accepted)\n", a.family, mode, n, ok);
      }
}

/* The gcipher-only families (ARIA: libgcrypt 1.11's algorithm, not in
 * the system 1.10) against libgcrypt 1.11's answers: names (case-
 * insensitive, no aliases), OIDs (the NSRI arc 1.2.410.200046.1.1: .1-.5
 * ECB, CBC, CFB, OFB, CTR for 128-bit keys, +5 for 192, +10 for 256,
 * .34-.36 GCM, .37-.39 CCM), default key and block lengths, every id
 * accepting 16, 24 and 32 bytes and nothing else; and the system
 * library answering as for an unknown algorithm.  */
TEST (Block128GcipherOnly, NamesOidsKeyLengths)
{
  const struct { int algo; const char *name; int base; } aria[] = {
    { GCRY_CIPHER_ARIA128, "ARIA128", 1 },
    { GCRY_CIPHER_ARIA192, "ARIA192", 6 },
    { GCRY_CIPHER_ARIA256, "ARIA256", 11 },
  };
  const int modes5[] = { GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC,
                         GCRY_CIPHER_MODE_CFB, GCRY_CIPHER_MODE_OFB,
                         GCRY_CIPHER_MODE_CTR };
  for (size_t i = 0; i < 3; i++)
    {
      const int algo = aria[i].algo;
      EXPECT_STREQ (gcry_cipher_algo_name (algo), aria[i].name);
      EXPECT_EQ (gcry_cipher_map_name (aria[i].name), algo);
      std::string lower (aria[i].name);
      for (char &c : lower)
        c = (char) std::tolower ((unsigned char) c);
      EXPECT_EQ (gcry_cipher_map_name (lower.c_str ()), algo);
      EXPECT_EQ (gcry_cipher_get_algo_keylen (algo), 16 + 8 * i);
      EXPECT_EQ (gcry_cipher_get_algo_blklen (algo), 16u);
      for (int k = 0; k < 7; k++)
        {
          const int arc = k < 5 ? aria[i].base + k
                                : (k == 5 ? 34 : 37) + (int) i;
          const int mode = k < 5 ? modes5[k]
                                 : k == 5 ? GCRY_CIPHER_MODE_GCM
                                          : GCRY_CIPHER_MODE_CCM;
          const std::string oid = "1.2.410.200046.1.1." + std::to_string (arc);
          EXPECT_EQ (gcry_cipher_map_name (oid.c_str ()), algo) << oid;
          EXPECT_EQ (gcry_cipher_map_name (("oid." + oid).c_str ()), algo);
          EXPECT_EQ (gcry_cipher_mode_from_oid (oid.c_str ()), mode) << oid;
        }
      for (size_t kl = 0; kl <= 40; kl++)
        {
          ApiHandle h;
          ASSERT_EQ (gcry_cipher_open (&h.h, algo, GCRY_CIPHER_MODE_ECB, 0),
                     0u);
          const Bytes key (kl, 0x5a);
          const gcry_error_t e = gcry_cipher_setkey (h.h, key.data (), kl);
          EXPECT_EQ (gcry_err_code (e), kl == 16 || kl == 24 || kl == 32
                                          ? GPG_ERR_NO_ERROR
                                          : GPG_ERR_INV_KEYLEN)
            << aria[i].name << " keylen " << kl;
        }
    }
  for (const char *n : { "ARIA", "ARIA-128", "ARIA_128", "aria 128",
                         "1.2.410.200046.1.1.16", "1.2.410.200046.1.1.33",
                         "1.2.410.200046.1.1", "1.2.410.200046.1.1.40" })
    {
      EXPECT_EQ (gcry_cipher_map_name (n), 0) << n;
      EXPECT_EQ (gcry_cipher_mode_from_oid (n), 0) << n;
    }
  const sysgcrypt *sys = sysgcrypt_load ();
  if (!sys)
    GTEST_SKIP () << sysgcrypt_error ();
  for (size_t i = 0; i < 3; i++)
    {
      EXPECT_TRUE (testutil::libgcrypt111_only_algo (aria[i].algo));
      EXPECT_STREQ (sys->cipher_algo_name (aria[i].algo), "?");
      EXPECT_EQ (sys->cipher_map_name (aria[i].name), 0);
      gcry_cipher_hd_t h = nullptr;
      EXPECT_EQ (gcry_err_code (sys->cipher_open (&h, aria[i].algo,
                                                  GCRY_CIPHER_MODE_ECB, 0)),
                 GPG_ERR_CIPHER_ALGO);
    }
}

}  // namespace

/* ---- Paths: each SIMD path against "generic" ------------------------- */

/* Every non-generic path of Camellia, SM4, Twofish and ARIA this CPU has,
 * forced
 * through the API (ScopedPath) against the generic path forced the same
 * way: ECB, CBC, CFB, CTR, OFB, XTS, OCB (with AAD in two calls), every
 * one with bulk slots; random keys, IVs / counters (some just below a
 * 2^64 or 2^128 carry),
 * lengths up to past three of the widest batches, random call splits,
 * in place and out of place, both directions.  */
struct path_family
{
  const char *family;
  const cipher_spec *spec;
  std::vector<int> algos;
};

TEST (Block128Paths, VsGeneric)
{
  const path_family fams[] = {
    { "Camellia", &_gcry_cipher_spec_camellia128,
      { GCRY_CIPHER_CAMELLIA128, GCRY_CIPHER_CAMELLIA192,
        GCRY_CIPHER_CAMELLIA256 } },
    { "SM4", &_gcry_cipher_spec_sm4, { GCRY_CIPHER_SM4 } },
    { "Twofish", &_gcry_cipher_spec_twofish,
      { GCRY_CIPHER_TWOFISH128, GCRY_CIPHER_TWOFISH } },
    { "ARIA", &_gcry_cipher_spec_aria128,
      { GCRY_CIPHER_ARIA128, GCRY_CIPHER_ARIA192, GCRY_CIPHER_ARIA256 } },
  };
  const int modes[] = { GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC,
                        GCRY_CIPHER_MODE_CFB, GCRY_CIPHER_MODE_CTR,
                        GCRY_CIPHER_MODE_OFB, GCRY_CIPHER_MODE_XTS,
                        GCRY_CIPHER_MODE_OCB };
  for (const path_family &f : fams)
    {
      const auto paths = available_paths (f.spec);
      for (const cipher_impl_info *impl : unavailable_paths (f.spec))
        std::printf ("[ path     ] %-8s %-11s skipped (this CPU lacks "
                     "it)\n", f.family, impl->name);
      const cipher_impl_info &gen = f.spec->impls[f.spec->n_impls - 1];
      for (const cipher_impl_info *impl : paths)
        {
          if (!std::strcmp (impl->name, "generic"))
            continue;
          for (int mode : modes)
            {
              Prng rng (test_seed () ^ (0x500 + (uint64_t)mode)
                        ^ ((uint64_t)f.algos[0] << 24));
              const bool whole = mode == GCRY_CIPHER_MODE_ECB
                                 || mode == GCRY_CIPHER_MODE_CBC
                                 || mode == GCRY_CIPHER_MODE_XTS;
              const unsigned int ncases = 60;
              for (unsigned int t = 0; t < ncases; t++)
                {
                  const int algo = f.algos[t % f.algos.size ()];
                  const size_t keylen
                    = gcry_cipher_get_algo_keylen (algo)
                      * (mode == GCRY_CIPHER_MODE_XTS ? 2 : 1);
                  const Bytes key = rng.bytes (keylen);
                  Bytes iv = rng.bytes (mode == GCRY_CIPHER_MODE_OCB ? 12
                                                                     : 16);
                  if (mode == GCRY_CIPHER_MODE_CTR && t % 3)
                    {
                      std::memset (iv.data () + (t % 3 == 1 ? 8 : 0), 0xff,
                                   t % 3 == 1 ? 8 : 16);
                      iv[15] = (uint8_t)(0x100 - 1 - rng.below (70));
                    }
                  size_t nb = t < 8 ? t : rng.below (3 * 64 + 8);
                  size_t len = 16 * nb;
                  if (!whole && mode != GCRY_CIPHER_MODE_OCB && rng.below (2))
                    len += rng.below (16);
                  if (mode == GCRY_CIPHER_MODE_XTS && len == 0)
                    len = 16;
                  const Bytes data = rng.bytes (len);
                  /* Random splits (XTS: one call per data unit).  */
                  std::vector<size_t> chunks;
                  size_t rest = len;
                  while (rest)
                    {
                      size_t n = (mode == GCRY_CIPHER_MODE_XTS
                                  || mode == GCRY_CIPHER_MODE_OCB
                                  || rng.below (3) == 0)
                                   ? rest
                                   : 16 * rng.below (rest / 16 + 1);
                      if (n == 0 || n > rest)
                        n = rest;
                      chunks.push_back (n);
                      rest -= n;
                    }
                  if (chunks.empty () && mode == GCRY_CIPHER_MODE_OCB)
                    chunks.push_back (0);
                  const bool inplace = rng.below (2);
                  const Bytes aad
                    = rng.bytes (mode == GCRY_CIPHER_MODE_OCB
                                   ? rng.below (3 * 64 * 16 + 40) : 0);
                  const size_t aad_split = 16 * rng.below (aad.size () / 16
                                                           + 1);
                  for (int encrypt = 1; encrypt >= 0; encrypt--)
                    {
                      std::string res[2];
                      for (int k = 0; k < 2; k++)
                        {
                          ScopedPath force (k ? gen : *impl);
                          ApiHandle h;
                          ASSERT_EQ (gcry_cipher_open (&h.h, algo, mode, 0),
                                     0u);
                          ASSERT_EQ (gcry_cipher_setkey (h.h, key.data (),
                                                         key.size ()), 0u);
                          ASSERT_STREQ (h.h->impl_name,
                                        k ? gen.name : impl->name);
                          if (mode == GCRY_CIPHER_MODE_CTR)
                            {
                              ASSERT_EQ (gcry_cipher_setctr (h.h, iv.data (),
                                                             16), 0u);
                            }
                          else if (mode != GCRY_CIPHER_MODE_ECB)
                            {
                              ASSERT_EQ (gcry_cipher_setiv (h.h, iv.data (),
                                                            iv.size ()), 0u);
                            }
                          if (mode == GCRY_CIPHER_MODE_OCB)
                            {
                              ASSERT_EQ (gcry_cipher_authenticate (
                                           h.h, aad.data (), aad_split), 0u);
                              ASSERT_EQ (gcry_cipher_authenticate (
                                           h.h, aad.data () + aad_split,
                                           aad.size () - aad_split), 0u);
                            }
                          Bytes in = data, outb (len + 1);
                          uint8_t *out = inplace ? in.data () : outb.data ();
                          size_t pos = 0;
                          for (size_t n : chunks)
                            {
                              if (mode == GCRY_CIPHER_MODE_OCB
                                  && pos + n == len)
                                gcry_cipher_final (h.h);
                              gcry_error_t err
                                = encrypt
                                    ? gcry_cipher_encrypt (h.h, out + pos, n,
                                                           in.data () + pos, n)
                                    : gcry_cipher_decrypt (h.h, out + pos, n,
                                                           in.data () + pos,
                                                           n);
                              ASSERT_EQ (err, 0u) << gcry_strerror (err);
                              pos += n;
                            }
                          res[k] = hex_encode (Bytes (out, out + len));
                          if (mode == GCRY_CIPHER_MODE_OCB && encrypt)
                            {
                              unsigned char tag[16];
                              ASSERT_EQ (gcry_cipher_gettag (h.h, tag, 16),
                                         0u);
                              res[k] += ":" + hex_encode (Bytes (tag,
                                                                 tag + 16));
                            }
                        }
                      ASSERT_EQ (res[0], res[1])
                        << f.family << " " << impl->name << " vs generic, "
                        << "mode " << mode << " algo " << algo << " len "
                        << len << " calls " << chunks.size ()
                        << (encrypt ? " enc" : " dec")
                        << (inplace ? " in place" : "") << " (case " << t
                        << ")";
                    }
                }
              std::printf ("[ path     ] %-8s %-11s mode %2d: %u cases vs "
                           "generic\n", f.family, impl->name, mode, ncases);
            }
        }
    }
}

/* The ctr32le_enc slot (GCM-SIV's counter, RFC 8452 4) that
 * cipher-batch-modes.h fills, on every non-generic path of Camellia, SM4,
 * Twofish and ARIA this CPU has, against the single-block encryption of
 * the generic path: lengths up to past three of the widest batches,
 * counters up to 70 blocks before the 2^32 wrap and random ones, in
 * place and at odd offsets; the counter after the call is the next
 * unused one (bytes 0..3 + NBLOCKS mod 2^32, bytes 4..15 unchanged).  */
TEST (Block128Paths, Ctr32leVsGeneric)
{
  const cipher_spec *specs[] = {
    &_gcry_cipher_spec_camellia128, &_gcry_cipher_spec_camellia256,
    &_gcry_cipher_spec_sm4, &_gcry_cipher_spec_twofish,
    &_gcry_cipher_spec_aria128, &_gcry_cipher_spec_aria256,
  };
  for (const cipher_spec *spec : specs)
    {
      const cipher_impl_info &gen = spec->impls[spec->n_impls - 1];
      for (const cipher_impl_info *impl : available_paths (spec))
        {
          if (!std::strcmp (impl->name, "generic"))
            continue;
          Prng rng (test_seed () ^ 0x3232 ^ ((uint64_t)spec->algo << 24));
          unsigned int checked = 0;
          for (unsigned int t = 0; t < 120; t++)
            {
              const Bytes key = rng.bytes (spec->keylen / 8);
              SpecCipher fast (spec), ref (spec);
              {
                ScopedPath force (*impl);
                ASSERT_EQ (fast.setkey (key), 0);
              }
              {
                ScopedPath force (gen);
                ASSERT_EQ (ref.setkey (key), 0);
              }
              ASSERT_NE (fast.bulk.ctr32le_enc, nullptr)
                << spec->name << " " << impl->name;
              Bytes ctr = rng.bytes (16);
              const uint32_t start
                = t % 2 ? 0xffffffffu - (uint32_t) rng.below (70)
                        : (uint32_t) rng.next ();
              for (int i = 0; i < 4; i++)
                ctr[i] = (uint8_t) (start >> (8 * i));
              const size_t nblocks = t < 40 ? t : rng.below (3 * 64 + 8);
              const Bytes data = rng.bytes (16 * nblocks);
              const bool inplace = rng.below (2);
              const size_t off = rng.below (16);
              ASSERT_EQ ("", check_ctr32le_slot (fast.bulk.ctr32le_enc,
                                                 fast.ctx, ref.spec, ref.ctx,
                                                 ctr, data, nblocks, inplace,
                                                 off))
                << spec->name << " " << impl->name << " nblocks " << nblocks
                << " start " << start;
              checked++;
            }
          std::printf ("[ path     ] %-12s %-11s bulk CTR32LE: %u cases vs "
                       "generic\n", spec->name, impl->name, checked);
        }
    }
}
