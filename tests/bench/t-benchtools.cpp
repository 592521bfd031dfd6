/* t-benchtools.cpp - the arithmetic and the parsers of the benchmark tools
 * (tests/bench/bench-common.{h,cpp}): line fit, medians, unit conversions,
 * the AES-instruction bound, ratios, and the command-line / CSV parsers.
 * Nothing here measures speed: timings are synthetic.  */
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bench-common.h"

namespace {

using bench::AesInsnTiming;
using bench::ModeInfo;

TEST (BenchFit, ExactLine)
{
  /* y = 0.25 x + 100: 0.25 ns per byte plus 100 ns per call.  */
  std::vector<double> x, y;
  for (int i = 1; i <= 16; i++)
    {
      x.push_back (1024.0 * i);
      y.push_back (0.25 * 1024.0 * i + 100);
    }
  bench::LinearFit f = bench::fit_line (x.data (), y.data (), x.size ());
  ASSERT_TRUE (f.ok);
  EXPECT_NEAR (f.slope, 0.25, 1e-12);
  EXPECT_NEAR (f.intercept, 100, 1e-9);
}

TEST (BenchFit, SymmetricNoiseCancels)
{
  /* Noise +e, -e, +e, -e ... on pairs of equal x leaves the slope.  */
  std::vector<double> x, y;
  for (int i = 1; i <= 8; i++)
    for (int s = -1; s <= 1; s += 2)
      {
        x.push_back (i);
        y.push_back (3.0 * i + 7 + s * 0.5);
      }
  bench::LinearFit f = bench::fit_line (x.data (), y.data (), x.size ());
  ASSERT_TRUE (f.ok);
  EXPECT_NEAR (f.slope, 3.0, 1e-12);
  EXPECT_NEAR (f.intercept, 7.0, 1e-12);
}

TEST (BenchFit, Degenerate)
{
  double x[3] = { 5, 5, 5 }, y[3] = { 1, 2, 3 };
  EXPECT_FALSE (bench::fit_line (x, y, 3).ok);
  EXPECT_FALSE (bench::fit_line (x, y, 1).ok);
  EXPECT_FALSE (bench::fit_line (x, y, 0).ok);
}

TEST (BenchFit, MeasureSlopeFailures)
{
  std::vector<size_t> xs = bench::slope_sizes (1024, 4);
  ASSERT_EQ (xs.size (), 4u);
  EXPECT_EQ (xs[0], 1024u);
  EXPECT_EQ (xs[3], 4096u);
  /* An op that fails gives a negative result; so do too few points.  */
  EXPECT_LT (bench::measure_slope_ns ([] (size_t) { return false; }, xs, 2),
             0);
  EXPECT_LT (bench::measure_slope_ns ([] (size_t) { return true; },
                                      std::vector<size_t>{ 16 }, 2),
             0);
  /* An op whose cost does not depend on x has no negative slope.  */
  EXPECT_GE (bench::measure_slope_ns ([] (size_t) { return true; }, xs, 2),
             0);
  /* Every point is timed REPETITIONS + 1 times (one untimed call).  */
  int calls = 0;
  bench::measure_slope_ns ([&calls] (size_t) { calls++; return true; }, xs,
                           3);
  EXPECT_EQ (calls, 4 * (3 + 1));
}

TEST (BenchStats, Preempted)
{
  /* 2 ms measured, CPU time complete or within 2% + 20 us: kept.  */
  EXPECT_FALSE (bench::was_preempted (2000000, 2000000));
  EXPECT_FALSE (bench::was_preempted (2000000, 2001000));
  EXPECT_FALSE (bench::was_preempted (2000000, 1950000));
  /* A 1 ms time slice of another process inside it: repeated.  */
  EXPECT_TRUE (bench::was_preempted (3000000, 2000000));
  EXPECT_TRUE (bench::was_preempted (2000000, 1930000));
  /* Short measurements get the 20 us of slack.  */
  EXPECT_FALSE (bench::was_preempted (10000, 0));
  EXPECT_TRUE (bench::was_preempted (30000, 0));
}

TEST (BenchStats, Median)
{
  EXPECT_EQ (bench::median ({}), 0);
  EXPECT_EQ (bench::median ({ 3 }), 3);
  EXPECT_EQ (bench::median ({ 5, 1, 3 }), 3);
  EXPECT_EQ (bench::median ({ 4, 1, 3, 2 }), 2.5);
  EXPECT_EQ (bench::median ({ 9, 1, 100, 2, 3 }), 3);   /* outliers */
}

TEST (BenchUnits, Conversions)
{
  EXPECT_DOUBLE_EQ (bench::ns_to_cycles (0.5, 4000), 2.0);
  EXPECT_DOUBLE_EQ (bench::cycles_to_ns (2.0, 4000), 0.5);
  EXPECT_EQ (bench::ns_to_cycles (0.5, 0), 0);
  EXPECT_EQ (bench::cycles_to_ns (1, -1), 0);
  /* 1 ns/B = 1e9 B/s = 953.67 MiB/s.  */
  EXPECT_NEAR (bench::ns_per_byte_to_mib_per_s (1.0), 953.674, 1e-3);
  EXPECT_EQ (bench::ns_per_byte_to_mib_per_s (0), 0);
}

TEST (BenchUnits, NumberFormat)
{
  /* libgcrypt's bench-slope precision steps.  */
  EXPECT_EQ (bench::format_number (0.0734), "0.073");
  EXPECT_EQ (bench::format_number (2.5012), "2.50");
  EXPECT_EQ (bench::format_number (99.994), "99.99");
  EXPECT_EQ (bench::format_number (123.45), "123.5");
  EXPECT_EQ (bench::format_number (13066.4), "13066");
}

TEST (BenchModes, Lookup)
{
  EXPECT_EQ (bench::all_modes ().size (), 14u);
  const ModeInfo *m = bench::find_mode ("gcm_siv");
  ASSERT_NE (m, nullptr);
  EXPECT_STREQ (m->name, "GCM-SIV");
  EXPECT_EQ (bench::find_mode ("GCMSIV"), m);
  EXPECT_EQ (bench::find_mode ("cfb8")->gcry_mode, 12);
  EXPECT_TRUE (bench::find_mode ("xts")->double_key);
  EXPECT_TRUE (bench::find_mode ("siv")->double_key);
  EXPECT_TRUE (bench::find_mode ("ccm")->aead);
  EXPECT_FALSE (bench::find_mode ("ctr")->aead);
  EXPECT_EQ (bench::find_mode ("cfb9"), nullptr);
  EXPECT_EQ (bench::find_mode (""), nullptr);
}

/* Synthetic instruction timings: every form 1 ns per instruction, so
 * per block xmm 1, ymm 0.5, zmm 0.25; latency 4.  */
AesInsnTiming
synthetic (bool ymm, bool zmm)
{
  AesInsnTiming t;
  t.have[bench::kFormXmm] = true;
  t.ns_per_insn[bench::kFormXmm] = 1.0;
  t.have[bench::kFormYmm] = ymm;
  t.ns_per_insn[bench::kFormYmm] = ymm ? 1.0 : 0;
  t.have[bench::kFormZmm] = zmm;
  t.ns_per_insn[bench::kFormZmm] = zmm ? 1.0 : 0;
  t.latency_ns = 4.0;
  return t;
}

TEST (BenchLimit, Rounds)
{
  EXPECT_EQ (bench::aes_rounds (16), 10);
  EXPECT_EQ (bench::aes_rounds (24), 12);
  EXPECT_EQ (bench::aes_rounds (32), 14);
  EXPECT_EQ (bench::aes_rounds (20), 0);
  EXPECT_EQ (bench::aes_form_lanes (bench::kFormZmm), 4);
  EXPECT_STREQ (bench::aes_form_name (bench::kFormYmm), "ymm");
}

TEST (BenchLimit, BestForm)
{
  EXPECT_EQ (bench::best_aes_form (synthetic (false, false)), bench::kFormXmm);
  EXPECT_EQ (bench::best_aes_form (synthetic (true, false)), bench::kFormYmm);
  EXPECT_EQ (bench::best_aes_form (synthetic (true, true)), bench::kFormZmm);
  /* A slow zmm form (3 ns: 0.75 per block) loses to ymm (0.5).  */
  AesInsnTiming t = synthetic (true, true);
  t.ns_per_insn[bench::kFormZmm] = 3.0;
  EXPECT_EQ (bench::best_aes_form (t), bench::kFormYmm);
  EXPECT_EQ (bench::best_aes_form (AesInsnTiming ()), -1);
}

TEST (BenchLimit, ParallelModes)
{
  AesInsnTiming t = synthetic (true, true);   /* 0.25 ns per block */
  for (const char *name : { "ECB", "CTR", "XTS", "GCM", "OCB", "GCM-SIV" })
    {
      const ModeInfo *m = bench::find_mode (name);
      /* rounds x reciprocal throughput / bytes per instruction.  */
      EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (*m, true, 10, t),
                        10 * 1.0 / 64) << name;
      EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (*m, false, 14, t),
                        14 * 1.0 / 64) << name;
    }
  /* Decryption of CBC and CFB is parallel, too.  */
  EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (*bench::find_mode ("CBC"),
                                                  false, 10, t), 10.0 / 64);
  EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (*bench::find_mode ("CFB"),
                                                  false, 12, t), 12.0 / 64);
  /* Only AES-NI: 16 bytes per instruction.  */
  EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (
                        *bench::find_mode ("ECB"), true, 10,
                        synthetic (false, false)), 10.0 / 16);
}

