/* bench-common.cpp - timing, line fit, clock estimate, AES bounds and
 * command-line parsing for the benchmark tools; see bench-common.h.  */
#include <config.h>

#include "bench-common.h"
#include "bench-limit.h"
#include "gcrypt.h"

#include <time.h>

#if defined(__i386__) || defined(__x86_64__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace bench {

/* ---- Clock ----------------------------------------------------------- */

uint64_t
now_ns ()
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC_RAW, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

uint64_t
thread_cpu_ns ()
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

bool
was_preempted (uint64_t wall_ns, uint64_t cpu_ns)
{
  if (cpu_ns >= wall_ns)
    return false;
  return (double) (wall_ns - cpu_ns) > 0.02 * (double) wall_ns + 20000.0;
}

void
spin_warmup (double ms)
{
  uint64_t end = now_ns () + (uint64_t) (ms * 1e6);
  volatile uint64_t x = 0;
  while (now_ns () < end)
    for (int i = 0; i < 1000; i++)
      x = x + 1;
}

/* ---- Statistics -------------------------------------------------------- */

LinearFit
fit_line (const double *x, const double *y, size_t n)
{
  LinearFit f;
  if (n < 2)
    return f;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; i++)
    {
      mx += x[i];
      my += y[i];
    }
  mx /= (double) n;
  my /= (double) n;
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; i++)
    {
      sxx += (x[i] - mx) * (x[i] - mx);
      sxy += (x[i] - mx) * (y[i] - my);
    }
  if (sxx <= 0)
    return f;
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  f.ok = true;
  return f;
}

