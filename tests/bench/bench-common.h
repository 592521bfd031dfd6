/* bench-common.h - arithmetic, parsing and timing shared by tests/bench-slope
 * and tests/bench-compare (and checked by tests/t-benchtools).
 *
 * Nothing here calls a cipher library: the tools hand in closures that do
 * one operation, and this file times them, fits lines, estimates the CPU
 * clock and computes the AES-instruction lower bounds.  Units are spelled
 * out in every name: _ns (nanoseconds), _cpb (cycles per byte), _mhz.
 */
#ifndef GCIPHER_TESTS_BENCH_COMMON_H
#define GCIPHER_TESTS_BENCH_COMMON_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bench {

/* ---- Clock ----------------------------------------------------------- */

/* CLOCK_MONOTONIC_RAW in nanoseconds (not slewed by NTP).  */
uint64_t now_ns ();

/* CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID), ns.  */
uint64_t thread_cpu_ns ();

/* True if a measurement that took WALL_NS of CLOCK_MONOTONIC_RAW but only
 * CPU_NS of the thread's CPU time lost the CPU meanwhile (another process
 * ran): more than 2% + 20 us of the wall time is missing.  */
bool was_preempted (uint64_t wall_ns, uint64_t cpu_ns);

/* Busy-loop for MS milliseconds so that the core leaves its idle clock
 * before a measurement.  */
void spin_warmup (double ms);

/* ---- Statistics -------------------------------------------------------- */

/* Least-squares line y = slope * x + intercept through N points
 * (ok = false if N < 2 or all x are equal).  */
struct LinearFit
{
  double slope = 0;
  double intercept = 0;
  bool ok = false;
};
LinearFit fit_line (const double *x, const double *y, size_t n);

/* Median of V (mean of the two middle values for an even count); 0 for
 * an empty V.  */
double median (std::vector<double> v);

/* ---- Slope measurement (the bench-slope method) ------------------------ */

/* Time OP (x) for every x in XS, REPETITIONS times each, interleaved
 * (x1 x2 ... xn, x1 x2 ... xn, ...) so that drifts hit all points alike;
 * keep each point's fastest time and fit a line through (x, best ns).
 * Returns the slope in nanoseconds per unit of x (per byte when x is a
 * buffer length), so a fixed per-call cost lands in the intercept and
 * drops out.  OP returns false on a library error: the result is then
 * negative.  */
double measure_slope_ns (const std::function<bool (size_t)> &op,
                         const std::vector<size_t> &xs, int repetitions);

/* Buffer lengths bench-slope times: NPOINTS multiples of STEP bytes,
 * STEP .. NPOINTS*STEP.  */
std::vector<size_t> slope_sizes (size_t step, size_t npoints);

/* ---- CPU clock estimate ("auto Mhz") ----------------------------------- */

/* Estimate the clock of the core we run on by timing a chain of dependent
 * register additions (one cycle each on every x86-64 and RISC-V core) with
 * measure_slope_ns over the chain length.  Returns MHz, or 0 where no such
 * chain is available (then no cycles/byte can be shown).  */
double estimate_cpu_mhz (int repetitions = 16);

/* Cycles per byte from ns per byte and MHz (0 if MHZ <= 0).  */
double ns_to_cycles (double ns, double mhz);
/* ns from cycles and MHz (0 if MHZ <= 0).  */
double cycles_to_ns (double cycles, double mhz);
/* MiB per second from ns per byte (libgcrypt's "mebibytes/sec").  */
double ns_per_byte_to_mib_per_s (double ns_per_byte);

/* ---- Number formatting ------------------------------------------------- */

/* A number as libgcrypt's bench-slope prints it: 3 decimals below 1,
 * 2 below 100, 1 below 1000, none above.  */
std::string format_number (double v);

/* ---- Modes, as bench-slope and bench-compare name them ------------------ */

struct ModeInfo
{
  const char *name;       /* "ECB", "CFB8", "GCM-SIV", ...  */
  int gcry_mode;          /* GCRY_CIPHER_MODE_* value.  */
  bool aead;              /* Has a tag (enc/dec/auth rows).  */
  bool double_key;        /* XTS, SIV: two keys.  */
  /* AES model for the lower bound, per byte of message:
   *   serial_blocks: block-cipher calls on one dependency chain,
   *   total_blocks:  all block-cipher calls,
   * for encryption and decryption.  Example: CBC encryption 1/16 and
   * 1/16; CBC decryption 0 and 1/16; CCM 1/16 (CBC-MAC) and 2/16
   * (CBC-MAC + CTR); CFB8 encryption 1 and 1 (a block per byte).  */
  double serial_enc, total_enc;
  double serial_dec, total_dec;
};

/* All modes in bench-slope's row order.  */
const std::vector<ModeInfo> &all_modes ();
/* Look a mode up by name (case-insensitive; "gcmsiv" = "GCM-SIV"); NULL
 * if unknown.  */
const ModeInfo *find_mode (const std::string &name);

