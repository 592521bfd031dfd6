/* cipher-gcm-intel-vaes-kernel.h - the stitched VAES CTR + VPCLMULQDQ
 * GHASH kernel of GCM (NIST SP 800-38D 6.4 GHASH, 6.5 GCTR), written
 * once over the vector width.
 *
 * No include guard: cipher-gcm-intel-vaes-avx512.cpp and
 * cipher-gcm-intel-vaes-avx2.cpp include this file inside their own
 * namespace that defines the traits struct V (512-bit or 256-bit
 * registers), each built with its width's ISA flags, so every
 * instantiation is compiled for exactly its instructions.  V is the
 * width's simd-x86.h traits (Z4 or Y2: T, W 16-byte blocks per T,
 * load/store, xor_, zero, add32, bcast (a shuffle: only outside the
 * group loop), enclast, first_lane, lane0) with this kernel's own:
 *
 *   REGS                  counter registers per group (8: W * REGS
 *                         blocks per group, G = 32 or 16)
 *   load_a                aligned load (the broadcast round keys)
 *   bswap                 per 128-bit lane, with the shared mask
 *   aes_round (x, k)      a middle AES round of the REGS registers with
 *                         the round key at K
 *   prep (p, fold, yz, d, dk)  the blocks at P byte-reversed (D, YZ
 *                         XORed in when FOLD) and D's 64-bit halves
 *                         XORed (DK, the Karatsuba operand)
 *   mul (d, dk, p, q, lo, mid, hi)  the Karatsuba products of D with
 *                         the powers at P (halves XORed at Q)
 *   xor3 (a, b, c)        A ^= B ^ C
 *   reduce_lanes (lo, mid, hi)  each lane's Karatsuba sums folded and
 *                         reduced to 128 bits
 *   hxor (v)              XOR of all lanes (128 bits)
 *   ctr_offsets ()        per-lane counter offsets (0, 1, ...)
 *   ctr_next (c)          C plus the step between registers (an asm:
 *                         left to itself the compiler makes one constant
 *                         per register and spills them)
 *   ctr_group (c)         C plus the step between groups (same asm)
 *   ctr_be_add (c, j)     C plus W * J in the last byte of every
 *                         lane (same asm; see the counter below)
 *   cleanup ()            clear the vector registers
 *
 * (aes_round, prep, mul and xor3 are ordered asm statements with 512-bit
 * registers, so the schedule below is the one the CPU sees) and the
 * enclosing file the key layout (vpclmul_key: hp[i] = H^(64-i) x^-1,
 * hkp[i] its halves XORed) and the 128-bit byte-reversal mask.
 *
 * A group: the counter registers go through the AES rounds (independent
 * registers hide VAESENC's latency) while the GHASH products of one
 * group of text (the previous group's output when encrypting, this
 * group's input when decrypting) with its powers of H are formed between
 * the rounds; the sums of two groups are reduced once (hash_mode below).
 *
 * What limits it, measured on the development machine (AMD Zen 5,
 * family 1Ah): VAESENC issues two per cycle with a latency of 4, so the
 * 8 registers just keep the AES unit busy; VPCLMULQDQ issues one per two
 * cycles whatever the width, beside the AES unit: the 24 products of a
 * 32-block group take 48 cycles, more than the group's AES-128 rounds
 * (40) and less than its AES-256 rounds (56).  Cross-byte shuffles
 * (VPSHUFB, VBROADCASTI32X4, VSHUFI64X2, VEXTRACTI32X4) take AES issue
 * slots (~0.4 cycle each), and every other vector instruction takes a
 * share of the same four pipes.  So the group does as little around
 * the AES and carry-less work as it can:
 *
 *  - the round keys are broadcast once per call into a stack array and
 *    loaded from there (a plain load) each round;
 *  - the counter is kept byte-reversed per lane (inc32 of SP 800-38D 6.2
 *    is then a dword add that wraps by itself), and turned into counter
 *    blocks with one byte reversal per group: when the low byte b of the
 *    group's first counter leaves room for the whole group (b + G <= 256,
 *    seven groups in eight with G = 32) adding k < G to the big-endian
 *    32-bit counter adds k to its last byte alone, which is a dword add
 *    of k << 24 on the reversed-back block; otherwise every register is
 *    reversed on its own (the counter is public, so this branch is
 *    too);
 *  - Karatsuba products (three VPCLMULQDQ per register, not four), two
 *    registers' products added with one VPTERNLOG per sum;
 *  - the sums are reduced lane by lane (reduce_lanes) before the lanes
 *    are folded, so the fold is one XOR of lanes instead of three.
 *
 * The hash input itself still needs one byte reversal per register.
 */

