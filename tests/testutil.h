/* testutil.h - helpers shared by the GoogleTest suites.
 *
 *  - hex:        hex_decode / hex_encode (bytes <-> lowercase hex).
 *  - Botan .vec: parse_vec_file reads "[Section]" headers followed by
 *                blank-line-separated records of "Key = value" lines
 *                ('#' starts a comment line).
 *  - Wycheproof: parse_json / load_json_file, a small JSON reader (objects,
 *                arrays, strings with escapes, numbers, true/false/null);
 *                enough for the Wycheproof files, no external library.
 *  - Paths:      available_paths lists the implementations of a cipher
 *                spec this CPU can run (all hwf bits detected); ScopedPath
 *                forces one of them through _gcry_hwf_set_test_mask for
 *                its lifetime (the next setkey picks it) and restores the
 *                full mask (~0u) afterwards.
 *  - Files:      read_file, testvector_path (TESTVECTORS_DIR-relative).
 *  - Random:     Prng, deterministic; suite_seed (GCIPHER_TEST_SEED).
 *
 * Errors (missing file, malformed input) are reported through the return
 * value / an error string, never by aborting, so a test can ASSERT on it.
 */
#ifndef GCIPHER_TESTUTIL_H
#define GCIPHER_TESTUTIL_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cipher-internal.h"

namespace testutil {

typedef std::vector<uint8_t> Bytes;

/* ---- Hex ------------------------------------------------------------ */
/* Decode HEX (upper or lower case; spaces ignored).  *OK (if given) is set
 * false on an odd length or a non-hex character.  "" decodes to {}.  */
Bytes hex_decode (const std::string &hex, bool *ok = nullptr);
/* Lowercase hex of LEN bytes at P.  */
std::string hex_encode (const void *p, size_t len);
inline std::string hex_encode (const Bytes &b)
{ return hex_encode (b.data (), b.size ()); }

/* ---- Modes ---------------------------------------------------------- */
/* MODE (GCRY_CIPHER_MODE_*) takes a nonce, additional data and a tag
 * (CCM, GCM, Poly1305, OCB, EAX, SIV, GCM-SIV).  */
bool is_aead_mode (int mode);

/* ---- Files ---------------------------------------------------------- */
/* Whole file into *OUT; false if it cannot be read.  */
bool read_file (const std::string &path, std::string *out);
/* TESTVECTORS_DIR "/" REL (tests/testvectors of the source tree).  */
std::string testvector_path (const std::string &rel);

/* ---- Botan .vec ----------------------------------------------------- */
struct VecRecord
{
  int line = 0;                               /* First line of the record. */
  std::map<std::string, std::string> fields;  /* "Key" -> "00ff..." */

  bool has (const std::string &k) const { return fields.count (k) != 0; }
  /* The field as a string ("" if absent).  */
  std::string str (const std::string &k) const;
  /* The field hex-decoded ({} if absent).  */
  Bytes bytes (const std::string &k) const;
};

struct VecSection
{
  std::string name;                /* Text between '[' and ']'.  */
  std::vector<VecRecord> records;
};

/* Parse a .vec file.  Records end at a blank line, a new section or EOF;
 * a line "Name = value" adds a field (value may be empty).  Returns false
 * (and *ERR) if the file cannot be read.  */
bool parse_vec_file (const std::string &path, std::vector<VecSection> *out,
                     std::string *err = nullptr);
/* The section named NAME in SECTIONS, or nullptr.  */
const VecSection *find_section (const std::vector<VecSection> &sections,
                                const std::string &name);

/* ---- JSON (Wycheproof) ---------------------------------------------- */
/* An object member (defined after Json: clang rejects a vector of
 * std::pair<std::string, Json> inside Json in C++20).  */
struct JsonMember;
struct Json
{
  enum Type { Null, Bool, Number, String, Array, Object } type = Null;
  bool b = false;
  double num = 0;
  std::string str;                  /* String value; Number: its text.  */
  std::vector<Json> arr;
  std::vector<JsonMember> obj;      /* In file order.  */

