/* cipher-batch-modes.h - mode drivers for bulk kernels that encrypt or
 * decrypt a fixed batch of N 16-byte blocks at a time.
 *
 * batch_modes<CLEAR, K1, K2, ...> builds the bulk slots ecb_crypt,
 * cbc_enc, cbc_dec, cfb_enc, cfb_dec, ofb_enc, ctr16be_enc, ctr32le_enc,
 * xts_crypt, ocb_crypt and ocb_auth
 * (cipher-internal.h) from kernels of decreasing batch size, each a type
 * with
 *
 *   static constexpr size_t N;              blocks per batch
 *   template <bool DECRYPT> static void
 *   crypt_blocks (const void *ctx, unsigned char *out,
 *                 const unsigned char *in); N blocks, IN == OUT allowed
 *   static constexpr unsigned int BURN;     stack depth to burn
 *
 * (the smallest kernel may also have
 *
 *   template <bool DECRYPT> static void
 *   crypt_one (const void *ctx, unsigned char *out,
 *              const unsigned char *in);   one block, IN == OUT allowed
 *
 * a kernel for a single block in a register, which then serves the
 * chained encryptions and the single-block functions instead of a
 * padded batch; its frame must fit in the chain's BURN; and any kernel
 *
 *   template <bool DECRYPT> static void
 *   crypt_part (const void *ctx, unsigned char *out,
 *               const unsigned char *in, size_t n);
 *                                  1 <= n < N blocks, IN == OUT allowed,
 *                                  nothing accessed past block n
 *
 * which then takes a short run itself: a run of more blocks than the
 * next kernel's batch, or any short run if it is the smallest; and, in
 * every kernel of the chain,
 *
 *   template <bool DECRYPT> static void
 *   crypt_shifted (const void *ctx, unsigned char *out,
 *                  const unsigned char *first, const unsigned char *in,
 *                  size_t n);       n blocks as crypt_part (or N), block 0
 *                                  from FIRST, block i from IN + 16 (i - 1)
 *
 * with which CFB decryption reads its inputs where they are instead of
 * copying them to a batch)
 * and CLEAR wiping the vector registers at the end of every slot; and
 * single-block functions (crypt1) running the smallest kernel on one
 * block, for the algorithm's encrypt / decrypt to call when the path is
 * chosen (every mode without a bulk slot then benefits).  A run
 * of blocks takes the largest kernel whose batch fits, then the next, ...;
 * what is left below the smallest batch goes through a stack buffer of
 * that size (so one block costs one batch of the smallest kernel), or to
 * crypt_part.  The
 * chained encryptions (CBC, CFB, OFB encryption: one block depends on
 * the previous one) run one block at a time that way (or through the
 * smallest kernel's crypt_one when it has one); fill_parallel leaves
 * them out, for an algorithm whose own single-block functions are the
 * faster way.  Every stack
 * buffer is wiped before return.  Blocks that a kernel reads (counters,
 * whitened blocks) are written 16 bytes at a time, so a kernel that
 * loads them block by block forwards from the stores.  No intrinsics
 * here: the kernels come from the ISA files, each instantiating its
 * algorithm's kernel template:
 *   Camellia  camellia-gfni.h  camellia-{gfni-avx512,gfni-avx2,vaes-avx2,
 *                              aesni-avx2,aesni-avx}.cpp
 *   SM4       sm4-gfni.h       sm4-{gfni-avx512,gfni-avx2,vaes-avx2,
 *                              aesni-avx2,aesni-avx}.cpp
 *   ARIA      aria-gfni.h      aria-{gfni-avx512,gfni-avx2,vaes-avx2,
 *                              aesni-avx2}.cpp (crypt_one)
 *   Twofish   twofish-simd.h   twofish-{avx512,gfni-avx512,avx2}.cpp
 *                              (crypt_one)
 *   Serpent   serpent-internal.h  serpent-{avx512,avx2,sse2,neon}.cpp
 *                              (crypt_part, crypt_shifted, fill_parallel)
 * (a higher ISA file calls a lower one's xmm kernel through
 * batch_called where both would compile it to the same code; the
 * Twofish AVX-512 files call the avx2 file's ymm and xmm kernels).
 * AES has mode drivers of its own.
 */
#ifndef GCIPHER_CIPHER_BATCH_MODES_H
#define GCIPHER_CIPHER_BATCH_MODES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <type_traits>
#include "cipher-internal.h"
#include "cipher-ocb.h"

#define BATCH_INLINE inline __attribute__ ((always_inline))

/* A single-block function (cipher_spec's encrypt / decrypt shape).  */
typedef unsigned int (*batch_block_fn) (void *ctx, unsigned char *out,
                                        const unsigned char *in);

template <class... Ks> struct batch_chain;

/* Whether kernel K has crypt_part (a short batch without the pad).  */
template <class K>
concept batch_has_part
  = requires (const void *c, unsigned char *o, const unsigned char *i,
              size_t n) { K::template crypt_part<false> (c, o, i, n); };