#ifndef GCM_SP
#ifdef __x86_64__
#define GCM_SP "%%rsp"
#else
#define GCM_SP "%%esp"
#endif
#endif

constexpr size_t GROUP_BLOCKS = V::W * V::REGS;
constexpr size_t GROUP_BYTES = 16 * GROUP_BLOCKS;
static_assert (2 * GROUP_BLOCKS <= 64, "key area holds H^1..H^64");

/* How a group's text enters the hash.  The running value Y_prev and the
 * blocks X_1..X_n of a run of groups combine as (SP 800-38D 6.4)
 *   Y = Y_prev H^n + X_1 H^n + X_2 H^(n-1) + ... + X_n H,
 * so one reduction serves n = G blocks (HASH_ONE) or n = 2G blocks, a
 * pair of groups: the first (HASH_FIRST) multiplies its blocks by
 * H^2G..H^(G+1) and leaves its sums unreduced, the second (HASH_SECOND)
 * adds its blocks times H^G..H^1 and reduces.  Y_prev enters by XOR into
 * the first block of HASH_ONE and HASH_FIRST (it then meets H^n).  With
 * pairs the dependency chain through Y (fold, products, reduction, lane
 * fold: about 35 cycles of latency) has two groups of AES work to hide
 * under instead of one, and half the reductions are done.  */
enum hash_mode { HASH_NONE, HASH_ONE, HASH_FIRST, HASH_SECOND };

/* The three Karatsuba products of one register (V::mul).  */
struct prod
{
  typename V::T lo, mid, hi;
};

/* Register B of a group of text at HASHIN made ready for its products:
 * D the blocks byte-reversed (as they are for POLYVAL, SIV: see the
 * head of this file) with Y XORed into the first block when FOLD, DK
 * D's 64-bit halves XORed (the Karatsuba operand).  */
template <bool FOLD, bool SIV>
inline __attribute__ ((always_inline)) void
hash_prep (const unsigned char *hashin, int b, __m128i y, typename V::T &d,
           typename V::T &dk)
{
  V::prep (hashin + 16 * V::W * b, !SIV, FOLD, V::first_lane (y), d, dk);
}

/* The products of register B (prepared as D, DK) with its powers: those
 * of H^G..H^1, or of H^2G..H^(G+1) for the first group of a pair.  */
template <int MODE>
inline __attribute__ ((always_inline)) prod
hash_mul (const vpclmul_key *k, int b, typename V::T d, typename V::T dk)
{
  constexpr size_t base = 64 - (MODE == HASH_FIRST ? 2 : 1) * GROUP_BLOCKS;
  const typename V::T *hp
    = reinterpret_cast<const typename V::T *> (k->hp + base);
  const typename V::T *hk
    = reinterpret_cast<const typename V::T *> (k->hkp + base);
  prod r;
  V::mul (d, dk, hp + b, hk + b, r.lo, r.mid, r.hi);
  return r;
}

/* Two registers' products into the sums: one three-way XOR per sum.  */
inline __attribute__ ((always_inline)) void
acc2 (const prod &a, const prod &b, typename V::T &lo, typename V::T &mid,
      typename V::T &hi)
{
  V::xor3 (lo, a.lo, b.lo);
  V::xor3 (mid, a.mid, b.mid);
  V::xor3 (hi, a.hi, b.hi);
}

/* The hash step of MODE for a group of text at HASHIN with no AES work
 * beside it.  */
template <int MODE, bool SIV>
inline __attribute__ ((always_inline)) void
hash_group (const vpclmul_key *k, const unsigned char *hashin, __m128i &y,
            typename V::T &lo, typename V::T &mid, typename V::T &hi)
{
  typedef typename V::T T;
  static_assert (V::REGS % 2 == 0, "registers hashed in pairs");
  if (MODE != HASH_SECOND)
    lo = mid = hi = V::zero ();
  for (int b = V::REGS - 1; b >= 0; b -= 2)
    {
      T d0, dk0, d1, dk1;
      hash_prep<false, SIV> (hashin, b, y, d0, dk0);
      if (b - 1 == 0 && MODE != HASH_SECOND)
        hash_prep<true, SIV> (hashin, b - 1, y, d1, dk1);
      else
        hash_prep<false, SIV> (hashin, b - 1, y, d1, dk1);
      acc2 (hash_mul<MODE> (k, b, d0, dk0), hash_mul<MODE> (k, b - 1, d1, dk1),
            lo, mid, hi);
    }
  if (MODE != HASH_FIRST)
    y = V::hxor (V::reduce_lanes (lo, mid, hi));
}

