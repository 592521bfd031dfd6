/* t-overlap.cpp - partly overlapping input and output buffers.
 *
 * gcipher gives the result disjoint buffers give whenever the input and
 * the output of gcry_cipher_encrypt / gcry_cipher_decrypt share some
 * but not all bytes (doc/gcipher.md "Compatibility notes"; libgcrypt's
 * result there depends on the offset and the path).  A case is
 *
 *   (algorithm, path, mode, direction, length, offset of OUT from IN)
 *
 * for one algorithm of every family gcipher implements, every AES path
 * this CPU runs (forced through the hwf test mask, testutil's
 * ScopedPath), every mode the algorithm serves (ECB, CBC, CBC-CTS,
 * CBC-MAC, CFB, CFB8, OFB, CTR, XTS, GCM, GCM-SIV, CCM, OCB, EAX, SIV,
 * AES key wrap with and without padding, STREAM, POLY1305), lengths
 * from 16 to 520 bytes and offsets +-1, +-15, +-16, +-17, +-64 (only
 * the combinations where the buffers really overlap partly).  Each runs
 * twice on fresh handles in the same state: once into a separate
 * buffer (the reference), once inside one arena with OUT = IN + offset.
 * Equal means: the same return code, the same bytes in the region the
 * mode writes (OUTSIZE bytes; one block for CBC-MAC encryption), the
 * same tag (AEAD modes), and no byte of the arena outside that region
 * changed.  The decryption input is the reference encryption's output
 * (with its tag for SIV and GCM-SIV), so every case succeeds.
 *
 * The same cases run on the system libgcrypt (sysgcrypt.h) with its
 * default path; how many of them it gets right is printed, not
 * required.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gcrypt.h"
#include "cipher-internal.h"
#include "sysgcrypt.h"
#include "testutil.h"

using testutil::Bytes;

namespace {

/* gcipher's API behind the table type the system library uses.  */
const sysgcrypt &ours = *sysgcrypt_ours ();

struct ModeCase
{
  const char *name;
  int mode;
  unsigned int flags;
};

const ModeCase mode_cases[] = {
  { "ECB", GCRY_CIPHER_MODE_ECB, 0 },
  { "CBC", GCRY_CIPHER_MODE_CBC, 0 },
  { "CBC-CTS", GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_CBC_CTS },
  { "CBC-MAC", GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_CBC_MAC },
  { "CFB", GCRY_CIPHER_MODE_CFB, 0 },
  { "CFB8", GCRY_CIPHER_MODE_CFB8, 0 },
  { "OFB", GCRY_CIPHER_MODE_OFB, 0 },
  { "CTR", GCRY_CIPHER_MODE_CTR, 0 },
  { "XTS", GCRY_CIPHER_MODE_XTS, 0 },
  { "GCM", GCRY_CIPHER_MODE_GCM, 0 },
  { "GCM-SIV", GCRY_CIPHER_MODE_GCM_SIV, 0 },
  { "CCM", GCRY_CIPHER_MODE_CCM, 0 },
  { "OCB", GCRY_CIPHER_MODE_OCB, 0 },
  { "EAX", GCRY_CIPHER_MODE_EAX, 0 },
  { "SIV", GCRY_CIPHER_MODE_SIV, 0 },
  { "AESWRAP", GCRY_CIPHER_MODE_AESWRAP, 0 },
  { "AESWRAP-KWP", GCRY_CIPHER_MODE_AESWRAP, GCRY_CIPHER_EXTENDED },
  { "STREAM", GCRY_CIPHER_MODE_STREAM, 0 },
  { "POLY1305", GCRY_CIPHER_MODE_POLY1305, 0 },
};

/* One algorithm per family.  */
const cipher_spec *const families[] = {
  &_gcry_cipher_spec_aes,        &_gcry_cipher_spec_serpent128,
  &_gcry_cipher_spec_camellia128, &_gcry_cipher_spec_sm4,
  &_gcry_cipher_spec_seed,       &_gcry_cipher_spec_twofish,
  &_gcry_cipher_spec_aria128,    &_gcry_cipher_spec_des,
  &_gcry_cipher_spec_tripledes,  &_gcry_cipher_spec_blowfish,
  &_gcry_cipher_spec_chacha20,   &_gcry_cipher_spec_salsa20,
  &_gcry_cipher_spec_arcfour,
};

const size_t lengths[] = { 16,  17,  24,  31,  32,  33,  47,  48,  63, 64,
                           65,  100, 128, 129, 255, 256, 257, 512, 519, 520 };
const long offsets[] = { 1, -1, 15, -15, 16, -16, 17, -17, 64, -64 };