/* Whether kernel K has crypt_shifted (CFB decryption's inputs in
 * place).  */
template <class K>
concept batch_has_shifted
  = requires (const void *c, unsigned char *o, const unsigned char *f,
              const unsigned char *i, size_t n) {
      K::template crypt_shifted<false> (c, o, f, i, n);
    };

template <class K>
struct batch_chain<K>
{
  static constexpr size_t N = K::N, NMIN = K::N;
  static constexpr unsigned int BURN = K::BURN;
  /* No step needs the pad.  */
  static constexpr bool PART = batch_has_part<K>;
  /* Every kernel has crypt_shifted.  */
  static constexpr bool SHIFTED = batch_has_shifted<K>;

  /* Blocks processed from N blocks at IN (PAD: NMIN blocks).  */
  template <bool DECRYPT>
  static BATCH_INLINE size_t
  step (const void *ctx, unsigned char *out, const unsigned char *in,
        size_t n, unsigned char *pad)
  {
    if (n >= N)
      {
        K::template crypt_blocks<DECRYPT> (ctx, out, in);
        return N;
      }
    if constexpr (PART)
      {
        K::template crypt_part<DECRYPT> (ctx, out, in, n);
        return n;
      }
    memmove (pad, in, 16 * n);
    /* Defined filler: kernels mix the blocks of a register in one
     * instruction (AESENCLAST), and memcheck would otherwise see the
     * real blocks' results depend on the stale rest.  */
    memset (pad + 16 * n, 0, 16 * (N - n));
    K::template crypt_blocks<DECRYPT> (ctx, pad, pad);
    memcpy (out, pad, 16 * n);
    return n;
  }

  /* step's first batch of a run whose block 0 is at FIRST and block i
   * at IN + 16 (i - 1) (with SHIFTED).  */
  template <bool DECRYPT>
  static BATCH_INLINE size_t
  step_shifted (const void *ctx, unsigned char *out,
                const unsigned char *first, const unsigned char *in,
                size_t n)
  {
    const size_t k = n < N ? n : N;
    K::template crypt_shifted<DECRYPT> (ctx, out, first, in, k);
    return k;
  }

  /* The smallest kernel on NMIN blocks.  */
  template <bool DECRYPT>
  static BATCH_INLINE void
  crypt_min (const void *ctx, unsigned char *out, const unsigned char *in)
  {
    K::template crypt_blocks<DECRYPT> (ctx, out, in);
  }

  /* One block: K::crypt_one if the kernel has it, else the smallest
   * batch (through PAD, NMIN blocks, unless NMIN is 1).  */
  template <bool DECRYPT>
  static BATCH_INLINE void
  crypt_single (const void *ctx, unsigned char *out, const unsigned char *in,
                unsigned char *pad)
  {
    if constexpr (requires { K::template crypt_one<DECRYPT> (ctx, out, in); })
      K::template crypt_one<DECRYPT> (ctx, out, in);
    else
      step<DECRYPT> (ctx, out, in, 1, pad);
  }
};

template <class K, class K2, class... Rest>
struct batch_chain<K, K2, Rest...>
{
  typedef batch_chain<K2, Rest...> next;
  static constexpr size_t N = K::N, NMIN = next::NMIN;
  static constexpr unsigned int BURN = K::BURN > next::BURN ? K::BURN
                                                             : next::BURN;
  static constexpr bool PART = next::PART;
  static constexpr bool SHIFTED = batch_has_shifted<K> && next::SHIFTED;

  template <bool DECRYPT>
  static BATCH_INLINE size_t
  step (const void *ctx, unsigned char *out, const unsigned char *in,
        size_t n, unsigned char *pad)
  {
    if (n >= N)
      {
        K::template crypt_blocks<DECRYPT> (ctx, out, in);
        return N;
      }
    if constexpr (batch_has_part<K>)
      if (n > next::N)
        {
          K::template crypt_part<DECRYPT> (ctx, out, in, n);
          return n;
        }
    return next::template step<DECRYPT> (ctx, out, in, n, pad);
  }

  template <bool DECRYPT>
  static BATCH_INLINE size_t
  step_shifted (const void *ctx, unsigned char *out,
                const unsigned char *first, const unsigned char *in,
                size_t n)
  {
    if (n >= N || (batch_has_part<K> && n > next::N))
      {
        const size_t k = n < N ? n : N;
        K::template crypt_shifted<DECRYPT> (ctx, out, first, in, k);
        return k;
      }
    return next::template step_shifted<DECRYPT> (ctx, out, first, in, n);
  }

  template <bool DECRYPT>
  static BATCH_INLINE void
  crypt_min (const void *ctx, unsigned char *out, const unsigned char *in)
  {
    next::template crypt_min<DECRYPT> (ctx, out, in);
  }

  template <bool DECRYPT>
  static BATCH_INLINE void
  crypt_single (const void *ctx, unsigned char *out, const unsigned char *in,
                unsigned char *pad)
  {
    next::template crypt_single<DECRYPT> (ctx, out, in, pad);
  }
};

