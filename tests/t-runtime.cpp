// t-runtime.cpp - the runtime under the cipher API: version check,
// gcry_control, configuration output, hardware features and their
// disable list, memory (secure pool, x* variants, handlers), random,
// error strings, logging, wiping.
//
// Facts about libgcrypt's behaviour are checked live against the system
// libgcrypt (loaded with dlmopen into its own namespace, SYSTEM_LIBGCRYPT
// from configure) where that is possible, else against values probed
// from libgcrypt 1.10.1.  Anything that depends on process-wide state
// set once (feature detection, disabled secure memory) runs in a fresh
// child process: this binary re-executed with T_RUNTIME_CHILD=<mode>,
// handled by a constructor before GoogleTest's main.
#include <gtest/gtest.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <config.h>
#include "g10lib.h"
#include "testutil.h"

namespace {

// ---------------------------------------------------------------------
// Child processes.

std::vector<std::string>
split_names (const std::string &s, const char *seps)
{
  std::vector<std::string> out;
  std::string cur;
  for (char c : s)
    {
      if (strchr (seps, c))
        {
          if (!cur.empty ())
            out.push_back (cur);
          cur.clear ();
        }
      else
        cur += c;
    }
  if (!cur.empty ())
    out.push_back (cur);
  return out;
}

void
child_print_features (void)
{
  printf ("features=%x\n", _gcry_get_hw_features ());
}

// Every gcry_control command code in a wide range with null/zero
// arguments: must never crash.
int
child_all_controls (void)
{
  gcry_check_version (nullptr);
  for (int cmd = -3; cmd < 300; cmd++)
    (void) gcry_control ((enum gcry_ctl_cmds) cmd, 0, 0, 0);
  (void) gcry_control ((enum gcry_ctl_cmds) 100000, 0, 0, 0);
  printf ("done\n");
  return 0;
}

int
child_disabled_secmem (void)
{
  gcry_control (GCRYCTL_DISABLE_SECMEM, 0);
  void *p = gcry_malloc_secure (64);
  printf ("p=%d secure=%d\n", p != nullptr, gcry_is_secure (p));
  gcry_free (p);
  return 0;
}

// Runs before main when this binary is a child; never returns then.
__attribute__ ((constructor)) void
child_dispatch (void)
{
  const char *mode = getenv ("T_RUNTIME_CHILD");
  if (!mode)
    return;
  int rc = 0;
  std::string m = mode;
  if (m == "features")
    child_print_features ();
  else if (m.rfind ("disable:", 0) == 0)
    {
      for (auto &n : split_names (m.substr (8), ","))
        if (gcry_control (GCRYCTL_DISABLE_HWF, n.c_str (), nullptr))
          rc = 2;
      gcry_check_version (nullptr);
      child_print_features ();
    }
  else if (m == "controls")
    rc = child_all_controls ();
  else if (m == "nosecmem")
    rc = child_disabled_secmem ();
  else
    rc = 99;
  fflush (stdout);
  _exit (rc);
}

struct child_result
{
  int status = -1;          // exit code, or 128+signal
  std::string out;
};

child_result
run_child (const std::string &mode, const char *env_name = nullptr,
           const char *env_value = nullptr)
{
  child_result r;
  int fds[2];
  if (pipe (fds))
    return r;
  pid_t pid = fork ();
  if (pid == 0)
    {
      dup2 (fds[1], 1);
      close (fds[0]);
      close (fds[1]);
      setenv ("T_RUNTIME_CHILD", mode.c_str (), 1);
      unsetenv ("GCIPHER_DISABLE_HWF");
      if (env_name)
        setenv (env_name, env_value, 1);
      execl ("/proc/self/exe", "t-runtime", (char *) nullptr);
      _exit (127);
    }
  close (fds[1]);
  char buf[4096];
  ssize_t n;
  while ((n = read (fds[0], buf, sizeof buf)) > 0)
    r.out.append (buf, (size_t) n);
  close (fds[0]);
  int st = 0;
  waitpid (pid, &st, 0);
  r.status = WIFEXITED (st) ? WEXITSTATUS (st) : 128 + WTERMSIG (st);
  return r;
}

unsigned int
parse_features (const std::string &out)
{
  auto pos = out.find ("features=");
  if (pos == std::string::npos)
    return ~0u;
  return (unsigned int) strtoul (out.c_str () + pos + 9, nullptr, 16);
}

unsigned int
bit_of (const char *name)
{
  unsigned int bit;
  for (int i = 0;; i++)
    {
      const char *n = _gcry_enum_hw_features (i, &bit);
      if (!n)
        return 0;
      if (!strcmp (n, name))
        return bit;
    }
}

// ---------------------------------------------------------------------
// The system libgcrypt, in its own link namespace.

struct system_lib
{
  void *h = nullptr;
  const char *(*check_version) (const char *) = nullptr;
  gcry_error_t (*control) (int, ...) = nullptr;

