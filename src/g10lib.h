/* g10lib.h - gcipher's internal runtime interface (not installed).
 *
 * Everything here has hidden visibility; the exported C ABI lives in
 * visibility.cpp (substitute library) and preload.cpp (interposer), both
 * thin shells over the _gcry_* functions declared here and in
 * cipher/cipher-internal.h.
 */
#ifndef GCIPHER_G10LIB_H
#define GCIPHER_G10LIB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "gcrypt.h"

#define GCIPHER_INTERNAL __attribute__ ((visibility ("hidden")))

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Errors (libgpg-error) ---------------------------------------- */
static inline gcry_error_t
gcry_error_gcrypt (gcry_err_code_t code)
{ return gpg_err_make (GPG_ERR_SOURCE_GCRYPT, code); }
/* libgcrypt 1.10 reports setkey, setiv and setctr errors with its header's
 * default source (GPG_ERR_SOURCE_USER_1) and every other cipher error with
 * GPG_ERR_SOURCE_GCRYPT (observed on the system library); both API shells
 * (visibility.cpp, preload.cpp) use these two.  A 0 code stays 0.  */
static inline gcry_error_t
gcry_error_user1 (gcry_err_code_t code)
{ return gpg_err_make (GPG_ERR_SOURCE_USER_1, code); }
/* Wrap an internal error code as libgcrypt does at its API edge.  */
#define gpg_error_from_code(ec) gcry_error_gcrypt (ec)

/* ---- Hardware features (hwfeatures.cpp) --------------------------- */
/* Bit per feature; names as libgcrypt prints them in "hwflist:".  */
enum hwf_bits : unsigned int
  {
    HWF_INTEL_CPU          = 1u << 0,   /* "intel-cpu" */
    HWF_INTEL_FAST_SHLD    = 1u << 1,   /* "intel-fast-shld" */
    HWF_INTEL_BMI2         = 1u << 2,   /* "intel-bmi2" */
    HWF_INTEL_SSSE3        = 1u << 3,   /* "intel-ssse3" */
    HWF_INTEL_SSE4_1       = 1u << 4,   /* "intel-sse4.1" */
    HWF_INTEL_PCLMUL       = 1u << 5,   /* "intel-pclmul" */
    HWF_INTEL_AESNI        = 1u << 6,   /* "intel-aesni" */
    HWF_INTEL_RDRAND       = 1u << 7,   /* "intel-rdrand" */
    HWF_INTEL_AVX          = 1u << 8,   /* "intel-avx" */
    HWF_INTEL_AVX2         = 1u << 9,   /* "intel-avx2" */
    HWF_INTEL_FAST_VPGATHER= 1u << 10,  /* "intel-fast-vpgather" */
    HWF_INTEL_RDTSC        = 1u << 11,  /* "intel-rdtsc" */
    HWF_INTEL_SHAEXT       = 1u << 12,  /* "intel-shaext" */
    HWF_INTEL_VAES_VPCLMUL = 1u << 13,  /* "intel-vaes-vpclmul" */
    HWF_INTEL_AVX512       = 1u << 14,  /* "intel-avx512" (F+VL+BW+DQ) */
    HWF_INTEL_GFNI         = 1u << 15,  /* "intel-gfni" */
    HWF_INTEL_SSE2         = 1u << 16,  /* "intel-sse2" (gcipher; i386) */
    HWF_ARM_NEON           = 1u << 17,  /* "arm-neon" (AdvSIMD) */
    HWF_ARM_AES            = 1u << 18,  /* "arm-aes" (FEAT_AES) */
    HWF_ARM_SHA1           = 1u << 19,  /* "arm-sha1" */
    HWF_RISCV_IMAFDC       = 1u << 20,  /* "riscv-imafdc" */
    HWF_RISCV_V            = 1u << 21,  /* "riscv-v" */
    HWF_RISCV_ZBB          = 1u << 22,  /* "riscv-zbb" */
    HWF_RISCV_ZBC          = 1u << 23,  /* "riscv-zbc" */
    HWF_RISCV_ZVKB         = 1u << 24,  /* "riscv-zvkb" */
    HWF_RISCV_ZVKG         = 1u << 25,  /* "riscv-zvkg" */
    HWF_RISCV_ZVKNED       = 1u << 26,  /* "riscv-zvkned" */
    HWF_RISCV_ZVKNHA       = 1u << 27,  /* "riscv-zvknha" */
    HWF_RISCV_ZVKNHB       = 1u << 28,  /* "riscv-zvknhb" */
    HWF_RISCV_ZVBC         = 1u << 29,  /* "riscv-zvbc" */
    HWF_ARM_SHA2           = 1u << 30,  /* "arm-sha2" */
    HWF_ARM_PMULL          = 1u << 31   /* "arm-pmull" (FEAT_PMULL) */
  };

