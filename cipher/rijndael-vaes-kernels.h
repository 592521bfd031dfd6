/* rijndael-vaes-kernels.h - AES (FIPS-197) parallel-mode kernels over a
 * vector type, for the VAES paths.
 *
 * Included by rijndael-vaes-avx2.cpp (ymm, 2 blocks per register, built
 * with -mvaes -mavx2 ...) and rijndael-vaes-avx512.cpp (zmm, 4 blocks per
 * register, built with -mvaes -mavx512f ...): struct kernels, templated
 * over the vector traits (X1 / Y2 / Z4 of simd-x86.h: xmm, ymm, zmm),
 * the number of vectors per batch and the round count, so no kernel is
 * copied per key size or per ISA.  ECB, CBC decryption, CFB decryption
 * and CTR are the drivers of rijndael-x86-drivers.h (which the AES-NI
 * path instantiates on xmm too), in the batch order wide_first; this
 * file adds XTS and OCB, whose loops use what the wider registers have
 * (VPSLLVQ and carry-less multiplies for the tweaks, OCB offsets made
 * per register) and the entry points' stack wiping.  Everything here has
 * internal linkage (anonymous namespace): each including file gets its
 * own instance compiled with its own flags.
 *
 * Key material is the AES-NI schedule (rijndael-internal.h: FIPS-197 5.2
 * round keys and the equivalent-inverse-cipher keys of FIPS-197 5.3.5);
 * each round key is broadcast from its 16 bytes in the context to every
 * 128-bit lane when a batch reaches that round (VBROADCASTI128 /
 * VBROADCASTI32X4 with a memory operand), so no round key is kept in a
 * register between batches and i386 (8 vector registers) needs no spill.
 *
 * Shared tricks (as in rijndael-x86-drivers.h and rijndael-aesni.cpp):
 *  - the mode's XOR after the cipher (chaining value, keystream with the
 *    data, XTS tweak, OCB offset) is folded into the last round key, so it
 *    costs no extra step on the AES chain;
 *  - XTS tweaks and OCB offsets of a batch are parked in the output
 *    buffer during the rounds and come back as the last round's memory
 *    operand, instead of occupying registers or the stack;
 *  - a call runs full batches of N vectors, then what remains with 4, 2,
 *    1 vectors, then narrower vectors (a ymm, an xmm) for the last blocks.
 *
 * Nothing secret is spilled on purpose; the entry points clear the
 * vector registers (and leave the upper halves clean: no AVX-SSE
 * transition penalty for the caller) and return a burn depth of 0.
 */
#ifndef GCIPHER_RIJNDAEL_VAES_KERNELS_H
#define GCIPHER_RIJNDAEL_VAES_KERNELS_H

#include <config.h>
#include <stdint.h>
#include <string.h>
#include <immintrin.h>
#include <type_traits>
#include "rijndael-internal.h"
#include "cipher-ocb.h"
#include "rijndael-x86-drivers.h"

