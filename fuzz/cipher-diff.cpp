/* cipher-diff.cpp - libFuzzer target: gcipher against libgcrypt, call
 * for call.
 *
 * Each input is decoded into one handle's life: open (any algorithm id,
 * mode, flags), then a sequence of API calls, every call issued on
 * gcipher (linked statically, built with ASan/UBSan and coverage) and on
 * the compared libgcrypt (loaded with dlmopen into its own link-map
 * namespace, tests/sysgcrypt.h): the system one, or the
 * libgcrypt.so.20 GCIPHER_FUZZ_LIBGCRYPT names (libgcrypt master beside
 * its own libgpg-error, which has ARIA and the private ctl 63; or
 * gcipher's own shared library, whose C ABI shell is then compared with
 * the static library, every call of the SKIPS included).  Every return value (gcry_error_t:
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
 *     P  gcipher path: 0 = all features; else k = P-1: the hwf mask of
 *        the algorithm's (k mod n)th implementation (rijndael:
 *        vaes-avx512, vaes-avx2, aesni, generic, ...); in GCM and
 *        GCM-SIV joined with the bits of GHASH back end
 *        (k / n) mod (1 + n_ghash) - 1 (none for 0), so every AES path
 *        meets every GHASH/POLYVAL back end (as tests/ct/ct-check does).
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
 *     4 encrypt   C LEN [X Y] [...]  C bits 0-1: 0 separate buffers,
 *     5 decrypt                1 in = NULL (in place, libgcrypt then
 *                              takes OUTSIZE as the length), 2 in ==
 *                              out, 3 gcipher's buffers laid out by X Y:
 *                              output misaligned by X mod 16 bytes, a
 *                              separate input by X / 16; Y bit 7: one
 *                              block, input and output partly
 *                              overlapping, the input first (bit 6
 *                              clear) or the output, 1 + Y mod 32 bytes
 *                              apart (Y mod 64 < 32) or 16 * (Y mod 64 -
 *                              31); the compared library gets separate
 *                              buffers (the separate-buffer result is
 *                              what gcipher promises);
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
 *   An op byte 0xf0 + N is probe N mod 13, LEN: a call on gcipher alone
 *   (see probe ()): NULL output (encrypt, decrypt, in-place), AAD, tag
 *   (gettag, checktag), key, IV, CCM lengths, decryption tag, tag
 *   length with LEN + 1 bytes; ctl 63 with LEN + 1 mod 40 bytes; an
 *   input length of SIZE_MAX - LEN - 1.
 *
 * ---- SKIPS: inputs the compared libgcrypt must not see ---------------
 * libgcrypt 1.10 crashes or computes with freed/stale state in a few
 * cases where gcipher deliberately answers differently (doc/gcipher.md,
 * "Compatibility notes" and "Differential fuzzing"); the target never
 * sends those calls to it (counted per reason, printed at exit), but
 * issues them on gcipher alone, which must not crash and must answer
 * a sensible code (sensible_code; a refusal on a handle without a key);
 * the input ends after such a call (the handles may now differ, even
 * after a refusal), unless it keeps no state (AES key wrap):
 *   probe         NULL with a nonzero length: never compared, except
 *                 setiv (IV) in the generic modes and setctr, which
 *                 libgcrypt treats as "zero"; the probes above.
 *                 Partly overlapping buffers go to gcipher only (the
 *                 compared library gets separate ones).
 *   no-key        an AEAD mode (CCM, GCM, OCB, EAX, SIV, GCM-SIV,
 *                 Poly1305) or STREAM (libgcrypt's Salsa20 setiv
 *                 crashes on a never-keyed handle) whose handle has no
 *                 valid key (never keyed, or the last setkey failed):
 *                 setiv, authenticate, encrypt, decrypt (SIV decrypts
 *                 with the stale key), gettag, checktag and
 *                 SET_CCM_LENGTHS go to gcipher alone (libgcrypt
 *                 dereferences the missing key schedule, or uses the
 *                 stale one gcipher has wiped), which must refuse
 *                 encrypt, decrypt, gettag and checktag, and setiv
 *                 outside CCM, STREAM and GCM.
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
 *   kwp-8         AES-WRAP with padding, unwrapping a 16-byte input,
 *                 when the compared library rejects RFC 5649's one-block
 *                 form of an 8-byte key (MLI = 8, section 4.2 allows
 *                 8 * (n - 1) < MLI <= 8 * n with n = 1): libgcrypt
 *                 master (1.12) answers GPG_ERR_CHECKSUM to what it
 *                 wrapped itself; 1.10 and gcipher unwrap it.  Probed at
 *                 start-up; found by the fuzzer against master.
 *   ocb-mixed     an SM4-OCB encrypt after a decrypt of the same message
 *                 or the other way round, when the compared library's tag
 *                 of such a message differs (probed at start-up: libgcrypt
 *                 master's SM4 gives another tag than 1.10 and gcipher;
 *                 RFC 7253 defines no such message, every other cipher
 *                 agrees).  The input stops there.
 *   eax-weak      (compared, counted) an EAX setkey with a weak DES/3DES
 *                 key allowed by GCRYCTL_SET_ALLOW_WEAK_KEY: libgcrypt 1.10
 *                 and gcipher answer success, master GPG_ERR_WEAK_KEY as
 *                 in every other mode; both use the key.  Taken as equal
 *                 when the start-up probe finds the peer does so.
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
 *                 compared only in the generic modes: elsewhere it dumps
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
 *   eax-mesh      GCRYCTL_SET_SBOX choosing a key-meshing parameter set
 *                 (CryptoPro A-D, TC26 Z) on a GOST28147_MESH EAX handle:
 *                 the key meshes after every 1024 bytes of block
 *                 encryptions, and gcipher's EAX encrypts its tweak blocks
 *                 once per key where libgcrypt encrypts them per message,
 *                 so the meshing falls elsewhere.  Neither library can
 *                 decrypt such a message once it meshed (decryption never
 *                 meshes); RFC 4357 defines meshing for CFB only.  The
 *                 input stops there.
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
#include "cipher-gcm.h"
#include "sysgcrypt.h"

namespace {

/* ---- Set up once -------------------------------------------------------- */