TEST (BenchLimit, SerialModes)
{
  AesInsnTiming t = synthetic (true, true);
  /* rounds x latency / 16.  */
  for (const char *name : { "CBC", "CFB", "OFB" })
    EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (*bench::find_mode (name),
                                                    true, 10, t), 2.5)
        << name;
  EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (*bench::find_mode ("OFB"),
                                                  false, 14, t), 3.5);
  /* MAC chain + CTR: the chain bounds it when latency dominates ...  */
  for (const char *name : { "CCM", "EAX", "SIV" })
    {
      EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (
                            *bench::find_mode (name), true, 10, t), 2.5)
          << name;
      EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (
                            *bench::find_mode (name), false, 10, t), 2.5)
          << name;
    }
  /* ... and the two block calls per block when throughput does.  */
  AesInsnTiming slow = synthetic (false, false);
  slow.ns_per_insn[bench::kFormXmm] = 5.0;
  slow.latency_ns = 1.0;
  EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (*bench::find_mode ("CCM"),
                                                  true, 10, slow),
                    2 * 10 * 5.0 / 16);
  /* CFB8: one block per byte, serial to encrypt, parallel to decrypt. */
  EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (*bench::find_mode ("CFB8"),
                                                  true, 10, t), 40.0);
  EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (*bench::find_mode ("CFB8"),
                                                  false, 10, t), 2.5);
}

