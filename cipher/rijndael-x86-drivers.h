/* rijndael-x86-drivers.h - AES (FIPS-197) parallel-mode drivers over the
 * x86 vector traits, one per kind of mode loop for xmm, ymm and zmm.
 *
 * ECB, CBC decryption, CFB decryption and CTR (128-bit big-endian and
 * 32-bit little-endian counter): one driver each (struct drivers),
 * templated over the vector traits of simd-x86.h (VT: X1 / Y2 / Z4,
 * W = 1, 2, 4 blocks per register), the registers per full batch, the
 * batch order and the round count.  Instantiated by rijndael-aesni.cpp
 * (X1: AES-NI, SSE4.1, 12 blocks per batch on x86-64 and 4 on i386,
 * the batch order wide_last) and, through rijndael-vaes-kernels.h (which
 * adds XTS and OCB), by rijndael-vaes-avx2.cpp (Y2) and
 * rijndael-vaes-avx512.cpp (Z4), batch order wide_first.  Everything has
 * internal linkage (anonymous namespace): each including file gets its
 * own instance compiled with its own flags.
 *
 * Key material is the AES-NI schedule (rijndael-internal.h: FIPS-197
 * 5.2 round keys and the equivalent-inverse-cipher keys of FIPS-197
 * 5.3.5); each round key is read (xmm) or broadcast to every 128-bit
 * lane (VBROADCASTI128 / VBROADCASTI32X4) from its 16 bytes in the
 * context when a batch reaches that round, so no round key is kept in a
 * register between batches (but see KEYS_IN_REGS) and i386 (8 vector
 * registers) needs no spill for them.  The mode's XOR after the cipher
 * (chaining value, keystream with the data) is folded into the last
 * round key, so it costs no extra step on the AES chain.
 *
 * Where xmm and the wider registers want different code, the driver
 * chooses by the register type V of a step (V::W == 1, or the ISA the
 * file is built for), never by the path: store_key, CBC's chaining
 * value, CTR's addend table and ctr16be_carry say why.  So the VAES
 * paths' xmm steps (their last blocks) run the same code as the AES-NI
 * path's batches.  The Zvkned (RISC-V) and ARMv8-CE paths keep their
 * own drivers (other ISAs and register models).
 */
#ifndef GCIPHER_RIJNDAEL_X86_DRIVERS_H
#define GCIPHER_RIJNDAEL_X86_DRIVERS_H

#include <config.h>
#include <stdint.h>
#include <string.h>
#include <immintrin.h>
#include <type_traits>
#include "rijndael-internal.h"
#include "simd-x86.h"

