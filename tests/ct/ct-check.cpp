/* ct-check.cpp - constant-time check of every cipher path under valgrind.
 *
 * Run under valgrind's memcheck (tests/ct/check-ct.sh, `make check-ct`).
 * Memcheck tracks, bit by bit, which values are "undefined" and reports
 * every conditional branch and every memory address computed from one.
 * So the secrets are marked undefined with memcheck's client requests:
 *
 *   the key        before gcry_cipher_setkey
 *   the plaintext  before gcry_cipher_encrypt
 *   the ciphertext before gcry_cipher_decrypt (the recovered plaintext
 *                  is secret; the key makes it so anyway)
 *   the tag        before gcry_cipher_checktag and
 *                  GCRYCTL_SET_DECRYPTION_TAG (SIV, GCM-SIV)
 *
 * and every value derived from them stays undefined through the library.
 * Declassification (VALGRIND_MAKE_MEM_DEFINED) happens only here, in the
 * caller, after the library has returned, on what the API makes public:
 *
 *   ciphertext     after gcry_cipher_encrypt returns
 *   tag            after gcry_cipher_gettag returns (and the CBC-MAC)
 *   error codes    of gcry_cipher_decrypt / gcry_cipher_checktag (and of
 *                  every call), after they return: the one bit "tag /
 *                  integrity value matched" is public, so the library
 *                  must carry it to its return value without a branch
 *                  or an index on it (house rule: no branch on tag
 *                  comparisons), and the caller is the first to branch
 *   unwrapped length  (AESWRAP with padding, GCRYCTL_GET_KEYLEN) after a
 *                  successful unwrap
 *   plaintext      after gcry_cipher_decrypt returns, only so that this
 *                  program can check the round trip
 *
 * A "path" is one (algorithm, implementation, mode variant) and for GCM
 * and GCM-SIV also the GHASH / POLYVAL back end, forced through the hwf
 * test mask as tests/t-aes.cpp does.  Algorithms, implementations and
 * back ends come from the library's own lists (_gcry_cipher_spec_nth,
 * cipher_spec::impls, _gcry_gcm_ghash_impls), modes from
 * _gcry_cipher_mode_supported, so a new algorithm or path is covered
 * without touching this file.  Each path runs several messages (short
 * tails, a long one past the widest bulk kernel, several calls with
 * partial blocks, a wrong tag); the memcheck error count
 * (VALGRIND_COUNT_ERRORS) before and after tells which path a report
 * belongs to.
 *
 * Output, one line each (tests/ct/check-ct.sh and .ci/run count them):
 *   ct: PASS <path>
 *   ct: FAIL <path>: <why>             memcheck reports or a wrong result
 *   ct: NOTCT <algorithm>: not constant time by design (<why>)
 *   ct: NOTCOVERED <impl>: <why>       e.g. valgrind's CPU lacks AVX-512
 *   ct: summary <n> paths checked, <m> failed
 *
 * Options:
 *   --host-paths       print the implementations this CPU has (run
 *                      natively; check-ct.sh passes it back through
 *                      --host so paths valgrind cannot run are listed)
 *   --host=LIST        that list (comma separated)
 *   --shard=K/N        only (algorithm, mode) units K, K+N, ... (0-based)
 *   --algo=NAME        only this algorithm (e.g. AES256); repeatable
 *   --mode=LABEL       only this variant (e.g. GCM-SIV, CBC-CTS, as in
 *                      the path labels); repeatable
 *   -v                 print each message run
 *   --trace-salt=K     run natively under tests/ct/ct-trace (secrets
 *                      varied by K, every library call between markers)
 *   --skip=FILE        with --trace-salt: paths (one label a line, as
 *                      printed) not to run, e.g. those valgrind checked
 */
#include <config.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "g10lib.h"
#include "cipher-internal.h"
#include "cipher-gcm.h"
#include "cipher-gcm-siv.h"
#include "poly1305.h"

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define CT_HAVE_VALGRIND 1
#endif