const sysgcrypt *sys;
std::vector<int> algos;              /* What gcipher implements.  */
std::vector<int> ctl_cmds;           /* Commands of ctl op 4 (below).  */
bool peer_is_gcipher;                /* Compared with gcipher's own .so.  */
bool peer_has_ctl63;                 /* PRIV_CIPHERCTL_GET_COUNTER.  */
bool peer_rejects_kwp8;              /* kwp-8, below.  */
bool peer_ocb_mixed_differs;         /* ocb-mixed.  */
bool peer_eax_weak_key;              /* eax-weak.  */
const int unknown_algos[] = { 0, 11, 12, 299, 400, 999, 65536, -1 };
std::vector<uint8_t> pattern;        /* Cheap data: 32 KiB.  */
bool trace_all;                      /* GCIPHER_FUZZ_TRACE=1.  */

/* Skip counters (printed at exit) and a few totals.  */
enum SkipReason
{
  SKIP_NO_KEY, SKIP_GCM_PARTIAL, SKIP_KWP_EMPTY, SKIP_KWP_INPLACE,
  SKIP_KW_IV, SKIP_CTS_SHORT, SKIP_CCM_REKEY, SKIP_SYS_ONLY, SKIP_SYNC_MAC,
  SKIP_CCM_SETCTR, SKIP_CTL_62, SKIP_SBOX_NAME, SKIP_KWP_8, SKIP_OCB_MIXED,
  SKIP_EAX_WEAK, SKIP_EAX_MESH, SKIP_PROBE, N_SKIPS
};
const char *const skip_names[N_SKIPS] = { "no-key", "gcm-partial",
                                          "kwp-empty", "kwp-inplace",
                                          "kw-iv", "cts-short", "ccm-rekey",
                                          "sys-only", "sync-mac", "ccm-setctr",
                                          "ctl-62", "sbox-name",
                                          "kwp-8", "ocb-mixed", "eax-weak",
                                          "eax-mesh", "probe" };
unsigned long skips[N_SKIPS];
unsigned long n_inputs, n_calls, n_opened, n_solo, n_overlap, n_misaligned;

void
quiet_log (void *, int, const char *, va_list)
{
}