double
median (std::vector<double> v)
{
  if (v.empty ())
    return 0;
  std::sort (v.begin (), v.end ());
  size_t n = v.size ();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- Slope measurement ------------------------------------------------- */

double
measure_slope_ns (const std::function<bool (size_t)> &op,
                  const std::vector<size_t> &xs, int repetitions)
{
  size_t n = xs.size ();
  if (n < 2 || repetitions < 1)
    return -1;
  std::vector<double> best (n, std::numeric_limits<double>::infinity ());
  /* One untimed call per point: first-touch, lazy set-up.  */
  for (size_t i = 0; i < n; i++)
    if (!op (xs[i]))
      return -1;
  for (int r = 0; r < repetitions; r++)
    for (size_t i = 0; i < n; i++)
      {
        uint64_t t0 = now_ns ();
        bool ok = op (xs[i]);
        uint64_t t1 = now_ns ();
        if (!ok)
          return -1;
        double t = (double) (t1 - t0);
        if (t < best[i])
          best[i] = t;
      }
  std::vector<double> x (n);
  for (size_t i = 0; i < n; i++)
    x[i] = (double) xs[i];
  LinearFit f = fit_line (x.data (), best.data (), n);
  if (!f.ok)
    return -1;
  return f.slope > 0 ? f.slope : 0;
}

std::vector<size_t>
slope_sizes (size_t step, size_t npoints)
{
  std::vector<size_t> v;
  for (size_t i = 1; i <= npoints; i++)
    v.push_back (i * step);
  return v;
}

/* ---- CPU clock estimate ------------------------------------------------ */

namespace {

/* Dependent additions per iteration of the chain.  */
constexpr int kAddsPerIter = 64;

/* ITERS iterations of kAddsPerIter register additions, each depending on
 * the previous one (register operands, so no core can fold them as
 * immediates).  Returns false where no such chain is written.  */
bool
add_chain (size_t iters)
{
#if defined(__x86_64__) || defined(__i386__)
#define ADD8 "add %1, %0\n\t" "add %1, %0\n\t" "add %1, %0\n\t" \
             "add %1, %0\n\t" "add %1, %0\n\t" "add %1, %0\n\t" \
             "add %1, %0\n\t" "add %1, %0\n\t"
  unsigned long acc = 0, step = 3;
  __asm__ volatile ("1:\n\t"
                    ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8
                    "dec %2\n\t"
                    "jnz 1b\n\t"
                    : "+r"(acc), "+r"(step), "+r"(iters)
                    :
                    : "cc");
#undef ADD8
  return true;
#elif defined(__riscv)
#define ADD8 "add %0, %0, %1\n\t" "add %0, %0, %1\n\t" "add %0, %0, %1\n\t" \
             "add %0, %0, %1\n\t" "add %0, %0, %1\n\t" "add %0, %0, %1\n\t" \
             "add %0, %0, %1\n\t" "add %0, %0, %1\n\t"
  unsigned long acc = 0, step = 3;
  __asm__ volatile ("1:\n\t"
                    ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8
                    "addi %2, %2, -1\n\t"
                    "bnez %2, 1b\n\t"
                    : "+r"(acc), "+r"(step), "+r"(iters));
#undef ADD8
  return true;
#else
  (void) iters;
  return false;
#endif
}

} // namespace

double
estimate_cpu_mhz (int repetitions)
{
  if (!add_chain (1))
    return 0;
  /* 16 chain lengths of 32..512 iterations (2048..32768 additions).  */
  std::vector<size_t> xs = slope_sizes (32, 16);
  double ns_per_iter = measure_slope_ns (
      [] (size_t iters) { return add_chain (iters); }, xs, repetitions);
  if (ns_per_iter <= 0)
    return 0;
  double ns_per_add = ns_per_iter / kAddsPerIter;
  return 1000.0 / ns_per_add;
}

double
ns_to_cycles (double ns, double mhz)
{
  return mhz > 0 ? ns * mhz / 1000.0 : 0;
}

double
cycles_to_ns (double cycles, double mhz)
{
  return mhz > 0 ? cycles * 1000.0 / mhz : 0;
}

double
ns_per_byte_to_mib_per_s (double ns_per_byte)
{
  if (ns_per_byte <= 0)
    return 0;
  return 1e9 / (ns_per_byte * 1024.0 * 1024.0);
}

/* ---- Number formatting ------------------------------------------------- */

std::string
format_number (double v)
{
  char buf[64];
  const char *fmt = v < 1.0 ? "%.3f" : v < 100.0 ? "%.2f"
                    : v < 1000.0 ? "%.1f" : "%.0f";
  snprintf (buf, sizeof buf, fmt, v);
  return buf;
}

/* ---- Modes ------------------------------------------------------------- */

namespace {

constexpr double kB = 1.0 / 16;   /* one block-cipher call per 16 bytes */

const std::vector<ModeInfo> kModes = {
  /* name      mode                     aead   2key  ser_e tot_e ser_d tot_d */
  { "ECB",     GCRY_CIPHER_MODE_ECB,     false, false, 0,  kB,   0,  kB },
  { "CBC",     GCRY_CIPHER_MODE_CBC,     false, false, kB, kB,   0,  kB },
  { "CFB",     GCRY_CIPHER_MODE_CFB,     false, false, kB, kB,   0,  kB },
  { "CFB8",    GCRY_CIPHER_MODE_CFB8,    false, false, 1,  1,    0,  1 },
  { "OFB",     GCRY_CIPHER_MODE_OFB,     false, false, kB, kB,   kB, kB },
  { "CTR",     GCRY_CIPHER_MODE_CTR,     false, false, 0,  kB,   0,  kB },
  { "XTS",     GCRY_CIPHER_MODE_XTS,     false, true,  0,  kB,   0,  kB },
  { "CCM",     GCRY_CIPHER_MODE_CCM,     true,  false, kB, 2*kB, kB, 2*kB },
  { "EAX",     GCRY_CIPHER_MODE_EAX,     true,  false, kB, 2*kB, kB, 2*kB },
  { "GCM",     GCRY_CIPHER_MODE_GCM,     true,  false, 0,  kB,   0,  kB },
  { "OCB",     GCRY_CIPHER_MODE_OCB,     true,  false, 0,  kB,   0,  kB },
  { "SIV",     GCRY_CIPHER_MODE_SIV,     true,  true,  kB, 2*kB, kB, 2*kB },
  { "GCM-SIV", GCRY_CIPHER_MODE_GCM_SIV, true,  false, 0,  kB,   0,  kB },
  /* ChaCha20-Poly1305 (ChaCha20 only; no AES bound).  */
  { "POLY1305", GCRY_CIPHER_MODE_POLY1305, true, false, 0, 0,   0,  0 },
};

std::string
canon_mode_name (const std::string &s)
{
  std::string r;
  for (char c : s)
    if (c != '-' && c != '_')
      r += (char) toupper ((unsigned char) c);
  return r;
}

} // namespace

const std::vector<ModeInfo> &
all_modes ()
{
  return kModes;
}

const ModeInfo *
find_mode (const std::string &name)
{
  std::string want = canon_mode_name (name);
  for (const ModeInfo &m : kModes)
    if (canon_mode_name (m.name) == want)
      return &m;
  return nullptr;
}

/* ---- AES bound ----------------------------------------------------------- */

const char *
aes_form_name (int form)
{
  static const char *const names[kNumForms] = { "xmm", "ymm", "zmm" };
  return form >= 0 && form < kNumForms ? names[form] : "?";
}

int
aes_form_lanes (int form)
{
  return form == kFormZmm ? 4 : form == kFormYmm ? 2 : 1;
}

void
merge_fastest (AesInsnTiming *a, const AesInsnTiming &b)
{
  auto faster = [] (double x, double y) {
    return x <= 0 ? y : y <= 0 ? x : std::min (x, y);
  };
  for (int f = 0; f < kNumForms; f++)
    if (b.have[f])
      {
        a->ns_per_insn[f] = a->have[f] ? faster (a->ns_per_insn[f],
                                                 b.ns_per_insn[f])
                                       : b.ns_per_insn[f];
        a->have[f] = true;
      }
  a->latency_ns = faster (a->latency_ns, b.latency_ns);
}

int
best_aes_form (const AesInsnTiming &t, int widest)
{
  int best = -1;
  double best_cost = 0;
  for (int f = 0; f < kNumForms && f <= widest; f++)
    {
      if (!t.have[f] || t.ns_per_insn[f] <= 0)
        continue;
      double cost = t.ns_per_insn[f] / aes_form_lanes (f);
      if (best < 0 || cost < best_cost)
        {
          best = f;
          best_cost = cost;
        }
    }
  return best;
}

int
widest_aes_form_from_hwflist (const std::string &hwflist)
{
  auto has = [&hwflist] (const char *name) {
    for (const std::string &n : split (hwflist, ':'))
      if (n == name)
        return true;
    return false;
  };
  if (!has ("intel-aesni"))
    return -1;
  if (!has ("intel-vaes-vpclmul"))
    return kFormXmm;
  if (has ("intel-avx512"))
    return kFormZmm;
  return has ("intel-avx2") ? kFormYmm : kFormXmm;
}

int
aes_rounds (size_t keylen)
{
  switch (keylen)
    {
    case 16: return 10;
    case 24: return 12;
    case 32: return 14;
    default: return 0;
    }
}

double
limit_ns_per_byte (const ModeInfo &m, bool enc, int rounds,
                   const AesInsnTiming &t, int widest, size_t len)
{
  int f = best_aes_form (t, widest);
  if (f < 0 || rounds <= 0)
    return 0;
  double serial = enc ? m.serial_enc : m.serial_dec;
  double total = enc ? m.total_enc : m.total_dec;
  double per_lane = t.ns_per_insn[f] / aes_form_lanes (f);
  double tput_bound = total * rounds * per_lane;
  double chain_bound = 0;
  if (serial > 0)
    {
      if (t.latency_ns <= 0)
        return 0;
      if (len > 0)
        {
          /* Per message: its chain's blocks less what may overlap.  */
          double blocks = serial * (double) len - kOverlapBlocks;
          serial = blocks > 0 ? blocks / (double) len : 0;
        }
      chain_bound = serial * rounds * t.latency_ns;
    }
  return std::max (tput_bound, chain_bound);
}

double
ratio_best_peer (double gcipher_ns, const std::vector<double> &peer_ns)
{
  double best = 0;
  for (double p : peer_ns)
    if (p > 0 && (best == 0 || p < best))
      best = p;
  if (gcipher_ns <= 0 || best <= 0)
    return 0;
  return best / gcipher_ns;
}

double
percent_of_limit (double limit_ns, double gcipher_ns)
{
  if (limit_ns <= 0 || gcipher_ns <= 0)
    return 0;
  return 100.0 * limit_ns / gcipher_ns;
}

CpuAesForms
detect_aes_forms ()
{
  CpuAesForms r;
#if defined(__i386__) || defined(__x86_64__)
  unsigned a, b, c, d;
  if (!__get_cpuid (1, &a, &b, &c, &d))
    return r;
  bool aesni = c & (1u << 25);
  bool osxsave = c & (1u << 27);
  bool avx = c & (1u << 28);
  r.form[kFormXmm] = aesni;
  if (!osxsave || !avx)
    return r;
  /* XCR0: SSE+AVX state (bits 1, 2), AVX-512 state (5, 6, 7).  */
  unsigned xlo, xhi;
  __asm__ volatile ("xgetbv" : "=a"(xlo), "=d"(xhi) : "c"(0));
  bool ymm_os = (xlo & 0x6) == 0x6;
  bool zmm_os = ymm_os && (xlo & 0xe0) == 0xe0;
  if (__get_cpuid_max (0, nullptr) < 7)
    return r;
  __cpuid_count (7, 0, a, b, c, d);
  bool avx2 = b & (1u << 5);
  bool avx512f = b & (1u << 16);
  bool vaes = c & (1u << 9);
  r.form[kFormYmm] = ymm_os && avx2 && vaes;
  r.form[kFormZmm] = zmm_os && avx512f && vaes;
#endif
  return r;
}

namespace {

/* The fastest of REPETITIONS runs of OP (ITERS), in ns.  */
template <typename Op>
double
fastest_ns (const Op &op, size_t iters, int repetitions)
{
  double best = 0;
  for (int r = 0; r < repetitions; r++)
    {
      uint64_t t0 = now_ns ();
      op (iters);
      uint64_t t1 = now_ns ();
      double t = (double) (t1 - t0);
      if (r == 0 || t < best)
        best = t;
    }
  return best;
}

/* ns per iteration of OP: the fastest runs of N and 4N iterations,
 * interleaved, the difference over 3N (the timer's cost and the loop's
 * set-up cancel).  */
template <typename Op>
double
ns_per_iteration (const Op &op, size_t n, int repetitions)
{
  op (n);    /* first touch, the core's vector units powered up */
  double short_ns = 0, long_ns = 0;
  for (int r = 0; r < repetitions; r++)
    {
      double s = fastest_ns (op, n, 1);
      double l = fastest_ns (op, 4 * n, 1);
      short_ns = r == 0 || s < short_ns ? s : short_ns;
      long_ns = r == 0 || l < long_ns ? l : long_ns;
    }
  double d = (long_ns - short_ns) / (3.0 * (double) n);
  return d > 0 ? d : 0;
}

} // namespace

AesInsnTiming
measure_aes_insn (int repetitions)
{
  AesInsnTiming t;
  if (!limit_kernels_built ())
    return t;
  CpuAesForms forms = detect_aes_forms ();
  /* 2000 iterations: 30000 instructions, some 4-15 us per run.  */
  constexpr size_t kIters = 2000;
  for (int f = 0; f < kNumForms; f++)
    {
      if (!forms.form[f])
        continue;
      double ns_per_iter = ns_per_iteration (
          [f] (size_t it) { limit_throughput_kernel (f, it); }, kIters,
          repetitions);
      if (ns_per_iter <= 0)
        continue;
      t.have[f] = true;
      t.ns_per_insn[f] = ns_per_iter / kLimitChains;
    }
  if (forms.form[kFormXmm])
    {
      double ns_per_iter = ns_per_iteration (
          [] (size_t it) { limit_latency_kernel (it); }, kIters / 4,
          repetitions);
      if (ns_per_iter > 0)
        t.latency_ns = ns_per_iter / kLimitLatencyChain;
    }
  return t;
}

/* ---- Parsing ------------------------------------------------------------ */

bool
parse_int (const std::string &s, long min, long max, long *out)
{
  if (s.empty ())
    return false;
  errno = 0;
  char *end;
  long v = strtol (s.c_str (), &end, 10);
  if (errno || *end || v < min || v > max)
    return false;
  *out = v;
  return true;
}

bool
parse_size (const std::string &s, size_t *out)
{
  size_t i = 0;
  while (i < s.size () && isdigit ((unsigned char) s[i]))
    i++;
  if (i == 0 || i > 12)
    return false;
  unsigned long long v = strtoull (s.substr (0, i).c_str (), nullptr, 10);
  std::string suf = s.substr (i);
  for (char &c : suf)
    c = (char) tolower ((unsigned char) c);
  unsigned long long mult;
  if (suf.empty () || suf == "b")
    mult = 1;
  else if (suf == "k" || suf == "kib" || suf == "kb")
    mult = 1024;
  else if (suf == "m" || suf == "mib" || suf == "mb")
    mult = 1024 * 1024;
  else
    return false;
  if (v > (1ull << 40) / mult)
    return false;
  *out = (size_t) (v * mult);
  return true;
}

std::vector<std::string>
split (const std::string &s, char sep)
{
  std::vector<std::string> r;
  size_t start = 0;
  for (;;)
    {
      size_t p = s.find (sep, start);
      if (p == std::string::npos)
        {
          r.push_back (s.substr (start));
          return r;
        }
      r.push_back (s.substr (start, p - start));
      start = p + 1;
    }
}

bool
parse_size_list (const std::string &s, std::vector<size_t> *out,
                 std::string *err)
{
  std::vector<size_t> v;
  for (const std::string &item : split (s, ','))
    {
      size_t n;
      if (!parse_size (item, &n) || n == 0 || n % 16)
        {
          *err = "invalid size `" + item
                 + "' (a positive multiple of 16, suffix k or m allowed)";
          return false;
        }
      v.push_back (n);
    }
  *out = v;
  return true;
}

bool
parse_mode_list (const std::string &s, std::vector<const ModeInfo *> *out,
                 std::string *err)
{
  std::vector<const ModeInfo *> v;
  if (s == "all")
    {
      for (const ModeInfo &m : kModes)
        v.push_back (&m);
      *out = v;
      return true;
    }
  for (const std::string &item : split (s, ','))
    {
      const ModeInfo *m = find_mode (item);
      if (!m)
        {
          *err = "unknown mode `" + item + "'";
          return false;
        }
      if (std::find (v.begin (), v.end (), m) == v.end ())
        v.push_back (m);
    }
  *out = v;
  return true;
}

bool
parse_cpu_mhz (const std::string &s, double *mhz, bool *automatic)
{
  if (s == "auto")
    {
      *automatic = true;
      *mhz = 0;
      return true;
    }
  if (s.empty ())
    return false;
  char *end;
  errno = 0;
  double v = strtod (s.c_str (), &end);
  if (errno || *end || !(v > 0) || v > 1e6)
    return false;
  *automatic = false;
  *mhz = v;
  return true;
}

std::vector<std::string>
parse_csv_line (const std::string &line)
{
  std::vector<std::string> fields;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size (); i++)
    {
      char c = line[i];
      if (quoted)
        {
          if (c == '"')
            {
              if (i + 1 < line.size () && line[i + 1] == '"')
                {
                  cur += '"';
                  i++;
                }
              else
                quoted = false;
            }
          else
            cur += c;
        }
      else if (c == '"')
        quoted = true;
      else if (c == ',')
        {
          fields.push_back (cur);
          cur.clear ();
        }
      else if (c == '\r' || c == '\n')
        break;
      else
        cur += c;
    }
  fields.push_back (cur);
  return fields;
}