namespace {
namespace aes_x86 {

#define AESX86_UNROLL _Pragma ("GCC unroll 16")
#define AESX86_INLINE inline __attribute__ ((always_inline))
using simd_x86::X1;
#ifdef __AVX2__
using simd_x86::Y2;
#endif
#ifdef __AVX512F__
using simd_x86::Z4;
#endif

/* Keep the round keys of the full CTR batches in registers for the whole
 * call (AVX-512: the 8 states, up to 15 keys and the counter fit the 32
 * registers with none spilled, checked in GCC 12's output), instead of
 * one broadcast per round per batch; with 16 or 8 registers they are
 * broadcast from the context.  */
#ifdef __AVX512F__
constexpr bool KEYS_IN_REGS = true;
#else
constexpr bool KEYS_IN_REGS = false;
#endif

/* ---- Batching -------------------------------------------------------- */

template <int N>
using lanes_c = std::integral_constant<int, N>;

/* Run STEP (VT (), lanes_c<N> ()) over NBLOCKS blocks, where one step
 * processes N registers of VT::W blocks and advances its own pointers
 * (the VAES paths):
 * full batches of NVEC registers of the widest type VT, then the rest
 * with 4, 2 and 1 registers, then (for the blocks short of a register)
 * a ymm and an xmm.  Every step of width w starts at a block index that
 * is a multiple of w if the first one does (OCB relies on it).  */
struct wide_first
{
template <class VT, int NVEC, class Step>
static AESX86_INLINE void
run (size_t nblocks, Step &&step)
{
  constexpr size_t WB = VT::W;
  for (; nblocks >= NVEC * WB; nblocks -= NVEC * WB)
    step (VT (), lanes_c<NVEC> ());
  if constexpr (NVEC > 4)
    if (nblocks >= 4 * WB)
      {
        step (VT (), lanes_c<4> ());
        nblocks -= 4 * WB;
      }
  if constexpr (NVEC > 2)
    if (nblocks >= 2 * WB)
      {
        step (VT (), lanes_c<2> ());
        nblocks -= 2 * WB;
      }
  if constexpr (NVEC > 1)
    if (nblocks >= WB)
      {
        step (VT (), lanes_c<1> ());
        nblocks -= WB;
      }
#ifdef __AVX2__
  if constexpr (WB > 2)
    if (nblocks >= 2)
      {
        step (Y2 (), lanes_c<1> ());
        nblocks -= 2;
      }
#endif
  if constexpr (WB > 1)
    for (; nblocks; nblocks--)
      step (X1 (), lanes_c<1> ());
}
};

/* Run STEP (VT (), lanes_c<N> ()) over NBLOCKS blocks, VT of one block
 * per register (xmm): first the remainder NBLOCKS % NVEC (a batch of 8
 * and one of 4 where they fit, then single blocks), then full NVEC
 * batches, so the call ends with a wide batch whose rounds keep both AES
 * pipes busy to the end (the AES-NI path).  */
struct wide_last
{
template <class VT, int NVEC, class Step>
static AESX86_INLINE void
run (size_t nblocks, Step &&step)
{
  static_assert (VT::W == 1, "xmm only");
  /* A call shorter than one batch (the common small message) divides
   * nothing.  */
  size_t full = 0, rest = nblocks;
  if (nblocks >= NVEC)
    {
      full = nblocks / NVEC;
      rest = nblocks - full * NVEC;
    }

  if constexpr (NVEC > 8)
    if (rest >= 8)
      {
        step (VT (), lanes_c<8> ());
        rest -= 8;
      }
  if constexpr (NVEC > 4)
    if (rest >= 4)
      {
        step (VT (), lanes_c<4> ());
        rest -= 4;
      }
  for (; rest; rest--)
    step (VT (), lanes_c<1> ());
  for (; full; full--)
    step (VT (), lanes_c<NVEC> ());
}
};

/* Rounds 1..ROUNDS-1 (AESENC, or AESDEC with DECRYPT) on N registers, one
 * round key broadcast per round for the whole batch.  The caller added
 * round key 0 and does the last round.  */
template <class VT, unsigned int ROUNDS, int N, bool DECRYPT>
AESX86_INLINE void
middle_rounds (const unsigned char (*k)[16], typename VT::T *x)
{
  AESX86_UNROLL
  for (unsigned int r = 1; r < ROUNDS; r++)
    {
      const typename VT::T rk = VT::key (k[r]);
      AESX86_UNROLL
      for (int i = 0; i < N; i++)
        x[i] = DECRYPT ? VT::dec (x[i], rk) : VT::enc (x[i], rk);
    }
}

/* middle_rounds with the round keys already broadcast (KR[r], r =
 * 1..ROUNDS-1, in registers).  */
template <class VT, unsigned int ROUNDS, int N, bool DECRYPT>
AESX86_INLINE void
middle_rounds_k (const typename VT::T *kr, typename VT::T *x)
{
  AESX86_UNROLL
  for (unsigned int r = 1; r < ROUNDS; r++)
    {
      AESX86_UNROLL
      for (int i = 0; i < N; i++)
        x[i] = DECRYPT ? VT::dec (x[i], kr[r]) : VT::enc (x[i], kr[r]);
    }
}

/* The middle rounds of a batch, with the round keys broadcast once
 * (KREG: KR[r], of type VT::T then) or per round from K; returns the
 * last round key broadcast.  */
template <class VT, unsigned int ROUNDS, int N, bool DECRYPT, bool KREG,
          class KT>
AESX86_INLINE typename VT::T
rounds_but_last (const unsigned char (*k)[16], const KT *kr,
                 typename VT::T *x)
{
  if constexpr (KREG)
    {
      middle_rounds_k<VT, ROUNDS, N, DECRYPT> (kr, x);
      return kr[ROUNDS];
    }
  else
    {
      middle_rounds<VT, ROUNDS, N, DECRYPT> (k, x);
      return VT::key (k[ROUNDS]);
    }
}

template <class VT, bool DECRYPT>
AESX86_INLINE typename VT::T
last_round (typename VT::T x, typename VT::T key)
{
  return DECRYPT ? VT::declast (x, key) : VT::enclast (x, key);
}

/* The last round key K (KL: broadcast already) as the operand of block
 * i's XOR or last round in a loop that stores each block as it goes.
 * xmm: read from the context again for each block, a memory operand of
 * PXOR / AESENCLAST that holds no register (the stores may alias the
 * context, so the compiler cannot hoist it anyway); wider registers: KL,
 * broadcast once before the loop (a broadcast is an instruction of its
 * own).  */
template <class V>
AESX86_INLINE typename V::T
store_key (const unsigned char *k, typename V::T kl)
{
  if constexpr (V::W == 1)
    return V::key (k);
  else
    return kl;
}

/* The last round of N registers whose output is E(X_i) ^ IN_i (CFB
 * decryption, CTR): the XOR with the data folded into the last round key
 * (AESENCLAST (X_i, IN_i ^ K_ROUNDS), FIPS-197 5.1.4 makes AddRoundKey a
 * plain XOR), block i stored to OUT + 16 * W * i.  KLAST is K_ROUNDS in
 * the context, KL the same broadcast (see store_key).  IN == OUT works:
 * each IN_i is read just before OUT_i is written.  */
template <class V, int N>
AESX86_INLINE void
enclast_xor_store (const unsigned char *klast, typename V::T kl,
                   const typename V::T *x, const unsigned char *in,
                   unsigned char *out)
{
  constexpr int S = 16 * V::W;
  AESX86_UNROLL
  for (int i = 0; i < N; i++)
    V::store (out + S * i,
              V::enclast (x[i], V::xor_ (V::load (in + S * i),
                                        store_key<V> (klast, kl))));
}

/* Lane l of the result: (0, (BASE + l) << 56), the 64-bit addend that
 * steps byte 15 of a big-endian counter block by BASE + l.  */
template <class VT>
AESX86_INLINE typename VT::T
ctr_byte15_addend (int base)
{
  int64_t v[2 * VT::W];
  AESX86_UNROLL
  for (int l = 0; l < VT::W; l++)
    {
      v[2 * l] = 0;
      v[2 * l + 1] = (int64_t)((uint64_t)(base + l) << 56);
    }
  return VT::pairs (v);
}

/* Block m (0 <= m < 32): qwords (0, m << 56), the addend that steps
 * byte 15 of a big-endian counter block by m (ctr_byte15_addend as a
 * table in memory: a full CTR batch reads its N addends as memory
 * operands, so they take no registers beside the round keys).  */
struct ctr_addend_table
{
  alignas (64) int64_t q[2 * 32];
};

constexpr ctr_addend_table
make_ctr_addends ()
{
  ctr_addend_table t {};
  for (int m = 0; m < 32; m++)
    {
      t.q[2 * m] = 0;
      t.q[2 * m + 1] = (int64_t)((uint64_t)m << 56);
    }
  return t;
}

constexpr ctr_addend_table ctr_addends = make_ctr_addends ();

/* Lane l of the result: qwords (BASE + l, 0).  With add32, the addend
 * that steps a 32-bit little-endian counter in bytes 0..3 by BASE + l,
 * wrapping mod 2^32 and leaving bytes 4..15 alone; with add64, the one
 * that steps a byte-reversed counter block's low 64 bits.  */
template <class VT>
AESX86_INLINE typename VT::T
lane_addend (int base)
{
  int64_t v[2 * VT::W];
  AESX86_UNROLL
  for (int l = 0; l < VT::W; l++)
    {
      v[2 * l] = base + l;
      v[2 * l + 1] = 0;
    }
  return VT::pairs (v);
}

/* Lane l: the 128-bit little-endian integer X (each lane) plus BASE + l,
 * carried into the high qword, wrapping at 2^128.  */
template <class VT>
AESX86_INLINE typename VT::T
add128_lanes (typename VT::T x, int base)
{
  const typename VT::T a = lane_addend<VT> (base);
  const typename VT::T s = VT::add64 (x, a);
  /* Low qword wrapped iff it is now below the addend; the high qword of
   * the addend is 0, so its compare is always false.  */
  return VT::sub64 (s, VT::bslli8 (VT::lt64u (s, a)));
}

#ifndef __x86_64__
inline uint64_t
load_be64 (const unsigned char *p)
{
  uint64_t v;
  memcpy (&v, p, 8);
  return __builtin_bswap64 (v);
}
#endif

/* The 128-bit value (HI, LO) of the big-endian counter block C (memory
 * order).  */
inline void
ctr_value (__m128i c, uint64_t *hi, uint64_t *lo)
{
#ifdef __x86_64__
  *hi = __builtin_bswap64 ((uint64_t)_mm_cvtsi128_si64 (c));
  *lo = __builtin_bswap64 ((uint64_t)_mm_extract_epi64 (c, 1));
#else
  alignas (16) unsigned char b[16];
  _mm_store_si128 ((__m128i *)b, c);
  *hi = load_be64 (b);
  *lo = load_be64 (b + 8);
#endif
}

/* The counter block of the 128-bit value (HI, LO), big-endian, as it
 * sits in memory.  */
inline __m128i
ctr_block (uint64_t hi, uint64_t lo)
{
#ifdef __x86_64__
  return _mm_set_epi64x ((long long)__builtin_bswap64 (lo),
                         (long long)__builtin_bswap64 (hi));
#else
  uint64_t a = __builtin_bswap64 (lo), b = __builtin_bswap64 (hi);
  return _mm_set_epi32 ((int)(a >> 32), (int)a, (int)(b >> 32), (int)b);
#endif
}

/* ctr16be_carry's counters when the low 64 bits of C do not wrap in the
 * step (C's bytes 8..15 as a number at most 2^64 - 1 - N W, the caller
 * knows): byte-reversed, one 64-bit add, reversed back, with no carry
 * to compute.  The steps where byte 15 passes 0xff take this, one in
 * 256 / (N W) with a counter that has not been near 2^64; their
 * counters cost three vector operations per register instead of the
 * carry's seven.  */
template <class V, int N>
AESX86_INLINE __m128i
ctr16be_low64 (__m128i c, typename V::T k0, typename V::T *x)
{
  const __m128i ci = X1::bswap (c);
  const typename V::T cb = V::bcast (ci);
  AESX86_UNROLL
  for (int i = 0; i < N; i++)
    x[i] = V::xor_ (V::bswap (V::add64 (cb, lane_addend<V> (i * V::W))),
                    k0);
  return X1::bswap (X1::add64 (ci, lane_addend<X1> (N * V::W)));
}

/* Bytes 8..15 of the big-endian counter block C (memory order) as a
 * number.  */
inline uint64_t
ctr_low64 (__m128i c)
{
  uint64_t hi, lo;
  ctr_value (c, &hi, &lo);
  return lo;
}

/* C + N (C a 128-bit big-endian counter block, memory order), wrapping
 * at 2^128.  */
inline __m128i
ctr16be_add (__m128i c, unsigned int n)
{
  uint64_t hi, lo;
  ctr_value (c, &hi, &lo);
  if (lo <= UINT64_MAX - n)
    return X1::bswap (X1::add64 (X1::bswap (c), lane_addend<X1> ((int) n)));
  return ctr_block (hi + 1, lo + n);
}

/* X[i] = K0 ^ the counter blocks C + i W .. C + i W + W - 1 (C a 128-bit
 * big-endian counter block, memory order) with the carry through all 16
 * bytes, wrapping at 2^128, for i < N; returns C + N W.  In the vector
 * registers: byte-reversed, added with the carry from the low qword into
 * the high one (add128_lanes), reversed back.  Without SSE4.2 (the
 * AES-NI file: no PCMPGTQ for the carry) in two 64-bit general
 * registers.  */
template <class V, int N>
AESX86_INLINE __m128i
ctr16be_carry (__m128i c, typename V::T k0, typename V::T *x)
{
#ifdef __SSE4_2__
  const __m128i ci = X1::bswap (c);
  const typename V::T cb = V::bcast (ci);
  AESX86_UNROLL
  for (int i = 0; i < N; i++)
    x[i] = V::xor_ (V::bswap (add128_lanes<V> (cb, i * V::W)), k0);
  return X1::bswap (add128_lanes<X1> (ci, N * V::W));
#else
  static_assert (V::W == 1, "xmm only");
  uint64_t hi, lo;
  ctr_value (c, &hi, &lo);
  AESX86_UNROLL
  for (int i = 0; i < N; i++)
    {
      uint64_t l = lo + (uint64_t)i;
      x[i] = V::xor_ (ctr_block (hi + (l < lo), l), k0);
    }
  uint64_t l = lo + (uint64_t)N;
  return ctr_block (hi + (l < lo), l);
#endif
}

/* ---- The drivers -----------------------------------------------------
 * VT: widest vector traits; NVEC: registers per full batch (lanes =
 * NVEC * VT::W blocks); CLEAR: clears the vector registers (and their
 * upper halves) at the end of each bulk call; BATCHES: the batch order
 * (wide_first or wide_last); BURN: the stack burn depth the entry
 * points report (the kernels' frames, rijndael-vaes-kernels.h; 0 for
 * xmm, which spills nothing).  The entry points (ecb_crypt, cbc_dec,
 * cfb_dec, ctr16be_enc, ctr32le_enc) have the bulk slots' signatures.  */
template <class VT, int NVEC, void (*CLEAR) (), class BATCHES,
          unsigned int BURN>
struct drivers
{
  typedef const unsigned char (*keys_t)[16];