/* Features detected and not disabled.  Detects on first call
 * (thread-safe); reads the disable list from /etc/gcrypt/hwf.deny and
 * the GCIPHER_DISABLE_HWF environment variable (names separated by
 * ',', ':' or white space) at that time.  */
unsigned int _gcry_get_hw_features (void) GCIPHER_INTERNAL;
/* Add NAME (a hwf name, or "all") to the disable list.  Must come before
 * the first _gcry_get_hw_features call to take effect, as in libgcrypt.
 * Returns GPG_ERR_INV_NAME for an unknown name.  */
gcry_err_code_t _gcry_disable_hw_feature (const char *name) GCIPHER_INTERNAL;
/* Name of the Nth feature bit (0..), NULL past the end; *BIT gets the bit.
 * Lets callers list every name in the table order.  */
const char *_gcry_enum_hw_features (int idx, unsigned int *bit) GCIPHER_INTERNAL;
/* Test hook: restrict the feature mask to DETECTED & MASK from now on
 * (~0u restores).  Only tests and self-tests of paths use this.  */
void _gcry_hwf_set_test_mask (unsigned int mask) GCIPHER_INTERNAL;
/* x86-64 and i386: 1 when the features in force include AVX (the OS
 * saves the ymm registers), else 0 (also before detection).
 * _gcry_burn_stack reads it with one load (it must not call anything:
 * see misc.cpp); detection and _gcry_hwf_set_test_mask keep it
 * current.  */
extern unsigned int _gcry_hwf_wide_stores GCIPHER_INTERNAL;
/* Print the "hwflist:" line (trailing ':' per name, as libgcrypt).  */
void _gcry_print_hwflist (FILE *fp) GCIPHER_INTERNAL;
/* CPU facts some AVX-512 paths need beyond the hwf bits (libgcrypt 1.10
 * has no names for them, so they stay out of hwflist): detected with the
 * hwf bits, once; a path still requires its hwf bits as well.  */
enum hwf_x86_extra_bits : unsigned int
  {
    HWF_X86_AVX512_IFMA = 1u << 0,   /* CPUID.7.0:EBX bit 21 */
    HWF_X86_AVX512_VBMI = 1u << 1    /* CPUID.7.0:ECX bit 1 */
  };
unsigned int _gcry_hwf_x86_extra (void) GCIPHER_INTERNAL;

/* ---- GCIPHER_TRACE (trace.cpp) ------------------------------------ */
bool _gcry_trace_on (void) GCIPHER_INTERNAL;     /* Reads it once.  */
void _gcry_trace (const char *fmt, ...) GCIPHER_INTERNAL
  __attribute__ ((format (printf, 1, 2)));       /* One line, one write. */
const char *_gcry_trace_mode_name (int mode, char *buf, size_t buflen)
  GCIPHER_INTERNAL;
/* "setkey hd=... path=<impl>[ err=<code>]" for a gcipher handle.  */
void _gcry_trace_setkey (gcry_cipher_hd_t h, gcry_err_code_t ec)
  GCIPHER_INTERNAL;

