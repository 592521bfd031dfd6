/* misc.cpp - wiping, stack burning, logging and the fatal-error path.
 *
 * Logging goes through the handler set by gcry_set_log_handler, else to
 * stderr.  Debug lines carry the "DBG: " prefix libgcrypt users grep
 * for; the fatal-error path reports "Fatal error: <text>" and aborts.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g10lib.h"

int _gcry_verbosity;

namespace {

/* Handlers; set once by the program at start-up (libgcrypt documents
 * them as not thread-safe to change), read with relaxed atomics.  */
gcry_handler_log_t log_handler;
void *log_handler_opaque;
gcry_handler_error_t fatal_handler;
void *fatal_handler_opaque;

} // namespace

/* g10lib.h ct_public: NULL but under tests/ct/ct-check.  */
void (*_gcry_ct_public_hook) (const void *p, size_t len);

/* Zero LEN bytes at PTR.  The empty asm that takes PTR and clobbers
 * memory makes the compiler assume the zeros are read afterwards, so the
 * store cannot be removed as dead even after inlining or LTO.  */
void
_gcry_wipememory (void *ptr, size_t len)
{
  if (!ptr || !len)
    return;
#ifdef HAVE_EXPLICIT_BZERO
  explicit_bzero (ptr, len);
#else
  memset (ptr, 0, len);
#endif
  asm volatile ("" : : "r" (ptr) : "memory");
}

/* Zero at least BYTES of stack below the caller's frame.
 *
 * The stack below the caller's stack pointer is where the frames of the
 * functions it called before lay, with whatever secrets they spilled.
 * This function is never inlined and, on x86 and riscv64, moves its own
 * stack pointer down by N bytes, zeroes [sp, sp + N) with a short loop
 * that uses no stack, and moves the stack pointer back, all in one asm
 * statement: only its return address lies between the caller's frame and
 * the zeroed area, so no slot is left out (frame padding, alloca slack and
 * saved-register slots are exactly what a C buffer-based wipe misses).
 * Every store lands above the (lowered) stack pointer, so a signal
 * arriving meanwhile cannot be overwritten and memory checkers such as
 * valgrind see only valid stack writes.  N is BYTES rounded up to 64
 * (keeping the stack pointer's 16-byte alignment), capped at 64 KiB, far
 * beyond any path's burn depth.
 *
 * Other targets use a portable fallback: a fixed array under the saved
 * registers plus an alloca'd area, both wiped (may miss padding).  */
