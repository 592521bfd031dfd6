/* t-serpent.cpp - Serpent (SERPENT128/192/256) on every path.
 *
 *   Kat        Botan block/serpent.vec (all records: 128-, 192- and
 *              256-bit keys, single and multi-block ECB) on every path
 *              this CPU has, through the spec (single-block functions and
 *              the bulk ECB slot) and through the public API with each of
 *              the three algorithm ids.
 *   Submission the Serpent AES submission's own known answers (package
 *              serpent.tar.gz, floppy4/ecb_vk.txt and ecb_vt.txt, record
 *              I=1 of each key size), in its notation: keys and blocks
 *              printed as 128/192/256-bit numbers, most significant byte
 *              first, i.e. libgcrypt's byte strings reversed.  Checked
 *              encrypting and decrypting on every path.
 *   Selftest   the spec's self-test (known answers, bulk-vs-single
 *              helpers for every SIMD width present).
 *   Paths      every SIMD path's bulk slots (ECB, CBC-dec, CFB-dec, CTR)
 *              against the generic single-block code, random lengths,
 *              buffer offsets, in place; XTS and OCB (enc, dec, AAD)
 *              through the API with the path forced against "generic".
 *   System     differential against the system libgcrypt (tests/
 *              sysgcrypt.h): names, aliases, OIDs, key lengths 0..33
 *              (libgcrypt ignores the bytes of an incomplete last key
 *              word), and every mode gcipher serves for Serpent (ECB, CBC,
 *              CFB, CFB8, OFB, CTR, AES-WRAP, CCM, GCM, OCB, XTS, EAX,
 *              SIV, GCM-SIV where available) on every path: same calls,
 *              same return codes, same output and tags.
 *
 * Deterministic: fixed PRNG seed (GCIPHER_TEST_SEED overrides).
 */
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sysgcrypt.h"
#include "testutil.h"

using namespace testutil;