/* Consecutive messages are independent: up to kOverlapBlocks of each
 * message's chain may run beside its neighbour's, so the chain bound
 * counts the rest only (the throughput bound stays).  */
TEST (BenchLimit, SerialOverlap)
{
  AesInsnTiming t = synthetic (true, true);
  const ModeInfo &cbc = *bench::find_mode ("CBC");
  ASSERT_EQ (bench::kOverlapBlocks, 64);
  /* 16 KiB: 1024 blocks, 960 on the chain.  */
  EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (cbc, true, 10, t,
                                              bench::kFormZmm, 16384),
                    960.0 * 10 * 4.0 / 16384);
  /* 1 KiB and less: the whole chain may overlap; the throughput bound
   * (1 block per 16 bytes at 0.25 ns per block per round) is left.  */
  for (size_t len : { 16, 1024 })
    EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (cbc, true, 10, t,
                                                bench::kFormZmm, len),
                      10 * 0.25 / 16) << len;
  /* CFB8 encryption: a block per byte, 64 of them may overlap.  */
  EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (*bench::find_mode ("CFB8"),
                                              true, 10, t, bench::kFormZmm,
                                              256),
                    192.0 * 10 * 4.0 / 256);
  /* Parallel modes do not depend on the length.  */
  EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (*bench::find_mode ("CTR"),
                                              true, 10, t, bench::kFormZmm,
                                              16),
                    10 * 0.25 / 16);
}

TEST (BenchLimit, Unknown)
{
  const ModeInfo &cbc = *bench::find_mode ("CBC");
  EXPECT_EQ (bench::limit_ns_per_byte (cbc, true, 10, AesInsnTiming ()),
             0);
  EXPECT_EQ (bench::limit_ns_per_byte (cbc, true, 0, synthetic (1, 1)),
             0);
  AesInsnTiming no_latency = synthetic (true, true);
  no_latency.latency_ns = 0;
  EXPECT_EQ (bench::limit_ns_per_byte (cbc, true, 10, no_latency), 0);
  EXPECT_GT (bench::limit_ns_per_byte (cbc, false, 10, no_latency), 0);
}

TEST (BenchRatio, BestPeer)
{
  EXPECT_DOUBLE_EQ (bench::ratio_best_peer (1.0, { 2.0, 1.5 }), 1.5);
  EXPECT_DOUBLE_EQ (bench::ratio_best_peer (1.0, { 0, 0.5 }), 0.5);
  EXPECT_DOUBLE_EQ (bench::ratio_best_peer (0.2, { 0.3, -1 }), 1.5);
  EXPECT_EQ (bench::ratio_best_peer (1.0, { 0, 0 }), 0);
  EXPECT_EQ (bench::ratio_best_peer (0, { 1.0 }), 0);
  EXPECT_EQ (bench::ratio_best_peer (1.0, {}), 0);
}