  static keys_t enc_keys (const RIJNDAEL_context *ctx)
  { return ctx->keys.ni.enc; }
  static keys_t dec_keys (const RIJNDAEL_context *ctx)
  { return ctx->keys.ni.dec; }

  /* ---- ECB ---------------------------------------------------------- */
  template <unsigned int ROUNDS, bool DECRYPT>
  static void
  ecb_t (const RIJNDAEL_context *ctx, unsigned char *out,
         const unsigned char *in, size_t nblocks)
  {
    keys_t k = DECRYPT ? dec_keys (ctx) : enc_keys (ctx);
    BATCHES::template run<VT, NVEC> (nblocks, [&] (auto vt, auto lanes)
                           __attribute__ ((always_inline))
      {
        typedef decltype (vt) V;
        constexpr int N = decltype (lanes)::value;
        constexpr int S = 16 * V::W;
        typename V::T x[N];
        const typename V::T k0 = V::key (k[0]);
        AESX86_UNROLL
        for (int i = 0; i < N; i++)
          x[i] = V::xor_ (V::load (in + S * i), k0);
        middle_rounds<V, ROUNDS, N, DECRYPT> (k, x);
        const typename V::T kl = V::key (k[ROUNDS]);
        AESX86_UNROLL
        for (int i = 0; i < N; i++)
          V::store (out + S * i, last_round<V, DECRYPT> (x[i], store_key<V> (k[ROUNDS], kl)));
        in += S * N;
        out += S * N;
      });
  }

