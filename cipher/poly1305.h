/* poly1305.h - the Poly1305 one-time authenticator (RFC 8439 2.5).
 *
 * Paths (chosen at _gcry_poly1305_init from the hwf bits, so the hwf
 * disable list forces each one).  amd64: "avx512-ifma"
 * (poly1305-avx512.cpp, sixteen blocks per step on eight lanes with
 * vpmadd52luq/huq; needs "intel-avx512" and IFMA, which CPUID decides),
 * "avx2" (poly1305-avx2.cpp, eight blocks per step on four lanes, radix
 * 2^26); arm64: "neon" (poly1305-neon.cpp, four blocks per step on two
 * lanes, radix 2^26; needs "arm-neon"); and "generic" everywhere.  The
 * x86 vector paths take runs of 16 or more whole blocks (rounded down to
 * a multiple of 8) with r^1..r^16 (r^1..r^8) computed at their first run
 * of a message, the NEON one runs of 8 or more (rounded down to a
 * multiple of 4) with r^1..r^4; the rest goes the generic way.
 *
 * Two generic implementations, chosen at compile time: where the
 * compiler has a 128-bit integer type (64-bit targets), the context
 * keeps the accumulator h and the clamped key part r in radix 2^44
 * (three 64-bit limbs of 44, 44 and 42 bits, the vector paths' form)
 * and the blocks go one by one in radix 2^64 (poly1305.cpp), the
 * powers r^2, r^3, r^4 being made only for the vector paths and the
 * stitched ChaCha20-Poly1305; elsewhere radix 2^26 (five 26-bit limbs
 * in 32-bit words, products in 64 bits).  Constant time:
 * no branch and no memory index depends on the key, the message or the
 * tag (the final reduction selects with masks).
 *
 * Use: _gcry_poly1305_init with the 32-byte one-time key (r || s), any
 * number of _gcry_poly1305_update calls of any length (the message is
 * their concatenation), then _gcry_poly1305_finish for the 16-byte tag.
 * The context holds key material: wipe it after use.
 */
#ifndef GCIPHER_POLY1305_H
#define GCIPHER_POLY1305_H

#include <stddef.h>
#include <stdint.h>
#include "../src/g10lib.h"
#include "cipher-internal.h"
#include "cipher-impl.h"
#include "bufhelp.h"

#define POLY1305_KEYLEN 32
#define POLY1305_TAGLEN 16
#define POLY1305_BLOCKSIZE 16
/* Stack bytes the functions below may leave key-dependent data in (the
 * caller burns them, see cipher-internal.h): the vector paths' frames
 * (spilled registers, 64-byte aligned) and the scalar code under
 * _gcry_poly1305_update (t-stream's Poly1305PathsBurnStack checks it).  */
#define POLY1305_BURN_DEPTH 768
/* The same for the scalar code alone: _gcry_poly1305_init,
 * _gcry_poly1305_finish and _gcry_poly1305_update of fewer than 8 whole
 * blocks, which no vector path takes (frames of saved registers and a
 * few words; t-hygiene checks it on every target).  */
#define POLY1305_SCALAR_BURN_DEPTH 256
/* The depth to burn after _gcry_poly1305_update of LEN bytes: fewer
 * than eight whole blocks even with a partial block pending run scalar
 * code only.  */
#define POLY1305_UPDATE_BURN_DEPTH(len)                                   \
  ((len) < 8 * POLY1305_BLOCKSIZE - (POLY1305_BLOCKSIZE - 1)              \
   ? POLY1305_SCALAR_BURN_DEPTH : POLY1305_BURN_DEPTH)

#ifdef __SIZEOF_INT128__
# define POLY1305_RADIX44 1
#endif

/* amd64 builds have the SIMD paths (cipher/Makefile.am, ARCH_X86_64):
 * "avx512-ifma" (poly1305-avx512.cpp: AVX-512 F+VL+BW+DQ and, checked
 * with CPUID at selection, IFMA) and "avx2" (poly1305-avx2.cpp); arm64
 * builds (ARCH_AARCH64) the "neon" one (poly1305-neon.cpp).  All take
 * the accumulator in the radix-2^44 form of this file.  */
#if defined(GCIPHER_ARCH_X86) && defined(__x86_64__) \
    && defined(POLY1305_RADIX44)
