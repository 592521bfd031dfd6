/* t-aes-macmodes.cpp - AES in CCM, EAX, SIV and key wrap (KW/KWP).
 *
 *  - Known answers: NIST SP 800-38C C.1-C.3, RFC 3610 packets 1-2,
 *    RFC 5297 A.1/A.2, RFC 3394 4.1-4.6, RFC 5649 6, the Wycheproof
 *    files (aes_ccm, aead_aes_siv_cmac, aes_wrap, aes_kwp) and Botan's
 *    ccm/eax/siv.vec and keywrap/ (AES sections).  Valid vectors must
 *    encrypt and decrypt to the expected bytes; every invalid one must
 *    be rejected (GPG_ERR_CHECKSUM or a parameter error), never
 *    accepted; and when the system libgcrypt is loadable, its answer
 *    (error code and output) must be the same as ours for every vector.
 *  - Every AES path (forced through testutil's path forcing) and the
 *    modes' per-block fallbacks (bulk table cleared) against each other
 *    on random lengths and random call splits.
 *  - Differential: random call sequences per mode (wrong orders, bad
 *    lengths, short and wrong tags, resets, re-keys) against the system
 *    libgcrypt; every return value and output byte must match.
 */
#include <config.h>

#include <string.h>

#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gcrypt.h"
#include "cipher-internal.h"
#include "sysgcrypt.h"
#include "testutil.h"
#include "twin.h"

using testutil::Bytes;
using testutil::Prng;
using testutil::hex_decode;
using testutil::hex_encode;

namespace {

/* ---- Library tables ---------------------------------------------------- */

const sysgcrypt &ours = *sysgcrypt_ours ();

int
algo_for_keylen (size_t keylen)
{
  return keylen == 16 ? GCRY_CIPHER_AES
         : keylen == 24 ? GCRY_CIPHER_AES192 : GCRY_CIPHER_AES256;
}

/* ---- One message through a library ------------------------------------ */

struct Msg
{
  int mode = 0;
  unsigned int flags = 0;
  Bytes key;
  bool has_nonce = false;
  Bytes nonce;
  std::vector<Bytes> ads;      /* SIV: one vector each; others joined.  */
  Bytes in;
  size_t taglen = 16;
  Bytes tag;                   /* Decryption: the tag to check.  */
  /* Splits (byte counts) for the AAD and data calls; empty = one call.  */
  std::vector<size_t> ad_split, data_split;
};

struct Outcome
{
  gcry_err_code_t err = GPG_ERR_NO_ERROR;  /* First error.  */
  std::string step;            /* Where it happened.  */
  Bytes out;                   /* Output (whole buffer).  */
  Bytes tag;                   /* Encryption: the tag.  */
  bool operator== (const Outcome &o) const
  { return err == o.err && step == o.step && out == o.out && tag == o.tag; }
};

std::string
describe (const Outcome &o)
{
  return "err=" + std::to_string (o.err) + " at " + o.step + " out="
         + hex_encode (o.out) + " tag=" + hex_encode (o.tag);
}

/* DATA's bytes, never NULL (an empty std::vector may give NULL, which
 * the API treats differently).  */
const uint8_t *
ptr (const Bytes &b)
{
  static const uint8_t dummy[1] = { 0 };
  return b.empty () ? dummy : b.data ();
}

/* Feed DATA in the pieces of SPLIT (the rest in one last call).  */
template <typename F>
gcry_err_code_t
in_pieces (const Bytes &data, const std::vector<size_t> &split, F call)
{
  size_t off = 0;
  for (size_t n : split)
    {
      if (off + n > data.size ())
        break;
      gcry_err_code_t e = call (ptr (data) + off, n, off);
      if (e)
        return e;
      off += n;
    }
  return call (ptr (data) + off, data.size () - off, off);
}

/* Run M through L (encrypt if ENC).  STRIP clears gcipher's bulk table
 * after setkey (L must be ours then).  */
Outcome
run_msg (const sysgcrypt *L, const Msg &m, bool enc, bool strip = false)
{
  Outcome r;
  gcry_cipher_hd_t h = nullptr;
  auto fail = [&] (gcry_error_t e, const char *step) {
    r.err = gcry_err_code (e);
    r.step = step;
    return e != 0;
  };
  const size_t blen = m.in.size ();
  bool wrap = m.mode == GCRY_CIPHER_MODE_AESWRAP;
  size_t outsize = wrap ? (enc ? ((blen + 7) & ~(size_t) 7) + 8
                               : (blen >= 8 ? blen - 8 : 0))
                        : blen;
  if (wrap && enc && !blen)
    outsize = 16;
  r.out.assign (outsize, 0);

  int algo = algo_for_keylen (m.mode == GCRY_CIPHER_MODE_SIV
                              ? m.key.size () / 2 : m.key.size ());
  if (fail (L->cipher_open (&h, algo, m.mode, m.flags), "open"))
    return r;
  do
    {
      if (fail (L->cipher_setkey (h, m.key.data (), m.key.size ()), "setkey"))
        break;
      if (strip)
        memset (&h->bulk, 0, sizeof h->bulk);
      Bytes ad;
      for (const Bytes &a : m.ads)
        ad.insert (ad.end (), a.begin (), a.end ());
      if (m.mode == GCRY_CIPHER_MODE_SIV)
        {
          bool bad = false;
          for (const Bytes &a : m.ads)
            if (fail (L->cipher_authenticate (h, ptr (a), a.size ()), "auth"))
              {
                bad = true;
                break;
              }
          if (bad)
            break;
          if (m.has_nonce
              && fail (L->cipher_setiv (h, ptr (m.nonce), m.nonce.size ()),
                       "setiv"))
            break;
          if (!enc
              && fail (L->cipher_ctl (h, GCRYCTL_SET_DECRYPTION_TAG,
                                      (void *) ptr (m.tag), m.tag.size ()),
                       "dectag"))
            break;
        }
      else if (!wrap)
        {
          if (m.has_nonce
              && fail (L->cipher_setiv (h, ptr (m.nonce), m.nonce.size ()),
                       "setiv"))
            break;
          if (m.mode == GCRY_CIPHER_MODE_CCM)
            {
              uint64_t p[3] = { blen, ad.size (), m.taglen };
              if (fail (L->cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS, p, sizeof p),
                        "lengths"))
                break;
            }
          gcry_err_code_t e = in_pieces (ad, m.ad_split,
              [&] (const uint8_t *p, size_t n, size_t) {
                return gcry_err_code (L->cipher_authenticate (h, p, n));
              });
          if (e)
            {
              r.err = e;
              r.step = "auth";
              break;
            }
        }
      gcry_err_code_t e;
      if (wrap || m.mode == GCRY_CIPHER_MODE_SIV)
        e = gcry_err_code ((enc ? L->cipher_encrypt : L->cipher_decrypt)
                           (h, r.out.data (), outsize, ptr (m.in), blen));
      else
        e = in_pieces (m.in, m.data_split,
              [&] (const uint8_t *p, size_t n, size_t off) {
                return gcry_err_code ((enc ? L->cipher_encrypt
                                           : L->cipher_decrypt)
                                      (h, r.out.data () + off, n, p, n));
              });
      if (e)
        {
          r.err = e;
          r.step = enc ? "encrypt" : "decrypt";
          break;
        }
      if (wrap)
        break;
      if (enc)
        {
          r.tag.assign (m.taglen, 0);
          if (fail (L->cipher_gettag (h, r.tag.data (), m.taglen), "gettag"))
            break;
        }
      else if (m.mode != GCRY_CIPHER_MODE_SIV
               && fail (L->cipher_checktag (h, ptr (m.tag), m.tag.size ()),
                        "checktag"))
        break;
    }
  while (0);
  L->cipher_close (h);
  return r;
}