/* A kernel compiled in another ISA file and reached by a call.  The
 * vector traits have internal linkage, so every file that instantiates a
 * kernel template carries its own copy.  Where a lower ISA file compiles
 * a kernel to the same instructions as a higher one would, or to code no
 * slower (the xmm AES-NI kernels of the AVX2 and VAES files), the lower
 * file exports it with
 * BATCH_KERNEL_EXPORT (and BATCH_KERNEL_EXPORT_ONE for crypt_one) and
 * the higher one chains batch_called<K, ENC, DEC> (batch_called_one<K,
 * ENC, DEC, ENC1, DEC1>) in its place: K is the kernel type, for N and
 * BURN only (naming it instantiates none of its functions).  The caller's
 * path must imply the CPU features of the callee's file (its hwf bits a
 * superset); the algorithm's internal header declares the exported
 * functions.  A direct call to a hidden function: no PLT, and the
 * exported function jumps to the kernel (or, for an inline kernel, is
 * it), so its frame is the kernel's (BURN unchanged).  Every kernel
 * shared between ISA files is exported this way.  */
typedef void batch_kernel_fn (const void *ctx, unsigned char *out,
                              const unsigned char *in);

#define BATCH_KERNEL_EXPORT(NAME, K)                                    \
  void NAME##_enc (const void *c, unsigned char *o, const unsigned char *i) \
  { K::template crypt_blocks<false> (c, o, i); }                        \
  void NAME##_dec (const void *c, unsigned char *o, const unsigned char *i) \
  { K::template crypt_blocks<true> (c, o, i); }

#define BATCH_KERNEL_EXPORT_ONE(NAME, K)                                \
  void NAME##_enc (const void *c, unsigned char *o, const unsigned char *i) \
  { K::template crypt_one<false> (c, o, i); }                           \
  void NAME##_dec (const void *c, unsigned char *o, const unsigned char *i) \
  { K::template crypt_one<true> (c, o, i); }

template <class K, batch_kernel_fn *ENC, batch_kernel_fn *DEC>
struct batch_called
{
  static constexpr size_t N = K::N;
  static constexpr unsigned int BURN = K::BURN;

  template <bool DECRYPT>
  static BATCH_INLINE void
  crypt_blocks (const void *ctx, unsigned char *out, const unsigned char *in)
  {
    (DECRYPT ? DEC : ENC) (ctx, out, in);
  }
};

template <class K, batch_kernel_fn *ENC, batch_kernel_fn *DEC,
          batch_kernel_fn *ENC1, batch_kernel_fn *DEC1>
struct batch_called_one : batch_called<K, ENC, DEC>
{
  template <bool DECRYPT>
  static BATCH_INLINE void
  crypt_one (const void *ctx, unsigned char *out, const unsigned char *in)
  {
    (DECRYPT ? DEC1 : ENC1) (ctx, out, in);
  }
};

/* A 16-byte block as a value (GCC vector extension, no intrinsics):
 * chained values (OCB offsets and checksums) stay in a register instead
 * of a store / load per block.  */
typedef unsigned char batch_v16 __attribute__ ((vector_size (16)));

/* Always inlined, so no call ever passes a batch_v16: GCC's note that
 * i686 without SSE returns such vectors differently does not apply.  */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

static BATCH_INLINE batch_v16
batch_load16 (const unsigned char *p)
{
  batch_v16 v;
  memcpy (&v, p, 16);
  return v;
}

static BATCH_INLINE void
batch_store16 (unsigned char *p, batch_v16 v)
{
  memcpy (p, &v, 16);
}

/* The block of the 64-bit words A (bytes 0..7) and B (8..15) in host
 * order, as one value: stored in one piece, so a 16-byte load of it
 * forwards from the store buffer (two 8-byte stores would stall it).  */
static BATCH_INLINE batch_v16
batch_v16_of (uint64_t a, uint64_t b)
{
  typedef uint64_t u64x2 __attribute__ ((vector_size (16)));
  const u64x2 v = { a, b };
  return (batch_v16) v;
}

/* Each 64-bit half of V byte-reversed: one byte shuffle (PSHUFB, REV64),
 * or with SSE2 alone, which has none (GCC would go through memory byte
 * by byte), the 16-bit words reversed (PSHUFLW, PSHUFHW) and the bytes
 * of each swapped by shifts.  */
static BATCH_INLINE batch_v16
batch_bswap64x2 (batch_v16 v)
{
#if defined(__SSE2__) && !defined(__SSSE3__)
  typedef uint16_t u16x8 __attribute__ ((vector_size (16)));
  const u16x8 w = __builtin_shufflevector ((u16x8) v, (u16x8) v,
                                           3, 2, 1, 0, 7, 6, 5, 4);
  return (batch_v16) ((u16x8) (w << 8) | (u16x8) (w >> 8));
#else
  return __builtin_shufflevector (v, v, 7, 6, 5, 4, 3, 2, 1, 0,
                                  15, 14, 13, 12, 11, 10, 9, 8);
#endif
}
#pragma GCC diagnostic pop