namespace {

const int serpent_algos[3] = { GCRY_CIPHER_SERPENT128, GCRY_CIPHER_SERPENT192,
                               GCRY_CIPHER_SERPENT256 };

uint64_t
test_seed ()
{
  return suite_seed (0x73657270656e7431ull);
}

const cipher_spec *
spec_for_keylen (size_t keylen)
{
  return keylen <= 16 ? &_gcry_cipher_spec_serpent128
         : keylen <= 24 ? &_gcry_cipher_spec_serpent192
                        : &_gcry_cipher_spec_serpent256;
}

int
algo_for_keylen (size_t keylen)
{
  return spec_for_keylen (keylen)->algo;
}

const cipher_impl_info *
generic_impl ()
{
  const cipher_spec &s = _gcry_cipher_spec_serpent128;
  return &s.impls[s.n_impls - 1];
}

std::vector<const cipher_impl_info *>
all_paths ()
{
  static bool told;
  auto v = available_paths (&_gcry_cipher_spec_serpent128);
  if (!told)
    {
      told = true;
      std::printf ("[ paths    ] %s; skipped (CPU lacks feature): %s\n",
                   path_names (v).c_str (),
                   path_names (unavailable_paths (
                                 &_gcry_cipher_spec_serpent128)).c_str ());
    }
  return v;
}

std::vector<const cipher_impl_info *>
simd_paths ()
{
  std::vector<const cipher_impl_info *> v;
  for (const auto *i : all_paths ())
    if (std::strcmp (i->name, "generic") != 0)
      v.push_back (i);
  return v;
}

Bytes
reversed (Bytes b)
{
  return Bytes (b.rbegin (), b.rend ());
}

/* ---- Known answers ---------------------------------------------------- */

struct Kat
{
  Bytes key, in, out;
  int line;
};

std::vector<Kat>
botan_kats ()
{
  std::vector<VecSection> secs;
  std::string err;
  std::vector<Kat> v;
  if (!parse_vec_file (testvector_path ("botan/block/serpent.vec"), &secs,
                       &err))
    {
      ADD_FAILURE () << err;
      return v;
    }
  const VecSection *s = find_section (secs, "Serpent");
  if (!s)
    {
      ADD_FAILURE () << "no [Serpent] section";
      return v;
    }
  for (const VecRecord &r : s->records)
    v.push_back ({ r.bytes ("Key"), r.bytes ("In"), r.bytes ("Out"),
                   r.line });
  return v;
}

TEST (SerpentKat, BotanSpecEveryPath)
{
  const std::vector<Kat> kats = botan_kats ();
  ASSERT_GT (kats.size (), 1000u);
  unsigned int sizes[33] = {};
  for (const Kat &k : kats)
    sizes[k.key.size () <= 32 ? k.key.size () : 0]++;
  EXPECT_GT (sizes[16], 0u);
  EXPECT_GT (sizes[24], 0u);
  EXPECT_GT (sizes[32], 0u);

  for (const cipher_impl_info *impl : all_paths ())
    {
      for (const Kat &k : kats)
        {
          SpecCipher sc (spec_for_keylen (k.key.size ()));
          {
            ScopedPath force (*impl);
            ASSERT_EQ (sc.setkey (k.key), 0);
          }
          ASSERT_EQ (sc.impl (), impl->name);
          for (bool bulk : { false, true })
            {
              EXPECT_EQ (hex_encode (sc.crypt (BlockMode::ECB, k.in, true,
                                               bulk)),
                         hex_encode (k.out))
                << impl->name << " line " << k.line << (bulk ? " bulk" : "");
              EXPECT_EQ (hex_encode (sc.crypt (BlockMode::ECB, k.out, false,
                                               bulk)),
                         hex_encode (k.in))
                << impl->name << " line " << k.line << (bulk ? " bulk" : "");
            }
        }
      std::printf ("[ kat      ] %-8s %zu Botan records\n", impl->name,
                   kats.size ());
    }
}

TEST (SerpentKat, BotanApiEveryId)
{
  const std::vector<Kat> kats = botan_kats ();
  for (const cipher_impl_info *impl : all_paths ())
    for (size_t i = 0; i < kats.size (); i += 7)
      for (int algo : serpent_algos)
        {
          const Kat &k = kats[i];
          ScopedPath force (*impl);
          Bytes out;
          std::string used;
          ASSERT_EQ (api_crypt (algo, BlockMode::ECB, k.key, Bytes (), k.in,
                                true, &out, &used), 0u);
          EXPECT_EQ (used, impl->name);
          EXPECT_EQ (hex_encode (out), hex_encode (k.out)) << k.line;
          ASSERT_EQ (api_crypt (algo, BlockMode::ECB, k.key, Bytes (), k.out,
                                false, &out), 0u);
          EXPECT_EQ (hex_encode (out), hex_encode (k.in)) << k.line;
        }
}

/* The submission's known answers (Anderson, Biham, Knudsen, Serpent AES
 * submission package serpent.tar.gz, floppy4/ecb_vk.txt (plaintext zero,
 * KEY = 2^(keysize-1) for I=1) and floppy4/ecb_vt.txt (key zero,
 * PT = 2^127 for I=1)); the 128-bit records as quoted from floppy4 by
 * N. Moeller, nettle-bugs, 2011-02-11, the 192/256-bit ones as listed
 * (as "the first test for each key size from ecb_vk.txt and ecb_vt.txt")
 * in nettle's testsuite/serpent-test.c.  The files print numbers most
 * significant byte first: KEY 8000..00 (I=1) is libgcrypt's key bytes
 * 00 .. 00 80, and the printed CT is the ciphertext bytes reversed (the
 * first record's reversal is the NESSIE/Botan record key 00..0080 ->
 * ddd26b98..., so both sources describe the same cipher).  */
TEST (SerpentKat, SubmissionNotation)
{
  struct Sub
  {
    const char *file, *key, *pt, *ct;
  };
  const Sub subs[] = {
    { "ecb_vk.txt KEYSIZE=128 I=1", "80000000000000000000000000000000",
      "00000000000000000000000000000000",
      "49afbfad9d5a34052cd8ffa5986bd2dd" },
    { "ecb_vt.txt KEYSIZE=128 I=1", "00000000000000000000000000000000",
      "80000000000000000000000000000000",
      "10b5ffb720b8cb9002a1142b0ba2e94a" },
    { "ecb_vk.txt KEYSIZE=192 I=1",
      "800000000000000000000000000000000000000000000000",
      "00000000000000000000000000000000",
      "e78e5402c7195568ac3678f7a3f60c66" },
    { "ecb_vt.txt KEYSIZE=192 I=1",
      "000000000000000000000000000000000000000000000000",
      "80000000000000000000000000000000",
      "b10b271ba25257e1294f2b51f076d0d9" },
    { "ecb_vk.txt KEYSIZE=256 I=1",
      "8000000000000000000000000000000000000000000000000000000000000000",
      "00000000000000000000000000000000",
      "abed96e766bf28cbc0ebd21a82ef0819" },
    { "ecb_vt.txt KEYSIZE=256 I=1",
      "0000000000000000000000000000000000000000000000000000000000000000",
      "80000000000000000000000000000000",
      "da5a7992b1b4ae6f8c004bc8a7de5520" },
  };
  for (const cipher_impl_info *impl : all_paths ())
    for (const Sub &s : subs)
      {
        const Bytes key = reversed (hex_decode (s.key));
        const Bytes pt = reversed (hex_decode (s.pt));
        const Bytes ct = reversed (hex_decode (s.ct));
        Bytes out;
        ScopedPath force (*impl);
        ASSERT_EQ (api_crypt (algo_for_keylen (key.size ()), BlockMode::ECB,
                              key, Bytes (), pt, true, &out), 0u);
        EXPECT_EQ (hex_encode (reversed (out)), s.ct)
          << impl->name << " " << s.file;
        ASSERT_EQ (api_crypt (algo_for_keylen (key.size ()), BlockMode::ECB,
                              key, Bytes (), ct, false, &out), 0u);
        EXPECT_EQ (hex_encode (out), hex_encode (pt))
          << impl->name << " " << s.file;
      }
}

TEST (SerpentKat, Selftest)
{
  EXPECT_EQ (_gcry_cipher_spec_serpent128.selftest (), nullptr);
  EXPECT_EQ (_gcry_cipher_spec_serpent192.selftest (), nullptr);
  EXPECT_EQ (_gcry_cipher_spec_serpent256.selftest (), nullptr);
  EXPECT_EQ (gcry_control (GCRYCTL_SELFTEST, 0), 0u);
}

/* ---- Paths against generic -------------------------------------------- */

Bytes
make_ctr (Prng &rng, unsigned int t)
{
  Bytes iv = rng.bytes (16);
  const unsigned int below = 1 + (unsigned int)rng.below (40);
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
  return iv;
}

void
bulk_vs_generic (BlockMode m)
{
  const uint64_t seed = test_seed () ^ (0x100 + (uint64_t)m);
  Prng rng (seed);
  const auto simd = simd_paths ();
  if (simd.empty ())
    GTEST_SKIP () << "no SIMD Serpent path on this CPU";
  const cipher_impl_info *gen = generic_impl ();
  const size_t keylens[] = { 16, 24, 32, 5, 0 };

  for (const cipher_impl_info *impl : simd)
    {
      unsigned int checked = 0;
      for (unsigned int t = 0; t < 600; t++)
        {
          const size_t keylen = keylens[t % 5];
          const Bytes key = rng.bytes (keylen);
          const Bytes iv = m == BlockMode::CTR ? make_ctr (rng, t)
                                               : rng.bytes (16);
          const size_t nblocks = t < 80 ? t : rng.below (200);
          const bool encrypt = rng.below (2);
          const bool inplace = rng.below (2);
          const size_t off_in = rng.below (16), off_out = rng.below (16);
          const Bytes data = rng.bytes (16 * nblocks);

          SpecCipher fast (spec_for_keylen (keylen)),
            ref (spec_for_keylen (keylen));
          {
            ScopedPath force (*impl);
            ASSERT_EQ (fast.setkey (key), 0);
          }
          ASSERT_EQ (fast.impl (), impl->name);
          {
            ScopedPath force (*gen);
            ASSERT_EQ (ref.setkey (key), 0);
          }
          fast.setiv (iv);
          ref.setiv (iv);
          Bytes bin (16 * nblocks + 32), bout (16 * nblocks + 32);
          if (!data.empty ())   /* data.data () may be NULL */
            std::memcpy (bin.data () + off_in, data.data (), data.size ());
          uint8_t *in = bin.data () + off_in;
          uint8_t *out = inplace ? in : bout.data () + off_out;
          fast.crypt (m, out, in, data.size (), encrypt, true);
          const Bytes got (out, out + data.size ());
          const Bytes want = ref.crypt (m, data, encrypt, false);
          ASSERT_EQ (hex_encode (got), hex_encode (want))
            << impl->name << " " << mode_name (m)
            << (encrypt ? " enc" : " dec") << " keylen " << keylen
            << " nblocks " << nblocks << (inplace ? " in place" : "")
            << " offsets " << off_in << "/" << off_out << " (seed " << seed
            << ", t " << t << ")";
          ASSERT_EQ (hex_encode (fast.iv ()), hex_encode (ref.iv ()))
            << "final IV/counter " << impl->name << " " << mode_name (m)
            << " nblocks " << nblocks;
          checked++;
        }
      std::printf ("[ path     ] %-8s bulk %-4s: %u cases vs generic\n",
                   impl->name, mode_name (m), checked);
    }
}

TEST (SerpentPaths, ECB) { bulk_vs_generic (BlockMode::ECB); }
TEST (SerpentPaths, CBC) { bulk_vs_generic (BlockMode::CBC); }
TEST (SerpentPaths, CFB) { bulk_vs_generic (BlockMode::CFB); }
TEST (SerpentPaths, CTR) { bulk_vs_generic (BlockMode::CTR); }

/* The ctr32le_enc slot (GCM-SIV's counter, RFC 8452 4) against the
 * single-block generic cipher: random lengths, counters up to 70 blocks
 * before the 2^32 wrap and random ones, in place and at odd offsets; the
 * counter after the call is the next unused one (bytes 0..3 + NBLOCKS
 * mod 2^32, bytes 4..15 unchanged).  */
TEST (SerpentPaths, Ctr32le)
{
  Prng rng (test_seed () ^ 0x32);
  const auto simd = simd_paths ();
  if (simd.empty ())
    GTEST_SKIP () << "no SIMD Serpent path on this CPU";
  const cipher_impl_info *gen = generic_impl ();
  for (const cipher_impl_info *impl : simd)
    {
      for (unsigned int t = 0; t < 400; t++)
        {
          const size_t keylen = 16 + 8 * rng.below (3);
          const Bytes key = rng.bytes (keylen);
          Bytes ctr = rng.bytes (16);
          const uint32_t start = t % 2 ? 0xffffffffu - (uint32_t) rng.below (70)
                                       : (uint32_t) rng.next ();
          for (int i = 0; i < 4; i++)
            ctr[i] = (uint8_t) (start >> (8 * i));
          const size_t nblocks = t < 70 ? t : rng.below (300);
          const Bytes data = rng.bytes (16 * nblocks);
          SpecCipher fast (spec_for_keylen (keylen)), ref (spec_for_keylen (keylen));
          {
            ScopedPath force (*impl);
            ASSERT_EQ (fast.setkey (key), 0);
          }
          {
            ScopedPath force (*gen);
            ASSERT_EQ (ref.setkey (key), 0);
          }
          const bool inplace = rng.below (2);
          const size_t off = rng.below (16);
          ASSERT_EQ ("", testutil::check_ctr32le_slot (
                             fast.bulk.ctr32le_enc, fast.ctx, ref.spec,
                             ref.ctx, ctr, data, nblocks, inplace, off))
            << impl->name << " nblocks " << nblocks << " start " << start;
        }
      std::printf ("[ path     ] %-8s bulk CTR32LE: 400 cases vs generic\n",
                   impl->name);
    }
}

/* The bulk slots a SIMD path fills (and only those).  */
TEST (SerpentPaths, BulkSlots)
{
  for (const cipher_impl_info *impl : all_paths ())
    {
      SpecCipher sc (&_gcry_cipher_spec_serpent256);
      {
        ScopedPath force (*impl);
        ASSERT_EQ (sc.setkey (Bytes (32, 1)), 0);
      }
      const bool simd = std::strcmp (impl->name, "generic") != 0;
      EXPECT_EQ (sc.bulk.ecb_crypt != nullptr, simd) << impl->name;
      EXPECT_EQ (sc.bulk.cbc_dec != nullptr, simd) << impl->name;
      EXPECT_EQ (sc.bulk.cfb_dec != nullptr, simd) << impl->name;
      EXPECT_EQ (sc.bulk.ctr16be_enc != nullptr, simd) << impl->name;
      EXPECT_EQ (sc.bulk.ctr32le_enc != nullptr, simd) << impl->name;
      EXPECT_EQ (sc.bulk.xts_crypt != nullptr, simd) << impl->name;
      EXPECT_EQ (sc.bulk.ocb_crypt != nullptr, simd) << impl->name;
      EXPECT_EQ (sc.bulk.ocb_auth != nullptr, simd) << impl->name;
      EXPECT_EQ (sc.bulk.cbc_enc, nullptr);
      EXPECT_EQ (sc.bulk.cfb_enc, nullptr);
      EXPECT_EQ (sc.bulk.ofb_enc, nullptr);
    }
}

/* ---- A libgcrypt-shaped API, either library -------------------------- */

/* One message through (ALGO, MODE): every return code, the output and
 * the tag, as one printable transcript.  */
struct Msg
{
  Bytes key, iv, aad, data;
  bool encrypt = true;
  size_t taglen = 16;
  bool chunked = false;   /* Data in two calls (modes that allow it).  */
};

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
  gcry_error_t e = api.cipher_open (&h, algo, mode, 0);
  rc ("open", e);
  if (e)
    return t;
  rc ("setkey", api.cipher_setkey (h, m.key.data (), m.key.size ()));
  if (mode == GCRY_CIPHER_MODE_CTR)
    rc ("setctr", api.cipher_setctr (h, m.iv.data (), m.iv.size ()));
  else if (!m.iv.empty ())
    rc ("setiv", api.cipher_setiv (h, m.iv.data (), m.iv.size ()));
  if (mode == GCRY_CIPHER_MODE_CCM)
    {
      uint64_t p[3] = { m.data.size (), m.aad.size (), m.taglen };
      rc ("lengths", api.cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS, p, sizeof p));
    }
  const bool aead = mode == GCRY_CIPHER_MODE_CCM
                    || mode == GCRY_CIPHER_MODE_GCM
                    || mode == GCRY_CIPHER_MODE_OCB
                    || mode == GCRY_CIPHER_MODE_EAX
                    || mode == GCRY_CIPHER_MODE_SIV
                    || mode == GCRY_CIPHER_MODE_GCM_SIV;
  if (aead && !m.aad.empty ())
    rc ("aad", api.cipher_authenticate (h, m.aad.data (), m.aad.size ()));
  Bytes out (m.data.size () + 8, 0);
  size_t outlen = mode == GCRY_CIPHER_MODE_AESWRAP
                  ? (m.encrypt ? m.data.size () + 8 : m.data.size () - 8)
                  : m.data.size ();
  const bool whole = mode == GCRY_CIPHER_MODE_OCB
                     || mode == GCRY_CIPHER_MODE_SIV
                     || mode == GCRY_CIPHER_MODE_GCM_SIV
                     || mode == GCRY_CIPHER_MODE_AESWRAP
                     || mode == GCRY_CIPHER_MODE_XTS
                     || mode == GCRY_CIPHER_MODE_CCM;
  if (aead && mode != GCRY_CIPHER_MODE_CCM)
    rc ("final", api.cipher_ctl (h, GCRYCTL_FINALIZE, nullptr, 0));
  if (mode == GCRY_CIPHER_MODE_SIV && !m.encrypt)
    rc ("dectag", api.cipher_ctl (h, GCRYCTL_SET_DECRYPTION_TAG,
                                  (void *)m.iv.data (), 16));
  size_t split = (m.chunked && !whole) ? (m.data.size () / 32) * 16 : 0;
  if (split)
    {
      e = m.encrypt ? api.cipher_encrypt (h, out.data (), split,
                                          m.data.data (), split)
                    : api.cipher_decrypt (h, out.data (), split,
                                          m.data.data (), split);
      rc ("part", e);
    }
  e = m.encrypt
          ? api.cipher_encrypt (h, out.data () + split, outlen - split,
                                m.data.data () + split, m.data.size () - split)
          : api.cipher_decrypt (h, out.data () + split, outlen - split,
                                m.data.data () + split,
                                m.data.size () - split);
  rc ("crypt", e);
  if (!e)
    t += hex_encode (out.data (), outlen) + " ";
  if (aead && m.encrypt)
    {
      Bytes tag (m.taglen);
      e = api.cipher_gettag (h, tag.data (), tag.size ());
      rc ("gettag", e);
      if (!e)
        t += "tag " + hex_encode (tag);
    }
  api.cipher_close (h);
  return t;
}

