/* bench-compare.cpp - gcipher against libgcrypt builds and OpenSSL 3, in
 * one process, with the AES round-instruction lower bound.
 *
 * Usage:
 *   bench-compare [--sizes N,N,...] [--modes M,M,...|all] [--rounds N]
 *                 [--ms MS] [--disable-hwf NAME]... [--libgcrypt PATH]...
 *                 [--csv] [ALGO...]
 *
 * ALGO: libgcrypt names (aes, aes192, aes256, ...; default the three AES
 * key sizes).  Modes: ECB CBC CFB CFB8 OFB CTR XTS CCM EAX GCM OCB SIV
 * GCM-SIV (default all).  Sizes: message lengths in bytes, multiples of
 * 16, k/m suffixes allowed (default 16,64,256,1k,4k,16k,64k).
 *
 * The sides, in column order:
 *   gcipher    linked statically (../src/libgcipher-static.la), called
 *              through the public gcry_* API;
 *   libgcrypt  each --libgcrypt PATH in order (by default the system
 *              libgcrypt.so.20), every one loaded with dlmopen into a
 *              namespace of its own (sysgcrypt_open, tests/sysgcrypt.h),
 *              the same API; labelled "libgcrypt " + its
 *              gcry_check_version (NULL) ("libgcrypt 1.10.1"), a second
 *              library of the same version " #2"; a named PATH that does
 *              not load stops the run (exit status 2), a missing system
 *              library is a warning;
 *   openssl    libcrypto through EVP (EVP_CIPHER_fetch "AES-128-GCM",
 *              "ARIA-128-CTR" ..., "ChaCha20-Poly1305"; AES, ARIA and
 *              ChaCha20-Poly1305 only;
 *              a cipher it cannot fetch is `-': EAX, and GCM-SIV before
 *              OpenSSL 3.2); absent when configure found no libcrypto
 *              (cross builds: i686 has none), so the tool still builds.
 * --disable-hwf NAME goes to gcipher and to every libgcrypt before it
 * initialises (a name one of them rejects gives a warning naming it),
 * and on x86 to OpenSSL as the matching OPENSSL_ia32cap bits (see
 * openssl_ia32cap_mask; OpenSSL reads the variable once, while
 * libcrypto loads, so the tool runs itself again with it set; a
 * variable the caller set is left as it is).  Each peer gets a ratio
 * column (its ns/B over gcipher's) and "best" is the fastest peer's over
 * gcipher's.
 *
 * A measurement is one full message per call, on the same buffers for
 * every side: the IV (tweak, counter, nonce) is set, then the whole
 * message encrypted or decrypted in one call (the padding-free Final of
 * EVP included); AEAD messages authenticate no data and end with gettag
 * (encryption) or the tag check of a valid tag (decryption); SIV's nonce
 * is its last associated-data component (RFC 5297 3), so OpenSSL is given
 * the same nonce as associated data; SIV and GCM-SIV handles are reset
 * per message (libgcrypt requires it), and OpenSSL's SIV context is keyed
 * again per message (it refuses a second message otherwise).  Keys are set up once, outside the
 * timing.  Before timing, every side encrypts the message once and the
 * ciphertexts and tags are compared (a mismatch is a warning on stderr
 * and exit status 1); decryption rows decrypt that ciphertext.
 *
 * Timing: CLOCK_MONOTONIC_RAW around ITERS back-to-back messages, ITERS
 * calibrated per side so a measurement lasts about --ms milliseconds
 * (default 2).  Rounds (--rounds, default 5) interleave the sides
 * (A B C, B C A, C A B, ...) on each row, and each round runs over all
 * rows, so a row's rounds are spread over the whole run and a burst of
 * other load hits only some of them.  A measurement during which the
 * thread lost the CPU (its CPU time falls short of the wall time by more
 * than 2% + 20 us) is repeated, up to 20 times.  The median over rounds
 * is reported
 * as ns per byte (so the table appears at the end; on a terminal, stderr
 * shows the rounds' progress).
 *
 * The bound: bench::measure_aes_insn times AES round instructions (xmm
 * AES-NI, ymm VAES, zmm VAES-512, only the forms this CPU has), each with
 * kLimitChains independent chains, in ns per instruction, and the latency
 * of dependent aesenc; at start-up and again every 16 rows, keeping the
 * fastest (the clock of a shared host moves).  A row's limit is
 * bench::limit_ns_per_byte with the forms gcipher's hardware features
 * (its hwflist after --disable-hwf) allow: parallel modes rounds x ns per
 * instruction / blocks per instruction / 16, serial chains rounds x
 * latency / 16 (less the blocks the out-of-order core may overlap with
 * the next message).  No clock estimate enters it; the clock estimate
 * after each row is only for the cycles bench-report shows.  A row
 * nobody can run is left out.
 *
 * Output: see doc/gcipher.md 12 (`tests/bench-compare').
 */
#include <config.h>

#include "gcrypt.h"

#ifdef HAVE_OPENSSL
#include <openssl/crypto.h>
#include <openssl/evp.h>
#endif

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench-common.h"
#include "bench-limit.h"
#include "sysgcrypt.h"

