/* benchmark.cpp - cipher timing table in the layout of libgcrypt's
 * `tests/benchmark cipher`.
 *
 * Usage:
 *   benchmark [--cipher-repetitions N] [--large-buffers] [--huge-buffers]
 *             [--alignment N] [--disable-hwf NAME]... [--verbose] [--debug]
 *             [--cipher-with-keysetup] [--use-secmem] [--fips]
 *             [COMMAND [ALGO...]]
 *
 * Options and commands are those of libgcrypt's benchmark (parsed by
 * bench::parse_benchmark_args).  COMMAND `cipher', or none (every cipher
 * algorithm), prints the table below; libgcrypt's other commands (md,
 * mac, random, mpi, pubkey, rsa, dsa, ecc, prime) and its options for
 * those parts (--hash-repetitions, --mac-repetitions, --pk-count,
 * --no-blinding, --progress, --prefer-*-rng) are accepted and skipped
 * with a note on stderr: gcipher has ciphers only.
 *
 * --cipher-with-keysetup puts gcry_cipher_setkey into every timed
 * repetition (the chained modes keep their IV across it: setkey leaves
 * the IV alone).  --use-secmem opens the handles with GCRY_CIPHER_SECURE
 * (a secure-memory pool instead of disabling it).  --fips asks the
 * library for FIPS mode before it initialises; gcipher has none and says
 * so, a libgcrypt run under LD_LIBRARY_PATH then lists only the approved
 * algorithms.  --debug is --verbose.
 *
 * The program uses nothing but the public libgcrypt API (gcrypt.h), so the
 * very same binary runs on gcipher's libgcrypt.so.20 (the RUNPATH set at
 * link time) and on the system libgcrypt (LD_LIBRARY_PATH=<its directory>,
 * which takes precedence over a RUNPATH).  tests/compare-system does that.
 *
 * Output (stdout), one row per algorithm:
 *
 *                  ECB/Stream    CBC/Poly1305       CFB ...       EAX
 *                  --------------- --------------- ... ---------------
 *     AES            0.120ms 0.118ms ...
 *
 * Each column pair is one mode, encryption time then decryption time.  A
 * cell is the CPU time (CLOCK_PROCESS_CPUTIME_ID, user + system) of
 * REPS calls that each process BUFLEN bytes through the library:
 *
 *   default           BUFLEN = 1024 bytes,        REPS = 1000 * N
 *   --large-buffers   BUFLEN = 100 * 1024 bytes,  REPS = 10 * N
 *   --huge-buffers    BUFLEN = 256 MiB,           REPS = 4 * N
 *
 * where N is --cipher-repetitions (default 1): the same bytes per cell as
 * libgcrypt's benchmark (1 MiB, 1000 KiB, 1 GiB times N).  Times are the
 * total for the cell, not per repetition.  For the AEAD modes (CCM, GCM,
 * OCB, EAX, Poly1305) every repetition is one complete message: set the
 * nonce, (CCM: declare the lengths), finalize, encrypt or decrypt BUFLEN
 * bytes, then produce (gettag) or verify (checktag) the tag (16 bytes;
 * the block length for EAX on 64-bit block ciphers).  The other
 * modes keep their IV/counter chained across repetitions, like one long
 * stream.  XTS uses a double-length key and at most 16 MiB (2^20 blocks)
 * per call.  Key setup, handle creation and IV set-up of the chained modes
 * are outside the timed region, and so is one untimed warm-up
 * repetition before each timed loop (its failure also means `-`).
 *
 * A `-` pair means the library has no such mode for the algorithm: the
 * open, the setkey, the set-up or the first call failed (the error is
 * shown with --verbose).  For stream ciphers (block length 1) the first
 * pair is the plain stream and the second the algorithm's Poly1305 AEAD
 * mode, as in libgcrypt, and the row ends after the last pair the
 * library has (ARCFOUR, Salsa20: one pair; ChaCha20: two).
 *
 * After timing, each available mode is checked untimed by a round trip
 * (encrypt, then decrypt with a fresh IV and, for AEAD, the tag check); a
 * mismatch is reported on stderr and makes the exit status 1.
 */

#include <gcrypt.h>

#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench-api.h"
#include "bench-common.h"