std::string
format_csv_line (const std::vector<std::string> &fields)
{
  std::string out;
  for (size_t i = 0; i < fields.size (); i++)
    {
      const std::string &f = fields[i];
      if (i)
        out += ',';
      if (f.find_first_of (",\"\n\r") == std::string::npos)
        out += f;
      else
        {
          out += '"';
          for (char c : f)
            {
              if (c == '"')
                out += '"';
              out += c;
            }
          out += '"';
        }
    }
  return out;
}

namespace {

/* libgcrypt's benchmark kinds other than ciphers (its benchmark's and its
 * bench-slope's commands together, plus "pubkey" and "hash" under both
 * spellings): gcipher has nothing to time for them.  */
const char *const kOtherCommands[] = {
  "md", "hash", "mac", "kdf", "ecc", "random", "mpi", "pubkey", "rsa",
  "dsa", "prime",
};

/* Options of libgcrypt's benchmark that tune a non-cipher part of its
 * run.  Accepted (with their value) so that command lines written for
 * libgcrypt work unchanged; they change nothing here.  */
struct IgnoredOption
{
  const char *name;
  bool has_value;
  const char *part;   /* what it tunes, for the note */
};
const IgnoredOption kBenchmarkIgnored[] = {
  { "--hash-repetitions", true, "the hash benchmark" },
  { "--mac-repetitions", true, "the MAC benchmark" },
  { "--pk-count", true, "the public-key benchmarks" },
  { "--no-blinding", false, "the public-key benchmarks" },
  { "--progress", false, "public-key and prime generation" },
  { "--prefer-standard-rng", false, "the random-number generator" },
  { "--prefer-fips-rng", false, "the random-number generator" },
  { "--prefer-system-rng", false, "the random-number generator" },
};

/* Shared tail of both parsers: the command and its algorithm names.
 * SKIPPED_BY_DEFAULT lists, for the note, what libgcrypt's program runs
 * besides ciphers when it is given no command.  */
bool
parse_command (const std::vector<std::string> &args, size_t i,
               const char *skipped_by_default, std::string *command,
               std::vector<std::string> *algos,
               std::vector<std::string> *notes, std::string *err)
{
  if (i >= args.size ())
    {
      notes->push_back (std::string ("no command: running the cipher "
                                     "benchmark for every algorithm; the ")
                        + skipped_by_default
                        + " parts of libgcrypt's run have no gcipher "
                          "counterpart and are skipped");
      return true;
    }
  const std::string &c = args[i];
  if (c != "cipher" && !is_other_bench_command (c))
    {
      *err = "unknown command `" + c + "'";
      return false;
    }
  *command = c;
  algos->assign (args.begin () + (long) i + 1, args.end ());
  if (c != "cipher")
    notes->push_back ("`" + c + "' benchmark skipped: gcipher implements "
                      "ciphers only");
  return true;
}

} // namespace