/* ---- Known-answer records ------------------------------------------------ */

struct Kat
{
  std::string where;
  Msg msg;          /* Encryption input (msg.in = plaintext).  */
  Bytes ct;         /* Expected ciphertext (wrap: the wrapped key).  */
  Bytes tag;        /* Expected tag (not for wrap).  */
  bool valid = true;
};

bool
is_param_error (gcry_err_code_t e)
{
  return e == GPG_ERR_INV_LENGTH || e == GPG_ERR_INV_ARG
         || e == GPG_ERR_INV_KEYLEN || e == GPG_ERR_BUFFER_TOO_SHORT
         || e == GPG_ERR_INV_STATE;
}

struct KatStats
{
  int valid = 0, rejected_checksum = 0, rejected_param = 0, compared = 0;
  int accepted_kw_in_kwp = 0;
};

/* Check one record on the current path, and against the system library.  */
void
check_kat (const Kat &k, KatStats *st, bool strip = false)
{
  SCOPED_TRACE (k.where);
  const sysgcrypt *sys = sysgcrypt_load_quiet ();
  const bool wrap = k.msg.mode == GCRY_CIPHER_MODE_AESWRAP;

  /* Decryption of the expected ciphertext (with the expected tag).  */
  Msg d = k.msg;
  d.in = k.ct;
  d.tag = k.tag;
  Outcome od = run_msg (&ours, d, false, strip);
  if (sys && !strip)
    {
      Outcome os = run_msg (sys, d, false);
      EXPECT_TRUE (od == os) << "decrypt: gcipher " << describe (od)
                             << "\n libgcrypt " << describe (os);
      st->compared++;
    }
  if (!k.valid && !od.err && wrap && (k.msg.flags & GCRY_CIPHER_EXTENDED)
      && k.ct.size () >= 24 && od.out == k.msg.in)
    {
      /* libgcrypt's KWP unwrap also takes plain RFC 3394 (KW) data
       * (Wycheproof's "RFC 3394 padding" case); so do we, and the
       * comparison above holds us to libgcrypt's answer.  */
      st->accepted_kw_in_kwp++;
      return;
    }
  if (!k.valid)
    {
      EXPECT_NE (0u, od.err) << "invalid vector accepted";
      EXPECT_TRUE (od.err == GPG_ERR_CHECKSUM || is_param_error (od.err))
        << "unexpected error " << od.err;
      if (od.err == GPG_ERR_CHECKSUM)
        st->rejected_checksum++;
      else
        st->rejected_param++;
      return;
    }

  Outcome oe = run_msg (&ours, k.msg, true, strip);
  if (sys && !strip)
    {
      Outcome os = run_msg (sys, k.msg, true);
      EXPECT_TRUE (oe == os) << "encrypt: gcipher " << describe (oe)
                             << "\n libgcrypt " << describe (os);
    }
  if (oe.err)
    {
      /* A parameter libgcrypt does not support: rejected both ways.  */
      EXPECT_TRUE (is_param_error (oe.err)) << describe (oe);
      EXPECT_NE (0u, od.err);
      st->rejected_param++;
      return;
    }
  st->valid++;
  EXPECT_EQ (hex_encode (k.ct), hex_encode (oe.out));
  if (!wrap)
    {
      EXPECT_EQ (hex_encode (k.tag), hex_encode (oe.tag));
    }
  EXPECT_EQ (0u, od.err) << describe (od);
  {
    Bytes want = k.msg.in;
    if (wrap && (k.msg.flags & GCRY_CIPHER_EXTENDED))
      want.resize (od.out.size (), 0);  /* The padded plaintext.  */
    EXPECT_EQ (hex_encode (want), hex_encode (od.out));
  }

  /* A flipped tag bit (or ciphertext bit for wrap) is GPG_ERR_CHECKSUM. */
  Msg bad = d;
  if (wrap)
    bad.in[bad.in.size () / 2] ^= 0x10;
  else if (!bad.tag.empty ())
    bad.tag[bad.tag.size () - 1] ^= 0x01;
  Outcome ob = run_msg (&ours, bad, false, strip);
  EXPECT_EQ ((unsigned) GPG_ERR_CHECKSUM, ob.err) << describe (ob);
  if (!wrap && k.msg.mode != GCRY_CIPHER_MODE_SIV)
    {
      EXPECT_EQ ("checktag", ob.step);
    }
  if (k.msg.mode == GCRY_CIPHER_MODE_SIV)
    {
      EXPECT_EQ (Bytes (ob.out.size (), 0), ob.out) << "SIV output not wiped";
    }
}

Bytes
H (const char *hex)
{
  return hex_decode (hex);
}

