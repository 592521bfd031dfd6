/* bench-slope.cpp - cipher throughput in the layout of libgcrypt's
 * `tests/bench-slope cipher`.
 *
 * Usage:
 *   bench-slope [--cpu-mhz auto|MHZ] [--disable-hwf NAME]...
 *               [--repetitions N] [--unaligned] [--csv] [--verbose]
 *               [--debug] [COMMAND [ALGO...]]
 *
 * The options and commands are libgcrypt's bench-slope's.  COMMAND
 * `cipher' (or none: every algorithm) is what this program times; hash,
 * mac, kdf and ecc (and benchmark's md, random, pubkey, ...) are accepted
 * and skipped with a note on stderr, since gcipher has only ciphers.
 * --repetitions below 2 falls back to the default with a note.
 *
 * Output (stdout), per algorithm:
 *
 *   Cipher:
 *    AES            |  nanosecs/byte   mebibytes/sec   cycles/byte  auto Mhz
 *           ECB enc |     0.050 ns/B     19073 MiB/s     0.250 c/B      5000
 *           ...
 *          GCM auth |     ...
 *                   =
 *
 * Rows: ECB, CBC, CFB, OFB, CTR, XTS enc/dec and CCM, EAX, GCM, OCB, SIV,
 * GCM-SIV enc/dec/auth (stream ciphers: STREAM enc/dec, POLY1305
 * enc/dec/auth), each only if the library opens the mode for the
 * algorithm and its first call succeeds.  The "auto Mhz" column is there
 * with --cpu-mhz auto; with --cpu-mhz MHZ cycles/byte uses that clock and
 * the column is left out; without the option (or where the estimate
 * fails) the cycles/byte cell is `-', as in libgcrypt (empty in CSV).
 * --csv prints instead one line per row:
 *   cipher,ALGO,MODE OP,,,NS,ns/B,MIBS,MiB/s,CPB,c/B[,MHZ,Mhz]
 *
 * Method: a row is the slope of a line fitted (least squares) through the
 * best time of one call for each of 16 buffer lengths, 1 KiB .. 16 KiB:
 * what a call costs per additional byte, so set-up, IV and tag costs per
 * call drop out.  Each length is timed --repetitions times (default 32),
 * lengths interleaved, and the fastest kept.  One call is, for ECB..XTS,
 * setiv (IV or tweak; setctr for CTR; nothing for ECB) and one in-place
 * encrypt or decrypt call; for the AEAD modes one message (nonce, CCM
 * lengths, data, gettag or checktag; a tag mismatch is expected and still
 * timed); for "auth" nonce + authenticate (all bytes as AAD; before the
 * nonce for SIV, whose nonce is its last AAD component, RFC 5297 3) + an
 * empty final encryption + gettag.  SIV and GCM-SIV are reset before each
 * message (they refuse a new nonce otherwise).
 * Clock: CLOCK_MONOTONIC_RAW.  "auto" MHz: bench::estimate_cpu_mhz (a
 * dependent add chain, same slope method) right after each row.
 *
 * Like tests/benchmark it uses only the public libgcrypt API and links
 * the shared gcipher with a RUNPATH, so
 *   LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu tests/bench-slope cipher aes
 * times the system libgcrypt with the same binary.
 */

#include <gcrypt.h>

#include <stdarg.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench-api.h"
#include "bench-common.h"