/* Whole groups of text (GROUP_BLOCKS blocks each) as one step of the
 * counter and hash: RK the round keys broadcast to every lane (ROUNDS + 1
 * vectors), CTR the byte-reversed counter vector of the group's first
 * register (lane i holding counter + i), C32 the low 32 bits of the
 * group's first counter, Y the running GHASH value and LO, MID, HI
 * the unreduced sums, updated as MODE says with the group of text at
 * HASHIN.  */
template <unsigned int ROUNDS, int MODE, bool SIV>
inline __attribute__ ((always_inline)) void
ctr_ghash_group (const typename V::T *rk, const vpclmul_key *k,
                 typename V::T &ctr, uint32_t &c32, __m128i &y,
                 unsigned char *out, const unsigned char *in,
                 const unsigned char *hashin, typename V::T &lo,
                 typename V::T &mid, typename V::T &hi)
{
  typedef typename V::T T;
  T x[V::REGS];
  const T k0 = V::load_a (rk);
  if (SIV)
    {
      /* The counter blocks as they are, the 32-bit counter in bytes
       * 0..3 (RFC 8452 4): a dword add, wrapping by itself.  */
      _Pragma ("GCC unroll 16")
      for (int j = 0; j < V::REGS; j++)
        {
          x[j] = V::xor_ (ctr, k0);
          ctr = V::ctr_next (ctr);
        }
    }
  else if ((c32 & 0xff) <= 256 - GROUP_BLOCKS)
    {
      /* No carry out of the last byte anywhere in the group.  */
      const T cb = V::bswap (ctr);
      _Pragma ("GCC unroll 16")
      for (int j = 0; j < V::REGS; j++)
        x[j] = V::xor_ (V::ctr_be_add (cb, j), k0);
      ctr = V::ctr_group (ctr);
    }
  else
    {
      _Pragma ("GCC unroll 16")
      for (int j = 0; j < V::REGS; j++)
        {
          x[j] = V::xor_ (V::bswap (ctr), k0);
          ctr = V::ctr_next (ctr);
        }
    }
  c32 += GROUP_BLOCKS;
  if (MODE == HASH_ONE || MODE == HASH_FIRST)
    lo = mid = hi = V::zero ();
  /* The hash work, in program order after each round's AES
   * instructions (the V primitives are ordered asm statements): the
   * registers REGS-1..0 (the last one takes Y) spread over the middle
   * rounds, each prepared (load, byte reversal, Karatsuba operand) one
   * round before its three products, and the products of a pair of
   * registers added to the sums one round after the second one's (their
   * latency then hides under that round's AES).  Of the schedules
   * timed on Zen 5 this was the best; finer interleaving with the AES
   * instructions, preparing two rounds ahead or not ahead, and the
   * compiler's own schedule of the same operations were 2-15% slower.  */
  constexpr int A = ROUNDS - 1;
  static_assert (V::REGS <= 2 * (ROUNDS - 1), "at most two per round");
  static_assert (V::REGS % 2 == 0, "registers added in pairs");
  /* Registers hashed in rounds 1..R: the first done (R).  */
  auto done = [] (int r) constexpr -> int
  { return r <= 0 ? 0 : r >= A ? V::REGS : (r * V::REGS + A - 1) / A; };
  /* At most two registers per round, prepared one round ahead and
   * added one round behind: four of each in flight at most.  */
  T d[4], dk[4];
  prod pr[4];
  _Pragma ("GCC unroll 16")
  for (int r = 1; r < (int) ROUNDS; r++)
    {
      V::aes_round (x, rk + r);
      if (MODE == HASH_NONE)
        continue;
      const int prep_from = r == 1 ? 0 : done (r), prep_to = done (r + 1);
      _Pragma ("GCC unroll 16")
      for (int n = prep_from; n < prep_to; n++)
        {
          const int b = V::REGS - 1 - n;
          if (b == 0 && MODE != HASH_SECOND)
            hash_prep<true, SIV> (hashin, b, y, d[n % 4], dk[n % 4]);
          else
            hash_prep<false, SIV> (hashin, b, y, d[n % 4], dk[n % 4]);
        }
      const int add_from = done (r - 2), add_to = done (r - 1);
      _Pragma ("GCC unroll 16")
      for (int n = add_from; n < add_to; n++)
        if (n % 2)
          acc2 (pr[(n - 1) % 4], pr[n % 4], lo, mid, hi);
      const int mul_from = done (r - 1), mul_to = done (r);
      _Pragma ("GCC unroll 16")
      for (int n = mul_from; n < mul_to; n++)
        pr[n % 4] = hash_mul<MODE> (k, V::REGS - 1 - n, d[n % 4], dk[n % 4]);
    }
  if (MODE != HASH_NONE)
    {
      const int add_from = done (A - 1), add_to = done (A);
      _Pragma ("GCC unroll 16")
      for (int n = add_from; n < add_to; n++)
        if (n % 2)
          acc2 (pr[(n - 1) % 4], pr[n % 4], lo, mid, hi);
    }
  const T last = V::load_a (rk + ROUNDS);
  _Pragma ("GCC unroll 16")
  for (int j = 0; j < V::REGS; j++)
    {
      x[j] = V::enclast (x[j], last);
      V::store (out + 16 * V::W * j,
                 V::xor_ (x[j], V::load (in + 16 * V::W * j)));
    }
  if (MODE == HASH_ONE || MODE == HASH_SECOND)
    y = V::hxor (V::reduce_lanes (lo, mid, hi));
}

