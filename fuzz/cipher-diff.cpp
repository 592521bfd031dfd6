/* cipher-diff.cpp - libFuzzer target: gcipher against the system
 * libgcrypt, call for call.
 *
 * Each input is decoded into one handle's life: open (any algorithm id,
 * mode, flags), then a sequence of API calls, every call issued on
 * gcipher (linked statically, built with ASan/UBSan and coverage) and on
 * the system libgcrypt (loaded with dlmopen into its own link-map
 * namespace, tests/sysgcrypt.h).  Every return value (gcry_error_t:
 * source and code) must be equal, and every output byte: whole output
 * buffers (also where a call fails: libgcrypt fills a failed encrypt's
 * output with 0x42 and gcipher does the same), gettag buffers, ctl and
 * info out-parameters.  The first difference aborts with the call
 * trace; libFuzzer then saves the input (crash-*), which
 *   fuzz-build/cipher-diff -runs=1 crash-...   (GCIPHER_FUZZ_TRACE=1 for
 *   the whole trace)
 * replays.  See doc/gcipher.md "Differential fuzzing".
 *
 * ---- Input format (fuzz/make-corpus writes seeds in it) --------------
 * Bytes are read front to back; past the end every read gives 0 (and the
 * op loop stops).
 *
 *   header  A M F P
 *     A  algorithm: A < 0xf0: the (A mod n)th algorithm gcipher
 *        implements (enumerated at run time, so ciphers added later are
 *        fuzzed without a change here); else an id neither library
 *        knows (unknown_algos[]).
 *     M  mode: M mod 18 (0..16 are GCRY_CIPHER_MODE_*, 17 is invalid);
 *        M >= 0xf0: 0x10001 (libgcrypt-internal CMAC), 99 or -1.
 *     F  open flags: bits 0-4 as GCRY_CIPHER_SECURE, ENABLE_SYNC,
 *        CBC_CTS, CBC_MAC, EXTENDED; bit 5 adds the undefined flag 0x40;
 *        bit 7 clears gcipher's bulk table after every setkey (the
 *        per-block fallbacks; generic six modes only).
 *     P  gcipher path: 0 = all features; k = the hwf mask of the
 *        algorithm's (k-1 mod n)th implementation (rijndael: vaes-avx512,
 *        vaes-avx2, aesni, generic, ...), also steering the GHASH and
 *        POLYVAL back ends.
 *   ops, each one byte (mod 16) and its arguments:
 *     0 setkey    K S [key]    K < 0x80: a length valid for the algorithm
 *                              and mode (good_keylens), else K mod 72;
 *                              S bit 0: key bytes from the input, else
 *                              from the pattern at offset S*7.
 *     1 setiv     L S [iv]     L < 0x80: ivlens[L mod 10], else L mod 48;
 *                              S bit 0 bytes from the input; S bit 1 NULL
 *                              (generic modes only, see SKIPS).
 *     2 setctr    L S [ctr]    ctrlens[L mod 6]; S as setiv (NULL in any
 *                              mode).
 *     3 authenticate  LEN S... data as for encrypt's source (D below).
 *     4 encrypt   C LEN [...]  C bits 0-1: 0/3 separate buffers, 1 in =
 *     5 decrypt                NULL (in place, libgcrypt then takes
 *                              OUTSIZE as the length), 2 in == out;
 *                              bits 2-3: 0/1 OUTSIZE = INLEN, 2 OUTSIZE
 *                              larger by a byte mod 24, 3 smaller by a
 *                              byte mod (INLEN+1); bits 4-5 data source
 *                              D: 0 pattern at offset byte*13, 1 input
 *                              bytes, 2 the last successful output, 3 the
 *                              same with bit u16 mod (8*INLEN) flipped;
 *                              bit 6: INLEN rounded down to the block
 *                              size; bit 7: split into 1 + byte mod 6
 *                              calls of lengths LEN each (the last takes
 *                              the rest).
 *                              LEN: byte b < 0xa0: b mod 80; b < 0xf0:
 *                              (b-0xa0)*16 + next byte mod 16; else next
 *                              u16 (little endian) mod 16384.
 *     6 gettag    T            T mod 36 bytes (buffer 40 bytes).
 *     7 checktag  T S          T < 0x80: the last tag's length, else T mod
 *                              36; S mod 3: the last gettag output, the
 *                              same with a bit flipped, input bytes.
 *     8 reset
 *     9 ctl       X ...        X mod 7: CFB_SYNC; SET_CBC_CTS (NULL, b mod
 *                              2); SET_CBC_MAC; libgcrypt's private 62
 *                              (input vector; buflen 15 + b mod 4);
 *                              another command ctl_cmds[b mod n] with
 *                              buffer or NULL and buflen b mod 20;
 *                              FINALIZE with bad arguments;
 *                              SET_ALLOW_WEAK_KEY (NULL or buffer, buflen
 *                              b mod 3).
 *    10 info      W B          what = {GET_TAGLEN, GET_KEYLEN, 0, 99}[W
 *                              mod 4]; B bit 0 buffer, bit 1 nbytes.
 *    11 final     gcry_cipher_final.
 *    12 set decryption tag  L S   L < 0x80: 16, else L mod 20; S mod 3
 *                              as checktag.
 *    13 set CCM lengths  LEN LEN T Z   {data, aad, T mod 20} as u64[3];
 *                              buflen 24, or 16 when Z is odd.
 *    14 set taglen  T Z        int T mod 20; buflen sizeof (int), or Z
 *                              mod 9 when Z >= 0x80.
 *    15 algorithm queries (no handle): get_algo_keylen/blklen,
 *                              algo_info (GET_KEYLEN, GET_BLKLEN,
 *                              TEST_ALGO), algo_name, map_name.
 *
 * ---- SKIPS: inputs the system libgcrypt must not see ----------------
 * libgcrypt 1.10 crashes or computes with freed/stale state in a few
 * cases where gcipher deliberately answers differently (doc/gcipher.md,
 * "Compatibility notes" and "Differential fuzzing"); the target never
 * sends those calls (counted per reason, printed at exit):
 *   null-buffer   NULL with a nonzero length: never generated, except
 *                 setiv (IV) in the generic modes and setctr, which
 *                 libgcrypt treats as "zero".  Buffers never partially
 *                 overlap (disjoint, in == out, or in == NULL only).
 *   no-key        an AEAD mode (CCM, GCM, OCB, EAX, SIV, GCM-SIV,
 *                 Poly1305) or STREAM (libgcrypt's Salsa20 setiv
 *                 crashes on a never-keyed handle) whose handle has no valid key (never keyed,
 *                 or the last setkey failed): setiv, authenticate,
 *                 encrypt, decrypt (SIV decrypts with the stale key),
 *                 gettag, checktag and SET_CCM_LENGTHS are skipped
 *                 (libgcrypt dereferences the missing key schedule, or
 *                 uses the stale one gcipher has wiped).
 *   gcm-partial   GCM setiv (or reset) while the message has a pending
 *                 partial AAD/text block and no tag yet: libgcrypt hashes
 *                 the stale partial block into the next message; gcipher
 *                 follows SP 800-38D.  The input stops there.
 *   kwp-empty     AES-WRAP with padding (EXTENDED) of an empty input:
 *                 libgcrypt reads past the input.
 *   kwp-inplace   the same, wrapping in place: in == out of any length,
 *                 or in == NULL with 1..8 bytes: libgcrypt 1.10 returns a
 *                 result other than the one it gives out of place (which
 *                 is RFC 5649's, and what gcipher gives always).
 *   kw-iv         AES-WRAP unwrap with an IV other than A6..A6 set:
 *                 libgcrypt 1.10 also accepts data wrapped with the
 *                 default IV (RFC 3394 2.2.3 checks the given IV only,
 *                 as gcipher does).
 *   cts-short     a short output buffer on a non-CBC handle with the
 *                 CBC_CTS flag set by ctl (e.g. ARCFOUR), or on any STREAM
 *                 handle: libgcrypt 1.10 skips its length check, succeeds
 *                 and writes past the buffer; gcipher answers
 *                 GPG_ERR_BUFFER_TOO_SHORT.
 *   ccm-rekey     setkey while a CCM or EAX message is under way (nonce
 *                 set): libgcrypt goes on with the old message (EAX: its
 *                 CMAC states and counter continue under the new key),
 *                 gcipher's setkey starts clean.  The input stops there.
 *   sys-only      an (algorithm, mode) only the system library serves:
 *                 gcipher answers GPG_ERR_CIPHER_ALGO or
 *                 GPG_ERR_INV_CIPHER_MODE; not a difference, input ends.
 *   ctl-62        libgcrypt's private command 62 (CFB/OFB input vector)
 *                 only in the generic modes: elsewhere it dumps
 *                 libgcrypt's internal IV buffer (e.g. EAX on IDEA),
 *                 which gcipher does not mirror.
 *   sync-mac      GCRYCTL_CFB_SYNC on a CCM or EAX handle opened with
 *                 ENABLE_SYNC: libgcrypt 1.10 keeps CCM's CBC-MAC and
 *                 EAX's N (after gettag: the tag) in the buffer the
 *                 OpenPGP sync shifts, so its tag changes (a second
 *                 gettag of the same message even returns another tag);
 *                 gcipher's sync leaves the MAC state alone.
 *   ccm-setctr    setctr on a CCM handle: gcipher's CCM takes its nonce
 *                 and q from its own A_0 and restarts the counter at A_1
 *                 at SET_CCM_LENGTHS (RFC 3610 2.3); libgcrypt 1.10 mixes
 *                 the written counter into its message.
 *   sbox-name     GCRYCTL_SET_SBOX always gets a NUL-terminated name
 *                 in its buffer: libgcrypt 1.10 reads the buffer as a C
 *                 string whatever the length and crashes on NULL
 *                 (gcipher answers GPG_ERR_VALUE_NOT_FOUND).
 *   disable-algo  GCRYCTL_DISABLE_ALGO is never sent (it is permanent for
 *                 the process; tests/t-api-diff checks it in a child).
 */
