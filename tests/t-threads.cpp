// t-threads.cpp - many threads opening, keying and using cipher handles
// at once, the first of them racing the library's first use.
//
// What gcipher promises (doc/gcipher.md 1.4, "Threads"): any
// thread may make the first call into the library, and any number may
// make it at the same time; the one-time work behind it (hardware
// feature detection, each algorithm's self-test at its first setkey,
// the secure-memory pool) happens once, and every thread sees its
// result.  A handle belongs to one thread at a time.
//
//  FirstUse.RaceInFreshProcess
//      re-executes this binary (T_THREADS_CHILD=1, running only
//      ThreadsChild.DISABLED_FirstUseRace) so that nothing has touched
//      the library before: N threads wait at a barrier, then make their
//      first library call at once (a different entry point per thread:
//      gcry_check_version, gcry_control predicates and commands,
//      gcry_cipher_open of every algorithm, gcry_get_config, secure
//      allocation, GCRYCTL_SELFTEST, ...), then run the workload.
//  Threads.ManyHandlesAtOnce
//      the same workload in this process, library already initialised.
//
// The workload of a thread is a pure function of its seed: for every
// algorithm the library reports (GCRYCTL_TEST_ALGO over the algorithm
// number ranges, so algorithms added later are covered without editing
// this file; libgcrypt 1.11's ARIA too, which the system 1.10 lacks: this
// suite compares gcipher only with itself) and every mode and flag
// variant, in a seed-dependent
// order: open (some handles in secure memory), key, encrypt random data
// of a random length (chunked where the mode allows), compute the tag,
// reset, decrypt, check the tag and the round trip, close.  Each step's
// return code, the path the handle was keyed on (impl_name) and every
// output byte go into a per-step FNV-1a digest.  After the threads are
// joined the same workloads run again on one thread, and every step's
// digest must match: a thread that saw half-detected hardware features
// (a different path), a skipped or failed self-test (an error code), or
// another thread's state (different bytes) is caught even where the
// sanitizers are not running.  Under ThreadSanitizer (make
// check-sanitizers) the same test is the race detector's workload.
#include <gtest/gtest.h>

#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include <config.h>
#include "g10lib.h"
#include "cipher-internal.h"

extern char **environ;