/* NGROUPS groups of text with CTRP (16 bytes) the next counter block and
 * YP the running hash value (GCM: GHASH in SP 800-38D byte order; SIV:
 * POLYVAL in RFC 8452 order, CTRP a GCM-SIV counter block), both
 * updated; K the key area, RK128 the AES-NI encryption round keys.
 * HASH_OUT: the hash runs over the output (GCM encryption, GCM-SIV
 * decryption), else over the input.  Not inlined, and calls nothing:
 * returns the depth of its frame (frame-depth-x86.h), which the caller
 * burns (burn_kernel_frame).  */
template <unsigned int ROUNDS, bool SIV>
__attribute__ ((noinline)) unsigned int
crypt_t (const __m128i *rk128, const vpclmul_key *k, unsigned char *yp,
         unsigned char *ctrp, unsigned char *out, const unsigned char *in,
         size_t ngroups, bool hash_out)
{
  typedef typename V::T T;
  /* The round keys in every lane, loaded from here each round (in the
   * frame, which the caller burns).  */
  T rk[ROUNDS + 1];
  for (unsigned int r = 0; r <= ROUNDS; r++)
    rk[r] = V::bcast (_mm_loadu_si128 (rk128 + r));
  __m128i y = _mm_loadu_si128 ((const __m128i *) yp);
  __m128i c = _mm_loadu_si128 ((const __m128i *) ctrp);
  if (!SIV)
    {
      y = _mm_shuffle_epi8 (y, bswap_mask128 ());
      c = _mm_shuffle_epi8 (c, bswap_mask128 ());
    }
  T ctr = V::add32 (V::bcast (c), V::ctr_offsets ());
  uint32_t c32 = (uint32_t) _mm_cvtsi128_si32 (c);

  /* NGROUPS groups hashed as one HASH_ONE group when NGROUPS is odd,
   * then pairs.  Encryption hashes each group's output during the next
   * group's AES work (the last one after the loop), decryption each
   * group's input during its own.  */
  T lo, mid, hi;
  const size_t single = ngroups & 1;
  if (hash_out)
    {
      ctr_ghash_group<ROUNDS, HASH_NONE, SIV> (rk, k, ctr, c32, y, out, in,
                                          nullptr, lo, mid, hi);
      if (single)
        {
          if (ngroups > 1)
            ctr_ghash_group<ROUNDS, HASH_ONE, SIV> (rk, k, ctr, c32, y,
                                               out + GROUP_BYTES,
                                               in + GROUP_BYTES, out, lo,
                                               mid, hi);
          else
            hash_group<HASH_ONE, SIV> (k, out, y, lo, mid, hi);
          out += GROUP_BYTES;
          in += GROUP_BYTES;
        }
      /* OUT: the first group of the pair to hash, encrypted; the next
       * group to encrypt follows it.  */
      for (size_t h = single; h < ngroups; h += 2)
        {
          ctr_ghash_group<ROUNDS, HASH_FIRST, SIV> (rk, k, ctr, c32, y,
                                               out + GROUP_BYTES,
                                               in + GROUP_BYTES, out, lo,
                                               mid, hi);
          out += GROUP_BYTES;
          in += GROUP_BYTES;
          if (h + 2 < ngroups)
            ctr_ghash_group<ROUNDS, HASH_SECOND, SIV> (rk, k, ctr, c32, y,
                                                  out + GROUP_BYTES,
                                                  in + GROUP_BYTES, out, lo,
                                                  mid, hi);
          else
            hash_group<HASH_SECOND, SIV> (k, out, y, lo, mid, hi);
          out += GROUP_BYTES;
          in += GROUP_BYTES;
        }
    }
  else
    {
      if (single)
        {
          ctr_ghash_group<ROUNDS, HASH_ONE, SIV> (rk, k, ctr, c32, y, out, in,
                                             in, lo, mid, hi);
          out += GROUP_BYTES;
          in += GROUP_BYTES;
        }
      for (size_t h = single; h < ngroups; h += 2)
        {
          ctr_ghash_group<ROUNDS, HASH_FIRST, SIV> (rk, k, ctr, c32, y, out, in,
                                               in, lo, mid, hi);
          ctr_ghash_group<ROUNDS, HASH_SECOND, SIV> (rk, k, ctr, c32, y,
                                                out + GROUP_BYTES,
                                                in + GROUP_BYTES,
                                                in + GROUP_BYTES, lo, mid,
                                                hi);
          out += 2 * GROUP_BYTES;
          in += 2 * GROUP_BYTES;
        }
    }

  /* Lane 0 of CTR is the next counter.  */
  c = V::lane0 (ctr);
  if (!SIV)
    {
      y = _mm_shuffle_epi8 (y, bswap_mask128 ());
      c = _mm_shuffle_epi8 (c, bswap_mask128 ());
    }
  _mm_storeu_si128 ((__m128i *) yp, y);
  _mm_storeu_si128 ((__m128i *) ctrp, c);
  V::cleanup ();
  return FRAME_DEPTH_X86 ();
}