TEST (BenchRatio, PercentOfLimit)
{
  EXPECT_DOUBLE_EQ (bench::percent_of_limit (0.25, 1.0), 25.0);
  EXPECT_DOUBLE_EQ (bench::percent_of_limit (0.5, 0.5), 100.0);
  EXPECT_EQ (bench::percent_of_limit (0, 1.0), 0);
  EXPECT_EQ (bench::percent_of_limit (1.0, 0), 0);
  /* The whole chain: ECB AES-128 at 0.25 ns per zmm instruction
   * (0.0625 ns per block) is 10 * 0.0625 / 16 = 0.0390625 ns/B; a
   * 0.078125 ns/B library is at 50% of it.  */
  AesInsnTiming t = synthetic (true, true);
  for (int f = 0; f < bench::kNumForms; f++)
    t.ns_per_insn[f] = 0.25;
  double limit_ns = bench::limit_ns_per_byte (*bench::find_mode ("ECB"),
                                              true, 10, t);
  EXPECT_DOUBLE_EQ (limit_ns, 0.0390625);
  EXPECT_DOUBLE_EQ (bench::percent_of_limit (limit_ns, 0.078125), 50.0);
}

/* The widest form the library's hardware features leave: the bound of a
 * run with VAES or AVX-512 disabled uses the narrower forms only.  */
TEST (BenchLimit, WidestFromHwflist)
{
  const std::string all = "intel-cpu:intel-aesni:intel-pclmul:intel-avx:"
                          "intel-avx2:intel-vaes-vpclmul:intel-avx512:";
  EXPECT_EQ (bench::widest_aes_form_from_hwflist (all), bench::kFormZmm);
  EXPECT_EQ (bench::widest_aes_form_from_hwflist (
                 "intel-aesni:intel-avx2:intel-vaes-vpclmul:"),
             bench::kFormYmm);
  EXPECT_EQ (bench::widest_aes_form_from_hwflist (
                 "intel-aesni:intel-avx2:intel-avx512:"), bench::kFormXmm);
  EXPECT_EQ (bench::widest_aes_form_from_hwflist (
                 "intel-aesni:intel-vaes-vpclmul:"), bench::kFormXmm);
  EXPECT_EQ (bench::widest_aes_form_from_hwflist ("intel-avx2:"), -1);
  EXPECT_EQ (bench::widest_aes_form_from_hwflist (""), -1);
  /* A name that only starts like another does not count.  */
  EXPECT_EQ (bench::widest_aes_form_from_hwflist ("intel-aesni-x:"), -1);

  AesInsnTiming t = synthetic (true, true);
  EXPECT_EQ (bench::best_aes_form (t, bench::kFormYmm), bench::kFormYmm);
  EXPECT_EQ (bench::best_aes_form (t, bench::kFormXmm), bench::kFormXmm);
  EXPECT_EQ (bench::best_aes_form (t, -1), -1);
  const ModeInfo &ecb = *bench::find_mode ("ECB");
  EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (ecb, true, 10, t,
                                              bench::kFormXmm), 10.0 / 16);
  EXPECT_DOUBLE_EQ (bench::limit_ns_per_byte (ecb, true, 10, t,
                                              bench::kFormYmm), 10.0 / 32);
  EXPECT_EQ (bench::limit_ns_per_byte (ecb, true, 10, t, -1), 0);
  /* Where ymm is faster per block than zmm (two ymm units, one zmm),
   * the bound takes ymm even when zmm is allowed: it must hold for any
   * kernel the path may run.  */
  t.ns_per_insn[bench::kFormZmm] = 2.5;
  EXPECT_EQ (bench::best_aes_form (t, bench::kFormZmm), bench::kFormYmm);
}

/* The bound keeps the fastest measurement of each form.  */
TEST (BenchLimit, MergeFastest)
{
  AesInsnTiming a = synthetic (true, false);
  AesInsnTiming b = synthetic (true, true);
  b.ns_per_insn[bench::kFormXmm] = 2.0;
  b.ns_per_insn[bench::kFormYmm] = 0.5;
  b.latency_ns = 0;
  bench::merge_fastest (&a, b);
  EXPECT_DOUBLE_EQ (a.ns_per_insn[bench::kFormXmm], 1.0);
  EXPECT_DOUBLE_EQ (a.ns_per_insn[bench::kFormYmm], 0.5);
  EXPECT_TRUE (a.have[bench::kFormZmm]);
  EXPECT_DOUBLE_EQ (a.ns_per_insn[bench::kFormZmm], 1.0);
  EXPECT_DOUBLE_EQ (a.latency_ns, 4.0);
  AesInsnTiming none;
  bench::merge_fastest (&none, AesInsnTiming ());
  EXPECT_EQ (bench::best_aes_form (none), -1);
}