#include <config.h>

#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "gcrypt.h"
#include "g10lib.h"
#include "cipher-internal.h"
#include "sysgcrypt.h"

namespace {

/* ---- Set up once -------------------------------------------------------- */

const sysgcrypt *sys;
std::vector<int> algos;              /* What gcipher implements.  */
const int unknown_algos[] = { 0, 11, 12, 299, 400, 999, 65536, -1 };
std::vector<uint8_t> pattern;        /* Cheap data: 32 KiB.  */
bool trace_all;                      /* GCIPHER_FUZZ_TRACE=1.  */

/* Skip counters (printed at exit) and a few totals.  */
enum SkipReason
{
  SKIP_NO_KEY, SKIP_GCM_PARTIAL, SKIP_KWP_EMPTY, SKIP_KWP_INPLACE,
  SKIP_KW_IV, SKIP_CTS_SHORT, SKIP_CCM_REKEY, SKIP_SYS_ONLY, SKIP_SYNC_MAC,
  SKIP_CCM_SETCTR, N_SKIPS
};
const char *const skip_names[N_SKIPS] = { "no-key", "gcm-partial",
                                          "kwp-empty", "kwp-inplace",
                                          "kw-iv", "cts-short", "ccm-rekey", "sys-only",
                                          "sync-mac", "ccm-setctr" };
unsigned long skips[N_SKIPS];
unsigned long n_inputs, n_calls, n_opened;

void
quiet_log (void *, int, const char *, va_list)
{
}

void
print_stats ()
{
  fprintf (stderr, "cipher-diff: %lu inputs, %lu handles opened, %lu "
           "compared calls; skipped:", n_inputs, n_opened, n_calls);
  for (int i = 0; i < N_SKIPS; i++)
    fprintf (stderr, " %s=%lu", skip_names[i], skips[i]);
  fprintf (stderr, "\n");
}

/* ---- Input reader ------------------------------------------------------ */

class Reader
{
public:
  Reader (const uint8_t *d, size_t n) : d_ (d), n_ (n) {}
  bool more () const { return pos_ < n_; }
  uint8_t
  u8 ()
  {
    return pos_ < n_ ? d_[pos_++] : 0;
  }
  uint16_t
  u16 ()
  {
    uint16_t lo = u8 ();
    return (uint16_t) (lo | (u8 () << 8));
  }
  /* N bytes from the input, zero past its end.  */
  std::vector<uint8_t>
  bytes (size_t n)
  {
    std::vector<uint8_t> v (n, 0);
    size_t k = pos_ < n_ ? (n_ - pos_ < n ? n_ - pos_ : n) : 0;
    if (k)
      memcpy (v.data (), d_ + pos_, k);
    pos_ += k;
    return v;
  }
  /* The LEN encoding of the header comment.  */
  size_t
  len ()
  {
    uint8_t b = u8 ();
    if (b < 0xa0)
      return b % 80;
    if (b < 0xf0)
      return (size_t) (b - 0xa0) * 16 + u8 () % 16;
    return u16 () % 16384;
  }

private:
  const uint8_t *d_;
  size_t n_;
  size_t pos_ = 0;
};

/* ---- The pair of handles ----------------------------------------------- */

bool
is_keyed_mode (int mode)
{
  switch (mode)
    {
    case GCRY_CIPHER_MODE_CCM:
    case GCRY_CIPHER_MODE_GCM:
    case GCRY_CIPHER_MODE_OCB:
    case GCRY_CIPHER_MODE_EAX:
    case GCRY_CIPHER_MODE_SIV:
    case GCRY_CIPHER_MODE_GCM_SIV:
    case GCRY_CIPHER_MODE_POLY1305:
    case GCRY_CIPHER_MODE_STREAM:  /* Salsa20 setiv without key: crash. */
      return true;
    default:
      return false;
    }
}

bool
is_generic_mode (int mode)
{
  switch (mode)
    {
    case GCRY_CIPHER_MODE_ECB:
    case GCRY_CIPHER_MODE_CBC:
    case GCRY_CIPHER_MODE_CFB:
    case GCRY_CIPHER_MODE_CFB8:
    case GCRY_CIPHER_MODE_OFB:
    case GCRY_CIPHER_MODE_CTR:
      return true;
    default:
      return false;
    }
}

std::string
hex (const uint8_t *p, size_t n)
{
  static const char digits[] = "0123456789abcdef";
  std::string s;
  size_t m = n > 96 ? 96 : n;
  for (size_t i = 0; i < m; i++)
    {
      s += digits[p[i] >> 4];
      s += digits[p[i] & 15];
    }
  if (m < n)
    s += "...(" + std::to_string (n) + " bytes)";
  return s;
}

std::string
err_str (gcry_error_t e)
{
  return std::to_string (gcry_err_source (e)) + "/"
         + std::to_string (gcry_err_code (e)) + " (" + gcry_strerror (e)
         + ")";
}

class Run
{
public:
  std::string trace;
  gcry_cipher_hd_t ha = nullptr, hb = nullptr;
  int algo = 0, mode = 0;
  unsigned int flags = 0;
  size_t blklen = 16, keylen = 16;
  bool strip_bulk = false;
  std::vector<uint8_t> last_out, last_tag;
  /* GCM message bookkeeping (the gcm-partial skip).  */
  bool gcm_started = false, gcm_tagged = false;
  uint64_t gcm_aad = 0, gcm_data = 0;
  bool ccm_nonce = false;