  /* Member KEY of an object, or a shared Null value.  */
  const Json &operator[] (const std::string &key) const;
  /* Element I of an array, or a shared Null value.  */
  const Json &operator[] (size_t i) const;
  size_t size () const;
  bool is_null () const { return type == Null; }
  /* String value ("" if not a string).  */
  const std::string &s () const;
  /* Number as an integer (0 if not a number).  */
  long long i () const { return type == Number ? (long long)num : 0; }
};
struct JsonMember
{
  std::string first;                /* Key.  */
  Json second;                      /* Value.  */
};
inline size_t
Json::size () const
{
  return type == Array ? arr.size () : obj.size ();
}

/* Parse TEXT; false and *ERR (with the byte offset) on a syntax error.  */
bool parse_json (const std::string &text, Json *out, std::string *err);
bool load_json_file (const std::string &path, Json *out, std::string *err);

/* ---- Implementation paths ------------------------------------------- */
/* SPEC's impls whose hwf bits are all detected (and not disabled), in
 * the spec's order (fastest first; generic last).  */
std::vector<const cipher_impl_info *> available_paths (const cipher_spec *spec);
/* SPEC's impls this CPU lacks (for "skipped" messages).  */
std::vector<const cipher_impl_info *> unavailable_paths (const cipher_spec *spec);

/* Restrict hardware features to exactly IMPL's hwf bits, so the next
 * setkey of an algorithm with that impl picks it.  */
void force_path (const cipher_impl_info &impl);
/* Undo force_path (full detected feature set).  */
void restore_paths ();

/* RAII form of force_path / restore_paths.  */
class ScopedPath
{
public:
  explicit ScopedPath (const cipher_impl_info &impl) { force_path (impl); }
  ~ScopedPath () { restore_paths (); }
  ScopedPath (const ScopedPath &) = delete;
  ScopedPath &operator= (const ScopedPath &) = delete;
};

/* Printable list "aesni generic" of IMPLS.  */
std::string path_names (const std::vector<const cipher_impl_info *> &impls);


/* ---- Spec-level reference modes --------------------------------------- */
/* The six SP 800-38A modes (CFB = CFB-128, CFB8 = 8-bit CFB).  */
enum class BlockMode { ECB, CBC, CFB, CFB8, OFB, CTR };
/* GCRY_CIPHER_MODE_* of M, and its printable name.  */
int gcry_mode_of (BlockMode m);
const char *mode_name (BlockMode m);

/* A cipher keyed below the API: SPEC's setkey into a CONTEXT_ALIGNed
 * context and a bulk table, plus straightforward mode drivers (SP 800-38A
 * 6.1-6.5) written in the test.  Whole blocks go through the bulk slot
 * when the path has one (USE_BULK) and through the single-block function
 * otherwise, so the same object checks both.  State (IV / counter)
 * carries over between crypt() calls; every call but the last must be a
 * whole number of blocks for CBC/CFB/OFB/CTR (ECB/CBC: always whole). */
class SpecCipher
{
public:
  explicit SpecCipher (const cipher_spec *spec);
  ~SpecCipher ();
  SpecCipher (const SpecCipher &) = delete;
  SpecCipher &operator= (const SpecCipher &) = delete;

  /* spec->setkey; returns its error code.  */
  gcry_err_code_t setkey (const Bytes &key);
  /* Path chosen at setkey ("" before).  */
  std::string impl () const { return impl_ ? impl_ : ""; }
  /* IV or initial counter block (blocksize bytes).  */
  void setiv (const Bytes &iv);
  /* LEN bytes IN -> OUT (may alias exactly).  */
  void crypt (BlockMode m, uint8_t *out, const uint8_t *in, size_t len,
              bool encrypt, bool use_bulk = true);
  Bytes crypt (BlockMode m, const Bytes &in, bool encrypt,
               bool use_bulk = true);
  const Bytes &iv () const { return iv_; }