/* ---- AES instruction model and the lower bound -------------------------- */

/* The AES round instruction forms: 128-bit (AES-NI xmm), 256-bit VAES
 * (ymm) and 512-bit VAES (zmm), processing 1, 2 and 4 blocks.  */
enum AesForm { kFormXmm = 0, kFormYmm = 1, kFormZmm = 2, kNumForms = 3 };
const char *aes_form_name (int form);   /* "xmm", "ymm", "zmm" */
int aes_form_lanes (int form);          /* 1, 2, 4 blocks per instruction */

/* Measured (or synthetic) timings of the round instruction, in
 * nanoseconds, so no clock estimate enters the bound.  */
struct AesInsnTiming
{
  bool have[kNumForms] = { false, false, false };
  /* Sustained time per instruction with kLimitChains independent chains
   * (the fastest of all measurements).  */
  double ns_per_insn[kNumForms] = { 0, 0, 0 };
  double latency_ns = 0;                       /* dependent aesenc xmm */
};

/* Keep the faster of A's and B's value of each field (absent values do
 * not count): the bound is the best the units ever reached.  */
void merge_fastest (AesInsnTiming *a, const AesInsnTiming &b);

/* The form with the lowest time per 16-byte lane among the measured forms
 * up to WIDEST (kFormXmm .. kFormZmm); -1 if none.  */
int best_aes_form (const AesInsnTiming &t, int widest = kFormZmm);

/* The widest form a library may use given its "hwflist" value (names
 * each followed by ':', gcry_get_config (0, "hwflist")): zmm with
 * intel-aesni, intel-vaes-vpclmul and intel-avx512 (gcipher's
 * vaes-avx512 path), ymm with intel-aesni, intel-vaes-vpclmul and
 * intel-avx2 (vaes-avx2), xmm with intel-aesni; -1 without AES-NI.  */
int widest_aes_form_from_hwflist (const std::string &hwflist);

/* Rounds (= round instructions per block) of AES with a KEYLEN-byte key
 * (FIPS-197 5: Nr = 10, 12, 14); 0 for other lengths.  */
int aes_rounds (size_t keylen);

/* Blocks of a message's serial chain that the out-of-order core may run
 * beside the previous or next message's chain (the messages of a row
 * are independent): a reorder buffer of up to 512 micro-ops (2026
 * cores) holds at most 64 steps of a chain of at least 8 micro-ops per
 * block.  */
constexpr double kOverlapBlocks = 64;

/* The AES bound of a mode in ns per byte of LEN-byte messages:
 *   max (serial_chain * rounds * latency,
 *        total_blocks * rounds * ns_per_insn(f) / lanes(f))
 * with the per-byte block counts of ModeInfo, f = best_aes_form (T,
 * WIDEST), and serial_chain the serial blocks per byte less
 * kOverlapBlocks per message (LEN 0: no allowance, endless messages):
 * for a parallel mode rounds x time per instruction / blocks per
 * instruction / 16, for a serial one rounds x latency / 16 on long
 * messages.  0 if the timing is unknown.  */
double limit_ns_per_byte (const ModeInfo &m, bool enc, int rounds,
                          const AesInsnTiming &t, int widest = kFormZmm,
                          size_t len = 0);

/* best-peer / gcipher: the fastest peer's ns/B over gcipher's (above 1:
 * gcipher is faster).  Peers <= 0 are absent; 0 if gcipher or every peer
 * is absent.  */
double ratio_best_peer (double gcipher_ns, const std::vector<double> &peer_ns);
/* gcipher's percentage of the bound: 100 * limit / gcipher (100 = at the
 * bound); 0 if either is absent.  */
double percent_of_limit (double limit_ns, double gcipher_ns);

/* CPU features that decide which forms can run (cpuid + xgetbv). */
struct CpuAesForms
{
  bool form[kNumForms] = { false, false, false };
};
CpuAesForms detect_aes_forms ();

/* Measure the forms the CPU has (bench-limit-*.cpp kernels) in ns per
 * instruction: each kernel's fastest of REPETITIONS runs at two lengths,
 * the difference over the extra instructions (so the timer's own cost
 * drops out).  All have[] false where no kernel exists.  */
AesInsnTiming measure_aes_insn (int repetitions = 8);

/* ---- Parsing ------------------------------------------------------------ */

/* A byte count: digits with an optional suffix k/K/KiB (x1024) or
 * m/M/MiB (x1048576).  */
bool parse_size (const std::string &s, size_t *out);
/* Comma-separated sizes, each > 0 and a multiple of 16.  */
bool parse_size_list (const std::string &s, std::vector<size_t> *out,
                      std::string *err);
/* Comma-separated mode names (find_mode); "all" = every mode.  */
bool parse_mode_list (const std::string &s,
                      std::vector<const ModeInfo *> *out, std::string *err);
