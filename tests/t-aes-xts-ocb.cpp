/* t-aes-xts-ocb.cpp - AES in XTS (IEEE 1619-2018 / SP 800-38E) and OCB
 * (RFC 7253).
 *
 *  - Known answers: IEEE 1619 Annex B stealing vectors 15-18, Botan's
 *    xts.vec (AES sections), RFC 7253 Appendix A (incl. the iterated
 *    TAGLEN check of its last part); tampered tags and ciphertexts must
 *    be refused with GPG_ERR_CHECKSUM.  Each on every AES path this CPU
 *    runs (forced through testutil's path forcing).
 *  - ocb_ntz (RFC 7253 4.2's ntz of the block index) on every bit
 *    position of the 64-bit index, including the high word, which i386
 *    counts apart and no message reaches (2^32 blocks).
 *  - Bulk vs per-block: the same random calls with the handle's bulk
 *    table as setkey filled it and with it cleared.
 *  - Differential: random call sequences (wrong orders, bad lengths,
 *    wrong tags, re-keys, resets) against the system libgcrypt; every
 *    return code and every output byte must match.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gcrypt.h"
#include "cipher-internal.h"
#include "cipher-ocb.h"
#include "sysgcrypt-test.h"
#include "testutil.h"
#include "twin.h"

using testutil::Bytes;
using testutil::Prng;
using testutil::hex_decode;
using testutil::hex_encode;

namespace {

struct Handle
{
  gcry_cipher_hd_t h = nullptr;
  Handle (int algo, int mode)
  {
    EXPECT_EQ (0u, gcry_cipher_open (&h, algo, mode, 0));
  }
  ~Handle () { gcry_cipher_close (h); }
};

std::vector<const cipher_impl_info *>
paths ()
{
  return testutil::available_paths (&_gcry_cipher_spec_aes);
}

void
print_paths (const char *what)
{
  static bool once;
  if (!once)
    sysgcrypt_quiet_logs (nullptr);
  once = true;
  printf ("[ paths    ] %s: run: %s; skipped (CPU lacks feature): %s\n", what,
          testutil::path_names (paths ()).c_str (),
          testutil::path_names (
              testutil::unavailable_paths (&_gcry_cipher_spec_aes)).c_str ());
}

/* ---- XTS known answers ---------------------------------------------- */

struct XtsVec
{
  const char *key, *tweak, *pt, *ct;
};

/* IEEE 1619-2018 Annex B, vectors 15-18: ciphertext stealing with 17..20
 * bytes (Key1 || Key2, data unit sequence number 0x123456789a).  */
const XtsVec ieee1619_stealing[] = {
  { "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
    "9a785634120000000000000000000000",
    "000102030405060708090a0b0c0d0e0f10",
    "6c1625db4671522d3d7599601de7ca09ed" },
  { "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
    "9a785634120000000000000000000000",
    "000102030405060708090a0b0c0d0e0f1011",
    "d069444b7a7e0cab09e24447d24deb1fedbf" },
  { "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
    "9a785634120000000000000000000000",
    "000102030405060708090a0b0c0d0e0f101112",
    "e5df1351c0544ba1350b3363cd8ef4beedbf9d" },
  { "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
    "9a785634120000000000000000000000",
    "000102030405060708090a0b0c0d0e0f10111213",
    "9d84c813f719aa2c7be3f66171c7c5c2edbf9dac" },
};

/* One XTS data unit through the API: encrypt (separate buffers and in
 * place) and decrypt must give the expected bytes.  */
void
check_xts (const Bytes &key, const Bytes &tweak, const Bytes &pt,
           const Bytes &ct, const std::string &where)
{
  Handle x (GCRY_CIPHER_AES, GCRY_CIPHER_MODE_XTS);
  ASSERT_EQ (0u, gcry_cipher_setkey (x.h, key.data (), key.size ())) << where;
  Bytes out (pt.size ());
  ASSERT_EQ (0u, gcry_cipher_setiv (x.h, tweak.data (), tweak.size ()));
  ASSERT_EQ (0u, gcry_cipher_encrypt (x.h, out.data (), out.size (),
                                      pt.data (), pt.size ()));
  EXPECT_EQ (hex_encode (ct), hex_encode (out)) << where << " encrypt";
  out = pt;
  ASSERT_EQ (0u, gcry_cipher_setiv (x.h, tweak.data (), tweak.size ()));
  ASSERT_EQ (0u, gcry_cipher_encrypt (x.h, out.data (), out.size (),
                                      nullptr, 0));
  EXPECT_EQ (hex_encode (ct), hex_encode (out)) << where << " in place";
  ASSERT_EQ (0u, gcry_cipher_setiv (x.h, tweak.data (), tweak.size ()));
  ASSERT_EQ (0u, gcry_cipher_decrypt (x.h, out.data (), out.size (),
                                      nullptr, 0));
  EXPECT_EQ (hex_encode (pt), hex_encode (out)) << where << " decrypt";
}