namespace {

#ifdef CT_HAVE_VALGRIND
void
make_secret (const void *p, size_t n)
{
  if (n)
    (void) VALGRIND_MAKE_MEM_UNDEFINED (p, n);
}

void
declassify (const void *p, size_t n)
{
  if (n)
    (void) VALGRIND_MAKE_MEM_DEFINED (p, n);
}

unsigned long
memcheck_errors ()
{
  return (unsigned long) VALGRIND_COUNT_ERRORS;
}

bool
under_valgrind ()
{
  return RUNNING_ON_VALGRIND != 0;
}

#else
void make_secret (const void *, size_t) {}
void declassify (const void *, size_t) {}
unsigned long memcheck_errors () { return 0; }
bool under_valgrind () { return false; }
#endif

typedef std::vector<unsigned char> Bytes;

/* ---- Algorithms that cannot be constant time by their design --------
 * They index a table by secret values at every step, the table itself
 * derived from the key: a constant-time implementation would have to
 * touch every entry per byte.  Listed, not run.  (Twofish has
 * key-dependent S-boxes too, but gcipher computes them, so it is
 * checked.)  */
struct NonCt
{
  int algo;
  const char *why;
};
const NonCt non_ct_by_design[] = {
  { GCRY_CIPHER_ARCFOUR, "state permutation indexed by key and state" },
  { GCRY_CIPHER_BLOWFISH, "key-dependent S-boxes indexed by data" },
  { GCRY_CIPHER_CAST5, "S-boxes indexed by key and data (cast5.cpp)" },
};

const char *
non_ct_reason (int algo)
{
  for (const NonCt &n : non_ct_by_design)
    if (n.algo == algo)
      return n.why;
  return nullptr;
}

/* ---- Mode variants ---------------------------------------------------- */

enum Kind
{
  K_BLOCKS,    /* Whole blocks, any number of calls (ECB, CBC).  */
  K_STREAM,    /* Any length, any calls (CFB, CFB8, OFB, CTR, STREAM). */
  K_CFBSYNC,   /* CFB with GCRYCTL_CFB_SYNC between calls.  */
  K_CTS,       /* CBC-CTS: one call per message, > 1 block.  */
  K_CBCMAC,    /* CBC-MAC: encrypt only, the MAC is the output.  */
  K_XTS,       /* One call per data unit, >= 16 bytes.  */
  K_WRAP,      /* AES key wrap (KW, KWP).  */
  K_AEAD,      /* setiv, authenticate, data calls, gettag / checktag.  */
  K_ONESHOT    /* SIV, GCM-SIV: one data call, decryption tag first.  */
};

struct Variant
{
  int mode;
  unsigned int flags;
  const char *label;
  Kind kind;
  size_t ivlen = 0;   /* Nonce bytes; 0: the mode's usual (iv_length). */
};

const Variant variants[] = {
  { GCRY_CIPHER_MODE_ECB, 0, "ECB", K_BLOCKS },
  { GCRY_CIPHER_MODE_CBC, 0, "CBC", K_BLOCKS },
  { GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_CBC_CTS, "CBC-CTS", K_CTS },
  { GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_CBC_MAC, "CBC-MAC", K_CBCMAC },
  { GCRY_CIPHER_MODE_CFB, 0, "CFB", K_STREAM },
  { GCRY_CIPHER_MODE_CFB, GCRY_CIPHER_ENABLE_SYNC, "CFB-sync", K_CFBSYNC },
  { GCRY_CIPHER_MODE_CFB8, 0, "CFB8", K_STREAM },
  { GCRY_CIPHER_MODE_OFB, 0, "OFB", K_STREAM },
  { GCRY_CIPHER_MODE_CTR, 0, "CTR", K_STREAM },
  { GCRY_CIPHER_MODE_STREAM, 0, "STREAM", K_STREAM },
  { GCRY_CIPHER_MODE_AESWRAP, 0, "AESWRAP", K_WRAP },
  { GCRY_CIPHER_MODE_AESWRAP, GCRY_CIPHER_EXTENDED, "AESWRAP-PAD", K_WRAP },
  { GCRY_CIPHER_MODE_CCM, 0, "CCM", K_AEAD },
  { GCRY_CIPHER_MODE_GCM, 0, "GCM", K_AEAD },
  /* A nonce other than 96 bits: J0 = GHASH_H (IV || ...) makes the
   * counter secret (SP 800-38D 7.1), unlike a 96-bit IV's.  */
  { GCRY_CIPHER_MODE_GCM, 0, "GCM-IV16", K_AEAD, 16 },
  { GCRY_CIPHER_MODE_POLY1305, 0, "POLY1305", K_AEAD },
  { GCRY_CIPHER_MODE_OCB, 0, "OCB", K_AEAD },
  { GCRY_CIPHER_MODE_XTS, 0, "XTS", K_XTS },
  { GCRY_CIPHER_MODE_EAX, 0, "EAX", K_AEAD },
  { GCRY_CIPHER_MODE_SIV, 0, "SIV", K_ONESHOT },
  { GCRY_CIPHER_MODE_GCM_SIV, 0, "GCM-SIV", K_ONESHOT },
};

bool
have_variant_for_mode (int mode)
{
  for (const Variant &v : variants)
    if (v.mode == mode)
      return true;
  return false;
}

/* ---- Deterministic data ----------------------------------------------- */

struct Prng
{
  uint64_t s;
  explicit Prng (uint64_t seed) : s (seed) {}
  uint64_t next ()
  {
    /* splitmix64 (Steele, Lea, Flood: "Fast splittable pseudorandom
     * number generators", OOPSLA 2014).  */
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  Bytes bytes (size_t n)
  {
    Bytes b (n);
    for (auto &x : b)
      x = (unsigned char) next ();
    return b;
  }
};

uint64_t
hash_str (const std::string &s)
{
  uint64_t h = 1469598103934665603ull;   /* FNV-1a 64.  */
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string
hex (const Bytes &b)
{
  static const char d[] = "0123456789abcdef";
  std::string s;
  for (unsigned char x : b)
    {
      s += d[x >> 4];
      s += d[x & 15];
    }
  return s;
}

/* ---- Trace mode (tests/ct/ct-trace.cpp) ---------------------------------
 * With --trace-salt=K the program runs natively under ct-trace, which
 * starts several copies with different K and single-steps them in lock
 * step through every library call, comparing instruction addresses and
 * memory addresses.  K changes the secrets only (key, plaintext, hence
 * ciphertext and tags); lengths, IVs, associated data and call splits
 * stay the same.  ct_trace_mark stops the copy (int3) so the tracer can
 * read what (rdi), a name (rsi) and a flag (rdx).  */
int trace_salt = -1;
std::set<std::string> trace_skip;   /* --skip=FILE: paths not traced. */
/* Key schedules traced per path: the first only.  The schedule is the
 * same for every message of a path, and the constant-time generic ones
 * (masked table scans) take millions of steps each.  */
int trace_setkeys_left;

/* MARK_PUBLIC: rsi points to bytes the library just declassified
 * (ct_public), rdx is their length; see public_hook.  */
enum { MARK_HELLO = 1, MARK_CALL = 2, MARK_CALL_END = 3, MARK_PATH = 4,
       MARK_PUBLIC = 5 };

} // namespace

extern "C" __attribute__ ((noinline, noipa)) void
ct_trace_mark (long what, const char *name, long flag)
{
#if defined(__x86_64__)
  __asm__ volatile ("int3" : : "D"(what), "S"(name), "d"(flag) : "memory");
#else
  (void) what, (void) name, (void) flag;
#endif
}

namespace {

/* The library's ct_public (g10lib.h): a synthetic IV / tag that the
 * protocol outputs anyway, used as a CTR start inside the library.
 * Under memcheck it becomes defined.  Under the tracer the copies'
 * values differ (they are derived from different secrets), and a
 * kernel may branch on a public counter (the VAES ctr16be carry
 * test), so the tracer makes every copy continue with copy 0's bytes:
 * relational declassification, "equal public values give equal
 * traces".  The copies stay self-consistent (SIV and GCM-SIV
 * decryption declassify the received tag's counter the same way).  */
void
public_hook (const void *p, size_t n)
{
  declassify (p, n);
  if (trace_salt >= 0)
    ct_trace_mark (MARK_PUBLIC, (const char *) p, (long) n);
}

/* Run F (one library call) between two markers when traced.  */
template <typename F>
auto
lib (const char *what, F f)
{
  if (trace_salt >= 0)
    ct_trace_mark (MARK_CALL, what, 0);
  auto r = f ();
  if (trace_salt >= 0)
    ct_trace_mark (MARK_CALL_END, what, 0);
  return r;
}
#define TR(name, expr) lib (name, [&] { return (expr); })

/* A secret (key, plaintext) of the copy: B itself for salt 0, other
 * bytes of the same length for the other salts, written in place (the
 * copies must allocate alike: heap addresses are compared).  */
Bytes
salted (Bytes b, uint64_t tweak)
{
  if (trace_salt > 0)
    {
      Prng r (tweak * 0x100000001b3ull + (uint64_t) trace_salt * 0x9e37ull
              + b.size ());
      for (auto &x : b)
        x = (unsigned char) r.next ();
    }
  return b;
}

/* ---- One path --------------------------------------------------------- */

struct PathCtx
{
  const cipher_spec *spec;
  const Variant *v;
  size_t bs;
  size_t keylen;        /* Bytes given to setkey.  */
  Bytes key;
  std::string fail;     /* First functional failure.  */
  std::string transcript;   /* Public outputs, for the cross-path check. */
  std::string impl;     /* Chosen implementation (after setkey).  */
  std::string aux;      /* GHASH / POLYVAL / Poly1305 back end.  */
  bool verbose;
};

/* Record the first failure; returns false for convenience.  */
bool
failed (PathCtx &p, const std::string &what, gcry_error_t err = 0)
{
  if (p.fail.empty ())
    {
      p.fail = what;
      if (err)
        p.fail += std::string (" (") + gcry_strerror (err) + ")";
    }
  return false;
}

/* An error code of a call that may depend on secrets: public once the
 * call has returned (see the file comment).  */
gcry_error_t
public_rc (gcry_error_t err)
{
  declassify (&err, sizeof err);
  return err;
}

size_t
iv_length (const PathCtx &p)
{
  if (p.v->ivlen)
    return p.v->ivlen;
  switch (p.v->mode)
    {
    case GCRY_CIPHER_MODE_CCM:
    case GCRY_CIPHER_MODE_GCM:
    case GCRY_CIPHER_MODE_OCB:
    case GCRY_CIPHER_MODE_GCM_SIV:
    case GCRY_CIPHER_MODE_POLY1305:
      return 12;
    case GCRY_CIPHER_MODE_EAX:
    case GCRY_CIPHER_MODE_SIV:
      return 16;
    case GCRY_CIPHER_MODE_STREAM:
      return 8;    /* See set_nonce.  */
    default:
      return p.bs;
    }
}

/* Open a handle and key it with the secret key.  */
/* The Poly1305 path (poly1305.h) a POLY1305-mode message started under
 * the current hwf runs: the first usable one, as _gcry_poly1305_init
 * picks it.  */
const char *
poly1305_path_now ()
{
#ifdef POLY1305_USE_SIMD
  for (size_t i = 0; i < _gcry_poly1305_n_impls; i++)
    if (_gcry_poly1305_path_usable (i, _gcry_get_hw_features ()))
      return _gcry_poly1305_impls[i].name;
#endif
  return "generic";
}

gcry_cipher_hd_t
open_keyed (PathCtx &p)
{
  gcry_cipher_hd_t h = nullptr;
  gcry_error_t err = (gcry_cipher_open (&h, p.spec->algo, p.v->mode,
                                       p.v->flags));
  if (err)
    {
      failed (p, "open", err);
      return nullptr;
    }
  Bytes k = p.key;
  make_secret (k.data (), k.size ());
  if (trace_setkeys_left > 0)
    {
      trace_setkeys_left--;
      err = public_rc (TR ("setkey", gcry_cipher_setkey (h, k.data (),
                                                         k.size ())));
    }
  else
    err = public_rc (gcry_cipher_setkey (h, k.data (), k.size ()));
  if (err)
    {
      gcry_cipher_close (h);
      failed (p, "setkey", err);
      return nullptr;
    }
  p.impl = h->impl_name ? h->impl_name : "?";
  if (p.v->mode == GCRY_CIPHER_MODE_GCM)
    {
      const char *g = _gcry_cipher_gcm_ghash_name (h);
      p.aux = g ? g : "?";
    }
  if (p.v->mode == GCRY_CIPHER_MODE_POLY1305)
    p.aux = std::string ("poly1305-") + poly1305_path_now ();
  return h;
}

bool
set_nonce (PathCtx &p, gcry_cipher_hd_t h, const Bytes &iv)
{
  gcry_error_t err;
  if (p.v->mode == GCRY_CIPHER_MODE_CTR)
    err = TR ("setctr", gcry_cipher_setctr (h, iv.data (), iv.size ()));
  else if (p.v->mode == GCRY_CIPHER_MODE_STREAM)
    {
      /* An 8-byte nonce: every stream cipher libgcrypt has takes one
       * (ChaCha20 also 12, Salsa20 only 8); ARCFOUR none (refused,
       * harmless).  */
      (void) TR ("setiv", gcry_cipher_setiv (h, iv.data (), 8));
      return true;
    }
  else
    err = TR ("setiv", gcry_cipher_setiv (h, iv.data (), iv.size ()));
  return err ? failed (p, "setiv", err) : true;
}

/* Split LEN into calls: one call, or a few with partial pieces (UNIT:
 * the granularity non-final calls need).  */
std::vector<size_t>
chunks (size_t len, bool split, size_t unit)
{
  std::vector<size_t> v;
  if (!split || len < 12 * unit)
    {
      v.push_back (len);
      return v;
    }
  size_t a = unit == 1 ? 3 : unit;
  size_t b = unit == 1 ? 2 * 16 + 9 : 9 * unit;
  if (len <= a + b)
    {
      v.push_back (len);
      return v;
    }
  v.push_back (a);
  v.push_back (b);
  v.push_back (len - a - b);
  return v;
}

/* Message lengths under ct-trace, which single-steps every instruction
 * (about 10^4 a second), for the paths valgrind cannot run:
 *  - modes with a parallel direction (ECB, CBC / CFB decryption, CTR,
 *    XTS, OCB, GCM, GCM-SIV, ChaCha20-Poly1305, stream ciphers): 97
 *    blocks, so the widest kernels (64 blocks of GFNI Camellia / ARIA /
 *    SM4 on zmm, 32 of VAES AES) run full batches and every narrower
 *    tail; GCM-SIV also 33 blocks, for its narrow POLYVAL back end;
 *  - modes that are serial in both directions (CFB8, OFB, CBC-MAC, and
 *    the CBC-MAC / OMAC / S2V of CCM, EAX and SIV) and call the
 *    single-block function per block: a few blocks, since every further
 *    block runs the same code again (a byte-sliced GFNI single block is
 *    about 5,000 instructions).  Their CTR halves are the CTR path's
 *    kernels, traced there with 97 blocks.
 * The serial encryption of the long messages of CBC and CFB runs
 * untraced (encrypt_calls); the short messages trace it.  */
constexpr size_t TRACE_SERIAL_BLOCKS = 12;

bool
serial_encryption (const PathCtx &p)
{
  return (p.v->mode == GCRY_CIPHER_MODE_CBC
          && !(p.v->flags & GCRY_CIPHER_CBC_MAC))
         || p.v->mode == GCRY_CIPHER_MODE_CFB;
}

std::vector<size_t>
trace_lengths (const PathCtx &p)
{
  const size_t bs = p.bs;
  const size_t wide = 97;
  switch (p.v->mode)
    {
    case GCRY_CIPHER_MODE_CFB8:
      return { 3, 17 };
    case GCRY_CIPHER_MODE_OFB:
      return { 5, 3 * bs + 7 };
    case GCRY_CIPHER_MODE_CCM:
    case GCRY_CIPHER_MODE_EAX:
    case GCRY_CIPHER_MODE_SIV:
      return { 0, 5, 3 * 16 + 7 };
    case GCRY_CIPHER_MODE_GCM_SIV:
      /* POLYVAL's back end depends on the call's length (the wide one
       * from wide_min blocks on): the 97-block message runs the wide
       * one, the 33-block one the narrow one's bulk loop, last, so the
       * path ends on the back end its label names (the probe's, at 33
       * blocks, as in the memcheck run).  */
      return { 0, 5, wide * 16 + 7, 33 * 16 + 7 };
    default:
      break;
    }
  switch (p.v->kind)
    {
    case K_BLOCKS:
      return { bs, wide * bs };
    case K_CBCMAC:
      return { bs, 3 * bs };
    case K_CTS:
      return { bs + 5, wide * bs + 7 };
    case K_XTS:
      return { 16, wide * 16 + 7 };
    case K_WRAP:
      if (p.v->flags & GCRY_CIPHER_EXTENDED)
        return { 7, 21, 40 };
      return { 16, 40 };
    case K_ONESHOT:
    case K_AEAD:
      return { 0, 5, wide * 16 + 7 };
    default:
      return { 5, wide * bs + 7 };
    }
}

/* Encrypt PT (secret) with calls CH; CT gets the public ciphertext.  */
bool
encrypt_calls (PathCtx &p, gcry_cipher_hd_t h, const Bytes &pt,
               const std::vector<size_t> &ch, Bytes &ct, size_t outextra)
{
  Bytes in = pt;
  make_secret (in.data (), in.size ());
  ct.assign (in.size () + outextra, 0);
  size_t off = 0;
  for (size_t i = 0; i < ch.size (); i++)
    {
      if (i + 1 == ch.size () && p.v->mode == GCRY_CIPHER_MODE_OCB)
        TR ("final", gcry_cipher_final (h));
      if (p.v->kind == K_CFBSYNC && i)
        TR ("ctl", gcry_cipher_ctl (h, GCRYCTL_CFB_SYNC, nullptr, 0));
      gcry_error_t err;
      if (p.v->kind == K_CBCMAC)
        err = TR ("encrypt", gcry_cipher_encrypt (h, ct.data (), p.bs, in.data () + off,
                                   ch[i]));
      else if (trace_salt >= 0 && serial_encryption (p)
               && ch[i] > TRACE_SERIAL_BLOCKS * p.bs)
        /* Traced: the decryption of this long message (the parallel
         * kernels) and the serial encryption of the short ones.  */
        err = gcry_cipher_encrypt (h, ct.data () + off, ch[i] + outextra,
                                   in.data () + off, ch[i]);
      else
        err = TR ("encrypt", gcry_cipher_encrypt (h, ct.data () + off, ch[i] + outextra,
                                   in.data () + off, ch[i]));
      declassify (ct.data (), ct.size ());
      if (public_rc (err))
        return failed (p, "encrypt " + std::to_string (pt.size ()), err);
      off += ch[i];
    }
  if (p.v->kind == K_CBCMAC)
    ct.resize (p.bs);
  return true;
}

/* Decrypt CT (marked secret) with calls CH into PT (declassified after
 * the calls, for the round-trip check).  Returns the last error.  */
gcry_error_t
decrypt_calls (PathCtx &p, gcry_cipher_hd_t h, const Bytes &ct,
               const std::vector<size_t> &ch, Bytes &pt, size_t outlen)
{
  Bytes in = ct;
  make_secret (in.data (), in.size ());
  pt.assign (outlen, 0);
  size_t off = 0;
  gcry_error_t err = 0;
  for (size_t i = 0; i < ch.size (); i++)
    {
      if (i + 1 == ch.size () && p.v->mode == GCRY_CIPHER_MODE_OCB)
        TR ("final", gcry_cipher_final (h));
      if (p.v->kind == K_CFBSYNC && i)
        TR ("ctl", gcry_cipher_ctl (h, GCRYCTL_CFB_SYNC, nullptr, 0));
      err = public_rc (TR ("decrypt", gcry_cipher_decrypt (h, pt.data () + off,
                                            outlen - off, in.data () + off,
                                            ch[i])));
      if (err)
        break;
      off += ch[i];
    }
  declassify (pt.data (), pt.size ());
  return err;
}

void
note (PathCtx &p, const char *what, const Bytes &b)
{
  p.transcript += what;
  p.transcript += hex (b);
  p.transcript += ';';
}

/* One message of a non-AEAD kind; SPLIT: several calls.  */
bool
message_plain (PathCtx &p, Prng &rng, size_t len, bool split)
{
  const size_t unit = (p.v->kind == K_BLOCKS || p.v->kind == K_CBCMAC)
                        ? p.bs : 1;
  const bool one_call = p.v->kind == K_CTS || p.v->kind == K_XTS
                        || p.v->kind == K_WRAP;
  const std::vector<size_t> ch = chunks (len, split && !one_call, unit);
  const Bytes pt = salted (rng.bytes (len), len);
  const Bytes iv = rng.bytes (iv_length (p));
  size_t extra = 0;
  if (p.v->kind == K_WRAP)
    extra = ((len + 7) & ~(size_t) 7) - len + 8;

  gcry_cipher_hd_t h = open_keyed (p);
  if (!h)
    return false;
  if (p.v->kind != K_WRAP && p.v->mode != GCRY_CIPHER_MODE_ECB
      && !set_nonce (p, h, iv))
    {
      gcry_cipher_close (h);
      return false;
    }
  Bytes ct;
  bool ok = encrypt_calls (p, h, pt, ch, ct, extra);
  gcry_cipher_close (h);
  if (!ok)
    return false;
  note (p, "c", ct);
  if (p.v->kind == K_CBCMAC)
    return true;   /* No decryption side.  */

  h = open_keyed (p);
  if (!h)
    return false;
  if (p.v->kind != K_WRAP && p.v->mode != GCRY_CIPHER_MODE_ECB
      && !set_nonce (p, h, iv))
    {
      gcry_cipher_close (h);
      return false;
    }
  Bytes back;
  const std::vector<size_t> dch
    = p.v->kind == K_WRAP ? std::vector<size_t>{ ct.size () } : ch;
  gcry_error_t err = decrypt_calls (p, h, ct, dch, back,
                                    p.v->kind == K_WRAP ? ct.size () - 8
                                                        : len);
  if (!err && p.v->kind == K_WRAP && (p.v->flags & GCRY_CIPHER_EXTENDED))
    {
      /* The unwrapped length (MLI) is public after a good unwrap.  */
      unsigned char mli[4];
      size_t n = sizeof mli;
      err = public_rc (TR ("info", gcry_cipher_info (h, GCRYCTL_GET_KEYLEN, mli, &n)));
      declassify (mli, sizeof mli);
      size_t got = ((size_t) mli[0] << 24) | ((size_t) mli[1] << 16)
                   | ((size_t) mli[2] << 8) | mli[3];
      if (!err && len > 8 && got != len)
        failed (p, "unwrapped length " + std::to_string (got));
      back.resize (len);
    }
  if (err)
    {
      gcry_cipher_close (h);
      return failed (p, "decrypt " + std::to_string (len), err);
    }
  if (back != pt)
    failed (p, "round trip " + std::to_string (len));

  if (p.v->kind == K_WRAP)
    {
      /* A corrupted wrap must fail the integrity check.  */
      Bytes bad = ct;
      bad[bad.size () / 2] ^= 0x10;
      err = decrypt_calls (p, h, bad, dch, back, ct.size () - 8);
      if (gcry_err_code (err) != GPG_ERR_CHECKSUM)
        failed (p, "corrupted wrap accepted", err);
    }
  gcry_cipher_close (h);
  return p.fail.empty ();
}

/* One AEAD message (K_AEAD, K_ONESHOT): encrypt + tag, decrypt +
 * checktag with the right tag, then with a wrong one.  */
bool
message_aead (PathCtx &p, Prng &rng, size_t len, bool split)
{
  const int mode = p.v->mode;
  const bool oneshot = p.v->kind == K_ONESHOT;
  const size_t unit = mode == GCRY_CIPHER_MODE_OCB ? 16 : 1;
  const std::vector<size_t> ch = chunks (len, split && !oneshot, unit);
  const Bytes pt = salted (rng.bytes (len), len);
  const Bytes iv = rng.bytes (iv_length (p));
  const Bytes aad = rng.bytes (len % 37 + 3);
  /* EAX's tag is one block (8 bytes for 64-bit-block ciphers).  */
  const size_t taglen = mode == GCRY_CIPHER_MODE_EAX && p.bs < 16 ? p.bs : 16;

  auto start = [&] (gcry_cipher_hd_t h) -> bool {
    if (mode == GCRY_CIPHER_MODE_CCM)
      {
        /* SP 800-38C: lengths first (public).  */
        if (!set_nonce (p, h, iv))
          return false;
        uint64_t params[3] = { len, aad.size (), taglen };
        gcry_error_t err = TR ("ctl", gcry_cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS,
                                            params, sizeof params));
        if (err)
          return failed (p, "ccm lengths", err);
      }
    else if (mode != GCRY_CIPHER_MODE_SIV && !set_nonce (p, h, iv))
      return false;
    gcry_error_t err = TR ("authenticate", gcry_cipher_authenticate (h, aad.data (), aad.size ()));
    if (err)
      return failed (p, "authenticate", err);
    /* SIV (RFC 5297 2.4): the nonce is the last S2V input before the
     * plaintext, so it follows the associated data.  */
    return mode == GCRY_CIPHER_MODE_SIV ? set_nonce (p, h, iv) : true;
  };

