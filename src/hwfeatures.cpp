/* hwfeatures.cpp - CPU feature detection and the hwf disable list.
 *
 * The feature mask is computed once per process (pthread_once) on the
 * first _gcry_get_hw_features call:
 *
 *   detected  = what the CPU and the OS support (x86: CPUID + XGETBV;
 *               riscv64: the riscv_hwprobe syscall, else AT_HWCAP;
 *               arm64: getauxval (AT_HWCAP))
 *   disabled  = names given by GCRYCTL_DISABLE_HWF before that call,
 *               names in /etc/gcrypt/hwf.deny, names in the environment
 *               variable GCIPHER_DISABLE_HWF
 *   features  = detected & ~disabled      (& the test mask, see below)
 *
 * Feature names are libgcrypt's ("intel-aesni", ...), printed in table
 * order by _gcry_print_hwflist with a ':' after each name, the format of
 * libgcrypt's "hwflist:" line.  gcipher adds "intel-avx512",
 * "intel-gfni", "intel-sse2" and the "riscv-*" names.  On arm64 the
 * names are libgcrypt's "arm-*" ones; gcipher has bits for the five its
 * paths use and accepts libgcrypt's other arm names (SHA-3, SM3, SM4,
 * SHA-512, SVE...) in the disable list without effect, as it does for
 * libgcrypt's PadLock names on x86.
 *
 * No instruction is ever executed to probe for a feature (an illegal
 * instruction would kill the process): x86 uses CPUID, which every
 * CPU gcipher supports has (checked on i386), and XGETBV only when
 * CPUID reports OSXSAVE.
 */
#include <config.h>

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "g10lib.h"

#if defined(GCIPHER_ARCH_X86) && (defined(__x86_64__) || defined(__i386__))
# include <cpuid.h>
# define HWF_DETECT_X86 1
#endif

#if defined(GCIPHER_ARCH_AARCH64) && defined(__aarch64__)
# define HWF_DETECT_ARM64 1
# include <sys/auxv.h>
#endif

#if defined(GCIPHER_ARCH_RISCV64) && defined(__riscv) && __riscv_xlen == 64
# define HWF_DETECT_RISCV 1
# include <unistd.h>
# include <sys/syscall.h>
# ifdef HAVE_SYS_AUXV_H
#  include <sys/auxv.h>
# endif
# if defined(__has_include)
#  if __has_include(<asm/hwprobe.h>)
#   include <asm/hwprobe.h>
#  endif
# endif
#endif

/* g10lib.h: 1 once the features in force (detected, not disabled,
 * within the test mask) include AVX (x86-64 and i386).  */
unsigned int _gcry_hwf_wide_stores;