TEST (AesXts, Ieee1619Stealing)
{
  print_paths ("XTS KAT");
  for (const cipher_impl_info *impl : paths ())
    {
      testutil::ScopedPath force (*impl);
      int n = 0;
      for (const XtsVec &v : ieee1619_stealing)
        check_xts (hex_decode (v.key), hex_decode (v.tweak),
                   hex_decode (v.pt), hex_decode (v.ct),
                   std::string (impl->name) + " IEEE 1619 vector "
                   + std::to_string (15 + n++));
    }
}

TEST (AesXts, BotanVectors)
{
  std::vector<testutil::VecSection> secs;
  std::string err;
  ASSERT_TRUE (testutil::parse_vec_file (
      testutil::testvector_path ("botan/modes/xts.vec"), &secs, &err)) << err;
  for (const cipher_impl_info *impl : paths ())
    {
      testutil::ScopedPath force (*impl);
      size_t n = 0;
      for (const char *name : { "AES-128/XTS", "AES-256/XTS" })
        {
          const testutil::VecSection *s = testutil::find_section (secs, name);
          ASSERT_NE (nullptr, s) << name;
          for (const testutil::VecRecord &r : s->records)
            {
              check_xts (r.bytes ("Key"), r.bytes ("Nonce"), r.bytes ("In"),
                         r.bytes ("Out"), std::string (impl->name) + " "
                         + name + " line " + std::to_string (r.line));
              n++;
            }
        }
      printf ("[ path     ] %-8s xts.vec: %zu AES records\n", impl->name, n);
      EXPECT_GT (n, 100u);
    }
}

/* ---- OCB known answers ---------------------------------------------- */

struct OcbVec
{
  const char *nonce, *aad, *pt, *ct_tag;
};

/* RFC 7253 Appendix A: OCB-AES-128, TAGLEN 128, K = 000102..0f.  */
const OcbVec rfc7253_a[] = {
  { "BBAA99887766554433221100", "", "", "785407BFFFC8AD9EDCC5520AC9111EE6" },
  { "BBAA99887766554433221101", "0001020304050607", "0001020304050607",
    "6820B3657B6F615A5725BDA0D3B4EB3A257C9AF1F8F03009" },
  { "BBAA99887766554433221102", "0001020304050607", "",
    "81017F8203F081277152FADE694A0A00" },
  { "BBAA99887766554433221103", "", "0001020304050607",
    "45DD69F8F5AAE72414054CD1F35D82760B2CD00D2F99BFA9" },
  { "BBAA99887766554433221104", "000102030405060708090A0B0C0D0E0F",
    "000102030405060708090A0B0C0D0E0F",
    "571D535B60B277188BE5147170A9A22C3AD7A4FF3835B8C5701C1CCEC8FC3358" },
  { "BBAA99887766554433221105", "000102030405060708090A0B0C0D0E0F", "",
    "8CF761B6902EF764462AD86498CA6B97" },
  { "BBAA99887766554433221106", "", "000102030405060708090A0B0C0D0E0F",
    "5CE88EC2E0692706A915C00AEB8B2396F40E1C743F52436BDF06D8FA1ECA343D" },
  { "BBAA99887766554433221107",
    "000102030405060708090A0B0C0D0E0F1011121314151617",
    "000102030405060708090A0B0C0D0E0F1011121314151617",
    "1CA2207308C87C010756104D8840CE1952F09673A448A122"
    "C92C62241051F57356D7F3C90BB0E07F" },
  { "BBAA99887766554433221108",
    "000102030405060708090A0B0C0D0E0F1011121314151617", "",
    "6DC225A071FC1B9F7C69F93B0F1E10DE" },
  { "BBAA99887766554433221109", "",
    "000102030405060708090A0B0C0D0E0F1011121314151617",
    "221BD0DE7FA6FE993ECCD769460A0AF2D6CDED0C395B1C3C"
    "E725F32494B9F914D85C0B1EB38357FF" },
  { "BBAA9988776655443322110A",
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
    "BD6F6C496201C69296C11EFD138A467ABD3C707924B964DEAFFC40319AF5A485"
    "40FBBA186C5553C68AD9F592A79A4240" },
  { "BBAA9988776655443322110B",
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F", "",
    "FE80690BEE8A485D11F32965BC9D2A32" },
  { "BBAA9988776655443322110C", "",
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
    "2942BFC773BDA23CABC6ACFD9BFD5835BD300F0973792EF46040C53F1432BCDF"
    "B5E1DDE3BC18A5F840B52E653444D5DF" },
  { "BBAA9988776655443322110D",
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"
    "2021222324252627",
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"
    "2021222324252627",
    "D5CA91748410C1751FF8A2F618255B68A0A12E093FF454606E59F9C1D0DDC54B"
    "65E8628E568BAD7AED07BA06A4A69483A7035490C5769E60" },
  { "BBAA9988776655443322110E",
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"
    "2021222324252627", "",
    "C5CD9D1850C141E358649994EE701B68" },
  { "BBAA9988776655443322110F", "",
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"
    "2021222324252627",
    "4412923493C57D5DE0D700F753CCE0D1D2D95060122E9F15A5DDBFC5787E50B5"
    "CC55EE507BCB084E479AD363AC366B95A98CA5F3000B1479" },
};