TEST (BenchParse, Sizes)
{
  size_t n = 0;
  EXPECT_TRUE (bench::parse_size ("16", &n));
  EXPECT_EQ (n, 16u);
  EXPECT_TRUE (bench::parse_size ("1k", &n));
  EXPECT_EQ (n, 1024u);
  EXPECT_TRUE (bench::parse_size ("4KiB", &n));
  EXPECT_EQ (n, 4096u);
  EXPECT_TRUE (bench::parse_size ("64K", &n));
  EXPECT_EQ (n, 65536u);
  EXPECT_TRUE (bench::parse_size ("1m", &n));
  EXPECT_EQ (n, 1048576u);
  for (const char *bad : { "", "k", "12q", "-16", "1.5k", "99999999999999" })
    EXPECT_FALSE (bench::parse_size (bad, &n)) << bad;

  std::vector<size_t> v;
  std::string err;
  ASSERT_TRUE (bench::parse_size_list ("16,64,1k,16384", &v, &err)) << err;
  EXPECT_EQ (v, (std::vector<size_t>{ 16, 64, 1024, 16384 }));
  for (const char *bad : { "", "15", "0", "16,,32", "16,abc" })
    {
      err.clear ();
      EXPECT_FALSE (bench::parse_size_list (bad, &v, &err)) << bad;
      EXPECT_FALSE (err.empty ()) << bad;
    }
}

TEST (BenchParse, Modes)
{
  std::vector<const ModeInfo *> v;
  std::string err;
  ASSERT_TRUE (bench::parse_mode_list ("ecb,gcm-siv,GCMSIV,cfb8", &v, &err));
  ASSERT_EQ (v.size (), 3u);
  EXPECT_STREQ (v[0]->name, "ECB");
  EXPECT_STREQ (v[1]->name, "GCM-SIV");
  EXPECT_STREQ (v[2]->name, "CFB8");
  ASSERT_TRUE (bench::parse_mode_list ("all", &v, &err));
  EXPECT_EQ (v.size (), 14u);
  EXPECT_FALSE (bench::parse_mode_list ("ecb,foo", &v, &err));
  EXPECT_NE (err.find ("foo"), std::string::npos);
}

TEST (BenchParse, Numbers)
{
  long v;
  EXPECT_TRUE (bench::parse_int ("42", 1, 100, &v));
  EXPECT_EQ (v, 42);
  EXPECT_FALSE (bench::parse_int ("0", 1, 100, &v));
  EXPECT_FALSE (bench::parse_int ("101", 1, 100, &v));
  EXPECT_FALSE (bench::parse_int ("4x", 1, 100, &v));
  EXPECT_FALSE (bench::parse_int ("", 1, 100, &v));

  double mhz = -1;
  bool automatic = false;
  EXPECT_TRUE (bench::parse_cpu_mhz ("auto", &mhz, &automatic));
  EXPECT_TRUE (automatic);
  EXPECT_TRUE (bench::parse_cpu_mhz ("3000.5", &mhz, &automatic));
  EXPECT_FALSE (automatic);
  EXPECT_DOUBLE_EQ (mhz, 3000.5);
  for (const char *bad : { "", "-1", "0", "abc", "3000MHz" })
    EXPECT_FALSE (bench::parse_cpu_mhz (bad, &mhz, &automatic)) << bad;
}

TEST (BenchParse, Csv)
{
  std::vector<std::string> f
      = bench::parse_csv_line ("a,\"b,c\",\"d\"\"e\",,f\n");
  ASSERT_EQ (f.size (), 5u);
  EXPECT_EQ (f[0], "a");
  EXPECT_EQ (f[1], "b,c");
  EXPECT_EQ (f[2], "d\"e");
  EXPECT_EQ (f[3], "");
  EXPECT_EQ (f[4], "f");
  EXPECT_EQ (bench::format_csv_line (f), "a,\"b,c\",\"d\"\"e\",,f");
  EXPECT_EQ (bench::parse_csv_line (bench::format_csv_line (f)), f);
  /* A bench-slope CSV row.  */
  f = bench::parse_csv_line (
      "cipher,AES,ECB enc,,,0.073,ns/B,13066,MiB/s,0.325,c/B,4450,Mhz");
  ASSERT_EQ (f.size (), 13u);
  EXPECT_EQ (f[2], "ECB enc");
  EXPECT_EQ (f[5], "0.073");
  EXPECT_EQ (f[12], "Mhz");
  EXPECT_EQ (bench::split ("a,,b", ','),
             (std::vector<std::string>{ "a", "", "b" }));
}