std::vector<Kat>
builtin_kats ()
{
  std::vector<Kat> v;
  auto aead = [&] (const char *where, int mode, const char *key,
                   const char *nonce, std::vector<Bytes> ads, const char *pt,
                   const char *ct, const char *tag) {
    Kat k;
    k.where = where;
    k.msg.mode = mode;
    k.msg.key = H (key);
    k.msg.has_nonce = nonce != nullptr;
    if (nonce)
      k.msg.nonce = H (nonce);
    k.msg.ads = ads;
    k.msg.in = H (pt);
    k.ct = H (ct);
    k.tag = H (tag);
    k.msg.taglen = k.tag.size ();
    v.push_back (k);
  };
  /* NIST SP 800-38C Appendix C, examples 1-3.  */
  aead ("SP800-38C C.1", GCRY_CIPHER_MODE_CCM,
        "404142434445464748494a4b4c4d4e4f", "10111213141516",
        { H ("0001020304050607") }, "20212223", "7162015b", "4dac255d");
  aead ("SP800-38C C.2", GCRY_CIPHER_MODE_CCM,
        "404142434445464748494a4b4c4d4e4f", "1011121314151617",
        { H ("000102030405060708090a0b0c0d0e0f") },
        "202122232425262728292a2b2c2d2e2f", "d2a1f0e051ea5f62081a7792073d593d",
        "1fc64fbfaccd");
  aead ("SP800-38C C.3", GCRY_CIPHER_MODE_CCM,
        "404142434445464748494a4b4c4d4e4f", "101112131415161718191a1b",
        { H ("000102030405060708090a0b0c0d0e0f10111213") },
        "202122232425262728292a2b2c2d2e2f3031323334353637",
        "e3b201a9f5b71a7a9b1ceaeccd97e70b6176aad9a4428aa5", "484392fbc1b09951");
  /* RFC 3610 packet vectors #1 and #2.  */
  aead ("RFC3610 #1", GCRY_CIPHER_MODE_CCM,
        "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf", "00000003020100a0a1a2a3a4a5",
        { H ("0001020304050607") },
        "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e",
        "588c979a61c663d2f066d0c2c0f989806d5f6b61dac384", "17e8d12cfdf926e0");
  aead ("RFC3610 #2", GCRY_CIPHER_MODE_CCM,
        "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf", "00000004030201a0a1a2a3a4a5",
        { H ("0001020304050607") },
        "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "72c91a36e135f8cf291ca894085c87e3cc15c439c9e43a3b", "a091d56e10400916");
  /* RFC 5297 A.1 (deterministic) and A.2 (nonce-based, two AD vectors
   * and the nonce).  */
  aead ("RFC5297 A.1", GCRY_CIPHER_MODE_SIV,
        "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
        nullptr, { H ("101112131415161718191a1b1c1d1e1f2021222324252627") },
        "112233445566778899aabbccddee", "40c02b9690c4dc04daef7f6afe5c",
        "85632d07c6e8f37f950acd320a2ecc93");
  aead ("RFC5297 A.2", GCRY_CIPHER_MODE_SIV,
        "7f7e7d7c7b7a79787776757473727170404142434445464748494a4b4c4d4e4f",
        "09f911029d74e35bd84156c5635688c0",
        { H ("00112233445566778899aabbccddeeffdeaddadadeaddadaffeeddccbbaa99887766554433221100"),
          H ("102030405060708090a0") },
        "7468697320697320736f6d6520706c61696e7465787420746f20656e6372797074207573696e67205349562d414553",
        "cb900f2fddbe404326601965c889bf17dba77ceb094fa663b7a3f748ba8af829ea64ad544a272e9c485b62a3fd5c0d",
        "7bdb6e3b432667eb06f4d14bff2fbd0f");
  auto kw = [&] (const char *where, unsigned flags, const char *kek,
                 const char *key, const char *out) {
    Kat k;
    k.where = where;
    k.msg.mode = GCRY_CIPHER_MODE_AESWRAP;
    k.msg.flags = flags;
    k.msg.key = H (kek);
    k.msg.in = H (key);
    k.ct = H (out);
    v.push_back (k);
  };
  /* RFC 3394 section 4.  */
  kw ("RFC3394 4.1", 0, "000102030405060708090a0b0c0d0e0f",
      "00112233445566778899aabbccddeeff",
      "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5");
  kw ("RFC3394 4.2", 0, "000102030405060708090a0b0c0d0e0f1011121314151617",
      "00112233445566778899aabbccddeeff",
      "96778b25ae6ca435f92b5b97c050aed2468ab8a17ad84e5d");
  kw ("RFC3394 4.3", 0,
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "00112233445566778899aabbccddeeff",
      "64e8c3f9ce0f5ba263e9777905818a2a93c8191e7d6e8ae7");
  kw ("RFC3394 4.4", 0, "000102030405060708090a0b0c0d0e0f1011121314151617",
      "00112233445566778899aabbccddeeff0001020304050607",
      "031d33264e15d33268f24ec260743edce1c6c7ddee725a936ba814915c6762d2");
  kw ("RFC3394 4.5", 0,
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "00112233445566778899aabbccddeeff0001020304050607",
      "a8f9bc1612c68b3ff6e6f4fbe30e71e4769c8b80a32cb8958cd5d17d6b254da1");
  kw ("RFC3394 4.6", 0,
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f",
      "28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21");
  /* RFC 5649 section 6.  */
  kw ("RFC5649 6 (20 bytes)", GCRY_CIPHER_EXTENDED,
      "5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8",
      "c37b7e6492584340bed12207808941155068f738",
      "138bdeaa9b8fa7fc61f97742e72248ee5ae6ae5360d1ae6a5f54f373fa543b6a");
  kw ("RFC5649 6 (7 bytes)", GCRY_CIPHER_EXTENDED,
      "5840df6e29b02af1ab493b705bf16ea1ae8338f4dcc176a8", "466f7250617369",
      "afbeb0f07dfbf5419200f2ccb50bb24f");
  return v;
}

/* Wycheproof AEAD (CCM, SIV) and key-wrap files.  */
bool
wycheproof_kats (const std::string &file, int mode, unsigned flags,
                 std::vector<Kat> *v, std::string *err)
{
  testutil::Json j;
  if (!testutil::load_json_file (testutil::testvector_path ("wycheproof/"
                                                            + file), &j, err))
    return false;
  const testutil::Json &groups = j["testGroups"];
  for (size_t g = 0; g < groups.size (); g++)
    {
      const testutil::Json &grp = groups[g];
      const testutil::Json &tests = grp["tests"];
      for (size_t t = 0; t < tests.size (); t++)
        {
          const testutil::Json &tc = tests[t];
          Kat k;
          k.where = file + " tcId " + std::to_string (tc["tcId"].i ());
          k.valid = tc["result"].s () != "invalid";
          k.msg.mode = mode;
          k.msg.flags = flags;
          k.msg.key = hex_decode (tc["key"].s ());
          k.msg.in = hex_decode (tc["msg"].s ());
          k.ct = hex_decode (tc["ct"].s ());
          if (mode != GCRY_CIPHER_MODE_AESWRAP)
            {
              k.msg.has_nonce = true;
              k.msg.nonce = hex_decode (tc["iv"].s ());
              k.msg.ads = { hex_decode (tc["aad"].s ()) };
              k.tag = hex_decode (tc["tag"].s ());
              k.msg.taglen = grp["tagSize"].i () / 8;
            }
          v->push_back (k);
        }
    }
  return true;
}

/* Botan .vec AEAD files: Out = C || T (CCM, EAX) or T || C (SIV).  */
bool
botan_aead_kats (const std::string &file, int mode, std::vector<Kat> *v,
                 std::string *err)
{
  std::vector<testutil::VecSection> secs;
  if (!testutil::parse_vec_file (testutil::testvector_path ("botan/aead/"
                                                            + file), &secs, err))
    return false;
  for (const testutil::VecSection &s : secs)
    {
      if (s.name.rfind ("AES-", 0))
        continue;
      size_t taglen = 16;
      size_t p = s.name.find ('(');
      if (p != std::string::npos)
        taglen = std::stoul (s.name.substr (p + 1));
      for (const testutil::VecRecord &r : s.records)
        {
          Kat k;
          k.where = file + ":" + std::to_string (r.line) + " [" + s.name + "]";
          k.msg.mode = mode;
          k.msg.key = r.bytes ("Key");
          k.msg.has_nonce = r.has ("Nonce");
          k.msg.nonce = r.bytes ("Nonce");
          if (r.has ("AD"))
            k.msg.ads = { r.bytes ("AD") };
          k.msg.in = r.bytes ("In");
          k.msg.taglen = taglen;
          Bytes out = r.bytes ("Out");
          if (out.size () < taglen)
            continue;
          if (mode == GCRY_CIPHER_MODE_SIV)
            {
              k.tag.assign (out.begin (), out.begin () + 16);
              k.ct.assign (out.begin () + 16, out.end ());
            }
          else
            {
              k.ct.assign (out.begin (), out.end () - taglen);
              k.tag.assign (out.end () - taglen, out.end ());
            }
          /* CCM sections are AES-128/CCM(T,L): the nonce has 15-L bytes
           * (the records carry it).  */
          v->push_back (k);
        }
    }
  return true;
}

bool
botan_wrap_kats (std::vector<Kat> *v, std::string *err)
{
  for (const char *file : { "rfc3394.vec", "nist_key_wrap.vec",
                            "nist_key_wrap_invalid.vec" })
    {
      std::vector<testutil::VecSection> secs;
      if (!testutil::parse_vec_file (testutil::testvector_path (
                                       std::string ("botan/keywrap/") + file),
                                     &secs, err))
        return false;
      bool invalid = strstr (file, "invalid") != nullptr;
      for (const testutil::VecSection &s : secs)
        for (const testutil::VecRecord &r : s.records)
          {
            Kat k;
            k.where = std::string (file) + ":" + std::to_string (r.line);
            k.msg.mode = GCRY_CIPHER_MODE_AESWRAP;
            k.msg.flags = s.name == "KWP" ? GCRY_CIPHER_EXTENDED : 0;
            if (r.has ("KEK"))
              {
                k.msg.key = r.bytes ("KEK");
                k.msg.in = r.bytes ("Key");
              }
            else
              {
                k.msg.key = r.bytes ("Key");
                k.msg.in = r.bytes ("Input");
              }
            k.ct = invalid ? r.bytes ("Input") : r.bytes ("Output");
            k.valid = !invalid;
            if (k.msg.key.size () != 16 && k.msg.key.size () != 24
                && k.msg.key.size () != 32)
              continue;
            v->push_back (k);
          }
    }
  return true;
}

std::vector<Kat>
all_kats ()
{
  std::vector<Kat> v = builtin_kats ();
  std::string err;
  EXPECT_TRUE (wycheproof_kats ("aes_ccm_test.json", GCRY_CIPHER_MODE_CCM, 0,
                                &v, &err)) << err;
  EXPECT_TRUE (wycheproof_kats ("aead_aes_siv_cmac_test.json",
                                GCRY_CIPHER_MODE_SIV, 0, &v, &err)) << err;
  EXPECT_TRUE (wycheproof_kats ("aes_wrap_test.json",
                                GCRY_CIPHER_MODE_AESWRAP, 0, &v, &err)) << err;
  EXPECT_TRUE (wycheproof_kats ("aes_kwp_test.json", GCRY_CIPHER_MODE_AESWRAP,
                                GCRY_CIPHER_EXTENDED, &v, &err)) << err;
  EXPECT_TRUE (botan_aead_kats ("ccm.vec", GCRY_CIPHER_MODE_CCM, &v, &err))
    << err;
  EXPECT_TRUE (botan_aead_kats ("eax.vec", GCRY_CIPHER_MODE_EAX, &v, &err))
    << err;
  EXPECT_TRUE (botan_aead_kats ("siv.vec", GCRY_CIPHER_MODE_SIV, &v, &err))
    << err;
  EXPECT_TRUE (botan_wrap_kats (&v, &err)) << err;
  return v;
}

const char *
mode_name (int mode)
{
  switch (mode)
    {
    case GCRY_CIPHER_MODE_CCM: return "CCM";
    case GCRY_CIPHER_MODE_EAX: return "EAX";
    case GCRY_CIPHER_MODE_SIV: return "SIV";
    case GCRY_CIPHER_MODE_AESWRAP: return "AESWRAP";
    default: return "?";
    }
}

TEST (AesMacModes, KnownAnswersEveryPath)
{
  sysgcrypt_load_quiet ();
  std::vector<Kat> kats = all_kats ();
  ASSERT_GT (kats.size (), 1000u);
  auto paths = testutil::available_paths (&_gcry_cipher_spec_aes);
  auto missing = testutil::unavailable_paths (&_gcry_cipher_spec_aes);
  std::printf ("[  PATHS   ] ran: %s; skipped (CPU lacks): %s\n",
               testutil::path_names (paths).c_str (),
               missing.empty () ? "none"
                                : testutil::path_names (missing).c_str ());
  for (const cipher_impl_info *impl : paths)
    {
      testutil::ScopedPath forced (*impl);
      int per_mode[4][4] = {};
      int kw_in_kwp = 0;
      for (const Kat &k : kats)
        {
          KatStats st;
          check_kat (k, &st);
          int mi = k.msg.mode == GCRY_CIPHER_MODE_CCM ? 0
                   : k.msg.mode == GCRY_CIPHER_MODE_EAX ? 1
                   : k.msg.mode == GCRY_CIPHER_MODE_SIV ? 2 : 3;
          per_mode[mi][0] += st.valid;
          per_mode[mi][1] += st.rejected_checksum;
          per_mode[mi][2] += st.rejected_param;
          per_mode[mi][3] += st.compared;
          kw_in_kwp += st.accepted_kw_in_kwp;
          if (::testing::Test::HasFailure ())
            return;
        }
      const int modes[] = { GCRY_CIPHER_MODE_CCM, GCRY_CIPHER_MODE_EAX,
                            GCRY_CIPHER_MODE_SIV, GCRY_CIPHER_MODE_AESWRAP };
      for (int i = 0; i < 4; i++)
        std::printf ("[  %-7s ] path %s: %d valid, %d rejected (checksum),"
                     " %d rejected (parameter), %d compared with libgcrypt\n",
                     mode_name (modes[i]), impl->name, per_mode[i][0],
                     per_mode[i][1], per_mode[i][2], per_mode[i][3]);
      std::printf ("[  AESWRAP ] path %s: %d invalid KWP vector(s) holding"
                   " plain KW data accepted, as libgcrypt does\n", impl->name,
                   kw_in_kwp);
    }
}

TEST (AesMacModes, KnownAnswersNoBulk)
{
  std::vector<Kat> kats = all_kats ();
  int n = 0;
  for (const Kat &k : kats)
    {
      KatStats st;
      check_kat (k, &st, true);
      n++;
      if (::testing::Test::HasFailure ())
        return;
    }
  std::printf ("[  NOBULK  ] %d vectors with the bulk table cleared\n", n);
}

/* ---- Paths against each other on random lengths and splits ----------- */

std::vector<size_t>
random_split (Prng &rng, size_t len)
{
  std::vector<size_t> s;
  size_t left = len;
  while (left && rng.below (3))
    {
      size_t n = rng.below (left + 1);
      if (rng.below (2))
        n = rng.below (2) ? n & ~(size_t) 15 : n % 40;
      s.push_back (n);
      left -= n;
    }
  return s;
}

TEST (AesMacModes, PathsAgree)
{
  auto paths = testutil::available_paths (&_gcry_cipher_spec_aes);
  Prng rng (0x6d6f6465736d6163ull);
  int runs = 0;
  for (int iter = 0; iter < 120; iter++)
    for (int mode : { GCRY_CIPHER_MODE_CCM, GCRY_CIPHER_MODE_EAX,
                      GCRY_CIPHER_MODE_SIV, GCRY_CIPHER_MODE_AESWRAP })
      {
        Msg m;
        m.mode = mode;
        static const size_t kl[] = { 16, 24, 32 };
        size_t keylen = kl[rng.below (3)];
        if (mode == GCRY_CIPHER_MODE_SIV)
          keylen *= 2;
        m.key = rng.bytes (keylen);
        size_t len = rng.below (4) ? rng.below (300) : rng.below (9000);
        if (mode == GCRY_CIPHER_MODE_AESWRAP)
          {
            m.flags = rng.below (2) ? GCRY_CIPHER_EXTENDED : 0;
            len = 16 + 8 * rng.below (60);
            if (m.flags)
              len = 1 + rng.below (500);
          }
        m.in = rng.bytes (len);
        m.has_nonce = true;
        m.nonce = rng.bytes (mode == GCRY_CIPHER_MODE_CCM ? 7 + rng.below (7)
                                                          : rng.below (40));
        size_t nad = mode == GCRY_CIPHER_MODE_SIV ? rng.below (4) : 1;
        for (size_t i = 0; i < nad; i++)
          m.ads.push_back (rng.bytes (rng.below (4) ? rng.below (80)
                                                    : rng.below (2000)));
        m.taglen = mode == GCRY_CIPHER_MODE_CCM ? 4 + 2 * rng.below (7) : 16;
        Bytes ad;
        for (const Bytes &a : m.ads)
          ad.insert (ad.end (), a.begin (), a.end ());
        m.ad_split = random_split (rng, ad.size ());
        m.data_split = random_split (rng, len);

        Outcome ref;
        bool have_ref = false;
        auto check = [&] (const Outcome &o, const std::string &what) {
          if (!have_ref)
            {
              ref = o;
              have_ref = true;
              ASSERT_EQ (0u, o.err) << what << " " << describe (o);
              return;
            }
          ASSERT_TRUE (o == ref) << mode_name (mode) << " " << what
                                 << " differs: " << describe (o)
                                 << "\n reference " << describe (ref);
        };
        for (const cipher_impl_info *impl : paths)
          {
            testutil::ScopedPath forced (*impl);
            check (run_msg (&ours, m, true), impl->name);
          }
        check (run_msg (&ours, m, true, true), "no bulk");
        /* One-shot (no splits) gives the same.  */
        Msg one = m;
        one.ad_split.clear ();
        one.data_split.clear ();
        check (run_msg (&ours, one, true), "one call");
        /* And decrypts back on every path.  */
        Msg d = m;
        d.in = ref.out;
        d.tag = ref.tag;
        for (const cipher_impl_info *impl : paths)
          {
            testutil::ScopedPath forced (*impl);
            Outcome o = run_msg (&ours, d, false);
            ASSERT_EQ (0u, o.err) << impl->name << " " << describe (o);
            Bytes want = m.in;
            want.resize (o.out.size (), 0);
            ASSERT_EQ (hex_encode (want), hex_encode (o.out));
          }
        Outcome o = run_msg (&ours, d, false, true);
        ASSERT_EQ (0u, o.err) << "no bulk " << describe (o);
        runs++;
      }
  std::printf ("[  PATHS   ] %d random messages agree on %s + no-bulk\n", runs,
               testutil::path_names (paths).c_str ());
}

/* ---- Differential call sequences against the system libgcrypt -------- */

/* testutil::Twin (twin.h) of gcipher and SYS, with CCM's lengths call,
 * a crypt in place or not, and statistics: every compared result is
 * counted and its code added to the trace.  */
class Twin : public testutil::Twin
{
public:
  explicit Twin (const sysgcrypt *sys) : testutil::Twin (&ours, sys) {}

  void
  same (gcry_error_t a, gcry_error_t b, const char *what) override
  {
    if (!b && !strcmp (what, "gettag"))
      stats[0]++;
    else if (!b && !strcmp (what, "checktag"))
      stats[1]++;
    else if (gcry_err_code (b) == GPG_ERR_CHECKSUM)
      stats[2]++;
    else if (!b && (!strcmp (what, "encrypt") || !strcmp (what, "decrypt")))
      stats[3]++;
    if (!trace.empty () && trace.back () == '\n')
      trace.insert (trace.size () - 1,
                    " -> " + std::to_string (gcry_err_code (b)));
    testutil::Twin::same (a, b, what);
  }

  void
  lengths (uint64_t a, uint64_t b, uint64_t t, size_t buflen = 24)
  {
    note ("lengths " + std::to_string (a) + " " + std::to_string (b) + " "
          + std::to_string (t));
    uint64_t p[4] = { a, b, t, 0 }, q[4] = { a, b, t, 0 };
    same (A->cipher_ctl (ha, GCRYCTL_SET_CCM_LENGTHS, p, buflen),
          B->cipher_ctl (hb, GCRYCTL_SET_CCM_LENGTHS, q, buflen), "lengths");
  }

  /* Output buffers compared in full (with a guard); INPLACE: IN == OUT.  */
  void
  crypt (bool enc, const uint8_t *in, size_t inlen, size_t outsize,
         bool inplace)
  {
    testutil::Twin::crypt (enc, in, inlen, outsize,
                           inplace ? IN_EQ_OUT : SEPARATE);
  }

  /* Successful gettag, checktag; GPG_ERR_CHECKSUM; successful data.  */
  int stats[4] = {};
};

/* One random sequence on MODE.  Never leaves a handle without a key
 * before a CCM/EAX/SIV call (libgcrypt 1.10 dereferences the missing key
 * schedule there) and never wraps an empty key in KWP (libgcrypt reads
 * past the input and writes 16 bytes whatever the buffer).  */
void
random_sequence (Twin &t, Prng &rng, int mode, int steps)
{
  static const Bytes data = [] {
    Bytes d (12000);
    for (size_t i = 0; i < d.size (); i++)
      d[i] = (uint8_t) (i * 13 + (i >> 7));
    return d;
  }();
  static const size_t aes_kl[] = { 16, 24, 32 };
  const bool siv = mode == GCRY_CIPHER_MODE_SIV;
  unsigned flags = 0;
  if (mode == GCRY_CIPHER_MODE_AESWRAP && rng.below (2))
    flags |= GCRY_CIPHER_EXTENDED;
  if (rng.below (8) == 0)
    flags |= GCRY_CIPHER_SECURE;
  int algo = algo_for_keylen (aes_kl[rng.below (3)]);
  if (!t.open (algo, mode, flags))
    return;
  Bytes key = rng.bytes (64), nonce = rng.bytes (40);
  auto good_keylen = [&] { return (siv ? 2 : 1) * aes_kl[rng.below (3)]; };
  t.setkey (key, good_keylen ());

  uint64_t ccm_left = 0, aad_left = 0;
  if (mode == GCRY_CIPHER_MODE_CCM && rng.below (3))
    {
      /* Mostly well-formed CCM messages (split AAD and data, directions
       * mixed, tags right, wrong, short) with the odd wrong call.  */
      for (int msg = 0; msg < 4 && t.ok; msg++)
        {
          static const size_t nl[] = { 7, 8, 9, 10, 11, 12, 13 };
          t.setiv (nonce.data (), nl[rng.below (7)]);
          uint64_t dlen = rng.below (3) ? rng.below (100) : rng.below (5000);
          uint64_t alen = rng.below (3) ? rng.below (60) : rng.below (70000);
          size_t tlen = 4 + 2 * rng.below (7);
          t.lengths (dlen, alen, tlen);
          Bytes aad = rng.bytes (alen);
          size_t off = 0;
          while (off < alen && t.ok)
            {
              size_t n = std::min ((size_t) (alen - off),
                                   (size_t) rng.below (rng.below (2) ? 40 : 20000));
              if (rng.below (30) == 0)
                n = alen - off + 1;  /* Too much.  */
              t.authenticate (aad.data () + off, n);
              if (off + n <= alen)
                off += n;
              else
                break;
            }
          off = 0;
          while (off < dlen && t.ok)
            {
              size_t n = std::min ((size_t) (dlen - off),
                                   (size_t) rng.below (rng.below (2) ? 40 : 3000));
              if (rng.below (30) == 0)
                n = dlen - off + 1;
              t.crypt (rng.below (2), data.data () + rng.below (300), n, n,
                       rng.below (4) == 0);
              if (off + n <= dlen)
                off += n;
              else
                break;
            }
          uint64_t how = rng.below (6);
          if (how == 0)
            t.checktag (rng.bytes (tlen), tlen);
          else if (how == 1)
            t.checktag (Bytes (16, 0), rng.below (17));
          else
            {
              t.gettag (rng.below (8) ? tlen : rng.below (17));
              Bytes tag = t.last_tag;
              if (rng.below (3) == 0 && !tag.empty ())
                tag[rng.below (tag.size ())] ^= 0x20;
              t.checktag (tag, tag.size ());
            }
          if (rng.below (4) == 0)
            t.setkey (key, good_keylen ());
        }
      return;
    }
  for (int s = 0; s < steps && t.ok; s++)
    {
      uint64_t op = rng.below (100);
      size_t len = rng.below (4) ? rng.below (64) : rng.below (5000);
      const uint8_t *src = data.data () + rng.below (500);
      if (op < 12)
        {
          static const size_t nl[] = { 7, 8, 11, 12, 13, 13, 0, 6, 14, 16, 1, 40 };
          size_t l = mode == GCRY_CIPHER_MODE_CCM ? nl[rng.below (12)]
                                                  : rng.below (41);
          if (mode == GCRY_CIPHER_MODE_AESWRAP)
            l = rng.below (3) ? 8 : rng.below (20);
          t.setiv (rng.below (12) ? nonce.data () : nullptr, l);
          if (mode == GCRY_CIPHER_MODE_CCM && rng.below (3))
            {
              /* Usually a consistent message follows.  */
              ccm_left = rng.below (3) ? rng.below (100) : rng.below (3000);
              aad_left = rng.below (2) ? rng.below (40) : 0;
              static const uint64_t tl[] = { 4, 6, 8, 10, 12, 14, 16, 16, 3, 0, 17, 2, 7 };
              t.lengths (ccm_left, aad_left, tl[rng.below (13)]);
            }
        }
      else if (op < 18 && mode == GCRY_CIPHER_MODE_CCM)
        {
          static const uint64_t tl[] = { 4, 8, 16, 5, 18, 0 };
          size_t bl = rng.below (10) ? 24 : rng.below (2) ? 16 : 32;
          t.lengths (rng.below (200), rng.below (3) ? rng.below (30) : 0,
                     tl[rng.below (6)], bl);
        }
      else if (op < 32)
        {
          if (mode == GCRY_CIPHER_MODE_CCM && aad_left && rng.below (3))
            len = rng.below (aad_left + 1);
          /* NULL only with length 0: cipher.cpp answers NULL with a
           * length itself (GPG_ERR_INV_ARG), before the mode's state
           * checks, which libgcrypt's EAX/SIV/CCM do first.  */
          if (rng.below (10))
            t.authenticate (src, len);
          else
            t.authenticate (nullptr, 0);
          if (len <= aad_left)
            aad_left -= len;
        }
      else if (op < 62)
        {
          bool enc = rng.below (2);
          if (mode == GCRY_CIPHER_MODE_CCM && rng.below (3))
            len = rng.below (ccm_left + 1);
          if (mode == GCRY_CIPHER_MODE_AESWRAP)
            len = rng.below (4) ? 8 * rng.below (8) : rng.below (70);
          size_t outsize = len;
          if (mode == GCRY_CIPHER_MODE_AESWRAP)
            outsize = enc ? ((len + 7) & ~(size_t) 7) + 8 : len - std::min (len, (size_t) 8);
          uint64_t o = rng.below (10);
          if (o == 0)
            outsize = outsize ? outsize - 1 - rng.below (outsize) : 0;
          else if (o == 1)
            outsize += rng.below (24);
          /* KWP of an empty key: libgcrypt reads 8 bytes past the input
           * and writes 16 bytes whatever OUTSIZE; not compared.  */
          if (mode == GCRY_CIPHER_MODE_AESWRAP && enc && !len
              && (flags & GCRY_CIPHER_EXTENDED))
            len = 1;
          /* Decrypting what we just produced makes the check pass.  */
          if (!enc && rng.below (2) && !t.last_out.empty ())
            {
              Bytes prev = t.last_out;
              t.crypt (false, prev.data (), prev.size (),
                       mode == GCRY_CIPHER_MODE_AESWRAP
                         ? prev.size () - std::min (prev.size (), (size_t) 8)
                         : prev.size (),
                       rng.below (3) == 0);
            }
          else
            /* libgcrypt 1.10 wraps wrongly in place in KWP (the AIV
             * lands on the input before it is read); gcipher does not
             * copy that, so in-place KWP wrapping is not compared.  */
            t.crypt (enc, src, len, outsize,
                     rng.below (4) == 0
                     && !(enc && (flags & GCRY_CIPHER_EXTENDED)));
          if (len <= ccm_left)
            ccm_left -= len;
        }
      else if (op < 72)
        {
          static const size_t tl[] = { 16, 16, 8, 4, 12, 0, 15, 17, 20, 6, 14 };
          t.gettag (tl[rng.below (11)]);
        }
      else if (op < 82)
        {
          static const size_t tl[] = { 16, 16, 8, 4, 12, 0, 15, 17, 6, 14 };
          size_t l = tl[rng.below (10)];
          Bytes tag = t.last_tag;
          if (rng.below (3) == 0)
            tag = rng.bytes (16);
          if (rng.below (2))
            l = tag.size ();
          t.checktag (tag, l);
        }
      else if (op < 87)
        t.ctl (GCRYCTL_RESET, nullptr, 0);
      else if (op < 91)
        t.setkey (key, good_keylen ());
      else if (op < 95)
        {
          Bytes tag = t.last_tag.size () == 16 && rng.below (2)
                        ? t.last_tag : rng.bytes (16);
          static const size_t dl[] = { 16, 16, 16, 15, 17, 0 };
          const size_t l = dl[rng.below (6)];
          tag.resize (std::max (tag.size (), l));  /* holds all L bytes */
          t.ctl (GCRYCTL_SET_DECRYPTION_TAG, tag.data (), l);
        }
      else if (op < 98)
        t.info (rng.below (2) ? GCRYCTL_GET_TAGLEN : GCRYCTL_GET_KEYLEN,
                rng.below (2));
      else
        {
          int v = 16;
          t.ctl (GCRYCTL_SET_TAGLEN, &v, sizeof v);
        }
    }
}

TEST (AesMacModes, DifferentialSequences)
{
  const sysgcrypt *sys = sysgcrypt_load_quiet ();
  if (!sys)
    GTEST_SKIP () << "system libgcrypt unavailable";
  auto paths = testutil::available_paths (&_gcry_cipher_spec_aes);
  for (int variant = 0; variant <= (int) paths.size (); variant++)
    {
      bool strip = variant == (int) paths.size ();
      std::unique_ptr<testutil::ScopedPath> forced;
      if (!strip)
        forced.reset (new testutil::ScopedPath (*paths[variant]));
      SCOPED_TRACE (strip ? "no bulk" : paths[variant]->name);
      for (int mode : { GCRY_CIPHER_MODE_CCM, GCRY_CIPHER_MODE_EAX,
                        GCRY_CIPHER_MODE_SIV, GCRY_CIPHER_MODE_AESWRAP })
        {
          Twin t (sys);
          t.strip_bulk = strip;
          Prng rng (0x7365710000000000ull + (uint64_t) mode);
          for (int r = 0; r < 300 && t.ok; r++)
            random_sequence (t, rng, mode, 40);
          ASSERT_TRUE (t.ok) << mode_name (mode);
          if (variant == 0)
            std::printf ("[  DIFF    ] %-7s: %d gettag, %d checktag ok, %d "
                         "checksum errors, %d data calls ok\n",
                         mode_name (mode), t.stats[0], t.stats[1],
                         t.stats[2], t.stats[3]);
        }
      std::printf ("[  DIFF    ] %s: CCM EAX SIV AESWRAP sequences match "
                   "libgcrypt\n", strip ? "no-bulk" : paths[variant]->name);
    }
}

/* EAX's per-key tables (E_K ([t]_n) and OMAC^t of the empty string,
 * cipher-eax.cpp) against libgcrypt on every path and without bulk
 * functions: empty nonce, header and message; a re-key between setiv
 * and the first header or data (libgcrypt keeps the tweak blocks
 * pending until then) or before the tag; several headers, also after
 * data; setiv reuse; a failed setkey; the message split at every
 * offset, in place and not, in both directions.  */
TEST (AesMacModes, DifferentialEaxKeyTables)
{
  const sysgcrypt *sys = sysgcrypt_load_quiet ();
  if (!sys)
    GTEST_SKIP () << "system libgcrypt unavailable";
  Prng rng (0x6561787461626c65ull);
  const Bytes k1 = rng.bytes (32), k2 = rng.bytes (32);
  const Bytes nonce = rng.bytes (40), hdr = rng.bytes (70), msg = rng.bytes (83);
  auto paths = testutil::available_paths (&_gcry_cipher_spec_aes);
  int runs = 0;
  for (int variant = 0; variant <= (int) paths.size (); variant++)
    {
      const bool strip = variant == (int) paths.size ();
      std::unique_ptr<testutil::ScopedPath> forced;
      if (!strip)
        forced.reset (new testutil::ScopedPath (*paths[variant]));
      SCOPED_TRACE (strip ? "no bulk" : paths[variant]->name);
      for (size_t kl : { 16, 24, 32 })
        {
          Twin t (sys);
          t.strip_bulk = strip;
          ASSERT_TRUE (t.open (GCRY_CIPHER_AES, GCRY_CIPHER_MODE_EAX, 0));
          t.setkey (k1, kl);
          /* Empty everything, with and without setiv.  */
          t.gettag (16);
          t.setiv (nonce.data (), 0);
          t.gettag (16);
          t.setiv (nullptr, 0);
          t.authenticate (hdr.data (), 0);
          t.crypt (true, msg.data (), 0, 0, false);
          t.gettag (16);
          /* Nonce lengths around the block size, empty header.  */
          for (size_t nl : { 1, 15, 16, 17, 32, 40 })
            {
              t.setiv (nonce.data (), nl);
              t.crypt (true, msg.data (), 48, 48, false);
              t.gettag (16);
            }
          /* Re-key between setiv and the header, the data, the tag.  */
          t.setiv (nonce.data (), 16);
          t.setkey (k2, kl);
          t.authenticate (hdr.data (), 20);
          t.crypt (true, msg.data (), 40, 40, false);
          t.gettag (16);
          t.setiv (nonce.data (), 16);
          t.authenticate (hdr.data (), 33);
          t.setkey (k1, kl);
          t.crypt (true, msg.data (), 40, 40, true);
          t.gettag (16);
          t.setiv (nonce.data (), 7);
          t.setkey (k2, kl);
          t.gettag (16);
          t.setiv (nonce.data (), 7);
          t.crypt (false, msg.data (), 17, 17, false);
          t.setkey (k1, kl);
          t.checktag (t.last_tag, 16);
          /* Several headers, before and after the data.  */
          t.setiv (nonce.data (), 12);
          for (size_t a : { 0, 1, 16, 15, 0, 38 })
            t.authenticate (hdr.data (), a);
          t.crypt (true, msg.data (), 33, 33, false);
          t.authenticate (hdr.data (), 5);
          t.crypt (true, msg.data () + 33, 16, 16, false);
          t.gettag (16);
          /* A failed setkey, then a good one.  */
          t.setkey (k1, 7);
          t.setkey (k2, kl);
          t.setiv (nonce.data (), 13);
          t.crypt (true, msg.data (), 64, 64, false);
          t.gettag (16);
          /* Every split of the message, both directions, in place or
           * not; setiv reused with the same nonce each time.  */
          for (size_t cut = 0; cut <= msg.size () && t.ok; cut++)
            for (bool enc : { true, false })
              {
                const bool inplace = (cut & 1) != 0;
                t.setiv (nonce.data (), 16);
                t.authenticate (hdr.data (), cut % 40);
                t.crypt (enc, msg.data (), cut, cut, inplace);
                t.crypt (enc, msg.data () + cut, msg.size () - cut,
                         msg.size () - cut, inplace);
                if (enc)
                  t.gettag (16);
                else
                  t.checktag (t.last_tag, 16);
                runs++;
              }
          ASSERT_TRUE (t.ok) << "key length " << kl;
        }
    }
  std::printf ("[  EAX     ] %d split messages and the key-table cases match"
               " libgcrypt on %s + no-bulk\n", runs,
               testutil::path_names (paths).c_str ());
}

/* Key-length rules and the calls before any key (only those libgcrypt
 * survives).  */
TEST (AesMacModes, DifferentialKeysAndOpen)
{
  const sysgcrypt *sys = sysgcrypt_load_quiet ();
  if (!sys)
    GTEST_SKIP () << "system libgcrypt unavailable";
  Twin t (sys);
  Bytes key = Bytes (80, 0x3c);
  for (int mode : { GCRY_CIPHER_MODE_CCM, GCRY_CIPHER_MODE_EAX,
                    GCRY_CIPHER_MODE_SIV, GCRY_CIPHER_MODE_AESWRAP })
    for (unsigned flags : { 0u, (unsigned) GCRY_CIPHER_EXTENDED, 1u, 4u, 8u })
      for (size_t kl : { 0, 8, 16, 24, 32, 40, 48, 64, 65 })
        {
          if (!t.open (GCRY_CIPHER_AES, mode, flags))
            continue;
          t.info (GCRYCTL_GET_TAGLEN, false);
          t.info (GCRYCTL_GET_KEYLEN, true);
          Bytes d (64, 1);
          t.crypt (true, d.data (), 32, 40, false);
          if (mode == GCRY_CIPHER_MODE_CCM)
            {
              t.authenticate (d.data (), 0);
              t.gettag (8);
              t.setiv (d.data (), 13);
            }
          t.setkey (key, kl);
          ASSERT_TRUE (t.ok);
        }
}

}  // namespace

namespace {

/* CCM with q = 2 and more than 16 * 2^16 bytes: the 128-bit counter
 * carries out of its q bytes into the nonce, exactly as in libgcrypt
 * (which does not limit ENCRYPTLEN by q).  */
TEST (AesMacModes, DifferentialCcmCounterCarry)
{
  const sysgcrypt *sys = sysgcrypt_load_quiet ();
  if (!sys)
    GTEST_SKIP () << "system libgcrypt unavailable";
  Twin t (sys);
  Prng rng (0x636172727921ull);
  Bytes key = rng.bytes (32), big = rng.bytes (16 * 65536 + 777);
  Bytes nonce (13, 0xff);
  ASSERT_TRUE (t.open (GCRY_CIPHER_AES, GCRY_CIPHER_MODE_CCM, 0));
  t.setkey (key, 16);
  t.setiv (nonce.data (), 13);
  t.lengths (big.size (), 0, 16);
  t.crypt (true, big.data (), 300000, 300000, false);
  t.crypt (true, big.data () + 300000, big.size () - 300000,
           big.size () - 300000, false);
  t.gettag (16);
  EXPECT_TRUE (t.ok);
}

}  // namespace