namespace {
namespace vaes {

using namespace aes_x86;

/* Park XTS tweaks / OCB offsets in the output buffer during the rounds
 * (16 or 8 vector registers: the batch's states fill them) or keep them
 * in registers (AVX-512: 32 registers hold states, tweaks and keys).  */
#ifdef __AVX512F__
constexpr bool PARK_IN_OUT = false;
#else
constexpr bool PARK_IN_OUT = true;
#endif

/* Stack burn depths (bytes) the entry points report.  GCC 12's output
 * was checked for spills: the ECB, CBC, CFB and CTR kernels put nothing
 * secret on the stack, on x86-64 and on i386 alike (i386's CTR frames
 * hold the public counter blocks and the addend and byte-order
 * constants, the others no vector register at all; so the 1 KiB burn
 * they had on i386 went: AES-128 ECB, CTR and CBC/CFB decryption of
 * 64 bytes 0.70-0.76 -> 1.27-1.37 of libgcrypt master built for i686,
 * 1 KiB 0.77-0.95 -> 1.07-1.21, AMD Zen 4).  The 512-bit XTS kernel
 * spills a few AES-256 round keys (frame at most 0x88 bytes), the
 * 512-bit OCB kernel round keys, offset constants and checksum lanes
 * (frame at most 0x408 bytes with the full batches' constants); the
 * 256-bit XTS kernel (carried tweaks) and OCB kernel spill within the
 * red zone and a frame of at most about 400 bytes.  Each depth covers
 * the frame, its 64-byte alignment, the saved registers and the red
 * zone.  i386's XTS and OCB kernels spill everywhere (frames at most
 * 0x34c bytes).  t-hygiene's StackBurnEveryPathEveryMode checks, on
 * every path and both targets, that no key byte is left below them.  */
#ifndef __x86_64__
constexpr unsigned int BURN_PLAIN = 0, BURN_XTS = 1024, BURN_OCB = 1024;
/* i386: XTS calls of fewer blocks go to the AES-NI path's (VEX build)
 * XTS, which needs no 1 KiB burn (xts_crypt).  */
constexpr size_t XTS_SHORT = 16;
#elif defined(__AVX512F__)
constexpr unsigned int BURN_PLAIN = 0, BURN_XTS = 384, BURN_OCB = 1344;
#else
constexpr unsigned int BURN_PLAIN = 0, BURN_XTS = 512, BURN_OCB = 1024;
#endif

/* Zero BYTES (a multiple of 32) of stack below the stack pointer with
 * ymm stores (the stack pointer is moved down over the area and back,
 * as _gcry_burn_stack does).  Called by an entry point right after a
 * kernel that is not inlined, whose frame (and red zone) lay below the
 * entry point's stack pointer: the same area _gcry_burn_stack would
 * wipe when given BYTES, but 16 stores cost about 3 ns where REP STOSB
 * costs about 12 ns on Zen 4 (a quarter of a 64-byte XTS or OCB call).
 * Clobbers ymm0 (the caller clears the registers afterwards).  */
#ifdef __x86_64__
#define VAES_SP "%%rsp"
#else
#define VAES_SP "%%esp"
#endif
template <unsigned int BYTES>
AESX86_INLINE void
burn_below_sp ()
{
  static_assert (BYTES % 32 == 0, "whole ymm stores");
  if constexpr (BYTES != 0)
    asm volatile ("vpxor %%xmm0, %%xmm0, %%xmm0\n\t"
                  "sub %0, " VAES_SP "\n\t"
                  ".set .Lvaes_burn_off, 0\n\t"
                  ".rept %c1\n\t"
                  "vmovdqu %%ymm0, .Lvaes_burn_off(" VAES_SP ")\n\t"
                  ".set .Lvaes_burn_off, .Lvaes_burn_off + 32\n\t"
                  ".endr\n\t"
                  "add %0, " VAES_SP
                  : : "i" (BYTES), "i" (BYTES / 32) : "xmm0", "memory");
}
#undef VAES_SP

/* Lane l: T (each lane, an XTS tweak as a 128-bit little-endian integer)
 * times alpha^(BASE + l) in GF(2^128) mod x^128 + x^7 + x^2 + x + 1
 * (IEEE 1619-2018 5.2), for 0 <= BASE + l <= 56: shift left by k bits,
 * the k bits shifted out of the top reduced by one carry-less multiply
 * with 0x87 into the low qword (their product has at most k + 8 bits).  */
template <class VT>
AESX86_INLINE typename VT::T
xts_mul_alpha (typename VT::T t, int base)
{
  int64_t sl[2 * VT::W], sr[2 * VT::W], p[2 * VT::W];
  AESX86_UNROLL
  for (int l = 0; l < VT::W; l++)
    {
      sl[2 * l] = sl[2 * l + 1] = base + l;
      sr[2 * l] = sr[2 * l + 1] = 64 - (base + l);
      p[2 * l] = 0x87;
      p[2 * l + 1] = 0;
    }
  const typename VT::T out = VT::srlv (t, VT::pairs (sr));
  return VT::xor_ (VT::xor_ (VT::sllv (t, VT::pairs (sl)), VT::bslli8 (out)),
                   VT::clmul01 (out, VT::pairs (p)));
}

/* T (each lane) times alpha^(8 * BYTES), 1 <= BYTES <= 7: as
 * xts_mul_alpha, the shift a byte shift of the whole lane.  (Moving
 * the carry with VPSHUFD and a high-qword XOR instead, to keep the
 * byte shuffle out of the AES issue slots, timed 5-10% slower.)  */
template <class VT, int BYTES>
AESX86_INLINE typename VT::T
xts_mul_alpha_bytes (typename VT::T t)
{
  int64_t p[2 * VT::W];
  AESX86_UNROLL
  for (int l = 0; l < VT::W; l++)
    {
      p[2 * l] = 0x87;
      p[2 * l + 1] = 0;
    }
  const typename VT::T top = VT::template srli64<64 - 8 * BYTES> (t);
  return VT::xor_ (VT::template bslli<BYTES> (t),
                   VT::clmul01 (top, VT::pairs (p)));
}


/* ---- The kernels ------------------------------------------------------
 * VT: widest vector traits; NVEC: registers per full batch (lanes =
 * NVEC * VT::W blocks); CLEAR: clears the vector registers (and their
 * upper halves) at the end of each bulk call.  */
template <class VT, int NVEC, void (*CLEAR) ()>
struct kernels : drivers<VT, NVEC, CLEAR, wide_first, BURN_PLAIN>
{
  typedef drivers<VT, NVEC, CLEAR, wide_first, BURN_PLAIN> base;
  using typename base::keys_t;
  using base::enc_keys;
  using base::dec_keys;