/* Key bytes for SPEC in MODE (XTS and SIV take two keys).  */
size_t
key_len_for (const cipher_spec *spec, int mode)
{
  size_t kl = spec->keylen / 8;
  if (mode == GCRY_CIPHER_MODE_XTS || mode == GCRY_CIPHER_MODE_SIV)
    kl *= 2;
  return kl;
}

/* Nonce / IV bytes (0: none).  */
size_t
iv_len_for (const cipher_spec *spec, int mode)
{
  switch (mode)
    {
    case GCRY_CIPHER_MODE_ECB: case GCRY_CIPHER_MODE_AESWRAP:
      return 0;
    case GCRY_CIPHER_MODE_STREAM:
      return spec->algo == GCRY_CIPHER_ARCFOUR ? 0
             : spec->algo == GCRY_CIPHER_CHACHA20 ? 12 : 8;
    case GCRY_CIPHER_MODE_CCM: case GCRY_CIPHER_MODE_GCM:
    case GCRY_CIPHER_MODE_OCB: case GCRY_CIPHER_MODE_EAX:
    case GCRY_CIPHER_MODE_SIV: case GCRY_CIPHER_MODE_GCM_SIV:
    case GCRY_CIPHER_MODE_POLY1305:
      return 12;
    default:
      return spec->blocksize;
    }
}

const Bytes key = testutil::Prng (1).bytes (64);
const Bytes nonce = testutil::Prng (2).bytes (16);
const Bytes aad = testutil::Prng (3).bytes (16);

/* Open and bring a handle to the point where the message's text comes
 * (N plaintext bytes; TAG: the decryption tag of SIV and GCM-SIV).
 * NULL if the library refuses (the case is then skipped).  */
gcry_cipher_hd_t
prepare (const sysgcrypt *L, const cipher_spec *spec, const ModeCase &m,
         size_t n, bool decrypt, const Bytes &tag)
{
  gcry_cipher_hd_t h;
  if (L->cipher_open (&h, spec->algo, m.mode, m.flags))
    return nullptr;
  bool ok = !L->cipher_setkey (h, key.data (), key_len_for (spec, m.mode));
  size_t ivlen = iv_len_for (spec, m.mode);
  if (m.mode == GCRY_CIPHER_MODE_SIV)
    ok = ok && !L->cipher_authenticate (h, aad.data (), aad.size ());
  if (ivlen && m.mode == GCRY_CIPHER_MODE_CTR)
    ok = ok && !L->cipher_setctr (h, nonce.data (), ivlen);
  else if (ivlen)
    ok = ok && !L->cipher_setiv (h, nonce.data (), ivlen);
  if (m.mode == GCRY_CIPHER_MODE_CCM)
    {
      uint64_t p[3] = { n, aad.size (), 16 };
      ok = ok && !L->cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS, p, sizeof p);
    }
  if (testutil::is_aead_mode (m.mode) && m.mode != GCRY_CIPHER_MODE_SIV)
    ok = ok && !L->cipher_authenticate (h, aad.data (), aad.size ());
  if (decrypt && (m.mode == GCRY_CIPHER_MODE_SIV
                  || m.mode == GCRY_CIPHER_MODE_GCM_SIV))
    ok = ok && !L->cipher_ctl (h, GCRYCTL_SET_DECRYPTION_TAG,
                               const_cast<uint8_t *> (tag.data ()),
                               tag.size ());
  if (m.mode == GCRY_CIPHER_MODE_OCB)
    ok = ok && !L->cipher_ctl (h, GCRYCTL_FINALIZE, nullptr, 0);
  if (!ok)
    {
      L->cipher_close (h);
      return nullptr;
    }
  return h;
}

/* Output bytes for INLEN input bytes.  */
size_t
out_len (const ModeCase &m, size_t inlen, bool decrypt)
{
  if (m.mode != GCRY_CIPHER_MODE_AESWRAP)
    return inlen;
  if (decrypt)
    return inlen - 8;
  if (m.flags & GCRY_CIPHER_EXTENDED)
    return ((inlen + 7) & ~(size_t) 7) + 8;
  return inlen + 8;
}

struct Result
{
  gcry_error_t rc = 0;
  Bytes out, tag;
  bool arena_ok = true;   /* Nothing outside the output changed.  */
};

bool
operator== (const Result &a, const Result &b)
{
  return a.rc == b.rc && (a.rc || a.out == b.out) && a.tag == b.tag
         && a.arena_ok && b.arena_ok;
}

/* The message's text IN through a prepared handle: into a separate
 * buffer (OFFSET 0) or within one arena at OUT = IN + OFFSET.  */