bool
is_other_bench_command (const std::string &cmd)
{
  for (const char *c : kOtherCommands)
    if (cmd == c)
      return true;
  return false;
}

bool
parse_benchmark_args (const std::vector<std::string> &args,
                      BenchmarkOptions *opt, std::string *err)
{
  size_t i = 0;
  for (; i < args.size (); i++)
    {
      const std::string &a = args[i];
      bool has_val = i + 1 < args.size ();
      if (a == "--")
        {
          i++;
          break;
        }
      if (a.size () < 2 || a[0] != '-' || a[1] != '-')
        break;
      const IgnoredOption *ign = nullptr;
      for (const IgnoredOption &o : kBenchmarkIgnored)
        if (a == o.name)
          ign = &o;
      if (ign)
        {
          if (ign->has_value && !has_val)
            {
              *err = "option " + a + " needs a value";
              return false;
            }
          if (ign->has_value)
            i++;
          opt->notes.push_back ("option " + a + " ignored: it concerns "
                                + ign->part + ", which gcipher does not "
                                "have");
        }
      else if (a == "--help")
        opt->help = true;
      else if (a == "--verbose")
        opt->verbose = true;
      else if (a == "--debug")
        opt->verbose = opt->debug = true;
      else if (a == "--fips")
        opt->fips = true;
      else if (a == "--use-secmem")
        opt->use_secmem = true;
      else if (a == "--cipher-with-keysetup")
        opt->cipher_with_keysetup = true;
      else if (a == "--large-buffers")
        opt->large_buffers = true;
      else if (a == "--huge-buffers")
        opt->huge_buffers = true;
      else if (a == "--cipher-repetitions" && has_val)
        {
          /* Counts below 1 mean 1, as in libgcrypt.  */
          long v;
          if (!parse_int (args[++i], -1000000, 1000000, &v))
            {
              *err = "invalid --cipher-repetitions `" + args[i] + "'";
              return false;
            }
          opt->cipher_repetitions = v < 1 ? 1 : (int) v;
        }
      else if (a == "--alignment" && has_val)
        {
          /* libgcrypt takes 1..16; up to 64 reaches the AVX-512 line.  */
          long v;
          if (!parse_int (args[++i], 1, 64, &v))
            {
              *err = "value for --alignment must be 1..64, not `" + args[i]
                     + "'";
              return false;
            }
          opt->alignment = (size_t) v;
        }
      else if (a == "--disable-hwf" && has_val)
        opt->disable_hwf.push_back (args[++i]);
      else
        {
          *err = "unknown option or missing value: " + a;
          return false;
        }
    }
  if (opt->help)
    return true;
  return parse_command (args, i, "md, mac, pubkey, ecc, mpi and random",
                        &opt->command, &opt->algos, &opt->notes, err);
}