/* 16-byte XOR without a byte loop (GCC vector extension, no
 * intrinsics).  */
static BATCH_INLINE void
batch_xor16 (unsigned char *dst, const unsigned char *a,
             const unsigned char *b)
{
  typedef unsigned char v16 __attribute__ ((vector_size (16)));
  v16 x, y;
  memcpy (&x, a, 16);
  memcpy (&y, b, 16);
  x ^= y;
  memcpy (dst, &x, 16);
}

template <void (*CLEAR) (), class... Ks>
struct batch_modes
{
  typedef batch_chain<Ks...> chain;
  static constexpr size_t N = chain::N, NMIN = chain::NMIN;

  /* Scratch of one slot call: a batch and a pad (none when the smallest
   * kernel has crypt_part), wiped at the end.  */
  struct scratch_pad
  {
    alignas (64) unsigned char tmp[16 * N];
    alignas (64) unsigned char pad[16 * NMIN];
  };
  struct scratch_part
  {
    alignas (64) unsigned char tmp[16 * N];
    static constexpr unsigned char *pad = nullptr;
  };
  typedef std::conditional_t<chain::PART, scratch_part, scratch_pad> scratch;

  template <bool DECRYPT>
  static BATCH_INLINE void
  run (const void *ctx, unsigned char *out, const unsigned char *in,
       size_t n, unsigned char *pad)
  {
    while (n)
      {
        const size_t k = chain::template step<DECRYPT> (ctx, out, in, n,
                                                        pad);
        in += 16 * k;
        out += 16 * k;
        n -= k;
      }
  }

  /* The batch blocks a call of NBLOCKS uses.  */
  static BATCH_INLINE size_t
  used (size_t nblocks)
  {
    return nblocks < N ? nblocks : N;
  }

  /* Wipe the first NUSED blocks of S's batch (those the call wrote) and
   * its pad, and clear the vector registers.  Returns the depth to burn:
   * the kernels' BURN below this frame, whose scratch (and EXTRA bytes of
   * other buffers, wiped by the caller) lie above it; nothing when the
   * kernels leave nothing (BURN 0).  */
  static BATCH_INLINE unsigned int
  finish (scratch &s, size_t nused, unsigned int extra = 0)
  {
    /* Only the blocks the call wrote (a short call on a wide path
     * would wipe a whole batch it never touched).  */
    for (size_t i = 0; i < nused; i++)
      batch_store16 (s.tmp + 16 * i, batch_v16 {});
    __asm__ __volatile__ ("" : : "r" (s.tmp) : "memory");
    if constexpr (!chain::PART)
      wipememory (s.pad, sizeof s.pad);
    CLEAR ();
    return chain::BURN ? chain::BURN + sizeof (scratch) + extra : 0;
  }

  /* ECB (SP 800-38A 6.1): straight from IN to OUT; only a short run
   * without crypt_part needs the pad.  */
  static unsigned int
  ecb_crypt (void *ctx, void *out, const void *in, size_t nblocks,
             int encrypt)
  {
    scratch_pad s;
    unsigned char *pad = chain::PART ? nullptr : s.pad;
    if (encrypt)
      run<false> (ctx, (unsigned char *) out, (const unsigned char *) in,
                   nblocks, pad);
    else
      run<true> (ctx, (unsigned char *) out, (const unsigned char *) in,
                 nblocks, pad);
    CLEAR ();
    if constexpr (chain::PART)
      return chain::BURN;
    wipememory (s.pad, sizeof s.pad);
    return chain::BURN + sizeof (scratch_pad);
  }

  /* CBC decryption (SP 800-38A 6.2): P_i = D(C_i) ^ C_(i-1).  The XORs
   * run last to first, so in place every C_(i-1) is read before P_(i-1)
   * replaces it.  */
  static unsigned int
  cbc_dec (void *ctx, unsigned char *iv, void *outv, const void *inv,
           size_t nblocks)
  {
    unsigned char *out = (unsigned char *) outv;
    const unsigned char *in = (const unsigned char *) inv;
    scratch s;
    const size_t nused = used (nblocks);
    unsigned char last[16];
    while (nblocks)
      {
        const size_t n = nblocks < N ? nblocks : N;
        run<true> (ctx, s.tmp, in, n, s.pad);
        memcpy (last, in + 16 * (n - 1), 16);
        for (size_t i = n; i-- > 1;)
          batch_xor16 (out + 16 * i, s.tmp + 16 * i, in + 16 * (i - 1));
        batch_xor16 (out, s.tmp, iv);
        memcpy (iv, last, 16);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
      }
    return finish (s, nused);
  }