/* RFC 7253 Appendix A: OCB-AES-128, TAGLEN 96, K = 0f0e..00.  */
const OcbVec rfc7253_a96 = {
  "BBAA9988776655443322110D",
  "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"
  "2021222324252627",
  "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"
  "2021222324252627",
  "1792A4E31E0755FB03E31B22116E6C2DDF9EFD6E33D536F1A0124B0A55BAE884"
  "ED93481529C76B6AD0C515F4D1CDD4FDAC4F02AA"
};

/* OCB-ENCRYPT (K, N, A, P) through the API: C || T.  */
Bytes
ocb_seal (const Bytes &key, const Bytes &nonce, const Bytes &aad,
          const Bytes &pt, int taglen)
{
  Handle x (GCRY_CIPHER_AES, GCRY_CIPHER_MODE_OCB);
  EXPECT_EQ (0u, gcry_cipher_setkey (x.h, key.data (), key.size ()));
  EXPECT_EQ (0u, gcry_cipher_ctl (x.h, GCRYCTL_SET_TAGLEN, &taglen,
                                  sizeof taglen));
  EXPECT_EQ (0u, gcry_cipher_setiv (x.h, nonce.data (), nonce.size ()));
  EXPECT_EQ (0u, gcry_cipher_authenticate (x.h, aad.data (), aad.size ()));
  EXPECT_EQ (0u, gcry_cipher_final (x.h));
  Bytes out (pt.size () + taglen);
  EXPECT_EQ (0u, gcry_cipher_encrypt (x.h, out.data (), pt.size (),
                                      pt.data (), pt.size ()));
  EXPECT_EQ (0u, gcry_cipher_gettag (x.h, out.data () + pt.size (),
                                     taglen));
  return out;
}

/* OCB-DECRYPT: the plaintext and checktag's answer.  AAD and data are
 * fed in pieces of SPLIT bytes (whole blocks for the data).  */
gcry_error_t
ocb_open (const Bytes &key, const Bytes &nonce, const Bytes &aad,
          const Bytes &ct_tag, int taglen, Bytes *pt, size_t split = 0)
{
  Handle x (GCRY_CIPHER_AES, GCRY_CIPHER_MODE_OCB);
  EXPECT_EQ (0u, gcry_cipher_setkey (x.h, key.data (), key.size ()));
  EXPECT_EQ (0u, gcry_cipher_ctl (x.h, GCRYCTL_SET_TAGLEN, &taglen,
                                  sizeof taglen));
  EXPECT_EQ (0u, gcry_cipher_setiv (x.h, nonce.data (), nonce.size ()));
  size_t clen = ct_tag.size () - taglen;
  size_t step = split ? split : aad.size () + 1;
  for (size_t o = 0; o < aad.size (); o += step)
    EXPECT_EQ (0u, gcry_cipher_authenticate (
                       x.h, aad.data () + o,
                       std::min (step, aad.size () - o)));
  pt->assign (clen, 0);
  size_t dstep = split ? (split + 15) / 16 * 16 : clen;
  size_t o = 0;
  for (; dstep && clen - o > dstep; o += dstep)
    EXPECT_EQ (0u, gcry_cipher_decrypt (x.h, pt->data () + o, dstep,
                                        ct_tag.data () + o, dstep));
  EXPECT_EQ (0u, gcry_cipher_final (x.h));
  EXPECT_EQ (0u, gcry_cipher_decrypt (x.h, pt->data () + o, clen - o,
                                      ct_tag.data () + o, clen - o));
  return gcry_cipher_checktag (x.h, ct_tag.data () + clen, taglen);
}