  system_lib ()
  {
    const char *path = SYSTEM_LIBGCRYPT;
    if (!*path)
      return;
    h = dlmopen (LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
      return;
    check_version = (const char *(*) (const char *)) dlsym (h, "gcry_check_version");
    control = (gcry_error_t (*) (int, ...)) dlsym (h, "gcry_control");
    if (check_version)
      check_version (nullptr);
  }
  bool ok () const { return check_version && control; }
};

system_lib &
syslib ()
{
  static system_lib lib;
  return lib;
}

std::string
config_text ()
{
  char *buf = nullptr;
  size_t len = 0;
  FILE *fp = open_memstream (&buf, &len);
  EXPECT_EQ (gcry_control (GCRYCTL_PRINT_CONFIG, fp), 0u);
  fclose (fp);
  std::string s (buf, len);
  free (buf);
  return s;
}

}  // namespace

// ---------------------------------------------------------------------
// gcry_check_version

TEST (CheckVersion, NullReturnsVersion)
{
  const char *v = gcry_check_version (nullptr);
  ASSERT_NE (v, nullptr);
  EXPECT_STREQ (v, GCRYPT_VERSION "-gcipher" GCIPHER_VERSION);
}

TEST (CheckVersion, AcceptsUpToApiLevel)
{
  for (const char *req : { "1.10.1", "1.10.0", "1.9.9", "0.0.0", "1.6.0",
                           "1.10.1-beta", "1.10.1x", "1.10.1.5",
                           "1.10.1 ", "1.10.0-rc9" })
    EXPECT_NE (gcry_check_version (req), nullptr) << req;
}

TEST (CheckVersion, RejectsHigherOrMalformed)
{
  for (const char *req : { "1.10.2", "1.11.0", "2.0.0", "1.11", "1.10",
                           "1", "1.", "", "abc", "1.a", " 1.10.1",
                           "1.10.01", "01.10.1", "-1.10.1", "10" })
    EXPECT_EQ (gcry_check_version (req), nullptr) << '"' << req << '"';
}

TEST (CheckVersion, SameVerdictsAsSystemLibgcrypt)
{
  system_lib &sys = syslib ();
  if (!sys.ok ())
    GTEST_SKIP () << "system libgcrypt not loadable";
  const char *sysver = sys.check_version (nullptr);
  if (strcmp (sysver, GCRYPT_VERSION))
    GTEST_SKIP () << "system libgcrypt is " << sysver;
  for (const char *req : { "1.10.1", "1.10.2", "1.11", "1.10", "1.9.9",
                           "1.10.1-beta", "1.10.1x", "0.0", "0.0.0",
                           "1.10.01", "2", "1.10.1.5", "", "abc", "1.a",
                           " 1.10.1", "1.10.1 ", "1", "1.", "10",
                           "1.10.0-rc9", "1.0.0", "01.10.1" })
    EXPECT_EQ (gcry_check_version (req) != nullptr,
               sys.check_version (req) != nullptr) << '"' << req << '"';
}

// ---------------------------------------------------------------------
// gcry_control

TEST (Control, UnknownCommandsAreInvalidOperation)
{
  for (int cmd : { 0, 1, 2, 26, 43, 84, 85, 1000, -1, 3, 4, 5, 6, 7, 8, 9,
                   10, 11, 12, 15, 16, 17, 18, 32, 33, 34, 35, 41, 42, 69,
                   73, 75, 76, 79, 80 })
    {
      gcry_error_t e = gcry_control ((enum gcry_ctl_cmds) cmd, 0, 0, 0);
      EXPECT_EQ (gcry_err_code (e), GPG_ERR_INV_OP) << cmd;
      EXPECT_EQ (gcry_err_source (e), GPG_ERR_SOURCE_GCRYPT) << cmd;
    }
}

TEST (Control, SameCodesAsSystemLibgcrypt)
{
  system_lib &sys = syslib ();
  if (!sys.ok ())
    GTEST_SKIP () << "system libgcrypt not loadable";
  gcry_check_version (nullptr);
  // Commands safe to send to both with zero arguments (58..62 are
  // libgcrypt-private and may crash it; state-changing ones and those
  // whose answer depends on pointer arguments, like DRBG_REINIT, are
  // left out).  RNG type and FIPS-flag commands differ by design.
  for (int cmd : { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17,
                   18, 26, 32, 33, 34, 35, 41, 42, 43, 44, 49, 50, 52, 55,
                   64, 69, 73, 75, 76, 77, 78, 79, 80, 81, 82, 84, 85,
                   1000, -1 })
    {
      gcry_error_t ours = gcry_control ((enum gcry_ctl_cmds) cmd, 0, 0, 0);
      gcry_error_t theirs = sys.control (cmd, 0, 0, 0);
      EXPECT_EQ (ours, theirs) << "command " << cmd;
    }
  gcry_error_t ours = gcry_control (GCRYCTL_DISABLE_HWF, "no-such-hwf", nullptr);
  gcry_error_t theirs = sys.control (GCRYCTL_DISABLE_HWF, "no-such-hwf", nullptr);
  EXPECT_EQ (ours, theirs);
  EXPECT_EQ (gcry_control (GCRYCTL_ANY_INITIALIZATION_P),
             sys.control (GCRYCTL_ANY_INITIALIZATION_P));
}

TEST (Control, Predicates)
{
  gcry_check_version (nullptr);
  EXPECT_EQ (gcry_control (GCRYCTL_ANY_INITIALIZATION_P),
             gcry_err_make (GPG_ERR_SOURCE_GCRYPT, GPG_ERR_GENERAL));
  EXPECT_EQ (gcry_control (GCRYCTL_FIPS_MODE_P, 0), 0u);
  EXPECT_FALSE (gcry_fips_mode_active ());
  EXPECT_EQ (gcry_control (GCRYCTL_OPERATIONAL_P, 0),
             gcry_err_make (GPG_ERR_SOURCE_GCRYPT, GPG_ERR_GENERAL));
  EXPECT_EQ (gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0), 0u);
  EXPECT_EQ (gcry_control (GCRYCTL_INITIALIZATION_FINISHED_P),
             gcry_err_make (GPG_ERR_SOURCE_GCRYPT, GPG_ERR_GENERAL));
}