  ~Run ()
  {
    if (ha)
      gcry_cipher_close (ha);
    if (hb)
      sys->cipher_close (hb);
  }

  void
  note (const std::string &s)
  {
    n_calls++;
    if (trace_all)
      fprintf (stderr, "  %s\n", s.c_str ());
    trace += s;
    trace += '\n';
    if (trace.size () > 20000)
      trace.erase (0, trace.size () - 12000);
  }

  [[noreturn]] void
  mismatch (const std::string &what)
  {
    fprintf (stderr, "\n==== cipher-diff: gcipher and libgcrypt differ ====\n"
             "%s\n---- calls so far (algo %d, mode %d, flags %#x) ----\n%s",
             what.c_str (), algo, mode, flags, trace.c_str ());
    abort ();
  }

  gcry_error_t
  same (gcry_error_t ea, gcry_error_t eb, const char *what)
  {
    if (ea != eb)
      mismatch (std::string (what) + ": gcipher " + err_str (ea)
                + ", libgcrypt " + err_str (eb));
    return ea;
  }

  void
  same_bytes (const uint8_t *a, const uint8_t *b, size_t n, const char *what)
  {
    if (n && memcmp (a, b, n))
      mismatch (std::string (what) + ": output differs\n gcipher   "
                + hex (a, n) + "\n libgcrypt " + hex (b, n));
  }