namespace {

// Threads per run; T_THREADS_N overrides (the sanitizer runs keep it).
int
n_threads ()
{
  const char *s = getenv ("T_THREADS_N");
  int n = s ? atoi (s) : 16;
  return n < 2 ? 2 : n > 256 ? 256 : n;
}

// ---------------------------------------------------------------------
// Deterministic randomness (splitmix64) and the step digest (FNV-1a 64).

struct Rng
{
  uint64_t s;
  uint64_t next ()
  {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  size_t below (size_t n) { return n ? (size_t) (next () % n) : 0; }
  void fill (unsigned char *p, size_t n)
  {
    for (size_t i = 0; i < n; i++)
      p[i] = (unsigned char) next ();
  }
};

struct Digest
{
  uint64_t h = 0xcbf29ce484222325ull;
  void add (const void *p, size_t n)
  {
    const unsigned char *b = static_cast<const unsigned char *> (p);
    for (size_t i = 0; i < n; i++)
      h = (h ^ b[i]) * 0x100000001b3ull;
  }
  void add_int (long v) { add (&v, sizeof v); }
  void add_str (const char *s) { if (s) add (s, strlen (s) + 1); }
};

// ---------------------------------------------------------------------
// What to run: every algorithm the library implements x every mode and
// flag variant.  Combinations the library refuses at open are recorded
// (their error code is part of the digest) and skipped.

struct Variant
{
  int mode;
  unsigned int flags;
  const char *name;
};

const Variant variants[] = {
  { GCRY_CIPHER_MODE_ECB, 0, "ECB" },
  { GCRY_CIPHER_MODE_CBC, 0, "CBC" },
  { GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_CBC_CTS, "CBC-CTS" },
  { GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_CBC_MAC, "CBC-MAC" },
  { GCRY_CIPHER_MODE_CFB, 0, "CFB" },
  { GCRY_CIPHER_MODE_CFB8, 0, "CFB8" },
  { GCRY_CIPHER_MODE_OFB, 0, "OFB" },
  { GCRY_CIPHER_MODE_CTR, 0, "CTR" },
  { GCRY_CIPHER_MODE_STREAM, 0, "STREAM" },
  { GCRY_CIPHER_MODE_AESWRAP, 0, "AESWRAP" },
  { GCRY_CIPHER_MODE_CCM, 0, "CCM" },
  { GCRY_CIPHER_MODE_GCM, 0, "GCM" },
  { GCRY_CIPHER_MODE_POLY1305, 0, "POLY1305" },
  { GCRY_CIPHER_MODE_OCB, 0, "OCB" },
  { GCRY_CIPHER_MODE_XTS, 0, "XTS" },
  { GCRY_CIPHER_MODE_EAX, 0, "EAX" },
  { GCRY_CIPHER_MODE_SIV, 0, "SIV" },
  { GCRY_CIPHER_MODE_GCM_SIV, 0, "GCM-SIV" },
};
constexpr int n_variants = sizeof variants / sizeof variants[0];

// Algorithms the library reports as available.  Called from the racing
// threads too (GCRYCTL_TEST_ALGO is part of the first use).
std::vector<int>
available_algos ()
{
  std::vector<int> algos;
  for (int a = 1; a < 400; a++)
    {
      if (a == 64)
        a = 301;   // libgcrypt numbers: 1..10, then 301 on
      if (!gcry_cipher_algo_info (a, GCRYCTL_TEST_ALGO, nullptr, nullptr))
        algos.push_back (a);
    }
  return algos;
}

// The result of one (algorithm, variant) step, for the comparison.
struct Step
{
  int algo = 0;
  int variant = 0;
  uint64_t digest = 0;
  std::string error;   // First check that failed inside the step, or "".
  std::string codes;   // The return codes in order, for the report.
  bool secure_full = false;   // A secure open found the pool full.
};

// One thread's results.
struct Result
{
  std::vector<Step> steps;
  unsigned int hwf = 0;         // _gcry_get_hw_features () as it saw it.
  std::string hwflist;          // gcry_get_config (0, "hwflist").
  int handles = 0;              // Handles opened and used.
  std::string error;            // Anything outside the steps.
};

// IV / nonce length for VARIANT on ALGO (0: no setiv).
size_t
iv_length (int algo, int mode, size_t blklen)
{
  switch (mode)
    {
    case GCRY_CIPHER_MODE_ECB:
    case GCRY_CIPHER_MODE_AESWRAP:
    case GCRY_CIPHER_MODE_SIV:
      return 0;
    case GCRY_CIPHER_MODE_GCM:
    case GCRY_CIPHER_MODE_OCB:
    case GCRY_CIPHER_MODE_CCM:
    case GCRY_CIPHER_MODE_GCM_SIV:
    case GCRY_CIPHER_MODE_POLY1305:
      return 12;
    case GCRY_CIPHER_MODE_EAX:
      return 16;
    case GCRY_CIPHER_MODE_STREAM:
      {
        const char *name = gcry_cipher_algo_name (algo);
        if (!strncmp (name, "CHACHA20", 8))
          return 12;
        if (!strncmp (name, "SALSA20", 7))
          return 8;
        return 0;
      }
    default:
      return blklen;
    }
}

// Data length for MODE: within the mode's rules, random otherwise.
size_t
data_length (Rng &rng, int mode, unsigned int flags, size_t blklen)
{
  switch (mode)
    {
    case GCRY_CIPHER_MODE_ECB:
    case GCRY_CIPHER_MODE_CBC:
      if (flags & GCRY_CIPHER_CBC_CTS)
        return blklen + 1 + rng.below (40 * blklen);
      return blklen * (1 + rng.below (40));
    case GCRY_CIPHER_MODE_XTS:
      return 16 * (1 + rng.below (40));
    case GCRY_CIPHER_MODE_AESWRAP:
      return 8 * (2 + rng.below (40));
    default:
      return rng.below (700);
    }
}

bool
is_aead (int mode)
{
  return mode == GCRY_CIPHER_MODE_CCM || mode == GCRY_CIPHER_MODE_GCM
         || mode == GCRY_CIPHER_MODE_POLY1305 || mode == GCRY_CIPHER_MODE_OCB
         || mode == GCRY_CIPHER_MODE_EAX || mode == GCRY_CIPHER_MODE_SIV
         || mode == GCRY_CIPHER_MODE_GCM_SIV;
}

// Modes whose data may come in pieces of any length.
bool
chunkable (int mode)
{
  return mode == GCRY_CIPHER_MODE_CFB || mode == GCRY_CIPHER_MODE_CFB8
         || mode == GCRY_CIPHER_MODE_OFB || mode == GCRY_CIPHER_MODE_CTR
         || mode == GCRY_CIPHER_MODE_STREAM;
}

// The checks inside a step: a failure ends the step with a message.
#define STEP_CHECK(cond, what)                                          \
  do {                                                                  \
    if (!(cond))                                                        \
      {                                                                 \
        fail (what);                                                    \
        return;                                                         \
      }                                                                 \
  } while (0)

// One (algorithm, variant) step: open, key, encrypt, tag, reset,
// decrypt, check, close.  Every return code and output byte goes into
// STEP->digest.
class StepRunner
{
public:
  StepRunner (Rng &rng, Step *step, int *handles)
    : rng_ (rng), step_ (step), handles_ (handles) {}