TEST (BenchParse, SlopeArgs)
{
  bench::SlopeOptions o;
  std::string err;
  ASSERT_TRUE (bench::parse_slope_args (
      { "--cpu-mhz", "auto", "--disable-hwf", "intel-aesni", "--disable-hwf",
        "intel-avx2", "--repetitions", "8", "--unaligned", "--csv", "cipher",
        "aes", "aes256" }, &o, &err)) << err;
  EXPECT_TRUE (o.auto_mhz);
  EXPECT_EQ (o.disable_hwf,
             (std::vector<std::string>{ "intel-aesni", "intel-avx2" }));
  EXPECT_EQ (o.repetitions, 8);
  EXPECT_TRUE (o.unaligned);
  EXPECT_TRUE (o.csv);
  EXPECT_EQ (o.algos, (std::vector<std::string>{ "aes", "aes256" }));

  bench::SlopeOptions d;
  ASSERT_TRUE (bench::parse_slope_args ({ "--cpu-mhz", "2500", "cipher" },
                                        &d, &err));
  EXPECT_FALSE (d.auto_mhz);
  EXPECT_DOUBLE_EQ (d.cpu_mhz, 2500);
  EXPECT_TRUE (d.algos.empty ());
  EXPECT_EQ (d.repetitions, 32);

  EXPECT_TRUE (d.notes.empty ());
  EXPECT_TRUE (d.run_cipher ());

  for (std::vector<std::string> bad :
       { std::vector<std::string>{ "aes" }, { "--cpu-mhz" },
         { "--cpu-mhz", "fast", "cipher" }, { "--repetitions" },
         { "--repetitions", "100001", "cipher" }, { "--bogus", "cipher" },
         { "--unaligned-mode", "cipher" } })
    {
      bench::SlopeOptions x;
      err.clear ();
      EXPECT_FALSE (bench::parse_slope_args (bad, &x, &err));
      EXPECT_FALSE (err.empty ());
    }
}

/* What libgcrypt's bench-slope accepts beyond the cipher options.  */
TEST (BenchParse, SlopeLibgcryptCompat)
{
  std::string err;
  /* No command: the cipher section for every algorithm, with a note that
   * the other sections are skipped.  */
  bench::SlopeOptions n;
  ASSERT_TRUE (bench::parse_slope_args ({}, &n, &err)) << err;
  EXPECT_TRUE (n.run_cipher ());
  EXPECT_TRUE (n.command.empty ());
  EXPECT_TRUE (n.algos.empty ());
  ASSERT_EQ (n.notes.size (), 1u);
  EXPECT_NE (n.notes[0].find ("no command"), std::string::npos);

  /* --verbose and --debug.  */
  bench::SlopeOptions v;
  ASSERT_TRUE (bench::parse_slope_args ({ "--verbose", "cipher" }, &v, &err));
  EXPECT_TRUE (v.verbose);
  EXPECT_FALSE (v.debug);
  bench::SlopeOptions g;
  ASSERT_TRUE (bench::parse_slope_args ({ "--debug", "cipher", "aes" }, &g,
                                        &err));
  EXPECT_TRUE (g.debug);
  EXPECT_TRUE (g.verbose);
  EXPECT_TRUE (g.notes.empty ());

  /* The repetition floor: below 2 (or not a number) the default is used
   * and a note says so; 2 itself is taken.  */
  for (const char *low : { "1", "0", "-5", "x" })
    {
      bench::SlopeOptions r;
      ASSERT_TRUE (bench::parse_slope_args ({ "--repetitions", low, "cipher" },
                                            &r, &err)) << low;
      EXPECT_EQ (r.repetitions, bench::kSlopeDefaultRepetitions) << low;
      ASSERT_EQ (r.notes.size (), 1u) << low;
      EXPECT_NE (r.notes[0].find ("minimum of 2"), std::string::npos);
    }
  bench::SlopeOptions two;
  ASSERT_TRUE (bench::parse_slope_args ({ "--repetitions", "2", "cipher" },
                                        &two, &err));
  EXPECT_EQ (two.repetitions, 2);
  EXPECT_TRUE (two.notes.empty ());

  /* The other sections: accepted, skipped with a note.  */
  for (const char *cmd : { "hash", "mac", "kdf", "ecc", "md", "random" })
    {
      bench::SlopeOptions o;
      ASSERT_TRUE (bench::parse_slope_args ({ cmd, "sha1" }, &o, &err)) << cmd;
      EXPECT_FALSE (o.run_cipher ()) << cmd;
      EXPECT_EQ (o.command, cmd);
      ASSERT_EQ (o.notes.size (), 1u);
      EXPECT_NE (o.notes[0].find ("skipped"), std::string::npos);
    }
  bench::SlopeOptions u;
  EXPECT_FALSE (bench::parse_slope_args ({ "frobnicate" }, &u, &err));

  bench::SlopeOptions h;
  ASSERT_TRUE (bench::parse_slope_args ({ "--csv", "--help" }, &h, &err));
  EXPECT_TRUE (h.help);
}