# define POLY1305_USE_SIMD 1
# define POLY1305_USE_AVX 1
#endif
#if defined(GCIPHER_ARCH_AARCH64) && defined(POLY1305_RADIX44) \
    && defined(__ORDER_LITTLE_ENDIAN__) \
    && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
# define POLY1305_USE_SIMD 1
# define POLY1305_USE_NEON 1
#endif

struct poly1305_context
{
#ifdef POLY1305_RADIX44
  /* r[0]: the clamped r; r[k]: r^(k+1) mod p (k = 1..3, for the
   * vector paths' set-up and the four-block step of the stitched
   * ChaCha20-Poly1305), made when one of those first needs them in a
   * message (_gcry_poly1305_powers; short messages never pay for
   * them).  44/44/42-bit limbs.  */
  uint64_t r[4][3];
  unsigned int powers;    /* Nonzero once r[1..3] hold r^2..r^4.  */
  uint64_t h[3];          /* Accumulator (partly reduced).  */
  uint64_t s[2];          /* The s half of the key, 64-bit words.  */
#else
  uint32_t r[5];          /* Clamped r, 26-bit limbs.  */
  uint32_t h[5];          /* Accumulator, 26-bit limbs (partly reduced). */
  uint32_t s[4];          /* The s half of the key, 32-bit words.  */
#endif
  unsigned char buf[POLY1305_BLOCKSIZE];  /* Partial block.  */
  size_t leftover;        /* Bytes in buf.  */
#ifdef POLY1305_USE_SIMD
  /* Index in _gcry_poly1305_impls of the path chosen at init.  */
  unsigned int path;
  /* Nonzero once the path filled simd (at its first bulk call: short
   * messages never pay for the powers).  */
  unsigned int simd_ready;
  /* Key powers laid out for the vector lanes of the chosen path (see
   * its file): p44[2][3][8] = radix-2^44 limbs of r^16..r^1 for the
   * AVX-512 path, p26[2][9][4] = radix-2^26 limbs of r^8..r^1 and their
   * multiples by 5 for the AVX2 one, n26[2][9][4] = 32-bit radix-2^26
   * limbs of r^4..r^1 and their multiples by 5 for the NEON one.
   * Secret: set only while simd_ready is, and wiped with it (by
   * _gcry_poly1305_finish, or by the next _gcry_poly1305_init for a
   * message never finished).  */
  union
  {
    uint64_t p44[2][3][8];
    uint64_t p26[2][9][4];
    uint32_t n26[2][9][4];
  } simd;
#endif
};

#ifdef POLY1305_USE_SIMD
/* The paths, fastest first; the last is "generic".  A path runs when
 * its hwf bits are all present and _gcry_poly1305_path_usable says so
 * (the AVX-512 path also needs the IFMA instructions, which have no hwf
 * name of their own: CPUID decides).  */
struct poly1305_impl_ops
{
  int (*cpu_has) (void);   /* The check beyond the hwf bits, or NULL.  */
};
extern const cipher_impl<poly1305_impl_ops> _gcry_poly1305_impls[]
  GCIPHER_INTERNAL;
extern const size_t _gcry_poly1305_n_impls GCIPHER_INTERNAL;
/* Nonzero if path IDX of _gcry_poly1305_impls can run with the hwf
 * bits HWF.  */
int _gcry_poly1305_path_usable (size_t idx, unsigned int hwf)
  GCIPHER_INTERNAL;
#endif
#ifdef POLY1305_USE_AVX
/* Whether the CPU has AVX512-IFMA (_gcry_hwf_x86_extra).  */
int _gcry_poly1305_have_ifma (void) GCIPHER_INTERNAL;
/* NBLOCKS whole 16-byte blocks at M (2^128 bit set) into CTX->h.
 * NBLOCKS a nonzero multiple of 8.  Fill CTX->simd
 * first if CTX->simd_ready is 0.  Return the stack burn depth (within
 * POLY1305_BURN_DEPTH).  */
unsigned int _gcry_poly1305_avx512_blocks (poly1305_context *ctx,
                                           const unsigned char *m,
                                           size_t nblocks) GCIPHER_INTERNAL;
unsigned int _gcry_poly1305_avx2_blocks (poly1305_context *ctx,
                                         const unsigned char *m,
                                         size_t nblocks) GCIPHER_INTERNAL;