TEST (Control, HarmlessCommandsSucceed)
{
  EXPECT_EQ (gcry_control (GCRYCTL_SUSPEND_SECMEM_WARN), 0u);
  EXPECT_EQ (gcry_control (GCRYCTL_RESUME_SECMEM_WARN), 0u);
  EXPECT_EQ (gcry_control (GCRYCTL_SET_VERBOSITY, 0), 0u);
  EXPECT_EQ (gcry_control (GCRYCTL_ENABLE_QUICK_RANDOM, 0), 0u);
  EXPECT_EQ (gcry_control (GCRYCTL_SET_THREAD_CBS, nullptr), 0u);
  EXPECT_EQ (gcry_control (GCRYCTL_FAST_POLL, nullptr), 0u);
  EXPECT_EQ (gcry_control (GCRYCTL_USE_SECURE_RNDPOOL), 0u);
  EXPECT_EQ (gcry_control (GCRYCTL_DISABLE_PRIV_DROP), 0u);
  EXPECT_EQ (gcry_control (GCRYCTL_AUTO_EXPAND_SECMEM, 0), 0u);
  EXPECT_EQ (gcry_control (GCRYCTL_REINIT_SYSCALL_CLAMP), 0u);
  EXPECT_EQ (gcry_control (GCRYCTL_CLOSE_RANDOM_DEVICE), 0u);
  EXPECT_EQ (gcry_control (GCRYCTL_SET_PREFERRED_RNG_TYPE,
                           GCRY_RNG_TYPE_STANDARD), 0u);
  int type = -1;
  EXPECT_EQ (gcry_control (GCRYCTL_GET_CURRENT_RNG_TYPE, &type), 0u);
  EXPECT_EQ (type, GCRY_RNG_TYPE_SYSTEM);
  EXPECT_EQ (gcry_control (GCRYCTL_GET_CURRENT_RNG_TYPE, nullptr), 0u);
}

TEST (Control, SelftestPasses)
{
  EXPECT_EQ (gcry_control (GCRYCTL_SELFTEST), 0u);
}

TEST (Control, EveryCommandCodeIsSafe)
{
  child_result r = run_child ("controls");
  EXPECT_EQ (r.status, 0);
  EXPECT_NE (r.out.find ("done"), std::string::npos);
}

// ---------------------------------------------------------------------
// Configuration

TEST (Config, PrintConfigLines)
{
  std::string s = "\n" + config_text ();
  for (const char *prefix : { "version:" GCRYPT_VERSION, "cc:", "ciphers:",
                              "cpu-arch:", "hwflist:", "fips-mode:n:",
                              "rng-type:system:3:" })
    EXPECT_NE (s.find (std::string ("\n") + prefix), std::string::npos)
      << prefix << " missing in\n" << s;
  // Every line is "name:" fields.
  std::istringstream in (s);
  std::string line;
  while (std::getline (in, line))
    {
      if (line.empty ())
        continue;
      EXPECT_NE (line.find (':'), std::string::npos) << line;
      EXPECT_EQ (line.back (), ':') << line;
    }
}

TEST (Config, GetConfig)
{
  char *all = gcry_get_config (0, nullptr);
  ASSERT_NE (all, nullptr);
  EXPECT_EQ (std::string (all), config_text ());
  gcry_free (all);
  char *h = gcry_get_config (0, "hwflist");
  ASSERT_NE (h, nullptr);
  EXPECT_EQ (strncmp (h, "hwflist:", 8), 0);
  EXPECT_EQ (strchr (h, '\n'), nullptr);
  gcry_free (h);
  EXPECT_EQ (gcry_get_config (0, "no-such-item"), nullptr);
  EXPECT_EQ (gcry_get_config (1, nullptr), nullptr);
  char *v = gcry_get_config (0, "version");
  ASSERT_NE (v, nullptr);
  EXPECT_EQ (strncmp (v, "version:" GCRYPT_VERSION, 14), 0) << v;
  gcry_free (v);
}

// ---------------------------------------------------------------------
// Hardware features

TEST (Hwf, NamesAreUniqueAndListed)
{
  std::set<std::string> names;
  unsigned int bits = 0, bit;
  for (int i = 0; const char *n = _gcry_enum_hw_features (i, &bit); i++)
    {
      EXPECT_TRUE (names.insert (n).second) << n;
      EXPECT_EQ (bits & bit, 0u) << n;
      bits |= bit;
    }
  EXPECT_TRUE (names.count ("intel-aesni"));
  EXPECT_TRUE (names.count ("intel-avx512"));
  EXPECT_TRUE (names.count ("intel-gfni"));
  EXPECT_TRUE (names.count ("riscv-zvkned"));
  EXPECT_EQ (_gcry_enum_hw_features (-1, &bit), nullptr);

  char *h = gcry_get_config (0, "hwflist");
  ASSERT_NE (h, nullptr);
  unsigned int f = _gcry_get_hw_features ();
  unsigned int printed = 0;
  for (auto &n : split_names (h + 8, ":"))
    {
      EXPECT_TRUE (names.count (n)) << n;
      printed |= bit_of (n.c_str ());
    }
  EXPECT_EQ (printed, f);
  gcry_free (h);
}