/* Key, IV and data shapes MODE accepts (a few invalid ones too: both
 * libraries must refuse them alike).  */
Msg
make_msg (Prng &rng, int mode, unsigned int t)
{
  Msg m;
  size_t keylen = (size_t[]) { 16, 24, 32 }[t % 3];
  /* Odd key lengths (libgcrypt takes 0..32 bytes).  Not for SIV:
   * gcipher's SIV takes only 32, 48 or 64-byte keys, libgcrypt any even
   * length whose halves the cipher accepts (reported, cipher-siv.cpp). */
  if (t % 17 == 5 && mode != GCRY_CIPHER_MODE_SIV)
    keylen = rng.below (33);
  if (mode == GCRY_CIPHER_MODE_XTS || mode == GCRY_CIPHER_MODE_SIV)
    keylen *= 2;
  if (mode == GCRY_CIPHER_MODE_GCM_SIV)
    keylen = t % 2 ? 32 : 16;
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
      ivlen = 1 + rng.below (15);
      break;
    case GCRY_CIPHER_MODE_EAX:
      ivlen = rng.below (40);
      break;
    case GCRY_CIPHER_MODE_GCM_SIV:
      ivlen = 12;
      break;
    case GCRY_CIPHER_MODE_CTR:
      m.iv = make_ctr (rng, t);
      ivlen = 0;
      break;
    default:
      break;
    }
  if (mode != GCRY_CIPHER_MODE_CTR)
    m.iv = rng.bytes (ivlen);
  if (mode == GCRY_CIPHER_MODE_SIV && t % 2)
    m.iv.clear ();
  size_t len = t < 40 ? t * 13 : rng.below (t % 5 ? 1100 : 5000);
  if (mode == GCRY_CIPHER_MODE_ECB || mode == GCRY_CIPHER_MODE_CBC)
    len -= len % 16;
  if (mode == GCRY_CIPHER_MODE_AESWRAP)
    len = 16 + 8 * rng.below (60);
  if (mode == GCRY_CIPHER_MODE_XTS && len < 16)
    len += 16;
  m.data = rng.bytes (len);
  m.aad = rng.bytes (rng.below (3) ? rng.below (200) : 0);
  if (mode == GCRY_CIPHER_MODE_CCM)
    m.taglen = 4 + 2 * rng.below (7);
  m.encrypt = rng.below (2);
  m.chunked = rng.below (2);
  return m;
}