  /* Encrypt.  */
  gcry_cipher_hd_t h = open_keyed (p);
  if (!h)
    return false;
  Bytes ct, tag (taglen);
  bool ok = start (h) && encrypt_calls (p, h, pt, ch, ct, 0);
  if (ok)
    {
      gcry_error_t err = public_rc (TR ("gettag", gcry_cipher_gettag (h, tag.data (),
                                                        taglen)));
      declassify (tag.data (), tag.size ());
      if (err)
        ok = failed (p, "gettag", err);
    }
  if (ok && mode == GCRY_CIPHER_MODE_GCM_SIV)
    {
      const char *n = _gcry_cipher_gcm_siv_polyval_name (h);
      p.aux = n ? n : "?";
    }
  gcry_cipher_close (h);
  if (!ok)
    return false;
  note (p, "c", ct);
  note (p, "t", tag);

  /* Decrypt with the right tag, then with a wrong one.  */
  for (int wrong = 0; wrong < 2; wrong++)
    {
      Bytes t = tag;
      if (wrong)
        t[len % taglen] ^= 0x01;
      h = open_keyed (p);
      if (!h)
        return false;
      if (!start (h))
        {
          gcry_cipher_close (h);
          return false;
        }
      gcry_error_t err = 0;
      if (oneshot)
        {
          Bytes st = t;
          make_secret (st.data (), st.size ());
          err = public_rc (TR ("ctl", gcry_cipher_ctl (h, GCRYCTL_SET_DECRYPTION_TAG,
                                            st.data (), st.size ())));
          if (err)
            {
              gcry_cipher_close (h);
              return failed (p, "set decryption tag", err);
            }
        }
      Bytes back;
      err = decrypt_calls (p, h, ct, ch, back, len);
      if (!oneshot && !err)
        {
          Bytes st = t;
          make_secret (st.data (), st.size ());
          err = public_rc (TR ("checktag", gcry_cipher_checktag (h, st.data (), st.size ())));
        }
      gcry_cipher_close (h);
      if (!wrong)
        {
          if (err)
            return failed (p, "decrypt/checktag " + std::to_string (len),
                           err);
          if (back != pt)
            return failed (p, "round trip " + std::to_string (len));
        }
      else if (gcry_err_code (err) != GPG_ERR_CHECKSUM)
        return failed (p, "wrong tag accepted, length "
                          + std::to_string (len), err);
    }
  return true;
}

/* Message lengths of a variant (bytes).  The long ones pass the widest
 * bulk kernel valgrind can run (aesni: 8 blocks, AVX2 Serpent: 16) and
 * end in a partial block where the mode allows one.  Under ct-trace see
 * trace_lengths.  */
std::vector<size_t>
lengths (const PathCtx &p)
{
  const size_t bs = p.bs;
  if (trace_salt >= 0)
    return trace_lengths (p);
  switch (p.v->kind)
    {
    case K_BLOCKS:
    case K_CBCMAC:
      return { bs, 33 * bs };
    case K_CTS:
      return { bs + 5, 33 * bs + 7 };
    case K_XTS:
      return { 16, 33 * 16 + 7 };
    case K_WRAP:
      if (p.v->flags & GCRY_CIPHER_EXTENDED)
        return { 7, 21, 40 };
      return { 16, 40 };
    case K_ONESHOT:
      return { 0, 5, 33 * 16 + 7 };
    case K_AEAD:
      return { 0, 5, 33 * 16 + 7 };
    default:
      return { 5, 33 * 16 + 7 };
    }
}

bool
run_messages (PathCtx &p, uint64_t seed)
{
  Prng rng (seed);
  for (size_t len : lengths (p))
    for (int split = 0; split < 2; split++)
      {
        if (split && len < 12 * 16)
          continue;
        if (p.verbose)
          std::printf ("  message %zu bytes%s\n", len,
                       split ? ", several calls" : "");
        bool ok = (p.v->kind == K_AEAD || p.v->kind == K_ONESHOT)
                    ? message_aead (p, rng, len, split)
                    : message_plain (p, rng, len, split);
        if (!ok)
          return false;
      }
  return true;
}

/* ---- Enumeration ------------------------------------------------------ */

/* Names of the hwf bits in MASK ("intel-vaes-vpclmul+intel-avx512").  */
std::string
hwf_names (unsigned int mask)
{
  std::string s;
  unsigned int bit;
  for (int i = 0; const char *n = _gcry_enum_hw_features (i, &bit); i++)
    if (mask & bit)
      {
        if (!s.empty ())
          s += "+";
        s += n;
      }
  return s.empty () ? "?" : s;
}

/* One implementation the program knows about: "<family>/<name>" with
 * the hwf bits it needs.  Families: the first algorithm name of a
 * spec's impls list (AES stands for AES, AES192 and AES256), "ghash"
 * (GCM, GCM-SIV through RFC 8452 Appendix A) and "polyval" (GCM-SIV's
 * native back ends, known to the library by name only).  */
struct Component
{
  std::string id;
  unsigned int hwf;
  bool hwf_known;
};

const char *const polyval_native[] = { "polyval-pclmul" };

std::string
family_of (const cipher_spec *spec)
{
  for (int i = 0; const cipher_spec *s = _gcry_cipher_spec_nth (i); i++)
    if (s->impls == spec->impls)
      return s->name;
  return spec->name;
}

std::vector<Component>
components ()
{
  std::vector<Component> v;
  std::set<const cipher_impl_info *> seen;
  for (int i = 0; const cipher_spec *s = _gcry_cipher_spec_nth (i); i++)
    {
      if (non_ct_reason (s->algo) || !s->impls || seen.count (s->impls))
        continue;
      seen.insert (s->impls);
      for (size_t k = 0; k < s->n_impls; k++)
        v.push_back ({ family_of (s) + "/" + s->impls[k].name,
                       s->impls[k].hwf, true });
    }
  for (size_t k = 0; k < _gcry_gcm_n_ghash_impls; k++)
    v.push_back ({ std::string ("ghash/") + _gcry_gcm_ghash_impls[k].name,
                   _gcry_gcm_ghash_impls[k].hwf, true });
  for (const char *n : polyval_native)
    v.push_back ({ std::string ("polyval/") + n, 0, false });
#ifdef POLY1305_USE_SIMD
  /* Poly1305 of ChaCha20-Poly1305: hwf bits plus CPUID (IFMA), so
   * component_available asks poly1305.cpp.  */
  for (size_t k = 0; k < _gcry_poly1305_n_impls; k++)
    v.push_back ({ std::string ("poly1305/poly1305-")
                   + _gcry_poly1305_impls[k].name,
                   _gcry_poly1305_impls[k].hwf, false });
#else
  v.push_back ({ "poly1305/poly1305-generic", 0, false });
#endif
  return v;
}

/* Whether this CPU (under the current hwf) can run component C.  */
bool
component_available (const Component &c)
{
  if (c.hwf_known)
    return (c.hwf & _gcry_get_hw_features ()) == c.hwf;
  const std::string name = c.id.substr (c.id.find ('/') + 1);
  if (c.id.compare (0, 9, "poly1305/") == 0)
    {
#ifdef POLY1305_USE_SIMD
      for (size_t k = 0; k < _gcry_poly1305_n_impls; k++)
        if (name == std::string ("poly1305-") + _gcry_poly1305_impls[k].name)
          return _gcry_poly1305_path_usable (k, _gcry_get_hw_features ());
#endif
      return name == "poly1305-generic";
    }
  const unsigned char h[16] = { 1 }, x[16] = { 2 };
  unsigned char r[16];
  return _gcry_polyval_test (name.c_str (), h, x, 1, r) == 0;
}

struct Options
{
  std::set<std::string> host;   /* --host list; empty: unknown.  */
  bool have_host = false;
  int shard = 0, nshards = 1;
  std::set<std::string> algos;
  std::set<std::string> modes;  /* --mode list (variant labels).  */
  bool verbose = false;
  bool host_paths = false;
};

int
run_all (const Options &o)
{
  unsigned int total = 0, nfail = 0;
  std::set<std::string> covered;   /* Components actually exercised. */
  std::map<std::string, std::string> first_transcript;
  unsigned int unit = 0;
  const unsigned int all_hwf = _gcry_get_hw_features ();
  if (trace_salt >= 0)
    ct_trace_mark (MARK_HELLO, "hello", 0);

  /* The (algorithm, mode) units of this shard, in enumeration order.  */
  std::vector<std::pair<const cipher_spec *, const Variant *>> units;
  for (int i = 0; const cipher_spec *spec = _gcry_cipher_spec_nth (i); i++)
    {
      if (!o.algos.empty () && !o.algos.count (spec->name))
        continue;
      if (const char *why = non_ct_reason (spec->algo))
        {
          if (o.shard == 0)
            std::printf ("ct: NOTCT %s: not constant time by design (%s)\n",
                         spec->name, why);
          continue;
        }
      /* Modes the library serves for this algorithm but this program
       * has no driver for: said, never silently skipped.  */
      for (int m = 1; m < 64; m++)
        if (_gcry_cipher_mode_supported (spec, m) && !have_variant_for_mode (m)
            && o.shard == 0)
          {
            std::printf ("ct: FAIL %s/mode-%d: no driver in ct-check\n",
                         spec->name, m);
            nfail++;
          }

      for (const Variant &v : variants)
        {
          if (!_gcry_cipher_mode_supported (spec, v.mode))
            continue;
          if (!o.modes.empty () && !o.modes.count (v.label))
            continue;
          gcry_cipher_hd_t probe;
          if (gcry_cipher_open (&probe, spec->algo, v.mode, v.flags))
            continue;   /* Flag not valid with this mode/algorithm.  */
          gcry_cipher_close (probe);
          if ((int) (unit++ % (unsigned) o.nshards) == o.shard)
            units.push_back ({ spec, &v });
        }
    }

  /* Under ct-trace, whose time budget may stop it part way, the units
   * go in a spread order (a stride coprime to their number), so a
   * partial run samples every algorithm and mode rather than the first
   * algorithms whole.  Under memcheck, enumeration order.  */
  std::vector<size_t> order (units.size ());
  for (size_t k = 0; k < order.size (); k++)
    order[k] = k;
  if (trace_salt >= 0 && units.size () > 2)
    {
      size_t stride = units.size () * 5 / 8 + 1;
      while (std::gcd (stride, units.size ()) != 1)
        stride++;
      for (size_t k = 0; k < order.size (); k++)
        order[k] = k * stride % units.size ();
    }

  for (size_t ui : order)
    {
      const cipher_spec *spec = units[ui].first;
      {
          const Variant &v = *units[ui].second;

          /* Candidate hwf masks: each implementation, and for GCM /
           * GCM-SIV combined with each GHASH back end.  The library
           * picks the first entry whose bits are all present, so a
           * union may select a faster entry; the chosen names decide
           * what a path is (dedup below).  */
          const bool aux_modes = v.mode == GCRY_CIPHER_MODE_GCM
                                 || v.mode == GCRY_CIPHER_MODE_GCM_SIV;
          std::vector<unsigned int> masks;
          if (!spec->impls || !spec->n_impls)
            masks.push_back (all_hwf);   /* No list: the default path. */
          for (size_t k = 0; spec->impls && k < spec->n_impls; k++)
            {
              if (!aux_modes)
                masks.push_back (spec->impls[k].hwf);
              else
                for (size_t g = 0; g < _gcry_gcm_n_ghash_impls; g++)
                  masks.push_back (spec->impls[k].hwf
                                   | _gcry_gcm_ghash_impls[g].hwf);
            }
          std::set<std::string> done;
          for (unsigned int mask : masks)
            {
              if ((mask & all_hwf) != mask)
                continue;   /* Listed as not covered below.  */
              _gcry_hwf_set_test_mask (mask);
              std::string plabel;
              PathCtx p;
              p.spec = spec;
              p.v = &v;
              p.bs = spec->blocksize;
              /* AES-WRAP opens for 64-bit-block ciphers but refuses
               * every call (GPG_ERR_INV_LENGTH, as libgcrypt).  */
              if (v.kind == K_WRAP && p.bs != 16)
                break;
              p.keylen = spec->keylen / 8;
              if (v.mode == GCRY_CIPHER_MODE_XTS
                  || v.mode == GCRY_CIPHER_MODE_SIV)
                p.keylen *= 2;
              p.verbose = o.verbose;
              const uint64_t seed = hash_str (std::string (spec->name) + "/"
                                              + v.label);
              p.key = salted (Prng (seed ^ 0x6b6579).bytes (p.keylen), seed);

              /* Which path does this mask give?  Probe with a public key
               * and (GCM-SIV) a public message of the longest length.  */
              {
                gcry_cipher_hd_t h;
                if (gcry_cipher_open (&h, spec->algo, v.mode, v.flags))
                  continue;
                gcry_error_t err = gcry_cipher_setkey (h, p.key.data (),
                                                       p.keylen);
                if (gcry_err_code (err) == GPG_ERR_INV_KEYLEN)
                  {
                    /* E.g. GCM-SIV takes 16- or 32-byte keys only.  */
                    gcry_cipher_close (h);
                    if (o.verbose)
                      std::printf ("ct: (%s/%s: key length %zu refused)\n",
                                   spec->name, v.label, p.keylen);
                    break;
                  }
                std::string id = h->impl_name ? h->impl_name : "?";
                /* The path's label as printed below (for --skip).  */
                plabel = std::string (spec->name) + "/" + id + "/"
                         + v.label;
                if (v.mode == GCRY_CIPHER_MODE_POLY1305)
                  plabel += std::string ("/poly1305-") + poly1305_path_now ();
                if (v.mode == GCRY_CIPHER_MODE_GCM)
                  {
                    const char *g = _gcry_cipher_gcm_ghash_name (h);
                    id += std::string ("+ghash:") + (g ? g : "?");
                    plabel += std::string ("/ghash:") + (g ? g : "?");
                  }
                else if (v.mode == GCRY_CIPHER_MODE_GCM_SIV)
                  {
                    Bytes iv (12, 7), m (33 * 16 + 7, 9), c (m.size ()),
                      t (16);
                    gcry_cipher_setiv (h, iv.data (), iv.size ());
                    gcry_cipher_encrypt (h, c.data (), c.size (), m.data (),
                                         m.size ());
                    gcry_cipher_gettag (h, t.data (), t.size ());
                    const char *n = _gcry_cipher_gcm_siv_polyval_name (h);
                    id += std::string ("+polyval:") + (n ? n : "?");
                    plabel += std::string ("/polyval:") + (n ? n : "?");
                  }
                gcry_cipher_close (h);
                if (done.count (id))
                  continue;
                done.insert (id);
              }
              if (trace_salt >= 0 && trace_skip.count (plabel))
                continue;   /* Checked under valgrind.  */

              const std::string fam = family_of (spec);
              const unsigned long before = memcheck_errors ();
              if (o.verbose)
                std::printf ("ct: run %s/%s mask %#x\n", spec->name, v.label,
                             mask);
              std::fflush (stdout);
              trace_setkeys_left = 1;
              run_messages (p, seed);
              const unsigned long reports = memcheck_errors () - before;

              std::string label = std::string (spec->name) + "/" + p.impl
                                  + "/" + v.label;
              if (!p.aux.empty ())
                label += (v.mode == GCRY_CIPHER_MODE_GCM ? "/ghash:"
                          : v.mode == GCRY_CIPHER_MODE_POLY1305 ? "/"
                                                                : "/polyval:")
                         + p.aux;
              covered.insert (fam + "/" + p.impl);
              if (!p.aux.empty ())
                covered.insert (
                  (p.aux.compare (0, 8, "polyval-") == 0    ? "polyval/"
                   : p.aux.compare (0, 9, "poly1305-") == 0 ? "poly1305/"
                                                            : "ghash/")
                  + p.aux);

              /* Every path of a (algorithm, mode) must give the same
               * public outputs.  */
              const std::string key = std::string (spec->name) + "/"
                                      + v.label;
              if (p.fail.empty ())
                {
                  auto it = first_transcript.find (key);
                  if (it == first_transcript.end ())
                    first_transcript[key] = p.transcript;
                  else if (it->second != p.transcript)
                    p.fail = "output differs from the first path of "
                             + key;
                }
              total++;
              if (reports || !p.fail.empty ())
                {
                  nfail++;
                  std::printf ("ct: FAIL %s:", label.c_str ());
                  if (reports)
                    std::printf (" %lu memcheck report%s", reports,
                                 reports == 1 ? "" : "s");
                  if (!p.fail.empty ())
                    std::printf ("%s%s", reports ? "; " : " ",
                                 p.fail.c_str ());
                  std::printf ("\n");
                }
              else
                std::printf ("ct: PASS %s\n", label.c_str ());
              std::fflush (stdout);
              if (trace_salt >= 0)
                ct_trace_mark (MARK_PATH, label.c_str (),
                               !reports && p.fail.empty ());
            }
          _gcry_hwf_set_test_mask (~0u);
        }
    }

  /* Not covered: what the host has (or, without --host, what is
   * compiled in) and no path above exercised.  Printed by shard 0 from
   * the hwf, so all shards agree.  */
  if (o.shard == 0)
    for (const Component &c : components ())
      {
        const bool here = component_available (c);
        if (here)
          continue;   /* Runnable here: exercised by some shard.  */
        if (o.have_host && !o.host.count (c.id))
          continue;   /* Not on this CPU either: not a valgrind gap.  */
        std::string why;
        if (c.hwf_known)
          why = (under_valgrind () ? "valgrind's CPU lacks "
                                   : "this CPU lacks ")
                + hwf_names (c.hwf & ~all_hwf);
        else
          why = under_valgrind () ? "not runnable under valgrind"
                                  : "not on this CPU";
        if (o.have_host || !under_valgrind ())
          std::printf ("ct: NOTCOVERED %s: %s\n", c.id.c_str (), why.c_str ());
        else
          std::printf ("ct: NOTCOVERED %s: %s (or absent on the host)\n",
                       c.id.c_str (), why.c_str ());
      }
  (void) covered;

  std::printf ("ct: summary %u paths checked, %u failed\n", total, nfail);
  return nfail ? 1 : 0;
}

int
print_host_paths ()
{
  std::string s;
  for (const Component &c : components ())
    if (component_available (c))
      {
        if (!s.empty ())
          s += ",";
        s += c.id;
      }
  std::printf ("%s\n", s.c_str ());
  return 0;
}

} // namespace

int
main (int argc, char **argv)
{
  Options o;
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      if (!std::strcmp (a, "--host-paths"))
        o.host_paths = true;
      else if (!std::strncmp (a, "--host=", 7))
        {
          o.have_host = true;
          std::string l = a + 7;
          size_t pos = 0;
          while (pos <= l.size ())
            {
              size_t e = l.find (',', pos);
              if (e == std::string::npos)
                e = l.size ();
              if (e > pos)
                o.host.insert (l.substr (pos, e - pos));
              pos = e + 1;
            }
        }
      else if (!std::strncmp (a, "--shard=", 8))
        {
          if (std::sscanf (a + 8, "%d/%d", &o.shard, &o.nshards) != 2
              || o.nshards < 1 || o.shard < 0 || o.shard >= o.nshards)
            {
              std::fprintf (stderr, "ct-check: bad %s\n", a);
              return 2;
            }
        }
      else if (!std::strncmp (a, "--algo=", 7))
        o.algos.insert (a + 7);
      else if (!std::strncmp (a, "--mode=", 7))
        o.modes.insert (a + 7);
      else if (!std::strncmp (a, "--trace-salt=", 13))
        trace_salt = std::atoi (a + 13);
      else if (!std::strncmp (a, "--skip=", 7))
        {
          FILE *f = std::fopen (a + 7, "r");
          char line[512];
          while (f && std::fgets (line, sizeof line, f))
            {
              line[std::strcspn (line, "\n")] = 0;
              trace_skip.insert (line);
            }
          if (f)
            std::fclose (f);
        }
      else if (!std::strcmp (a, "-v"))
        o.verbose = true;
      else
        {
          std::fprintf (stderr, "usage: ct-check [--host-paths] [--host=LIST]"
                        " [--shard=K/N] [--algo=NAME] [--mode=LABEL] [-v]"
                        " [--trace-salt=K] [--skip=FILE]\n");
          return 2;
        }
    }
  if (!gcry_check_version (nullptr))
    return 2;
  if (o.host_paths)
    return print_host_paths ();
#ifndef CT_HAVE_VALGRIND
  std::printf ("ct: FAIL ct-check: built without <valgrind/memcheck.h> "
               "(install valgrind)\n");
  return 1;
#else
  if (!under_valgrind ())
    std::printf ("ct: note: not under valgrind: functional run only, no "
                 "constant-time check\n");
  _gcry_ct_public_hook = public_hook;
  return run_all (o);
#endif
}