  const cipher_spec *spec;
  void *ctx = nullptr;
  cipher_bulk_ops bulk {};

private:
  void *mem_ = nullptr;
  const char *impl_ = nullptr;
  Bytes iv_;
};

/* A handle of the public API, closed on destruction.  */
struct ApiHandle
{
  gcry_cipher_hd_t h = nullptr;
  ~ApiHandle () { if (h) gcry_cipher_close (h); }
};

/* One-shot through the public API: open (ALGO, MODE), setkey, setiv (or
 * setctr for CTR; skipped when IV is empty), encrypt or decrypt IN.  The
 * first error is returned; *IMPL (if given) gets the path the handle
 * chose.  */
gcry_error_t api_crypt (int algo, BlockMode m, const Bytes &key,
                        const Bytes &iv, const Bytes &in, bool encrypt,
                        Bytes *out, std::string *impl = nullptr);

/* The AES spec whose default key length is KEYLEN bytes (16/24/32).  */
const cipher_spec *aes_spec_for_keylen (size_t keylen);

/* The reference for GCM-SIV's CTR (RFC 8452 4): IN XOR the keystream of
 * SPEC's single-block encryption under CTX from the counter block CTR
 * (bytes 0..3 a little-endian counter, + 1 mod 2^32 per block), NBLOCKS
 * whole blocks; CTR is advanced past them.  */
Bytes ctr32le_reference (const cipher_spec *spec, void *ctx, Bytes &ctr,
                         const uint8_t *in, size_t nblocks);

/* One call of a ctr32le_enc bulk slot (SLOT on context CTX) on DATA
 * (NBLOCKS whole blocks) from the counter block CTR, with the input and
 * output at byte offset OFF of their buffers, in place or not, checked
 * against ctr32le_reference on REF_SPEC / REF_CTX: the output and the
 * counter block after.  "" when both are equal, else what differs.  */
std::string check_ctr32le_slot (unsigned int (*slot) (void *ctx,
                                                      unsigned char *ctr,
                                                      void *out,
                                                      const void *in,
                                                      size_t nblocks),
                                void *ctx, const cipher_spec *ref_spec,
                                void *ref_ctx, const Bytes &ctr,
                                const Bytes &data, size_t nblocks,
                                bool inplace, size_t off);

/* An algorithm of libgcrypt 1.11, not in the system 1.10 (ARIA): gcipher
 * implements it with 1.11's ids and answers, the system library answers
 * as for an unknown id.  Suites that compare every algorithm id with the
 * system libgcrypt leave these ids out (t-block128 checks gcipher's
 * answers for them).  */
inline bool
libgcrypt111_only_algo (int algo)
{
  return algo == GCRY_CIPHER_ARIA128 || algo == GCRY_CIPHER_ARIA192
         || algo == GCRY_CIPHER_ARIA256;
}

/* ---- Sanitizer builds -------------------------------------------------- */

/* Non-null (the reason, for GTEST_SKIP) when stack-burn checks cannot
 * work: under AddressSanitizer (the test built with it, or
 * GCIPHER_SANITIZER=asan from make check-sanitizers) locals live in the
 * runtime's fake stack frames (detect_stack_use_after_return) and frames
 * grow redzones, so the stack _gcry_burn_stack clears is not where the
 * secrets were, and reading dead frames below the stack pointer is itself
 * a report.  The normal build runs these checks.  */
inline const char *
asan_stack_reason ()
{
  static const char why[]
    = "AddressSanitizer: locals live on its fake stack, not the stack "
      "burn_stack clears (checked in the normal build)";
#if defined(__SANITIZE_ADDRESS__)
  return why;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return why;
#endif
#endif
  const char *e = std::getenv ("GCIPHER_SANITIZER");
  return e && std::strcmp (e, "asan") == 0 ? why : nullptr;
}

/* ---- Deterministic PRNG (xoshiro256**-style, seeded by splitmix64) ---- */
class Prng
{
public:
  explicit Prng (uint64_t seed);
  uint64_t next ();
  /* Uniform in [0, n); n > 0.  */
  uint64_t below (uint64_t n) { return next () % n; }
  void fill (void *p, size_t len);
  Bytes bytes (size_t len) { Bytes b (len); fill (b.data (), len); return b; }

private:
  uint64_t s_[4];
};

/* A suite's PRNG seed: GCIPHER_TEST_SEED when set (any base strtoull
 * reads), else DEFAULT_SEED; the first call prints it ("[ seed     ]
 * GCIPHER_TEST_SEED=0x..."), so a failing run can be repeated.  One
 * seed per process: later calls return the first call's.  */
uint64_t suite_seed (uint64_t default_seed);

}  // namespace testutil

#endif /* GCIPHER_TESTUTIL_H */