void
check_ocb (const Bytes &key, const OcbVec &v, int taglen,
           const std::string &where)
{
  Bytes n = hex_decode (v.nonce), a = hex_decode (v.aad),
        p = hex_decode (v.pt), c = hex_decode (v.ct_tag);
  EXPECT_EQ (hex_encode (c), hex_encode (ocb_seal (key, n, a, p, taglen)))
    << where;
  for (size_t split : { (size_t) 0, (size_t) 1, (size_t) 7, (size_t) 16 })
    {
      Bytes out;
      EXPECT_EQ (0u, ocb_open (key, n, a, c, taglen, &out, split))
        << where << " split " << split;
      EXPECT_EQ (hex_encode (p), hex_encode (out)) << where;
    }
  /* Every single-bit change of ciphertext, tag or AAD is refused.  */
  for (size_t bit = 0; bit < 8 * (c.size () + a.size ()); bit += 5)
    {
      Bytes c2 = c, a2 = a, out;
      if (bit < 8 * c.size ())
        c2[bit / 8] ^= (uint8_t) (1u << (bit % 8));
      else
        a2[bit / 8 - c.size ()] ^= (uint8_t) (1u << (bit % 8));
      EXPECT_EQ (GPG_ERR_CHECKSUM,
                 gcry_err_code (ocb_open (key, n, a2, c2, taglen, &out)))
        << where << " bit " << bit;
    }
}

/* ntz (i) for every single bit and for that bit with higher ones set
 * (the count must ignore them), both 32-bit halves.  */
TEST (AesOcb, NtzOfBlockIndex)
{
  for (unsigned int k = 0; k < 64; k++)
    {
      const uint64_t bit = (uint64_t) 1 << k;
      EXPECT_EQ (k, ocb_ntz (bit)) << k;
      EXPECT_EQ (k, ocb_ntz (bit | ~(bit | (bit - 1)))) << k;
      EXPECT_EQ (k, ocb_ntz (bit | (uint64_t) 1 << 63)) << k;
    }
}

TEST (AesOcb, Rfc7253AppendixA)
{
  print_paths ("OCB KAT");
  Bytes k128 = hex_decode ("000102030405060708090A0B0C0D0E0F");
  Bytes k96 = hex_decode ("0F0E0D0C0B0A09080706050403020100");
  for (const cipher_impl_info *impl : paths ())
    {
      testutil::ScopedPath force (*impl);
      int i = 0;
      for (const OcbVec &v : rfc7253_a)
        check_ocb (k128, v, 16, std::string (impl->name) + " A.1 #"
                                + std::to_string (i++));
      check_ocb (k96, rfc7253_a96, 12, std::string (impl->name) + " A.96");
    }
}

/* RFC 7253 Appendix A, last part: K = zeros(KEYLEN-8) || num2str(TAGLEN,
 * 8); C = the concatenation over i = 0..127 of OCB-ENCRYPT(K, N(3i+1), S,
 * S), OCB-ENCRYPT(K, N(3i+2), <>, S), OCB-ENCRYPT(K, N(3i+3), S, <>) with
 * S = zeros(8i) and N(x) = num2str(x, 96); Output = OCB-ENCRYPT(K,
 * N(385), C, <>).  */
TEST (AesOcb, Rfc7253Iterated)
{
  struct Case { int keybits, tagbits; const char *out; };
  const Case cases[] = {
    { 128, 128, "67E944D23256C5E0B6C61FA22FDF1EA2" },
    { 192, 128, "F673F2C3E7174AAE7BAE986CA9F29E17" },
    { 256, 128, "D90EB8E9C977C88B79DD793D7FFA161C" },
    { 128, 96, "77A3D8E73589158D25D01209" },
    { 192, 96, "05D56EAD2752C86BE6932C5E" },
    { 256, 96, "5458359AC23B0CBA9E6330DD" },
    { 128, 64, "192C9B7BD90BA06A" },
    { 192, 64, "0066BC6E0EF34E24" },
    { 256, 64, "7D4EA5D445501CBE" },
  };
  auto nonce = [] (unsigned int x) {
    Bytes n (12, 0);
    n[10] = (uint8_t) (x >> 8);
    n[11] = (uint8_t) x;
    return n;
  };
  for (const cipher_impl_info *impl : paths ())
    {
      testutil::ScopedPath force (*impl);
      for (const Case &cs : cases)
        {
          Bytes key (cs.keybits / 8, 0);
          key.back () = (uint8_t) cs.tagbits;
          const int tl = cs.tagbits / 8;
          Bytes c;
          for (unsigned int i = 0; i < 128; i++)
            {
              Bytes s (i, 0), e;
              Bytes r1 = ocb_seal (key, nonce (3 * i + 1), s, s, tl);
              Bytes r2 = ocb_seal (key, nonce (3 * i + 2), e, s, tl);
              Bytes r3 = ocb_seal (key, nonce (3 * i + 3), s, e, tl);
              c.insert (c.end (), r1.begin (), r1.end ());
              c.insert (c.end (), r2.begin (), r2.end ());
              c.insert (c.end (), r3.begin (), r3.end ());
            }
          Bytes e;
          EXPECT_EQ (hex_encode (hex_decode (cs.out)),
                     hex_encode (ocb_seal (key, nonce (385), c, e, tl)))
            << impl->name << " K" << cs.keybits << " T" << cs.tagbits;
        }
    }
}