/* A decimal integer in [MIN, MAX].  */
bool parse_int (const std::string &s, long min, long max, long *out);
/* "--cpu-mhz" value: "auto" (sets *AUTO) or a positive number of MHz.  */
bool parse_cpu_mhz (const std::string &s, double *mhz, bool *automatic);
/* One CSV record (RFC 4180 quoting) into fields.  */
std::vector<std::string> parse_csv_line (const std::string &line);
/* Join fields into a CSV record, quoting those that need it.  */
std::string format_csv_line (const std::vector<std::string> &fields);
/* Split S at SEP (no quoting; empty fields kept).  */
std::vector<std::string> split (const std::string &s, char sep);

/* ---- libgcrypt's benchmark and bench-slope command lines ---------------
 *
 * Both tools take every option and command libgcrypt's programs of the
 * same name take.  gcipher is a cipher library only, so what concerns
 * hashes, MACs, KDFs, public keys, big numbers or the RNG is accepted
 * (with its argument, if it has one) and skipped; the parsers then add a
 * one-line explanation to NOTES, which the tools print on stderr.  */

/* A command of libgcrypt's benchmark or bench-slope that selects
 * something other than ciphers ("md", "hash", "mac", "kdf", "ecc",
 * "random", "mpi", "pubkey", "rsa", "dsa", "prime").  */
bool is_other_bench_command (const std::string &cmd);

/* tests/benchmark's command line (after the program name):
 * [options] [COMMAND [ALGO...]].  */
struct BenchmarkOptions
{
  int cipher_repetitions = 1; /* multiplies the calls per cell */
  bool large_buffers = false; /* 100 KiB per call */
  bool huge_buffers = false;  /* 256 MiB per call */
  size_t alignment = 16;      /* buffers start this far past 64 bytes */
  std::vector<std::string> disable_hwf;
  bool verbose = false;       /* errors of `-' cells, library config */
  bool debug = false;         /* as verbose (libgcrypt: library debug) */
  bool fips = false;          /* ask the library for FIPS mode */
  bool use_secmem = false;    /* handles in secure memory */
  bool cipher_with_keysetup = false;  /* setkey inside the timed loop */
  bool help = false;
  std::string command;        /* "" = none given: everything there is */
  std::vector<std::string> algos;     /* after the command; empty: all */
  std::vector<std::string> notes;     /* for stderr, one line each */
  /* True if the cipher table is to be printed (no command or "cipher").  */
  bool run_cipher () const { return command.empty () || command == "cipher"; }
};
/* Parse ARGS.  Returns false with a message in *ERR on a usage error
 * (unknown option or command, missing or invalid value).  */
bool parse_benchmark_args (const std::vector<std::string> &args,
                           BenchmarkOptions *opt, std::string *err);

/* bench-slope's default and smallest --repetitions: below the minimum
 * the default is used, with a note (as libgcrypt's bench-slope does with
 * its own default of 64).  */
constexpr int kSlopeDefaultRepetitions = 32;
constexpr int kSlopeMinRepetitions = 2;

/* bench-slope's command line (after the program name):
 * [options] [COMMAND [ALGO...]].  */
struct SlopeOptions
{
  double cpu_mhz = 0;         /* fixed MHz, 0 = none */
  bool auto_mhz = false;
  std::vector<std::string> disable_hwf;
  int repetitions = kSlopeDefaultRepetitions; /* per buffer length */
  bool unaligned = false;
  bool csv = false;
  bool verbose = false;       /* library and skipped rows on stderr */
  bool debug = false;         /* as verbose */
  bool help = false;
  std::string command;        /* "" = none given: every section there is */
  std::vector<std::string> algos;   /* empty: all */
  std::vector<std::string> notes;   /* for stderr, one line each */
  bool run_cipher () const { return command.empty () || command == "cipher"; }
};
/* Parse ARGS.  Returns false with a message in *ERR on a usage error.  */
bool parse_slope_args (const std::vector<std::string> &args,
                       SlopeOptions *opt, std::string *err);

/* The cycles/byte cell: the number, or "-" when the clock is unknown
 * (MHZ <= 0), as libgcrypt's table prints it; CSV leaves the field
 * empty instead.  */
std::string format_cpb_cell (double ns_per_byte, double mhz, bool csv);

/* bench-compare's command line.  */
struct CompareOptions
{
  std::vector<size_t> sizes{ 16, 64, 256, 1024, 4096, 16384, 65536 };
  std::vector<const ModeInfo *> modes;   /* empty: default list */
  int rounds = 5;
  std::vector<std::string> disable_hwf;
  /* --libgcrypt PATH, in order; empty: the system library.  */
  std::vector<std::string> libgcrypt;
  bool csv = false;
  double target_ms = 2.0;     /* length of one measurement */
  std::vector<std::string> algos;        /* empty: aes aes192 aes256 */
};
bool parse_compare_args (const std::vector<std::string> &args,
                         CompareOptions *opt, std::string *err);

} // namespace bench

#endif /* GCIPHER_TESTS_BENCH_COMMON_H */