__attribute__ ((noinline, noclone)) void
_gcry_burn_stack (unsigned int bytes)
{
  if (!bytes)
    return;
  if (bytes > 65536)
    bytes = 65536;
  size_t n = ((size_t) bytes + 63) & ~(size_t) 63;
#if defined(__x86_64__)
  if (n <= 2048)
    {
      /* Small areas (every path's depth): vector stores; `rep stosb`
       * costs more to start than this whole loop takes.  With AVX in
       * force (_gcry_hwf_wide_stores, one load: a call here would give
       * this function a frame of its own between the caller's and the
       * zeroed area) 32-byte stores, two per 64-byte step, from 256
       * bytes: AMD Zen 4 issues one store per cycle whatever its width,
       * so a burn takes half the cycles (ChaCha20-Poly1305 messages of
       * 64 B to 1 KiB, which burn three times, 1-4% faster).  The
       * upper halves are zeroed after (VZEROUPPER).  */
      if (n >= 256 && __atomic_load_n (&_gcry_hwf_wide_stores,
                                       __ATOMIC_RELAXED))
        {
          asm volatile ("movq %%rsp, %%rdx\n\t"
                        "subq %%rcx, %%rsp\n\t"
                        "movq %%rsp, %%rdi\n\t"
                        "vpxor %%xmm0, %%xmm0, %%xmm0\n"
                        "1:\n\t"
                        "vmovdqu %%ymm0, (%%rdi)\n\t"
                        "vmovdqu %%ymm0, 32(%%rdi)\n\t"
                        "addq $64, %%rdi\n\t"
                        "cmpq %%rdx, %%rdi\n\t"
                        "jb 1b\n\t"
                        "movq %%rdx, %%rsp\n\t"
                        "vzeroupper"
                        : "+c" (n)
                        :
                        : "rdx", "rdi", "xmm0", "cc", "memory");
          return;
        }
      /* Otherwise 16-byte SSE2 stores (baseline on x86-64), four per
       * 64-byte step.  */
      asm volatile ("movq %%rsp, %%rdx\n\t"
                    "subq %%rcx, %%rsp\n\t"
                    "movq %%rsp, %%rdi\n\t"
                    "pxor %%xmm0, %%xmm0\n"
                    "1:\n\t"
                    "movups %%xmm0, (%%rdi)\n\t"
                    "movups %%xmm0, 16(%%rdi)\n\t"
                    "movups %%xmm0, 32(%%rdi)\n\t"
                    "movups %%xmm0, 48(%%rdi)\n\t"
                    "addq $64, %%rdi\n\t"
                    "cmpq %%rdx, %%rdi\n\t"
                    "jb 1b\n\t"
                    "movq %%rdx, %%rsp"
                    : "+c" (n)
                    :
                    : "rdx", "rdi", "xmm0", "cc", "memory");
      return;
    }
  /* DF is clear on function entry (SysV ABI).  */
  asm volatile ("movq %%rsp, %%rdx\n\t"
                "subq %%rcx, %%rsp\n\t"
                "movq %%rsp, %%rdi\n\t"
                "xorl %%eax, %%eax\n\t"
                "rep stosb\n\t"
                "movq %%rdx, %%rsp"
                : "+c" (n)
                :
                : "rdx", "rdi", "rax", "memory");
#elif defined(__i386__)
  /* As on x86-64 with AVX in force (i386's baseline has no vector
   * stores): the VAES and AES-NI paths' burns of 1 KiB took about 12 ns
   * with `rep stosb`, half of a 64-byte AES call on AMD Zen 4.  */
  if (n >= 256 && n <= 2048
      && __atomic_load_n (&_gcry_hwf_wide_stores, __ATOMIC_RELAXED))
    {
      asm volatile ("movl %%esp, %%edx\n\t"
                    "subl %%ecx, %%esp\n\t"
                    "movl %%esp, %%edi\n\t"
                    "vpxor %%xmm0, %%xmm0, %%xmm0\n"
                    "1:\n\t"
                    "vmovdqu %%ymm0, (%%edi)\n\t"
                    "vmovdqu %%ymm0, 32(%%edi)\n\t"
                    "addl $64, %%edi\n\t"
                    "cmpl %%edx, %%edi\n\t"
                    "jb 1b\n\t"
                    "movl %%edx, %%esp\n\t"
                    "vzeroupper"
                    : "+c" (n)
                    :
                    /* Without -msse GCC knows no xmm register to list;
                     * all are call-clobbered, and nothing else lives in
                     * this function.  */
#ifdef __SSE__
                    : "edx", "edi", "xmm0", "cc", "memory");
#else
                    : "edx", "edi", "cc", "memory");
#endif
      return;
    }
  asm volatile ("movl %%esp, %%edx\n\t"
                "subl %%ecx, %%esp\n\t"
                "movl %%esp, %%edi\n\t"
                "xorl %%eax, %%eax\n\t"
                "rep stosb\n\t"
                "movl %%edx, %%esp"
                : "+c" (n)
                :
                : "edx", "edi", "eax", "memory");
#elif defined(__riscv) && __riscv_xlen == 64
  /* N is a multiple of 64: lower sp, store zero doublewords upwards from
     the new sp to the old one, restore sp.  */
  asm volatile ("mv t1, sp\n\t"
                "sub sp, sp, %0\n\t"
                "mv t0, sp\n"
                "1:\n\t"
                "sd zero, 0(t0)\n\t"
                "addi t0, t0, 8\n\t"
                "bltu t0, t1, 1b\n\t"
                "mv sp, t1"
                :
                : "r" (n)
                : "t0", "t1", "memory");