namespace {

constexpr const char *kPgm = "bench-compare";
constexpr size_t kNonceLen = 12;
constexpr size_t kTagLen = 16;

/* The libraries compared: gcipher first, then every libgcrypt
 * (--libgcrypt, each in its own dlmopen namespace; by default the system
 * one), then OpenSSL.  */
struct Side
{
  std::string label;        /* "gcipher", "libgcrypt 1.10.1", "openssl" */
  std::string head1, head2; /* text heading, two lines */
  std::string key;          /* CSV column prefix (csv_key of label) */
  const sysgcrypt *api;     /* NULL: OpenSSL */
};
constexpr size_t kGcipher = 0;
std::vector<Side> g_sides;
size_t g_openssl;           /* index of OpenSSL in g_sides (the number of
                               gcry_* sides; past the end without it) */

bench::CompareOptions opt;
int exit_status = 0;

/* Buffers shared by every side: plaintext, reference ciphertext, output. */
struct Buffers
{
  unsigned char *plain = nullptr;
  unsigned char *cipher = nullptr;
  unsigned char *out = nullptr;
  unsigned char tag[kTagLen];
};

/* The row being measured.  */
struct RowSpec
{
  int algo;
  size_t keylen;           /* bytes, one key */
  const bench::ModeInfo *mode;
  bool enc;
  size_t len;
};

unsigned char g_key[64];
unsigned char g_iv[16];

/* One side's implementation of a mode for one algorithm: set up once,
 * then message () per call.  */
class Runner
{
public:
  virtual ~Runner () = default;
  /* Encrypt PLAIN (LEN bytes) into OUT and the tag into TAG; false if the
   * side cannot.  */
  virtual bool encrypt_message (const unsigned char *plain,
                                unsigned char *out, size_t len,
                                unsigned char *tag) = 0;
  /* Decrypt IN with TAG into OUT; false on an error or a tag that does not
   * verify.  */
  virtual bool decrypt_message (const unsigned char *in, unsigned char *out,
                                size_t len, const unsigned char *tag) = 0;
};

/* ---- The gcry_* API (gcipher and the system libgcrypt) ------------------ */

class GcryRunner : public Runner
{
public:
  static std::unique_ptr<Runner>
  create (const sysgcrypt *api, const RowSpec &r)
  {
    gcry_cipher_hd_t hd;
    if (api->cipher_open (&hd, r.algo, r.mode->gcry_mode, 0))
      return nullptr;
    size_t klen = r.mode->double_key ? 2 * r.keylen : r.keylen;
    if (api->cipher_setkey (hd, g_key, klen))
      {
        api->cipher_close (hd);
        return nullptr;
      }
    return std::unique_ptr<Runner> (new GcryRunner (api, hd, r));
  }
  ~GcryRunner () override { api_->cipher_close (hd_); }

  bool
  encrypt_message (const unsigned char *in, unsigned char *out, size_t len,
                   unsigned char *tag) override
  {
    if (!start (len))
      return false;
    if (api_->cipher_encrypt (hd_, out, len, in, len))
      return false;
    if (aead_)
      return !api_->cipher_gettag (hd_, tag, kTagLen);
    return true;
  }

  bool
  decrypt_message (const unsigned char *in, unsigned char *out, size_t len,
                   const unsigned char *tag) override
  {
    if (!start (len))
      return false;
    if (tag_first_
        && api_->cipher_ctl (hd_, GCRYCTL_SET_DECRYPTION_TAG,
                             const_cast<unsigned char *> (tag), kTagLen))
      return false;
    if (api_->cipher_decrypt (hd_, out, len, in, len))
      return false;
    if (aead_ && !tag_first_)
      return !api_->cipher_checktag (hd_, tag, kTagLen);
    return true;
  }

private:
  GcryRunner (const sysgcrypt *api, gcry_cipher_hd_t hd, const RowSpec &r)
    : api_ (api), hd_ (hd), mode_ (r.mode->gcry_mode), aead_ (r.mode->aead),
      tag_first_ (mode_ == GCRY_CIPHER_MODE_SIV
                  || mode_ == GCRY_CIPHER_MODE_GCM_SIV)
  {
  }

  /* Per message: IV / counter / tweak, or the AEAD nonce and lengths.  */
  bool
  start (size_t len)
  {
    switch (mode_)
      {
      case GCRY_CIPHER_MODE_ECB:
        return true;
      case GCRY_CIPHER_MODE_CTR:
        return !api_->cipher_setctr (hd_, g_iv, 16);
      case GCRY_CIPHER_MODE_CBC: case GCRY_CIPHER_MODE_CFB:
      case GCRY_CIPHER_MODE_CFB8: case GCRY_CIPHER_MODE_OFB:
      case GCRY_CIPHER_MODE_XTS:
        return !api_->cipher_setiv (hd_, g_iv, 16);
      default:
        break;
      }
    if (tag_first_ && api_->cipher_ctl (hd_, GCRYCTL_RESET, nullptr, 0))
      return false;
    if (api_->cipher_setiv (hd_, g_iv, kNonceLen))
      return false;
    if (mode_ == GCRY_CIPHER_MODE_CCM)
      {
        uint64_t params[3] = { (uint64_t) len, 0, kTagLen };
        if (api_->cipher_ctl (hd_, GCRYCTL_SET_CCM_LENGTHS, params,
                              sizeof params))
          return false;
      }
    /* One data call per message: it is the last (OCB needs the mark).  */
    return !api_->cipher_ctl (hd_, GCRYCTL_FINALIZE, nullptr, 0);
  }

  const sysgcrypt *api_;
  gcry_cipher_hd_t hd_;
  int mode_;
  bool aead_;
  bool tag_first_;
};

/* gcipher's own entry points in the sysgcrypt table layout.  */
sysgcrypt
gcipher_table ()
{
  return sysgcrypt_gcipher ("(static)");
}

#ifdef HAVE_OPENSSL
/* ---- OpenSSL EVP -------------------------------------------------------- */

class EvpRunner : public Runner
{
public:
  static std::unique_ptr<Runner>
  create (const RowSpec &r)
  {
    const char *family;
    if (r.algo == GCRY_CIPHER_AES || r.algo == GCRY_CIPHER_AES192
        || r.algo == GCRY_CIPHER_AES256)
      family = "AES-";
    else if (r.algo == GCRY_CIPHER_ARIA128 || r.algo == GCRY_CIPHER_ARIA192
             || r.algo == GCRY_CIPHER_ARIA256)
      family = "ARIA-";   /* "ARIA-128-CTR" ... (no ARIA in libgcrypt 1.10) */
    else if (r.algo == GCRY_CIPHER_CHACHA20
             && r.mode->gcry_mode == GCRY_CIPHER_MODE_POLY1305)
      family = nullptr;   /* RFC 8439 AEAD, 12-byte nonce, as libgcrypt.  */
    else
      return nullptr;
    /* "AES-128-CFB" is CFB-128; "AES-128-GCM-SIV" exists from 3.2.  */
    std::string name = family ? family + std::to_string (r.keylen * 8) + "-"
                                + r.mode->name
                              : "ChaCha20-Poly1305";
    EVP_CIPHER *c = EVP_CIPHER_fetch (nullptr, name.c_str (), nullptr);
    if (!c)
      return nullptr;
    std::unique_ptr<EvpRunner> run (new EvpRunner (c, r));
    if (!run->setup (run->enc_, 1) || !run->setup (run->dec_, 0))
      return nullptr;
    return run;
  }
  ~EvpRunner () override
  {
    EVP_CIPHER_CTX_free (enc_);
    EVP_CIPHER_CTX_free (dec_);
    EVP_CIPHER_free (cipher_);
  }