namespace {

constexpr const char *kPgm = "benchmark";

/* libgcrypt's algorithm numbers are below 400; the "all algorithms" run
 * walks that range and keeps what gcry_cipher_test_algo accepts.  */
constexpr int kMaxAlgoId = 400;

constexpr size_t kMaxKeyLen = 64;       /* bytes; doubled for XTS */
constexpr size_t kTagLen = 16;          /* bytes; EAX on 64-bit blocks: 8 */
constexpr size_t kXtsMaxCall = 16u << 20; /* bytes per XTS call (2^20 blocks) */
constexpr size_t kVerifyLen = 4096;     /* bytes of the round-trip check */

bench::BenchmarkOptions opt;
int exit_status = 0;

/* One column pair of the table.  A block cipher runs BLOCK_MODE, a stream
 * cipher (block length 1) runs STREAM_MODE; 0 means "no such mode" (`-`). */
struct Column
{
  const char *label;
  int block_mode;
  int stream_mode;
  /* Where the label starts in its 16-character column (separator
   * included): the offsets libgcrypt's header has, which are not all
   * "centred" by one rule, so scripts that cut libgcrypt's header by
   * position cut ours the same.  */
  int label_offset;
};

constexpr Column kColumns[] = {
  { "ECB/Stream",   GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_STREAM, 3 },
  { "CBC/Poly1305", GCRY_CIPHER_MODE_CBC, GCRY_CIPHER_MODE_POLY1305, 1 },
  { "CFB",          GCRY_CIPHER_MODE_CFB, 0, 6 },
  { "OFB",          GCRY_CIPHER_MODE_OFB, 0, 6 },
  { "CTR",          GCRY_CIPHER_MODE_CTR, 0, 6 },
  { "XTS",          GCRY_CIPHER_MODE_XTS, 0, 6 },
  { "CCM",          GCRY_CIPHER_MODE_CCM, 0, 6 },
  { "GCM",          GCRY_CIPHER_MODE_GCM, 0, 6 },
  { "OCB",          GCRY_CIPHER_MODE_OCB, 0, 6 },
  { "EAX",          GCRY_CIPHER_MODE_EAX, 0, 6 },
};
constexpr size_t kNumColumns = sizeof kColumns / sizeof kColumns[0];

bool
is_aead (int mode)
{
  return mode == GCRY_CIPHER_MODE_CCM || mode == GCRY_CIPHER_MODE_GCM
         || mode == GCRY_CIPHER_MODE_OCB || mode == GCRY_CIPHER_MODE_EAX
         || mode == GCRY_CIPHER_MODE_POLY1305;
}

/* Nonce length in bytes of an AEAD mode: CCM with L = 4 (NIST SP 800-38C
 * A.1: 15 - L = 11), 12 for the others (GCM's 96-bit IV, SP 800-38D 5.2.1.1;
 * RFC 7253 and RFC 8439 nonces).  */
size_t
nonce_len (int mode)
{
  return mode == GCRY_CIPHER_MODE_CCM ? 11 : 12;
}

const char *
mode_name (int mode)
{
  switch (mode)
    {
    case GCRY_CIPHER_MODE_ECB: return "ECB";
    case GCRY_CIPHER_MODE_CBC: return "CBC";
    case GCRY_CIPHER_MODE_CFB: return "CFB";
    case GCRY_CIPHER_MODE_OFB: return "OFB";
    case GCRY_CIPHER_MODE_CTR: return "CTR";
    case GCRY_CIPHER_MODE_XTS: return "XTS";
    case GCRY_CIPHER_MODE_CCM: return "CCM";
    case GCRY_CIPHER_MODE_GCM: return "GCM";
    case GCRY_CIPHER_MODE_OCB: return "OCB";
    case GCRY_CIPHER_MODE_EAX: return "EAX";
    case GCRY_CIPHER_MODE_STREAM: return "STREAM";
    case GCRY_CIPHER_MODE_POLY1305: return "POLY1305";
    default: return "?";
    }
}

double
cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* Seven characters "xxxxxms" as libgcrypt prints them, but with as many
 * decimals as fit so that sub-millisecond cells stay readable.  */
void
print_ms (double seconds)
{
  double ms = seconds * 1000.0;
  if (ms < 9.9995)
    printf (" %5.3fms", ms);
  else if (ms < 99.995)
    printf (" %5.2fms", ms);
  else if (ms < 999.95)
    printf (" %5.1fms", ms);
  else
    printf (" %5.0fms", ms);
}

void
print_dash_pair (void)
{
  printf (" %7s %7s", "-", "-");
}

/* An aligned scratch buffer: the data starts ALIGNMENT % 64 bytes past a
 * 64-byte boundary (on the boundary for 64), so --alignment 16 gives an
 * address that is 16- but not 32-byte aligned, every run the same.  */
struct Buffer
{
  unsigned char *raw = nullptr;
  unsigned char *p = nullptr;