#if defined(__x86_64__) || defined(__i386__)
// Detection agrees with the kernel's view of the CPU (/proc/cpuinfo).
TEST (Hwf, X86MatchesProcCpuinfo)
{
  std::ifstream in ("/proc/cpuinfo");
  std::string line;
  std::set<std::string> flags;
  while (std::getline (in, line))
    if (line.rfind ("flags", 0) == 0)
      {
        for (auto &f : split_names (line.substr (line.find (':') + 1), " "))
          flags.insert (f);
        break;
      }
  if (flags.empty ())
    GTEST_SKIP () << "no /proc/cpuinfo flags";
  auto has = [&] (const char *f) { return flags.count (f) > 0; };
  unsigned int f = _gcry_get_hw_features ();
  struct { const char *hwf; bool expect; } checks[] = {
    { "intel-aesni", has ("aes") },
    { "intel-pclmul", has ("pclmulqdq") },
    { "intel-ssse3", has ("ssse3") },
    { "intel-sse4.1", has ("sse4_1") },
    { "intel-avx", has ("avx") },
    { "intel-avx2", has ("avx2") },
    { "intel-bmi2", has ("bmi2") },
    { "intel-rdrand", has ("rdrand") },
    { "intel-shaext", has ("sha_ni") },
    { "intel-gfni", has ("gfni") },
    { "intel-vaes-vpclmul", has ("vaes") && has ("vpclmulqdq") && has ("avx2") },
    { "intel-avx512", has ("avx512f") && has ("avx512vl") && has ("avx512bw")
                      && has ("avx512dq") },
    { "intel-sse2", has ("sse2") },
  };
  for (auto &c : checks)
    EXPECT_EQ ((f & bit_of (c.hwf)) != 0, c.expect) << c.hwf;
  std::string vendor;
  std::ifstream in2 ("/proc/cpuinfo");
  while (std::getline (in2, line))
    if (line.rfind ("vendor_id", 0) == 0)
      {
        vendor = line;
        break;
      }
  EXPECT_EQ ((f & HWF_INTEL_CPU) != 0,
             vendor.find ("GenuineIntel") != std::string::npos);
}
#endif

TEST (Hwf, UnknownNameIsInvalidName)
{
  gcry_error_t e = gcry_control (GCRYCTL_DISABLE_HWF, "intel-nonsense", nullptr);
  EXPECT_EQ (gcry_err_code (e), GPG_ERR_INV_NAME);
  EXPECT_EQ (gcry_err_source (e), GPG_ERR_SOURCE_GCRYPT);
  e = gcry_control (GCRYCTL_DISABLE_HWF, "INTEL-AESNI", nullptr);
  EXPECT_EQ (gcry_err_code (e), GPG_ERR_INV_NAME);   // case-sensitive
  EXPECT_EQ (gcry_control (GCRYCTL_DISABLE_HWF, nullptr, nullptr), 0u);
}

TEST (Hwf, DisableByNameInFreshProcess)
{
  unsigned int all = parse_features (run_child ("features").out);
  ASSERT_NE (all, ~0u);
  child_result r = run_child ("disable:intel-aesni,intel-avx2,riscv-v");
  EXPECT_EQ (r.status, 0);
  unsigned int f = parse_features (r.out);
  EXPECT_EQ (f, all & ~(HWF_INTEL_AESNI | HWF_INTEL_AVX2 | HWF_RISCV_V));
  r = run_child ("disable:all");
  EXPECT_EQ (r.status, 0);
  EXPECT_EQ (parse_features (r.out), 0u);
  r = run_child ("disable:no-such-feature");
  EXPECT_EQ (r.status, 2);
  EXPECT_EQ (parse_features (r.out), all);
}

TEST (Hwf, DisableByEnvironment)
{
  unsigned int all = parse_features (run_child ("features").out);
  ASSERT_NE (all, ~0u);
  child_result r = run_child ("features", "GCIPHER_DISABLE_HWF",
                              "intel-aesni, intel-pclmul:intel-avx512 bogus");
  EXPECT_EQ (r.status, 0);
  EXPECT_EQ (parse_features (r.out),
             all & ~(HWF_INTEL_AESNI | HWF_INTEL_PCLMUL | HWF_INTEL_AVX512));
  r = run_child ("features", "GCIPHER_DISABLE_HWF", "all");
  EXPECT_EQ (parse_features (r.out), 0u);
}

TEST (Hwf, TestMask)
{
  unsigned int all = _gcry_get_hw_features ();
  _gcry_hwf_set_test_mask (~HWF_INTEL_AESNI);
  EXPECT_EQ (_gcry_get_hw_features (), all & ~HWF_INTEL_AESNI);
  _gcry_hwf_set_test_mask (0);
  EXPECT_EQ (_gcry_get_hw_features (), 0u);
  _gcry_hwf_set_test_mask (~0u);
  EXPECT_EQ (_gcry_get_hw_features (), all);
}

// ---------------------------------------------------------------------
// Memory

TEST (Memory, SecureAllocationsAreSecure)
{
  void *n = gcry_malloc (100);
  void *s = gcry_malloc_secure (100);
  void *c = gcry_calloc_secure (10, 10);
  ASSERT_TRUE (n && s && c);
  EXPECT_FALSE (gcry_is_secure (n));
  EXPECT_TRUE (gcry_is_secure (s));
  EXPECT_TRUE (gcry_is_secure (c));
  for (int i = 0; i < 100; i++)
    EXPECT_EQ (((unsigned char *) c)[i], 0);
  EXPECT_FALSE (gcry_is_secure (nullptr));
  int local = 0;
  EXPECT_FALSE (gcry_is_secure (&local));
  EXPECT_EQ ((uintptr_t) s % 16, 0u);
  gcry_free (n);
  gcry_free (s);
  gcry_free (c);
  gcry_free (nullptr);
}