  void run ()
  {
    const Variant &v = variants[step_->variant];
    const int algo = step_->algo;
    // Some handles in secure memory: the pool's first use races too.
    unsigned int secure = rng_.below (3) == 0 ? GCRY_CIPHER_SECURE : 0;
    gcry_error_t err = gcry_cipher_open (&hd_, algo, v.mode,
                                         v.flags | secure);
    step_->codes = secure ? "open(secure)=" : "open=";
    if (secure && gcry_err_code (err) == GPG_ERR_ENOMEM)
      {
        // The secure pool is 32 KiB, as libgcrypt's: with many threads
        // holding secure handles (several KiB each for some algorithms)
        // it may be full for a moment.  Then a normal handle, so that
        // the results stay comparable.
        step_->secure_full = true;
        step_->codes += "ENOMEM open=";
        err = gcry_cipher_open (&hd_, algo, v.mode, v.flags);
      }
    d_.add_int (gcry_err_code (err));
    step_->codes += std::to_string (gcry_err_code (err));
    if (err)
      {
        hd_ = nullptr;
        step_->digest = d_.h;
        return;   // Not served: recorded, nothing to use.
      }
    ++*handles_;
    body (v);
    gcry_cipher_close (hd_);
    step_->digest = d_.h;
  }

private:
  void fail (const char *what)
  {
    char buf[200];
    snprintf (buf, sizeof buf, "%s %s: %s (last code %d: %s)",
              gcry_cipher_algo_name (step_->algo),
              variants[step_->variant].name, what, (int) last_rc_,
              gpg_strerror (last_rc_));
    step_->error = buf;
    d_.add_str ("failed");
  }

  // Record an error code and require success.
  bool ok (gcry_error_t err)
  {
    last_rc_ = gcry_err_code (err);
    d_.add_int (last_rc_);
    step_->codes += " " + std::to_string (last_rc_);
    return !err;
  }