/* ---- Bulk vs per-block ------------------------------------------------ */

/* Random sequences of data calls (random lengths, in place or not,
 * unaligned buffers) on two handles of the same path, one with its bulk
 * table cleared: outputs and tags must agree.  */
void
bulk_vs_single (int mode, const cipher_impl_info *impl, Prng &rng)
{
  testutil::ScopedPath force (*impl);
  for (int round = 0; round < 60; round++)
    {
      Handle a (GCRY_CIPHER_AES, mode), b (GCRY_CIPHER_AES, mode);
      size_t kl = (mode == GCRY_CIPHER_MODE_XTS ? 2 : 1)
                  * (16 + 8 * rng.below (3));
      Bytes key = rng.bytes (kl), iv = rng.bytes (mode == GCRY_CIPHER_MODE_XTS
                                                  ? 16 : 8 + rng.below (8));
      ASSERT_EQ (0u, gcry_cipher_setkey (a.h, key.data (), kl));
      ASSERT_EQ (0u, gcry_cipher_setkey (b.h, key.data (), kl));
      ASSERT_STREQ (impl->name, a.h->impl_name);
      memset (&b.h->bulk, 0, sizeof b.h->bulk);
      ASSERT_EQ (0u, gcry_cipher_setiv (a.h, iv.data (), iv.size ()));
      ASSERT_EQ (0u, gcry_cipher_setiv (b.h, iv.data (), iv.size ()));
      const bool enc = rng.below (2);
      const int calls = 1 + (int) rng.below (4);
      for (int k = 0; k < calls; k++)
        {
          const bool last = k == calls - 1;
          size_t len;
          if (mode == GCRY_CIPHER_MODE_XTS)
            len = 16 + rng.below (rng.below (4) ? 300 : 3000);
          else
            {
              len = 16 * rng.below (rng.below (4) ? 20 : 200);
              if (last)
                len += rng.below (16);
              if (rng.below (3) == 0)
                {
                  /* Long enough at times for the bulk OCB-auth slot's
                   * full batches (32 blocks with 512-bit VAES).  */
                  Bytes ad = rng.bytes (rng.below (2) ? rng.below (200)
                                                      : rng.below (3000));
                  ASSERT_EQ (0u, gcry_cipher_authenticate (a.h, ad.data (),
                                                           ad.size ()));
                  ASSERT_EQ (0u, gcry_cipher_authenticate (b.h, ad.data (),
                                                           ad.size ()));
                }
              if (last)
                {
                  gcry_cipher_final (a.h);
                  gcry_cipher_final (b.h);
                }
            }
          const size_t off = rng.below (16);
          Bytes in = rng.bytes (len + off), oa (len + off + 8),
                ob (len + off + 8);
          const bool inplace = rng.below (2);
          auto fa = enc ? gcry_cipher_encrypt : gcry_cipher_decrypt;
          if (inplace)
            {
              if (len)   /* in.data () is NULL when LEN + OFF is 0 */
                {
                  memcpy (oa.data () + off, in.data () + off, len);
                  memcpy (ob.data () + off, in.data () + off, len);
                }
              ASSERT_EQ (0u, fa (a.h, oa.data () + off, len, nullptr, 0));
              ASSERT_EQ (0u, fa (b.h, ob.data () + off, len, nullptr, 0));
            }
          else
            {
              ASSERT_EQ (0u, fa (a.h, oa.data () + off, len,
                                 in.data () + off, len));
              ASSERT_EQ (0u, fa (b.h, ob.data () + off, len,
                                 in.data () + off, len));
            }
          ASSERT_EQ (hex_encode (ob), hex_encode (oa))
            << impl->name << " round " << round << " call " << k
            << " len " << len << (enc ? " enc" : " dec");
        }
      if (mode == GCRY_CIPHER_MODE_OCB)
        {
          uint8_t ta[16], tb[16];
          ASSERT_EQ (0u, gcry_cipher_gettag (a.h, ta, 16));
          ASSERT_EQ (0u, gcry_cipher_gettag (b.h, tb, 16));
          ASSERT_EQ (hex_encode (tb, 16), hex_encode (ta, 16)) << round;
        }
    }
}