  bool
  alloc (size_t len, size_t alignment)
  {
    raw = static_cast<unsigned char *> (aligned_alloc (64, len + 128));
    if (!raw)
      return false;
    p = raw + (alignment % 64);
    return true;
  }
  ~Buffer () { free (raw); }
};

/* State of one algorithm's run.  */
struct Bench
{
  int algo = 0;
  const char *name = nullptr;
  size_t keylen = 0;
  size_t blklen = 0;
  unsigned char key[2 * kMaxKeyLen];
  unsigned char iv[16];
  unsigned char nonce[16];
  unsigned char tag[kTagLen];
  size_t taglen = kTagLen;          /* min (16, block length) */
  size_t buflen = 0;
  int reps = 0;
  unsigned char *plain = nullptr;   /* BUFLEN bytes of non-zero data */
  unsigned char *cipher = nullptr;  /* encryption output */
  unsigned char *back = nullptr;    /* decryption output */
};

void
verbose_error (const Bench &b, int mode, const char *what, gcry_error_t err)
{
  if (opt.verbose)
    fprintf (stderr, "%s: %s %s: %s: %s\n", kPgm, b.name, mode_name (mode),
             what, gcry_strerror (err));
}

/* Open a handle and load the key (double length for XTS) and, for the
 * chained modes, the fixed IV/counter.  Returns NULL if the library
 * refuses any step.  */
gcry_cipher_hd_t
open_handle (const Bench &b, int mode)
{
  gcry_cipher_hd_t hd = nullptr;
  gcry_error_t err = gcry_cipher_open (&hd, b.algo, mode,
                                       opt.use_secmem ? GCRY_CIPHER_SECURE
                                                      : 0);
  if (err)
    {
      verbose_error (b, mode, "open", err);
      return nullptr;
    }
  size_t klen = mode == GCRY_CIPHER_MODE_XTS ? 2 * b.keylen : b.keylen;
  err = gcry_cipher_setkey (hd, b.key, klen);
  if (err)
    {
      verbose_error (b, mode, "setkey", err);
      gcry_cipher_close (hd);
      return nullptr;
    }
  return hd;
}

/* Put a chained-mode handle at the start of its stream: the fixed IV
 * (CBC, CFB, OFB, XTS tweak) or initial counter block (CTR).  */
gcry_error_t
start_stream (const Bench &b, gcry_cipher_hd_t hd, int mode)
{
  size_t ivlen = b.blklen <= sizeof b.iv ? b.blklen : sizeof b.iv;
  switch (mode)
    {
    case GCRY_CIPHER_MODE_CBC:
    case GCRY_CIPHER_MODE_CFB:
    case GCRY_CIPHER_MODE_OFB:
    case GCRY_CIPHER_MODE_XTS:
      return gcry_cipher_setiv (hd, b.iv, ivlen);
    case GCRY_CIPHER_MODE_CTR:
      return gcry_cipher_setctr (hd, b.iv, ivlen);
    default:
      return 0;   /* ECB, STREAM: nothing to set */
    }
}

/* Encrypt or decrypt LEN bytes in calls of at most the mode's limit.  */
gcry_error_t
crypt (gcry_cipher_hd_t hd, int mode, bool enc, unsigned char *out,
       const unsigned char *in, size_t len)
{
  size_t max_call = mode == GCRY_CIPHER_MODE_XTS ? kXtsMaxCall : len;
  if (max_call == 0)
    max_call = 1;
  while (len)
    {
      size_t n = len < max_call ? len : max_call;
      gcry_error_t err = enc ? gcry_cipher_encrypt (hd, out, n, in, n)
                             : gcry_cipher_decrypt (hd, out, n, in, n);
      if (err)
        return err;
      out += n;
      in += n;
      len -= n;
    }
  return 0;
}

/* One AEAD message of LEN bytes: nonce, CCM lengths, finalize, data, then
 * gettag (ENC) or checktag against b.tag.  A failed tag check comes back
 * as GPG_ERR_CHECKSUM for the caller to judge.  */
gcry_error_t
aead_message (Bench &b, gcry_cipher_hd_t hd, int mode, bool enc,
              unsigned char *out, const unsigned char *in, size_t len)
{
  gcry_error_t err = gcry_cipher_setiv (hd, b.nonce, nonce_len (mode));
  if (err)
    return err;
  if (mode == GCRY_CIPHER_MODE_CCM)
    {
      uint64_t params[3] = { len, 0, b.taglen };  /* data, AAD, tag bytes */
      err = gcry_cipher_ctl (hd, GCRYCTL_SET_CCM_LENGTHS, params,
                             sizeof params);
      if (err)
        return err;
    }
  err = gcry_cipher_final (hd);
  if (err)
    return err;
  err = crypt (hd, mode, enc, out, in, len);
  if (err)
    return err;
  return enc ? gcry_cipher_gettag (hd, b.tag, b.taglen)
             : gcry_cipher_checktag (hd, b.tag, b.taglen);
}

/* Time one direction of one mode; returns the CPU seconds, or a negative
 * value if the mode is not available.  Encryption reads b.plain and
 * writes b.cipher; decryption reads b.cipher (so AEAD tags verify) and
 * writes b.back.  */
double
time_direction (Bench &b, int mode, bool enc)
{
  gcry_cipher_hd_t hd = open_handle (b, mode);
  if (!hd)
    return -1.0;
  bool aead = is_aead (mode);
  gcry_error_t err = aead ? 0 : start_stream (b, hd, mode);
  if (err)
    {
      verbose_error (b, mode, "setiv", err);
      gcry_cipher_close (hd);
      return -1.0;
    }

  unsigned char *out = enc ? b.cipher : b.back;
  const unsigned char *in = enc ? b.plain : b.cipher;
  bool tag_failed = false;

  /* Repetition -1 is an untimed warm-up (lazy binding, caches, first-use
   * set-up in the library); its failure means "not available".  */
  size_t klen = mode == GCRY_CIPHER_MODE_XTS ? 2 * b.keylen : b.keylen;
  double t0 = 0;
  for (int i = -1; i < b.reps; i++)
    {
      if (i == 0)
        t0 = cpu_seconds ();
      if (opt.cipher_with_keysetup)
        {
          err = gcry_cipher_setkey (hd, b.key, klen);
          if (err)
            break;
        }
      if (aead)
        {
          err = aead_message (b, hd, mode, enc, out, in, b.buflen);
          if (!enc && gcry_err_code (err) == GPG_ERR_CHECKSUM)
            {
              tag_failed = true;
              err = 0;
            }
        }
      else
        err = crypt (hd, mode, enc, out, in, b.buflen);
      if (err)
        break;
    }
  double t1 = cpu_seconds ();
  gcry_cipher_close (hd);

  if (err)
    {
      verbose_error (b, mode, enc ? "encrypt" : "decrypt", err);
      return -1.0;
    }
  if (tag_failed)
    {
      fprintf (stderr, "%s: warning: %s %s: tag of its own ciphertext "
               "did not verify\n", kPgm, b.name, mode_name (mode));
      exit_status = 1;
    }
  return t1 - t0;
}

/* Untimed round trip over min(BUFLEN, 4 KiB) bytes with fresh handles:
 * decrypt(encrypt(P)) must give P back and the AEAD tag must verify.  */
void
verify_round_trip (Bench &b, int mode)
{
  size_t len = b.buflen < kVerifyLen ? b.buflen : kVerifyLen;
  bool aead = is_aead (mode);
  bool ok = true;
  gcry_error_t err = 0;

  for (int pass = 0; pass < 2 && ok; pass++)
    {
      bool enc = pass == 0;
      gcry_cipher_hd_t hd = open_handle (b, mode);
      if (!hd)
        return;
      unsigned char *out = enc ? b.cipher : b.back;
      const unsigned char *in = enc ? b.plain : b.cipher;
      if (aead)
        err = aead_message (b, hd, mode, enc, out, in, len);
      else
        {
          err = start_stream (b, hd, mode);
          if (!err)
            err = crypt (hd, mode, enc, out, in, len);
        }
      gcry_cipher_close (hd);
      if (err)
        ok = false;
    }
  if (ok && memcmp (b.back, b.plain, len) != 0)
    ok = false;
  if (!ok)
    {
      fprintf (stderr, "%s: warning: %s %s: round trip failed%s%s\n", kPgm,
               b.name, mode_name (mode), err ? ": " : " (data mismatch)",
               err ? gcry_strerror (err) : "");
      exit_status = 1;
    }
}

void
print_header (void)
{
  static bool printed;
  if (printed)
    return;
  printed = true;
  if (opt.cipher_repetitions != 1)
    printf ("Running each test %d times.\n", opt.cipher_repetitions);
  /* The name column is 13 characters here (12 in the rows, whose cells
   * bring their own separator); the label line is one character shorter
   * than the dash line, as libgcrypt's.  */
  std::string line (13, ' ');
  for (size_t i = 0; i < kNumColumns; i++)
    {
      const Column &c = kColumns[i];
      std::string col (16, ' ');
      col.replace ((size_t) c.label_offset, strlen (c.label), c.label);
      line += col;
    }
  line.pop_back ();
  printf ("%s\n", line.c_str ());
  printf ("%-12s", "");
  for (size_t i = 0; i < kNumColumns; i++)
    printf (" ---------------");
  putchar ('\n');
  fflush (stdout);
}

/* Benchmark one algorithm: one row of the table.  */
bool
cipher_bench (int algo, const Buffer &plain, const Buffer &ct,
              const Buffer &back, size_t allocated)
{
  Bench b;
  b.algo = algo;
  b.name = gcry_cipher_algo_name (algo);
  b.keylen = gcry_cipher_get_algo_keylen (algo);
  b.blklen = gcry_cipher_get_algo_blklen (algo);
  if (!b.keylen || b.keylen > kMaxKeyLen || !b.blklen)
    {
      fprintf (stderr, "%s: %s: no usable key or block length\n", kPgm,
               b.name);
      return false;
    }
  /* Fixed key: distinct bytes, so the XTS halves differ and no DES
   * half is weak.  */
  for (size_t i = 0; i < sizeof b.key; i++)
    b.key[i] = (unsigned char) (0x31 + 7 * i);
  for (size_t i = 0; i < sizeof b.iv; i++)
    b.iv[i] = (unsigned char) (0xa0 + i);
  for (size_t i = 0; i < sizeof b.nonce; i++)
    b.nonce[i] = (unsigned char) (0x42 + 3 * i);
  memset (b.tag, 0, sizeof b.tag);
  /* EAX tags are at most one block; stream ciphers (Poly1305) use 16.  */
  b.taglen = b.blklen > 1 && b.blklen < kTagLen ? b.blklen : kTagLen;

  b.plain = plain.p;
  b.cipher = ct.p;
  b.back = back.p;
  b.reps = opt.cipher_repetitions
           * (opt.huge_buffers ? 4 : opt.large_buffers ? 10 : 1000);

  print_header ();
  printf ("%-12s", b.name);
  fflush (stdout);

  /* A stream cipher's row ends after its last available pair (the
   * block-cipher columns do not apply to it), as in libgcrypt; a `-' pair
   * is printed only once a later pair has a time.  */
  bool stream = b.blklen == 1;
  int pending_dashes = 0;
  for (const Column &c : kColumns)
    {
      int mode = stream ? c.stream_mode : c.block_mode;
      if (!mode)
        {
          if (stream)
            pending_dashes++;
          else
            print_dash_pair ();
          continue;
        }
      /* Whole blocks for the modes without padding or finalization.  */
      b.buflen = allocated;
      if (mode == GCRY_CIPHER_MODE_ECB || mode == GCRY_CIPHER_MODE_CBC
          || mode == GCRY_CIPHER_MODE_OCB)
        b.buflen = allocated / b.blklen * b.blklen;

      double te = time_direction (b, mode, true);
      if (te < 0)
        {
          if (stream)
            pending_dashes++;
          else
            print_dash_pair ();
          fflush (stdout);
          continue;
        }
      for (; pending_dashes; pending_dashes--)
        print_dash_pair ();
      print_ms (te);
      fflush (stdout);
      double td = time_direction (b, mode, false);
      if (td < 0)
        printf (" %7s", "-");
      else
        print_ms (td);
      fflush (stdout);
      verify_round_trip (b, mode);
    }
  putchar ('\n');
  fflush (stdout);
  return true;
}

[[noreturn]] void
usage (int status)
{
  fprintf (status ? stderr : stdout,
           "usage: %s [options] [cipher [ALGO...]]\n"
           "Times ciphers in the table layout of libgcrypt's benchmark"
           " (milliseconds of\n"
           "CPU time per cell).  Without a command every cipher algorithm"
           " is timed; md,\n"
           "mac, random, mpi, pubkey, rsa, dsa, ecc and prime are accepted"
           " but skipped:\n"
           "gcipher has ciphers only.\n"
           "options:\n"
           "  --cipher-repetitions N  N times the calls per cell"
           " (default 1)\n"
           "  --large-buffers         100 KiB per call instead of 1 KiB\n"
           "  --huge-buffers          256 MiB per call\n"
           "  --alignment N           buffers N bytes past a 64-byte"
           " boundary (1..64)\n"
           "  --cipher-with-keysetup  set the key in every timed"
           " repetition\n"
           "  --use-secmem            handles in secure memory\n"
           "  --fips                  ask the library for FIPS mode\n"
           "  --disable-hwf NAME      switch a hardware feature off in the"
           " library\n"
           "  --verbose, --debug      library, configuration and errors on"
           " stderr\n"
           "accepted and ignored (no cipher meaning): --hash-repetitions N,"
           "\n"
           "  --mac-repetitions N, --pk-count N, --no-blinding, --progress,\n"
           "  --prefer-standard-rng, --prefer-fips-rng,"
           " --prefer-system-rng\n", kPgm);
  exit (status);
}

} // namespace