  bool key_valid () const { return ha && ha->marks.key; }

  /* True (and the counter bumped) if an AEAD call must not run now.  */
  bool
  skip_no_key ()
  {
    if (is_keyed_mode (mode) && !key_valid ())
      {
        skips[SKIP_NO_KEY]++;
        return true;
      }
    return false;
  }

  bool
  gcm_pending () const
  {
    if (mode != GCRY_CIPHER_MODE_GCM || !gcm_started || gcm_tagged)
      return false;
    return gcm_data ? gcm_data % 16 != 0 : gcm_aad % 16 != 0;
  }

  void
  gcm_begin ()
  {
    gcm_started = true;
    gcm_tagged = false;
    gcm_aad = gcm_data = 0;
  }

  /* ---- Calls ---- */

  void
  setkey (const uint8_t *key, size_t len)
  {
    note ("setkey len=" + std::to_string (len) + " " + hex (key, len));
    same (gcry_cipher_setkey (ha, key, len), sys->cipher_setkey (hb, key, len),
          "setkey");
    if (strip_bulk)
      memset (&ha->bulk, 0, sizeof ha->bulk);
  }

  void
  setiv (const uint8_t *iv, size_t len)
  {
    note (std::string ("setiv ") + (iv ? hex (iv, len) : "NULL") + " len="
          + std::to_string (len));
    gcry_error_t e = same (gcry_cipher_setiv (ha, iv, len),
                           sys->cipher_setiv (hb, iv, len), "setiv");
    if (mode == GCRY_CIPHER_MODE_GCM)
      {
        if (!e)
          gcm_begin ();
        else
          gcm_started = false;
      }
    if ((mode == GCRY_CIPHER_MODE_CCM || mode == GCRY_CIPHER_MODE_EAX) && !e)
      ccm_nonce = true;
  }

  void
  setctr (const uint8_t *ctr, size_t len)
  {
    note (std::string ("setctr ") + (ctr ? hex (ctr, len) : "NULL") + " len="
          + std::to_string (len));
    same (gcry_cipher_setctr (ha, ctr, len), sys->cipher_setctr (hb, ctr, len),
          "setctr");
  }

  void
  authenticate (const std::vector<uint8_t> &a, size_t len)
  {
    note ("authenticate len=" + std::to_string (len));
    std::vector<uint8_t> ca (a), cb (a);  /* A has 16 bytes of slack.  */
    gcry_error_t e
      = same (gcry_cipher_authenticate (ha, ca.data (), len),
              sys->cipher_authenticate (hb, cb.data (), len),
              "authenticate");
    if (!e && mode == GCRY_CIPHER_MODE_GCM)
      {
        if (!gcm_started)
          gcm_begin ();
        gcm_aad += len;
      }
  }

  enum InMode { SEPARATE, IN_NULL, IN_EQ_OUT };

  /* One encrypt or decrypt call on DATA (INLEN bytes).  gcipher's
   * buffers are exact-size heap blocks (ASan sees any access past
   * them); libgcrypt's carry a guard that must stay untouched.  */
  void
  crypt (bool enc, const uint8_t *data, size_t inlen, size_t outsize,
         InMode im)
  {
    if ((ha->flags & GCRY_CIPHER_CBC_CTS) && mode != GCRY_CIPHER_MODE_CBC
        && im != IN_NULL && outsize < inlen)
      {
        skips[SKIP_CTS_SHORT]++;  /* libgcrypt writes past OUTSIZE.  */
        return;
      }
    if (mode == GCRY_CIPHER_MODE_STREAM && im != IN_NULL && outsize < inlen)
      {
        skips[SKIP_CTS_SHORT]++;  /* Likewise (STREAM never checks).  */
        return;
      }
    note (std::string (enc ? "encrypt" : "decrypt") + " inlen="
          + std::to_string (inlen) + " outsize=" + std::to_string (outsize)
          + (im == SEPARATE ? "" : im == IN_NULL ? " in=NULL" : " in=out")
          + " in=" + hex (data, inlen));
    const size_t guard = 32;
    size_t bufsize = outsize;
    if (im == IN_EQ_OUT && inlen > bufsize)
      bufsize = inlen;
    uint8_t *oa = static_cast<uint8_t *> (malloc (bufsize ? bufsize : 1));
    uint8_t *ob = static_cast<uint8_t *> (malloc (bufsize + guard));
    for (size_t i = 0; i < bufsize + guard; i++)
      {
        uint8_t v = (uint8_t) (0xc3 ^ (i * 7));
        if (i < bufsize)
          oa[i] = v;
        ob[i] = v;
      }
    uint8_t *ia = nullptr, *ib = nullptr;
    if (im == SEPARATE)
      {
        ia = static_cast<uint8_t *> (malloc (inlen ? inlen : 1));
        ib = static_cast<uint8_t *> (malloc (inlen ? inlen : 1));
        memcpy (ia, data, inlen);
        memcpy (ib, data, inlen);
      }
    else
      {
        size_t n = im == IN_NULL ? (outsize < inlen ? outsize : inlen) : inlen;
        memcpy (oa, data, n);
        memcpy (ob, data, n);
        if (im == IN_EQ_OUT)
          ia = oa, ib = ob;
      }
    gcry_error_t ea = (enc ? gcry_cipher_encrypt : gcry_cipher_decrypt)
                        (ha, oa, outsize, ia, inlen);
    gcry_error_t eb = (enc ? sys->cipher_encrypt : sys->cipher_decrypt)
                        (hb, ob, outsize, ib, inlen);
    same (ea, eb, enc ? "encrypt" : "decrypt");
    same_bytes (oa, ob, bufsize, enc ? "encrypt" : "decrypt");
    for (size_t i = bufsize; i < bufsize + guard; i++)
      if (ob[i] != (uint8_t) (0xc3 ^ (i * 7)))
        mismatch ("libgcrypt wrote past its output buffer");
    if (!ea)
      {
        last_out.assign (oa, oa + bufsize);
        if (mode == GCRY_CIPHER_MODE_GCM)
          {
            if (!gcm_started)
              gcm_begin ();
            gcm_data += im == IN_NULL ? outsize : inlen;
          }
      }
    free (oa);
    free (ob);
    if (im == SEPARATE)
      {
        free (ia);
        free (ib);
      }
  }