TEST (BenchParse, BenchmarkArgs)
{
  std::string err;
  bench::BenchmarkOptions o;
  ASSERT_TRUE (bench::parse_benchmark_args (
      { "--cipher-repetitions", "3", "--large-buffers", "--alignment", "1",
        "--disable-hwf", "intel-aesni", "--cipher-with-keysetup",
        "--use-secmem", "--fips", "--verbose", "cipher", "aes", "twofish" },
      &o, &err)) << err;
  EXPECT_EQ (o.cipher_repetitions, 3);
  EXPECT_TRUE (o.large_buffers);
  EXPECT_FALSE (o.huge_buffers);
  EXPECT_EQ (o.alignment, 1u);
  EXPECT_EQ (o.disable_hwf, (std::vector<std::string>{ "intel-aesni" }));
  EXPECT_TRUE (o.cipher_with_keysetup);
  EXPECT_TRUE (o.use_secmem);
  EXPECT_TRUE (o.fips);
  EXPECT_TRUE (o.verbose);
  EXPECT_FALSE (o.debug);
  EXPECT_EQ (o.command, "cipher");
  EXPECT_TRUE (o.run_cipher ());
  EXPECT_EQ (o.algos, (std::vector<std::string>{ "aes", "twofish" }));
  EXPECT_TRUE (o.notes.empty ());

  /* Defaults.  */
  bench::BenchmarkOptions d;
  ASSERT_TRUE (bench::parse_benchmark_args ({ "cipher" }, &d, &err));
  EXPECT_EQ (d.cipher_repetitions, 1);
  EXPECT_EQ (d.alignment, 16u);
  EXPECT_FALSE (d.cipher_with_keysetup || d.use_secmem || d.fips
                || d.verbose || d.large_buffers || d.huge_buffers);
  EXPECT_TRUE (d.algos.empty ());

  /* --debug is --verbose too; --huge-buffers; counts below 1 mean 1.  */
  bench::BenchmarkOptions g;
  ASSERT_TRUE (bench::parse_benchmark_args (
      { "--debug", "--huge-buffers", "--cipher-repetitions", "0", "cipher" },
      &g, &err));
  EXPECT_TRUE (g.debug && g.verbose && g.huge_buffers);
  EXPECT_EQ (g.cipher_repetitions, 1);

  /* No command: the cipher table for every algorithm, and a note.  */
  bench::BenchmarkOptions n;
  ASSERT_TRUE (bench::parse_benchmark_args ({ "--verbose" }, &n, &err));
  EXPECT_TRUE (n.run_cipher ());
  EXPECT_TRUE (n.command.empty ());
  EXPECT_TRUE (n.algos.empty ());
  ASSERT_EQ (n.notes.size (), 1u);
  EXPECT_NE (n.notes[0].find ("no command"), std::string::npos);

  /* libgcrypt's options for its other parts: accepted with their
   * values, one note each, nothing else changes.  */
  bench::BenchmarkOptions i;
  ASSERT_TRUE (bench::parse_benchmark_args (
      { "--hash-repetitions", "5", "--mac-repetitions", "7", "--pk-count",
        "2", "--no-blinding", "--progress", "--prefer-standard-rng",
        "--prefer-fips-rng", "--prefer-system-rng", "cipher", "aes" },
      &i, &err)) << err;
  EXPECT_EQ (i.notes.size (), 8u);
  for (const std::string &note : i.notes)
    EXPECT_NE (note.find ("ignored"), std::string::npos) << note;
  EXPECT_EQ (i.command, "cipher");
  EXPECT_EQ (i.algos, (std::vector<std::string>{ "aes" }));
  EXPECT_EQ (i.cipher_repetitions, 1);

  /* An ignored option's value is consumed even when it looks like a
   * command.  */
  bench::BenchmarkOptions c;
  ASSERT_TRUE (bench::parse_benchmark_args ({ "--pk-count", "cipher" }, &c,
                                            &err));
  EXPECT_TRUE (c.command.empty ());

  /* The other commands: accepted, skipped with a note.  */
  for (const char *cmd :
       { "md", "mac", "random", "mpi", "pubkey", "rsa", "dsa", "ecc",
         "prime", "kdf", "hash" })
    {
      bench::BenchmarkOptions x;
      ASSERT_TRUE (bench::parse_benchmark_args ({ cmd, "sha1" }, &x, &err))
          << cmd;
      EXPECT_FALSE (x.run_cipher ()) << cmd;
      ASSERT_EQ (x.notes.size (), 1u);
      EXPECT_NE (x.notes[0].find ("skipped"), std::string::npos);
    }

  bench::BenchmarkOptions h;
  ASSERT_TRUE (bench::parse_benchmark_args ({ "--help" }, &h, &err));
  EXPECT_TRUE (h.help);

  for (std::vector<std::string> bad :
       { std::vector<std::string>{ "foo" }, { "--foo", "cipher" },
         { "--alignment", "0", "cipher" }, { "--alignment", "65", "cipher" },
         { "--alignment" }, { "--cipher-repetitions", "x", "cipher" },
         { "--pk-count" }, { "--hash-repetitions" }, { "--repetitions", "2" },
         { "--unaligned-mode", "cipher" } })
    {
      bench::BenchmarkOptions x;
      err.clear ();
      EXPECT_FALSE (bench::parse_benchmark_args (bad, &x, &err));
      EXPECT_FALSE (err.empty ());
    }
}