  template <unsigned int ROUNDS>
  static unsigned int
  ecb_enc (const RIJNDAEL_context *ctx, unsigned char *out,
           const unsigned char *in, size_t nblocks)
  {
    ecb_t<ROUNDS, false> (ctx, out, in, nblocks);
    return BURN;
  }

  template <unsigned int ROUNDS>
  static unsigned int
  ecb_dec (const RIJNDAEL_context *ctx, unsigned char *out,
           const unsigned char *in, size_t nblocks)
  {
    ecb_t<ROUNDS, true> (ctx, out, in, nblocks);
    return BURN;
  }

  static unsigned int
  ecb_crypt (void *ctx, void *out, const void *in, size_t nblocks,
             int encrypt)
  {
    const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;
    unsigned char *o = (unsigned char *)out;
    const unsigned char *i = (const unsigned char *)in;
    unsigned int r
      = encrypt ? RIJNDAEL_DISPATCH (c, ecb_enc, c, o, i, nblocks)
                : RIJNDAEL_DISPATCH (c, ecb_dec, c, o, i, nblocks);
    CLEAR ();
    return r;
  }

  /* ---- CBC decryption (SP 800-38A 6.2) -------------------------------
   * P_i = D(C_i) ^ C_{i-1}, the XOR folded into the last round key.  The
   * chaining blocks of register j are C_{jW-1} .. C_{jW+W-2}: for j > 0
   * an unaligned load from the input, for j = 0 the previous batch's last
   * block shifted in.  Registers are written last to first, so with
   * IN == OUT every C_{i-1} is read before P_{i-1} overwrites it.  */
  template <unsigned int ROUNDS>
  static unsigned int
  cbc_dec_t (const RIJNDAEL_context *ctx, unsigned char *iv,
             unsigned char *out, const unsigned char *in, size_t nblocks)
  {
    keys_t k = dec_keys (ctx);
    __m128i prev = X1::load (iv);

    BATCHES::template run<VT, NVEC> (nblocks, [&] (auto vt, auto lanes)
                           __attribute__ ((always_inline))
      {
        typedef decltype (vt) V;
        constexpr int N = decltype (lanes)::value;
        constexpr int S = 16 * V::W;
        /* PREVK: register 0's chaining blocks [C_{-1}, C_0 .. C_{W-2}]
         * with the last round key; LAST: the batch's last block, the
         * next batch's C_{-1}.  Wider registers make both before the
         * rounds, while C_0 .. is loaded for shift_in; xmm (C_{-1}
         * alone) after them, so only C_{-1}, not both, holds a register
         * through the rounds beside the 12 states and the round key
         * (the AES-NI path's code).  */
        constexpr bool late = V::W == 1;
        typename V::T x[N], prevk;
        __m128i last;
        const typename V::T k0 = V::key (k[0]);
        const typename V::T c0 = V::load (in);
        if constexpr (!late)
          prevk = V::xor_ (V::shift_in (c0, prev), V::key (k[ROUNDS]));
        x[0] = V::xor_ (c0, k0);
        AESX86_UNROLL
        for (int i = 1; i < N; i++)
          x[i] = V::xor_ (V::load (in + S * i), k0);
        if constexpr (!late)
          last = X1::load (in + S * N - 16);
        middle_rounds<V, ROUNDS, N, true> (k, x);
        if constexpr (late)
          last = X1::load (in + S * N - 16);
        const typename V::T kl = V::key (k[ROUNDS]);
        AESX86_UNROLL
        for (int i = N - 1; i > 0; i--)
          V::store (out + S * i,
                    V::declast (x[i], V::xor_ (V::load (in + S * i - 16),
                                             store_key<V> (k[ROUNDS], kl))));
        if constexpr (late)
          prevk = V::xor_ (V::bcast (prev), V::key (k[ROUNDS]));
        V::store (out, V::declast (x[0], prevk));
        prev = last;
        in += S * N;
        out += S * N;
      });
    X1::store (iv, prev);
    return BURN;
  }