namespace {

/* Name table, in the order libgcrypt prints its names; gcipher's own
 * names follow.  */
struct hwf_entry
{
  const char *name;
  unsigned int bit;
};

constexpr hwf_entry hwf_table[] = {
  { "intel-cpu",           HWF_INTEL_CPU },
  { "intel-fast-shld",     HWF_INTEL_FAST_SHLD },
  { "intel-bmi2",          HWF_INTEL_BMI2 },
  { "intel-ssse3",         HWF_INTEL_SSSE3 },
  { "intel-sse4.1",        HWF_INTEL_SSE4_1 },
  { "intel-pclmul",        HWF_INTEL_PCLMUL },
  { "intel-aesni",         HWF_INTEL_AESNI },
  { "intel-rdrand",        HWF_INTEL_RDRAND },
  { "intel-avx",           HWF_INTEL_AVX },
  { "intel-avx2",          HWF_INTEL_AVX2 },
  { "intel-fast-vpgather", HWF_INTEL_FAST_VPGATHER },
  { "intel-rdtsc",         HWF_INTEL_RDTSC },
  { "intel-shaext",        HWF_INTEL_SHAEXT },
  { "intel-vaes-vpclmul",  HWF_INTEL_VAES_VPCLMUL },
  { "intel-avx512",        HWF_INTEL_AVX512 },
  { "intel-gfni",          HWF_INTEL_GFNI },
  { "intel-sse2",          HWF_INTEL_SSE2 },
  { "arm-neon",            HWF_ARM_NEON },
  { "arm-aes",             HWF_ARM_AES },
  { "arm-sha1",            HWF_ARM_SHA1 },
  { "arm-sha2",            HWF_ARM_SHA2 },
  { "arm-pmull",           HWF_ARM_PMULL },
  { "riscv-imafdc",        HWF_RISCV_IMAFDC },
  { "riscv-v",             HWF_RISCV_V },
  { "riscv-zbb",           HWF_RISCV_ZBB },
  { "riscv-zbc",           HWF_RISCV_ZBC },
  { "riscv-zvkb",          HWF_RISCV_ZVKB },
  { "riscv-zvkg",          HWF_RISCV_ZVKG },
  { "riscv-zvkned",        HWF_RISCV_ZVKNED },
  { "riscv-zvknha",        HWF_RISCV_ZVKNHA },
  { "riscv-zvknhb",        HWF_RISCV_ZVKNHB },
  { "riscv-zvbc",          HWF_RISCV_ZVBC },
};
constexpr int hwf_table_len = sizeof hwf_table / sizeof hwf_table[0];

/* Names libgcrypt's build for this CPU accepts for GCRYCTL_DISABLE_HWF
 * although gcipher has no use for them (x86: VIA PadLock; arm64: the
 * hash, SM and SVE features).  Accepted, no effect.  */
#if defined(HWF_DETECT_X86)
constexpr const char *hwf_accepted_unused[] = {
  "padlock-rng", "padlock-aes", "padlock-sha", "padlock-mmul",
};
# define HWF_HAVE_ACCEPTED_UNUSED 1
#elif defined(HWF_DETECT_ARM64)
constexpr const char *hwf_accepted_unused[] = {
  "arm-sha3", "arm-sm3", "arm-sm4", "arm-sha512", "arm-sve", "arm-sve2",
  "arm-sveaes", "arm-svepmull", "arm-svesha3", "arm-svesm4",
};
# define HWF_HAVE_ACCEPTED_UNUSED 1
#endif

/* State.  DISABLED_MASK may be written by _gcry_disable_hw_feature at
 * any time (atomically); it takes effect only before detection, as in
 * libgcrypt.  */
pthread_once_t hwf_once = PTHREAD_ONCE_INIT;
unsigned int hwf_detected;          /* Written once under hwf_once.  */
unsigned int hwf_x86_extra;         /* Likewise (hwf_x86_extra_bits).  */
unsigned int hwf_disabled_mask;     /* Atomic.  */
unsigned int hwf_features;          /* detected & ~disabled.  */
unsigned int hwf_test_mask = ~0u;   /* Atomic; _gcry_hwf_set_test_mask. */

/* _gcry_hwf_wide_stores (g10lib.h) from the features in force.  */
void
update_wide_stores ()
{
#if defined(__x86_64__) || defined(__i386__)
  const unsigned int f = __atomic_load_n (&hwf_features, __ATOMIC_RELAXED)
                         & __atomic_load_n (&hwf_test_mask, __ATOMIC_RELAXED);
  __atomic_store_n (&_gcry_hwf_wide_stores, (f & HWF_INTEL_AVX) ? 1u : 0u,
                    __ATOMIC_RELAXED);
#endif
}

/* Bit of NAME: the bit, ~0u for "all", 0 if unknown.  Names are
 * case-sensitive, as in libgcrypt.  */
unsigned int
hwf_lookup (const char *name, size_t len, int *known)
{
  *known = 0;
  if (len == 3 && !memcmp (name, "all", 3))
    {
      *known = 1;
      return ~0u;
    }
  for (int i = 0; i < hwf_table_len; i++)
    if (strlen (hwf_table[i].name) == len
        && !memcmp (hwf_table[i].name, name, len))
      {
        *known = 1;
        return hwf_table[i].bit;
      }
#ifdef HWF_HAVE_ACCEPTED_UNUSED
  for (const char *n : hwf_accepted_unused)
    if (strlen (n) == len && !memcmp (n, name, len))
      {
        *known = 1;
        return 0;
      }
#endif
  return 0;
}

void
hwf_disable_bits (unsigned int bits)
{
  __atomic_fetch_or (&hwf_disabled_mask, bits, __ATOMIC_SEQ_CST);
}

/* Disable every name in the list S, names separated by ',', ':' or
 * white space.  Unknown names are ignored (logged when verbose).  */
void
hwf_disable_list (const char *s, const char *origin)
{
  while (*s)
    {
      while (*s == ',' || *s == ':' || isspace ((unsigned char) *s))
        s++;
      const char *start = s;
      while (*s && *s != ',' && *s != ':' && !isspace ((unsigned char) *s))
        s++;
      if (s == start)
        continue;
      int known;
      unsigned int bit = hwf_lookup (start, (size_t) (s - start), &known);
      if (known)
        hwf_disable_bits (bit);
      else if (_gcry_verbosity || strcmp (origin, "GCIPHER_DISABLE_HWF") == 0)
        _gcry_log_info ("%s: unknown hardware feature '%.*s' ignored\n",
                        origin, (int) (s - start), start);
    }
}

/* The system-wide disable file of libgcrypt (its manual, "How to
 * disable hardware features"): one feature name per line; empty lines,
 * white space and lines whose first non-blank character is '#' are
 * ignored.  A missing file is not an error.  */
void
hwf_read_deny_file (const char *fname)
{
  FILE *fp = fopen (fname, "re");
  if (!fp)
    return;
  char line[256];
  while (fgets (line, sizeof line, fp))
    {
      size_t len = strlen (line);
      int overlong = len == sizeof line - 1 && line[len - 1] != '\n';
      char *p = line;
      while (isspace ((unsigned char) *p))
        p++;
      if (*p && *p != '#' && !overlong)
        {
          char *end = p + strlen (p);
          while (end > p && isspace ((unsigned char) end[-1]))
            *--end = 0;
          int known;
          unsigned int bit = hwf_lookup (p, (size_t) (end - p), &known);
          if (known)
            hwf_disable_bits (bit);
          else if (_gcry_verbosity)
            _gcry_log_info ("%s: unknown hardware feature '%s' ignored\n",
                            fname, p);
        }
      if (overlong)   /* Skip the rest of an absurdly long line.  */
        {
          int c;
          while ((c = getc (fp)) != EOF && c != '\n')
            ;
        }
    }
  fclose (fp);
}

#ifdef HWF_DETECT_X86
/* CPUID leaf LEAF, subleaf SUB; zeros if the leaf is beyond the
 * maximum.  Bit positions below are from the Intel SDM Vol. 2A,
 * "CPUID - CPU Identification", and the AMD APM Vol. 3, Appendix E.  */
struct cpuid_regs
{
  unsigned int eax, ebx, ecx, edx;
};

cpuid_regs
cpuid (unsigned int leaf, unsigned int sub, unsigned int max_leaf)
{
  cpuid_regs r = { 0, 0, 0, 0 };
  if (leaf <= max_leaf)
    __cpuid_count (leaf, sub, r.eax, r.ebx, r.ecx, r.edx);
  return r;
}

/* XCR0: which register states the OS saves on context switch.  Only
 * called when CPUID.1:ECX.OSXSAVE[bit 27] is set (Intel SDM Vol. 1,
 * 13.3 "Enabling the XSAVE feature set").  */
unsigned long long
read_xcr0 (void)
{
  unsigned int lo, hi;
  asm volatile ("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
  return ((unsigned long long) hi << 32) | lo;
}

unsigned int
detect_x86 (void)
{
  unsigned int max_leaf = __get_cpuid_max (0, nullptr);
  if (max_leaf == 0)
    return 0;   /* No CPUID (i386 before the Pentium): nothing.  */

  unsigned int features = 0;
  cpuid_regs v = cpuid (0, 0, max_leaf);
  /* Vendor string in EBX, EDX, ECX.  */
  char vendor[13];
  memcpy (vendor + 0, &v.ebx, 4);
  memcpy (vendor + 4, &v.edx, 4);
  memcpy (vendor + 8, &v.ecx, 4);
  vendor[12] = 0;
  int is_intel = !strcmp (vendor, "GenuineIntel");

  cpuid_regs l1 = cpuid (1, 0, max_leaf);
  cpuid_regs l7 = cpuid (7, 0, max_leaf);
  unsigned int family = (l1.eax >> 8) & 0xf;
  unsigned int model = (l1.eax >> 4) & 0xf;
  if (family == 0xf)
    family += (l1.eax >> 20) & 0xff;
  if (family == 6 || family == 0xf)
    model |= ((l1.eax >> 16) & 0xf) << 4;

  /* OS support of the AVX (YMM) and AVX-512 (opmask, ZMM) states.  */
  int os_ymm = 0, os_zmm = 0;
  if (l1.ecx & (1u << 27))              /* OSXSAVE */
    {
      unsigned long long xcr0 = read_xcr0 ();
      os_ymm = (xcr0 & 0x6) == 0x6;     /* SSE(1) + AVX(2) */
      os_zmm = os_ymm && (xcr0 & 0xe0) == 0xe0;  /* opmask, ZMM_Hi256,
                                                    Hi16_ZMM (5..7) */
    }

  if (is_intel)
    {
      features |= HWF_INTEL_CPU;
      /* Heuristics for the Intel-only speed hints (no CPUID bit says
       * so): SHLD is fast on the family 6 cores; VPGATHER is fast from
       * Skylake (model 0x4e/0x5e) on, i.e. family 6 models with
       * AVX-512 or newer client models.  Neither changes correctness.  */
      if (family == 6)
        features |= HWF_INTEL_FAST_SHLD;
      if (family == 6 && model >= 0x4e && (l7.ebx & (1u << 5)))
        features |= HWF_INTEL_FAST_VPGATHER;
    }

  if (l1.edx & (1u << 26))  features |= HWF_INTEL_SSE2;
  if (l1.edx & (1u << 4))   features |= HWF_INTEL_RDTSC;
  if (l1.ecx & (1u << 9))   features |= HWF_INTEL_SSSE3;
  if (l1.ecx & (1u << 19))  features |= HWF_INTEL_SSE4_1;
  if (l1.ecx & (1u << 1))   features |= HWF_INTEL_PCLMUL;
  if (l1.ecx & (1u << 25))  features |= HWF_INTEL_AESNI;
  if (l1.ecx & (1u << 30))  features |= HWF_INTEL_RDRAND;
  if (l7.ebx & (1u << 8))   features |= HWF_INTEL_BMI2;
  if (l7.ebx & (1u << 29))  features |= HWF_INTEL_SHAEXT;
  if (l7.ecx & (1u << 8))   features |= HWF_INTEL_GFNI;

  int avx = os_ymm && (l1.ecx & (1u << 28));
  int avx2 = avx && (l7.ebx & (1u << 5));
  if (avx)
    features |= HWF_INTEL_AVX;
  if (avx2)
    features |= HWF_INTEL_AVX2;
  /* VAES (ECX bit 9) and VPCLMULQDQ (ECX bit 10) with AVX2.  */
  if (avx2 && (l7.ecx & (1u << 9)) && (l7.ecx & (1u << 10)))
    features |= HWF_INTEL_VAES_VPCLMUL;
  /* AVX512F (EBX 16), DQ (17), BW (30), VL (31) and the ZMM state.  */
  const unsigned int avx512_bits =
    (1u << 16) | (1u << 17) | (1u << 30) | (1u << 31);
  if (avx2 && os_zmm && (l7.ebx & avx512_bits) == avx512_bits)
    {
      features |= HWF_INTEL_AVX512;
      if (l7.ebx & (1u << 21))
        hwf_x86_extra |= HWF_X86_AVX512_IFMA;
      if (l7.ecx & (1u << 1))
        hwf_x86_extra |= HWF_X86_AVX512_VBMI;
    }

  return features;
}
#endif /* HWF_DETECT_X86 */

#ifdef HWF_DETECT_RISCV
/* riscv_hwprobe(2): Linux Documentation/arch/riscv/hwprobe.rst and the
 * UAPI header <asm/hwprobe.h>.  Older headers lack it (or the newer
 * extension bits), so the documented values are defined here.  */
# ifndef __NR_riscv_hwprobe
#  define __NR_riscv_hwprobe 258
# endif
# ifndef RISCV_HWPROBE_KEY_BASE_BEHAVIOR
#  define RISCV_HWPROBE_KEY_BASE_BEHAVIOR 3
#  define RISCV_HWPROBE_BASE_BEHAVIOR_IMA (1ULL << 0)
#  define RISCV_HWPROBE_KEY_IMA_EXT_0 4
# endif
# ifndef RISCV_HWPROBE_IMA_FD
#  define RISCV_HWPROBE_IMA_FD (1ULL << 0)
# endif
# ifndef RISCV_HWPROBE_IMA_C
#  define RISCV_HWPROBE_IMA_C (1ULL << 1)
# endif
# ifndef RISCV_HWPROBE_IMA_V
#  define RISCV_HWPROBE_IMA_V (1ULL << 2)
# endif
# ifndef RISCV_HWPROBE_EXT_ZBB
#  define RISCV_HWPROBE_EXT_ZBB (1ULL << 4)
# endif
# ifndef RISCV_HWPROBE_EXT_ZBC
#  define RISCV_HWPROBE_EXT_ZBC (1ULL << 7)
# endif
# ifndef RISCV_HWPROBE_EXT_ZVBC
#  define RISCV_HWPROBE_EXT_ZVBC (1ULL << 18)
# endif
# ifndef RISCV_HWPROBE_EXT_ZVKB
#  define RISCV_HWPROBE_EXT_ZVKB (1ULL << 19)
# endif
# ifndef RISCV_HWPROBE_EXT_ZVKG
#  define RISCV_HWPROBE_EXT_ZVKG (1ULL << 20)
# endif
# ifndef RISCV_HWPROBE_EXT_ZVKNED
#  define RISCV_HWPROBE_EXT_ZVKNED (1ULL << 21)
# endif
# ifndef RISCV_HWPROBE_EXT_ZVKNHA
#  define RISCV_HWPROBE_EXT_ZVKNHA (1ULL << 22)
# endif
# ifndef RISCV_HWPROBE_EXT_ZVKNHB
#  define RISCV_HWPROBE_EXT_ZVKNHB (1ULL << 23)
# endif

struct hwprobe_pair
{
  long long key;                /* __s64 */
  unsigned long long value;     /* __u64 */
};

unsigned int
detect_riscv (void)
{
  unsigned int features = 0;
  hwprobe_pair pairs[2] = {
    { RISCV_HWPROBE_KEY_BASE_BEHAVIOR, 0 },
    { RISCV_HWPROBE_KEY_IMA_EXT_0, 0 },
  };
  /* cpusetsize 0 and cpus NULL: all online CPUs (boolean keys are the
   * AND over them).  */
  if (syscall (__NR_riscv_hwprobe, pairs, 2, 0, nullptr, 0) == 0)
    {
      int ima = pairs[0].key != -1
                && (pairs[0].value & RISCV_HWPROBE_BASE_BEHAVIOR_IMA);
      unsigned long long e = pairs[1].key != -1 ? pairs[1].value : 0;
      if (ima && (e & RISCV_HWPROBE_IMA_FD) && (e & RISCV_HWPROBE_IMA_C))
        features |= HWF_RISCV_IMAFDC;
      if (e & RISCV_HWPROBE_IMA_V)
        {
          features |= HWF_RISCV_V;
          /* The vector crypto extensions are usable only with V.  */
          if (e & RISCV_HWPROBE_EXT_ZVKB)   features |= HWF_RISCV_ZVKB;
          if (e & RISCV_HWPROBE_EXT_ZVKG)   features |= HWF_RISCV_ZVKG;
          if (e & RISCV_HWPROBE_EXT_ZVKNED) features |= HWF_RISCV_ZVKNED;
          if (e & RISCV_HWPROBE_EXT_ZVKNHA) features |= HWF_RISCV_ZVKNHA;
          if (e & RISCV_HWPROBE_EXT_ZVKNHB) features |= HWF_RISCV_ZVKNHB;
          if (e & RISCV_HWPROBE_EXT_ZVBC)   features |= HWF_RISCV_ZVBC;
        }
      if (e & RISCV_HWPROBE_EXT_ZBB) features |= HWF_RISCV_ZBB;
      if (e & RISCV_HWPROBE_EXT_ZBC) features |= HWF_RISCV_ZBC;
      return features;
    }
# if defined(HAVE_GETAUXVAL) && defined(AT_HWCAP)
  /* Kernels before 6.4: AT_HWCAP has one bit per single-letter
   * extension, bit ('x' - 'a') for extension X.  */
  unsigned long hwcap = getauxval (AT_HWCAP);
  auto has = [hwcap] (char c) { return (hwcap >> (c - 'a')) & 1; };
  if (has ('i') && has ('m') && has ('a') && has ('f') && has ('d')
      && has ('c'))
    features |= HWF_RISCV_IMAFDC;
  if (has ('v'))
    features |= HWF_RISCV_V;
# endif
  return features;
}
#endif /* HWF_DETECT_RISCV */

#ifdef HWF_DETECT_ARM64
/* AT_HWCAP bits of the arm64 Linux ABI (Documentation/arch/arm64/
 * elf_hwcaps.rst, UAPI <asm/hwcap.h>); defined here so old headers do
 * not matter.  The kernel sets a bit only when the CPU implements the
 * feature and user space may use it (ID_AA64ISAR0_EL1 / ID_AA64PFR0_EL1
 * read on its side), so nothing is probed by executing instructions.  */
constexpr unsigned long arm64_hwcap_asimd = 1ul << 1;   /* HWCAP_ASIMD */
constexpr unsigned long arm64_hwcap_aes   = 1ul << 3;   /* HWCAP_AES */
constexpr unsigned long arm64_hwcap_pmull = 1ul << 4;   /* HWCAP_PMULL */
constexpr unsigned long arm64_hwcap_sha1  = 1ul << 5;   /* HWCAP_SHA1 */
constexpr unsigned long arm64_hwcap_sha2  = 1ul << 6;   /* HWCAP_SHA2 */

unsigned int
detect_arm64 (void)
{
  unsigned long hwcap = getauxval (AT_HWCAP);
  unsigned int features = 0;
  if (hwcap & arm64_hwcap_asimd)
    {
      features |= HWF_ARM_NEON;
      /* The crypto instructions operate on the SIMD registers: usable
       * only with AdvSIMD (always together on Linux, checked anyway).  */
      if (hwcap & arm64_hwcap_aes)   features |= HWF_ARM_AES;
      if (hwcap & arm64_hwcap_pmull) features |= HWF_ARM_PMULL;
      if (hwcap & arm64_hwcap_sha1)  features |= HWF_ARM_SHA1;
      if (hwcap & arm64_hwcap_sha2)  features |= HWF_ARM_SHA2;
    }
  return features;
}
#endif /* HWF_DETECT_ARM64 */

void
hwf_detect (void)
{
  unsigned int detected = 0;
#ifdef HWF_DETECT_X86
  detected = detect_x86 ();
#endif
#ifdef HWF_DETECT_RISCV
  detected = detect_riscv ();
#endif
#ifdef HWF_DETECT_ARM64
  detected = detect_arm64 ();
#endif
  hwf_read_deny_file ("/etc/gcrypt/hwf.deny");
  const char *env = getenv ("GCIPHER_DISABLE_HWF");
  if (env)
    hwf_disable_list (env, "GCIPHER_DISABLE_HWF");
  hwf_detected = detected;
  unsigned int disabled = __atomic_load_n (&hwf_disabled_mask,
                                           __ATOMIC_SEQ_CST);
  __atomic_store_n (&hwf_features, detected & ~disabled, __ATOMIC_SEQ_CST);
  update_wide_stores ();
}

} // namespace

unsigned int
_gcry_hwf_x86_extra (void)
{
  pthread_once (&hwf_once, hwf_detect);
  return hwf_x86_extra;
}

unsigned int
_gcry_get_hw_features (void)
{
  pthread_once (&hwf_once, hwf_detect);
  return __atomic_load_n (&hwf_features, __ATOMIC_RELAXED)
         & __atomic_load_n (&hwf_test_mask, __ATOMIC_RELAXED);
}

gcry_err_code_t
_gcry_disable_hw_feature (const char *name)
{
  if (!name)
    return GPG_ERR_NO_ERROR;   /* libgcrypt accepts NULL as a no-op.  */
  int known;
  unsigned int bit = hwf_lookup (name, strlen (name), &known);
  if (!known)
    return GPG_ERR_INV_NAME;
  hwf_disable_bits (bit);
  return GPG_ERR_NO_ERROR;
}

const char *
_gcry_enum_hw_features (int idx, unsigned int *bit)
{
  if (idx < 0 || idx >= hwf_table_len)
    return nullptr;
  if (bit)
    *bit = hwf_table[idx].bit;
  return hwf_table[idx].name;
}

void
_gcry_hwf_set_test_mask (unsigned int mask)
{
  __atomic_store_n (&hwf_test_mask, mask, __ATOMIC_SEQ_CST);
  update_wide_stores ();
}

void
_gcry_print_hwflist (FILE *fp)
{
  unsigned int f = _gcry_get_hw_features ();
  fputs ("hwflist:", fp);
  for (int i = 0; i < hwf_table_len; i++)
    if (f & hwf_table[i].bit)
      fprintf (fp, "%s:", hwf_table[i].name);
  putc ('\n', fp);
}