namespace {

constexpr const char *kPgm = "bench-slope";
constexpr size_t kStep = 1024;       /* bytes between buffer lengths */
constexpr size_t kPoints = 16;       /* buffer lengths per row */
constexpr size_t kMaxKey = 64;       /* bytes (XTS/SIV: two 32-byte keys) */
constexpr size_t kTagLen = 16;
constexpr size_t kNonceLen = 12;

bench::SlopeOptions opt;

/* --verbose: a line on stderr (stdout flushed first so that the two
 * streams interleave in order on a terminal).  */
void __attribute__ ((format (printf, 1, 2)))
verbose (const char *fmt, ...)
{
  if (!opt.verbose)
    return;
  fflush (stdout);
  fprintf (stderr, "%s: ", kPgm);
  va_list ap;
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  putc ('\n', stderr);
}

enum Op { kEnc, kDec, kAuth };
const char *const kOpName[] = { "enc", "dec", "auth" };

/* One row's handle and buffers.  */
struct Row
{
  gcry_cipher_hd_t hd = nullptr;
  int mode = 0;
  size_t blklen = 0;
  unsigned char *buf = nullptr;   /* in place: input and output */
  unsigned char key[kMaxKey];
  unsigned char iv[16];
  unsigned char tag[kTagLen];
  size_t taglen = kTagLen;
};

bool
is_aead (int mode)
{
  switch (mode)
    {
    case GCRY_CIPHER_MODE_CCM: case GCRY_CIPHER_MODE_EAX:
    case GCRY_CIPHER_MODE_GCM: case GCRY_CIPHER_MODE_OCB:
    case GCRY_CIPHER_MODE_SIV: case GCRY_CIPHER_MODE_GCM_SIV:
    case GCRY_CIPHER_MODE_POLY1305:
      return true;
    default:
      return false;
    }
}

/* Tag checked on decryption before the data (SIV and GCM-SIV).  */
bool
tag_first (int mode)
{
  return mode == GCRY_CIPHER_MODE_SIV || mode == GCRY_CIPHER_MODE_GCM_SIV;
}

/* One timed call of OP over LEN bytes.  */
bool
run_op (Row &r, Op op, size_t len)
{
  gcry_error_t err = 0;
  if (!is_aead (r.mode))
    {
      size_t ivlen = r.blklen <= 16 ? r.blklen : 16;
      if (r.mode == GCRY_CIPHER_MODE_CTR)
        err = gcry_cipher_setctr (r.hd, r.iv, ivlen);
      else if (r.mode != GCRY_CIPHER_MODE_ECB
               && r.mode != GCRY_CIPHER_MODE_STREAM)
        err = gcry_cipher_setiv (r.hd, r.iv, ivlen);
      if (!err)
        err = op == kEnc ? gcry_cipher_encrypt (r.hd, r.buf, len, nullptr, 0)
                         : gcry_cipher_decrypt (r.hd, r.buf, len, nullptr, 0);
      return !err;
    }
  /* SIV and GCM-SIV take no new nonce after a finished message until
   * reset (libgcrypt's rule: GPG_ERR_INV_STATE otherwise).  */
  if (tag_first (r.mode) && gcry_cipher_reset (r.hd))
    return false;
  /* SIV's nonce is its last associated-data component (RFC 5297 3), so
   * the associated data comes before it.  */
  bool aad_first = op == kAuth && r.mode == GCRY_CIPHER_MODE_SIV;
  if (aad_first && gcry_cipher_authenticate (r.hd, r.buf, len))
    return false;
  err = gcry_cipher_setiv (r.hd, r.iv, kNonceLen);
  if (err)
    return false;
  if (r.mode == GCRY_CIPHER_MODE_CCM)
    {
      uint64_t params[3] = { op == kAuth ? 0 : (uint64_t) len,
                             op == kAuth ? (uint64_t) len : 0,
                             (uint64_t) r.taglen };
      err = gcry_cipher_ctl (r.hd, GCRYCTL_SET_CCM_LENGTHS, params,
                             sizeof params);
      if (err)
        return false;
    }
  if (op == kAuth)
    {
      /* Then an empty, final data part: OCB and SIV produce the tag
       * only after the data phase.  */
      if (!aad_first)
        err = gcry_cipher_authenticate (r.hd, r.buf, len);
      if (!err)
        err = gcry_cipher_final (r.hd);
      if (!err)
        err = gcry_cipher_encrypt (r.hd, r.buf, 0, nullptr, 0);
      if (!err)
        err = gcry_cipher_gettag (r.hd, r.tag, r.taglen);
      return !err;
    }
  /* The whole message in one call: mark it the last (OCB needs it).  */
  err = gcry_cipher_final (r.hd);
  if (err)
    return false;
  if (op == kEnc)
    {
      err = gcry_cipher_encrypt (r.hd, r.buf, len, nullptr, 0);
      if (!err)
        err = gcry_cipher_gettag (r.hd, r.tag, r.taglen);
      return !err;
    }
  if (tag_first (r.mode))
    {
      err = gcry_cipher_set_decryption_tag (r.hd, r.tag, r.taglen);
      if (err)
        return false;
      err = gcry_cipher_decrypt (r.hd, r.buf, len, nullptr, 0);
    }
  else
    {
      err = gcry_cipher_decrypt (r.hd, r.buf, len, nullptr, 0);
      if (!err)
        err = gcry_cipher_checktag (r.hd, r.tag, r.taglen);
    }
  /* The buffer changes between calls, so the tag does not match: the
   * check is still done in full.  */
  return !err || gcry_err_code (err) == GPG_ERR_CHECKSUM;
}

void
print_header (const char *algo)
{
  if (opt.csv)
    return;
  printf (" %-14s | ", algo);
  if (opt.auto_mhz)
    printf ("%14s %15s %13s %9s\n", "nanosecs/byte", "mebibytes/sec",
            "cycles/byte", "auto Mhz");
  else
    printf ("%14s %15s %13s\n", "nanosecs/byte", "mebibytes/sec",
            "cycles/byte");
  fflush (stdout);
}

void
print_row (const char *algo, const std::string &row, double ns_per_byte,
           double mhz)
{
  std::string ns = bench::format_number (ns_per_byte);
  std::string mib = bench::format_number (
      bench::ns_per_byte_to_mib_per_s (ns_per_byte));
  std::string cpb = bench::format_cpb_cell (ns_per_byte, mhz, opt.csv);
  std::string mhz_s = mhz > 0 ? bench::format_number (mhz)
                              : opt.csv ? "" : "-";
  if (opt.csv)
    {
      printf ("cipher,%s,%s,,,%s,ns/B,%s,MiB/s,%s,c/B", algo, row.c_str (),
              ns.c_str (), mib.c_str (), cpb.c_str ());
      if (opt.auto_mhz)
        printf (",%s,Mhz", mhz_s.c_str ());
      putchar ('\n');
    }
  else
    {
      printf (" %14s | %9s ns/B %9s MiB/s %9s c/B", row.c_str (), ns.c_str (),
              mib.c_str (), cpb.c_str ());
      if (opt.auto_mhz)
        printf (" %9s", mhz_s.c_str ());
      putchar ('\n');
    }
  fflush (stdout);
}

struct SlopeMode
{
  const char *name;
  int mode;
  bool aead;
};

const SlopeMode kBlockModes[] = {
  { "ECB", GCRY_CIPHER_MODE_ECB, false },
  { "CBC", GCRY_CIPHER_MODE_CBC, false },
  { "CFB", GCRY_CIPHER_MODE_CFB, false },
  { "OFB", GCRY_CIPHER_MODE_OFB, false },
  { "CTR", GCRY_CIPHER_MODE_CTR, false },
  { "XTS", GCRY_CIPHER_MODE_XTS, false },
  { "CCM", GCRY_CIPHER_MODE_CCM, true },
  { "EAX", GCRY_CIPHER_MODE_EAX, true },
  { "GCM", GCRY_CIPHER_MODE_GCM, true },
  { "OCB", GCRY_CIPHER_MODE_OCB, true },
  { "SIV", GCRY_CIPHER_MODE_SIV, true },
  { "GCM-SIV", GCRY_CIPHER_MODE_GCM_SIV, true },
};
const SlopeMode kStreamModes[] = {
  { "STREAM", GCRY_CIPHER_MODE_STREAM, false },
  { "POLY1305", GCRY_CIPHER_MODE_POLY1305, true },
};

/* Benchmark one algorithm; false if it has no usable parameters.  */
bool
cipher_bench (int algo, unsigned char *buf)
{
  const char *name = gcry_cipher_algo_name (algo);
  size_t keylen = gcry_cipher_get_algo_keylen (algo);
  size_t blklen = gcry_cipher_get_algo_blklen (algo);
  if (!keylen || keylen > kMaxKey / 2 || !blklen)
    {
      fprintf (stderr, "%s: %s: no usable key or block length\n", kPgm, name);
      return false;
    }
  print_header (name);
  std::vector<size_t> sizes = bench::slope_sizes (kStep, kPoints);
  bool stream = blklen == 1;
  const SlopeMode *modes = stream ? kStreamModes : kBlockModes;
  size_t nmodes = stream ? sizeof kStreamModes / sizeof kStreamModes[0]
                         : sizeof kBlockModes / sizeof kBlockModes[0];
  for (size_t mi = 0; mi < nmodes; mi++)
    {
      const SlopeMode &m = modes[mi];
      Row r;
      r.mode = m.mode;
      r.blklen = blklen;
      r.buf = buf;
      r.taglen = blklen > 1 && blklen < kTagLen ? blklen : kTagLen;
      for (size_t i = 0; i < sizeof r.key; i++)
        r.key[i] = (unsigned char) (0x31 + 7 * i);
      for (size_t i = 0; i < sizeof r.iv; i++)
        r.iv[i] = (unsigned char) (0xa0 + i);
      memset (r.tag, 0x5a, sizeof r.tag);
      bool two_keys = m.mode == GCRY_CIPHER_MODE_XTS
                      || m.mode == GCRY_CIPHER_MODE_SIV;
      gcry_error_t err = gcry_cipher_open (&r.hd, algo, m.mode, 0);
      if (err)
        {
          verbose ("%s %s: no row: open: %s", name, m.name,
                   gcry_strerror (err));
          continue;
        }
      err = gcry_cipher_setkey (r.hd, r.key, two_keys ? 2 * keylen : keylen);
      if (err)
        {
          verbose ("%s %s: no row: setkey: %s", name, m.name,
                   gcry_strerror (err));
          gcry_cipher_close (r.hd);
          continue;
        }
      int nops = m.aead ? 3 : 2;
      for (int o = 0; o < nops; o++)
        {
          Op op = (Op) o;
          double ns = bench::measure_slope_ns (
              [&r, op] (size_t len) { return run_op (r, op, len); }, sizes,
              opt.repetitions);
          if (ns < 0)
            {
              verbose ("%s %s %s: no row: a call failed", name, m.name,
                       kOpName[o]);
              continue;
            }
          double mhz = opt.cpu_mhz;
          if (opt.auto_mhz)
            mhz = bench::estimate_cpu_mhz ();
          std::string row = std::string (m.name) + " " + kOpName[o];
          print_row (name, row, ns, mhz);
        }
      gcry_cipher_close (r.hd);
    }
  if (!opt.csv)
    printf (" %14s =\n", "");
  fflush (stdout);
  return true;
}

[[noreturn]] void
usage (int status, const std::string &why)
{
  if (!why.empty ())
    fprintf (stderr, "%s: %s\n", kPgm, why.c_str ());
  FILE *f = status ? stderr : stdout;
  fprintf (f,
           "usage: %s [options] [cipher [ALGO...]]\n"
           "Times ciphers per byte, in the layout of libgcrypt's"
           " bench-slope.\n"
           "Without a command every cipher algorithm is timed; the"
           " commands hash, mac,\n"
           "kdf and ecc (and md, random, pubkey, rsa, dsa, mpi, prime)"
           " are accepted but\n"
           "skipped: gcipher has ciphers only.\n"
           "options:\n"
           "  --cpu-mhz auto|MHZ     clock for the cycles/byte column"
           " (auto: estimate it\n"
           "                         after each row); without it the"
           " column shows -\n"
           "  --disable-hwf NAME     switch a hardware feature off in the"
           " library\n"
           "  --repetitions N        timings per buffer length, N >= %d"
           " (default %d)\n"
           "  --unaligned            buffer one byte off alignment\n"
           "  --csv                  comma-separated rows\n"
           "  --verbose, --debug     library and skipped rows on"
           " stderr\n",
           kPgm, bench::kSlopeMinRepetitions,
           bench::kSlopeDefaultRepetitions);
  exit (status);
}

} // namespace