  /* CFB-128 decryption (SP 800-38A 6.3): P_i = E(C_(i-1)) ^ C_i.  With
   * SHIFTED kernels the batch's first call reads C_(i-1) where it is (IV,
   * then IN), else the inputs are copied to the batch first.  The last
   * C_i of a batch goes to IV before P_i overwrites it in place.  */
  static unsigned int
  cfb_dec (void *ctx, unsigned char *iv, void *outv, const void *inv,
           size_t nblocks)
  {
    unsigned char *out = (unsigned char *) outv;
    const unsigned char *in = (const unsigned char *) inv;
    scratch s;
    const size_t nused = used (nblocks);
    while (nblocks)
      {
        const size_t n = nblocks < N ? nblocks : N;
        if constexpr (chain::SHIFTED)
          {
            const size_t k = chain::template step_shifted<false> (
                ctx, s.tmp, iv, in, n);
            run<false> (ctx, s.tmp + 16 * k, in + 16 * (k - 1), n - k,
                        s.pad);
          }
        else
          {
            /* Block by block, so that the kernel's loads forward from
             * these stores; the empty asm, which takes each stored
             * block, keeps GCC from making the loop a memcpy (REP MOVSQ:
             * 8-byte stores, which a 16-byte load cannot forward from;
             * Serpent's AVX-512 CFB decryption measured 0.93 of its own
             * driver's speed that way, 0.96 with this loop).  */
            batch_store16 (s.tmp, batch_load16 (iv));
            for (size_t i = 1; i < n; i++)
              {
                batch_store16 (s.tmp + 16 * i,
                               batch_load16 (in + 16 * (i - 1)));
                __asm__ ("" : "+m" (*(unsigned char (*)[16]) (s.tmp
                                                              + 16 * i)));
              }
            run<false> (ctx, s.tmp, s.tmp, n, s.pad);
          }
        memcpy (iv, in + 16 * (n - 1), 16);
        for (size_t i = 0; i < n; i++)
          batch_xor16 (out + 16 * i, s.tmp + 16 * i, in + 16 * i);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
      }
    return finish (s, nused);
  }

  /* The N counter blocks in S's batch encrypted in place and XORed with
   * IN into OUT (both CTR slots: the keystream never leaves the
   * batch).  */
  static BATCH_INLINE void
  keystream_xor (const void *ctx, scratch &s, unsigned char *out,
                 const unsigned char *in, size_t n)
  {
    run<false> (ctx, s.tmp, s.tmp, n, s.pad);
    for (size_t i = 0; i < n; i++)
      batch_xor16 (out + 16 * i, s.tmp + 16 * i, in + 16 * i);
  }