  bool
  encrypt_message (const unsigned char *in, unsigned char *out, size_t len,
                   unsigned char *tag) override
  {
    int n = 0, fin = 0;
    if (!EVP_CipherInit_ex (enc_, nullptr, nullptr, rekey (), iv (), -1))
      return false;
    if (!pre_data (enc_, len))
      return false;
    if (!EVP_CipherUpdate (enc_, out, &n, in, (int) len))
      return false;
    if (!EVP_CipherFinal_ex (enc_, out + n, &fin))
      return false;
    if (aead_)
      return EVP_CIPHER_CTX_ctrl (enc_, EVP_CTRL_AEAD_GET_TAG, kTagLen,
                                  tag) > 0;
    return true;
  }

  bool
  decrypt_message (const unsigned char *in, unsigned char *out, size_t len,
                   const unsigned char *tag) override
  {
    int n = 0, fin = 0;
    if (aead_ && ccm_
        && EVP_CIPHER_CTX_ctrl (dec_, EVP_CTRL_AEAD_SET_TAG, kTagLen,
                                const_cast<unsigned char *> (tag)) <= 0)
      return false;
    if (!EVP_CipherInit_ex (dec_, nullptr, nullptr, rekey (), iv (), -1))
      return false;
    if (aead_ && !ccm_
        && EVP_CIPHER_CTX_ctrl (dec_, EVP_CTRL_AEAD_SET_TAG, kTagLen,
                                const_cast<unsigned char *> (tag)) <= 0)
      return false;
    if (!pre_data (dec_, len))
      return false;
    /* CCM verifies in the data call and has no Final.  */
    if (EVP_CipherUpdate (dec_, out, &n, in, (int) len) <= 0)
      return false;
    if (ccm_)
      return true;
    return EVP_CipherFinal_ex (dec_, out + n, &fin) > 0;
  }

private:
  EvpRunner (EVP_CIPHER *c, const RowSpec &r)
    : cipher_ (c), enc_ (EVP_CIPHER_CTX_new ()),
      dec_ (EVP_CIPHER_CTX_new ()), aead_ (r.mode->aead),
      ccm_ (r.mode->gcry_mode == GCRY_CIPHER_MODE_CCM),
      siv_ (r.mode->gcry_mode == GCRY_CIPHER_MODE_SIV),
      ecb_ (r.mode->gcry_mode == GCRY_CIPHER_MODE_ECB),
      keylen_ (r.mode->double_key ? 2 * r.keylen : r.keylen)
  {
  }

  const unsigned char *iv () const { return ecb_ || siv_ ? nullptr : g_iv; }
  /* A finished OpenSSL SIV context takes no further message until it is
   * keyed again (3.0: the next update fails), so SIV re-keys per message;
   * the others keep their key.  */
  const unsigned char *rekey () const { return siv_ ? g_key : nullptr; }

  /* Key CTX for one direction (ENC 1 or 0): OpenSSL expands the key for
   * the direction given with it.  */
  bool
  setup (EVP_CIPHER_CTX *ctx, int enc)
  {
    if (!ctx || !EVP_CipherInit_ex (ctx, cipher_, nullptr, nullptr, nullptr,
                                    enc))
      return false;
    if ((size_t) EVP_CIPHER_CTX_get_key_length (ctx) != keylen_)
      return false;
    if (aead_ && !siv_
        && EVP_CIPHER_CTX_ctrl (ctx, EVP_CTRL_AEAD_SET_IVLEN, kNonceLen,
                                nullptr) <= 0)
      return false;
    /* CCM's tag length is part of its first block (SP 800-38C A.2.1):
     * set it before the key; decryption wants a tag value with it.  */
    unsigned char no_tag[kTagLen] = { 0 };
    if (ccm_
        && EVP_CIPHER_CTX_ctrl (ctx, EVP_CTRL_AEAD_SET_TAG, kTagLen,
                                enc ? nullptr : no_tag) <= 0)
      return false;
    if (!EVP_CipherInit_ex (ctx, nullptr, nullptr, g_key, nullptr, enc))
      return false;
    if (!aead_)
      EVP_CIPHER_CTX_set_padding (ctx, 0);
    return true;
  }

  /* CCM: the message length first; SIV: the nonce as associated data.  */
  bool
  pre_data (EVP_CIPHER_CTX *ctx, size_t len)
  {
    int n = 0;
    if (ccm_)
      return EVP_CipherUpdate (ctx, nullptr, &n, nullptr, (int) len) > 0;
    if (siv_)
      return EVP_CipherUpdate (ctx, nullptr, &n, g_iv, kNonceLen) > 0;
    return true;
  }