TEST (Memory, ReallocOfSecureStaysSecure)
{
  unsigned char *p = (unsigned char *) gcry_malloc_secure (32);
  ASSERT_NE (p, nullptr);
  for (int i = 0; i < 32; i++)
    p[i] = (unsigned char) i;
  p = (unsigned char *) gcry_realloc (p, 100000);   // beyond a pool region
  ASSERT_NE (p, nullptr);
  EXPECT_TRUE (gcry_is_secure (p));
  for (int i = 0; i < 32; i++)
    EXPECT_EQ (p[i], i);
  p = (unsigned char *) gcry_realloc (p, 64);
  EXPECT_TRUE (gcry_is_secure (p));
  EXPECT_EQ (p[31], 31);
  EXPECT_EQ (gcry_realloc (p, 0), nullptr);   // frees
  void *q = gcry_realloc (nullptr, 10);
  EXPECT_NE (q, nullptr);
  gcry_free (q);
}

TEST (Memory, SecureFreeWipes)
{
  unsigned char *p = (unsigned char *) gcry_malloc_secure (48);
  ASSERT_NE (p, nullptr);
  memset (p, 0xa5, 48);
  gcry_free (p);
  // First fit hands the same block back: it must hold no old bytes.
  unsigned char *q = (unsigned char *) gcry_malloc_secure (48);
  ASSERT_NE (q, nullptr);
  if (q == p)
    {
      for (int i = 0; i < 48; i++)
        EXPECT_EQ (q[i], 0) << i;
    }
  gcry_free (q);
}

TEST (Memory, ErrorsAsLibgcrypt)
{
  errno = 0;
  EXPECT_EQ (gcry_malloc (0), nullptr);
  EXPECT_EQ (errno, EINVAL);
  errno = 0;
  EXPECT_EQ (gcry_malloc_secure (0), nullptr);
  EXPECT_EQ (errno, EINVAL);
  errno = 0;
  EXPECT_EQ (gcry_calloc (SIZE_MAX / 2, 4), nullptr);
  EXPECT_EQ (errno, ENOMEM);
  errno = 0;
  EXPECT_EQ (gcry_calloc_secure (SIZE_MAX / 2, 4), nullptr);
  EXPECT_EQ (errno, ENOMEM);
  errno = 0;
  EXPECT_EQ (gcry_malloc (SIZE_MAX - 10), nullptr);
  EXPECT_EQ (errno, ENOMEM);
  errno = 0;
  EXPECT_EQ (gcry_malloc_secure (SIZE_MAX - 10), nullptr);
  EXPECT_EQ (errno, ENOMEM);
}

TEST (Memory, ManyAndLargeSecureBlocks)
{
  /* More than the fixed 32 KiB pool holds: let it grow, as libgcrypt
   * needs too (t-hygiene checks exhaustion without this).  */
  ASSERT_EQ (gcry_control (GCRYCTL_AUTO_EXPAND_SECMEM, 0), 0u);
  std::vector<void *> v;
  for (int i = 0; i < 2000; i++)
    {
      void *p = gcry_malloc_secure (1 + (size_t) (i * 37) % 700);
      ASSERT_NE (p, nullptr);
      EXPECT_TRUE (gcry_is_secure (p));
      v.push_back (p);
    }
  void *big = gcry_malloc_secure (1 << 20);
  ASSERT_NE (big, nullptr);
  EXPECT_TRUE (gcry_is_secure (big));
  memset (big, 1, 1 << 20);
  gcry_free (big);
  for (size_t i = 0; i < v.size (); i += 2)
    gcry_free (v[i]);
  for (size_t i = 1; i < v.size (); i += 2)
    gcry_free (v[i]);
}

namespace {
void *
thread_churn (void *arg)
{
  unsigned int seed = (unsigned int) (uintptr_t) arg;
  void *slots[64] = {};
  for (int i = 0; i < 20000; i++)
    {
      seed = seed * 1103515245u + 12345u;
      int k = (int) ((seed >> 16) % 64);
      if (slots[k])
        {
          if (!gcry_is_secure (slots[k]))
            return (void *) 1;
          gcry_free (slots[k]);
          slots[k] = nullptr;
        }
      else
        {
          slots[k] = gcry_malloc_secure (1 + (seed >> 8) % 2000);
          if (!slots[k])
            return (void *) 1;
          memset (slots[k], 0x5a, 1);
        }
    }
  for (void *p : slots)
    gcry_free (p);
  return nullptr;
}
}  // namespace

TEST (Memory, ThreadSafe)
{
  ASSERT_EQ (gcry_control (GCRYCTL_AUTO_EXPAND_SECMEM, 0), 0u);  /* As above. */
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    ASSERT_EQ (pthread_create (&t[i], nullptr, thread_churn,
                               (void *) (uintptr_t) (i + 1)), 0);
  for (int i = 0; i < 4; i++)
    {
      void *r;
      pthread_join (t[i], &r);
      EXPECT_EQ (r, nullptr);
    }
}

TEST (Memory, StrdupKeepsSecurity)
{
  char *a = gcry_strdup ("plain");
  EXPECT_STREQ (a, "plain");
  EXPECT_FALSE (gcry_is_secure (a));
  char *s = (char *) gcry_malloc_secure (8);
  strcpy (s, "secret");
  char *b = gcry_xstrdup (s);
  EXPECT_STREQ (b, "secret");
  EXPECT_TRUE (gcry_is_secure (b));
  gcry_free (a);
  gcry_free (b);
  gcry_free (s);
}