const int all_modes[] = {
  GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_MODE_CFB,
  GCRY_CIPHER_MODE_CFB8, GCRY_CIPHER_MODE_OFB, GCRY_CIPHER_MODE_CTR,
  GCRY_CIPHER_MODE_AESWRAP, GCRY_CIPHER_MODE_CCM, GCRY_CIPHER_MODE_GCM,
  GCRY_CIPHER_MODE_OCB, GCRY_CIPHER_MODE_XTS, GCRY_CIPHER_MODE_EAX,
  GCRY_CIPHER_MODE_SIV, GCRY_CIPHER_MODE_GCM_SIV
};

/* Every mode gcipher serves for Serpent, each path forced, against the
 * system libgcrypt.  */
TEST (SerpentSystem, AllModesEveryPath)
{
  const sysgcrypt *sys = sysgcrypt_load ();
  if (!sys)
    GTEST_SKIP () << sysgcrypt_error ();
  const sysgcrypt &a = *sysgcrypt_ours (), &b = *sys;
  for (int mode : all_modes)
    {
      if (!_gcry_cipher_is_implemented (GCRY_CIPHER_SERPENT128, mode, 0))
        {
          std::printf ("[ system   ] mode %2d: not served by gcipher\n",
                       mode);
          continue;
        }
      for (const cipher_impl_info *impl : all_paths ())
        {
          Prng rng (test_seed () ^ (0x400 + (uint64_t)mode));
          const unsigned int n = mode == GCRY_CIPHER_MODE_CFB8 ? 60 : 160;
          for (unsigned int t = 0; t < n; t++)
            {
              const Msg m = make_msg (rng, mode, t);
              const int algo = serpent_algos[t % 3];
              std::string want = run (b, algo, mode, m);
              std::string got;
              {
                ScopedPath force (*impl);
                got = run (a, algo, mode, m);
              }
              ASSERT_EQ (got, want)
                << "mode " << mode << " path " << impl->name << " algo "
                << algo << " keylen " << m.key.size () << " ivlen "
                << m.iv.size () << " len " << m.data.size () << " aad "
                << m.aad.size () << (m.encrypt ? " enc" : " dec")
                << (m.chunked ? " chunked" : "") << " (case " << t << ")";
            }
          std::printf ("[ system   ] mode %2d %-8s: %u messages match\n",
                       mode, impl->name, n);
        }
    }
}