  /* CTR (SP 800-38A 6.5, B.1) with the whole block a big-endian counter
   * wrapping at 2^128; the counter (public) runs in two 64-bit
   * words.  */
  static unsigned int
  ctr16be_enc (void *ctx, unsigned char *ctr, void *outv, const void *inv,
               size_t nblocks)
  {
    unsigned char *out = (unsigned char *) outv;
    const unsigned char *in = (const unsigned char *) inv;
    scratch s;
    const size_t nused = used (nblocks);
    uint64_t hi, lo;
    memcpy (&hi, ctr, 8);
    memcpy (&lo, ctr + 8, 8);
    hi = __builtin_bswap64 (hi);
    lo = __builtin_bswap64 (lo);
    while (nblocks)
      {
        const size_t n = nblocks < N ? nblocks : N;
        if (lo <= ~(uint64_t) 0 - n)
          {
            /* No carry into HI in this batch (the branch is on the
             * public counter): the low word counts in a vector, one
             * byte shuffle per block instead of two BSWAPs and an
             * insert (measured 4% of Serpent's CTR time on AVX-512).  */
            typedef uint64_t u64x2 __attribute__ ((vector_size (16)));
            u64x2 v = { hi, lo };
            const u64x2 one = { 0, 1 };
            for (size_t i = 0; i < n; i++)
              {
                batch_store16 (s.tmp + 16 * i,
                               batch_bswap64x2 ((batch_v16) v));
                v += one;
              }
            lo += n;
          }
        else
          for (size_t i = 0; i < n; i++)
            {
              batch_store16 (s.tmp + 16 * i,
                             batch_v16_of (__builtin_bswap64 (hi),
                                           __builtin_bswap64 (lo)));
              lo++;
              hi += lo == 0;
            }
        keystream_xor (ctx, s, out, in, n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
      }
    hi = __builtin_bswap64 (hi);
    lo = __builtin_bswap64 (lo);
    memcpy (ctr, &hi, 8);
    memcpy (ctr + 8, &lo, 8);
    return finish (s, nused);
  }

  /* CTR with the 32-bit little-endian counter in bytes 0..3 (RFC 8452
   * 4, GCM-SIV's counter, wrapping mod 2^32; bytes 4..15 fixed).  The
   * counter (public) runs in the low half of the first 64-bit word, as
   * ctr16be_enc's two words (host order little-endian).  */
  static unsigned int
  ctr32le_enc (void *ctx, unsigned char *ctr, void *outv, const void *inv,
               size_t nblocks)
  {
    unsigned char *out = (unsigned char *) outv;
    const unsigned char *in = (const unsigned char *) inv;
    scratch s;
    const size_t nused = used (nblocks);
    uint64_t lo, hi;
    memcpy (&lo, ctr, 8);
    memcpy (&hi, ctr + 8, 8);
    const uint64_t lofix = lo & ~(uint64_t) 0xffffffff;
    uint32_t c32 = (uint32_t) lo;
    while (nblocks)
      {
        const size_t n = nblocks < N ? nblocks : N;
        for (size_t i = 0; i < n; i++)
          batch_store16 (s.tmp + 16 * i, batch_v16_of (lofix | c32++, hi));
        keystream_xor (ctx, s, out, in, n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
      }
    lo = lofix | c32;
    memcpy (ctr, &lo, 8);
    return finish (s, nused);
  }

  /* XTS (IEEE 1619-2018 5.3.1, 5.3.2) over whole blocks: C_j = E(P_j ^
   * T_j) ^ T_j (D for decryption), T_(j+1) = T_j * alpha (5.2: the
   * tweak a little-endian 128-bit polynomial, reduced by x^128 + x^7 +
   * x^2 + x + 1 without a branch).  The tweaks of a batch go to a stack
   * buffer, wiped with the rest; all input of a batch is read before its
   * output is written, so IN == OUT works.  */
  static unsigned int
  xts_crypt (void *ctx, unsigned char *tweak, void *outv, const void *inv,
             size_t nblocks, int encrypt)
  {
    unsigned char *out = (unsigned char *) outv;
    const unsigned char *in = (const unsigned char *) inv;
    scratch s;
    const size_t nused = used (nblocks);
    alignas (64) unsigned char tbuf[16 * N];
    uint64_t lo, hi;
    memcpy (&lo, tweak, 8);
    memcpy (&hi, tweak + 8, 8);
    while (nblocks)
      {
        const size_t n = nblocks < N ? nblocks : N;
        for (size_t i = 0; i < n; i++)
          {
            const batch_v16 t = batch_v16_of (lo, hi);
            batch_store16 (tbuf + 16 * i, t);
            batch_store16 (s.tmp + 16 * i, batch_load16 (in + 16 * i) ^ t);
            const uint64_t carry = (uint64_t) ((int64_t) hi >> 63) & 0x87;
            hi = (hi << 1) | (lo >> 63);
            lo = (lo << 1) ^ carry;
          }
        if (encrypt)
          run<false> (ctx, s.tmp, s.tmp, n, s.pad);
        else
          run<true> (ctx, s.tmp, s.tmp, n, s.pad);
        for (size_t i = 0; i < n; i++)
          batch_xor16 (out + 16 * i, s.tmp + 16 * i, tbuf + 16 * i);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
      }
    memcpy (tweak, &lo, 8);
    memcpy (tweak + 8, &hi, 8);
    wipememory (tbuf, 16 * nused);
    return finish (s, nused, sizeof tbuf);
  }

  /* OCB (RFC 7253 4.2, 4.3) over whole blocks i = data_nblocks + 1, ...:
   * Offset_i = Offset_(i-1) ^ L_ntz(i) (the table index comes from the
   * public block counter), C_i = Offset_i ^ E(P_i ^ Offset_i), Checksum
   * ^= P_i (decryption: D, and the recovered P_i).  Offset in H->iv,
   * Checksum in H->ctr (cipher-ocb.h).  Returns the blocks left (none);
   * burns its own stack, below the slot's frame: the body's (not
   * inlined) holds the offsets and checksum, and on i386, short of
   * registers, blocks too.  */
  static size_t
  ocb_crypt (gcry_cipher_hd_t h, void *out, const void *in,
             size_t nblocks, int encrypt)
  {
    _gcry_burn_stack (ocb_crypt_body (h, out, in, nblocks, encrypt));
    return 0;
  }

  /* Frame of an OCB body beyond its buffers: spills, saved registers,
   * alignment.  */
  static constexpr unsigned int OCB_FRAME = 256;

  static __attribute__ ((noinline)) unsigned int
  ocb_crypt_body (gcry_cipher_hd_t h, void *outv, const void *inv,
                  size_t nblocks, int encrypt)
  {
    unsigned char *out = (unsigned char *) outv;
    const unsigned char *in = (const unsigned char *) inv;
    ocb_state *st = ocb_state_of (h);
    scratch s;
    const size_t nused = used (nblocks);
    alignas (64) unsigned char obuf[16 * N];
    uint64_t blkn = st->data_nblocks;
    while (nblocks)
      {
        const size_t n = nblocks < N ? nblocks : N;
        /* Offset and checksum as values within a batch, in memory
         * (H->iv, H->ctr) between batches: nothing chained is live
         * across the kernel call, so it stays in a register.  */
        batch_v16 o = batch_load16 (h->iv), cs = batch_load16 (h->ctr);
        for (size_t i = 0; i < n; i++)
          {
            const batch_v16 p = batch_load16 (in + 16 * i);
            o ^= batch_load16 (st->L[ocb_ntz (++blkn)]);
            batch_store16 (obuf + 16 * i, o);
            if (encrypt)
              cs ^= p;
            batch_store16 (s.tmp + 16 * i, p ^ o);
          }
        batch_store16 (h->iv, o);
        batch_store16 (h->ctr, cs);
        if (encrypt)
          run<false> (h->ctx, s.tmp, s.tmp, n, s.pad);
        else
          run<true> (h->ctx, s.tmp, s.tmp, n, s.pad);
        if (encrypt)
          for (size_t i = 0; i < n; i++)
            batch_store16 (out + 16 * i, batch_load16 (s.tmp + 16 * i)
                                         ^ batch_load16 (obuf + 16 * i));
        else
          {
            batch_v16 cd = batch_load16 (h->ctr);
            for (size_t i = 0; i < n; i++)
              {
                const batch_v16 c = batch_load16 (s.tmp + 16 * i)
                                    ^ batch_load16 (obuf + 16 * i);
                batch_store16 (out + 16 * i, c);
                cd ^= c;
              }
            batch_store16 (h->ctr, cd);
          }
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
      }
    st->data_nblocks = blkn;
    wipememory (obuf, 16 * nused);
    finish (s, nused);
    /* This frame, whatever the kernels' BURN.  */
    return chain::BURN + sizeof (scratch) + sizeof obuf + OCB_FRAME;
  }

  /* HASH (RFC 7253 4.1) over whole AAD blocks: Sum ^= E(A_i ^
   * Offset_i).  */
  static size_t
  ocb_auth (gcry_cipher_hd_t h, const void *abuf, size_t nblocks)
  {
    _gcry_burn_stack (ocb_auth_body (h, abuf, nblocks));
    return 0;
  }

  static __attribute__ ((noinline)) unsigned int
  ocb_auth_body (gcry_cipher_hd_t h, const void *abufv, size_t nblocks)
  {
    const unsigned char *abuf = (const unsigned char *) abufv;
    ocb_state *st = ocb_state_of (h);
    scratch s;
    const size_t nused = used (nblocks);
    uint64_t blkn = st->aad_nblocks;
    while (nblocks)
      {
        const size_t n = nblocks < N ? nblocks : N;
        batch_v16 o = batch_load16 (st->aad_offset);
        for (size_t i = 0; i < n; i++)
          {
            o ^= batch_load16 (st->L[ocb_ntz (++blkn)]);
            batch_store16 (s.tmp + 16 * i, batch_load16 (abuf + 16 * i) ^ o);
          }
        batch_store16 (st->aad_offset, o);
        run<false> (h->ctx, s.tmp, s.tmp, n, s.pad);
        batch_v16 cs = batch_load16 (st->aad_sum);
        for (size_t i = 0; i < n; i++)
          cs ^= batch_load16 (s.tmp + 16 * i);
        batch_store16 (st->aad_sum, cs);
        abuf += 16 * n;
        nblocks -= n;
      }
    st->aad_nblocks = blkn;
    finish (s, nused);
    return chain::BURN + sizeof (scratch) + OCB_FRAME;
  }

  /* CBC encryption (SP 800-38A 6.2): C_i = E(P_i ^ C_(i-1)), one block
   * per batch of the smallest kernel (or its crypt_one).  With CBC_MAC
   * every C_i goes to the first OUT block.  */
  static unsigned int
  cbc_enc (void *ctx, unsigned char *iv, void *outv, const void *inv,
           size_t nblocks, int cbc_mac)
  {
    unsigned char *out = (unsigned char *) outv;
    const unsigned char *in = (const unsigned char *) inv;
    scratch s;
    for (size_t i = 0; i < nblocks; i++)
      {
        batch_xor16 (iv, iv, in);
        chain::template crypt_single<false> (ctx, iv, iv, s.pad);
        memcpy (out, iv, 16);
        in += 16;
        if (!cbc_mac)
          out += 16;
      }
    return finish (s, 0);
  }

  /* CFB-128 encryption (SP 800-38A 6.3): C_i = E(C_(i-1)) ^ P_i.  */
  static unsigned int
  cfb_enc (void *ctx, unsigned char *iv, void *outv, const void *inv,
           size_t nblocks)
  {
    unsigned char *out = (unsigned char *) outv;
    const unsigned char *in = (const unsigned char *) inv;
    scratch s;
    for (size_t i = 0; i < nblocks; i++)
      {
        chain::template crypt_single<false> (ctx, iv, iv, s.pad);
        batch_xor16 (iv, iv, in);
        memcpy (out, iv, 16);
        in += 16;
        out += 16;
      }
    return finish (s, 0);
  }

  /* OFB (SP 800-38A 6.4): O_i = E(O_(i-1)), C_i = P_i ^ O_i.  */
  static unsigned int
  ofb_enc (void *ctx, unsigned char *iv, void *outv, const void *inv,
           size_t nblocks)
  {
    unsigned char *out = (unsigned char *) outv;
    const unsigned char *in = (const unsigned char *) inv;
    scratch s;
    for (size_t i = 0; i < nblocks; i++)
      {
        chain::template crypt_single<false> (ctx, iv, iv, s.pad);
        batch_xor16 (out, iv, in);
        in += 16;
        out += 16;
      }
    return finish (s, 0);
  }

  /* One block (the cipher_spec encrypt / decrypt shape) through the
   * smallest kernel.  */
  template <bool DECRYPT>
  static unsigned int
  crypt1 (void *ctx, unsigned char *out, const unsigned char *in)
  {
    alignas (64) unsigned char pad[16 * NMIN];
    memcpy (pad, in, 16);
    chain::template crypt_single<DECRYPT> (ctx, pad, pad, pad);
    memcpy (out, pad, 16);
    wipememory (pad, sizeof pad);
    CLEAR ();
    return chain::BURN + sizeof pad;
  }

  /* The bulk slots, and the single-block functions in *ENC1 / *DEC1.  */
  static void
  fill (cipher_bulk_ops *bulk, batch_block_fn *enc1, batch_block_fn *dec1)
  {
    fill_bulk (bulk);
    *enc1 = crypt1<false>;
    *dec1 = crypt1<true>;
  }

  static void
  fill_bulk (cipher_bulk_ops *bulk)
  {
    fill_parallel (bulk);
    bulk->cbc_enc = cbc_enc;
    bulk->cfb_enc = cfb_enc;
    bulk->ofb_enc = ofb_enc;
  }

  /* The slots whose blocks are independent only, for an algorithm whose
   * own single-block functions beat one batch of the smallest kernel
   * (Serpent): the chained modes then run on those.  */
  static void
  fill_parallel (cipher_bulk_ops *bulk)
  {
    bulk->ecb_crypt = ecb_crypt;
    bulk->cbc_dec = cbc_dec;
    bulk->cfb_dec = cfb_dec;
    bulk->ctr16be_enc = ctr16be_enc;
    bulk->ctr32le_enc = ctr32le_enc;
    bulk->xts_crypt = xts_crypt;
    bulk->ocb_crypt = ocb_crypt;
    bulk->ocb_auth = ocb_auth;
  }
};

/* Self-test of the chained slots a batch_modes table fills (cbc_enc
 * with and without CBC_MAC, cfb_enc, ofb_enc; cipher-selftest.cpp's
 * helpers cover the others): NB fixed blocks through BULK on CTX, in
 * place, against the same mode computed with SPEC's single-block
 * encrypt (SP 800-38A 6.2, 6.3, 6.4), output and final IV.  Returns
 * NULL or a static message.  */
static inline const char *
batch_selftest_chained (const cipher_spec *spec, void *ctx,
                        const cipher_bulk_ops *bulk)
{
  enum { NB = 5 };
  unsigned char data[16 * NB], want[16 * NB], iv[16], wiv[16];
  const char *err = NULL;
  for (int mode = 0; mode < 4 && !err; mode++)
    {
      for (int i = 0; i < 16 * NB; i++)
        data[i] = (unsigned char) (i * 29 + mode * 7 + 1);
      for (int i = 0; i < 16; i++)
        wiv[i] = iv[i] = (unsigned char) (i * 13 + mode);
      /* Reference, block by block.  */
      for (int b = 0; b < NB; b++)
        {
          unsigned char *w = want + 16 * b;
          const unsigned char *p = data + 16 * b;
          if (mode <= 1)        /* CBC, CBC-MAC */
            {
              batch_xor16 (wiv, wiv, p);
              spec->encrypt (ctx, wiv, wiv);
              memcpy (w, wiv, 16);
            }
          else if (mode == 2)   /* CFB */
            {
              spec->encrypt (ctx, wiv, wiv);
              batch_xor16 (wiv, wiv, p);
              memcpy (w, wiv, 16);
            }
          else                  /* OFB */
            {
              spec->encrypt (ctx, wiv, wiv);
              batch_xor16 (w, wiv, p);
            }
        }
      if (mode == 0)
        bulk->cbc_enc (ctx, iv, data, data, NB, 0);
      else if (mode == 1)
        bulk->cbc_enc (ctx, iv, data, data, NB, 1);
      else if (mode == 2)
        bulk->cfb_enc (ctx, iv, data, data, NB);
      else
        bulk->ofb_enc (ctx, iv, data, data, NB);
      if (mode == 1 ? memcmp (data, want + 16 * (NB - 1), 16)
                    : memcmp (data, want, sizeof want))
        err = "bulk CBC/CFB/OFB encryption differs from single blocks";
      else if (memcmp (iv, wiv, 16))
        err = "bulk CBC/CFB/OFB encryption: wrong final IV";
    }
  return err;
}

#endif /* GCIPHER_CIPHER_BATCH_MODES_H */