  void body (const Variant &v)
  {
    const int algo = step_->algo;
    const int mode = v.mode;
    const size_t blklen = gcry_cipher_get_algo_blklen (algo);
    size_t keylen = gcry_cipher_get_algo_keylen (algo);
    if (mode == GCRY_CIPHER_MODE_XTS || mode == GCRY_CIPHER_MODE_SIV)
      keylen *= 2;
    STEP_CHECK (keylen > 0 && keylen <= 64, "key length");

    unsigned char key[64];
    rng_.fill (key, keylen);
    gcry_error_t err = gcry_cipher_setkey (hd_, key, keylen);
    last_rc_ = gcry_err_code (err);
    d_.add_int (last_rc_);
    step_->codes += " setkey=" + std::to_string (last_rc_) + " "
                    + (hd_->impl_name ? hd_->impl_name : "-");
    // GCM-SIV takes 128- and 256-bit keys only (RFC 8452 4), as libgcrypt.
    if (mode == GCRY_CIPHER_MODE_GCM_SIV && keylen == 24
        && gcry_err_code (err) == GPG_ERR_INV_KEYLEN)
      return;
    STEP_CHECK (!err, "setkey");
    d_.add_str (hd_->impl_name);   // The path: must not depend on timing.
    // AES-WRAP opens for 64-bit-block ciphers but refuses every call
    // (GPG_ERR_INV_LENGTH, as libgcrypt): nothing more to do.
    if (mode == GCRY_CIPHER_MODE_AESWRAP && blklen != 16)
      return;
    // EAX's tag is one block (8 bytes for 64-bit-block ciphers).
    const size_t taglen = mode == GCRY_CIPHER_MODE_EAX && blklen < 16
                          ? blklen : 16;

    const size_t ivlen = iv_length (algo, mode, blklen);
    unsigned char iv[16];
    rng_.fill (iv, sizeof iv);
    size_t len = data_length (rng_, mode, v.flags, blklen);
    size_t aadlen = is_aead (mode) ? rng_.below (100) : 0;
    // (AAD never at a NULL pointer: libgcrypt's EAX and SIV refuse
    // that even for length 0, and so does gcipher.)
    std::vector<unsigned char> pt (len), aad (aadlen + 1), ct (len + 16),
      back (len + 16);
    rng_.fill (pt.data (), len);
    rng_.fill (aad.data (), aadlen);
    const size_t ctlen = mode == GCRY_CIPHER_MODE_AESWRAP ? len + 8
                         : (v.flags & GCRY_CIPHER_CBC_MAC) ? blklen : len;
    const size_t split = chunkable (mode) ? rng_.below (len + 1) : len;
    unsigned char tag[16] = { 0 };

    // Encrypt.
    if (!start (mode, iv, ivlen, len, aad))
      return;
    if (mode == GCRY_CIPHER_MODE_OCB)
      STEP_CHECK (ok (gcry_cipher_final (hd_)), "final");
    if (v.flags & GCRY_CIPHER_CBC_MAC)
      STEP_CHECK (ok (gcry_cipher_encrypt (hd_, ct.data (), blklen,
                                           pt.data (), len)), "encrypt");
    else
      {
        STEP_CHECK (ok (gcry_cipher_encrypt (hd_, ct.data (), ctlen,
                                             pt.data (), split)), "encrypt");
        if (split < len)
          STEP_CHECK (ok (gcry_cipher_encrypt (hd_, ct.data () + split,
                                               len - split, pt.data () + split,
                                               len - split)), "encrypt 2");
      }
    d_.add (ct.data (), ctlen);
    if (is_aead (mode))
      {
        STEP_CHECK (ok (gcry_cipher_gettag (hd_, tag, taglen)), "gettag");
        d_.add (tag, taglen);
      }
    if (v.flags & GCRY_CIPHER_CBC_MAC)
      return;   // Encryption only.

    // Decrypt with the same handle after a reset, in place.
    STEP_CHECK (ok (gcry_cipher_reset (hd_)), "reset");
    memcpy (back.data (), ct.data (), ctlen);
    if (!start (mode, iv, ivlen, len, aad))
      return;
    if (mode == GCRY_CIPHER_MODE_SIV || mode == GCRY_CIPHER_MODE_GCM_SIV)
      STEP_CHECK (ok (gcry_cipher_set_decryption_tag (hd_, tag, 16)),
                  "set_decryption_tag");
    if (mode == GCRY_CIPHER_MODE_OCB)
      STEP_CHECK (ok (gcry_cipher_final (hd_)), "final");
    STEP_CHECK (ok (gcry_cipher_decrypt (hd_, back.data (), ctlen, nullptr, 0)),
                "decrypt");
    STEP_CHECK (len == 0 || !memcmp (back.data (), pt.data (), len),
                "round trip differs");   // pt.data () is NULL when empty
    if (is_aead (mode) && mode != GCRY_CIPHER_MODE_SIV
        && mode != GCRY_CIPHER_MODE_GCM_SIV)
      STEP_CHECK (ok (gcry_cipher_checktag (hd_, tag, taglen)), "checktag");
  }