  /* ---- XTS (IEEE 1619-2018 5.3) ---------------------------------------
   * C_j = E(P_j ^ T_j) ^ T_j (decryption: D).  The first full batch
   * makes its tweaks from T broadcast: register i lane l holds T *
   * alpha^(iW + l), each by one shift-and-reduce (xts_mul_alpha),
   * independent of the others.  Full batches then carry their tweak
   * registers over: each times alpha^(lanes), lanes being a multiple of
   * 8, is a byte shift and one carry-less multiply (xts_mul_alpha_bytes;
   * the compiler keeps them in registers or, with 16 registers, partly
   * on the stack, hence BURN_XTS).  The shorter steps at the end start
   * again from T.  With 16 or 8 registers, or when AVX-512's full
   * batches keep the round keys in registers (up to AES-192), the
   * tweaks are parked in the output blocks during the rounds (each input
   * block is read before its output slot is written, so IN == OUT
   * works) and come back as the memory operand of the last round, whose
   * key carries the final XOR.  */
  template <unsigned int ROUNDS, bool DECRYPT>
  static void
  xts_t (const RIJNDAEL_context *ctx, unsigned char *tweak,
         unsigned char *out, const unsigned char *in, size_t nblocks)
  {
    keys_t k = DECRYPT ? dec_keys (ctx) : enc_keys (ctx);
    __m128i t = X1::load (tweak);
    typename VT::T twc[NVEC];
    bool have = false;
    /* Full batches' round keys in registers: with 32 registers, for up
     * to 12 rounds (AES-256's 15 keys beside the 8 states and 8 carried
     * tweaks spilled in GCC 12's output, so they are broadcast per
     * batch).  Loaded only if there is a full batch.  */
    constexpr bool KR = KEYS_IN_REGS;
    typename VT::T kr[KR ? ROUNDS + 1 : 1];
    if (KR && nblocks >= NVEC * VT::W)
      {
        AESX86_UNROLL
        for (unsigned int r = 0; r <= ROUNDS; r++)
          kr[r] = VT::key (k[r]);
      }

    wide_first::run<VT, NVEC> (nblocks, [&] (auto vt, auto lanes)
                           __attribute__ ((always_inline))
      {
        typedef decltype (vt) V;
        constexpr int N = decltype (lanes)::value;
        constexpr int S = 16 * V::W;
        static_assert (N * V::W <= 56, "xts_mul_alpha range");
        typename V::T x[N], tw[N];
        constexpr bool full = std::is_same_v<V, VT> && N == NVEC;
        constexpr bool kreg = full && KR;
        /* Park the tweaks in OUT when registers are short: 16 or 8 of
         * them, or the round keys taking 32 - 16.  */
        constexpr bool park = PARK_IN_OUT || kreg;
        typename V::T k0;
        if constexpr (kreg)
          k0 = kr[0];
        else
          k0 = V::key (k[0]);
        if constexpr (full)
          {
            if (!have)
              {
                const typename V::T tb = V::bcast (t);
                AESX86_UNROLL
                for (int i = 0; i < N; i++)
                  twc[i] = xts_mul_alpha<V> (tb, i * V::W);
                have = true;
              }
          }
        const typename V::T tb = V::bcast (t);
        AESX86_UNROLL
        for (int i = 0; i < N; i++)
          {
            if constexpr (full)
              tw[i] = twc[i];
            else
              tw[i] = xts_mul_alpha<V> (tb, i * V::W);
            x[i] = V::xor_ (V::xor_ (V::load (in + S * i), k0), tw[i]);
            if (park)
              V::store (out + S * i, tw[i]);
          }
        if constexpr (full)
          {
            AESX86_UNROLL
            for (int i = 0; i < N; i++)
              twc[i] = xts_mul_alpha_bytes<V, N * V::W / 8> (twc[i]);
            t = V::lane0 (twc[0]);
          }
        else
          t = xts_mul_alpha<X1> (t, N * V::W);
        /* Parked tweaks come back from OUT, not from registers or the
         * stack.  */
        if (park)
          asm volatile ("" : : : "memory");
        const typename V::T kl
          = rounds_but_last<V, ROUNDS, N, DECRYPT, kreg> (k, kr, x);
        AESX86_UNROLL
        for (int i = 0; i < N; i++)
          V::store (out + S * i,
                    last_round<V, DECRYPT> (
                      x[i], V::xor_ (park ? V::load (out + S * i) : tw[i],
                                     kl)));
        in += S * N;
        out += S * N;
      });
    X1::store (tweak, t);
  }