#else
  volatile unsigned char top[64];
  _gcry_wipememory ((void *) top, sizeof top);
  unsigned char *buf = (unsigned char *) __builtin_alloca (n);
  _gcry_wipememory (buf, n);
  asm volatile ("" : : "r" (buf), "r" (top) : "memory");
#endif
}

/* ---- Logging ------------------------------------------------------ */

void
_gcry_set_log_handler (gcry_handler_log_t f, void *opaque)
{
  __atomic_store_n (&log_handler_opaque, opaque, __ATOMIC_RELAXED);
  __atomic_store_n (&log_handler, f, __ATOMIC_RELEASE);
}

void
_gcry_set_fatalerror_handler (gcry_handler_error_t f, void *opaque)
{
  __atomic_store_n (&fatal_handler_opaque, opaque, __ATOMIC_RELAXED);
  __atomic_store_n (&fatal_handler, f, __ATOMIC_RELEASE);
}

void
_gcry_logv (int level, const char *fmt, va_list ap)
{
  gcry_handler_log_t h = __atomic_load_n (&log_handler, __ATOMIC_ACQUIRE);
  if (h)
    {
      h (__atomic_load_n (&log_handler_opaque, __ATOMIC_RELAXED), level,
         fmt, ap);
      return;
    }
  /* One locked stream operation per message, so that lines of several
   * threads do not interleave.  */
  flockfile (stderr);
  switch (level)
    {
    case GCRY_LOG_DEBUG: fputs ("DBG: ", stderr); break;
    case GCRY_LOG_BUG:   fputs ("BUG: ", stderr); break;
    default: break;
    }
  vfprintf (stderr, fmt, ap);
  funlockfile (stderr);
}

void
_gcry_log_info (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  _gcry_logv (GCRY_LOG_INFO, fmt, ap);
  va_end (ap);
}

void
_gcry_log_error (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  _gcry_logv (GCRY_LOG_ERROR, fmt, ap);
  va_end (ap);
}

void
_gcry_log_debug (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  _gcry_logv (GCRY_LOG_DEBUG, fmt, ap);
  va_end (ap);
}

/* Internal helper: log FMT at LEVEL without a va_list at the call site. */
static void
log_at (int level, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));
static void
log_at (int level, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  _gcry_logv (level, fmt, ap);
  va_end (ap);
}

/* Hex dump in lines of 32 bytes:
 *     DBG: TEXT: 00112233...
 * and, when longer, a " \" at the end of each full line and the next
 * line indented under the first hex digit.  An empty or NULL TEXT
 * prints the bytes alone.  */
void
_gcry_log_printhex (const char *text, const void *buffer, size_t length)
{
  const unsigned char *p = (const unsigned char *) buffer;
  const size_t per_line = 32;
  char line[2 * 32 + 1];
  int indent = (text && *text) ? (int) strlen (text) + 2 : 0;

  size_t off = 0;
  int first = 1;
  do
    {
      size_t n = length - off < per_line ? length - off : per_line;
      for (size_t i = 0; i < n; i++)
        snprintf (line + 2 * i, 3, "%02x", p ? p[off + i] : 0);
      line[2 * n] = 0;
      off += n;
      const char *tail = off < length ? " \\" : "";
      if (first && indent)
        log_at (GCRY_LOG_DEBUG, "%s: %s%s\n", text, line, tail);
      else
        log_at (GCRY_LOG_DEBUG, "%*s%s%s\n", indent, "", line, tail);
      first = 0;
    }
  while (off < length);
}

void
_gcry_fatal_error (int code, const char *text)
{
  if (!text)
    text = gpg_strerror ((gpg_error_t) code);
  gcry_handler_error_t h = __atomic_load_n (&fatal_handler,
                                            __ATOMIC_ACQUIRE);
  if (h)
    h (__atomic_load_n (&fatal_handler_opaque, __ATOMIC_RELAXED), code,
       text);
  /* The handler is not supposed to return; if it does (or there is
   * none), report and stop.  */
  log_at (GCRY_LOG_FATAL, "\nFatal error: %s\n", text);
  abort ();
}