TEST (AesXtsOcb, BulkVsPerBlock)
{
  Prng rng (0x7853);
  for (const cipher_impl_info *impl : paths ())
    {
      std::string slots;
      {
        testutil::ScopedPath force (*impl);
        Handle probe (GCRY_CIPHER_AES, GCRY_CIPHER_MODE_OCB);
        uint8_t key[16] = { 0 };
        EXPECT_EQ (0u, gcry_cipher_setkey (probe.h, key, 16));
        slots += probe.h->bulk.xts_crypt ? " xts_crypt" : "";
        slots += probe.h->bulk.ocb_crypt ? " ocb_crypt" : "";
        slots += probe.h->bulk.ocb_auth ? " ocb_auth" : "";
        slots += probe.h->bulk.ecb_crypt ? " ecb_crypt" : "";
      }
      bulk_vs_single (GCRY_CIPHER_MODE_XTS, impl, rng);
      bulk_vs_single (GCRY_CIPHER_MODE_OCB, impl, rng);
      printf ("[ path     ] %-8s bulk vs per-block (XTS, OCB) equal; bulk"
              " slots:%s\n", impl->name, slots.empty () ? " none"
                                                         : slots.c_str ());
    }
}

/* ---- Differential against the system libgcrypt ------------------------ */

/* Two handles (A = gcipher, B = system) driven call for call.  */
using testutil::Twin;

class AesXtsOcbDiff : public SysgcryptTest {};

const int aes_algos[] = { GCRY_CIPHER_AES, GCRY_CIPHER_AES192,
                          GCRY_CIPHER_AES256 };

/* One random XTS call sequence.  */
void
xts_sequence (Twin &t, Prng &rng, int steps)
{
  Bytes key = rng.bytes (96);
  if (!t.open (aes_algos[rng.below (3)], GCRY_CIPHER_MODE_XTS))
    return;
  for (int s = 0; s < steps && t.ok; s++)
    {
      unsigned int op = (unsigned int) rng.below (100);
      if (op < 8)
        {
          static const size_t kls[] = { 32, 48, 64, 0, 16, 31, 33, 40, 63,
                                        24, 96 };
          size_t kl = kls[rng.below (rng.below (3) ? 3 : 11)];
          if (rng.below (8) == 0)   /* Equal halves.  */
            memcpy (key.data () + kl / 2, key.data (), kl / 2);
          else
            key = rng.bytes (96);
          t.setkey (key, kl);
        }
      else if (op < 20)
        {
          Bytes iv = rng.bytes (24);
          if (rng.below (3) == 0)   /* Near a carry.  */
            memset (iv.data (), 0xff, 16 - rng.below (3));
          size_t len = rng.below (4) ? 16 : rng.below (21);
          t.setiv (rng.below (10) ? iv.data () : nullptr, len);
        }
      else if (op < 23)
        {
          Bytes c = rng.bytes (16);
          t.setctr (c.data (), 16);
        }
      else if (op < 26)
        t.ctl (GCRYCTL_RESET, nullptr, 0);
      else if (op < 28)
        {
          int tl = 16;
          t.ctl (GCRYCTL_SET_TAGLEN, &tl, sizeof tl);
          t.info (GCRYCTL_GET_TAGLEN, false);
          Bytes ad (16);
          t.authenticate (ad);
          t.gettag (16);
        }
      else
        {
          size_t len = rng.below (4) ? 16 + rng.below (200)
                                     : rng.below (rng.below (2) ? 20 : 600);
          size_t outsize = rng.below (6) ? len : rng.below (len + 2);
          Bytes data = rng.bytes (std::max (len, outsize) + 16);
          t.crypt (rng.below (2), data, len, outsize,
                   (Twin::InMode) rng.below (3));
        }
    }
}