#endif
#ifdef POLY1305_USE_NEON
/* NBLOCKS whole 16-byte blocks at M (any alignment; 2^128 bit set) into
 * CTX->h, RFC 8439 2.5.  NBLOCKS a nonzero multiple of 4.  Fills
 * CTX->simd.n26 first if CTX->simd_ready is 0.  Returns the stack burn
 * depth in bytes (within POLY1305_BURN_DEPTH).  */
unsigned int _gcry_poly1305_neon_blocks (poly1305_context *ctx,
                                         const unsigned char *m,
                                         size_t nblocks) GCIPHER_INTERNAL;
#endif

/* The vector paths' end: five radix-2^26 limb sums L (limb i at
 * 2^(26 i), each below 2^64 after adding the lanes) into CTX's radix-2^44
 * accumulator (limb 0 at 2^0, 1 at 2^26, both into h0; 2 at 2^52 and 3
 * at 2^78 into h1; 4 at 2^104 into h2), then a serial carry, the carry
 * out of 2^130 entering h0 times 5 (RFC 8439 2.5, p = 2^130 - 5).  In an
 * unnamed namespace and always inlined: each ISA file gets its own copy
 * under its own flags.  */
namespace {
inline __attribute__ ((always_inline)) void
poly1305_h_from_limbs26 (poly1305_context *ctx, const uint64_t l[5])
{
  constexpr uint64_t M44 = (1ull << 44) - 1, M42 = (1ull << 42) - 1;
  uint64_t h0 = l[0] + (l[1] << 26);
  uint64_t h1 = (l[2] << 8) + (l[3] << 34);
  uint64_t h2 = l[4] << 16, c;
  c = h0 >> 44; h0 &= M44; h1 += c;
  c = h1 >> 44; h1 &= M44; h2 += c;
  c = h2 >> 42; h2 &= M42; h0 += c * 5;
  c = h0 >> 44; h0 &= M44; h1 += c;
  ctx->h[0] = h0; ctx->h[1] = h1; ctx->h[2] = h2;
}
} // namespace

#ifdef POLY1305_RADIX44
/* The radix-2^44 arithmetic, inline so bulk paths elsewhere (the
 * ChaCha20-Poly1305 stitching of chacha20-avx512.cpp) interleave it with
 * their own work; poly1305.cpp is its main user.  */
/* An unnamed namespace: each user gets its own copy, compiled with its
 * own flags (no weak symbol shared between a generic and an ISA file),
 * and always inlined.  */
#define POLY1305_INLINE inline __attribute__ ((always_inline))
namespace poly1305_radix44 {
namespace {

constexpr uint64_t M44 = (1ull << 44) - 1;
constexpr uint64_t M42 = (1ull << 42) - 1;
typedef unsigned __int128 u128;

/* Radix 2^44: a number below 2^130 (or a little above, partly reduced)
 * is x0 + x1 2^44 + x2 2^88 with x0, x1 < 2^44 and x2 < 2^42 (each may
 * exceed its bound by a few bits between reductions).
 *
 * Product of h and a power of r (RFC 8439 2.5 "multiply by r", mod
 * p = 2^130 - 5): limb i of h times limb j of r lands at 2^(44(i+j)),
 * i + j = 3 at 2^132 and i + j = 4 at 2^176; as 2^132 = 4 * 2^130 = 20
 * (mod p), those enter limbs 0 and 1 times 20.  With the r limbs below
 * 2^44 and the h limbs below 2^46 every partial product is below 2^95
 * (times 20: below 2^95 too, as 20 r2 < 2^47), so a sum of up to twelve
 * of them (four blocks) stays far below 2^128.  */
struct acc
{
  u128 d0 = 0, d1 = 0, d2 = 0;

  /* d += x * r (x: three limbs; r: a power of r, s1 = 20 r1, s2 = 20 r2). */
  POLY1305_INLINE void
  mac (uint64_t x0, uint64_t x1, uint64_t x2, const uint64_t *r,
       uint64_t s1, uint64_t s2)
  {
    d0 += (u128) x0 * r[0] + (u128) x1 * s2 + (u128) x2 * s1;
    d1 += (u128) x0 * r[1] + (u128) x1 * r[0] + (u128) x2 * s2;
    d2 += (u128) x0 * r[2] + (u128) x1 * r[1] + (u128) x2 * r[0];
  }