  // setiv / setctr / CCM lengths / AAD for one direction.
  bool start (int mode, const unsigned char *iv, size_t ivlen, size_t len,
              const std::vector<unsigned char> &aad)
  {
    bool good = true;
    if (mode == GCRY_CIPHER_MODE_CTR)
      good = ok (gcry_cipher_setctr (hd_, iv, ivlen));
    else if (ivlen)
      good = ok (gcry_cipher_setiv (hd_, iv, ivlen));
    if (!good)
      {
        fail ("setiv/setctr");
        return false;
      }
    if (mode == GCRY_CIPHER_MODE_CCM)
      {
        uint64_t params[3] = { len, aad.size () - 1, 16 };
        if (!ok (gcry_cipher_ctl (hd_, GCRYCTL_SET_CCM_LENGTHS, params,
                                  sizeof params)))
          {
            fail ("CCM lengths");
            return false;
          }
      }
    if (is_aead (mode)
        && !ok (gcry_cipher_authenticate (hd_, aad.data (), aad.size () - 1)))
      {
        fail ("authenticate");
        return false;
      }
    return true;
  }

  Rng &rng_;
  Step *step_;
  int *handles_;
  gcry_cipher_hd_t hd_ = nullptr;
  Digest d_;
  gcry_err_code_t last_rc_ = GPG_ERR_NO_ERROR;
};

// The library calls users make from any thread that have no effect on
// the workload's results.  Checked for sane answers; their real check is
// ThreadSanitizer's.
std::string
side_calls (Rng &rng)
{
  switch (rng.below (9))
    {
    case 0:
      if (!gcry_check_version (GCRYPT_VERSION))
        return "gcry_check_version (GCRYPT_VERSION) refused";
      break;
    case 1:
      {
        gcry_error_t e = gcry_control (GCRYCTL_INITIALIZATION_FINISHED_P);
        if (e && gcry_err_code (e) != GPG_ERR_GENERAL)
          return "INITIALIZATION_FINISHED_P";
        // (libgcrypt counts gcry_cipher_open as initialisation, gcipher
        // only gcry_check_version and the commands that initialise: the
        // answer may be either here.)
        e = gcry_control (GCRYCTL_ANY_INITIALIZATION_P);
        if (e && gcry_err_code (e) != GPG_ERR_GENERAL)
          return "ANY_INITIALIZATION_P";
        break;
      }
    case 2:
      if (gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0))
        return "INITIALIZATION_FINISHED";
      break;
    case 3:
      {
        int algo = gcry_cipher_map_name ("AES256");
        if (algo != GCRY_CIPHER_AES256
            || strcmp (gcry_cipher_algo_name (algo), "AES256"))
          return "map_name / algo_name";
        break;
      }
    case 4:
      {
        // (NULL with ENOMEM: the pool is full for a moment.)
        void *p = gcry_malloc_secure (1 + rng.below (200));
        if (p ? !gcry_is_secure (p) : errno != ENOMEM)
          return "gcry_malloc_secure";
        gcry_free (p);
        break;
      }
    case 5:
      {
        unsigned char buf[32];
        gcry_randomize (buf, sizeof buf, GCRY_STRONG_RANDOM);
        break;
      }
    case 6:
      {
        gcry_error_t e = gcry_control (GCRYCTL_OPERATIONAL_P);
        if (e && gcry_err_code (e) != GPG_ERR_GENERAL)
          return "OPERATIONAL_P";
        break;
      }
    case 7:
      {
        char *s = gcry_get_config (0, "hwflist");
        if (!s)
          return "gcry_get_config hwflist";
        gcry_free (s);
        break;
      }
    default:
      if (gcry_cipher_get_algo_keylen (GCRY_CIPHER_AES) != 16)
        return "get_algo_keylen";
      break;
    }
  return "";
}

// The whole workload of one thread; a pure function of SEED (the side
// calls aside, which take their own generator).
void
workload (uint64_t seed, int rounds, Result *res, bool side)
{
  Rng rng { seed };
  Rng side_rng { seed ^ 0x5555aaaa5555aaaaull };
  const std::vector<int> algos = available_algos ();
  std::vector<std::pair<int, int>> order;
  for (int a : algos)
    for (int v = 0; v < n_variants; v++)
      order.emplace_back (a, v);
  for (int r = 0; r < rounds; r++)
    {
      // Seed-dependent order (Fisher-Yates).
      for (size_t i = order.size (); i > 1; i--)
        std::swap (order[i - 1], order[rng.below (i)]);
      for (const auto &[algo, v] : order)
        {
          res->steps.push_back (Step ());
          res->steps.back ().algo = algo;
          res->steps.back ().variant = v;
          StepRunner (rng, &res->steps.back (), &res->handles).run ();
          if (side && res->error.empty ())
            res->error = side_calls (side_rng);
        }
    }
  res->hwf = _gcry_get_hw_features ();
  char *s = gcry_get_config (0, "hwflist");
  res->hwflist = s ? s : "(null)";
  gcry_free (s);
}

// ---------------------------------------------------------------------
// The threads.

struct ThreadArg
{
  int index;
  uint64_t seed;
  int rounds;
  pthread_barrier_t *barrier;   // nullptr: start at once.
  bool first_use;               // Make a varied first call.
  Result res;
  std::string first_call;
};

// The first library call of thread INDEX (they differ, so that every
// entry point races the one-time initialisation).  Returns a failure
// description or "".
std::string
first_call (int index, std::string *name)
{
  switch (index % 10)
    {
    case 0:
      *name = "gcry_check_version (NULL)";
      if (!gcry_check_version (nullptr))
        return "gcry_check_version (NULL) returned NULL";
      break;
    case 1:
      *name = "gcry_check_version (GCRYPT_VERSION)";
      if (!gcry_check_version (GCRYPT_VERSION))
        return "gcry_check_version refused its own version";
      break;
    case 2:
      *name = "gcry_cipher_open + setkey (AES, no check_version)";
      {
        gcry_cipher_hd_t h;
        unsigned char key[16] = { 1 };
        if (gcry_cipher_open (&h, GCRY_CIPHER_AES, GCRY_CIPHER_MODE_CBC, 0))
          return "gcry_cipher_open";
        gcry_error_t e = gcry_cipher_setkey (h, key, 16);
        gcry_cipher_close (h);
        if (e)
          return "setkey as first call";
      }
      break;
    case 3:
      *name = "GCRYCTL_INITIALIZATION_FINISHED_P";
      (void) gcry_control (GCRYCTL_INITIALIZATION_FINISHED_P);
      break;
    case 4:
      *name = "GCRYCTL_INITIALIZATION_FINISHED";
      if (gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0))
        return "GCRYCTL_INITIALIZATION_FINISHED";
      break;
    case 5:
      *name = "gcry_get_config (0, \"hwflist\")";
      {
        char *s = gcry_get_config (0, "hwflist");
        if (!s)
          return "gcry_get_config";
        gcry_free (s);
      }
      break;
    case 6:
      *name = "GCRYCTL_SELFTEST";
      if (gcry_control (GCRYCTL_SELFTEST))
        return "GCRYCTL_SELFTEST failed";
      break;
    case 7:
      *name = "gcry_malloc_secure";
      {
        void *p = gcry_malloc_secure (64);
        if (!p)
          return "gcry_malloc_secure";
        gcry_free (p);
      }
      break;
    case 8:
      *name = "GCRYCTL_TEST_ALGO (every algorithm)";
      (void) available_algos ();
      break;
    default:
      *name = "gcry_cipher_open (secure, first algorithm of the list)";
      // Straight into the workload, which opens secure handles too.
      break;
    }
  return "";
}