TEST (Memory, DisabledSecmemUsesNormalMemory)
{
  child_result r = run_child ("nosecmem");
  EXPECT_EQ (r.status, 0);
  EXPECT_NE (r.out.find ("p=1 secure=0"), std::string::npos) << r.out;
}

TEST (Memory, XVariantsSucceed)
{
  void *p = gcry_xmalloc (10);
  void *q = gcry_xcalloc (3, 5);
  void *s = gcry_xmalloc_secure (10);
  void *t = gcry_xcalloc_secure (3, 5);
  ASSERT_TRUE (p && q && s && t);
  EXPECT_TRUE (gcry_is_secure (s));
  EXPECT_TRUE (gcry_is_secure (t));
  p = gcry_xrealloc (p, 1000);
  EXPECT_NE (p, nullptr);
  for (void *x : { p, q, s, t })
    gcry_free (x);
}

namespace {
int outofcore_calls;
int
count_outofcore (void *, size_t, unsigned int)
{
  outofcore_calls++;
  return 0;   // cannot help
}
void
exit_fatal (void *, int code, const char *)
{
  // Exit status tells the parent the handlers ran, in order.
  _exit (code == (int) GPG_ERR_ENOMEM && outofcore_calls == 1 ? 42 : 43);
}
}  // namespace

TEST (MemoryDeathTest, XMallocFailureIsFatal)
{
  GTEST_FLAG_SET (death_test_style, "threadsafe");
  EXPECT_EXIT (
    {
      gcry_set_outofcore_handler (count_outofcore, nullptr);
      gcry_set_fatalerror_handler (exit_fatal, nullptr);
      gcry_xmalloc (SIZE_MAX - 100);
    },
    ::testing::ExitedWithCode (42), "");
  EXPECT_EXIT (
    {
      gcry_set_outofcore_handler (count_outofcore, nullptr);
      gcry_set_fatalerror_handler (exit_fatal, nullptr);
      gcry_xmalloc_secure (SIZE_MAX - 100);
    },
    ::testing::ExitedWithCode (42), "");
  // Without handlers: message and abort.
  EXPECT_DEATH (gcry_xcalloc (SIZE_MAX / 2, 4), "Fatal error");
}

namespace {
int h_allocs, h_frees, h_checks;
void *h_alloc (size_t n) { h_allocs++; return malloc (n); }
int h_check (const void *) { h_checks++; return 7; }
void *h_realloc (void *p, size_t n) { return realloc (p, n); }
void h_free (void *p) { h_frees++; free (p); }
}  // namespace

TEST (Memory, AllocationHandlerHonoured)
{
  gcry_set_allocation_handler (h_alloc, h_alloc, h_check, h_realloc, h_free);
  void *p = gcry_malloc (10);
  void *s = gcry_malloc_secure (10);
  EXPECT_EQ (h_allocs, 2);
  EXPECT_EQ (gcry_is_secure (s), 7);
  EXPECT_EQ (h_checks, 1);
  p = gcry_realloc (p, 100);
  gcry_free (p);
  gcry_free (s);
  EXPECT_EQ (h_frees, 2);
  gcry_set_allocation_handler (nullptr, nullptr, nullptr, nullptr, nullptr);
  s = gcry_malloc_secure (10);
  EXPECT_EQ (h_allocs, 2);
  EXPECT_TRUE (gcry_is_secure (s));
  gcry_free (s);
}

namespace {
/* An allocator whose blocks start 8 bytes past a 16-byte boundary, as
 * libgcrypt 1.10's secure pool gives them (the full substitute takes
 * its secure handles from there).  */
int odd_allocs;
void *
odd_alloc (size_t n)
{
  void *v = nullptr;
  if (posix_memalign (&v, 16, n + 32))
    return nullptr;
  unsigned char *p = static_cast<unsigned char *> (v);
  odd_allocs++;
  memcpy (p, &p, sizeof p);
  return p + 24;
}
int odd_check (const void *) { return 1; }
void *odd_realloc (void *, size_t) { return nullptr; }
void
odd_free (void *q)
{
  if (!q)
    return;
  void *p;
  memcpy (&p, static_cast<unsigned char *> (q) - 24, sizeof p);
  free (p);
}
}  // namespace

/* Found with gpg-agent on the full substitute: an OCB handle from the
 * real libgcrypt's secure pool, 8-byte aligned, faulted on an aligned
 * load of the handle's own state.  Every mode, on handles whose memory
 * is only 8-byte aligned, secure or not, gives the result of a handle
 * from the default allocator.  */
