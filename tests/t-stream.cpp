/* t-stream.cpp - ChaCha20, Salsa20, Salsa20/12, ARCFOUR (MODE_STREAM) and
 * ChaCha20-Poly1305 (MODE_POLY1305).
 *
 *  - Known answers: RFC 8439 2.3.2, 2.4.2, 2.5.2, 2.8.2 and Appendix A.3
 *    (Poly1305 edge cases), Botan's stream/chacha.vec, stream/salsa20.vec
 *    and aead/chacha20poly1305.vec, Wycheproof chacha20_poly1305_test.json
 *    (read through TESTVECTORS_DIR), RFC 6229 (ARCFOUR).
 *  - Differential: random call sequences (key and IV lengths, splits at
 *    odd offsets, in place, reset, re-key, the whole POLY1305 state
 *    machine) against the system libgcrypt, every return value and every
 *    output byte compared; open/algo_info/names for every mode.
 *  - The one deliberate difference: a STREAM call whose output is shorter
 *    than its input is GPG_ERR_BUFFER_TOO_SHORT (libgcrypt overruns).
 */
#include <config.h>

#include <string.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gcrypt.h"
#include "cipher-internal.h"
#include "poly1305.h"
#include "sysgcrypt-test.h"
#include "testutil.h"
#include "twin.h"

using testutil::Bytes;
using testutil::Prng;
using testutil::hex_decode;
using testutil::hex_encode;