  /* Not inlined: xts_crypt wipes their frames (burn_below_sp).  */
  template <unsigned int ROUNDS>
  static __attribute__ ((noinline)) unsigned int
  xts_enc (const RIJNDAEL_context *ctx, unsigned char *tweak,
           unsigned char *out, const unsigned char *in, size_t nblocks)
  {
    xts_t<ROUNDS, false> (ctx, tweak, out, in, nblocks);
    return 0;
  }

  template <unsigned int ROUNDS>
  static __attribute__ ((noinline)) unsigned int
  xts_dec (const RIJNDAEL_context *ctx, unsigned char *tweak,
           unsigned char *out, const unsigned char *in, size_t nblocks)
  {
    xts_t<ROUNDS, true> (ctx, tweak, out, in, nblocks);
    return 0;
  }

  /* The kernel's stack (BURN_XTS bytes) is wiped here with vector
   * stores, so the mode has nothing to burn (returns 0).  */
  static unsigned int
  xts_crypt (void *ctx, unsigned char *tweak, void *out, const void *in,
             size_t nblocks, int encrypt)
  {
#ifndef __x86_64__
    if (nblocks < XTS_SHORT)
      return _gcry_aes_aesni_avx_xts_crypt (ctx, tweak, out, in, nblocks,
                                            encrypt);
#endif
    const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;
    unsigned char *o = (unsigned char *)out;
    const unsigned char *i = (const unsigned char *)in;
    if (encrypt)
      RIJNDAEL_DISPATCH (c, xts_enc, c, tweak, o, i, nblocks);
    else
      RIJNDAEL_DISPATCH (c, xts_dec, c, tweak, o, i, nblocks);
    burn_below_sp<BURN_XTS> ();
    CLEAR ();
    return 0;
  }

  /* ---- OCB (RFC 7253 4.1-4.3) -----------------------------------------
   * Offset_i = Offset_{i-1} ^ L_ntz(i).  A register of W blocks starts at
   * a block index b that is a multiple of W (single blocks first until it
   * is; run_batches keeps it), so for its blocks b+1 .. b+W
   *     Offset_{b+m} = Offset_b ^ P_m    (m < W),   P_m = L_ntz(1) ^ ..
   *                                                       ^ L_ntz(m),
   *     Offset_{b+W} = Offset_b ^ P_{W-1} ^ L_ntz(b+W),
   * P_m being the same for every register (ntz(b + m) = ntz(m) for m <
   * W).  So a step's first register is Offset_b broadcast ^ a constant ^
   * L_ntz(b+W) in the last lane, and each further one is the previous
   * one ^ a value made of two table entries (ocb_offsets): the serial
   * chain from register to register is one XOR.  The table index comes
   * from the public block counter.  */
  /* P_m (m < W) of the register width of V; PRE gets lane l =
   * P_min(l+1, W-1), the return value is P_{W-1}.  */
  template <class V>
  static AESX86_INLINE __m128i
  ocb_prefix (const unsigned char (*L)[OCB_BLOCK_LEN], typename V::T *pre)
  {
    __m128i p[V::W > 1 ? V::W : 2];
    p[0] = _mm_setzero_si128 ();
    for (int m = 1; m < V::W; m++)
      p[m] = _mm_xor_si128 (p[m - 1], X1::load (L[ocb_ntz ((uint64_t)m)]));
    __m128i q[V::W];
    for (int l = 0; l < V::W; l++)
      q[l] = p[l + 1 < V::W ? l + 1 : V::W - 1];
    *pre = V::set (q);
    return p[V::W - 1];
  }