void *
thread_main (void *p)
{
  ThreadArg *a = static_cast<ThreadArg *> (p);
  if (a->barrier)
    pthread_barrier_wait (a->barrier);
  if (a->first_use)
    a->res.error = first_call (a->index, &a->first_call);
  workload (a->seed, a->rounds, &a->res, true);
  return nullptr;
}

// Run N threads (behind a barrier when FIRST_USE), join them, replay
// every workload on this thread and compare.  Failures are reported by
// gtest assertions (thread safe, but called here after the join only).
void
run_and_compare (int n, int rounds, bool first_use)
{
  std::vector<ThreadArg> args (n);
  std::vector<pthread_t> tids (n);
  pthread_barrier_t barrier;
  ASSERT_EQ (pthread_barrier_init (&barrier, nullptr, n), 0);
  for (int i = 0; i < n; i++)
    {
      args[i].index = i;
      // Pairs of threads share a seed: their results must also agree
      // with each other.
      args[i].seed = 0x243f6a8885a308d3ull + 7919u * (unsigned) (i / 2);
      args[i].rounds = rounds;
      args[i].barrier = &barrier;
      args[i].first_use = first_use;
    }
  int started = 0;
  for (int i = 0; i < n; i++)
    {
      if (pthread_create (&tids[i], nullptr, thread_main, &args[i]) != 0)
        break;
      started++;
    }
  if (started < n)
    {
      // The barrier waits for N; never reached: give up loudly.
      fprintf (stderr, "t-threads: only %d of %d threads started\n", started, n);
      abort ();
    }
  for (int i = 0; i < n; i++)
    pthread_join (tids[i], nullptr);
  pthread_barrier_destroy (&barrier);

  int handles = 0, secure_full = 0;
  for (int i = 0; i < n; i++)
    {
      const Result &got = args[i].res;
      handles += got.handles;
      for (const Step &st : got.steps)
        secure_full += st.secure_full;
      EXPECT_EQ (got.error, "") << "thread " << i << " (first call: "
                                << args[i].first_call << ")";
      Result ref;
      workload (args[i].seed, rounds, &ref, false);
      ASSERT_EQ (got.steps.size (), ref.steps.size ()) << "thread " << i;
      int reported = 0;
      for (size_t k = 0; k < ref.steps.size (); k++)
        {
          const Step &g = got.steps[k], &r = ref.steps[k];
          EXPECT_EQ (g.error, "") << "thread " << i;
          EXPECT_EQ (r.error, "") << "reference run";
          if (g.digest != r.digest && reported++ < 5)
            ADD_FAILURE () << "thread " << i << ": "
                           << gcry_cipher_algo_name (g.algo) << " "
                           << variants[g.variant].name
                           << " differs from the single-threaded run"
                           << " (step " << k << "; codes: " << g.codes
                           << " / single-threaded: " << r.codes << ")";
        }
      EXPECT_EQ (got.hwf, ref.hwf) << "thread " << i;
      EXPECT_EQ (got.hwflist, ref.hwflist) << "thread " << i;
      if (i % 2)
        {
          const Result &twin = args[i - 1].res;
          bool same = twin.steps.size () == got.steps.size ();
          for (size_t k = 0; same && k < got.steps.size (); k++)
            same = twin.steps[k].digest == got.steps[k].digest;
          EXPECT_TRUE (same) << "threads " << i - 1 << " and " << i
                             << " ran the same workload differently";
        }
    }
  // AES is always there, and its plain modes always open.
  EXPECT_GE (handles, n * rounds * 8);
  // Every secure handle was freed: half the default pool is available.
  void *big = gcry_malloc_secure (16384);
  EXPECT_NE (big, nullptr) << "secure memory still in use after the join";
  gcry_free (big);
  printf ("[ threads  ] %d threads x %d round(s): %d handles (%d found the "
          "secure pool full), %zu algorithms, hwf 0x%x\n", n, rounds,
          handles, secure_full, available_algos ().size (),
          _gcry_get_hw_features ());
}