/* One random OCB call sequence.  */
void
ocb_sequence (Twin &t, Prng &rng, int steps)
{
  Bytes key = rng.bytes (32);
  if (!t.open (aes_algos[rng.below (3)], GCRY_CIPHER_MODE_OCB))
    return;
  bool good_order = rng.below (2);
  /* After a failed setkey gcipher has wiped the old key schedule, while
   * libgcrypt goes on using it for the AAD and the tag of the message
   * begun under it (a deliberate difference): until a good setkey or a
   * reset, only calls that cannot compute with the key are compared.  */
  bool tainted = false;
  for (int s = 0; s < steps && t.ok; s++)
    {
      unsigned int op = (unsigned int) rng.below (100);
      if (tainted && ((op >= 32 && op < 46) || (op >= 80 && op < 98)))
        continue;
      if (op < 6 || (s == 0 && good_order))
        {
          static const size_t kls[] = { 16, 24, 32, 0, 15, 17, 33 };
          size_t idx = rng.below (rng.below (4) ? 3 : 7);
          if (rng.below (2))
            key = rng.bytes (32);
          t.setkey (key, kls[idx]);
          tainted = idx >= 3;
        }
      else if (op < 16)
        {
          Bytes iv = rng.bytes (20);
          size_t len = rng.below (3) ? 8 + rng.below (8) : rng.below (18);
          t.setiv (rng.below (12) ? iv.data () : nullptr, len);
        }
      else if (op < 21)
        {
          static const int tls[] = { 8, 12, 16, 0, 4, 9, 15, 17, 32, -1 };
          int tl = tls[rng.below (rng.below (3) ? 3 : 10)];
          t.ctl (GCRYCTL_SET_TAGLEN, &tl, sizeof tl);
          t.info (GCRYCTL_GET_TAGLEN, false);
        }
      else if (op < 24)
        {
          t.ctl (GCRYCTL_RESET, nullptr, 0);
          tainted = false;
        }
      else if (op < 32)
        t.ctl (GCRYCTL_FINALIZE, nullptr, 0);
      else if (op < 46)
        t.authenticate (rng.bytes (rng.below (4) ? rng.below (40)
                                                 : rng.below (300)));
      else if (op < 80)
        {
          size_t len = rng.below (3) ? 16 * rng.below (12)
                                     : rng.below (rng.below (2) ? 40 : 400);
          size_t outsize = rng.below (8) ? len : rng.below (len + 2);
          Bytes data = rng.bytes (std::max (len, outsize) + 16);
          t.crypt (rng.below (2), data, len, outsize,
                   (Twin::InMode) rng.below (3));
        }
      else if (op < 88)
        t.gettag (rng.below (5) ? 16 : rng.below (20));
      else if (op < 98)
        {
          Bytes tag = t.last_tag;
          if (tag.empty () || rng.below (4) == 0)
            tag = rng.bytes (rng.below (18));
          else if (rng.below (3) == 0)
            tag[rng.below (tag.size ())] ^= (uint8_t) (1 + rng.below (255));
          else if (rng.below (4) == 0)
            tag.resize (rng.below (tag.size () + 4), 0);
          t.checktag (tag);
        }
      else
        {
          Bytes c = rng.bytes (16);
          t.setctr (c.data (), 16);
        }
    }
}

TEST_F (AesXtsOcbDiff, XtsRandomSequences)
{
  Prng rng (0x1619);
  int n = 0;
  for (const cipher_impl_info *impl : paths ())
    for (int strip = 0; strip < 2; strip++)
      {
        testutil::ScopedPath force (*impl);
        Twin t (&ours, sys);
        t.strip_bulk = strip;
        for (int seq = 0; seq < 500 && t.ok; seq++, n++)
          xts_sequence (t, rng, 40);
        ASSERT_TRUE (t.ok) << impl->name << (strip ? " per-block" : " bulk");
      }
  printf ("[ diff     ] XTS: %d random sequences equal\n", n);
}

TEST_F (AesXtsOcbDiff, OcbRandomSequences)
{
  Prng rng (0x7253);
  int n = 0;
  for (const cipher_impl_info *impl : paths ())
    for (int strip = 0; strip < 2; strip++)
      {
        testutil::ScopedPath force (*impl);
        Twin t (&ours, sys);
        t.strip_bulk = strip;
        for (int seq = 0; seq < 1500 && t.ok; seq++, n++)
          ocb_sequence (t, rng, 50);
        ASSERT_TRUE (t.ok) << impl->name << (strip ? " per-block" : " bulk");
      }
  printf ("[ diff     ] OCB: %d random sequences equal\n", n);
}

/* Well-formed OCB messages with random AAD/data splits: tags equal and
 * the system's tag verifies on our side (and a wrong one does not).  */