Result
run (const sysgcrypt *L, gcry_cipher_hd_t h, const ModeCase &m,
     size_t bs, const Bytes &in, bool decrypt, long offset, bool separate)
{
  Result r;
  const size_t outsize = out_len (m, in.size (), decrypt);
  /* CBC-MAC encryption writes the MAC block only.  */
  const size_t written = (!decrypt && (m.flags & GCRY_CIPHER_CBC_MAC))
                         ? bs : outsize;
  auto fn = decrypt ? L->cipher_decrypt : L->cipher_encrypt;
  if (separate)
    {
      Bytes out (outsize, 0x5a);
      r.rc = fn (h, out.data (), outsize, in.data (), in.size ());
      r.out.assign (out.begin (), out.begin () + written);
    }
  else
    {
      const size_t base = 128;
      Bytes arena (base + in.size () + outsize + 256);
      for (size_t i = 0; i < arena.size (); i++)
        arena[i] = (uint8_t) (0xc3 ^ (i * 29));
      memcpy (arena.data () + base, in.data (), in.size ());
      const Bytes before = arena;
      uint8_t *out = arena.data () + base + offset;
      r.rc = fn (h, out, outsize, arena.data () + base, in.size ());
      r.out.assign (out, out + written);
      const size_t lo = base + offset, hi = lo + written;
      for (size_t i = 0; i < arena.size (); i++)
        if ((i < lo || i >= hi) && arena[i] != before[i])
          r.arena_ok = false;
    }
  if (testutil::is_aead_mode (m.mode))
    {
      r.tag.assign (16, 0);
      gcry_error_t e = L->cipher_gettag (h, r.tag.data (), 16);
      if (e)
        r.tag.assign (1, (uint8_t) gcry_err_code (e));
    }
  return r;
}

struct Tally
{
  size_t cases = 0, equal = 0;
};

/* Every mode, length, direction and offset of SPEC on library L (for
 * gcipher: the path forced by the caller).  FAILURES counts and reports
 * gcipher's differences.  */
void
run_family (const sysgcrypt *L, const cipher_spec *spec,
            const std::string &path, Tally *t, bool expect_equal)
{
  const size_t bs = spec->blocksize;
  for (const ModeCase &m : mode_cases)
    {
      if (!_gcry_cipher_mode_supported (spec, m.mode))
        continue;
      if (m.mode == GCRY_CIPHER_MODE_POLY1305
          && spec->algo != GCRY_CIPHER_CHACHA20)
        continue;
      size_t failures = 0;
      for (size_t n : lengths)
        {
          /* The ciphertext (and SIV/GCM-SIV tag) of N bytes: the
           * decryption input, from gcipher's separate-buffer run.  */
          const Bytes pt = testutil::Prng (1000 + n).bytes (n);
          Bytes ct, tag;
          {
            gcry_cipher_hd_t h = prepare (&ours, spec, m, n, false, {});
            if (!h)
              continue;
            Result e = run (&ours, h, m, bs, pt, false, 0, true);
            gcry_cipher_close (h);
            if (e.rc)
              continue;   /* A length the mode refuses.  */
            ct.resize (out_len (m, n, false));
            gcry_cipher_hd_t h2 = prepare (&ours, spec, m, n, false, {});
            ours.cipher_encrypt (h2, ct.data (), ct.size (), pt.data (), n);
            tag.assign (16, 0);
            if (testutil::is_aead_mode (m.mode))
              ours.cipher_gettag (h2, tag.data (), 16);
            gcry_cipher_close (h2);
          }
          for (int decrypt = 0; decrypt < 2; decrypt++)
            {
              /* CBC-MAC output is one block: nothing to decrypt.  */
              if (decrypt && (m.flags & GCRY_CIPHER_CBC_MAC))
                continue;
              const Bytes &in = decrypt ? ct : pt;
              const size_t outsize = out_len (m, in.size (), decrypt);
              for (long d : offsets)
                {
                  /* Only a partial overlap.  */
                  const long inl = (long) in.size (), outl = (long) outsize;
                  if (!(d < inl && -d < outl))
                    continue;
                  gcry_cipher_hd_t h1 = prepare (L, spec, m, n, decrypt, tag);
                  gcry_cipher_hd_t h2 = prepare (L, spec, m, n, decrypt, tag);
                  if (!h1 || !h2)
                    {
                      if (h1)
                        L->cipher_close (h1);
                      if (h2)
                        L->cipher_close (h2);
                      continue;
                    }
                  Result ref = run (L, h1, m, bs, in, decrypt, 0, true);
                  Result got = run (L, h2, m, bs, in, decrypt, d, false);
                  L->cipher_close (h1);
                  L->cipher_close (h2);
                  t->cases++;
                  if (ref == got)
                    t->equal++;
                  else if (expect_equal && failures++ < 3)
                    ADD_FAILURE ()
                      << spec->name << " " << path << " " << m.name << " "
                      << (decrypt ? "decrypt" : "encrypt") << " "
                      << in.size () << " bytes, out = in "
                      << (d > 0 ? "+ " : "- ") << (d > 0 ? d : -d)
                      << ": rc " << got.rc << " (separate " << ref.rc
                      << "), out " << testutil::hex_encode (got.out)
                      << "\n  separate " << testutil::hex_encode (ref.out)
                      << (got.arena_ok ? "" : "\n  bytes outside the "
                                              "output changed");
                }
            }
        }
    }
}