  /* Offsets of register I of a step, covering blocks BLKN+1 .. BLKN+W
   * (BLKN a multiple of W).  Register 0 is made from OFF (= Offset_BLKN)
   * broadcast; register I > 0 from register I-1 (PREV), whose lanes
   * differ from its own by P_{W-1} ^ L_ntz(BLKN) in lanes 0 .. W-2 and
   * by P_{W-1} ^ L_ntz(BLKN+W) in lane W-1: two table entries broadcast
   * straight from memory, one blend and two XORs, only the last on the
   * chain from register to register.  Lane W-1 of the step's last
   * register is the next Offset.  */
  template <class V>
  static AESX86_INLINE typename V::T
  ocb_offsets (int i, typename V::T prev, typename V::T pre,
               typename V::T plastb, const unsigned char (*L)[OCB_BLOCK_LEN],
               __m128i off, uint64_t blkn)
  {
    if (i == 0)
      return V::xor_ (V::xor_ (V::bcast (off), pre),
                      V::last_lane (X1::load (L[ocb_ntz (blkn + V::W)])));
    return V::xor_ (prev,
                    V::xor_ (plastb,
                             V::blend_last (
                               V::bcast_mem (L[ocb_ntz (blkn)]),
                               V::bcast_mem (L[ocb_ntz (blkn + V::W)]))));
  }

  /* The widest type's prefix constants and checksum lanes are made once
   * per call (with 16 registers they are partly spilled: BURN_OCB).  */
  template <class V>
  static constexpr bool ocb_keep = std::is_same_v<V, VT>;