  /* Carry d into h: limbs 0 and 2 within their bounds, limb 1 below
   * 2^44 + 2^16.  The carry out of limb 2 (below 2^57, as d2 < 2^99)
   * enters limb 0 times 5, as 2^130 = 5 (mod p).  */
  POLY1305_INLINE void
  carry (uint64_t &h0, uint64_t &h1, uint64_t &h2)
  {
    uint64_t c;
    c = (uint64_t) (d0 >> 44); h0 = (uint64_t) d0 & M44; d1 += c;
    c = (uint64_t) (d1 >> 44); h1 = (uint64_t) d1 & M44; d2 += c;
    c = (uint64_t) (d2 >> 42); h2 = (uint64_t) d2 & M42;
    h0 += c * 5;
    h1 += h0 >> 44;
    h0 &= M44;
  }
};

/* The 16 bytes at M as limbs, plus HIBIT (2^128) in limb 2.  */
POLY1305_INLINE void
load_block (const unsigned char *m, uint64_t hibit, uint64_t &x0,
            uint64_t &x1, uint64_t &x2)
{
  uint64_t t0 = buf_get_le64 (m), t1 = buf_get_le64 (m + 8);
  x0 = t0 & M44;
  x1 = ((t0 >> 44) | (t1 << 20)) & M44;
  x2 = ((t1 >> 24) & M42) | hibit;
}

/* S[k] = 20 r^(k+1) limbs 1 and 2 (the folded products of acc::mac).  */
POLY1305_INLINE void
times20 (const poly1305_context *ctx, uint64_t s[4][2])
{
  for (int k = 0; k < 4; k++)
    {
      s[k][0] = ctx->r[k][1] * 20;
      s[k][1] = ctx->r[k][2] * 20;
    }
}

/* Four blocks at M into the accumulator H0..H2 (see poly1305.cpp):
 * h' = (h + m0) r^4 + m1 r^3 + m2 r^2 + m3 r, one reduction.  S from
 * times20; HIBIT 1 << 40 for whole blocks.  */
POLY1305_INLINE void
step4 (uint64_t &h0, uint64_t &h1, uint64_t &h2,
       const poly1305_context *ctx, const uint64_t s[4][2],
       const unsigned char *m, uint64_t hibit)
{
  uint64_t x0, x1, x2;
  acc d;
  load_block (m, hibit, x0, x1, x2);
  d.mac (h0 + x0, h1 + x1, h2 + x2, ctx->r[3], s[3][0], s[3][1]);
  load_block (m + 16, hibit, x0, x1, x2);
  d.mac (x0, x1, x2, ctx->r[2], s[2][0], s[2][1]);
  load_block (m + 32, hibit, x0, x1, x2);
  d.mac (x0, x1, x2, ctx->r[1], s[1][0], s[1][1]);
  load_block (m + 48, hibit, x0, x1, x2);
  d.mac (x0, x1, x2, ctx->r[0], s[0][0], s[0][1]);
  d.carry (h0, h1, h2);
}

/* Radix 2^64 for blocks absorbed one after the other (the scalar path
 * of poly1305.cpp and the stitched AVX2 ChaCha20-Poly1305): the
 * accumulator as three 64-bit words a0 + a1 2^64 + a2 2^128 (a2 a few
 * bits), r as r0 + r1 2^64.  Per block four full products and two small
 * ones (radix 2^44 takes nine) and a short carry.
 *
 * The product (RFC 8439 2.5, mod p = 2^130 - 5): r is clamped, so r1
 * is a multiple of 4 and 2^128 r1 = 2^130 (r1 / 4) = 5 (r1 / 4) =
 * s1 (mod p), s1 = r1 + r1 / 4.  Hence
 *     d0 = a0 r0 + a1 s1,  d1 = a0 r1 + a1 r0 + a2 s1,  d2 = a2 r0
 * (a0 r0, a1 s1 below 2^125: d0 below 2^126; d1 likewise; d2 below
 * 2^64), then d1 += d0 >> 64, d2 += d1 >> 64, and the part of d2 from
 * 2^130 up folds back times 5: a2 = d2 & 3, a0 += 5 (d2 >> 2) with the
 * carry through a1 into a2 (a2 stays below 8).  The context keeps h in
 * radix 2^44 (the vector paths' form): converted by the constructor
 * and store.  */
struct serial64
{
  uint64_t a0, a1, a2, r0, r1, s1;