/* XTS and OCB bulk slots: each SIMD path against generic through the
 * API, with in-place buffers and odd offsets.  */
TEST (SerpentPaths, XtsOcbApi)
{
  const auto simd = simd_paths ();
  if (simd.empty ())
    GTEST_SKIP () << "no SIMD Serpent path on this CPU";
  const sysgcrypt &a = *sysgcrypt_ours ();
  for (const cipher_impl_info *impl : simd)
    for (int mode : { GCRY_CIPHER_MODE_XTS, GCRY_CIPHER_MODE_OCB })
      {
        Prng rng (test_seed () ^ (0x500 + (uint64_t)mode));
        for (unsigned int t = 0; t < 300; t++)
          {
            Msg m = make_msg (rng, mode, t);
            m.data = rng.bytes (16 + rng.below (t % 4 ? 700 : 3000));
            const int algo = serpent_algos[t % 3];
            std::string got, want;
            {
              ScopedPath force (*impl);
              got = run (a, algo, mode, m);
            }
            {
              ScopedPath force (*generic_impl ());
              want = run (a, algo, mode, m);
            }
            ASSERT_EQ (got, want) << impl->name << " mode " << mode
                                  << " len " << m.data.size () << " case "
                                  << t;
          }
        /* In place at an odd offset, many calls (XTS: one data unit per
         * call; OCB: whole blocks until the last).  */
        for (unsigned int t = 0; t < 100; t++)
          {
            const Bytes key = rng.bytes (mode == GCRY_CIPHER_MODE_XTS ? 64
                                                                      : 32);
            const Bytes iv = rng.bytes (mode == GCRY_CIPHER_MODE_XTS ? 16
                                                                     : 12);
            const size_t off = 1 + rng.below (15);
            const Bytes data = rng.bytes (16 * (1 + rng.below (100)));
            std::vector<size_t> chunks;
            for (size_t pos = 0; pos < data.size ();)
              {
                size_t n = 16 * (1 + rng.below (40));
                n = n < data.size () - pos ? n : data.size () - pos;
                chunks.push_back (n);
                pos += n;
              }
            Bytes res[2];
            for (int side = 0; side < 2; side++)
              {
                ScopedPath force (side ? *generic_impl () : *impl);
                gcry_cipher_hd_t h;
                ASSERT_EQ (gcry_cipher_open (&h, GCRY_CIPHER_SERPENT256, mode,
                                             0), 0u);
                ASSERT_EQ (gcry_cipher_setkey (h, key.data (), key.size ()),
                           0u);
                ASSERT_EQ (gcry_cipher_setiv (h, iv.data (), iv.size ()), 0u);
                Bytes buf (data.size () + 16 + 16);
                if (!data.empty ())   /* data.data () may be NULL */
                  std::memcpy (buf.data () + off, data.data (),
                               data.size ());
                size_t pos = 0;
                for (size_t n : chunks)
                  {
                    if (pos + n == data.size () && mode == GCRY_CIPHER_MODE_OCB)
                      gcry_cipher_final (h);
                    ASSERT_EQ (gcry_cipher_encrypt (h, buf.data () + off + pos,
                                                    n, nullptr, 0), 0u);
                    pos += n;
                  }
                if (mode == GCRY_CIPHER_MODE_OCB)
                  {
                    ASSERT_EQ (gcry_cipher_gettag (h, buf.data () + off + pos,
                                                   16), 0u);
                  }
                gcry_cipher_close (h);
                res[side] = buf;
              }
            ASSERT_EQ (hex_encode (res[0]), hex_encode (res[1]))
              << impl->name << " mode " << mode << " in place, case " << t;
          }
        std::printf ("[ path     ] %-8s mode %2d: 400 messages vs generic\n",
                     impl->name, mode);
      }
}