  /* Full batches of NVEC registers starting at a block index BLKN that
   * is a multiple of B = NVEC * W (b below).  Then ocb_offsets' table
   * entries are the same for every batch but one: register i > 0 takes
   * L_ntz(b+iW) = L_ntz(iW) in lanes 0..W-2 and L_ntz(b+(i+1)W) =
   * L_ntz((i+1)W) in lane W-1 for i < NVEC-1, and register 0 takes
   * L_ntz(b+W) = L_ntz(W); only the last register's last lane takes
   * L_ntz(b+B), which varies.  So with the constants
   *     C_0 = pre ^ [0, .., 0, L_ntz(W)],
   *     C_i = P_{W-1} ^ [L_ntz(iW), .., L_ntz(iW), L_ntz((i+1)W)],
   *     C_{NVEC-1} = P_{W-1} ^ [L_ntz((NVEC-1)W), .., 0]
   * (made once per call), a batch's offsets are Offset_b broadcast ^
   * C_0, then each the previous ^ C_i, and the last lane of the last
   * register ^ L_ntz(b+B): one table load per batch, where ocb_offsets
   * broadcasts two per register (broadcasts take AES issue slots on Zen
   * 4/5).  The next batch's Offset_b broadcast is the last lane of the
   * last register spread.  Round keys: broadcast once (in registers or
   * on the stack, BURN_OCB) with 32 registers, else per round.  OUT, IN,
   * NBLOCKS, BLKN, OFF and the checksum lanes WSUM are advanced.  */
  template <unsigned int ROUNDS, bool DECRYPT, bool AUTH = false>
  static AESX86_INLINE void
  ocb_full_batches (keys_t k, const unsigned char (*L)[OCB_BLOCK_LEN],
                    typename VT::T pre, typename VT::T plastb, __m128i &off,
                    typename VT::T &wsum, uint64_t &blkn, unsigned char *&out,
                    const unsigned char *&in, size_t &nblocks)
  {
    /* AUTH (RFC 7253 4.1 HASH): Sum ^= E(A_i ^ Offset_i), no output; the
     * offsets are not needed after the first round, so never parked.  */
    constexpr bool park = PARK_IN_OUT && !AUTH;
    typedef VT V;
    constexpr int N = NVEC;
    constexpr int S = 16 * V::W;
    const typename V::T zero = V::bcast (_mm_setzero_si128 ());
    typename V::T cst[N];
    cst[0] = V::xor_ (pre, V::last_lane (X1::load (L[ocb_ntz (V::W)])));
    AESX86_UNROLL
    for (int i = 1; i < N; i++)
      cst[i] = V::xor_ (plastb,
                        V::blend_last (V::bcast_mem (L[ocb_ntz ((uint64_t)
                                                                i * V::W)]),
                                       i + 1 < N
                                         ? V::bcast_mem (L[ocb_ntz (
                                             (uint64_t) (i + 1) * V::W)])
                                         : zero));
    typename V::T kr[KEYS_IN_REGS ? ROUNDS + 1 : 1];
    if (KEYS_IN_REGS)
      {
        AESX86_UNROLL
        for (unsigned int r = 0; r <= ROUNDS; r++)
          kr[r] = V::key (k[r]);
      }
    typename V::T offb = V::bcast (off);
    for (; nblocks >= (size_t) N * V::W; nblocks -= N * V::W)
      {
        typename V::T x[N], o[N];
        const typename V::T k0 = KEYS_IN_REGS ? kr[0] : V::key (k[0]);
        typename V::T vsum = zero;
        /* The checksum of the batch's plaintext first, each block read
         * again for the rounds below: with one load, GCC 12 sums the
         * checksum after the rounds, keeping the N plaintext registers
         * live through them (spilled, with 16 ymm registers).  */
        if (!DECRYPT && !AUTH)
          {
            AESX86_UNROLL
            for (int i = 0; i < N; i++)
              vsum = V::xor_ (vsum, V::load (in + S * i));
          }
        AESX86_UNROLL
        for (int i = 0; i < N; i++)
          {
            o[i] = V::xor_ (i ? o[i - 1] : offb, cst[i]);
            if (i == N - 1)
              o[i] = V::xor_ (o[i], V::last_lane (X1::load (
                                      L[ocb_ntz (blkn + N * V::W)])));
            const typename V::T p = V::load (in + S * i);
            x[i] = V::xor_ (V::xor_ (p, k0), o[i]);
            if (park)
              V::store (out + S * i, o[i]);
          }
        blkn += N * V::W;
        offb = V::bcast_last (o[N - 1]);
        if (park)
          asm volatile ("" : : : "memory");
        const typename V::T kl
          = rounds_but_last<V, ROUNDS, N, DECRYPT, KEYS_IN_REGS> (k, kr, x);
        AESX86_UNROLL
        for (int i = 0; i < N; i++)
          {
            if (AUTH)
              {
                vsum = V::xor_ (vsum, V::enclast (x[i], kl));
                continue;
              }
            const typename V::T r
              = last_round<V, DECRYPT> (
                  x[i], V::xor_ (park ? V::load (out + S * i) : o[i], kl));
            if (DECRYPT)
              vsum = V::xor_ (vsum, r);
            V::store (out + S * i, r);
          }
        wsum = V::xor_ (wsum, vsum);
        in += S * N;
        if (!AUTH)
          out += S * N;
      }
    off = V::lane0 (offb);
  }