namespace {

const int stream_algos[] = { GCRY_CIPHER_ARCFOUR, GCRY_CIPHER_SALSA20,
                             GCRY_CIPHER_SALSA20R12, GCRY_CIPHER_CHACHA20 };

struct Handle
{
  gcry_cipher_hd_t h = nullptr;
  Handle (int algo, int mode)
  {
    EXPECT_EQ (0u, gcry_cipher_open (&h, algo, mode, 0));
  }
  ~Handle () { gcry_cipher_close (h); }
};

/* One-shot STREAM encryption through the public API.  */
Bytes
stream_crypt (int algo, const Bytes &key, const Bytes &iv, const Bytes &in)
{
  Handle c (algo, GCRY_CIPHER_MODE_STREAM);
  EXPECT_EQ (0u, gcry_cipher_setkey (c.h, key.data (), key.size ()));
  if (!iv.empty ())
    {
      EXPECT_EQ (0u, gcry_cipher_setiv (c.h, iv.data (), iv.size ()));
    }
  Bytes out (in.size ());
  EXPECT_EQ (0u, gcry_cipher_encrypt (c.h, out.data (), out.size (),
                                      in.data (), in.size ()));
  return out;
}

/* gcipher initialised, its log (and the system library's) quiet.  */
class Stream : public ::testing::Test
{
protected:
  void
  SetUp () override
  {
    sysgcrypt_load_quiet ();
  }
};

/* ---- Known answers ---------------------------------------------------- */

TEST_F (Stream, ChaCha20Rfc8439)
{
  Bytes key (32);
  for (int i = 0; i < 32; i++)
    key[i] = (uint8_t) i;
  /* 2.3.2: the block function, counter 1 (16-byte IV = counter || nonce). */
  Bytes iv = hex_decode ("01000000" "000000090000004a00000000");
  EXPECT_EQ (hex_encode (stream_crypt (GCRY_CIPHER_CHACHA20, key, iv,
                                       Bytes (64))),
             "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
             "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
  /* 2.4.2: the sunscreen text, nonce 0..4a..0, counter 1.  */
  const std::string pt = "Ladies and Gentlemen of the class of '99: If I could"
                         " offer you only one tip for the future, sunscreen "
                         "would be it.";
  iv = hex_decode ("01000000" "000000000000004a00000000");
  EXPECT_EQ (hex_encode (stream_crypt (GCRY_CIPHER_CHACHA20, key, iv,
                                       Bytes (pt.begin (), pt.end ()))),
             "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
             "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
             "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
             "5af90bbf74a35be6b40b8eedf2785e42874d");
}

/* One ChaCha20 message on the forced path: MODE (STREAM or POLY1305),
 * the text cut into calls at CUTS (sizes; the rest in one call), at
 * byte offset OFF of its buffers, in place or not; returns the output
 * followed by the tag (POLY1305).  */
Bytes
chacha20_message (int mode, const Bytes &key, const Bytes &iv,
                  const Bytes &in, const std::vector<size_t> &cuts,
                  size_t off, bool in_place, std::string *impl)
{
  Handle c (GCRY_CIPHER_CHACHA20, mode);
  EXPECT_EQ (0u, gcry_cipher_setkey (c.h, key.data (), key.size ()));
  *impl = c.h->impl_name ? c.h->impl_name : "";
  EXPECT_EQ (0u, gcry_cipher_setiv (c.h, iv.data (), iv.size ()));
  Bytes src (in.size () + off + 1), dst (in.size () + off + 1);
  if (!in.empty ())
    memcpy (src.data () + off, in.data (), in.size ());
  unsigned char *o = (in_place ? src.data () : dst.data ()) + off;
  const unsigned char *i = src.data () + off;
  size_t done = 0;
  for (size_t n : cuts)
    {
      n = std::min (n, in.size () - done);
      EXPECT_EQ (0u, gcry_cipher_encrypt (c.h, o + done, n, i + done, n));
      done += n;
    }
  EXPECT_EQ (0u, gcry_cipher_encrypt (c.h, o + done, in.size () - done,
                                      i + done, in.size () - done));
  Bytes out (o, o + in.size ());
  if (mode == GCRY_CIPHER_MODE_POLY1305)
    {
      Bytes tag (16);
      EXPECT_EQ (0u, gcry_cipher_gettag (c.h, tag.data (), 16));
      out.insert (out.end (), tag.begin (), tag.end ());
    }
  return out;
}

/* Every ChaCha20 path against the generic one, in this process (the
 * StreamDiff tests compare with the system libgcrypt, which the cross
 * builds do not have): random lengths up to several passes of the
 * widest path (32 blocks at VLEN 1024), random calls, buffers at byte
 * offsets 0-7 (the RVV path takes the generic function for buffers not
 * 4-byte aligned), in place or not, 16-byte IVs whose 64-bit counter
 * is a few blocks below a 32- or 64-bit wrap, 8- and 12-byte nonces,
 * 16- and 32-byte keys, STREAM and POLY1305.  */
TEST_F (Stream, ChaCha20PathsAgainstGeneric)
{
  auto paths = testutil::available_paths (&_gcry_cipher_spec_chacha20);
  ASSERT_FALSE (paths.empty ());
  const cipher_impl_info *generic = paths.back ();
  ASSERT_STREQ (generic->name, "generic");
  printf ("[ paths    ] chacha20 against generic: %s\n",
          testutil::path_names (paths).c_str ());
  Prng rng (0xc4a20e7);
  for (const cipher_impl_info *impl : paths)
    {
      if (impl == generic)
        continue;
      for (int round = 0; round < 300; round++)
        {
          const int mode = round % 3 ? GCRY_CIPHER_MODE_STREAM
                                     : GCRY_CIPHER_MODE_POLY1305;
          Bytes key = rng.bytes (round % 5 ? 32 : 16);
          Bytes iv;
          if (mode == GCRY_CIPHER_MODE_POLY1305)
            iv = rng.bytes (12);
          else if (round % 4 == 1)
            iv = rng.bytes (8);
          else
            {
              iv = rng.bytes (16);
              /* Counter words 0..1: 1-40 blocks below a 32-bit wrap,
               * or below the 64-bit one.  */
              const uint32_t lo = 0u - 1 - (uint32_t) rng.below (40);
              for (int b = 0; b < 4; b++)
                iv[b] = (unsigned char) (lo >> (8 * b));
              if (round % 2)
                iv[4] = iv[5] = iv[6] = iv[7] = 0xff;
            }
          const size_t len = round < 200 ? rng.below (64 * 70)
                                         : 64 * rng.below (100);
          Bytes msg = rng.bytes (len);
          std::vector<size_t> cuts;
          if (round % 2)
            for (int k = 0; k < 5; k++)
              cuts.push_back (rng.below (3) ? 64 * rng.below (40)
                                            : rng.below (130));
          const size_t off = round % 3 == 2 ? rng.below (8) : 0;
          const bool in_place = rng.below (2);
          std::string n1, n2;
          Bytes want, got;
          {
            testutil::ScopedPath forced (*generic);
            want = chacha20_message (mode, key, iv, msg, cuts, off,
                                     in_place, &n1);
          }
          {
            testutil::ScopedPath forced (*impl);
            got = chacha20_message (mode, key, iv, msg, cuts, off, in_place,
                                    &n2);
          }
          ASSERT_EQ (n1, "generic");
          ASSERT_EQ (n2, impl->name);
          ASSERT_EQ (hex_encode (got), hex_encode (want))
            << impl->name << " len " << len << " round " << round
            << " off " << off;
        }
    }
}

/* ---- Poly1305 paths (poly1305.h: avx512-ifma, avx2, neon, generic) ---- */

/* The hwf mask that selects each Poly1305 path this CPU can run, by
 * name; *SKIPPED gets the others.  */
std::vector<std::pair<std::string, unsigned int>>
poly1305_paths (std::string *skipped)
{
  std::vector<std::pair<std::string, unsigned int>> v;
#ifdef POLY1305_USE_SIMD
  unsigned int hwf = _gcry_get_hw_features ();
  for (size_t i = 0; i < _gcry_poly1305_n_impls; i++)
    if (_gcry_poly1305_path_usable (i, hwf))
      v.push_back ({ _gcry_poly1305_impls[i].name,
                     _gcry_poly1305_impls[i].hwf });
    else if (skipped)
      *skipped += std::string (" ") + _gcry_poly1305_impls[i].name
                  + " (CPU lacks it)";
#else
  if (skipped)
    *skipped = " (no vector paths built for this target)";
  v.push_back ({ "generic", 0 });
#endif
  return v;
}

/* Poly1305 of MSG under KEY with the path of mask HWF, MSG fed in calls
 * of the lengths CUTS (then the rest); the path name it ran in *NAME.  */
Bytes
poly1305_tag (unsigned int hwf, const Bytes &key, const Bytes &msg,
              const std::vector<size_t> &cuts, std::string *name)
{
  _gcry_hwf_set_test_mask (hwf);
  poly1305_context ctx;
  _gcry_poly1305_init (&ctx, key.data ());
  _gcry_hwf_set_test_mask (~0u);
  *name = _gcry_poly1305_path_name (&ctx);
  size_t off = 0;
  for (size_t c : cuts)
    {
      c = c < msg.size () - off ? c : msg.size () - off;
      _gcry_poly1305_update (&ctx, msg.data () + off, c);
      off += c;
    }
  _gcry_poly1305_update (&ctx, msg.data () + off, msg.size () - off);
  Bytes tag (16);
  _gcry_poly1305_finish (&ctx, tag.data ());
  return tag;
}

TEST_F (Stream, Poly1305Rfc8439)
{
  struct { const char *key, *msg, *tag; } v[] = {
    /* 2.5.2 */
    { "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
      "43727970746f6772617068696320466f72756d2052657365617263682047726f7570",
      "a8061dc1305136c6c22b8baf0c0127a9" },
    /* A.3 #1: all zero.  */
    { "0000000000000000000000000000000000000000000000000000000000000000",
      "00000000000000000000000000000000000000000000000000000000000000000000"
      "000000000000000000000000000000000000000000000000000000000000",
      "00000000000000000000000000000000" },
    /* A.3 #5..#11: reduction edge cases.  */
    { "0200000000000000000000000000000000000000000000000000000000000000",
      "ffffffffffffffffffffffffffffffff", "03000000000000000000000000000000" },
    { "02000000000000000000000000000000ffffffffffffffffffffffffffffffff",
      "02000000000000000000000000000000", "03000000000000000000000000000000" },
    { "0100000000000000000000000000000000000000000000000000000000000000",
      "fffffffffffffffffffffffffffffffff0ffffffffffffffffffffffffffffff"
      "11000000000000000000000000000000", "05000000000000000000000000000000" },
    { "0100000000000000000000000000000000000000000000000000000000000000",
      "fffffffffffffffffffffffffffffffffbfefefefefefefefefefefefefefefe"
      "01010101010101010101010101010101", "00000000000000000000000000000000" },
    { "0200000000000000000000000000000000000000000000000000000000000000",
      "fdffffffffffffffffffffffffffffff", "faffffffffffffffffffffffffffffff" },
    { "0100000000000000040000000000000000000000000000000000000000000000",
      "e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000"
      "0000000000000000000000000000000001000000000000000000000000000000",
      "14000000000000005500000000000000" },
    { "0100000000000000040000000000000000000000000000000000000000000000",
      "e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000"
      "00000000000000000000000000000000",
      "13000000000000000000000000000000" },
  };
  for (auto &path : poly1305_paths (nullptr))
    for (auto &t : v)
      for (size_t split = 0; split <= 17; split++)
        {
          Bytes key = hex_decode (t.key), msg = hex_decode (t.msg);
          std::string name;
          Bytes tag = poly1305_tag (path.second, key, msg, { split }, &name);
          EXPECT_EQ (name, path.first);
          EXPECT_EQ (hex_encode (tag), t.tag)
            << path.first << " " << t.msg << " split " << split;
        }
  /* A.3 #2, #3 (the 375-byte IETF text: 23 blocks, enough for the
   * vector steps), each path; MSG repeated to 96 blocks as well, against
   * generic.  */
  const std::string ietf
    = "Any submission to the IETF intended by the Contributor for "
      "publication as all or part of an IETF Internet-Draft or RFC and any "
      "statement made within the context of an IETF activity is "
      "considered an \"IETF Contribution\". Such statements include oral "
      "statements in IETF sessions, as well as written and electronic "
      "communications made at any time or place, which are addressed to";
  const Bytes text (ietf.begin (), ietf.end ());
  ASSERT_EQ (text.size (), 375u);
  const struct { const char *key, *tag; } a3[] = {
    { "0000000000000000000000000000000036e5f6b5c5e06070f0efca96227a863e",
      "36e5f6b5c5e06070f0efca96227a863e" },
    { "36e5f6b5c5e06070f0efca96227a863e00000000000000000000000000000000",
      "f3477e7cd95417af89a6b8794c310cf0" },
  };
  for (auto &path : poly1305_paths (nullptr))
    for (auto &t : a3)
      {
        std::string name;
        Bytes key = hex_decode (t.key);
        EXPECT_EQ (hex_encode (poly1305_tag (path.second, key, text, {}, &name)),
                   t.tag) << path.first;
        Bytes big;
        for (int k = 0; k < 5; k++)
          big.insert (big.end (), text.begin (), text.end ());
        EXPECT_EQ (hex_encode (poly1305_tag (path.second, key, big, {}, &name)),
                   hex_encode (poly1305_tag (0, key, big, {}, &name)))
          << path.first;
      }
}

/* Every Poly1305 path against the generic one: random lengths 0..2100
 * bytes and a few long ones (the 16-, 8- and 4-block vector steps, their
 * last step with the per-lane powers, the scalar remainder), whole or in
 * random calls (partial blocks across calls, zero-length calls), keys
 * with all-ones r and s bits among the random ones.  */
TEST_F (Stream, Poly1305PathsAgainstGeneric)
{
  std::string skipped;
  auto paths = poly1305_paths (&skipped);
  printf ("[ paths    ] poly1305: ran");
  for (auto &p : paths)
    printf (" %s", p.first.c_str ());
  printf ("; skipped:%s\n", skipped.empty () ? " none"
                                              : skipped.c_str ());
  Prng rng (0x9013051);
  for (auto &path : paths)
    {
      if (path.first == "generic")
        continue;
      for (int round = 0; round < 400; round++)
        {
          size_t len = round < 300 ? rng.below (2101)
                       : round < 390 ? 16 * rng.below (200) + rng.below (2)
                                     : 65536 + rng.below (5000);
          Bytes key = rng.bytes (32);
          if (round % 7 == 0)
            std::fill (key.begin (), key.end (), 0xff);
          Bytes msg = rng.bytes (len);
          if (round % 11 == 0)
            std::fill (msg.begin (), msg.end (), 0xff);
          std::vector<size_t> cuts;
          if (round % 2)
            for (int k = 0; k < 6; k++)
              cuts.push_back (rng.below (3) ? rng.below (600) : rng.below (18));
          std::string n1, n2;
          Bytes want = poly1305_tag (0, key, msg, {}, &n1);
          Bytes got = poly1305_tag (path.second, key, msg, cuts, &n2);
          ASSERT_EQ (n1, "generic");
          ASSERT_EQ (n2, path.first);
          ASSERT_EQ (hex_encode (got), hex_encode (want))
            << path.first << " len " << len << " round " << round;
        }
    }
}

/* Stack burn of the vector paths: a long update (the powers computed
 * there, then the vector steps), then _gcry_burn_stack
 * (POLY1305_BURN_DEPTH) as cipher-poly1305.cpp does after each call;
 * the stack below the caller must hold no 64-bit limb of a key power
 * (CTX->r and CTX->simd, both radix forms).  */
unsigned char *burn_scan_lo;

__attribute__ ((noinline)) void
burn_fill_below (size_t n)
{
  unsigned char *buf = static_cast<unsigned char *> (__builtin_alloca (n));
  memset (buf, 0xa5, n);
  asm volatile ("" : "+r" (buf) : : "memory");
  burn_scan_lo = buf;
}

unsigned char burn_snapshot[16384 + 4096];

/* The marked area after the update and the burn, copied with a plain
 * loop (a call would overwrite it).  Returns its length.  */
__attribute__ ((noinline)) size_t
burn_run_marked (poly1305_context *ctx, const Bytes &msg)
{
  unsigned char *here
    = static_cast<unsigned char *> (__builtin_frame_address (0));
  burn_fill_below (16384);
  _gcry_poly1305_update (ctx, msg.data (), msg.size ());
  _gcry_burn_stack (POLY1305_BURN_DEPTH);
  size_t n = 0;
  for (const volatile unsigned char *p = burn_scan_lo;
       p < here - 64 && n < sizeof burn_snapshot; p++)
    burn_snapshot[n++] = *p;
  return n;
}

TEST_F (Stream, Poly1305PathsBurnStack)
{
  if (const char *why = testutil::asan_stack_reason ())
    GTEST_SKIP () << why;
  Prng rng (0xb0e11);
  for (auto &path : poly1305_paths (nullptr))
    {
      Bytes key = rng.bytes (32), msg = rng.bytes (4096 + 16 * 7);
      _gcry_hwf_set_test_mask (path.second);
      poly1305_context ctx;
      _gcry_poly1305_init (&ctx, key.data ());
      _gcry_hwf_set_test_mask (~0u);
      ASSERT_EQ (std::string (_gcry_poly1305_path_name (&ctx)), path.first);
      /* Warm-up (lazy symbol binding, whose resolver saves the vector
       * registers deep on the stack), then the measured call.  */
      burn_run_marked (&ctx, msg);
      _gcry_hwf_set_test_mask (path.second);
      _gcry_poly1305_init (&ctx, key.data ());   /* Powers not made yet. */
      _gcry_hwf_set_test_mask (~0u);
      Bytes snap (burn_snapshot, burn_snapshot + burn_run_marked (&ctx, msg));
      /* Secrets: every limb-sized word (64 bits in radix 2^44, 32 in
       * radix 2^26) of the key powers (CTX->r, CTX->simd) with at least
       * half its bytes nonzero.  */
      constexpr size_t W = sizeof ctx.h[0];
      std::vector<uint64_t> secrets;
      auto add = [&] (const void *p, size_t n) {
        for (size_t i = 0; i + W <= n; i += W)
          {
            uint64_t w = 0;
            memcpy (&w, static_cast<const unsigned char *> (p) + i, W);
            size_t nz = 0;
            for (size_t b = 0; b < W; b++)
              nz += ((w >> (8 * b)) & 0xff) != 0;
            if (2 * nz >= W)
              secrets.push_back (w);
          }
      };
      add (ctx.r, sizeof ctx.r);
#ifdef POLY1305_USE_SIMD
      add (&ctx.simd, sizeof ctx.simd);
#endif
      ASSERT_GE (secrets.size (), 3u);
      ASSERT_GT (snap.size (), 4096u);
      size_t found = 0;
      for (size_t i = 0; i + W <= snap.size (); i++)
        {
          uint64_t w = 0;
          memcpy (&w, snap.data () + i, W);
          for (size_t k = 0; k < secrets.size (); k++)
            if (w == secrets[k] && found++ < 5)
              ADD_FAILURE () << path.first << ": key power word " << k
                             << " at " << snap.size () - i
                             << " bytes below the caller";
        }
      EXPECT_EQ (found, 0u) << path.first;
      wipememory (&ctx, sizeof ctx);
    }
}

/* Stack burn of the ChaCha20 paths, through the API: every whole-block
 * count the kernels split differently (row layout, partly stored and
 * whole eight- and sixteen-block passes) and a partial block, STREAM
 * and POLY1305, each call run over a marked stack.  Afterwards no
 * 32-bit keystream word (the output of encrypting zeros, and the
 * one-time Poly1305 key block) may be on the stack below the caller, at
 * any byte offset: a spilled register of either layout (one block's
 * words in a row, or one word of 8 or 16 blocks) would show one.  */
__attribute__ ((noinline)) size_t
burn_run_api (const std::function<void ()> &fn)
{
  unsigned char *here
    = static_cast<unsigned char *> (__builtin_frame_address (0));
  burn_fill_below (16384);
  fn ();
  size_t n = 0;
  for (const volatile unsigned char *p = burn_scan_lo;
       p < here - 64 && n < sizeof burn_snapshot; p++)
    burn_snapshot[n++] = *p;
  return n;
}

TEST_F (Stream, ChaCha20PathsLeaveNoKeystreamOnTheStack)
{
  if (const char *why = testutil::asan_stack_reason ())
    GTEST_SKIP () << why;
  auto paths = testutil::available_paths (&_gcry_cipher_spec_chacha20);
  ASSERT_FALSE (paths.empty ());
  Prng rng (0x57ac4b);
  Bytes key = rng.bytes (32), nonce = rng.bytes (12);
  for (const cipher_impl_info *impl : paths)
    {
      testutil::ScopedPath forced (*impl);
      for (size_t len : { 64, 128, 192, 320, 512, 576, 960, 1024, 1088,
                          2048 + 64 * 7, 100 })
        for (int mode : { GCRY_CIPHER_MODE_STREAM,
                          GCRY_CIPHER_MODE_POLY1305 })
          {
            /* The secrets: keystream blocks 0 .. len/64 + 1 of the
             * nonce (POLY1305 takes block 0 for its key).  */
            Bytes zeros (len + 128, 0), ks (len + 128);
            {
              Handle s (GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_STREAM);
              ASSERT_EQ (0u, gcry_cipher_setkey (s.h, key.data (), 32));
              ASSERT_EQ (0u, gcry_cipher_setiv (s.h, nonce.data (), 12));
              ASSERT_EQ (0u, gcry_cipher_encrypt (s.h, ks.data (), ks.size (),
                                                  zeros.data (),
                                                  zeros.size ()));
            }
            std::vector<uint32_t> secrets;
            for (size_t i = 0; i + 4 <= ks.size (); i += 4)
              {
                uint32_t w;
                memcpy (&w, ks.data () + i, 4);
                if ((w & 0xff) && (w >> 24) && ((w >> 8) & 0xff)
                    && ((w >> 16) & 0xff))
                  secrets.push_back (w);
              }
            std::sort (secrets.begin (), secrets.end ());
            Handle c (GCRY_CIPHER_CHACHA20, mode);
            ASSERT_EQ (0u, gcry_cipher_setkey (c.h, key.data (), 32));
            Bytes out (len), tag (16);
            std::vector<std::pair<const char *, std::function<void ()>>>
              calls = {
                { "setiv", [&] {
                    EXPECT_EQ (0u, gcry_cipher_setiv (c.h, nonce.data (),
                                                      12));
                  } },
                { "encrypt", [&] {
                    EXPECT_EQ (0u, gcry_cipher_encrypt (c.h, out.data (),
                                                        len, zeros.data (),
                                                        len));
                  } },
              };
            if (mode == GCRY_CIPHER_MODE_POLY1305)
              calls.push_back ({ "gettag", [&] {
                                  EXPECT_EQ (0u, gcry_cipher_gettag (
                                                     c.h, tag.data (), 16));
                                } });
            for (int warm = 1; warm >= 0; warm--)
              for (auto &call : calls)
                {
                  size_t n = burn_run_api (call.second);
                  if (warm)
                    continue;
                  ASSERT_GT (n, 4096u);
                  size_t found = 0;
                  for (size_t i = 0; i + 4 <= n; i++)
                    {
                      uint32_t w;
                      memcpy (&w, burn_snapshot + i, 4);
                      if (std::binary_search (secrets.begin (),
                                              secrets.end (), w)
                          && found++ < 3)
                        ADD_FAILURE ()
                            << impl->name << " mode " << mode << " len "
                            << len << " " << call.first
                            << ": a keystream word " << n - i
                            << " bytes below the caller";
                    }
                }
            ASSERT_EQ (0, memcmp (out.data (),
                                  ks.data () + (mode == GCRY_CIPHER_MODE_POLY1305
                                                ? 64 : 0), len));
          }
    }
}

/* AEAD one-shot through the API; OUT is ciphertext || tag.  */
Bytes
aead_seal (const Bytes &key, const Bytes &nonce, const Bytes &ad,
           const Bytes &pt)
{
  Handle c (GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_POLY1305);
  EXPECT_EQ (0u, gcry_cipher_setkey (c.h, key.data (), key.size ()));
  EXPECT_EQ (0u, gcry_cipher_setiv (c.h, nonce.data (), nonce.size ()));
  EXPECT_EQ (0u, gcry_cipher_authenticate (c.h, ad.data (), ad.size ()));
  Bytes out (pt.size () + 16);
  EXPECT_EQ (0u, gcry_cipher_encrypt (c.h, out.data (), pt.size (),
                                      pt.data (), pt.size ()));
  EXPECT_EQ (0u, gcry_cipher_gettag (c.h, out.data () + pt.size (), 16));
  return out;
}

/* Decrypt CT and check TAG; returns the checktag error code, *PT the
 * plaintext.  */
gcry_err_code_t
aead_open (const Bytes &key, const Bytes &nonce, const Bytes &ad,
           const Bytes &ct, const Bytes &tag, Bytes *pt)
{
  Handle c (GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_POLY1305);
  EXPECT_EQ (0u, gcry_cipher_setkey (c.h, key.data (), key.size ()));
  EXPECT_EQ (0u, gcry_cipher_setiv (c.h, nonce.data (), nonce.size ()));
  EXPECT_EQ (0u, gcry_cipher_authenticate (c.h, ad.data (), ad.size ()));
  pt->assign (ct.size (), 0);
  EXPECT_EQ (0u, gcry_cipher_decrypt (c.h, pt->data (), pt->size (),
                                      ct.data (), ct.size ()));
  return gcry_err_code (gcry_cipher_checktag (c.h, tag.data (),
                                              tag.size ()));
}

TEST_F (Stream, ChaCha20Poly1305Rfc8439)
{
  /* 2.8.2 */
  Bytes key = hex_decode ("808182838485868788898a8b8c8d8e8f"
                          "909192939495969798999a9b9c9d9e9f");
  Bytes nonce = hex_decode ("070000004041424344454647");
  Bytes ad = hex_decode ("50515253c0c1c2c3c4c5c6c7");
  const std::string s = "Ladies and Gentlemen of the class of '99: If I could"
                        " offer you only one tip for the future, sunscreen "
                        "would be it.";
  Bytes pt (s.begin (), s.end ());
  Bytes out = aead_seal (key, nonce, ad, pt);
  EXPECT_EQ (hex_encode (out),
             "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
             "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
             "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
             "3ff4def08e4b7a9de576d26586cec64b6116"
             "1ae10b594f09e26a7e902ecbd0600691");
}

/* Keystream at byte offset SEEK: ChaCha20 through the 16-byte IV
 * (counter || nonce), Salsa20 by discarding.  */
Bytes
stream_at (int algo, const Bytes &key, const Bytes &nonce, uint64_t seek,
           const Bytes &in)
{
  Handle c (algo, GCRY_CIPHER_MODE_STREAM);
  EXPECT_EQ (0u, gcry_cipher_setkey (c.h, key.data (), key.size ()));
  /* SEEK: 64 bits (Botan's vectors seek past 2^32 bytes, beyond a
   * 32-bit size_t).  */
  size_t skip = (size_t) seek;
  if (algo == GCRY_CIPHER_CHACHA20)
    {
      uint64_t blk = seek / 64;
      Bytes iv (16 - nonce.size ());
      for (size_t i = 0; i < iv.size (); i++)
        iv[i] = (uint8_t) (blk >> (8 * i));
      iv.insert (iv.end (), nonce.begin (), nonce.end ());
      EXPECT_EQ (0u, gcry_cipher_setiv (c.h, iv.data (), iv.size ()));
      skip = (size_t) (seek % 64);
    }
  else
    EXPECT_EQ (0u, gcry_cipher_setiv (c.h, nonce.data (), nonce.size ()));
  Bytes junk (skip);
  EXPECT_EQ (0u, gcry_cipher_encrypt (c.h, junk.data (), skip, nullptr, 0));
  Bytes out (in.size ());
  EXPECT_EQ (0u, gcry_cipher_encrypt (c.h, out.data (), out.size (),
                                      in.data (), in.size ()));
  return out;
}

void
run_botan_stream (const char *file, const char *section, int algo)
{
  std::vector<testutil::VecSection> secs;
  std::string err;
  ASSERT_TRUE (testutil::parse_vec_file (testutil::testvector_path (file),
                                         &secs, &err)) << err;
  const testutil::VecSection *sec = testutil::find_section (secs, section);
  ASSERT_NE (sec, nullptr);
  int used = 0;
  for (const testutil::VecRecord &r : sec->records)
    {
      Bytes key = r.bytes ("Key"), nonce = r.bytes ("Nonce");
      Bytes want = r.bytes ("Out");
      Bytes in = r.has ("In") ? r.bytes ("In") : Bytes (want.size ());
      if (!r.has ("Nonce"))
        nonce.assign (8, 0);
      if (nonce.size () != 8 && nonce.size () != 12)
        continue;  /* XChaCha/XSalsa: not in libgcrypt.  */
      if (algo != GCRY_CIPHER_CHACHA20 && nonce.size () != 8)
        continue;
      uint64_t seek = r.has ("Seek") ? std::stoull (r.str ("Seek")) : 0;
      if (algo != GCRY_CIPHER_CHACHA20 && seek > (1u << 20))
        continue;  /* Salsa20's counter cannot be set through the API.  */
      EXPECT_EQ (hex_encode (stream_at (algo, key, nonce, seek, in)),
                 hex_encode (want)) << file << " line " << r.line;
      used++;
    }
  EXPECT_GE (used, 8);
}

TEST_F (Stream, BotanChaCha20)
{
  run_botan_stream ("botan/stream/chacha.vec", "ChaCha(20)",
                    GCRY_CIPHER_CHACHA20);
}

TEST_F (Stream, BotanSalsa20)
{
  run_botan_stream ("botan/stream/salsa20.vec", "Salsa20",
                    GCRY_CIPHER_SALSA20);
}

TEST_F (Stream, BotanChaCha20Poly1305)
{
  std::vector<testutil::VecSection> secs;
  std::string err;
  ASSERT_TRUE (testutil::parse_vec_file (
      testutil::testvector_path ("botan/aead/chacha20poly1305.vec"), &secs,
      &err)) << err;
  const testutil::VecSection *sec
    = testutil::find_section (secs, "ChaCha20Poly1305");
  ASSERT_NE (sec, nullptr);
  int used = 0;
  for (const testutil::VecRecord &r : sec->records)
    {
      Bytes key = r.bytes ("Key"), nonce = r.bytes ("Nonce");
      Bytes ad = r.bytes ("AD"), in = r.bytes ("In"), out = r.bytes ("Out");
      /* 8-byte nonces there are draft-agl's construction (unpadded), not
       * libgcrypt's; 24-byte ones XChaCha.  */
      if (nonce.size () != 12)
        continue;
      EXPECT_EQ (hex_encode (aead_seal (key, nonce, ad, in)),
                 hex_encode (out)) << "line " << r.line;
      Bytes ct (out.begin (), out.end () - 16), tag (out.end () - 16,
                                                     out.end ()), pt;
      EXPECT_EQ (aead_open (key, nonce, ad, ct, tag, &pt), GPG_ERR_NO_ERROR);
      EXPECT_EQ (pt, in);
      tag[used % 16] ^= 0x80;
      EXPECT_EQ (aead_open (key, nonce, ad, ct, tag, &pt), GPG_ERR_CHECKSUM);
      used++;
    }
  EXPECT_GT (used, 100);
}

TEST_F (Stream, WycheproofChaCha20Poly1305)
{
  testutil::Json j;
  std::string err;
  ASSERT_TRUE (testutil::load_json_file (
      testutil::testvector_path ("wycheproof/chacha20_poly1305_test.json"),
      &j, &err)) << err;
  int used = 0;
  const testutil::Json &groups = j["testGroups"];
  for (size_t g = 0; g < groups.size (); g++)
    {
      /* Other nonce sizes are invalid for RFC 8439; libgcrypt takes 8
       * and 16 bytes with its own meaning (checked differentially).  */
      if (groups[g]["ivSize"].i () != 96)
        continue;
      const testutil::Json &tests = groups[g]["tests"];
      for (size_t t = 0; t < tests.size (); t++)
        {
          const testutil::Json &v = tests[t];
          Bytes key = hex_decode (v["key"].s ()), iv = hex_decode (v["iv"].s ());
          Bytes aad = hex_decode (v["aad"].s ()), msg = hex_decode (v["msg"].s ());
          Bytes ct = hex_decode (v["ct"].s ()), tag = hex_decode (v["tag"].s ());
          bool valid = v["result"].s () == "valid";
          Bytes pt;
          gcry_err_code_t rc = aead_open (key, iv, aad, ct, tag, &pt);
          EXPECT_EQ (rc, valid ? GPG_ERR_NO_ERROR : GPG_ERR_CHECKSUM)
            << "tcId " << v["tcId"].i ();
          if (valid)
            {
              EXPECT_EQ (pt, msg) << "tcId " << v["tcId"].i ();
              Bytes out = aead_seal (key, iv, aad, msg);
              Bytes want = ct;
              want.insert (want.end (), tag.begin (), tag.end ());
              EXPECT_EQ (hex_encode (out), hex_encode (want))
                << "tcId " << v["tcId"].i ();
            }
          used++;
        }
    }
  EXPECT_GT (used, 300);
}

TEST_F (Stream, ArcfourRfc6229)
{
  /* RFC 6229 section 2: 40-bit key 0102030405, keystream at offsets 0
   * and 16.  */
  Bytes ks = stream_crypt (GCRY_CIPHER_ARCFOUR, hex_decode ("0102030405"),
                           Bytes (), Bytes (32));
  EXPECT_EQ (hex_encode (ks),
             "b2396305f03dc027ccc3524a0a1118a86982944f18fc82d589c403a47a0d0919");
  /* Short keys are refused (libgcrypt: at least 40 bits).  */
  Handle c (GCRY_CIPHER_ARCFOUR, GCRY_CIPHER_MODE_STREAM);
  EXPECT_EQ (GPG_ERR_INV_KEYLEN,
             gcry_err_code (gcry_cipher_setkey (c.h, "Key", 3)));
}

/* The one deliberate difference from libgcrypt (see cipher.cpp).  */
TEST_F (Stream, ShortOutputRefused)
{
  for (int algo : stream_algos)
    {
      Handle c (algo, GCRY_CIPHER_MODE_STREAM);
      uint8_t key[32] = { 1 }, in[20] = { 0 }, out[24];
      ASSERT_EQ (0u, gcry_cipher_setkey (c.h, key,
                                         algo == GCRY_CIPHER_ARCFOUR ? 16 : 32));
      memset (out, 0xee, sizeof out);
      EXPECT_EQ (GPG_ERR_BUFFER_TOO_SHORT,
                 gcry_err_code (gcry_cipher_encrypt (c.h, out, 10, in, 20)));
      EXPECT_EQ (out[10], 0xee);  /* Nothing written past OUTSIZE.  */
      EXPECT_EQ (GPG_ERR_BUFFER_TOO_SHORT,
                 gcry_err_code (gcry_cipher_decrypt (c.h, out, 10, in, 20)));
      EXPECT_EQ (out[10], 0xee);
    }
}

TEST_F (Stream, InterposerServesStreamModes)
{
  for (int algo : stream_algos)
    {
      EXPECT_TRUE (_gcry_cipher_is_implemented (algo, GCRY_CIPHER_MODE_STREAM,
                                                0)) << algo;
      EXPECT_FALSE (_gcry_cipher_is_implemented (algo, GCRY_CIPHER_MODE_CBC,
                                                 0)) << algo;
      EXPECT_EQ (algo == GCRY_CIPHER_CHACHA20,
                 !!_gcry_cipher_is_implemented (algo,
                                                GCRY_CIPHER_MODE_POLY1305, 0))
        << algo;
    }
  EXPECT_FALSE (_gcry_cipher_is_implemented (GCRY_CIPHER_AES,
                                             GCRY_CIPHER_MODE_POLY1305, 0));
  EXPECT_FALSE (_gcry_cipher_is_implemented (GCRY_CIPHER_AES,
                                             GCRY_CIPHER_MODE_STREAM, 0));
}

/* ---- Differential against the system libgcrypt ----------------------- */

/* testutil::Twin (twin.h) of libraries A and B, with Poly1305's handle
 * without a key (keyless_mac_call) and the stream calls that take it
 * into account.  */
class Twin : public testutil::Twin
{
public:
  Twin (const sysgcrypt &a, const sysgcrypt &b) : testutil::Twin (&a, &b) {}

  /* A Poly1305 handle without a key: gcipher refuses every call that
   * needs the key with GPG_ERR_MISSING_KEY (doc/gcipher.md "Error
   * codes"), where libgcrypt computes a MAC from a zero key.  Such a
   * call must get libgcrypt's code where libgcrypt refuses too (a short
   * or wrong tag length, a state rule) and GPG_ERR_MISSING_KEY
   * otherwise; after a refusal libgcrypt has gone on with a message
   * gcipher never started, so the twins are no longer compared until
   * the next open.  Returns true when the call was handled here.  */
  bool
  keyless_mac_call (gcry_error_t ea, gcry_error_t eb, const char *what)
  {
    if (mode_ != GCRY_CIPHER_MODE_POLY1305 || keyed_)
      return false;
    if (ea == eb)
      return true;
    if (gcry_err_code (ea) != GPG_ERR_MISSING_KEY)
      fail (std::string (what) + " without a key: gcipher "
            + gcry_strerror (ea) + ", libgcrypt " + gcry_strerror (eb));
    diverged_ = true;
    return true;
  }

  bool
  open (int algo, int mode, unsigned int flags = 0)
  {
    mode_ = mode;
    keyed_ = false;
    diverged_ = false;
    return testutil::Twin::open (algo, mode, flags);
  }

  gcry_error_t
  setkey (const Bytes &k)
  {
    note ("setkey " + std::to_string (k.size ()));
    gcry_error_t ea = A->cipher_setkey (ha, k.data (), k.size ());
    gcry_error_t eb = B->cipher_setkey (hb, k.data (), k.size ());
    if (!diverged_)
      same (ea, eb, "setkey");
    keyed_ = !ea;
    return ea;
  }

  void
  setiv (const uint8_t *iv, size_t len)
  {
    note (std::string ("setiv ") + (iv ? "" : "NULL ") + std::to_string (len));
    gcry_error_t ea = A->cipher_setiv (ha, iv, len),
                 eb = B->cipher_setiv (hb, iv, len);
    if (!diverged_ && !keyless_mac_call (ea, eb, "setiv"))
      same (ea, eb, "setiv");
  }

  /* IN of LEN bytes into an OUTSIZE buffer (in place when IN is NULL:
   * both get a copy of DATA).  */
  void
  crypt (bool enc, const Bytes &data, size_t outsize, bool inplace)
  {
    note (std::string (enc ? "encrypt " : "decrypt ")
          + std::to_string (data.size ()) + " out " + std::to_string (outsize)
          + (inplace ? " in place" : ""));
    Bytes oa (outsize + 8, 0xcc), ob (outsize + 8, 0xcc);
    gcry_error_t ea, eb;
    auto fa = enc ? A->cipher_encrypt : A->cipher_decrypt;
    auto fb = enc ? B->cipher_encrypt : B->cipher_decrypt;
    if (inplace)
      {
        if (!data.empty ())   /* data.data () may be NULL */
          {
            memcpy (oa.data (), data.data (), data.size ());
            memcpy (ob.data (), data.data (), data.size ());
          }
        ea = fa (ha, oa.data (), data.size (), nullptr, 0);
        eb = fb (hb, ob.data (), data.size (), nullptr, 0);
      }
    else
      {
        ea = fa (ha, oa.data (), outsize, data.data (), data.size ());
        eb = fb (hb, ob.data (), outsize, data.data (), data.size ());
      }
    if (diverged_)
      return;
    same (ea, eb, enc ? "encrypt" : "decrypt");
    same_bytes (oa, ob, "output");
  }

  void
  authenticate (const Bytes &ad)
  {
    note ("authenticate " + std::to_string (ad.size ()));
    gcry_error_t ea = A->cipher_authenticate (ha, ad.data (), ad.size ());
    gcry_error_t eb = B->cipher_authenticate (hb, ad.data (), ad.size ());
    if (!diverged_ && !keyless_mac_call (ea, eb, "authenticate"))
      same (ea, eb, "authenticate");
  }

  void
  gettag (size_t len)
  {
    note ("gettag " + std::to_string (len));
    Bytes ta (len + 8, 0xdd), tb (len + 8, 0xdd);
    gcry_error_t ea = A->cipher_gettag (ha, ta.data (), len);
    gcry_error_t eb = B->cipher_gettag (hb, tb.data (), len);
    if (diverged_ || keyless_mac_call (ea, eb, "gettag"))
      {
        /* Never a tag without a key.  */
        if (!keyed_ && mode_ == GCRY_CIPHER_MODE_POLY1305
            && ta != Bytes (len + 8, 0xdd))
          fail ("gettag wrote a tag without a key");
        return;
      }
    same (ea, eb, "gettag");
    same_bytes (ta, tb, "tag");
  }

  /* checktag with the tag libgcrypt's handle would give (or a corrupted
   * one): only possible after comparing gettag.  */
  void
  checktag (const Bytes &tag)
  {
    note ("checktag " + std::to_string (tag.size ()));
    gcry_error_t ea = A->cipher_checktag (ha, tag.data (), tag.size ());
    gcry_error_t eb = B->cipher_checktag (hb, tag.data (), tag.size ());
    if (!diverged_ && !keyless_mac_call (ea, eb, "checktag"))
      same (ea, eb, "checktag");
  }

private:
  int mode_ = 0;
  bool keyed_ = false;      /* gcipher's last setkey succeeded.  */
  bool diverged_ = false;   /* See keyless_mac_call.  */
};

class StreamDiff : public SysgcryptTest {};

TEST_F (StreamDiff, OpenInfoNames)
{
  Twin t (ours, *sys);
  const int algos[] = { GCRY_CIPHER_ARCFOUR, GCRY_CIPHER_SALSA20,
                        GCRY_CIPHER_SALSA20R12, GCRY_CIPHER_CHACHA20,
                        GCRY_CIPHER_AES, GCRY_CIPHER_SERPENT128 };
  for (int algo : algos)
    {
      for (int mode = 0; mode <= 17; mode++)
        for (unsigned int flags : { 0u, (unsigned) GCRY_CIPHER_SECURE,
                                    (unsigned) GCRY_CIPHER_CBC_CTS,
                                    (unsigned) GCRY_CIPHER_ENABLE_SYNC })
          {
            t.open (algo, mode, flags);
            if (t.ha && t.hb && algo != GCRY_CIPHER_AES
                && algo != GCRY_CIPHER_SERPENT128)
              {
                int taglen = 16;
                t.info (GCRYCTL_GET_TAGLEN, false);
                t.ctl (GCRYCTL_SET_TAGLEN, &taglen, sizeof taglen);
                Bytes x (16, 1);
                t.authenticate (x);
                t.gettag (16);
                t.checktag (x);
              }
            t.close ();
          }
      EXPECT_STREQ (gcry_cipher_algo_name (algo),
                    sys->cipher_algo_name (algo));
      EXPECT_EQ (gcry_cipher_get_algo_keylen (algo),
                 sys->cipher_get_algo_keylen (algo));
      EXPECT_EQ (gcry_cipher_get_algo_blklen (algo),
                 sys->cipher_get_algo_blklen (algo));
      for (int what : { GCRYCTL_GET_KEYLEN, GCRYCTL_GET_BLKLEN,
                        GCRYCTL_TEST_ALGO })
        {
          size_t na = 7, nb = 7;
          bool nbytes = what != GCRYCTL_TEST_ALGO;
          EXPECT_EQ (gcry_cipher_algo_info (algo, what, nullptr,
                                            nbytes ? &na : nullptr),
                     sys->cipher_algo_info (algo, what, nullptr,
                                            nbytes ? &nb : nullptr));
          EXPECT_EQ (na, nb);
        }
    }
  for (const char *name : { "ARCFOUR", "arcfour", "RC4", "SALSA20",
                            "salsa20r12", "SALSA20/12", "CHACHA20",
                            "ChaCha20", "chacha", "CHACHA20-POLY1305",
                            "XSALSA20" })
    {
      int a = gcry_cipher_map_name (name), b = sys->cipher_map_name (name);
      EXPECT_EQ (a, b) << name;
      EXPECT_EQ (gcry_cipher_mode_from_oid (name),
                 sys->cipher_mode_from_oid (name)) << name;
    }
}

/* Every key length 0..300 and lengths past 2^32 (libgcrypt counts them
 * modulo 2^32), each followed by a keystream comparison.  */
TEST_F (StreamDiff, KeyLengths)
{
  Prng rng (3);
  Bytes key = rng.bytes (512), data = rng.bytes (100);
  std::vector<size_t> lens;
  for (size_t l = 0; l <= 300; l++)
    lens.push_back (l);
  if (sizeof (size_t) > 4)
    for (uint64_t k : { 0, 3, 5, 7, 16, 32, 300 })
      lens.push_back ((size_t) ((1ull << 32) + k));
  for (int algo : stream_algos)
    for (int mode : { GCRY_CIPHER_MODE_STREAM, GCRY_CIPHER_MODE_POLY1305 })
      {
        if (mode == GCRY_CIPHER_MODE_POLY1305 && algo != GCRY_CIPHER_CHACHA20)
          continue;
        Twin t (ours, *sys);
        ASSERT_TRUE (t.open (algo, mode));
        for (size_t l : lens)
          {
            t.note ("setkey " + std::to_string (l));
            gcry_error_t ea = gcry_cipher_setkey (t.ha, key.data (), l);
            gcry_error_t eb = sys->cipher_setkey (t.hb, key.data (), l);
            t.same (ea, eb, "setkey");
            if (!ea && !eb)
              t.crypt (true, data, data.size (), false);
            ASSERT_TRUE (t.ok);
          }
      }
}

size_t
pick_keylen (Prng &rng, int algo)
{
  if (algo == GCRY_CIPHER_ARCFOUR)
    {
      static const size_t l[] = { 0, 1, 4, 5, 7, 16, 32, 255, 256, 300 };
      return l[rng.below (sizeof l / sizeof l[0])];
    }
  static const size_t l[] = { 32, 32, 32, 16, 16, 0, 15, 24, 31, 33, 64 };
  return l[rng.below (sizeof l / sizeof l[0])];
}

size_t
pick_len (Prng &rng)
{
  switch (rng.below (6))
    {
    case 0: return rng.below (4);
    case 1: return rng.below (70);
    case 2: return 64 * (1 + rng.below (9)) + rng.below (3) - 1;
    case 3: return rng.below (1200);
    case 4: return rng.below (5000);
    default: return 16 * rng.below (20);
    }
}

/* IV lengths worth trying: every length the libraries take, and bad
 * ones; NULL sometimes.  */
void
random_setiv (Twin &t, Prng &rng, bool chacha_counter_wrap)
{
  static const size_t l[] = { 8, 12, 16, 8, 12, 16, 0, 1, 7, 9, 11, 13, 15,
                              17, 24, 32 };
  size_t len = l[rng.below (sizeof l / sizeof l[0])];
  Bytes iv = rng.bytes (32);
  if (chacha_counter_wrap && len == 16)
    {
      /* Counter just below a 32- or 64-bit wrap.  */
      uint8_t hi = rng.below (2) ? 0xff : (uint8_t) rng.below (256);
      iv[0] = (uint8_t) (0xff - rng.below (20));
      iv[1] = iv[2] = iv[3] = 0xff;
      iv[4] = iv[5] = iv[6] = iv[7] = hi;
    }
  t.setiv (rng.below (12) ? iv.data () : nullptr, len);
}

TEST_F (StreamDiff, RandomStreamSequences)
{
  Prng rng (0x5173a11c);
  for (int algo : stream_algos)
    for (int round = 0; round < 500; round++)
      {
        Twin t (ours, *sys);
        ASSERT_TRUE (t.open (algo, GCRY_CIPHER_MODE_STREAM,
                             rng.below (4) ? 0 : GCRY_CIPHER_SECURE));
        int steps = 3 + (int) rng.below (25);
        /* libgcrypt's Salsa20 crashes in setiv before its first
         * successful setkey (its per-path function pointers are still
         * NULL); gcipher's does not, but the comparison must skip it.  */
        bool keyed = false;
        for (int s = 0; s < steps && t.ok; s++)
          switch (rng.below (12))
            {
            case 0:
              keyed |= !t.setkey (rng.bytes (pick_keylen (rng, algo)));
              break;
            case 1:
              if (keyed || algo == GCRY_CIPHER_CHACHA20
                  || algo == GCRY_CIPHER_ARCFOUR)
                random_setiv (t, rng, algo == GCRY_CIPHER_CHACHA20);
              break;
            case 2:
              t.ctl (GCRYCTL_RESET, nullptr, 0);
              break;
            case 3:
              {
                Bytes c = rng.bytes (16);
                t.setctr (rng.below (3) ? c.data () : nullptr,
                          rng.below (2) ? 1 : rng.below (17));
                break;
              }
            default:
              {
                Bytes d = rng.bytes (pick_len (rng));
                t.crypt (rng.below (2), d, d.size () + rng.below (3),
                         rng.below (3) == 0);
                break;
              }
            }
        if (!t.ok)
          break;
      }
}

/* Keystream split at every offset 0..130 then the rest, against one
 * call on the system library.  */
TEST_F (StreamDiff, SplitsAtEveryOffset)
{
  Prng rng (77);
  for (int algo : stream_algos)
    for (size_t keylen : { (size_t) 16, (size_t) 32 })
      for (size_t cut = 0; cut <= 130; cut++)
        {
          Twin t (ours, *sys);
          ASSERT_TRUE (t.open (algo, GCRY_CIPHER_MODE_STREAM));
          t.setkey (rng.bytes (keylen));
          Bytes iv = rng.bytes (12);
          t.setiv (iv.data (), algo == GCRY_CIPHER_CHACHA20 ? 12 : 8);
          Bytes d = rng.bytes (cut);
          t.crypt (true, d, d.size (), false);
          d = rng.bytes (600);
          t.crypt (true, d, d.size (), cut % 2);
          ASSERT_TRUE (t.ok);
        }
}

TEST_F (StreamDiff, RandomPoly1305Sequences)
{
  Prng rng (0x9011305);
  for (int round = 0; round < 4000; round++)
    {
      Twin t (ours, *sys);
      ASSERT_TRUE (t.open (GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_POLY1305,
                           rng.below (4) ? 0 : GCRY_CIPHER_SECURE));
      if (rng.below (8))
        t.setkey (rng.bytes (rng.below (6) ? 32 : pick_keylen (rng, 0)));
      int steps = 2 + (int) rng.below (20);
      Bytes last_tag;
      for (int s = 0; s < steps && t.ok; s++)
        switch (rng.below (16))
          {
          case 0:
            if (rng.below (3) == 0)
              t.setkey (rng.bytes (pick_keylen (rng, 0)));
            break;
          case 1:
          case 2:
            random_setiv (t, rng, true);
            break;
          case 3:
            if (rng.below (3) == 0)
              t.ctl (GCRYCTL_RESET, nullptr, 0);
            break;
          case 4:
          case 5:
            t.authenticate (rng.bytes (pick_len (rng)));
            break;
          case 6:
            {
              static const size_t l[] = { 16, 16, 16, 0, 8, 15, 17, 32 };
              size_t len = l[rng.below (8)];
              t.gettag (len);
              break;
            }
          case 7:
            {
              /* The right tag (as gettag gives it), a corrupted one, or
               * a wrong length.  */
              Bytes tag (32, 0);
              gcry_error_t e = t.ha ? gcry_cipher_gettag (t.ha, tag.data (),
                                                          16) : 1;
              (void) e;
              static const size_t l[] = { 16, 16, 16, 15, 17, 0 };
              tag.resize (l[rng.below (6)]);
              if (!tag.empty () && rng.below (3) == 0)
                tag[rng.below (tag.size ())] ^= 1;
              /* Mirror the gettag on the system handle so both finalise
               * alike.  */
              Bytes junk (32);
              t.note ("(gettag 16 on both before checktag)");
              sys->cipher_gettag (t.hb, junk.data (), 16);
              t.checktag (tag);
              break;
            }
          case 8:
            t.info (GCRYCTL_GET_TAGLEN, false);
            break;
          default:
            {
              Bytes d = rng.bytes (pick_len (rng));
              size_t outsize = d.size () + (rng.below (8) ? 0 : 3);
              if (rng.below (10) == 0 && d.size ())
                outsize = d.size () - 1;
              t.crypt (rng.below (2), d, outsize, rng.below (3) == 0);
              break;
            }
          }
      if (!t.ok)
        break;
    }
}

/* Every ChaCha20 path this CPU has (generic, avx2, avx512), forced in
 * turn: random lengths and splits (the whole-block path, its 16- and
 * 8-block batches and the generic tail), in place or not, across the
 * 32- and 64-bit counter wraps, STREAM and POLY1305, against the system
 * library.  */
TEST_F (StreamDiff, ChaCha20Paths)
{
  auto paths = testutil::available_paths (&_gcry_cipher_spec_chacha20);
  ASSERT_FALSE (paths.empty ());
  printf ("[ paths    ] chacha20: %s\n", testutil::path_names (paths).c_str ());
  for (const cipher_impl_info *impl : paths)
    {
      testutil::ScopedPath forced (*impl);
      Prng rng (0xc4ac4a20);
      for (int round = 0; round < 150; round++)
        {
          Twin t (ours, *sys);
          int mode = round % 3 ? GCRY_CIPHER_MODE_STREAM
                               : GCRY_CIPHER_MODE_POLY1305;
          ASSERT_TRUE (t.open (GCRY_CIPHER_CHACHA20, mode));
          t.setkey (rng.bytes (round % 5 ? 32 : 16));
          ASSERT_STREQ (t.ha->impl_name, impl->name);
          random_setiv (t, rng, true);
          for (int s = 0; s < 6 && t.ok; s++)
            {
              Bytes d = rng.bytes (s == 0 ? rng.below (600)
                                          : pick_len (rng));
              t.crypt (rng.below (2), d, d.size (), rng.below (2));
            }
          if (mode == GCRY_CIPHER_MODE_POLY1305)
            t.gettag (16);
          ASSERT_TRUE (t.ok) << impl->name;
        }
    }
}

/* Every ChaCha20 path, forced in turn: every whole-block count 1..40
 * and one byte more (the vector paths' tails: row-layout kernels of one
 * to eight blocks, partly stored eight- and sixteen-block passes) with
 * the 64-bit counter two blocks below a 32-bit and a 64-bit wrap, so the
 * carry falls inside every kernel's lanes, and ChaCha20-Poly1305
 * messages of the same lengths (the key block and the keystream block
 * computed ahead with it), against the system library.  */
TEST_F (StreamDiff, ChaCha20PathsEveryTailAcrossTheCounterWrap)
{
  auto paths = testutil::available_paths (&_gcry_cipher_spec_chacha20);
  ASSERT_FALSE (paths.empty ());
  Prng rng (0x7a11c0de);
  for (const cipher_impl_info *impl : paths)
    {
      testutil::ScopedPath forced (*impl);
      for (size_t nblocks = 1; nblocks <= 40; nblocks++)
        for (int wrap = 0; wrap < 3; wrap++)
          for (size_t extra : { (size_t) 0, (size_t) 1 })
            {
              Twin t (ours, *sys);
              const bool aead = wrap == 2;
              ASSERT_TRUE (t.open (GCRY_CIPHER_CHACHA20,
                                   aead ? GCRY_CIPHER_MODE_POLY1305
                                        : GCRY_CIPHER_MODE_STREAM));
              t.setkey (rng.bytes (32));
              Bytes iv = rng.bytes (16);
              if (!aead)
                {
                  iv[0] = 0xfe;
                  iv[1] = iv[2] = iv[3] = 0xff;
                  if (wrap)
                    iv[4] = iv[5] = iv[6] = iv[7] = 0xff;
                }
              t.setiv (iv.data (), aead ? 12 : 16);
              Bytes d = rng.bytes (64 * nblocks + extra);
              t.crypt (nblocks % 2, d, d.size (), extra);
              if (aead)
                t.gettag (16);
              ASSERT_TRUE (t.ok) << impl->name << " nblocks " << nblocks
                                 << " wrap " << wrap;
            }
    }
}

/* ChaCha20-Poly1305 decryption of a fresh message of every length
 * 0..600 bytes on every ChaCha20 path, forced in turn: in place or not,
 * with or without AAD, whole or split in two at a random byte, against
 * the system library (output, guard bytes and tag).  On the avx2 path
 * 256..511 bytes take the short stitched form (the Poly1305 blocks in
 * the row kernel that makes the blocks after the 192 bytes kept
 * ahead), 512 and more the full passes.  */
TEST_F (StreamDiff, ChaCha20Poly1305ShortDecryptions)
{
  auto paths = testutil::available_paths (&_gcry_cipher_spec_chacha20);
  ASSERT_FALSE (paths.empty ());
  Prng rng (0x5407d3c);
  for (const cipher_impl_info *impl : paths)
    {
      testutil::ScopedPath forced (*impl);
      for (size_t len = 0; len <= 600; len++)
        {
          Twin t (ours, *sys);
          ASSERT_TRUE (t.open (GCRY_CIPHER_CHACHA20,
                               GCRY_CIPHER_MODE_POLY1305));
          t.setkey (rng.bytes (32));
          Bytes iv = rng.bytes (12);
          t.setiv (iv.data (), 12);
          if (len % 3 == 1)
            t.authenticate (rng.bytes (rng.below (40)));
          Bytes d = rng.bytes (len);
          const bool inplace = len % 2;
          if (len % 5 == 2)
            {
              const size_t cut = rng.below (len + 1);
              Bytes a (d.begin (), d.begin () + cut);
              Bytes b (d.begin () + cut, d.end ());
              t.crypt (false, a, a.size (), inplace);
              t.crypt (false, b, b.size (), inplace);
            }
          else
            t.crypt (false, d, d.size (), inplace);
          t.gettag (16);
          ASSERT_TRUE (t.ok) << impl->name << " len " << len;
        }
    }
}

/* The message's key block, which setiv leaves to the first call that
 * needs it after a long message on a path with a wide form
 * (cipher-poly1305.cpp take_key): on every ChaCha20 path, forced in
 * turn, after no message, a short one or a long one on the handle, a
 * first call of each kind (AAD, the tag, encryption or decryption of
 * lengths on both sides of the wide forms' thresholds: 512 bytes on
 * avx512, 1 KiB encrypting and 512 decrypting on avx2), whole or
 * followed by more data, in place or not, with 16-byte IVs that put the
 * key block's counter just below a 32-bit and a 64-bit wrap (the key
 * block and the pass after it on either side of the carry), against the
 * system library.  */
TEST_F (StreamDiff, ChaCha20Poly1305KeyBlockOnFirstUse)
{
  auto paths = testutil::available_paths (&_gcry_cipher_spec_chacha20);
  ASSERT_FALSE (paths.empty ());
  Prng rng (0x6b3b10c);
  static const size_t lens[] = { 0, 1, 64, 191, 256, 511, 512, 513, 576,
                                 1000, 1023, 1024, 1025, 1088, 1536, 2111,
                                 4096 };
  for (const cipher_impl_info *impl : paths)
    {
      testutil::ScopedPath forced (*impl);
      for (int prior = 0; prior < 3; prior++)
        for (int wrap = 0; wrap < 4; wrap++)
          for (size_t len : lens)
            for (int first = 0; first < 4; first++)
              {
                Twin t (ours, *sys);
                ASSERT_TRUE (t.open (GCRY_CIPHER_CHACHA20,
                                     GCRY_CIPHER_MODE_POLY1305));
                t.setkey (rng.bytes (32));
                if (prior)
                  {
                    t.setiv (rng.bytes (12).data (), 12);
                    Bytes p = rng.bytes (prior == 1 ? rng.below (512)
                                                    : 512 + rng.below (1600));
                    t.crypt (rng.below (2), p, p.size (), false);
                    t.gettag (16);
                  }
                Bytes iv = rng.bytes (16);
                if (wrap)
                  {
                    /* Counter (words 12..13, little-endian) 2^32 - 1,
                     * 2^64 - 1 or 2^32 - 9.  */
                    memset (iv.data (), 0xff, 4);
                    memset (iv.data () + 4, wrap == 2 ? 0xff : 0, 4);
                    if (wrap == 3)
                      iv[0] = 0xf7;
                  }
                t.setiv (iv.data (), wrap ? 16 : 12);
                const bool enc = rng.below (2), inplace = rng.below (2);
                if (first == 0)
                  t.authenticate (rng.bytes (rng.below (40)));
                if (first == 1)
                  {
                    t.gettag (16);
                    ASSERT_TRUE (t.ok) << impl->name;
                    continue;
                  }
                Bytes d = rng.bytes (len);
                t.crypt (enc, d, d.size (), inplace);
                if (first == 3)
                  {
                    Bytes more = rng.bytes (rng.below (2000));
                    t.crypt (enc, more, more.size (), inplace);
                  }
                t.gettag (16);
                ASSERT_TRUE (t.ok) << impl->name << " prior " << prior
                                   << " len " << len << " wrap " << wrap
                                   << " first " << first;
              }
    }
}

/* Every Salsa20 path this CPU has (generic, avx2, avx512), forced in
 * turn, Salsa20/20 and Salsa20/12: random lengths and splits (16- and
 * 8-block batches, the generic remainder and tails), in place or not,
 * against the system library.  (The counter wrap from word 8 into word 9
 * is out of the API's reach, setiv restarts at 0: the self-test checks
 * it.)  */
TEST_F (StreamDiff, Salsa20Paths)
{
  auto paths = testutil::available_paths (&_gcry_cipher_spec_salsa20);
  ASSERT_FALSE (paths.empty ());
  printf ("[ paths    ] salsa20: %s\n", testutil::path_names (paths).c_str ());
  for (const cipher_impl_info *impl : paths)
    {
      testutil::ScopedPath forced (*impl);
      Prng rng (0x5a15a20);
      for (int round = 0; round < 100; round++)
        {
          Twin t (ours, *sys);
          int algo = round % 2 ? GCRY_CIPHER_SALSA20 : GCRY_CIPHER_SALSA20R12;
          ASSERT_TRUE (t.open (algo, GCRY_CIPHER_MODE_STREAM));
          t.setkey (rng.bytes (round % 5 ? 32 : 16));
          ASSERT_STREQ (t.ha->impl_name, impl->name);
          random_setiv (t, rng, false);
          for (int s = 0; s < 6 && t.ok; s++)
            {
              Bytes d = rng.bytes (s == 0 ? rng.below (600)
                                          : pick_len (rng));
              t.crypt (rng.below (2), d, d.size (), rng.below (2));
            }
          ASSERT_TRUE (t.ok) << impl->name;
        }
    }
}

/* Without a key: authenticate, setiv and gettag work on the all-zero
 * state in libgcrypt; data calls are GPG_ERR_MISSING_KEY.  */
/* Without a key gcipher refuses every call that needs it (libgcrypt
 * computes a MAC from a zero key and accepts its tag); the twins check
 * the codes (Twin::keyless_mac_call).  */
TEST_F (StreamDiff, Poly1305WithoutKey)
{
  {
    Handle c (GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_POLY1305);
    uint8_t tag[16] = { 0 }, buf[32] = { 0 };
    EXPECT_EQ (GPG_ERR_MISSING_KEY,
               gcry_err_code (gcry_cipher_setiv (c.h, buf, 12)));
    EXPECT_EQ (GPG_ERR_MISSING_KEY,
               gcry_err_code (gcry_cipher_authenticate (c.h, buf, 16)));
    EXPECT_EQ (GPG_ERR_MISSING_KEY,
               gcry_err_code (gcry_cipher_encrypt (c.h, buf, 16, buf, 16)));
    EXPECT_EQ (GPG_ERR_MISSING_KEY,
               gcry_err_code (gcry_cipher_gettag (c.h, tag, 16)));
    EXPECT_EQ (GPG_ERR_MISSING_KEY,
               gcry_err_code (gcry_cipher_checktag (c.h, tag, 16)));
    /* Codes libgcrypt gives whatever the key: a short tag buffer, a
     * tag length that cannot match.  */
    EXPECT_EQ (GPG_ERR_BUFFER_TOO_SHORT,
               gcry_err_code (gcry_cipher_gettag (c.h, tag, 8)));
    EXPECT_EQ (GPG_ERR_CHECKSUM,
               gcry_err_code (gcry_cipher_checktag (c.h, buf, 17)));
  }
  Prng rng (5);
  for (int round = 0; round < 40; round++)
    {
      Twin t (ours, *sys);
      ASSERT_TRUE (t.open (GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_POLY1305));
      if (round % 2)
        random_setiv (t, rng, false);
      t.authenticate (rng.bytes (pick_len (rng)));
      Bytes d = rng.bytes (pick_len (rng));
      t.crypt (true, d, d.size (), false);
      t.gettag (16);
      ASSERT_TRUE (t.ok);
    }
}

}  // namespace