  EVP_CIPHER *cipher_;
  EVP_CIPHER_CTX *enc_;
  EVP_CIPHER_CTX *dec_;
  bool aead_, ccm_, siv_, ecb_;
  size_t keylen_;
};
#endif /* HAVE_OPENSSL */

/* ---- Measurement -------------------------------------------------------- */

struct SideState
{
  std::unique_ptr<Runner> run;
  size_t iters = 0;
  std::vector<double> ns_per_call;   /* one per round */
  bool mismatch = false;
};

bool
one_message (SideState &s, const RowSpec &r, const Buffers &b)
{
  if (r.enc)
    {
      unsigned char tag[kTagLen];
      return s.run->encrypt_message (b.plain, b.out, r.len, tag);
    }
  return s.run->decrypt_message (b.cipher, b.out, r.len, b.tag);
}

/* Measurements repeated because another process took the CPU, and those
 * that stayed preempted after every retry.  */
constexpr int kMaxRetries = 20;
long g_retried, g_preempted;

/* Time ITERS messages; ns per message, or -1 on an error.  The clock is
 * CLOCK_MONOTONIC_RAW; a measurement during which the thread lost the CPU
 * (bench::was_preempted) is repeated, up to kMaxRetries times.  */
double
time_messages (SideState &s, const RowSpec &r, const Buffers &b,
               size_t iters)
{
  for (int attempt = 0;; attempt++)
    {
      uint64_t c0 = bench::thread_cpu_ns ();
      uint64_t t0 = bench::now_ns ();
      for (size_t i = 0; i < iters; i++)
        if (!one_message (s, r, b))
          return -1;
      uint64_t t1 = bench::now_ns ();
      uint64_t c1 = bench::thread_cpu_ns ();
      bool lost = bench::was_preempted (t1 - t0, c1 - c0);
      if (lost && attempt < kMaxRetries)
        {
          g_retried++;
          continue;
        }
      if (lost)
        g_preempted++;
      return (double) (t1 - t0) / (double) iters;
    }
}

/* Iterations for a measurement of about opt.target_ms.  */
size_t
calibrate (SideState &s, const RowSpec &r, const Buffers &b)
{
  double target_ns = opt.target_ms * 1e6;
  size_t n = 1;
  for (;;)
    {
      double per = time_messages (s, r, b, n);
      if (per < 0)
        return 0;
      double total = per * (double) n;
      if (total >= target_ns / 8 || n >= ((size_t) 1 << 30))
        {
          double want = target_ns / (per > 0 ? per : 1);
          return want < 1 ? 1 : (size_t) want;
        }
      n *= total < target_ns / 1000 ? 16 : 2;
    }
}

struct Result
{
  RowSpec row;
  std::vector<double> ns_per_byte;   /* per side; 0: side lacks it */
  double limit_ns_per_byte = 0;
  double mhz = 0;          /* clock estimate right after the row */
  /* gcipher's time per byte of this row over gcipher's time per byte of
   * its reference row (same algorithm and key size, same message length,
   * same run): see reference_mode.  0: no reference or not measured.  */
  double ref_ratio = 0;
};

/* The reference row of a mode, for the "xref" column: CTR encryption for
 * the modes whose work is parallel around the block cipher (GCM, GCM-SIV,
 * XTS, OCB, and CTR itself), CBC encryption for the modes on one serial
 * block-cipher chain (OFB, CCM, EAX, CBC and CFB encryption).  Other
 * modes (ECB, CBC/CFB decryption, CFB8, SIV) have none: NULL.  */
const char *
reference_mode (const RowSpec &r)
{
  const std::string m = r.mode->name;
  if (m == "GCM" || m == "GCM-SIV" || m == "XTS" || m == "OCB" || m == "CTR")
    return "CTR";
  if (m == "OFB" || m == "CCM" || m == "EAX"
      || ((m == "CBC" || m == "CFB") && r.enc))
    return "CBC";
  return nullptr;
}

/* A row across the rounds: its runners, the reference ciphertext and tag
 * (the input of a decryption row), and per-round clock estimates.  */
struct RowState
{
  RowSpec row;
  std::vector<SideState> side;
  std::vector<unsigned char> ct;
  unsigned char tag[kTagLen];
  std::vector<double> mhz;
};

/* Set a row up: runners, the cross-check, the reference ciphertext and the
 * per-side iteration counts.  False if no side can run it.  */
bool
prepare_row (RowState &st, Buffers &b)
{
  const RowSpec &r = st.row;
  const size_t nsides = g_sides.size ();
  st.side.resize (nsides);
  std::vector<SideState> &side = st.side;
  for (size_t i = 0; i < nsides; i++)
#ifdef HAVE_OPENSSL
    side[i].run = g_sides[i].api ? GcryRunner::create (g_sides[i].api, r)
                                 : EvpRunner::create (r);
#else
    side[i].run = GcryRunner::create (g_sides[i].api, r);
#endif

  /* Reference encryption and the cross-check.  */
  bool have_ref = false;
  st.ct.assign (r.len, 0);
  memset (st.tag, 0, sizeof st.tag);
  for (size_t i = 0; i < nsides; i++)
    {
      if (!side[i].run)
        continue;
      unsigned char tag[kTagLen] = { 0 };
      /* Twice, so a side that mishandles a second message on the same
       * handle shows up too.  */
      bool ok = side[i].run->encrypt_message (b.plain, b.out, r.len, tag)
                && side[i].run->encrypt_message (b.plain, b.out, r.len, tag);
      if (!ok)
        {
          side[i].run.reset ();
          continue;
        }
      if (!have_ref)
        {
          memcpy (st.ct.data (), b.out, r.len);
          memcpy (st.tag, tag, kTagLen);
          have_ref = true;
        }
      else if (memcmp (st.ct.data (), b.out, r.len)
               || (r.mode->aead && memcmp (st.tag, tag, kTagLen)))
        side[i].mismatch = true;
    }
  if (!have_ref)
    return false;
  memcpy (b.cipher, st.ct.data (), r.len);
  memcpy (b.tag, st.tag, kTagLen);
  bool any = false;
  for (size_t i = 0; i < nsides; i++)
    {
      if (!side[i].run)
        continue;
      if (!r.enc)
        {
          bool ok = side[i].run->decrypt_message (b.cipher, b.out, r.len,
                                                  b.tag)
                    && side[i].run->decrypt_message (b.cipher, b.out, r.len,
                                                     b.tag);
          if (!ok || memcmp (b.out, b.plain, r.len))
            side[i].mismatch = true;
        }
      if (side[i].mismatch)
        {
          fprintf (stderr, "%s: warning: %s %s %s %zu bytes: %s disagrees"
                   " with %s\n", kPgm, gcry_cipher_algo_name (r.algo),
                   r.mode->name, r.enc ? "enc" : "dec", r.len,
                   g_sides[i].label.c_str (),
                   i ? g_sides[0].label.c_str () : "the others");
          exit_status = 1;
          side[i].run.reset ();
          continue;
        }
      side[i].iters = calibrate (side[i], r, b);
      if (!side[i].iters)
        side[i].run.reset ();
      else
        any = true;
    }
  return any;
}

/* One round of a row: every side once, the order rotating with ROUND, then
 * a clock estimate (for the cycles of bench-report's tables).  */
void
measure_round (RowState &st, Buffers &b, int round)
{
  const RowSpec &r = st.row;
  memcpy (b.cipher, st.ct.data (), r.len);
  memcpy (b.tag, st.tag, kTagLen);
  const size_t nsides = st.side.size ();
  for (size_t k = 0; k < nsides; k++)
    {
      size_t i = ((size_t) round + k) % nsides;
      SideState &sd = st.side[i];
      if (!sd.run)
        continue;
      double per = time_messages (sd, r, b, sd.iters);
      if (per < 0)
        {
          fprintf (stderr, "%s: warning: %s %s %s %zu bytes: %s failed"
                   " during timing\n", kPgm,
                   gcry_cipher_algo_name (r.algo), r.mode->name,
                   r.enc ? "enc" : "dec", r.len, g_sides[i].label.c_str ());
          exit_status = 1;
          sd.run.reset ();
          sd.ns_per_call.clear ();
          continue;
        }
      sd.ns_per_call.push_back (per);
    }
  st.mhz.push_back (bench::estimate_cpu_mhz (4));
}

/* The medians of a measured row.  */
Result
row_result (const RowState &st)
{
  Result res;
  res.row = st.row;
  res.ns_per_byte.assign (g_sides.size (), 0);
  for (size_t i = 0; i < st.side.size (); i++)
    if (st.side[i].run && !st.side[i].ns_per_call.empty ())
      res.ns_per_byte[i] = bench::median (st.side[i].ns_per_call)
                           / (double) st.row.len;
  res.mhz = bench::median (st.mhz);
  return res;
}

/* ---- Output -------------------------------------------------------------- */

std::string
fmt (double v, const char *missing = "-")
{
  if (v <= 0)
    return missing;
  char buf[32];
  if (v < 10)
    snprintf (buf, sizeof buf, "%.3f", v);
  else if (v < 100)
    snprintf (buf, sizeof buf, "%.2f", v);
  else
    snprintf (buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string
size_label (size_t n)
{
  char buf[32];
  if (n >= 1024 && n % 1024 == 0)
    snprintf (buf, sizeof buf, "%zuK", n / 1024);
  else
    snprintf (buf, sizeof buf, "%zu", n);
  return buf;
}

double g_mhz;
/* The fastest AES round instruction timings of the run (measured at
 * start-up and again after every round), the widest form gcipher may
 * use (its hwflist after --disable-hwf), and how many measurements.  */
bench::AesInsnTiming g_insn;
int g_widest = -1;
int g_insn_runs;

/* The instruction rates are measured again after this many rows of a
 * round and at its end (about 0.5 ms each), and the fastest of all
 * measurements kept: the guest's clock moves with the host's load
 * (3.8-4.0 GHz seen within a minute), and a bound taken only while the
 * clock was low would sit above rows measured while it was high.  With
 * measurements spread over the same time as the rows, the bound comes
 * from the highest clock any row may have had.  */
constexpr size_t kRowsPerInsnRun = 16;

void
remeasure_aes_insn ()
{
  bench::merge_fastest (&g_insn, bench::measure_aes_insn (8));
  g_insn_runs++;
}

/* Text columns: the ns/B column of side I is this wide.  */
int
col_width (size_t i)
{
  int w = (int) g_sides[i].head2.size ();
  return w < 9 ? 9 : w;
}

std::string
ratio_cell (double ratio)
{
  char buf[32] = "-";
  if (ratio > 0)
    snprintf (buf, sizeof buf, "%.2f%s", ratio, ratio < 1 ? " <" : "");
  return buf;
}

void
print_result (const Result &res)
{
  const RowSpec &r = res.row;
  const char *algo = gcry_cipher_algo_name (r.algo);
  double g = res.ns_per_byte[kGcipher];
  std::vector<double> peers (res.ns_per_byte.begin () + 1,
                             res.ns_per_byte.end ());
  double best = bench::ratio_best_peer (g, peers);
  double pct = bench::percent_of_limit (res.limit_ns_per_byte, g);
  if (opt.csv)
    {
      /* Five significant digits; empty where absent.  */
      auto num = [] (double v) {
        char buf[32] = "";
        if (v > 0)
          snprintf (buf, sizeof buf, "%.5g", v);
        return std::string (buf);
      };
      std::vector<std::string> f = {
        algo, std::to_string (r.keylen * 8), r.mode->name,
        r.enc ? "enc" : "dec", std::to_string (r.len), num (g) };
      for (size_t i = 1; i < g_sides.size (); i++)
        {
          f.push_back (num (res.ns_per_byte[i]));
          f.push_back (num (bench::ratio_best_peer (g, { res.ns_per_byte[i] })));
        }
      for (const std::string &v :
           { num (best), num (res.limit_ns_per_byte), num (pct),
             num (res.mhz),
             std::string (res.ref_ratio > 0 ? reference_mode (r) : ""),
             num (res.ref_ratio) })
        f.push_back (v);
      printf ("%s\n", bench::format_csv_line (f).c_str ());
    }
  else
    {
      char pct_s[32] = "-", ref_s[32] = "-";
      if (res.ref_ratio > 0)
        snprintf (ref_s, sizeof ref_s, "%.2f %s", res.ref_ratio,
                  reference_mode (r));
      if (pct > 0)
        snprintf (pct_s, sizeof pct_s, "%.0f%%", pct);
      printf ("%-8s %-7s %-3s %6s", algo, r.mode->name,
              r.enc ? "enc" : "dec", size_label (r.len).c_str ());
      for (size_t i = 0; i < g_sides.size (); i++)
        {
          printf (" %*s", col_width (i), fmt (res.ns_per_byte[i]).c_str ());
          if (i)
            printf (" %7s", ratio_cell (bench::ratio_best_peer (
                                g, { res.ns_per_byte[i] })).c_str ());
        }
      printf (" %7s %9s %7s %9s\n", ratio_cell (best).c_str (),
              fmt (res.limit_ns_per_byte).c_str (), pct_s, ref_s);
    }
  fflush (stdout);
}

void
print_preamble ()
{
  const char *p = opt.csv ? "# " : "";
  printf ("%sbench-compare: gcipher %s (static)", p,
          gcry_check_version (nullptr));
  for (const Side &s : g_sides)
    if (s.api && s.api != g_sides[kGcipher].api)
      printf (" | %s (%s)", s.label.c_str (), s.api->path);
  if (g_openssl == 1)
    printf (" | no libgcrypt");
#ifdef HAVE_OPENSSL
  printf (" | %s\n", OpenSSL_version (OPENSSL_VERSION));
#else
  printf (" | no OpenSSL (not built with it)\n");
#endif
  printf ("%sclock %.0f MHz (auto, dependent-add chain; used for cycles"
          " only)\n", p, g_mhz);
  printf ("%sAES round instructions, %d independent chains, fastest of %d"
          " measurements:", p, bench::kLimitChains, g_insn_runs);
  bool any = false;
  for (int f = 0; f < bench::kNumForms; f++)
    if (g_insn.have[f])
      {
        printf (" %s %.4f ns/insn (%.2f cycles, %.4f ns/block)",
                bench::aes_form_name (f), g_insn.ns_per_insn[f],
                bench::ns_to_cycles (g_insn.ns_per_insn[f], g_mhz),
                g_insn.ns_per_insn[f] / bench::aes_form_lanes (f));
        any = true;
      }
  if (any)
    {
      printf ("; latency %.4f ns (%.2f cycles)\n", g_insn.latency_ns,
              bench::ns_to_cycles (g_insn.latency_ns, g_mhz));
      int f = bench::best_aes_form (g_insn, g_widest);
      if (f >= 0)
        printf ("%sbound: gcipher's hardware features allow up to %s;"
                " parallel work at %s (%.4f ns/block), serial chains at"
                " the latency\n", p, bench::aes_form_name (g_widest),
                bench::aes_form_name (f),
                g_insn.ns_per_insn[f] / bench::aes_form_lanes (f));
      else
        printf ("%sbound: none (AES-NI disabled in gcipher)\n", p);
    }
  else
    printf (" not measured (no kernels for this CPU)\n");
  if (!opt.disable_hwf.empty ())
    {
      printf ("%sdisabled hwf (gcipher, every libgcrypt):", p);
      for (const std::string &h : opt.disable_hwf)
        printf (" %s", h.c_str ());
      putchar ('\n');
#ifdef HAVE_OPENSSL
      const char *cap = getenv ("OPENSSL_ia32cap");
      printf ("%sOpenSSL: OPENSSL_ia32cap=%s\n", p,
              cap ? cap : "(unset: every feature)");
#endif
    }
  printf ("%smedian of %d rounds of ~%.1f ms; ns per byte of one message;"
          " ratio = that library / gcipher, best = fastest peer / gcipher"
          " (>1: gcipher faster, `<' marks gcipher behind); limit ="
          " AES-instruction bound, %%limit = limit / gcipher; xref ="
          " gcipher's time per byte over its own CTR (or CBC encryption)"
          " row of the same algorithm and size\n",
          p, opt.rounds, opt.target_ms);
  if (opt.csv)
    {
      printf ("algo,keybits,mode,dir,bytes,gcipher_ns_per_byte");
      for (size_t i = 1; i < g_sides.size (); i++)
        printf (",%s_ns_per_byte,%s_ratio", g_sides[i].key.c_str (),
                g_sides[i].key.c_str ());
      printf (",best_ratio,limit_ns_per_byte,limit_percent,mhz,ref_mode,"
              "ref_ratio\n");
    }
  else
    {
      /* Two heading lines: "libgcrypt" over each libgcrypt's version.  */
      for (int line = 0; line < 2; line++)
        {
          char cell[256];
          snprintf (cell, sizeof cell, "%-8s %-7s %-3s %6s",
                    line ? "algo" : "", line ? "mode" : "",
                    line ? "dir" : "", line ? "bytes" : "");
          std::string h = cell;
          for (size_t i = 0; i < g_sides.size (); i++)
            {
              const Side &s = g_sides[i];
              snprintf (cell, sizeof cell, " %*s", col_width (i),
                        (line ? s.head2 : s.head1).c_str ());
              h += cell;
              if (i)
                h += line ? "   ratio" : "        ";
            }
          if (line)
            {
              snprintf (cell, sizeof cell, " %7s %9s %7s %9s", "best",
                        "limit", "%limit", "xref");
              h += cell;
            }
          h.erase (h.find_last_not_of (' ') + 1);
          printf ("%s\n", h.c_str ());
        }
    }
  fflush (stdout);
}

[[noreturn]] void
usage (int status, const std::string &why)
{
  if (!why.empty ())
    fprintf (stderr, "%s: %s\n", kPgm, why.c_str ());
  fprintf (status ? stderr : stdout,
           "usage: %s [--sizes N,N,...] [--modes M,M,...|all] [--rounds N]\n"
           "       [--ms MS] [--disable-hwf NAME]... [--libgcrypt PATH]...\n"
           "       [--csv] [ALGO...]\n"
           "  --libgcrypt PATH  compare with the libgcrypt.so.20 at PATH,"
           " loaded into a\n"
           "                    namespace of its own; repeat for more"
           " columns (default:\n"
           "                    the system library, %s)\n",
           kPgm, *sysgcrypt_default_path () ? sysgcrypt_default_path ()
                                            : "none configured");
  exit (status);
}

/* Load every --libgcrypt (or the system library), with the --disable-hwf
 * names, and add their sides.  False (after a message) if a named
 * library cannot be used.  */
bool
load_libgcrypts ()
{
  std::vector<std::string> paths = opt.libgcrypt;
  bool named = !paths.empty ();
  if (!named)
    {
      if (!*sysgcrypt_default_path ())
        {
          fprintf (stderr, "%s: warning: no system libgcrypt configured"
                   " (--with-system-libgcrypt); pass --libgcrypt PATH\n",
                   kPgm);
          return true;
        }
      paths.push_back (sysgcrypt_default_path ());
    }
  std::vector<const char *> hwf;
  for (const std::string &h : opt.disable_hwf)
    hwf.push_back (h.c_str ());
  static std::vector<std::string> keep;   /* the paths the tables point to */
  keep.reserve (paths.size ());
  for (const std::string &path : paths)
    {
      keep.push_back (path);
      char why[512], rejected[512];
      const sysgcrypt *api = sysgcrypt_open (
          keep.back ().c_str (), hwf.data (), (int) hwf.size (), why,
          sizeof why, rejected, sizeof rejected);
      if (!api)
        {
          if (!named)
            {
              fprintf (stderr, "%s: warning: no system libgcrypt: %s\n",
                       kPgm, why);
              return true;
            }
          fprintf (stderr, "%s: cannot use --libgcrypt %s: %s\n", kPgm,
                   path.c_str (), why);
          return false;
        }
      Side s;
      s.label = std::string ("libgcrypt ") + api->version;
      s.head1 = "libgcrypt";
      s.head2 = api->version;
      /* The same version twice (two builds, or one file twice): number
       * the later columns.  */
      int same = 1;
      for (const Side &o : g_sides)
        if (o.api && o.label.compare (0, s.label.size (), s.label) == 0)
          same++;
      if (same > 1)
        {
          s.label += " #" + std::to_string (same);
          s.head2 += " #" + std::to_string (same);
        }
      for (const char *w = rejected; *w;)
        {
          const char *sp = strchr (w, ' ');
          fprintf (stderr, "%s: warning: %s (%s) does not know hardware"
                   " feature `%.*s'\n", kPgm, s.label.c_str (), api->path,
                   (int) (sp - w), w);
          w = sp + 1;
        }
      api->control (GCRYCTL_DISABLE_SECMEM, 0);
      api->control (GCRYCTL_INITIALIZATION_FINISHED, 0);
      s.api = api;
      g_sides.push_back (s);
    }
  return true;
}

/* CSV column prefix of a label: spaces and CSV-special characters to
 * '-', '#' dropped ("libgcrypt 1.10.1 #2" -> "libgcrypt-1.10.1-2").  */
std::string
csv_key (const std::string &label)
{
  std::string k;
  for (char c : label)
    if (c == '#')
      continue;
    else if (c == ' ' || c == ',' || c == '"' || c == '\n' || c == '\r')
      k += '-';
    else
      k += c;
  return k;
}

} // namespace

#if defined(HAVE_OPENSSL) && (defined(__x86_64__) || defined(__i386__))
/* The OPENSSL_ia32cap bits (OpenSSL's OPENSSL_ia32cap(3): vector 0 is
 * CPUID.1 EDX in bits 0..31 and ECX in 32..63, vector 1 CPUID.(7,0) EBX
 * in 0..31 and ECX in 32..63) of the features hwf NAME stands for, ORed
 * into *V0 and *V1; false for a name with none.  */
bool
openssl_ia32cap_mask (const std::string &name, uint64_t *v0, uint64_t *v1)
{
  auto b = [] (int bit) { return (uint64_t) 1 << bit; };
  if (name == "intel-avx512")   /* F, DQ, IFMA, CD, BW, VL; VBMI, VBMI2. */
    *v1 |= b (16) | b (17) | b (21) | b (28) | b (30) | b (31) | b (32 + 1)
           | b (32 + 6);
  else if (name == "intel-vaes-vpclmul")
    *v1 |= b (32 + 9) | b (32 + 10);
  else if (name == "intel-gfni")
    *v1 |= b (32 + 8);
  else if (name == "intel-avx2")
    *v1 |= b (5);
  else if (name == "intel-bmi2")
    *v1 |= b (8);
  else if (name == "intel-avx")
    *v0 |= b (32 + 28);
  else if (name == "intel-aesni")
    *v0 |= b (32 + 25);
  else if (name == "intel-pclmul")
    *v0 |= b (32 + 1);
  else if (name == "intel-ssse3")
    *v0 |= b (32 + 9);
  else
    return false;
  return true;
}

/* With --disable-hwf and no OPENSSL_ia32cap of the caller's: set it to
 * the same features off and run again (libcrypto has read it already,
 * while loading).  GCIPHER_BENCH_IA32CAP marks the second run.  */
void
mask_openssl (char **argv)
{
  if (opt.disable_hwf.empty () || getenv ("OPENSSL_ia32cap")
      || getenv ("GCIPHER_BENCH_IA32CAP"))
    return;
  uint64_t v0 = 0, v1 = 0;
  for (const std::string &h : opt.disable_hwf)
    openssl_ia32cap_mask (h, &v0, &v1);
  if (!v0 && !v1)
    return;
  char cap[64];
  snprintf (cap, sizeof cap, "~0x%llx:~0x%llx", (unsigned long long) v0,
            (unsigned long long) v1);
  setenv ("OPENSSL_ia32cap", cap, 1);
  setenv ("GCIPHER_BENCH_IA32CAP", "1", 1);
  fflush (NULL);
  execv ("/proc/self/exe", argv);
  fprintf (stderr, "%s: warning: could not run again with"
           " OPENSSL_ia32cap=%s; OpenSSL keeps every feature\n", kPgm, cap);
}
#else
void
mask_openssl (char **)
{
}
#endif

int
main (int argc, char **argv)
{
  std::vector<std::string> args (argv + 1, argv + argc);
  for (const std::string &a : args)
    if (a == "--help" || a == "-h")
      usage (0, "");
  std::string err;
  if (!bench::parse_compare_args (args, &opt, &err))
    usage (2, err);
  mask_openssl (argv);
  if (opt.modes.empty ())
    for (const bench::ModeInfo &m : bench::all_modes ())
      opt.modes.push_back (&m);
  if (opt.algos.empty ())
    opt.algos = { "aes", "aes192", "aes256" };

  /* Hardware features off on every gcrypt side before it initialises. */
  for (const std::string &h : opt.disable_hwf)
    if (gcry_control (GCRYCTL_DISABLE_HWF, h.c_str (), NULL))
      fprintf (stderr, "%s: warning: gcipher does not know hardware"
               " feature `%s'\n", kPgm, h.c_str ());
  gcry_check_version (NULL);
  gcry_control (GCRYCTL_DISABLE_SECMEM, 0);
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);
  static sysgcrypt own = gcipher_table ();
  g_sides.push_back (Side{ "gcipher", "", "gcipher", "gcipher", &own });
  if (!load_libgcrypts ())
    return 2;
  g_openssl = g_sides.size ();
#ifdef HAVE_OPENSSL
  g_sides.push_back (Side{ "openssl", "", "openssl", "openssl", nullptr });
#endif
  for (Side &s : g_sides)
    s.key = csv_key (s.label);
  if (char *hw = gcry_get_config (0, "hwflist"))
    {
      g_widest = bench::widest_aes_form_from_hwflist (hw);
      gcry_free (hw);
    }
  size_t maxlen = 0;
  for (size_t s : opt.sizes)
    maxlen = s > maxlen ? s : maxlen;
  Buffers b;
  std::vector<unsigned char *> raw;
  for (unsigned char **p : { &b.plain, &b.cipher, &b.out })
    {
      unsigned char *m = static_cast<unsigned char *> (
          aligned_alloc (64, (maxlen + 127) / 64 * 64));
      if (!m)
        {
          fprintf (stderr, "%s: out of memory\n", kPgm);
          return 2;
        }
      raw.push_back (m);
      *p = m;
    }
  for (size_t i = 0; i < maxlen; i++)
    b.plain[i] = (unsigned char) (1 + i % 251);
  memset (b.cipher, 0, maxlen);
  memset (b.out, 0, maxlen);
  for (size_t i = 0; i < sizeof g_key; i++)
    g_key[i] = (unsigned char) (0x31 + 7 * i);
  for (size_t i = 0; i < sizeof g_iv; i++)
    g_iv[i] = (unsigned char) (0xa0 + i);

  bench::spin_warmup (200);
  g_mhz = bench::estimate_cpu_mhz (32);
  /* The AES instruction rates: at start-up, then between the rows (see
   * remeasure_aes_insn).  */
  g_insn = bench::measure_aes_insn (32);
  g_insn_runs = 1;

  /* Set every row up, then run the rounds over all rows: a round of a
   * row lasts a few ms, and spreading a row's rounds over the whole run
   * lets the median drop a burst of other load on the machine.  */
  std::vector<std::unique_ptr<RowState>> rows;
  for (const std::string &name : opt.algos)
    {
      int algo = gcry_cipher_map_name (name.c_str ());
      for (size_t i = 1; !algo && i < g_openssl; i++)
        algo = g_sides[i].api->cipher_map_name (name.c_str ());
      if (!algo)
        {
          fprintf (stderr, "%s: unknown algorithm `%s'\n", kPgm,
                   name.c_str ());
          exit_status = 1;
          continue;
        }
      size_t keylen = gcry_cipher_get_algo_keylen (algo);
      for (size_t i = 1; !keylen && i < g_openssl; i++)
        keylen = g_sides[i].api->cipher_get_algo_keylen (algo);
      if (!keylen || keylen > 32)
        {
          fprintf (stderr, "%s: %s: no usable key length\n", kPgm,
                   name.c_str ());
          exit_status = 1;
          continue;
        }
      for (const bench::ModeInfo *m : opt.modes)
        for (int dir = 0; dir < 2; dir++)
          for (size_t len : opt.sizes)
            {
              std::unique_ptr<RowState> st (new RowState);
              st->row = RowSpec { algo, keylen, m, dir == 0, len };
              if (prepare_row (*st, b))   /* else nobody has it */
                rows.push_back (std::move (st));
            }
    }
  bool progress = isatty (2);
  for (int round = 0; round < opt.rounds; round++)
    {
      size_t n = 0;
      for (auto &st : rows)
        {
          measure_round (*st, b, round);
          if (++n % kRowsPerInsnRun == 0 || n == rows.size ())
            remeasure_aes_insn ();
        }
      if (progress)
        fprintf (stderr, "%s: round %d/%d done\n", kPgm, round + 1,
                 opt.rounds);
    }
  /* The header (it shows the instruction rates of the whole run), then
   * the table.  */
  print_preamble ();
  std::vector<Result> results;
  for (auto &st : rows)
    {
      Result res = row_result (*st);
      int algo = st->row.algo;
      if (algo == GCRY_CIPHER_AES || algo == GCRY_CIPHER_AES192
          || algo == GCRY_CIPHER_AES256)
        res.limit_ns_per_byte = bench::limit_ns_per_byte (
            *st->row.mode, st->row.enc, bench::aes_rounds (st->row.keylen),
            g_insn, g_widest, st->row.len);
      results.push_back (res);
    }
  for (Result &res : results)
    {
      const char *ref = reference_mode (res.row);
      double g = res.ns_per_byte[kGcipher];
      for (const Result &o : results)
        if (ref && g > 0 && o.row.algo == res.row.algo
            && o.row.keylen == res.row.keylen && o.row.len == res.row.len
            && o.row.enc && o.ns_per_byte[kGcipher] > 0
            && std::string (o.row.mode->name) == ref)
          res.ref_ratio = g / o.ns_per_byte[kGcipher];
      print_result (res);
    }
  printf ("%s%ld measurements repeated because another process took the"
          " CPU\n", opt.csv ? "# " : "", g_retried);
  if (g_preempted)
    fprintf (stderr, "%s: warning: %ld measurements lost the CPU to other"
             " processes even after %d retries (a busy machine; %ld retried"
             " measurements in all)\n", kPgm, g_preempted, kMaxRetries,
             g_retried);
  for (unsigned char *m : raw)
    free (m);
  return exit_status;
}