  static unsigned int
  cbc_dec (void *ctx, unsigned char *iv, void *out, const void *in,
           size_t nblocks)
  {
    unsigned int r = RIJNDAEL_DISPATCH (ctx, cbc_dec_t,
                                    (const RIJNDAEL_context *)ctx, iv,
                                    (unsigned char *)out,
                                    (const unsigned char *)in, nblocks);
    CLEAR ();
    return r;
  }

  /* ---- CFB-128 decryption (SP 800-38A 6.3) ---------------------------
   * P_i = C_i ^ E(C_{i-1}), the XOR with C_i folded into the last round
   * key.  All cipher inputs of a batch are loaded before any block is
   * written, and C_i is read just before P_i overwrites it, so IN == OUT
   * works in block order.  */
  template <unsigned int ROUNDS>
  static unsigned int
  cfb_dec_t (const RIJNDAEL_context *ctx, unsigned char *iv,
             unsigned char *out, const unsigned char *in, size_t nblocks)
  {
    keys_t k = enc_keys (ctx);
    __m128i prev = X1::load (iv);

    BATCHES::template run<VT, NVEC> (nblocks, [&] (auto vt, auto lanes)
                           __attribute__ ((always_inline))
      {
        typedef decltype (vt) V;
        constexpr int N = decltype (lanes)::value;
        constexpr int S = 16 * V::W;
        typename V::T x[N];
        const typename V::T k0 = V::key (k[0]);
        x[0] = V::xor_ (V::shift_in (V::load (in), prev), k0);
        AESX86_UNROLL
        for (int i = 1; i < N; i++)
          x[i] = V::xor_ (V::load (in + S * i - 16), k0);
        prev = X1::load (in + S * N - 16);
        middle_rounds<V, ROUNDS, N, false> (k, x);
        const typename V::T kl = V::key (k[ROUNDS]);
        enclast_xor_store<V, N> (k[ROUNDS], kl, x, in, out);
        in += S * N;
        out += S * N;
      });
    X1::store (iv, prev);
    return BURN;
  }