  POLY1305_INLINE explicit serial64 (const poly1305_context *ctx)
  {
    r0 = ctx->r[0][0] | (ctx->r[0][1] << 44);
    r1 = (ctx->r[0][1] >> 20) | (ctx->r[0][2] << 24);
    s1 = r1 + (r1 >> 2);
    /* h from radix 2^44 (limbs a little above their bounds, h2 below
     * 2^43) to 2^64.  */
    u128 t = (u128) ctx->h[0] + ((u128) ctx->h[1] << 44);
    a0 = (uint64_t) t;
    t = (t >> 64) + ((u128) ctx->h[2] << 24);
    a1 = (uint64_t) t;
    a2 = (uint64_t) (t >> 64);
  }

  /* Back to radix 2^44 (h2 below 2^42 + 2^40); the key words are
   * wiped with the object's owner's stack (registers mostly).  */
  POLY1305_INLINE void
  store (poly1305_context *ctx) const
  {
    ctx->h[0] = a0 & M44;
    ctx->h[1] = ((a0 >> 44) | (a1 << 20)) & M44;
    ctx->h[2] = (a1 >> 24) | (a2 << 40);
  }

  /* The 16 bytes at M plus HIBIT 2^128 (1 for a whole block, 0 for the
   * padded last one), times r.  */
  POLY1305_INLINE void
  block (const unsigned char *m, uint64_t hibit)
  {
    step (a0, a1, a2, r0, r1, s1, m, hibit);
  }

  /* block on an accumulator A0..A2 and key words held apart from an
   * object: the stitched ChaCha20-Poly1305 keeps them in local
   * variables, which GCC keeps in registers (GCC 12 leaves an object
   * whose members are assembly operands in memory, and stores the
   * accumulator there at each block in its loop).  */
  static POLY1305_INLINE void
  step (uint64_t &a0, uint64_t &a1, uint64_t &a2, uint64_t r0, uint64_t r1,
        uint64_t s1, const unsigned char *m, uint64_t hibit)
  {
#if defined(__x86_64__)
    /* The same steps in registers: GCC's 128-bit additions go through
     * the stack, in the serial chain.  mul leaves rdx:rax.  Ordered
     * for few instructions (31; the stitched ChaCha20-Poly1305 issues
     * them beside the vector rounds): both imuls before the add / adc
     * pair they feed (imul writes the flags), 5 (d2 >> 2) as one lea,
     * and the 2^0 limb's high word added after the reduction, in the
     * same carry chain.  */
    uint64_t d0h, d1l, d1h, u;
    asm ("addq (%[m]), %[a0]\n\t"
         "adcq 8(%[m]), %[a1]\n\t"
         "adcq %[hibit], %[a2]\n\t"
         "movq %[a0], %%rax\n\t"
         "mulq %[r1]\n\t"              /* a0 r1 */
         "movq %%rax, %[d1l]\n\t"
         "movq %%rdx, %[d1h]\n\t"
         "movq %[a0], %%rax\n\t"
         "mulq %[r0]\n\t"              /* a0 r0 */
         "movq %%rax, %[a0]\n\t"
         "movq %%rdx, %[d0h]\n\t"
         "movq %[a1], %%rax\n\t"
         "mulq %[r0]\n\t"              /* a1 r0 */
         "addq %%rax, %[d1l]\n\t"
         "adcq %%rdx, %[d1h]\n\t"
         "movq %[a1], %%rax\n\t"
         "mulq %[s1]\n\t"              /* a1 s1: 2^128 a1 r1 mod p */
         "addq %%rax, %[a0]\n\t"
         "adcq %%rdx, %[d0h]\n\t"     /* d0 = d0h:a0 */
         "movq %[a2], %[a1]\n\t"
         "imulq %[s1], %[a1]\n\t"     /* a2 s1 */
         "imulq %[r0], %[a2]\n\t"     /* a2 r0 */
         "addq %[d1l], %[a1]\n\t"
         "adcq %[d1h], %[a2]\n\t"     /* d2 = a2, d1 low word = a1 */
         "movq %[a2], %[u]\n\t"
         "andq $3, %[a2]\n\t"
         "shrq $2, %[u]\n\t"
         "leaq (%[u],%[u],4), %[u]\n\t"  /* 2^130 = 5 (mod p) */
         "addq %[u], %[a0]\n\t"
         "adcq %[d0h], %[a1]\n\t"
         "adcq $0, %[a2]\n\t"
         : [a0] "+&r" (a0), [a1] "+&r" (a1), [a2] "+&r" (a2),
           [d0h] "=&r" (d0h), [d1l] "=&r" (d1l), [d1h] "=&r" (d1h),
           [u] "=&r" (u)
         /* The key words and HIBIT may stay in memory (mul, imul and
          * adc take a memory source): with clang's sanitizer builds of
          * the stitched AVX2 loop no twelve registers are free.  HIBIT
          * a constant: an immediate (one register fewer there).  */
         : [m] "r" (m), [r0] "rm" (r0), [r1] "rm" (r1), [s1] "rm" (s1),
           [hibit] "rme" (hibit),
           "m" (*reinterpret_cast<const unsigned char (*)[16]> (m))
         : "rax", "rdx", "cc");
    (void) u;
#else
    u128 t = (u128) a0 + buf_get_le64 (m);
    a0 = (uint64_t) t;
    t = (t >> 64) + a1 + buf_get_le64 (m + 8);
    a1 = (uint64_t) t;
    a2 += (uint64_t) (t >> 64) + hibit;
    u128 d0 = (u128) a0 * r0 + (u128) a1 * s1;
    u128 d1 = (u128) a0 * r1 + (u128) a1 * r0 + (u128) (a2 * s1);
    uint64_t d2 = a2 * r0;
    d1 += d0 >> 64;
    d2 += (uint64_t) (d1 >> 64);
    t = (u128) (uint64_t) d0 + (d2 & ~(uint64_t) 3) + (d2 >> 2);
    a0 = (uint64_t) t;
    t = (t >> 64) + (uint64_t) d1;
    a1 = (uint64_t) t;
    a2 = (d2 & 3) + (uint64_t) (t >> 64);
#endif
  }
};

} // namespace
} // namespace poly1305_radix44
#endif /* POLY1305_RADIX44 */

