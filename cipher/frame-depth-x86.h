/* frame-depth-x86.h - the stack depth an x86 function has used, measured
 * at run time for its burn (the wiped-secrets rule, ARCHITECTURE.md).
 *
 * A kernel returns the depth its frame may have left secrets in, and
 * its caller burns that much below its own stack pointer
 * (cipher-internal.h: cipher_burn).  A depth written down as a constant
 * falls behind when the compiler's frame grows: the GHASH back ends
 * returned 0 while spilling the powers of H (up to 1 KiB of them for
 * the AVX-512 set-up), and the stitched GCM kernel 1600 bytes for
 * frames of up to 1,840.  FRAME_DEPTH_X86 () measures instead: from
 * the caller's stack pointer down to the function's own, plus the red
 * zone below it (128 bytes on x86-64, System V ABI 3.2.2; none on
 * i386).  Used last in the function itself, after its calls: a callee
 * that returns its own depth had its frame below this one, so the two
 * add up (a callee that returns none must leave nothing).  The
 * caller's stack pointer is the canonical frame address
 * (__builtin_dwarf_cfa, GCC and clang); where i386 code realigns its
 * stack GCC takes it from the realigned copy of the return address,
 * up to 67 bytes low, which a fixed margin covers (the powers of H
 * were left 1,616 bytes deep after an AVX-512 GHASH set-up on i686 in
 * 14 of 30 runs of t-hygiene without it).
 */
#ifndef GCIPHER_FRAME_DEPTH_X86_H
#define GCIPHER_FRAME_DEPTH_X86_H

#include <stdint.h>

/* Bytes from CFA (the caller's stack pointer) down to the red zone's
 * end below the current stack pointer.  */
static inline __attribute__ ((always_inline)) unsigned int
frame_depth_x86 (uintptr_t cfa)
{
  uintptr_t sp;
#ifdef __x86_64__
  constexpr uintptr_t red_zone = 128;
  asm volatile ("movq %%rsp, %0" : "=r" (sp));
#else
  constexpr uintptr_t red_zone = 0;
  asm volatile ("movl %%esp, %0" : "=r" (sp));
#endif
  /* MARGIN: where the CFA or the burn's start is off.  On i386 GCC 12
   * realigns the stack by copying the return address below the gap
   * (lea 4(%esp),%ecx; and $-64,%esp; push -4(%ecx); push %ebp) and
   * takes the CFA from the copy: up to 67 bytes low with zmm
   * alignment.  A caller that popped the callee's stack arguments
   * before it burns starts 8 to 32 bytes higher than the callee's CFA
   * (crypt_t's two on x86-64; five pushes on i386), and a function
   * that measures after popping a callee's arguments is that much
   * short.  */
  constexpr uintptr_t margin = 128;
  return (unsigned int) (cfa - sp + red_zone + margin);
}

/* The depth of the function this is written in (a macro: the frame
 * address must be that function's).  */
#define FRAME_DEPTH_X86() \
  frame_depth_x86 ((uintptr_t) __builtin_dwarf_cfa ())

#endif /* GCIPHER_FRAME_DEPTH_X86_H */