bool
parse_slope_args (const std::vector<std::string> &args, SlopeOptions *opt,
                  std::string *err)
{
  size_t i = 0;
  for (; i < args.size (); i++)
    {
      const std::string &a = args[i];
      bool has_val = i + 1 < args.size ();
      if (a == "--")
        {
          i++;
          break;
        }
      if (a.size () < 2 || a[0] != '-' || a[1] != '-')
        break;
      if (a == "--help")
        opt->help = true;
      else if (a == "--verbose")
        opt->verbose = true;
      else if (a == "--debug")
        opt->verbose = opt->debug = true;
      else if (a == "--unaligned")
        opt->unaligned = true;
      else if (a == "--csv")
        opt->csv = true;
      else if (a == "--cpu-mhz" && has_val)
        {
          if (!parse_cpu_mhz (args[++i], &opt->cpu_mhz, &opt->auto_mhz))
            {
              *err = "invalid --cpu-mhz `" + args[i]
                     + "' (auto or a number of MHz)";
              return false;
            }
        }
      else if (a == "--disable-hwf" && has_val)
        opt->disable_hwf.push_back (args[++i]);
      else if (a == "--repetitions" && has_val)
        {
          /* A count below the minimum (or no number at all) falls back
           * to the default with a note instead of stopping the run, the
           * way libgcrypt's bench-slope treats it.  */
          long v = 0;
          const std::string &s = args[++i];
          bool number = parse_int (s, std::numeric_limits<long>::min (),
                                   std::numeric_limits<long>::max (), &v);
          if (number && v >= kSlopeMinRepetitions && v <= 100000)
            opt->repetitions = (int) v;
          else if (number && v > 100000)
            {
              *err = "invalid --repetitions `" + s + "' (at most 100000)";
              return false;
            }
          else
            {
              opt->repetitions = kSlopeDefaultRepetitions;
              opt->notes.push_back (
                  "--repetitions `" + s + "' is below the minimum of "
                  + std::to_string (kSlopeMinRepetitions) + " - using "
                  + std::to_string (kSlopeDefaultRepetitions));
            }
        }
      else
        {
          *err = "unknown option or missing value: " + a;
          return false;
        }
    }
  if (opt->help)
    return true;
  return parse_command (args, i, "hash, mac, kdf and ecc", &opt->command,
                        &opt->algos, &opt->notes, err);
}