/* The cycles/byte cell without a clock: `-' in the table, empty in CSV. */
TEST (BenchFormat, CyclesPerByteCell)
{
  EXPECT_EQ (bench::format_cpb_cell (0.5, 0, false), "-");
  EXPECT_EQ (bench::format_cpb_cell (0.5, 0, true), "");
  EXPECT_EQ (bench::format_cpb_cell (0.5, 4000, false), "2.00");
  EXPECT_EQ (bench::format_cpb_cell (0.5, 4000, true), "2.00");
}

TEST (BenchParse, CompareArgs)
{
  bench::CompareOptions o;
  std::string err;
  ASSERT_TRUE (bench::parse_compare_args (
      { "--sizes", "1024,16k", "--modes", "ecb,gcm", "--rounds", "3",
        "--ms", "0.5", "--disable-hwf", "intel-vaes-vpclmul", "--csv", "aes",
        "aes256" }, &o, &err)) << err;
  EXPECT_EQ (o.sizes, (std::vector<size_t>{ 1024, 16384 }));
  ASSERT_EQ (o.modes.size (), 2u);
  EXPECT_STREQ (o.modes[1]->name, "GCM");
  EXPECT_EQ (o.rounds, 3);
  EXPECT_DOUBLE_EQ (o.target_ms, 0.5);
  EXPECT_EQ (o.disable_hwf,
             (std::vector<std::string>{ "intel-vaes-vpclmul" }));
  EXPECT_TRUE (o.csv);
  EXPECT_EQ (o.algos, (std::vector<std::string>{ "aes", "aes256" }));

  bench::CompareOptions d;
  ASSERT_TRUE (bench::parse_compare_args ({}, &d, &err));
  EXPECT_EQ (d.sizes, (std::vector<size_t>{ 16, 64, 256, 1024, 4096, 16384,
                                            65536 }));
  EXPECT_TRUE (d.modes.empty ());
  EXPECT_EQ (d.rounds, 5);
  EXPECT_TRUE (d.libgcrypt.empty ());   /* the system library */

  /* --libgcrypt is repeatable and keeps its order.  */
  bench::CompareOptions l;
  ASSERT_TRUE (bench::parse_compare_args (
      { "--libgcrypt", "/a/libgcrypt.so.20", "--libgcrypt",
        "/b/libgcrypt.so.20", "aes" }, &l, &err)) << err;
  EXPECT_EQ (l.libgcrypt, (std::vector<std::string>{ "/a/libgcrypt.so.20",
                                                     "/b/libgcrypt.so.20" }));
  EXPECT_EQ (l.algos, (std::vector<std::string>{ "aes" }));

  for (std::vector<std::string> bad :
       { std::vector<std::string>{ "--sizes", "17" }, { "--sizes" },
         { "--modes", "ecb,nope" }, { "--rounds", "0" }, { "--ms", "x" },
         { "--frobnicate" }, { "--libgcrypt" }, { "--libgcrypt", "" } })
    {
      bench::CompareOptions x;
      err.clear ();
      EXPECT_FALSE (bench::parse_compare_args (bad, &x, &err));
      EXPECT_FALSE (err.empty ());
    }
}

} // namespace