  static unsigned int
  cfb_dec (void *ctx, unsigned char *iv, void *out, const void *in,
           size_t nblocks)
  {
    unsigned int r = RIJNDAEL_DISPATCH (ctx, cfb_dec_t,
                                    (const RIJNDAEL_context *)ctx, iv,
                                    (unsigned char *)out,
                                    (const unsigned char *)in, nblocks);
    CLEAR ();
    return r;
  }

  /* ---- CTR, 128-bit big-endian counter (SP 800-38A 6.5, B.1) ----------
   * The counter block C stays in an xmm register (memory byte order) for
   * the whole call.  Byte 15 is the least significant byte of the counter
   * and the most significant byte of each lane's high qword, so while
   * byte 15 + (blocks of the step) does not pass 0xff, block m of the
   * step is C broadcast plus m << 56 in the high qword: one add per
   * register, no byte shuffle.  Otherwise (about one step in 256 / lanes,
   * decided by the public counter only) the counters are made from C
   * byte-reversed with one 64-bit add (ctr16be_low64), or, where the low
   * 64 bits wrap in the step, as a 128-bit integer with the carry through
   * all 16 bytes, wrapping at 2^128 (ctr16be_carry).  The keystream XOR
   * is folded into the last round key.  Full batches of ymm and zmm
   * registers read their addends from ctr_addends as memory operands
   * and, with 32 registers, keep the round keys in registers for the
   * whole call: fewer vector ops per batch beside the AES rounds (about
   * 3.5% of CTR's time at 16 KiB on Zen 4).  */
  template <unsigned int ROUNDS>
  static unsigned int
  ctr16be_t (const RIJNDAEL_context *ctx, unsigned char *ctr,
             unsigned char *out, const unsigned char *in, size_t nblocks)
  {
    keys_t k = enc_keys (ctx);
    __m128i c = X1::load (ctr);
    unsigned int low = ctr[15];        /* Byte 15 of C, kept in step.  */
    /* Full batches' round keys (KEYS_IN_REGS; loaded only if there is
     * a full batch, so a short call does not pay for them) and addend
     * table.  */
    typename VT::T kr[KEYS_IN_REGS ? ROUNDS + 1 : 1];
    if (KEYS_IN_REGS && nblocks >= NVEC * VT::W)
      {
        AESX86_UNROLL
        for (unsigned int r = 0; r <= ROUNDS; r++)
          kr[r] = VT::key (k[r]);
      }
    static_assert (NVEC * VT::W <= 32, "ctr_addends size");
    const int64_t *addends = ctr_addends.q;

    BATCHES::template run<VT, NVEC> (nblocks, [&] (auto vt, auto lanes)
                           __attribute__ ((always_inline))
      {
        typedef decltype (vt) V;
        constexpr int N = decltype (lanes)::value;
        constexpr int S = 16 * V::W;
        constexpr int NB = N * V::W;
        constexpr bool full = std::is_same_v<V, VT> && N == NVEC;
        constexpr bool kreg = full && KEYS_IN_REGS;
        typename V::T x[N];
        typename V::T k0;
        if constexpr (kreg)
          k0 = kr[0];
        else
          k0 = V::key (k[0]);
        if (__builtin_expect (low <= 0x100u - NB, 1))
          {
            const typename V::T cb = V::bcast (c);
            if constexpr (full && V::W > 1)
              {
                /* The table pointer made opaque, so the compiler reads
                 * the addends as memory operands rather than hoisting N
                 * constants into registers.  (xmm: the two-operand
                 * PADDQ overwrites its destination, so each addend is
                 * loaded into a register either way; the constants
                 * below cost no more.)  */
                asm ("" : "+r" (addends));
                AESX86_UNROLL
                for (int i = 0; i < N; i++)
                  x[i] = V::xor_ (V::add64 (cb, V::load (addends
                                                         + 2 * V::W * i)),
                                  k0);
              }
            else
              {
                AESX86_UNROLL
                for (int i = 0; i < N; i++)
                  x[i] = V::xor_ (V::add64 (cb, ctr_byte15_addend<V> (i * V::W)),
                                  k0);
              }
            /* A step that ends just below a multiple of 256 carries
             * out of byte 15 only for the next counter (one step in
             * 256 / NB when the counter starts at a multiple of 16).  */
            if (__builtin_expect (low != 0x100u - NB, 1))
              c = X1::add64 (c, ctr_byte15_addend<X1> (NB));
            else
              c = ctr16be_add (c, NB);
          }
        else if (__builtin_expect (ctr_low64 (c) <= UINT64_MAX - NB, 1))
          c = ctr16be_low64<V, N> (c, k0, x);
        else
          c = ctr16be_carry<V, N> (c, k0, x);
        low = (low + NB) & 0xffu;
        const typename V::T kl
          = rounds_but_last<V, ROUNDS, N, false, kreg> (k, kr, x);
        enclast_xor_store<V, N> (k[ROUNDS], kl, x, in, out);
        in += S * N;
        out += S * N;
      });
    X1::store (ctr, c);
    return BURN;
  }