std::string
format_cpb_cell (double ns_per_byte, double mhz, bool csv)
{
  if (mhz > 0)
    return format_number (ns_to_cycles (ns_per_byte, mhz));
  return csv ? "" : "-";
}

bool
parse_compare_args (const std::vector<std::string> &args, CompareOptions *opt,
                    std::string *err)
{
  size_t i = 0;
  for (; i < args.size (); i++)
    {
      const std::string &a = args[i];
      bool has_val = i + 1 < args.size ();
      if (a == "--")
        {
          i++;
          break;
        }
      if (a.size () < 2 || a[0] != '-' || a[1] != '-')
        break;
      if (a == "--csv")
        opt->csv = true;
      else if (a == "--sizes" && has_val)
        {
          if (!parse_size_list (args[++i], &opt->sizes, err))
            return false;
        }
      else if (a == "--modes" && has_val)
        {
          if (!parse_mode_list (args[++i], &opt->modes, err))
            return false;
        }
      else if (a == "--rounds" && has_val)
        {
          long v;
          if (!parse_int (args[++i], 1, 1000, &v))
            {
              *err = "invalid --rounds `" + args[i] + "'";
              return false;
            }
          opt->rounds = (int) v;
        }
      else if (a == "--ms" && has_val)
        {
          char *end;
          const std::string &v = args[++i];
          double ms = strtod (v.c_str (), &end);
          if (v.empty () || *end || !(ms > 0) || ms > 10000)
            {
              *err = "invalid --ms `" + v + "'";
              return false;
            }
          opt->target_ms = ms;
        }
      else if (a == "--disable-hwf" && has_val)
        opt->disable_hwf.push_back (args[++i]);
      else if (a == "--libgcrypt" && has_val)
        {
          if (args[++i].empty ())
            {
              *err = "empty --libgcrypt path";
              return false;
            }
          opt->libgcrypt.push_back (args[i]);
        }
      else
        {
          *err = "unknown option or missing value: " + a;
          return false;
        }
    }
  opt->algos.assign (args.begin () + (long) i, args.end ());
  return true;
}

} // namespace bench