void
print_stats ()
{
  fprintf (stderr, "cipher-diff: %lu inputs, %lu handles opened, %lu "
           "calls (%lu on gcipher alone), %lu with overlapping and %lu "
           "with misaligned buffers; skipped (checked on gcipher alone):",
           n_inputs, n_opened, n_calls, n_solo, n_overlap, n_misaligned);
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

/* Where gcipher's buffers lie (encrypt/decrypt C bits 0-1 = 3):
 * misaligned by IN_MIS/OUT_MIS bytes, and with OVERLAP in one block,
 * the input DELTA bytes after the output (OUT_FIRST) or before it.
 * The compared library always gets separate buffers (also misaligned):
 * libgcrypt's answer for overlapping ones depends on the offset, and
 * gcipher promises the separate-buffer result.  */
struct Layout
{
  bool overlap = false, out_first = false;
  size_t delta = 0, in_mis = 0, out_mis = 0;
};

/* Whether E is a code gcipher may sensibly answer a call with: success
 * or one of the codes its cipher layer uses for bad input or state.  Not GPG_ERR_GENERAL, ENOMEM or a
 * self-test failure.  */
bool
sensible_code (gcry_error_t e)
{
  if (!e)
    return true;
  /* libgcrypt's sources: USER_1 for setkey/setiv/setctr (its header's
   * default), GCRYPT for the rest (src/g10lib.h).  */
  if (gcry_err_source (e) != GPG_ERR_SOURCE_GCRYPT
      && gcry_err_source (e) != GPG_ERR_SOURCE_USER_1)
    return false;
  switch (gcry_err_code (e))
    {
    case GPG_ERR_INV_LENGTH: case GPG_ERR_INV_ARG: case GPG_ERR_INV_STATE:
    case GPG_ERR_INV_KEYLEN: case GPG_ERR_BUFFER_TOO_SHORT:
    case GPG_ERR_MISSING_KEY: case GPG_ERR_INV_CIPHER_MODE:
    case GPG_ERR_CHECKSUM: case GPG_ERR_WEAK_KEY: case GPG_ERR_INV_OP:
    case GPG_ERR_CIPHER_ALGO: case GPG_ERR_VALUE_NOT_FOUND:
    case GPG_ERR_NOT_SUPPORTED: case GPG_ERR_TOO_SHORT:
    case GPG_ERR_INV_FLAG: case GPG_ERR_NOT_IMPLEMENTED:
    case GPG_ERR_UNFINISHED:
      return true;
    default:
      return false;
    }
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
  int ocb_dir = -1;   /* OCB: 1 encrypting, 0 decrypting, -1 no data yet.  */

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
    if (ea)
      note ("  -> " + err_str (ea));
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

  /* ---- Calls on gcipher alone (the SKIPS) ----
   * A call the compared library must not see runs on gcipher alone: it
   * must not crash (ASan and UBSan watch) and must answer a sensible
   * code (sensible_code); on a handle without a key it must fail.  It
   * may change gcipher's state where the other handle did not follow
   * (even when refused), so the input ends after it (DIVERGED), unless
   * it keeps no state.  Compared with gcipher's own shared library
   * (peer_is_gcipher) these calls are compared like any other.  */
  bool solo = false;         /* The current call runs on gcipher alone.  */
  bool solo_refuse = false;  /* ...and must fail.  */
  bool diverged = false;     /* A call on gcipher alone succeeded.  */

  void
  begin_solo (SkipReason why, bool refuse)
  {
    skips[why]++;
    if (peer_is_gcipher)
      return;
    solo = true;
    solo_refuse = refuse;
    n_solo++;
  }

  gcry_error_t
  solo_done (gcry_error_t ea, const char *what, bool stateless = false)
  {
    solo = false;
    if (ea)
      note ("  -> " + err_str (ea));
    if (!sensible_code (ea))
      mismatch (std::string (what) + " on gcipher alone: unexpected "
                + err_str (ea));
    if (solo_refuse && !ea)
      mismatch (std::string (what) + " on gcipher alone: accepted, but "
                "must be refused (no key)");
    /* A refused call may still have changed gcipher's state (a GCM
     * setiv clears the message before it finds no key; a NULL IV after
     * a tag): only wrapping lets the comparison go on.  */
    if (!stateless)
      diverged = true;
    return ea;
  }

  /* A call on a handle without a valid key in the modes where libgcrypt
   * crashes or uses a stale key (no-key in SKIPS): gcipher alone, which
   * must refuse it (REFUSE) or at least answer sensibly.  */
  void
  keyless (bool refuse = true)
  {
    /* GCM, CCM, OCB, SIV and GCM-SIV need a 128-bit block: on a 64-bit
     * cipher every call is refused with a code of libgcrypt's, but
     * setiv may succeed; sensible codes are all that is asked there.  */
    bool wide = blklen == 16 || mode == GCRY_CIPHER_MODE_EAX
                || mode == GCRY_CIPHER_MODE_STREAM
                || mode == GCRY_CIPHER_MODE_POLY1305;
    if (is_keyed_mode (mode) && !key_valid ())
      begin_solo (SKIP_NO_KEY, refuse && wide);
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
  note_call (const std::string &s)
  {
    note (solo ? "[gcipher alone] " + s : s);
  }

  gcry_error_t
  both (gcry_error_t ea, gcry_error_t (*fb) (gcry_cipher_hd_t, const void *,
                                             size_t),
        const void *pb, size_t len, const char *what)
  {
    if (solo)
      return solo_done (ea, what);
    return same (ea, fb (hb, pb, len), what);
  }

  void
  setkey (const uint8_t *key, size_t len)
  {
    note_call ("setkey len=" + std::to_string (len) + " " + hex (key, len));
    gcry_error_t ea = gcry_cipher_setkey (ha, key, len);
    if (!solo && !ea && peer_eax_weak_key && mode == GCRY_CIPHER_MODE_EAX)
      {
        gcry_error_t eb = sys->cipher_setkey (hb, key, len);
        if (gcry_err_code (eb) == GPG_ERR_WEAK_KEY)
          skips[SKIP_EAX_WEAK]++;   /* eax-weak: both use the key.  */
        else
          same (ea, eb, "setkey");
      }
    else
      both (ea, sys->cipher_setkey, key, len, "setkey");
    if (strip_bulk)
      memset (&ha->bulk, 0, sizeof ha->bulk);
  }

  void
  setiv (const uint8_t *iv, size_t len)
  {
    note_call (std::string ("setiv ") + (iv ? hex (iv, len) : "NULL")
               + " len=" + std::to_string (len));
    gcry_error_t e = both (gcry_cipher_setiv (ha, iv, len),
                           sys->cipher_setiv, iv, len, "setiv");
    if (mode == GCRY_CIPHER_MODE_GCM)
      {
        if (!e)
          gcm_begin ();
        else
          gcm_started = false;
      }
    if ((mode == GCRY_CIPHER_MODE_CCM || mode == GCRY_CIPHER_MODE_EAX) && !e)
      ccm_nonce = true;
    ocb_dir = -1;
  }

  void
  setctr (const uint8_t *ctr, size_t len)
  {
    note_call (std::string ("setctr ") + (ctr ? hex (ctr, len) : "NULL")
               + " len=" + std::to_string (len));
    both (gcry_cipher_setctr (ha, ctr, len), sys->cipher_setctr, ctr, len,
          "setctr");
  }

  void
  authenticate (const std::vector<uint8_t> &a, size_t len)
  {
    note_call ("authenticate len=" + std::to_string (len));
    std::vector<uint8_t> ca (a), cb (a);  /* A has 16 bytes of slack.  */
    gcry_error_t e = both (gcry_cipher_authenticate (ha, ca.data (), len),
                           sys->cipher_authenticate, cb.data (), len,
                           "authenticate");
    if (!e && mode == GCRY_CIPHER_MODE_GCM)
      {
        if (!gcm_started)
          gcm_begin ();
        gcm_aad += len;
      }
  }

  enum InMode { SEPARATE, IN_NULL, IN_EQ_OUT };


  /* A heap block of exactly N bytes (1 if N is 0), so ASan sees any
   * access past it.  */
  static uint8_t *
  exact_block (size_t n)
  {
    return static_cast<uint8_t *> (malloc (n ? n : 1));
  }

  /* One encrypt or decrypt call on DATA (INLEN bytes).  gcipher's
   * buffers are exact-size heap blocks (ASan sees any access past
   * them); libgcrypt's carry a guard that must stay untouched.  */
  void
  crypt (bool enc, const uint8_t *data, size_t inlen, size_t outsize,
         InMode im, const Layout &lay = Layout ())
  {
    if ((ha->flags & GCRY_CIPHER_CBC_CTS) && mode != GCRY_CIPHER_MODE_CBC
        && im != IN_NULL && outsize < inlen)
      begin_solo (SKIP_CTS_SHORT, true);  /* libgcrypt writes past.  */
    else if (mode == GCRY_CIPHER_MODE_STREAM && im != IN_NULL
             && outsize < inlen)
      begin_solo (SKIP_CTS_SHORT, true);  /* Likewise (never checks).  */
    else if (mode == GCRY_CIPHER_MODE_OCB && algo == GCRY_CIPHER_SM4
             && peer_ocb_mixed_differs && ocb_dir >= 0
             && ocb_dir != (int) enc)
      begin_solo (SKIP_OCB_MIXED, false);
    if (mode == GCRY_CIPHER_MODE_OCB && !solo)
      ocb_dir = enc;
    std::string where;
    if (lay.overlap)
      where = std::string (" overlap ") + (lay.out_first ? "in=out+" : "out=in+")
              + std::to_string (lay.delta);
    if (lay.in_mis || lay.out_mis)
      where += " misaligned in+" + std::to_string (lay.in_mis) + " out+"
               + std::to_string (lay.out_mis);
    note_call (std::string (enc ? "encrypt" : "decrypt") + " inlen="
               + std::to_string (inlen) + " outsize="
               + std::to_string (outsize)
               + (im == SEPARATE ? "" : im == IN_NULL ? " in=NULL"
                                                      : " in=out")
               + where + " in=" + hex (data, inlen));
    if (lay.overlap)
      n_overlap++;
    if (lay.in_mis || lay.out_mis)
      n_misaligned++;
    const size_t guard = 32;
    size_t bufsize = outsize;
    if (im == IN_EQ_OUT && inlen > bufsize)
      bufsize = inlen;
    /* gcipher's buffers.  */
    uint8_t *oa_blk, *ia_blk = nullptr, *oa, *ia = nullptr;
    if (lay.overlap)
      {
        size_t ioff = lay.out_first ? lay.delta : 0;
        size_t ooff = lay.out_first ? 0 : lay.delta;
        size_t total = ioff + inlen > ooff + bufsize ? ioff + inlen
                                                     : ooff + bufsize;
        oa_blk = exact_block (lay.out_mis + total);
        oa = oa_blk + lay.out_mis + ooff;
        ia = oa_blk + lay.out_mis + ioff;
      }
    else
      {
        oa_blk = exact_block (lay.out_mis + bufsize);
        oa = oa_blk + lay.out_mis;
        if (im == SEPARATE)
          {
            ia_blk = exact_block (lay.in_mis + inlen);
            ia = ia_blk + lay.in_mis;
          }
      }
    for (size_t i = 0; i < bufsize; i++)
      oa[i] = (uint8_t) (0xc3 ^ (i * 7));
    if (im == SEPARATE)
      memcpy (ia, data, inlen);  /* Overlapping: the input wins.  */
    else
      {
        size_t n = im == IN_NULL ? (outsize < inlen ? outsize : inlen) : inlen;
        memcpy (oa, data, n);
        if (im == IN_EQ_OUT)
          ia = oa;
      }
    /* libgcrypt's: the same start contents, separate.  */
    uint8_t *ob_blk = nullptr, *ib_blk = nullptr, *ob = nullptr, *ib = nullptr;
    if (!solo)
      {
        ob_blk = static_cast<uint8_t *> (malloc (lay.out_mis + bufsize
                                                 + guard));
        ob = ob_blk + lay.out_mis;
        memcpy (ob, oa, bufsize);
        for (size_t i = bufsize; i < bufsize + guard; i++)
          ob[i] = (uint8_t) (0xc3 ^ (i * 7));
        if (im == SEPARATE)
          {
            ib_blk = exact_block (lay.in_mis + inlen);
            ib = ib_blk + lay.in_mis;
            memcpy (ib, data, inlen);
          }
        else if (im == IN_EQ_OUT)
          ib = ob;
      }
    gcry_error_t ea = (enc ? gcry_cipher_encrypt : gcry_cipher_decrypt)
                        (ha, oa, outsize, ia, inlen);
    const char *what = enc ? "encrypt" : "decrypt";
    if (solo)
      /* Wrapping keeps no state (a short buffer changes nothing).  */
      solo_done (ea, what, enc && mode == GCRY_CIPHER_MODE_AESWRAP);
    else
      {
        gcry_error_t eb = (enc ? sys->cipher_encrypt : sys->cipher_decrypt)
                            (hb, ob, outsize, ib, inlen);
        same (ea, eb, what);
        same_bytes (oa, ob, bufsize, what);
        for (size_t i = bufsize; i < bufsize + guard; i++)
          if (ob[i] != (uint8_t) (0xc3 ^ (i * 7)))
            mismatch ("libgcrypt wrote past its output buffer");
      }
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
    free (oa_blk);
    free (ia_blk);
    free (ob_blk);
    free (ib_blk);
  }

  void
  gettag (size_t taglen)
  {
    note_call ("gettag len=" + std::to_string (taglen));
    uint8_t ta[40], tb[40];
    memset (ta, 0x5c, sizeof ta);
    memset (tb, 0x5c, sizeof tb);
    gcry_error_t e = gcry_cipher_gettag (ha, ta, taglen);
    if (solo)
      solo_done (e, "gettag");
    else
      {
        same (e, sys->cipher_gettag (hb, tb, taglen), "gettag");
        same_bytes (ta, tb, sizeof ta, "gettag");
      }
    if (!e)
      {
        last_tag.assign (ta, ta + (taglen < 16 ? taglen : 16));
        gcm_tagged = true;
      }
  }

  void
  checktag (const std::vector<uint8_t> &tag, size_t taglen)
  {
    note_call ("checktag len=" + std::to_string (taglen) + " "
               + hex (tag.data (), taglen));
    std::vector<uint8_t> ca (tag), cb (tag);
    ca.resize (taglen + 1);
    cb.resize (taglen + 1);
    gcry_error_t e = both (gcry_cipher_checktag (ha, ca.data (), taglen),
                           sys->cipher_checktag, cb.data (), taglen,
                           "checktag");
    if (!e || gcry_err_code (e) == GPG_ERR_CHECKSUM)
      gcm_tagged = true;
  }

  /* ctl with an in/out buffer of 64 bytes holding INIT (NULL: the
   * buffer pointer itself is NULL); the buffers are compared.  */
  gcry_error_t
  ctl (int cmd, const uint8_t *init, size_t buflen)
  {
    note_call ("ctl cmd=" + std::to_string (cmd) + (init ? " buf" : " NULL")
               + " buflen=" + std::to_string (buflen)
               + (init ? " " + hex (init, buflen < 64 ? buflen : 64) : ""));
    uint8_t ba[64], bb[64];
    if (init)
      {
        memcpy (ba, init, 64);
        memcpy (bb, init, 64);
      }
    gcry_error_t e = gcry_cipher_ctl (ha, cmd, init ? ba : nullptr, buflen);
    if (solo)
      return solo_done (e, "ctl");
    same (e, sys->cipher_ctl (hb, cmd, init ? bb : nullptr, buflen), "ctl");
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

/* The commands of ctl op 4; 63 (libgcrypt 1.11's private counter
 * query, PRIV_CIPHERCTL_GET_COUNTER) is added when the compared library
 * has it (the system 1.10 answers GPG_ERR_INV_OP, gcipher serves it: on
 * gcipher alone then, probe 11).  */
const int base_ctl_cmds[] = { 0, 1, 2, GCRYCTL_GET_KEYLEN, GCRYCTL_GET_BLKLEN,
                              GCRYCTL_TEST_ALGO, GCRYCTL_IS_SECURE, 43, 57,
                              58, 59, 60, 61, 64, GCRYCTL_SET_SBOX,
                              GCRYCTL_GET_TAGLEN, 81, 99, -1, 1000 };

/* Probe N (op byte 0xf0 + N, mod 13): a call the compared library must
 * not see, on gcipher alone: NULL buffers with nonzero lengths
 * (null-buffer in SKIPS), lengths no buffer has, and the counter query
 * the system 1.10 lacks.  Each must answer a sensible code; those with
 * a NULL buffer for data must fail.  */
void
probe (Reader &in, Run &r, unsigned int n)
{
  static const sysgcrypt self = sysgcrypt_gcipher ("gcipher");
  size_t len = in.len () + 1;
  r.begin_solo (SKIP_PROBE, n <= 6 || n == 12);
  r.note_call ("probe " + std::to_string (n) + " len="
               + std::to_string (len));
  auto call = [n, len] (const sysgcrypt &t, gcry_cipher_hd_t h,
                        uint8_t *buf) -> gcry_error_t {
    memset (buf, 0x3c, 64);
    switch (n)
      {
      case 0: return t.cipher_encrypt (h, nullptr, len, buf, len);
      case 1: return t.cipher_decrypt (h, nullptr, len, buf, len);
      case 2: return t.cipher_encrypt (h, nullptr, len, nullptr, 0);
      case 3: return t.cipher_authenticate (h, nullptr, len);
      case 4: return t.cipher_gettag (h, nullptr, len);
      case 5: return t.cipher_checktag (h, nullptr, len);
      case 6: return t.cipher_setkey (h, nullptr, len);
      case 7: return t.cipher_setiv (h, nullptr, len);
      case 8: return t.cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS, nullptr, 24);
      case 9:
        return t.cipher_ctl (h, GCRYCTL_SET_DECRYPTION_TAG, nullptr, len);
      case 10: return t.cipher_ctl (h, GCRYCTL_SET_TAGLEN, nullptr, len);
      case 11: return t.cipher_ctl (h, 63, buf, len % 40);
      default:
        /* An input length past the output: refused before any read.  */
        return t.cipher_encrypt (h, buf, 64, buf, (size_t) -1 - len);
      }
  };
  uint8_t ba[64], bb[64];
  gcry_error_t ea = call (self, r.ha, ba);
  if (r.solo)
    {
      r.solo_done (ea, "probe");
      return;
    }
  /* Compared with gcipher's own shared library.  */
  r.same (ea, call (*sys, r.hb, bb), "probe");
  r.same_bytes (ba, bb, sizeof ba, "probe buffer");
}

/* kwp-8: an unwrap of N bytes with padding the peer may wrongly
 * reject (RFC 5649 4.2, one block: N == 16).  */
bool
kwp8 (const Run &r, bool enc, size_t n)
{
  return peer_rejects_kwp8 && !enc && r.mode == GCRY_CIPHER_MODE_AESWRAP
         && (r.flags & GCRY_CIPHER_EXTENDED) && n == 16;
}

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

  /* P: 0 all features; else k = P - 1: implementation k mod n_impls,
   * for GCM and GCM-SIV crossed with GHASH back end
   * (k / n_impls) mod (1 + n_ghash) - 1 (0: the implementation's own
   * bits only), as tests/ct/ct-check.cpp crosses them.  */
  const cipher_spec *spec = _gcry_cipher_spec_from_algo (r.algo);
  unsigned int mask = ~0u;
  if (spec && p && spec->n_impls)
    {
      unsigned int k = p - 1;
      mask = spec->impls[k % spec->n_impls].hwf;
      size_t g = (k / spec->n_impls) % (1 + _gcry_gcm_n_ghash_impls);
      if (g && (r.mode == GCRY_CIPHER_MODE_GCM
                || r.mode == GCRY_CIPHER_MODE_GCM_SIV))
        mask |= _gcry_gcm_ghash_impls[g - 1].hwf;
    }
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

  for (int step = 0; step < 256 && in.more () && !r.diverged; step++)
    {
      uint8_t opb = in.u8 ();
      if (opb >= 0xf0)
        {
          probe (in, r, (opb - 0xf0) % 13);
          continue;
        }
      uint8_t op = opb % 16;
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
              r.begin_solo (SKIP_CCM_REKEY, false);
            r.setkey (key.data (), len);
            if ((r.mode == GCRY_CIPHER_MODE_CCM
                 || r.mode == GCRY_CIPHER_MODE_EAX) && r.ccm_nonce)
              return;  /* Compared with gcipher: the message goes on.  */
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
            /* A CCM or stream-cipher nonce is only stored (CCM uses it
             * at SET_CCM_LENGTHS, RFC 3610 2.3, which needs the key); a
             * GCM IV's hash after a refused re-key uses the old hash
             * key, and no tag comes of it.  */
            r.keyless (r.mode != GCRY_CIPHER_MODE_CCM
                       && r.mode != GCRY_CIPHER_MODE_STREAM
                       && r.mode != GCRY_CIPHER_MODE_GCM);
            bool ends = false;
            if (r.gcm_pending ())
              {
                r.begin_solo (SKIP_GCM_PARTIAL, false);
                ends = true;
              }
            r.setiv (null ? nullptr : iv.data (), len);
            if (ends)
              return;
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
              r.begin_solo (SKIP_CCM_SETCTR, false);  /* ccm-setctr.  */
            r.setctr ((s & 2) ? nullptr : ctr.data (), len);
            break;
          }
        case 3:  /* authenticate */
          {
            size_t len = in.len ();
            std::vector<uint8_t> aad = get_data (in, r, in.u8 (), len);
            /* GCM hashes AAD after a refused re-key (the tag is then
             * refused): a sensible code is asked, not a refusal.  */
            r.keyless (false);
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
            Layout lay;
            if ((c & 3) == 3)
              {
                /* X: misalignment of the output (bits 0-3) and of a
                 * separate input (4-7); Y bit 7: overlapping, the input
                 * before the output (bit 6 clear) or after it, DELTA
                 * bytes apart: 1..32 (Y mod 64 < 32), else 16..512 in
                 * steps of 16.  */
                uint8_t x = in.u8 (), y = in.u8 ();
                lay.out_mis = x & 15;
                lay.in_mis = x >> 4;
                if (y & 0x80)
                  {
                    unsigned int v = y & 0x3f;
                    lay.overlap = true;
                    lay.out_first = y & 0x40;
                    lay.delta = v < 32 ? v + 1 : (v - 31) * 16;
                  }
              }
            std::vector<uint8_t> d = get_data (in, r, (c >> 4) & 3, len);
            r.keyless ();
            if (!enc && r.mode == GCRY_CIPHER_MODE_AESWRAP && r.ha->marks.iv
                && memcmp (r.ha->iv, "\xa6\xa6\xa6\xa6\xa6\xa6\xa6\xa6", 8))
              r.begin_solo (SKIP_KW_IV, false);
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
                  r.begin_solo (SKIP_KWP_EMPTY, false);
                else if (enc && r.mode == GCRY_CIPHER_MODE_AESWRAP
                         && (r.flags & GCRY_CIPHER_EXTENDED)
                         && (im == Run::IN_EQ_OUT
                             || (im == Run::IN_NULL && outsize <= 8)))
                  r.begin_solo (SKIP_KWP_INPLACE, false);
                else if (kwp8 (r, enc, im == Run::IN_NULL ? outsize : len))
                  r.begin_solo (SKIP_KWP_8, false);
                r.crypt (enc, d.data (), len, outsize, im, lay);
              }
            else
              {
                int n = 1 + in.u8 () % 6;
                size_t off = 0;
                const bool solo = r.solo;
                for (int i = 0; i < n && !r.diverged; i++)
                  {
                    size_t piece = i == n - 1 ? len - off : in.len ();
                    if (piece > len - off)
                      piece = len - off;
                    if (solo)
                      r.solo = true;
                    if (enc && r.mode == GCRY_CIPHER_MODE_AESWRAP
                        && (r.flags & GCRY_CIPHER_EXTENDED)
                        && (piece == 0 || im == Run::IN_EQ_OUT
                            || (piece <= 8 && im == Run::IN_NULL)))
                      r.begin_solo (piece ? SKIP_KWP_INPLACE
                                          : SKIP_KWP_EMPTY, false);
                    else if (kwp8 (r, enc, piece))
                      r.begin_solo (SKIP_KWP_8, false);
                    r.crypt (enc, d.data () + off, piece, piece, im, lay);
                    off += piece;
                  }
              }
            break;
          }
        case 6:  /* gettag */
          {
            size_t len = in.u8 () % 36;
            r.keyless ();
            r.gettag (len);
            break;
          }
        case 7:  /* checktag */
          {
            uint8_t t = in.u8 ();
            size_t len = t < 0x80 ? r.last_tag.size () : t % 36;
            std::vector<uint8_t> tag = get_tag (in, r, len);
            r.keyless ();
            r.checktag (tag, len);
            break;
          }
        case 8:  /* reset */
          if (r.gcm_pending ())
            {
              r.begin_solo (SKIP_GCM_PARTIAL, false);
              r.ctl (GCRYCTL_RESET, nullptr, 0);
              return;
            }
          r.ctl (GCRYCTL_RESET, nullptr, 0);
          r.gcm_started = false;
          r.ccm_nonce = false;
          r.ocb_dir = -1;
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
                  r.begin_solo (SKIP_SYNC_MAC, false);
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
                if (!is_generic_mode (r.mode))
                  r.begin_solo (SKIP_CTL_62, false);
                r.ctl (62, buf, 15 + b % 4);
                break;
              case 4:
                {
                  int cmd = ctl_cmds[b % ctl_cmds.size ()];
                  uint8_t z = in.u8 ();
                  if (cmd == GCRYCTL_SET_SBOX && (z & 0x40))
                    {
                      /* See sbox-name in SKIPS: NULL, or no NUL in the
                       * buffer (z % 20 bytes of 'A'), on gcipher alone.  */
                      uint8_t name[64];
                      memset (name, 'A', sizeof name);
                      r.begin_solo (SKIP_SBOX_NAME, false);
                      r.ctl (cmd, (z & 0x80) ? name : nullptr, z % 20);
                      break;
                    }
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
                      /* See eax-mesh in SKIPS: 31.1, 31.4 and Z mesh.  */
                      if (r.algo == GCRY_CIPHER_GOST28147_MESH
                          && r.mode == GCRY_CIPHER_MODE_EAX
                          && z % 6 >= 1 && z % 6 <= 3)
                        r.begin_solo (SKIP_EAX_MESH, false);
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
            r.keyless (false);
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
  /* The compared library: GCIPHER_FUZZ_LIBGCRYPT names a
   * libgcrypt.so.20 (e.g. libgcrypt master beside its own libgpg-error,
   * ../shared/peers/x86_64/, or gcipher's own shared library,
   * src/.libs/libgcrypt.so.20); default the system one.  */
  const char *lib = getenv ("GCIPHER_FUZZ_LIBGCRYPT");
  sysgcrypt_set_path (lib);
  sys = sysgcrypt_load ();
  if (!sys)
    {
      fprintf (stderr, "cipher-diff: compared libgcrypt unavailable: %s\n",
               sysgcrypt_error ());
      exit (77);
    }
  peer_is_gcipher = strstr (sys->version, "gcipher") != nullptr;
  gcry_check_version (nullptr);
  gcry_set_log_handler (quiet_log, nullptr);
  typedef void (*set_log_fn) (gcry_handler_log_t, void *);
  if (void *p = dlvsym (sys->dl, "gcry_set_log_handler", "GCRYPT_1.6"))
    reinterpret_cast<set_log_fn> (p) (quiet_log, nullptr);
  /* Only what both libraries know: gcipher's libgcrypt 1.11 algorithms
   * (ARIA) have nothing to be compared with in the system 1.10, but are
   * fuzzed against libgcrypt master.  */
  for (int i = 0; const cipher_spec *s = _gcry_cipher_spec_nth (i); i++)
    if (strcmp (sys->cipher_algo_name (s->algo), "?") != 0)
      algos.push_back (s->algo);
  /* The private counter query (63): compared where the peer has it.  */
  ctl_cmds.assign (base_ctl_cmds, base_ctl_cmds + sizeof base_ctl_cmds
                                                  / sizeof base_ctl_cmds[0]);
  {
    gcry_cipher_hd_t h;
    unsigned char ctr[16];
    if (!sys->cipher_open (&h, GCRY_CIPHER_AES, GCRY_CIPHER_MODE_CTR, 0))
      {
        peer_has_ctl63 = !sys->cipher_ctl (h, 63, ctr, sizeof ctr);
        sys->cipher_close (h);
      }
    if (peer_has_ctl63)
      ctl_cmds.push_back (63);
  }
  /* ocb-mixed: SM4-OCB, 22 blocks encrypted in place, then 363 bytes
   * decrypted as the final call of the same message: the tags.  */
  {
    static const uint8_t k[16] = { 0x97, 0xb6, 0xd5, 0xf4, 0x13, 0x32, 0x51,
                                   0x70, 0x8f, 0xae, 0xcd, 0xec, 0x0b, 0x2a,
                                   0x49, 0x68 };
    uint8_t iv[12] = { 0x26, 0x45 }, buf[2][352], in[363], out[363];
    uint8_t tag[2][16];
    memset (buf, 0, sizeof buf);
    for (size_t i = 0; i < sizeof in; i++)
      in[i] = (uint8_t) (i * 31 + 7);
    bool ok = true;
    for (int side = 0; side < 2 && ok; side++)
      {
        gcry_cipher_hd_t h;
        auto open = side ? sys->cipher_open : gcry_cipher_open;
        if (open (&h, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_OCB, 0))
          {
            ok = false;
            break;
          }
        auto setkey = side ? sys->cipher_setkey : gcry_cipher_setkey;
        auto setiv = side ? sys->cipher_setiv : gcry_cipher_setiv;
        auto enc = side ? sys->cipher_encrypt : gcry_cipher_encrypt;
        auto dec = side ? sys->cipher_decrypt : gcry_cipher_decrypt;
        auto ctl = side ? sys->cipher_ctl : gcry_cipher_ctl;
        auto gettag = side ? sys->cipher_gettag : gcry_cipher_gettag;
        ok = !setkey (h, k, sizeof k) && !setiv (h, iv, sizeof iv)
             && !enc (h, buf[side], sizeof buf[side], nullptr, 0)
             && !ctl (h, GCRYCTL_FINALIZE, nullptr, 0)
             && !dec (h, out, sizeof out, in, sizeof in)
             && !gettag (h, tag[side], 16);
        (side ? sys->cipher_close : gcry_cipher_close) (h);
      }
    peer_ocb_mixed_differs = ok && memcmp (tag[0], tag[1], 16) != 0;
  }
  /* eax-weak: 3DES-EAX, a weak third key allowed.  */
  {
    gcry_cipher_hd_t h;
    uint8_t k[24] = { 0x1f, 0x2e, 0x3d, 0x4c, 0x5b, 0x6a, 0x79, 0x88,
                      0x97, 0xa6, 0xb5, 0xc4, 0xd3, 0xe2, 0xf1, 0x0e };
    if (!sys->cipher_open (&h, GCRY_CIPHER_3DES, GCRY_CIPHER_MODE_EAX, 0))
      {
        if (!sys->cipher_ctl (h, GCRYCTL_SET_ALLOW_WEAK_KEY, nullptr, 1))
          peer_eax_weak_key = gcry_err_code (sys->cipher_setkey (h, k, 24))
                              == GPG_ERR_WEAK_KEY;
        sys->cipher_close (h);
      }
  }
  /* Does the peer unwrap RFC 5649's one-block form of an 8-byte key
   * (kwp-8)?  It wraps it as 1.10 and gcipher do.  */
  {
    gcry_cipher_hd_t h;
    unsigned char k[16] = { 1 }, p[8] = { 2 }, w[16], u[16];
    if (!sys->cipher_open (&h, GCRY_CIPHER_AES, GCRY_CIPHER_MODE_AESWRAP,
                           GCRY_CIPHER_EXTENDED))
      {
        if (!sys->cipher_setkey (h, k, sizeof k)
            && !sys->cipher_encrypt (h, w, sizeof w, p, sizeof p))
          peer_rejects_kwp8 = gcry_err_code (sys->cipher_decrypt (
                                h, u, sizeof u, w, sizeof w))
                              == GPG_ERR_CHECKSUM;
        sys->cipher_close (h);
      }
  }
  /* make-corpus asks how many algorithm indices there are.  */
  if (const char *c = getenv ("GCIPHER_FUZZ_COUNT_ALGOS"); c && *c == '1')
    {
      printf ("%zu\n", algos.size ());
      exit (0);
    }
  pattern.resize (32768 + 256 * 13 + 64);
  for (size_t i = 0; i < pattern.size (); i++)
    pattern[i] = (uint8_t) (i * 31 + (i >> 8) + 7);
  const char *t = getenv ("GCIPHER_FUZZ_TRACE");
  trace_all = t && *t == '1';
  fprintf (stderr, "cipher-diff: gcipher algorithms:");
  for (int a : algos)
    fprintf (stderr, " %s", gcry_cipher_algo_name (a));
  fprintf (stderr, "; compared with %s %s%s%s%s%s\n", sys->path, sys->version,
           peer_has_ctl63 ? " (has ctl 63)" : "",
           peer_rejects_kwp8 ? " (rejects RFC 5649's one-block 8-byte"
                               " unwrap: kwp-8)"
                             : "",
           peer_ocb_mixed_differs ? " (another SM4 tag for a mixed OCB"
                                    " message: ocb-mixed)"
                                  : "",
           peer_eax_weak_key ? " (EAX setkey: GPG_ERR_WEAK_KEY for an"
                               " allowed weak key: eax-weak)"
                             : "");
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