  /* Full blocks: C_i = Offset_i ^ E(P_i ^ Offset_i), Checksum ^= P_i
   * (decryption: D, the recovered P_i into the checksum).  The offset is
   * c->iv, the checksum c->ctr (cipher-ocb.h).  Offsets are parked in
   * the output blocks, as XTS tweaks are.  */
  template <unsigned int ROUNDS, bool DECRYPT>
  static __attribute__ ((noinline)) void
  ocb_crypt_t (gcry_cipher_hd_t c, unsigned char *out,
               const unsigned char *in, size_t nblocks)
  {
    const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c->ctx;
    ocb_state *s = ocb_state_of (c);
    keys_t k = DECRYPT ? dec_keys (ctx) : enc_keys (ctx);
    const unsigned char (*L)[OCB_BLOCK_LEN] = s->L;
    uint64_t blkn = s->data_nblocks;
    /* Offset constants of the widest registers, once per call.  */
    typename VT::T wpre;
    const typename VT::T wplastb = VT::bcast (ocb_prefix<VT> (L, &wpre));
    __m128i off = X1::load (c->iv), sum = X1::load (c->ctr);
    /* Checksum lanes of the full batches, folded once at the end.  */
    typename VT::T wsum = VT::bcast (_mm_setzero_si128 ());

    auto step = [&] (auto vt, auto lanes) __attribute__ ((always_inline))
      {
        typedef decltype (vt) V;
        constexpr int N = decltype (lanes)::value;
        constexpr int S = 16 * V::W;
        typename V::T pre, plastb;
        if constexpr (ocb_keep<V>)
          {
            pre = wpre;
            plastb = wplastb;
          }
        else
          plastb = V::bcast (ocb_prefix<V> (L, &pre));
        typename V::T ov = pre;
        typename V::T x[N], o[N];
        const typename V::T k0 = V::key (k[0]);
        typename V::T vsum = V::bcast (_mm_setzero_si128 ());
        AESX86_UNROLL
        for (int i = 0; i < N; i++)
          {
            ov = ocb_offsets<V> (i, ov, pre, plastb, L, off, blkn);
            blkn += V::W;
            o[i] = ov;
            const typename V::T p = V::load (in + S * i);
            if (!DECRYPT)
              vsum = V::xor_ (vsum, p);
            x[i] = V::xor_ (V::xor_ (p, k0), o[i]);
            if (PARK_IN_OUT)
              V::store (out + S * i, o[i]);
          }
        off = V::last (ov);
        /* Parked offsets come back from OUT, not from registers or the
         * stack.  */
        if (PARK_IN_OUT)
          asm volatile ("" : : : "memory");
        middle_rounds<V, ROUNDS, N, DECRYPT> (k, x);
        const typename V::T kl = V::key (k[ROUNDS]);
        AESX86_UNROLL
        for (int i = 0; i < N; i++)
          {
            const typename V::T r
              = last_round<V, DECRYPT> (
                  x[i], V::xor_ (PARK_IN_OUT ? V::load (out + S * i) : o[i],
                                 kl));
            if (DECRYPT)
              vsum = V::xor_ (vsum, r);
            V::store (out + S * i, r);
          }
        if constexpr (ocb_keep<V>)
          wsum = VT::xor_ (wsum, vsum);
        else
          sum = _mm_xor_si128 (sum, V::fold (vsum));
        in += S * N;
        out += S * N;
      };
    for (; nblocks && blkn % VT::W; nblocks--)
      step (X1 (), lanes_c<1> ());
    /* Registers one at a time up to a block index that is a multiple of
     * a full batch (NVEC registers), then full batches with constant
     * offset steps (ocb_batch_offsets), then the rest.  */
    for (; nblocks >= VT::W && blkn % (NVEC * VT::W); nblocks -= VT::W)
      step (VT (), lanes_c<1> ());
    if (nblocks >= NVEC * VT::W)
      ocb_full_batches<ROUNDS, DECRYPT> (k, L, wpre, wplastb, off, wsum, blkn,
                                         out, in, nblocks);
    wide_first::run<VT, NVEC> (nblocks, step);
    X1::store (c->iv, off);
    X1::store (c->ctr, _mm_xor_si128 (sum, VT::fold (wsum)));
    s->data_nblocks = blkn;
  }

  template <unsigned int ROUNDS>
  static unsigned int
  ocb_enc (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
           size_t nblocks)
  {
    ocb_crypt_t<ROUNDS, false> (c, out, in, nblocks);
    return 0;
  }

  template <unsigned int ROUNDS>
  static unsigned int
  ocb_dec (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
           size_t nblocks)
  {
    ocb_crypt_t<ROUNDS, true> (c, out, in, nblocks);
    return 0;
  }

  /* The OCB slots burn their own stack (cipher-internal.h); the kernels
   * are not inlined here, so their frames lie below this function's
   * stack pointer, where burn_below_sp wipes.  */
  static size_t
  ocb_crypt (gcry_cipher_hd_t c, void *out, const void *in, size_t nblocks,
             int encrypt)
  {
    unsigned char *o = (unsigned char *)out;
    const unsigned char *i = (const unsigned char *)in;
    if (encrypt)
      RIJNDAEL_DISPATCH (c->ctx, ocb_enc, c, o, i, nblocks);
    else
      RIJNDAEL_DISPATCH (c->ctx, ocb_dec, c, o, i, nblocks);
    burn_below_sp<BURN_OCB> ();
    CLEAR ();
    return 0;
  }