/* ---- Memory (secmem.cpp) ------------------------------------------ */
void *_gcry_malloc (size_t n) GCIPHER_INTERNAL;
void *_gcry_malloc_secure (size_t n) GCIPHER_INTERNAL;
void *_gcry_calloc (size_t n, size_t m) GCIPHER_INTERNAL;
void *_gcry_calloc_secure (size_t n, size_t m) GCIPHER_INTERNAL;
void *_gcry_realloc (void *a, size_t n) GCIPHER_INTERNAL;
void  _gcry_free (void *a) GCIPHER_INTERNAL;
int   _gcry_is_secure (const void *a) GCIPHER_INTERNAL;
/* As above but never NULL: on failure the out-of-core handler is asked
 * and, if it declines, _gcry_fatal_error (errno code) ends the process. */
void *_gcry_xmalloc (size_t n) GCIPHER_INTERNAL;
void *_gcry_xmalloc_secure (size_t n) GCIPHER_INTERNAL;
void *_gcry_xcalloc (size_t n, size_t m) GCIPHER_INTERNAL;
void *_gcry_xcalloc_secure (size_t n, size_t m) GCIPHER_INTERNAL;
void *_gcry_xrealloc (void *a, size_t n) GCIPHER_INTERNAL;
char *_gcry_strdup (const char *s) GCIPHER_INTERNAL;
char *_gcry_xstrdup (const char *s) GCIPHER_INTERNAL;
void _gcry_set_allocation_handler (gcry_handler_alloc_t f_alloc,
                                   gcry_handler_alloc_t f_alloc_secure,
                                   gcry_handler_secure_check_t f_is_secure,
                                   gcry_handler_realloc_t f_realloc,
                                   gcry_handler_free_t f_free)
  GCIPHER_INTERNAL;
void _gcry_set_outofcore_handler (gcry_handler_no_mem_t h, void *opaque)
  GCIPHER_INTERNAL;
/* Secure-memory controls (gcry_control).  */
void _gcry_secmem_init (size_t n) GCIPHER_INTERNAL;       /* INIT_SECMEM */
void _gcry_secmem_disable (void) GCIPHER_INTERNAL;        /* DISABLE_SECMEM */
void _gcry_secmem_disable_locking (void) GCIPHER_INTERNAL;
/* AUTO_EXPAND_SECMEM: a full pool grows by CHUNK bytes (0: 32 KiB).  */
void _gcry_secmem_set_auto_expand (unsigned int chunk) GCIPHER_INTERNAL;
void _gcry_secmem_term (void) GCIPHER_INTERNAL;           /* TERM_SECMEM */
/* WHAT: 0 disable, 1 suspend, 2 resume the "insecure memory" warning. */
void _gcry_secmem_set_warning (int what) GCIPHER_INTERNAL;
void _gcry_secmem_dump_stats (void) GCIPHER_INTERNAL;

/* ---- Wiping (misc.cpp) -------------------------------------------- */
/* Overwrite LEN bytes at PTR with zeros; never optimised away.  */
void _gcry_wipememory (void *ptr, size_t len) GCIPHER_INTERNAL;
/* The same, inline: a memset the compiler must assume is read
 * afterwards (the empty asm takes PTR and clobbers memory, so the
 * stores are not dropped as dead), a few stores for the small constant
 * sizes most callers wipe.  The out-of-line call into explicit_bzero
 * cost about a tenth of a 64-byte SIV message (several wipes per
 * message).  */