TEST (Overlap, EqualsSeparateBuffersEveryFamilyModePath)
{
  Tally ours_t;
  std::vector<std::string> paths_run;
  for (const cipher_spec *spec : families)
    {
      if (spec == &_gcry_cipher_spec_aes)
        {
          for (const cipher_impl_info *impl : testutil::available_paths (spec))
            {
              testutil::ScopedPath force (*impl);
              paths_run.push_back (impl->name);
              run_family (&ours, spec, impl->name, &ours_t, true);
            }
        }
      else
        run_family (&ours, spec, "default", &ours_t, true);
    }
  EXPECT_GT (ours_t.cases, 20000u);
  EXPECT_EQ (ours_t.equal, ours_t.cases);
  printf ("[ overlap  ] gcipher: %zu of %zu partly overlapping cases equal "
          "to separate buffers (AES paths: %s)\n", ours_t.equal,
          ours_t.cases, testutil::path_names (
              testutil::available_paths (&_gcry_cipher_spec_aes)).c_str ());
}

/* libgcrypt 1.10 on the same cases (its default path; ARIA is not in
 * it): counted, not required.  */
TEST (Overlap, LibgcryptCount)
{
  const sysgcrypt *sys = sysgcrypt_load ();
  if (!sys)
    GTEST_SKIP () << "system libgcrypt unavailable: " << sysgcrypt_error ();
  Tally sys_t, ours_t;
  for (const cipher_spec *spec : families)
    {
      if (testutil::libgcrypt111_only_algo (spec->algo))
        continue;
      run_family (sys, spec, "libgcrypt", &sys_t, false);
      run_family (&ours, spec, "default", &ours_t, true);
    }
  EXPECT_GT (sys_t.cases, 0u);
  printf ("[ overlap  ] libgcrypt %s: %zu of %zu partly overlapping cases "
          "equal to separate buffers (gcipher, default paths: %zu of %zu)\n",
          sys->version, sys_t.equal, sys_t.cases, ours_t.equal,
          ours_t.cases);
}

} // namespace

/* A call the mode refuses leaves partly overlapping output as separate
 * buffers would: untouched for a decryption (found by the differential
 * fuzzer: an ECB decryption of 300 bytes, the output 6 bytes after the
 * input, moved the input into the output before GPG_ERR_INV_LENGTH).  */
TEST (Overlap, FuzzRefusedCallLeavesOutput)
{
  const uint8_t k[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
  for (int mode : { GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC })
    for (size_t delta : { 1, 6, 16, 40 })
      {
        gcry_cipher_hd_t h;
        ASSERT_EQ (0u, gcry_cipher_open (&h, GCRY_CIPHER_AES, mode, 0));
        ASSERT_EQ (0u, gcry_cipher_setkey (h, k, sizeof k));
        std::vector<uint8_t> blk (300 + delta);
        for (size_t i = 0; i < blk.size (); i++)
          blk[i] = (uint8_t) (i * 7 + 3);
        const std::vector<uint8_t> before (blk);
        /* Output after the input, then before it; 300 is no multiple
         * of the block length.  */
        EXPECT_EQ (GPG_ERR_INV_LENGTH,
                   gcry_err_code (gcry_cipher_decrypt (h, blk.data () + delta,
                                                       300, blk.data (),
                                                       300)));
        EXPECT_EQ (before, blk) << "mode " << mode << " delta " << delta;
        EXPECT_EQ (GPG_ERR_INV_LENGTH,
                   gcry_err_code (gcry_cipher_decrypt (h, blk.data (), 300,
                                                       blk.data () + delta,
                                                       300)));
        EXPECT_EQ (before, blk) << "mode " << mode << " delta " << delta;
        gcry_cipher_close (h);
      }
}