  void
  gettag (size_t taglen)
  {
    note ("gettag len=" + std::to_string (taglen));
    uint8_t ta[40], tb[40];
    memset (ta, 0x5c, sizeof ta);
    memset (tb, 0x5c, sizeof tb);
    gcry_error_t e = same (gcry_cipher_gettag (ha, ta, taglen),
                           sys->cipher_gettag (hb, tb, taglen), "gettag");
    same_bytes (ta, tb, sizeof ta, "gettag");
    if (!e)
      {
        last_tag.assign (ta, ta + (taglen < 16 ? taglen : 16));
        gcm_tagged = true;
      }
  }

  void
  checktag (const std::vector<uint8_t> &tag, size_t taglen)
  {
    note ("checktag len=" + std::to_string (taglen) + " "
          + hex (tag.data (), taglen));
    std::vector<uint8_t> ca (tag), cb (tag);
    ca.resize (taglen + 1);
    cb.resize (taglen + 1);
    gcry_error_t e = same (gcry_cipher_checktag (ha, ca.data (), taglen),
                           sys->cipher_checktag (hb, cb.data (), taglen),
                           "checktag");
    if (!e || gcry_err_code (e) == GPG_ERR_CHECKSUM)
      gcm_tagged = true;
  }

  /* ctl with an in/out buffer of 64 bytes holding INIT (NULL: the
   * buffer pointer itself is NULL); the buffers are compared.  */
  gcry_error_t
  ctl (int cmd, const uint8_t *init, size_t buflen)
  {
    note ("ctl cmd=" + std::to_string (cmd) + (init ? " buf" : " NULL")
          + " buflen=" + std::to_string (buflen)
          + (init ? " " + hex (init, buflen < 64 ? buflen : 64) : ""));
    uint8_t ba[64], bb[64];
    if (init)
      {
        memcpy (ba, init, 64);
        memcpy (bb, init, 64);
      }
    gcry_error_t e = same (gcry_cipher_ctl (ha, cmd, init ? ba : nullptr,
                                            buflen),
                           sys->cipher_ctl (hb, cmd, init ? bb : nullptr,
                                            buflen), "ctl");
    if (init)
      same_bytes (ba, bb, 64, "ctl buffer");
    return e;
  }