// ---------------------------------------------------------------------
// The fresh-process race (run only in the child).

TEST (ThreadsChild, DISABLED_FirstUseRace)
{
  if (!getenv ("T_THREADS_CHILD"))
    GTEST_SKIP () << "runs only as FirstUse.RaceInFreshProcess's child";
  run_and_compare (n_threads (), 1, true);
}

TEST (FirstUse, RaceInFreshProcess)
{
  int out[2];
  ASSERT_EQ (pipe (out), 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_adddup2 (&fa, out[1], 1);
  posix_spawn_file_actions_adddup2 (&fa, out[1], 2);
  posix_spawn_file_actions_addclose (&fa, out[0]);
  posix_spawn_file_actions_addclose (&fa, out[1]);

  std::vector<std::string> env_s;
  for (char **e = environ; *e; e++)
    if (strncmp (*e, "T_THREADS_CHILD=", 16) && strncmp (*e, "GTEST_", 6))
      env_s.push_back (*e);
  env_s.push_back ("T_THREADS_CHILD=1");
  std::vector<char *> envp;
  for (std::string &s : env_s)
    envp.push_back (s.data ());
  envp.push_back (nullptr);
  std::string self = "/proc/self/exe";
  std::string filter = "--gtest_filter=ThreadsChild.DISABLED_FirstUseRace";
  std::string disabled = "--gtest_also_run_disabled_tests";
  char *argv[] = { self.data (), filter.data (), disabled.data (), nullptr };

  pid_t pid;
  int rc = posix_spawn (&pid, "/proc/self/exe", &fa, nullptr, argv,
                        envp.data ());
  posix_spawn_file_actions_destroy (&fa);
  close (out[1]);
  ASSERT_EQ (rc, 0) << strerror (rc);
  std::string text;
  char buf[4096];
  ssize_t got;
  while ((got = read (out[0], buf, sizeof buf)) > 0
         || (got < 0 && errno == EINTR))
    if (got > 0)
      text.append (buf, (size_t) got);
  close (out[0]);
  int status = 0;
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  // The child's own report, indented, for the log.
  std::string line;
  for (char c : text)
    {
      line += c;
      if (c == '\n')
        {
          printf ("  | %s", line.c_str ());
          line.clear ();
        }
    }
  if (!line.empty ())
    printf ("  | %s\n", line.c_str ());
  ASSERT_TRUE (WIFEXITED (status)) << "child killed by signal "
                                   << WTERMSIG (status);
  EXPECT_EQ (WEXITSTATUS (status), 0) << "the racing child failed "
                                         "(its output is above)";
  EXPECT_NE (text.find ("[  PASSED  ] 1 test"), std::string::npos)
    << "the child did not run the race";
}

// ---------------------------------------------------------------------
// Many threads on an initialised library.

TEST (Threads, ManyHandlesAtOnce)
{
  ASSERT_TRUE (gcry_check_version (GCRYPT_VERSION));
  run_and_compare (n_threads (), 2, false);
}

} // namespace