  /* HASH (RFC 7253 4.1) over full AAD blocks: Sum ^= E(A_i ^ Offset_i),
   * the offsets as in ocb_crypt.  */
  template <unsigned int ROUNDS>
  static __attribute__ ((noinline)) unsigned int
  ocb_auth_t (gcry_cipher_hd_t c, const unsigned char *abuf, size_t nblocks)
  {
    const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c->ctx;
    ocb_state *s = ocb_state_of (c);
    keys_t k = enc_keys (ctx);
    const unsigned char (*L)[OCB_BLOCK_LEN] = s->L;
    uint64_t blkn = s->aad_nblocks;
    typename VT::T wpre;
    const typename VT::T wplastb = VT::bcast (ocb_prefix<VT> (L, &wpre));
    __m128i off = X1::load (s->aad_offset), sum = X1::load (s->aad_sum);

    auto step = [&] (auto vt, auto lanes) __attribute__ ((always_inline))
      {
        typedef decltype (vt) V;
        constexpr int N = decltype (lanes)::value;
        constexpr int S = 16 * V::W;
        typename V::T pre, plastb;
        if constexpr (ocb_keep<V>)
          {
            pre = wpre;
            plastb = wplastb;
          }
        else
          plastb = V::bcast (ocb_prefix<V> (L, &pre));
        typename V::T ov = pre;
        typename V::T x[N];
        const typename V::T k0 = V::key (k[0]);
        AESX86_UNROLL
        for (int i = 0; i < N; i++)
          {
            ov = ocb_offsets<V> (i, ov, pre, plastb, L, off, blkn);
            blkn += V::W;
            x[i] = V::xor_ (V::xor_ (V::load (abuf + S * i), k0), ov);
          }
        off = V::last (ov);
        middle_rounds<V, ROUNDS, N, false> (k, x);
        const typename V::T kl = V::key (k[ROUNDS]);
        typename V::T vsum = V::enclast (x[0], kl);
        AESX86_UNROLL
        for (int i = 1; i < N; i++)
          vsum = V::xor_ (vsum, V::enclast (x[i], kl));
        sum = _mm_xor_si128 (sum, V::fold (vsum));
        abuf += S * N;
      };
    for (; nblocks && blkn % VT::W; nblocks--)
      step (X1 (), lanes_c<1> ());
    /* As ocb_crypt_t: batch-aligned full batches (ocb_full_batches).  */
    for (; nblocks >= VT::W && blkn % (NVEC * VT::W); nblocks -= VT::W)
      step (VT (), lanes_c<1> ());
    if (nblocks >= NVEC * VT::W)
      {
        typename VT::T wsum = VT::bcast (_mm_setzero_si128 ());
        unsigned char *none = nullptr;
        ocb_full_batches<ROUNDS, false, true> (k, L, wpre, wplastb, off, wsum,
                                               blkn, none, abuf, nblocks);
        sum = _mm_xor_si128 (sum, VT::fold (wsum));
      }
    wide_first::run<VT, NVEC> (nblocks, step);
    X1::store (s->aad_offset, off);
    X1::store (s->aad_sum, sum);
    s->aad_nblocks = blkn;
    return 0;
  }

  static size_t
  ocb_auth (gcry_cipher_hd_t c, const void *abuf, size_t nblocks)
  {
    RIJNDAEL_DISPATCH (c->ctx, ocb_auth_t, c, (const unsigned char *)abuf,
                   nblocks);
    burn_below_sp<BURN_OCB> ();
    CLEAR ();
    return 0;
  }

  /* The AES-NI slots (serial modes, CCM, GCM, ...) of the "aesni-avx"
   * path (VAES implies AVX), then the parallel ones of this width.  */
  static void
  fill_bulk (cipher_bulk_ops *bulk)
  {
    _gcry_aes_aesni_avx_fill_bulk (bulk);
    bulk->ecb_crypt = base::ecb_crypt;
    bulk->cbc_dec = base::cbc_dec;
    bulk->cfb_dec = base::cfb_dec;
    bulk->ctr16be_enc = base::ctr16be_enc;
    bulk->ctr32le_enc = base::ctr32le_enc;
    bulk->xts_crypt = xts_crypt;
    bulk->ocb_crypt = ocb_crypt;
    bulk->ocb_auth = ocb_auth;
  }
};

} // namespace vaes
} // namespace

#endif /* GCIPHER_RIJNDAEL_VAES_KERNELS_H */