  void
  info (int what, bool buf, bool nbytes)
  {
    note ("info what=" + std::to_string (what) + (buf ? " buf" : "")
          + (nbytes ? " nbytes" : ""));
    uint8_t ba[32], bb[32];
    memset (ba, 0x11, sizeof ba);
    memset (bb, 0x11, sizeof bb);
    size_t na = 77, nb = 77;
    same (gcry_cipher_info (ha, what, buf ? ba : nullptr,
                            nbytes ? &na : nullptr),
          sys->cipher_info (hb, what, buf ? bb : nullptr,
                            nbytes ? &nb : nullptr), "info");
    if (na != nb)
      mismatch ("info: nbytes gcipher " + std::to_string (na) + " libgcrypt "
                + std::to_string (nb));
    same_bytes (ba, bb, sizeof ba, "info buffer");
  }
};

/* Handle-less queries on ALGO.  */
void
algo_queries (Run &r, int algo)
{
  r.note ("algo queries " + std::to_string (algo));
  if (gcry_cipher_get_algo_keylen (algo) != sys->cipher_get_algo_keylen (algo))
    r.mismatch ("get_algo_keylen");
  if (gcry_cipher_get_algo_blklen (algo) != sys->cipher_get_algo_blklen (algo))
    r.mismatch ("get_algo_blklen");
  for (int what : { GCRYCTL_GET_KEYLEN, GCRYCTL_GET_BLKLEN,
                    GCRYCTL_TEST_ALGO })
    {
      size_t na = 0, nb = 0;
      r.same (gcry_cipher_algo_info (algo, what, nullptr,
                                     what == GCRYCTL_TEST_ALGO ? nullptr : &na),
              sys->cipher_algo_info (algo, what, nullptr,
                                     what == GCRYCTL_TEST_ALGO ? nullptr : &nb),
              "algo_info");
      if (na != nb)
        r.mismatch ("algo_info nbytes");
    }
  const char *na = gcry_cipher_algo_name (algo);
  const char *nb = sys->cipher_algo_name (algo);
  if (strcmp (na, nb))
    r.mismatch (std::string ("algo_name ") + na + " vs " + nb);
  if (gcry_cipher_map_name (na) != sys->cipher_map_name (nb))
    r.mismatch ("map_name");
}

/* Data by source selector (the D of the header comment).  */
std::vector<uint8_t>
get_data (Reader &in, Run &r, unsigned int src, size_t len)
{
  std::vector<uint8_t> v;
  switch (src & 3)
    {
    case 0:
      {
        size_t off = (size_t) in.u8 () * 13;
        v.assign (pattern.begin () + off, pattern.begin () + off + len);
        break;
      }
    case 1:
      v = in.bytes (len);
      break;
    default:
      v = r.last_out;
      v.resize (len, 0);
      if ((src & 3) == 3 && len)
        {
          size_t bit = in.u16 () % (8 * len);
          v[bit / 8] ^= (uint8_t) (1u << (bit % 8));
        }
      break;
    }
  v.resize (len + 16, 0);  /* Never an empty (NULL) data pointer.  */
  return v;
}

std::vector<uint8_t>
get_tag (Reader &in, Run &r, size_t len)
{
  unsigned int s = in.u8 () % 3;
  std::vector<uint8_t> t;
  if (s == 2)
    t = in.bytes (len);
  else
    {
      t = r.last_tag;
      t.resize (len, 0);
      if (s == 1 && len)
        t[in.u8 () % len] ^= 0x01;
    }
  t.resize (len + 64, 0);
  return t;
}

/* Not 63: libgcrypt 1.11's private counter query, which gcipher serves
 * and the system 1.10 answers GPG_ERR_INV_OP.  */
const int ctl_cmds[] = { 0, 1, 2, GCRYCTL_GET_KEYLEN, GCRYCTL_GET_BLKLEN,
                         GCRYCTL_TEST_ALGO, GCRYCTL_IS_SECURE, 43, 57, 58,
                         59, 60, 61, 64, GCRYCTL_SET_SBOX, GCRYCTL_GET_TAGLEN,
                         81, 99, -1, 1000 };

void
run_input (const uint8_t *data, size_t size)
{
  Reader in (data, size);
  Run r;
  uint8_t a = in.u8 (), m = in.u8 (), f = in.u8 (), p = in.u8 ();
  r.algo = a < 0xf0 ? algos[a % algos.size ()]
                    : unknown_algos[a % (sizeof unknown_algos
                                         / sizeof unknown_algos[0])];
  static const int odd_modes[] = { 0x10001, 99, -1 };
  r.mode = m < 0xf0 ? m % 18 : odd_modes[m % 3];
  r.flags = (f & 0x1f) | ((f & 0x20) ? 0x40 : 0);
  r.strip_bulk = (f & 0x80) && is_generic_mode (r.mode);

  const cipher_spec *spec = _gcry_cipher_spec_from_algo (r.algo);
  unsigned int mask = ~0u;
  if (spec && p && spec->n_impls)
    mask = spec->impls[(p - 1) % spec->n_impls].hwf;
  _gcry_hwf_set_test_mask (mask);

  r.note ("open algo=" + std::to_string (r.algo) + " mode="
          + std::to_string (r.mode) + " flags=" + std::to_string (r.flags)
          + " hwf-mask=" + std::to_string (mask)
          + (r.strip_bulk ? " no-bulk" : ""));
  gcry_cipher_hd_t x = reinterpret_cast<gcry_cipher_hd_t> (1);
  gcry_cipher_hd_t y = reinterpret_cast<gcry_cipher_hd_t> (1);
  gcry_error_t ea = gcry_cipher_open (&x, r.algo, r.mode, r.flags);
  gcry_error_t eb = sys->cipher_open (&y, r.algo, r.mode, r.flags);
  if (!eb && y)
    r.hb = y;
  if (!ea && x)
    r.ha = x;
  if (ea && !eb && !_gcry_cipher_is_implemented (r.algo, r.mode, r.flags))
    {
      skips[SKIP_SYS_ONLY]++;
      return;  /* Only the system library serves this.  */
    }
  r.same (ea, eb, "open");
  if ((x == nullptr) != (y == nullptr))
    r.mismatch ("open: handle NULL-ness differs");
  algo_queries (r, r.algo);
  if (ea)
    return;
  n_opened++;
  r.blklen = gcry_cipher_get_algo_blklen (r.algo);
  r.keylen = gcry_cipher_get_algo_keylen (r.algo);
  const bool twokeys = r.mode == GCRY_CIPHER_MODE_XTS
                       || r.mode == GCRY_CIPHER_MODE_SIV;
  const size_t k1 = r.keylen;
  const size_t t = twokeys ? 2 : 1;
  const size_t good_keylens[] = { t * k1, t * 16, t * 24, t * 32, t * k1, 8 };

  for (int step = 0; step < 256 && in.more (); step++)
    {
      uint8_t op = in.u8 () % 16;
      switch (op)
        {
        case 0:  /* setkey */
          {
            uint8_t k = in.u8 (), s = in.u8 ();
            size_t len = k < 0x80 ? good_keylens[k % 6] : k % 72;
            std::vector<uint8_t> key
              = (s & 1) ? in.bytes (len)
                        : std::vector<uint8_t> (pattern.begin () + s * 7,
                                                pattern.begin () + s * 7
                                                + len);
            key.push_back (0);
            if ((r.mode == GCRY_CIPHER_MODE_CCM
                 || r.mode == GCRY_CIPHER_MODE_EAX) && r.ccm_nonce)
              {
                skips[SKIP_CCM_REKEY]++;
                return;
              }
            r.setkey (key.data (), len);
            break;
          }
        case 1:  /* setiv */
          {
            static const size_t ivlens[] = { 0, 12, 16, 13, 8, 15, 7, 24,
                                             0, 1 };
            uint8_t l = in.u8 (), s = in.u8 ();
            size_t len = l < 0x80 ? (l % 10 ? ivlens[l % 10] : r.blklen)
                                  : l % 48;
            std::vector<uint8_t> iv
              = (s & 1) ? in.bytes (len)
                        : std::vector<uint8_t> (pattern.begin () + l,
                                                pattern.begin () + l + len);
            iv.push_back (0);
            bool null = (s & 2) && is_generic_mode (r.mode);
            if (r.skip_no_key ())
              break;
            if (r.gcm_pending ())
              {
                skips[SKIP_GCM_PARTIAL]++;
                return;
              }
            r.setiv (null ? nullptr : iv.data (), len);
            break;
          }
        case 2:  /* setctr */
          {
            static const size_t ctrlens[] = { 0, 16, 0, 8, 17, 1 };
            uint8_t l = in.u8 (), s = in.u8 ();
            size_t len = l % 6 ? ctrlens[l % 6] : r.blklen;
            std::vector<uint8_t> ctr
              = (s & 1) ? in.bytes (len)
                        : std::vector<uint8_t> (pattern.begin () + l,
                                                pattern.begin () + l + len);
            ctr.push_back (0);
            if (r.mode == GCRY_CIPHER_MODE_CCM)
              {
                skips[SKIP_CCM_SETCTR]++;  /* See ccm-setctr in SKIPS.  */
                break;
              }
            r.setctr ((s & 2) ? nullptr : ctr.data (), len);
            break;
          }
        case 3:  /* authenticate */
          {
            size_t len = in.len ();
            std::vector<uint8_t> aad = get_data (in, r, in.u8 (), len);
            if (r.skip_no_key ())
              break;
            r.authenticate (aad, len);
            break;
          }
        case 4:  /* encrypt */
        case 5:  /* decrypt */
          {
            const bool enc = op == 4;
            uint8_t c = in.u8 ();
            size_t len = in.len ();
            if ((c & 0x40) && r.blklen)
              len -= len % r.blklen;
            Run::InMode im = (c & 3) == 1 ? Run::IN_NULL
                             : (c & 3) == 2 ? Run::IN_EQ_OUT : Run::SEPARATE;
            std::vector<uint8_t> d = get_data (in, r, (c >> 4) & 3, len);
            if (r.skip_no_key ())
              break;
            if (!enc && r.mode == GCRY_CIPHER_MODE_AESWRAP && r.ha->marks.iv
                && memcmp (r.ha->iv, "\xa6\xa6\xa6\xa6\xa6\xa6\xa6\xa6", 8))
              {
                skips[SKIP_KW_IV]++;
                break;
              }
            if (!(c & 0x80))
              {
                size_t outsize = len;
                if (((c >> 2) & 3) == 2)
                  outsize += in.u8 () % 24;
                else if (((c >> 2) & 3) == 3)
                  outsize -= in.u8 () % (len + 1);
                if (enc && r.mode == GCRY_CIPHER_MODE_AESWRAP
                    && (r.flags & GCRY_CIPHER_EXTENDED)
                    && (im == Run::IN_NULL ? outsize : len) == 0)
                  {
                    skips[SKIP_KWP_EMPTY]++;
                    break;
                  }
                if (enc && r.mode == GCRY_CIPHER_MODE_AESWRAP
                    && (r.flags & GCRY_CIPHER_EXTENDED) && im != Run::SEPARATE
                    && (im == Run::IN_EQ_OUT || outsize <= 8))
                  {
                    skips[SKIP_KWP_INPLACE]++;
                    break;
                  }
                r.crypt (enc, d.data (), len, outsize, im);
              }
            else
              {
                int n = 1 + in.u8 () % 6;
                size_t off = 0;
                for (int i = 0; i < n; i++)
                  {
                    size_t piece = i == n - 1 ? len - off : in.len ();
                    if (piece > len - off)
                      piece = len - off;
                    if (enc && r.mode == GCRY_CIPHER_MODE_AESWRAP
                        && (r.flags & GCRY_CIPHER_EXTENDED)
                        && (piece == 0 || im == Run::IN_EQ_OUT
                            || (piece <= 8 && im != Run::SEPARATE)))
                      {
                        skips[piece ? SKIP_KWP_INPLACE : SKIP_KWP_EMPTY]++;
                        continue;
                      }
                    r.crypt (enc, d.data () + off, piece, piece, im);
                    off += piece;
                  }
              }
            break;
          }
        case 6:  /* gettag */
          {
            size_t len = in.u8 () % 36;
            if (r.skip_no_key ())
              break;
            r.gettag (len);
            break;
          }
        case 7:  /* checktag */
          {
            uint8_t t = in.u8 ();
            size_t len = t < 0x80 ? r.last_tag.size () : t % 36;
            std::vector<uint8_t> tag = get_tag (in, r, len);
            if (r.skip_no_key ())
              break;
            r.checktag (tag, len);
            break;
          }
        case 8:  /* reset */
          if (r.gcm_pending ())
            {
              skips[SKIP_GCM_PARTIAL]++;
              return;
            }
          r.ctl (GCRYCTL_RESET, nullptr, 0);
          r.gcm_started = false;
          r.ccm_nonce = false;
          break;
        case 9:  /* other ctl */
          {
            uint8_t x = in.u8 () % 7, b = in.u8 ();
            uint8_t buf[64];
            memset (buf, 0x5a, sizeof buf);
            switch (x)
              {
              case 0:
                /* See sync-mac in SKIPS.  */
                if ((r.mode == GCRY_CIPHER_MODE_CCM
                     || r.mode == GCRY_CIPHER_MODE_EAX)
                    && (r.flags & GCRY_CIPHER_ENABLE_SYNC))
                  {
                    skips[SKIP_SYNC_MAC]++;
                    break;
                  }
                r.ctl (GCRYCTL_CFB_SYNC, nullptr, 0);
                break;
              case 1:
                r.ctl (GCRYCTL_SET_CBC_CTS, nullptr, b % 2);
                break;
              case 2:
                r.ctl (GCRYCTL_SET_CBC_MAC, nullptr, b % 2);
                break;
              case 3:
                /* libgcrypt's private input-vector query shows its
                 * internal IV buffer; only the generic modes define it
                 * (see ctl-62 in SKIPS).  */
                if (is_generic_mode (r.mode))
                  r.ctl (62, buf, 15 + b % 4);
                break;
              case 4:
                {
                  int cmd = ctl_cmds[b % (sizeof ctl_cmds
                                          / sizeof ctl_cmds[0])];
                  uint8_t z = in.u8 ();
                  if (cmd == GCRYCTL_SET_SBOX)
                    {
                      /* See sbox-name in SKIPS: a terminated name.  */
                      static const char *const names[] = {
                        "1.2.643.2.2.30.0", "1.2.643.2.2.31.1",
                        "1.2.643.2.2.31.4", "1.2.643.7.1.2.5.1.1",
                        "1.2.643.2.2", ""
                      };
                      const char *n = names[z % 6];
                      uint8_t name[64] = { 0 };
                      memcpy (name, n, strlen (n));
                      r.ctl (cmd, name, (z & 0x80) ? z % 20 : strlen (n));
                      break;
                    }
                  r.ctl (cmd, (z & 0x80) ? buf : nullptr,
                         (z & 0x80) ? z % 20 : 0);
                  break;
                }
              case 5:
                r.ctl (GCRYCTL_FINALIZE, (b & 1) ? buf : nullptr, b % 3);
                break;
              default:
                r.ctl (GCRYCTL_SET_ALLOW_WEAK_KEY, (b & 0x80) ? buf : nullptr,
                       b % 3);
                break;
              }
            break;
          }
        case 10:  /* info */
          {
            static const int whats[] = { GCRYCTL_GET_TAGLEN,
                                         GCRYCTL_GET_KEYLEN, 0, 99 };
            uint8_t w = in.u8 (), b = in.u8 ();
            r.info (whats[w % 4], b & 1, b & 2);
            break;
          }
        case 11:  /* final */
          r.ctl (GCRYCTL_FINALIZE, nullptr, 0);
          break;
        case 12:  /* set decryption tag */
          {
            uint8_t l = in.u8 ();
            size_t len = l < 0x80 ? 16 : l % 20;
            std::vector<uint8_t> tag = get_tag (in, r, len);
            r.ctl (GCRYCTL_SET_DECRYPTION_TAG, tag.data (), len);
            break;
          }
        case 13:  /* set CCM lengths */
          {
            uint64_t params[8] = { 0 };
            params[0] = in.len ();
            params[1] = in.len ();
            params[2] = in.u8 () % 20;
            size_t buflen = (in.u8 () & 1) ? 16 : 24;
            if (r.skip_no_key ())
              break;
            r.ctl (GCRYCTL_SET_CCM_LENGTHS,
                   reinterpret_cast<const uint8_t *> (params), buflen);
            break;
          }
        case 14:  /* set taglen */
          {
            uint8_t t = in.u8 (), z = in.u8 ();
            uint8_t buf[64];
            memset (buf, 0, sizeof buf);
            int v = t % 20;
            memcpy (buf, &v, sizeof v);
            r.ctl (GCRYCTL_SET_TAGLEN, buf, z >= 0x80 ? z % 9 : sizeof (int));
            break;
          }
        default:  /* algorithm queries */
          algo_queries (r, r.algo);
          break;
        }
    }
}

} // namespace