/* Wipe the kernel's frame, which holds the broadcast round keys and
 * may hold spilled states, Y and the hash operands: DEPTH bytes
 * (crypt_t's, measured on every call: the constant this replaces, 1600
 * bytes for the AVX2 kernel, had fallen behind GCC 12's frames of up to
 * 1,840 for AES-256) below the stack pointer, with vector stores, the
 * stack pointer moved down over them and back (REP STOSB in
 * _gcry_burn_stack costs about 12 ns per call on Zen 4, 15% of a 1 KiB
 * message).  */
inline __attribute__ ((always_inline)) void
burn_kernel_frame (unsigned int depth)
{
  uintptr_t n = ((uintptr_t) depth + 31) & ~(uintptr_t) 31, c;
  if (!n)   /* Not from FRAME_DEPTH_X86; the loop needs N > 0.  */
    return;
  asm volatile ("vpxor %%xmm0, %%xmm0, %%xmm0\n\t"
                "sub %[n], " GCM_SP "\n\t"
                "mov %[n], %[c]\n"
                "1:\n\t"
                "sub $32, %[c]\n\t"
                "vmovdqu %%ymm0, (" GCM_SP ", %[c])\n\t"
                "jnz 1b\n\t"
                "add %[n], " GCM_SP "\n\t"
                "vzeroupper"
                : [c] "=&r" (c) : [n] "r" (n) : "xmm0", "memory", "cc");
}

/* crypt_t for the AES context's round count.  */
template <bool SIV>
inline void
crypt_rounds (const RIJNDAEL_context *actx, const vpclmul_key *k,
              unsigned char *yp, unsigned char *ctrp, unsigned char *out,
              const unsigned char *in, size_t ngroups, bool hash_out)
{
  const __m128i *rk = (const __m128i *) actx->keys.ni.enc;
  burn_kernel_frame (RIJNDAEL_DISPATCH_B (actx, crypt_t, SIV, rk, k, yp, ctrp,
                                         out, in, ngroups, hash_out));
}

/* GCM: whole groups of NBLOCKS; returns the blocks left undone.  */
size_t
crypt (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
       size_t nblocks, int encrypt)
{
  gcm_state *st = static_cast<gcm_state *> (c->mode_ctx);
  const size_t ngroups = nblocks / GROUP_BLOCKS;
  if (ngroups)
    crypt_rounds<false> (static_cast<const RIJNDAEL_context *> (c->ctx),
                         reinterpret_cast<const vpclmul_key *> (st->key.bytes),
                         st->y, c->ctr, out, in, ngroups, encrypt);
  return nblocks % GROUP_BLOCKS;
}

/* GCM-SIV decryption: whole groups of NBLOCKS, CTR from the counter
 * block CTR and POLYVAL of the plaintext continued in S; returns the
 * blocks left undone.  */
size_t
siv_decrypt (const RIJNDAEL_context *actx, const gcm_ghash_key *key,
             unsigned char *s, unsigned char *ctr, unsigned char *out,
             const unsigned char *in, size_t nblocks)
{
  const size_t ngroups = nblocks / GROUP_BLOCKS;
  if (ngroups)
    crypt_rounds<true> (actx, reinterpret_cast<const vpclmul_key *> (key->bytes),
                        s, ctr, out, in, ngroups, true);
  return nblocks % GROUP_BLOCKS;
}