int
main (int argc, char **argv)
{
  bench::check_api (kPgm);
  std::vector<std::string> args (argv + 1, argv + argc);
  for (const std::string &a : args)
    if (a == "-h")
      usage (0, "");
  std::string err;
  if (!bench::parse_slope_args (args, &opt, &err))
    usage (2, err);
  if (opt.help)
    usage (0, "");
  for (const std::string &n : opt.notes)
    fprintf (stderr, "%s: %s\n", kPgm, n.c_str ());
  if (!opt.run_cipher ())
    return 0;

  /* Before the library initialises (gcry_check_version).  */
  for (const std::string &h : opt.disable_hwf)
    if (gcry_control (GCRYCTL_DISABLE_HWF, h.c_str (), NULL))
      fprintf (stderr, "%s: unknown hardware feature `%s' - option ignored\n",
               kPgm, h.c_str ());
  const char *version = gcry_check_version (NULL);
  gcry_control (GCRYCTL_DISABLE_SECMEM, 0);
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);
  if (opt.verbose)
    {
      fprintf (stderr, "%s: library %s version %s, %d repetitions\n", kPgm,
               bench::library_path (), version ? version : "(null)",
               opt.repetitions);
      gcry_control (GCRYCTL_PRINT_CONFIG, stderr);
    }

  size_t bufsize = kStep * kPoints + 128;
  unsigned char *raw = static_cast<unsigned char *> (aligned_alloc (64,
                                                                   bufsize));
  if (!raw)
    {
      fprintf (stderr, "%s: out of memory\n", kPgm);
      return 2;
    }
  for (size_t i = 0; i < bufsize; i++)
    raw[i] = (unsigned char) (1 + i % 251);
  unsigned char *buf = raw + (opt.unaligned ? 1 : 0);

  bench::spin_warmup (100);
  if (!opt.csv)
    printf ("Cipher:\n");
  int status = 0;
  if (opt.algos.empty ())
    {
      for (int algo = 1; algo < 400; algo++)
        if (!gcry_cipher_test_algo (algo))
          cipher_bench (algo, buf);
    }
  else
    for (const std::string &a : opt.algos)
      {
        int algo = gcry_cipher_map_name (a.c_str ());
        if (!algo || gcry_cipher_test_algo (algo))
          {
            fflush (stdout);
            fprintf (stderr, "%s: invalid or unavailable cipher algorithm"
                     " `%s'\n", kPgm, a.c_str ());
            status = 1;
            continue;
          }
        if (!cipher_bench (algo, buf))
          status = 1;
      }
  free (raw);
  return status;
}