/* Key lengths: both libraries accept 0..32 bytes for each id and refuse
 * 33; the ciphertexts agree for every length on every path.  */
TEST (SerpentSystem, KeyLengths)
{
  const sysgcrypt *sys = sysgcrypt_load ();
  if (!sys)
    GTEST_SKIP () << sysgcrypt_error ();
  const sysgcrypt &a = *sysgcrypt_ours (), &b = *sys;
  Prng rng (test_seed () ^ 0x600);
  for (const cipher_impl_info *impl : all_paths ())
    for (int algo : serpent_algos)
      for (size_t kl = 0; kl <= 34; kl++)
        {
          Msg m;
          m.key = rng.bytes (kl);
          m.data = rng.bytes (16 * 40);
          std::string want = run (b, algo, GCRY_CIPHER_MODE_ECB, m);
          std::string got;
          {
            ScopedPath force (*impl);
            got = run (a, algo, GCRY_CIPHER_MODE_ECB, m);
          }
          ASSERT_EQ (got, want) << impl->name << " algo " << algo
                                << " keylen " << kl;
          if (kl == 5 && algo == GCRY_CIPHER_SERPENT192)
            std::printf ("[ keylen   ] %-8s 5 bytes: %.60s...\n", impl->name,
                         got.c_str ());
        }
}