/* KEY: 32 bytes (RFC 8439 2.5: r = first 16, clamped; s = last 16).  */
void _gcry_poly1305_init (poly1305_context *ctx, const unsigned char *key)
  GCIPHER_INTERNAL;
#ifdef POLY1305_RADIX44
/* r^2..r^4 into CTX->r[1..3] if not made yet for this message (the
 * four-block step and the stitched ChaCha20-Poly1305 of
 * chacha20-avx512.cpp need them; _gcry_poly1305_update makes them
 * itself).  */
void _gcry_poly1305_powers (poly1305_context *ctx) GCIPHER_INTERNAL;
#endif
/* Absorb LEN bytes (any length, may be 0).  */
void _gcry_poly1305_update (poly1305_context *ctx, const unsigned char *m,
                            size_t len) GCIPHER_INTERNAL;
/* The name of the path CTX runs ("avx512-ifma", "avx2", "neon",
 * "generic"),
 * chosen at init from the hwf bits.  */
const char *_gcry_poly1305_path_name (const poly1305_context *ctx)
  GCIPHER_INTERNAL;
/* Nonzero if CTX runs a vector path.  ChaCha20-Poly1305 then runs the
 * ChaCha20 path and this Poly1305 one after the other, faster than the
 * stitched scalar Poly1305 of chacha20-avx512.cpp.  */
inline int
_gcry_poly1305_uses_simd (const poly1305_context *ctx)
{
#ifdef POLY1305_USE_SIMD
  return ctx->path + 1 < _gcry_poly1305_n_impls;
#else
  (void) ctx;
  return 0;
#endif
}
/* Pad and absorb the partial block, write the 16-byte TAG.  The context
 * is spent (re-init before reuse).  */
void _gcry_poly1305_finish (poly1305_context *ctx, unsigned char *tag)
  GCIPHER_INTERNAL;

#endif /* GCIPHER_POLY1305_H */