TEST_F (AesXtsOcbDiff, OcbSplitsAndTags)
{
  Prng rng (0x0cb);
  Twin t (&ours, sys);
  for (int m = 0; m < 300 && t.ok; m++)
    {
      ASSERT_TRUE (t.open (aes_algos[rng.below (3)], GCRY_CIPHER_MODE_OCB));
      Bytes key = rng.bytes (32);
      t.setkey (key, 16 + 8 * rng.below (3));
      static const int tls[] = { 8, 12, 16 };
      int tl = tls[rng.below (3)];
      if (rng.below (2))
        t.ctl (GCRYCTL_SET_TAGLEN, &tl, sizeof tl);
      Bytes iv = rng.bytes (15);
      t.setiv (iv.data (), 8 + rng.below (8));
      bool enc = rng.below (2);
      size_t total = rng.below (rng.below (4) ? 100 : 2000);
      size_t done = 0;
      while (t.ok)
        {
          if (rng.below (2))
            t.authenticate (rng.bytes (rng.below (50)));
          size_t n = 16 * rng.below (8);
          if (done + n >= total)
            break;
          t.crypt (enc, rng.bytes (n), n, n, (Twin::InMode) rng.below (3));
          done += n;
        }
      t.ctl (GCRYCTL_FINALIZE, nullptr, 0);
      size_t rest = total - done;
      t.crypt (enc, rng.bytes (rest), rest, rest,
               (Twin::InMode) rng.below (3));
      if (rng.below (2))
        {
          t.gettag (16);
          Bytes tag = t.last_tag;
          tag.resize (rng.below (2) ? 16 : (size_t) tl);
          t.checktag (tag);
        }
      else
        t.checktag (rng.bytes ((size_t) tl));
    }
  EXPECT_TRUE (t.ok);
}

/* An odd XTS key (Key1 || Key2 cannot be split, IEEE 1619-2018 5.1) is
 * refused before the handle is touched: the previous key stays in use,
 * as in libgcrypt (cipher_mode_ops::keylen_check).  */
TEST_F (AesXtsOcbDiff, XtsOddKeyKeepsThePreviousKey)
{
  Twin t (&ours, sys);
  for (int algo : aes_algos)
    for (size_t odd : { (size_t) 1, (size_t) 31, (size_t) 33, (size_t) 63 })
      {
        ASSERT_TRUE (t.open (algo, GCRY_CIPHER_MODE_XTS));
        Bytes key = testutil::Prng (odd).bytes (64);
        size_t kl = algo == GCRY_CIPHER_AES ? 32 : 64;
        if (algo == GCRY_CIPHER_AES192)
          kl = 48;
        t.setkey (key, kl);
        EXPECT_EQ (gcry_err_code (t.setkey (key, odd)), GPG_ERR_INV_KEYLEN);
        uint8_t iv[16] = { 1 };
        t.setiv (iv, 16);
        Bytes d = testutil::Prng (odd + 1).bytes (48);
        EXPECT_EQ (t.crypt (true, d, 48, 48, Twin::SEPARATE), 0u);
      }
  EXPECT_TRUE (t.ok);
}

/* XTS length limit (2^20 blocks per data unit) and the tweak counter
 * carrying through all 128 bits.  */
TEST_F (AesXtsOcbDiff, XtsLimits)
{
  Twin t (&ours, sys);
  ASSERT_TRUE (t.open (GCRY_CIPHER_AES, GCRY_CIPHER_MODE_XTS));
  Bytes key = testutil::Prng (5).bytes (64);
  t.setkey (key, 32);
  Bytes big (((size_t) 1 << 24) + 32, 0x11);
  for (size_t len : { ((size_t) 1 << 24) - 1, (size_t) 1 << 24,
                      ((size_t) 1 << 24) + 1, ((size_t) 1 << 24) + 16 })
    {
      t.note ("encrypt big " + std::to_string (len));
      Bytes a = big, b = big;
      t.same (gcry_cipher_encrypt (t.ha, a.data (), len, nullptr, 0),
              sys->cipher_encrypt (t.hb, b.data (), len, nullptr, 0),
              "encrypt big");
      if (a != b)
        t.fail ("big output differs");
    }
  uint8_t iv[16];
  memset (iv, 0xff, 16);
  t.setiv (iv, 16);
  Bytes d (64, 7);
  for (int i = 0; i < 3; i++)
    t.crypt (i & 1, d, 33, 33, Twin::SEPARATE);
  EXPECT_TRUE (t.ok);
}

}  // namespace