extern "C" int
LLVMFuzzerInitialize (int *, char ***)
{
  sys = sysgcrypt_load ();
  if (!sys)
    {
      fprintf (stderr, "cipher-diff: system libgcrypt unavailable: %s\n",
               sysgcrypt_error ());
      exit (77);
    }
  gcry_check_version (nullptr);
  gcry_set_log_handler (quiet_log, nullptr);
  typedef void (*set_log_fn) (gcry_handler_log_t, void *);
  if (void *p = dlvsym (sys->dl, "gcry_set_log_handler", "GCRYPT_1.6"))
    reinterpret_cast<set_log_fn> (p) (quiet_log, nullptr);
  /* Only what both libraries know: gcipher's libgcrypt 1.11 algorithms
   * (ARIA) have nothing to be compared with in the system 1.10.  */
  for (int i = 0; const cipher_spec *s = _gcry_cipher_spec_nth (i); i++)
    if (strcmp (sys->cipher_algo_name (s->algo), "?") != 0)
      algos.push_back (s->algo);
  pattern.resize (32768 + 256 * 13 + 64);
  for (size_t i = 0; i < pattern.size (); i++)
    pattern[i] = (uint8_t) (i * 31 + (i >> 8) + 7);
  const char *t = getenv ("GCIPHER_FUZZ_TRACE");
  trace_all = t && *t == '1';
  fprintf (stderr, "cipher-diff: gcipher algorithms:");
  for (int a : algos)
    fprintf (stderr, " %s", gcry_cipher_algo_name (a));
  fprintf (stderr, "; system libgcrypt %s\n", sys->version);
  atexit (print_stats);
  return 0;
}

extern "C" int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  n_inputs++;
  if (trace_all)
    fprintf (stderr, "input %zu bytes\n", size);
  run_input (data, size);
  _gcry_hwf_set_test_mask (~0u);
  return 0;
}
