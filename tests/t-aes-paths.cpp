/* t-aes-paths.cpp - every AES path against the generic one on random data.
 *
 * Two levels:
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
 * Deterministic: the PRNG seed is fixed (printed); GCIPHER_TEST_SEED
 * overrides it.
 */
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "testutil.h"

using namespace testutil;

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

int
algo_for_keylen (size_t keylen)
{
  return keylen == 16 ? GCRY_CIPHER_AES
         : keylen == 24 ? GCRY_CIPHER_AES192 : GCRY_CIPHER_AES256;
}

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