TEST (SerpentSystem, NamesAndOids)
{
  const sysgcrypt *sys = sysgcrypt_load ();
  if (!sys)
    GTEST_SKIP () << sysgcrypt_error ();
  const char *const names[] = {
    "SERPENT", "serpent", "SERPENT128", "serpent128", "SERPENT-128",
    "SERPENT192", "SERPENT-192", "serpent-192", "SERPENT256", "SERPENT-256",
    "Serpent-256", "SERPENT-512", "SERPENT64", "SERPENT-",
    "1.3.6.1.4.1.11591.13.2.1", "1.3.6.1.4.1.11591.13.2.2",
    "1.3.6.1.4.1.11591.13.2.3", "1.3.6.1.4.1.11591.13.2.4",
    "1.3.6.1.4.1.11591.13.2.5", "1.3.6.1.4.1.11591.13.2.21",
    "1.3.6.1.4.1.11591.13.2.22", "1.3.6.1.4.1.11591.13.2.23",
    "1.3.6.1.4.1.11591.13.2.24", "1.3.6.1.4.1.11591.13.2.41",
    "1.3.6.1.4.1.11591.13.2.42", "1.3.6.1.4.1.11591.13.2.43",
    "1.3.6.1.4.1.11591.13.2.44", "oid.1.3.6.1.4.1.11591.13.2.42",
    "OID.1.3.6.1.4.1.11591.13.2.1",
  };
  for (const char *n : names)
    {
      EXPECT_EQ (gcry_cipher_map_name (n), sys->cipher_map_name (n)) << n;
      EXPECT_EQ (gcry_cipher_mode_from_oid (n), sys->cipher_mode_from_oid (n))
        << n;
    }
  for (int algo : serpent_algos)
    {
      EXPECT_STREQ (gcry_cipher_algo_name (algo),
                    sys->cipher_algo_name (algo));
      EXPECT_EQ (gcry_cipher_get_algo_keylen (algo),
                 sys->cipher_get_algo_keylen (algo));
      EXPECT_EQ (gcry_cipher_get_algo_blklen (algo),
                 sys->cipher_get_algo_blklen (algo));
      EXPECT_EQ (gcry_cipher_algo_info (algo, GCRYCTL_TEST_ALGO, nullptr,
                                        nullptr),
                 sys->cipher_algo_info (algo, GCRYCTL_TEST_ALGO, nullptr,
                                        nullptr));
    }
}

}  // namespace