TEST (Memory, HandlesWorkOnEightByteAlignedMemory)
{
  struct M { int mode; size_t keylen; };
  const M modes[] = { { GCRY_CIPHER_MODE_ECB, 16 }, { GCRY_CIPHER_MODE_CBC, 16 },
                      { GCRY_CIPHER_MODE_CFB, 16 }, { GCRY_CIPHER_MODE_OFB, 16 },
                      { GCRY_CIPHER_MODE_CTR, 16 }, { GCRY_CIPHER_MODE_OCB, 16 },
                      { GCRY_CIPHER_MODE_GCM, 16 }, { GCRY_CIPHER_MODE_CCM, 16 },
                      { GCRY_CIPHER_MODE_EAX, 16 }, { GCRY_CIPHER_MODE_XTS, 32 },
                      { GCRY_CIPHER_MODE_SIV, 32 },
                      { GCRY_CIPHER_MODE_GCM_SIV, 16 } };
  unsigned char key[32], nonce[16] = { 1, 2, 3 }, in[160], out[2][160];
  unsigned char tag[2][16];
  for (size_t i = 0; i < sizeof key; i++)
    key[i] = (unsigned char) (i * 11 + 5);
  for (size_t i = 0; i < sizeof in; i++)
    in[i] = (unsigned char) (i * 7);
  for (unsigned int flags : { 0u, (unsigned int) GCRY_CIPHER_SECURE })
    for (const M &m : modes)
      for (size_t len : { (size_t) 16, (size_t) 160 })
        {
          for (int odd = 0; odd < 2; odd++)
            {
              if (odd)
                gcry_set_allocation_handler (odd_alloc, odd_alloc, odd_check,
                                             odd_realloc, odd_free);
              const int before = odd_allocs;
              gcry_cipher_hd_t h;
              ASSERT_EQ (0u, gcry_cipher_open (&h, GCRY_CIPHER_AES, m.mode,
                                               flags));
              if (odd)
                EXPECT_GT (odd_allocs, before);
              ASSERT_EQ (0u, gcry_cipher_setkey (h, key, m.keylen));
              if (m.mode == GCRY_CIPHER_MODE_CCM)
                {
                  uint64_t l[3] = { len, 0, 16 };
                  ASSERT_EQ (0u, gcry_cipher_setiv (h, nonce, 12));
                  ASSERT_EQ (0u, gcry_cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS,
                                                  l, sizeof l));
                }
              else if (m.mode == GCRY_CIPHER_MODE_SIV)
                {
                  ASSERT_EQ (0u, gcry_cipher_authenticate (h, nonce, 5));
                  ASSERT_EQ (0u, gcry_cipher_setiv (h, nonce, 12));
                }
              else if (m.mode != GCRY_CIPHER_MODE_ECB)
                ASSERT_EQ (0u, gcry_cipher_setiv (h, nonce,
                                                  m.mode == GCRY_CIPHER_MODE_GCM
                                                  || m.mode == GCRY_CIPHER_MODE_OCB
                                                  || m.mode == GCRY_CIPHER_MODE_EAX
                                                  || m.mode == GCRY_CIPHER_MODE_GCM_SIV
                                                    ? 12 : 16));
              const bool aead = m.mode >= GCRY_CIPHER_MODE_CCM
                                && m.mode != GCRY_CIPHER_MODE_XTS;
              if (m.mode == GCRY_CIPHER_MODE_OCB)
                gcry_cipher_final (h);
              size_t n = m.mode == GCRY_CIPHER_MODE_OCB ? len + 1 : len;
              if (n > sizeof in)
                n = len;
              EXPECT_EQ (0u, gcry_cipher_encrypt (h, out[odd], n, in, n))
                << m.mode << " " << flags;
              memset (tag[odd], 0, 16);
              if (aead)
                EXPECT_EQ (0u, gcry_cipher_gettag (h, tag[odd], 16)) << m.mode;
              gcry_cipher_close (h);
              if (odd)
                gcry_set_allocation_handler (nullptr, nullptr, nullptr,
                                             nullptr, nullptr);
            }
          EXPECT_EQ (0, memcmp (out[0], out[1], len)) << m.mode << " " << flags;
          EXPECT_EQ (0, memcmp (tag[0], tag[1], 16)) << m.mode << " " << flags;
        }
}

// ---------------------------------------------------------------------
// Random

TEST (Random, FillsAndDiffers)
{
  unsigned char a[64] = {}, b[64] = {};
  gcry_randomize (a, sizeof a, GCRY_STRONG_RANDOM);
  gcry_randomize (b, sizeof b, GCRY_VERY_STRONG_RANDOM);
  EXPECT_NE (memcmp (a, b, sizeof a), 0);
  unsigned char zero[64] = {};
  EXPECT_NE (memcmp (a, zero, sizeof a), 0);
  gcry_create_nonce (b, sizeof b);
  EXPECT_NE (memcmp (b, zero, sizeof b), 0);
  std::vector<unsigned char> big (3 << 20);
  gcry_randomize (big.data (), big.size (), GCRY_WEAK_RANDOM);
  size_t zeros = 0;
  for (unsigned char c : big)
    zeros += c == 0;
  EXPECT_LT (zeros, big.size () / 128);   // ~1/256 expected
  gcry_randomize (nullptr, 0, GCRY_STRONG_RANDOM);
}

// ---------------------------------------------------------------------
// Errors

TEST (Errors, StringsAreLibgpgErrors)
{
  for (gcry_err_code_t c : { GPG_ERR_NO_ERROR, GPG_ERR_INV_OP,
                             GPG_ERR_INV_NAME, GPG_ERR_CIPHER_ALGO,
                             GPG_ERR_INV_KEYLEN, GPG_ERR_ENOMEM,
                             GPG_ERR_CHECKSUM })
    {
      gcry_error_t e = gcry_error (c);
      EXPECT_STREQ (gcry_strerror (e), gpg_strerror (e));
      EXPECT_STREQ (gcry_strsource (e), gpg_strsource (e));
    }
  EXPECT_STREQ (gcry_strsource (gcry_err_make (GPG_ERR_SOURCE_GCRYPT, GPG_ERR_GENERAL)),
                "gcrypt");
  EXPECT_EQ (gcry_err_code_from_errno (EINVAL), GPG_ERR_EINVAL);
  EXPECT_EQ (gcry_err_code_to_errno (GPG_ERR_EINVAL), EINVAL);
  EXPECT_EQ (gcry_error_from_errno (EINVAL),
             gpg_err_make (GPG_ERR_SOURCE_GCRYPT, GPG_ERR_EINVAL));
  EXPECT_EQ (gcry_err_make_from_errno (GPG_ERR_SOURCE_USER_1, ENOMEM),
             gpg_err_make (GPG_ERR_SOURCE_USER_1, GPG_ERR_ENOMEM));
}