static inline void
_gcry_wipememory_inline (void *ptr, size_t len)
{
  if (!len)
    return;
  if (__builtin_constant_p (len) && len > 16 && len <= 256)
    {
      /* A constant size up to 256 bytes: 16-byte stores, unrolled.  A
       * plain memset of 100 to 256 bytes becomes a string store (REP
       * STOS on x86-64 with GCC 12), whose start-up costs more than
       * the whole row of stores (Poly1305's context wipe at the end of
       * each message: AMD Zen 4, 6 ns of 200 for 64 bytes).  */
      typedef unsigned char wipe_v16 __attribute__ ((vector_size (16)));
      const wipe_v16 zero = { 0 };
      unsigned char *p = (unsigned char *) ptr;
#pragma GCC unroll 16
      for (size_t i = 0; i + 16 <= len; i += 16)
        __builtin_memcpy (p + i, &zero, 16);
      if (len % 16)
        __builtin_memset (p + (len & ~(size_t) 15), 0, len % 16);
    }
  else
    __builtin_memset (ptr, 0, len);
  __asm__ __volatile__ ("" : : "r" (ptr) : "memory");
}
#define wipememory(p, n) _gcry_wipememory_inline ((p), (n))
/* Zero at least BYTES of the stack below the caller's frame.  */
void _gcry_burn_stack (unsigned int bytes) GCIPHER_INTERNAL;

/* ---- Constant-time checks (misc.cpp; tests/ct/ct-check.cpp) -------- */
/* The checker (valgrind memcheck) treats every value derived from a key
 * or a plaintext as secret.  ct_public (P, LEN) says that the LEN bytes
 * at P, though derived from secrets, are public from here on because
 * the API or the protocol outputs them anyway: a synthetic IV / tag
 * used as a CTR start before it is returned (SIV, GCM-SIV), a weak-key
 * verdict that setkey returns (DES, Blowfish).  Not for a tag comparison's
 * result: that one stays branch-free up to the API's return value
 * (ct_checksum_error, cipher-internal.h).  A no-op unless the checker
 * installed a hook.  */
extern void (*_gcry_ct_public_hook) (const void *p, size_t len)
  GCIPHER_INTERNAL;
static inline void
ct_public (const void *p, size_t len)
{
  if (_gcry_ct_public_hook)
    _gcry_ct_public_hook (p, len);
}

/* ---- Random (random.cpp): the kernel's getrandom ------------------ */
void _gcry_randomize (void *buf, size_t len, int level) GCIPHER_INTERNAL;

/* ---- Logging (misc.cpp) ------------------------------------------- */
/* Verbosity set by GCRYCTL_SET_VERBOSITY.  */
extern int _gcry_verbosity GCIPHER_INTERNAL;
void _gcry_log_info (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2))) GCIPHER_INTERNAL;
void _gcry_log_error (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2))) GCIPHER_INTERNAL;
void _gcry_log_debug (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2))) GCIPHER_INTERNAL;
/* "DBG: TEXT: <hex of LENGTH bytes>", 32 bytes a line.  */
void _gcry_log_printhex (const char *text, const void *buffer, size_t length)
  GCIPHER_INTERNAL;
/* Log at LEVEL (GCRY_LOG_*) through the gcry_set_log_handler handler or
 * to stderr.  */
void _gcry_logv (int level, const char *fmt, va_list ap) GCIPHER_INTERNAL;
void _gcry_set_log_handler (gcry_handler_log_t f, void *opaque)
  GCIPHER_INTERNAL;
void _gcry_set_fatalerror_handler (gcry_handler_error_t f, void *opaque)
  GCIPHER_INTERNAL;
/* Report CODE (with TEXT, or the code's description) through the fatal
 * error handler, then abort.  Never returns.  */
void _gcry_fatal_error (int code, const char *text)
  __attribute__ ((noreturn)) GCIPHER_INTERNAL;

/* ---- Global (global.cpp) ------------------------------------------ */
const char *_gcry_check_version (const char *req) GCIPHER_INTERNAL;
gcry_err_code_t _gcry_vcontrol (enum gcry_ctl_cmds cmd, va_list ap)
  GCIPHER_INTERNAL;
char *_gcry_get_config (int mode, const char *what) GCIPHER_INTERNAL;

#ifdef __cplusplus
}
#endif
#endif /* GCIPHER_G10LIB_H */