int
main (int argc, char **argv)
{
  bench::check_api (kPgm);
  std::string err;
  if (!bench::parse_benchmark_args (
          std::vector<std::string> (argv + 1, argv + argc), &opt, &err))
    {
      fprintf (stderr, "%s: %s\n", kPgm, err.c_str ());
      usage (2);
    }
  if (opt.help)
    usage (0);
  for (const std::string &n : opt.notes)
    fprintf (stderr, "%s: %s\n", kPgm, n.c_str ());
  if (!opt.run_cipher ())
    return 0;

  /* Both go to the library before its initialization, which
   * gcry_check_version below performs.  */
  for (const std::string &h : opt.disable_hwf)
    if (gcry_control (GCRYCTL_DISABLE_HWF, h.c_str (), NULL))
      fprintf (stderr, "%s: unknown hardware feature `%s'"
               " - option ignored\n", kPgm, h.c_str ());
  if (opt.fips)
    {
      gcry_error_t ferr = gcry_control (GCRYCTL_FORCE_FIPS_MODE, 0);
      if (ferr)
        fprintf (stderr, "%s: the library has no FIPS mode (%s)"
                 " - option --fips ignored\n", kPgm, gcry_strerror (ferr));
    }

  const char *version = gcry_check_version (NULL);
  /* Secure handles need a pool; it is sized for the handful of handles
   * open at a time (one per timed direction).  */
  if (opt.use_secmem)
    gcry_control (GCRYCTL_INIT_SECMEM, 65536, 0);
  else
    gcry_control (GCRYCTL_DISABLE_SECMEM, 0);
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);
  if (opt.verbose)
    {
      fprintf (stderr, "%s: library %s version %s\n", kPgm,
               bench::library_path (), version ? version : "(null)");
      gcry_control (GCRYCTL_PRINT_CONFIG, stderr);
    }

  size_t allocated = opt.huge_buffers ? (size_t) 256 << 20
                     : opt.large_buffers ? (size_t) 100 * 1024 : 1024;
  Buffer plain, ct, back;
  if (!plain.alloc (allocated, opt.alignment)
      || !ct.alloc (allocated, opt.alignment)
      || !back.alloc (allocated, opt.alignment))
    {
      fprintf (stderr, "%s: out of memory\n", kPgm);
      return 2;
    }
  /* Non-zero data (bytes 1..251 repeating); touching every page also
   * commits the memory before the first timing.  */
  for (size_t i = 0; i < allocated; i++)
    plain.p[i] = (unsigned char) (1 + i % 251);
  memset (ct.p, 0x5c, allocated);
  memset (back.p, 0xc5, allocated);

  if (opt.algos.empty ())
    {
      for (int algo = 1; algo < kMaxAlgoId; algo++)
        if (!gcry_cipher_test_algo (algo))
          cipher_bench (algo, plain, ct, back, allocated);
    }
  else
    for (const std::string &name : opt.algos)
      {
        int algo = gcry_cipher_map_name (name.c_str ());
        if (!algo || gcry_cipher_test_algo (algo))
          {
            fflush (stdout);
            fprintf (stderr, "%s: invalid or unavailable cipher algorithm"
                     " `%s'\n", kPgm, name.c_str ());
            exit_status = 1;
            continue;
          }
        if (!cipher_bench (algo, plain, ct, back, allocated))
          exit_status = 1;
      }
  return exit_status;
}