// ---------------------------------------------------------------------
// Logging

namespace {
std::string logged;
int logged_level;
void
capture_log (void *, int level, const char *fmt, va_list ap)
{
  char buf[512];
  vsnprintf (buf, sizeof buf, fmt, ap);
  logged += buf;
  logged_level = level;
}
}  // namespace

TEST (Log, HandlerReceivesDebugOutput)
{
  gcry_set_log_handler (capture_log, nullptr);
  logged.clear ();
  gcry_log_debug ("x=%d\n", 5);
  EXPECT_EQ (logged, "x=5\n");
  EXPECT_EQ (logged_level, GCRY_LOG_DEBUG);
  logged.clear ();
  gcry_log_debughex ("key", "\x01\x02\xab", 3);
  EXPECT_EQ (logged, "key: 0102ab\n");
  logged.clear ();
  std::string long_in (40, '\x11');
  gcry_log_debughex ("k", long_in.data (), long_in.size ());
  EXPECT_EQ (logged, "k: " + std::string (64, '1') + " \\\n   "
                     + std::string (16, '1') + "\n");
  gcry_set_log_handler (nullptr, nullptr);
}

// ---------------------------------------------------------------------
// Wiping

namespace {
__attribute__ ((noinline)) void
dirty_stack (size_t n)
{
  volatile unsigned char buf[3000];
  for (size_t i = 0; i < n && i < sizeof buf; i++)
    buf[i] = 0xc3;
  asm volatile ("" : : "r" (buf) : "memory");
}

// The top N bytes of a callee frame (nearest the caller's frame).
__attribute__ ((noinline)) void
dirty_stack_top (size_t n)
{
  volatile unsigned char buf[3000];
  for (size_t i = sizeof buf - n; i < sizeof buf; i++)
    buf[i] = 0xc3;
  asm volatile ("" : : "r" (buf) : "memory");
}

__attribute__ ((noinline)) size_t
count_dirty (void)
{
  volatile unsigned char buf[3000];
  asm volatile ("" : : "r" (buf) : "memory");
  /* Whole 8-byte words of the pattern only: a saved register or
   * pointer can hold a 0xc3 byte by chance (it did on aarch64 under
   * QEMU, depending on the stack's addresses), never eight of them.  */
  size_t dirty = 0;
  for (size_t i = 0; i + 8 <= sizeof buf; i += 8)
    {
      unsigned int same = 0;
      for (size_t j = 0; j < 8; j++)
        same += buf[i + j] == 0xc3;
      dirty += same == 8 ? 8 : 0;
    }
  return dirty;
}
}  // namespace

TEST (Wipe, WipememoryZeroes)
{
  unsigned char b[100];
  memset (b, 0xff, sizeof b);
  _gcry_wipememory (b + 10, 50);
  for (int i = 0; i < 100; i++)
    EXPECT_EQ (b[i], (i >= 10 && i < 60) ? 0 : 0xff) << i;
  _gcry_wipememory (nullptr, 0);
}

TEST (Wipe, BurnStackClearsCalleeFrames)
{
  if (const char *why = testutil::asan_stack_reason ())
    GTEST_SKIP () << why;
  dirty_stack (3000);
  size_t before = count_dirty ();
  dirty_stack (3000);
  _gcry_burn_stack (3200);
  size_t after = count_dirty ();
  // The sanity half: without burning, the pattern is visible.
  EXPECT_GT (before, 1000u);
  EXPECT_EQ (after, 0u);
}

// Small depths (the vector-store loops on x86-64): 512 dirty bytes just
// below the caller's frame, 640 burned; on x86-64 with the 32-byte
// stores (AVX in force) and the 16-byte ones (AVX masked off).
TEST (Wipe, BurnStackSmallDepth)
{
  if (const char *why = testutil::asan_stack_reason ())
    GTEST_SKIP () << why;
  std::vector<std::pair<unsigned int, const char *> > masks;
#if defined(__x86_64__) || defined(__i386__)
  if (_gcry_get_hw_features () & HWF_INTEL_AVX)
    masks.push_back ({ ~0u, "32-byte stores (AVX)" });
  else
    printf ("[ paths    ] burn: 32-byte stores skipped (CPU lacks AVX)\n");
# ifdef __x86_64__
  masks.push_back ({ ~(unsigned int) HWF_INTEL_AVX, "16-byte stores" });
# else
  masks.push_back ({ ~(unsigned int) HWF_INTEL_AVX, "rep stosb" });
# endif
#else
  masks.push_back ({ ~0u, "this target's loop" });
#endif
  for (const auto &m : masks)
    {
      _gcry_hwf_set_test_mask (m.first);
      dirty_stack (3000);
      _gcry_burn_stack (3200);
      dirty_stack_top (512);
      size_t before = count_dirty ();
      dirty_stack_top (512);
      _gcry_burn_stack (640);
      size_t after = count_dirty ();
      _gcry_hwf_set_test_mask (~0u);
      EXPECT_GT (before, 400u) << m.second;
      EXPECT_EQ (after, 0u) << m.second;
      printf ("[ paths    ] burn: %s ran\n", m.second);
    }
}