  static unsigned int
  ctr16be_enc (void *ctx, unsigned char *ctr, void *out, const void *in,
               size_t nblocks)
  {
    unsigned int r = RIJNDAEL_DISPATCH (ctx, ctr16be_t,
                                    (const RIJNDAEL_context *)ctx, ctr,
                                    (unsigned char *)out,
                                    (const unsigned char *)in, nblocks);
    CLEAR ();
    return r;
  }

  /* ---- CTR, 32-bit little-endian counter (RFC 8452 4, GCM-SIV) -------
   * Bytes 0..3 of the counter block C are a little-endian counter
   * incremented mod 2^32, bytes 4..15 stay as they are.  That counter is
   * dword 0 of each 128-bit lane, so block m of a step is C broadcast
   * plus m in dword 0 of its lane (one 32-bit add per register); the
   * add wraps by itself and touches no other dword, so unlike ctr16be
   * there is no carry path and no branch on the counter.  The keystream
   * XOR is folded into the last round key; CTR ends as the next unused
   * counter.  */
  template <unsigned int ROUNDS>
  static unsigned int
  ctr32le_t (const RIJNDAEL_context *ctx, unsigned char *ctr,
             unsigned char *out, const unsigned char *in, size_t nblocks)
  {
    keys_t k = enc_keys (ctx);
    __m128i c = X1::load (ctr);

    BATCHES::template run<VT, NVEC> (nblocks, [&] (auto vt, auto lanes)
                           __attribute__ ((always_inline))
      {
        typedef decltype (vt) V;
        constexpr int N = decltype (lanes)::value;
        constexpr int S = 16 * V::W;
        constexpr int NB = N * V::W;
        typename V::T x[N];
        const typename V::T k0 = V::key (k[0]);
        const typename V::T cb = V::bcast (c);
        AESX86_UNROLL
        for (int i = 0; i < N; i++)
          x[i] = V::xor_ (V::add32 (cb, lane_addend<V> (i * V::W)), k0);
        c = X1::add32 (c, lane_addend<X1> (NB));
        middle_rounds<V, ROUNDS, N, false> (k, x);
        const typename V::T kl = V::key (k[ROUNDS]);
        enclast_xor_store<V, N> (k[ROUNDS], kl, x, in, out);
        in += S * N;
        out += S * N;
      });
    X1::store (ctr, c);
    return BURN;
  }

  static unsigned int
  ctr32le_enc (void *ctx, unsigned char *ctr, void *out, const void *in,
               size_t nblocks)
  {
    unsigned int r = RIJNDAEL_DISPATCH (ctx, ctr32le_t,
                                    (const RIJNDAEL_context *)ctx, ctr,
                                    (unsigned char *)out,
                                    (const unsigned char *)in, nblocks);
    CLEAR ();
    return r;
  }

};

} // namespace aes_x86
} // namespace

#endif /* GCIPHER_RIJNDAEL_X86_DRIVERS_H */
