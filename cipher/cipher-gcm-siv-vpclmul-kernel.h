/* cipher-gcm-siv-vpclmul-kernel.h - POLYVAL (RFC 8452 3) with VPCLMULQDQ
 * in POLYVAL's own bit order, one kernel over the vector width.
 *
 * Included by cipher-gcm-siv-intel-vpclmul-avx2.cpp (ymm, 2 blocks per
 * register) and cipher-gcm-siv-intel-vpclmul-avx512.cpp (zmm, 4), each
 * built with its ISA's flags; VT is a simd-x86.h trait (Y2, Z4), NV the
 * registers of one run.  Field, dot product and reduction are those of
 * the PCLMULQDQ back end (cipher-gcm-siv-intel-pclmul.h), lane by lane.
 *
 * GCM-SIV derives a POLYVAL key per message (RFC 8452 4), so the key
 * set-up is part of every message's cost.  It starts from the PCLMULQDQ
 * back end's key (K_1..K_8, the head of this key area, which also
 * serves the last blocks of a call) and doubles the powers lane-wise:
 * with U_i the register [K_(iW+1) .. K_(iW+W)] and K the last power
 * known, U_(n+i) = dot (U_i, K) (K_a dot K_b = K_(a+b)), one dependent
 * product per doubling.  For zmm and NV = 8: K_1..K_32, two doublings of
 * 2 and 4 products; for ymm and NV = 8: K_1..K_16, one doubling of 4.
 *
 * A run of R = NV W blocks X_1..X_R: S' = dot (S + X_1, K_R) + dot (X_2,
 * K_(R-1)) + ... + dot (X_R, K_1) (RFC 8452 3 unrolled R times), the
 * products summed unreduced lane by lane (Karatsuba, the key halves'
 * XOR precomputed), the lanes XORed, and one reduction.  After the full
 * runs, what is left takes shorter runs of NV/2, NV/4, .., 1 registers
 * (the last registers of the table hold K_(nW)..K_1), then the
 * PCLMULQDQ back end for fewer than W blocks.
 *
 * Constant time: no branch or index depends on the key or the data; the
 * block counts are public.  Stack: on x86-64 the zmm instantiation keeps
 * everything in registers and the ymm runs do too, the ymm set-up spills
 * five registers (checked in GCC 12's output); entry<> clears the vector
 * registers and reports the burn depth each including file gives.
 */
#ifndef GCIPHER_CIPHER_GCM_SIV_VPCLMUL_KERNEL_H
#define GCIPHER_CIPHER_GCM_SIV_VPCLMUL_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include "cipher-gcm.h"
#include "cipher-gcm-siv.h"
#include "cipher-gcm-siv-intel-pclmul.h"
#include "frame-depth-x86.h"
#include "simd-x86.h"

namespace {
namespace polyval_vpclmul {

/* The key area: the PCLMULQDQ back end's (K_1..K_8), then the run's
 * powers, register J holding K_(R - J W - l) in lane l, and their
 * halves XORed (low qword of each lane).  */
template <class VT, int NV>
struct key_area
{
  polyval_x86::pclmul_key narrow;
  typename VT::T k[NV];
  typename VT::T kk[NV];
};

/* Each lane's two qwords XORed (the low qword is what is used).  */
template <class VT>
SIMD_INLINE typename VT::T
halves (typename VT::T k)
{
  return VT::xor_ (k, VT::swap64 (k));
}

/* Lane by lane: accumulate the Karatsuba parts of X * K (KK: K's halves
 * XORed).  */
template <class VT>
SIMD_INLINE void
mul_acc (typename VT::T x, typename VT::T k, typename VT::T kk,
         typename VT::T &lo, typename VT::T &mid, typename VT::T &hi)
{
  lo = VT::xor_ (lo, VT::clmul00 (x, k));
  hi = VT::xor_ (hi, VT::clmul11 (x, k));
  mid = VT::xor_ (mid, VT::clmul00 (halves<VT> (x), kk));
}

/* Lane by lane: the middle folded into [HI:LO], then the Montgomery
 * reduction of the 256-bit product (polyval_x86::reduce).  */
template <class VT>
SIMD_INLINE typename VT::T
reduce (typename VT::T lo, typename VT::T mid, typename VT::T hi)
{
  const typename VT::T c
    = VT::bcast (_mm_set_epi64x (0, (long long) 0xc200000000000000ULL));
  mid = VT::xor_ (mid, VT::xor_ (lo, hi));
  lo = VT::xor_ (lo, VT::bslli8 (mid));
  hi = VT::xor_ (hi, VT::bsrli8 (mid));
  lo = VT::xor_ (VT::swap64 (lo), VT::clmul00 (lo, c));
  lo = VT::xor_ (VT::swap64 (lo), VT::clmul00 (lo, c));
  return VT::xor_ (hi, lo);
}

/* Lane by lane: dot (A, B).  */
template <class VT>
SIMD_INLINE typename VT::T
dot (typename VT::T a, typename VT::T b)
{
  typename VT::T lo = VT::zero (), mid = lo, hi = lo;
  mul_acc<VT> (a, b, halves<VT> (b), lo, mid, hi);
  return reduce<VT> (lo, mid, hi);
}

/* UP[0 .. HAVE-1] known (UP[i] lane l = K_(i W + l + 1)): the rest of
 * UP[0 .. NV-1], doubling the registers known per dependent product.  */
template <class VT, int NV, int HAVE>
SIMD_INLINE void
double_powers (typename VT::T *up)
{
  if constexpr (HAVE < NV)
    {
      /* K_(HAVE W), the last power known, in every lane.  */
      const typename VT::T top = VT::bcast_last (up[HAVE - 1]);
      _Pragma ("GCC unroll 8")
      for (int i = 0; i < HAVE && HAVE + i < NV; i++)
        up[HAVE + i] = dot<VT> (up[i], top);
      double_powers<VT, NV, 2 * HAVE> (up);
    }
}

/* The key area for the POLYVAL key H (16 bytes, RFC 8452 order).
 * Returns the stack burn depth.  */
template <class VT, int NV>
SIMD_INLINE unsigned int
setkey (gcm_ghash_key *key, const unsigned char *h)
{
  typedef typename VT::T T;
  constexpr int W = VT::W;
  static_assert (NV * W >= polyval_x86::PCLMUL_LANES && NV % 2 == 0,
                 "a run holds at least the eight PCLMULQDQ powers");
  static_assert (sizeof (key_area<VT, NV>) <= sizeof (gcm_ghash_key));
  const unsigned int depth = _gcry_polyval_ops_pclmul.setkey (key, h);
  key_area<VT, NV> *a = reinterpret_cast<key_area<VT, NV> *> (key->bytes);
  T up[NV];
  constexpr int FIRST = polyval_x86::PCLMUL_LANES / W;
  _Pragma ("GCC unroll 8")
  for (int i = 0; i < FIRST; i++)
    up[i] = VT::set (&a->narrow.k[i * W]);
  double_powers<VT, NV, FIRST> (up);
  _Pragma ("GCC unroll 8")
  for (int j = 0; j < NV; j++)
    {
      const T r = VT::reversed (up[NV - 1 - j]);
      a->k[j] = r;
      a->kk[j] = halves<VT> (r);
    }
  return depth;
}

/* S continued over one run of N registers (N W blocks) at X, on the last
 * N registers of the table.  */
template <class VT, int NV, int N>
SIMD_INLINE __m128i
run (const key_area<VT, NV> *a, __m128i s, const unsigned char *x)
{
  typedef typename VT::T T;
  /* The powers are read from the key area in every run (memory operands
   * of the multiplies): hoisted out of the loop, 16 zmm of them do not
   * fit beside the run's registers and GCC spilled the key to the
   * stack.  */
  asm ("" : "+r" (a));
  /* The last register first, so the first block's products, the only
   * ones that wait for S, join the sums last: the chain from S to the
   * next run is one sum shorter per register (POLYVAL of 16 KiB on AMD
   * Zen 4 with AVX-512 off, ymm: 962 -> 910-925 ns; zmm 638-662 ->
   * 623).  */
  T lo = VT::zero (), mid = lo, hi = lo;
  _Pragma ("GCC unroll 8")
  for (int j = N - 1; j >= 0; j--)
    {
      T d = VT::load (x + 16 * VT::W * j);
      if (j == 0)
        d = VT::xor_ (d, VT::first_lane (s));
      mul_acc<VT> (d, a->k[NV - N + j], a->kk[NV - N + j], lo, mid, hi);
    }
  /* The middle into [HI:LO] lane by lane, then the lanes summed and one
   * reduction (the reduction is linear).  */
  mid = VT::xor_ (mid, VT::xor_ (lo, hi));
  lo = VT::xor_ (lo, VT::bslli8 (mid));
  hi = VT::xor_ (hi, VT::bsrli8 (mid));
  return polyval_x86::reduce256 (VT::fold (lo), VT::fold (hi));
}

/* The shorter runs after the full ones: N registers if at least N W
 * blocks are left, then N/2, .., 1.  */
template <class VT, int NV, int N>
SIMD_INLINE __m128i
tail_runs (const key_area<VT, NV> *a, __m128i s, const unsigned char *&x,
           size_t &nblocks)
{
  if constexpr (N >= 1)
    {
      if (nblocks >= (size_t) N * VT::W)
        {
          s = run<VT, NV, N> (a, s, x);
          x += 16 * VT::W * N;
          nblocks -= (size_t) N * VT::W;
        }
      return tail_runs<VT, NV, N / 2> (a, s, x, nblocks);
    }
  else
    return s;
}

/* S = POLYVAL continued over NBLOCKS blocks of X (polyval_ops.update).
 * The caller clears the vector registers.  Returns the stack burn
 * depth.  */
template <class VT, int NV>
SIMD_INLINE unsigned int
update (const gcm_ghash_key *key, unsigned char *sp, const unsigned char *x,
        size_t nblocks)
{
  const key_area<VT, NV> *a
    = reinterpret_cast<const key_area<VT, NV> *> (key->bytes);
  constexpr size_t R = (size_t) NV * VT::W;
  __m128i s = _mm_loadu_si128 (reinterpret_cast<const __m128i *> (sp));
  for (; nblocks >= R; nblocks -= R, x += 16 * R)
    s = run<VT, NV, NV> (a, s, x);
  s = tail_runs<VT, NV, NV / 2> (a, s, x, nblocks);
  _mm_storeu_si128 (reinterpret_cast<__m128i *> (sp), s);
  if (nblocks)
    return _gcry_polyval_ops_pclmul.update (key, sp, x, nblocks);
  return 0;
}

/* The polyval_ops of one instantiation: setkey and update, each
 * followed by CLEAR (zero the vector registers) and reporting the depth
 * of its frame, measured (frame-depth-x86.h), plus that of the pclmul
 * code it calls, whose frame is below it.  Written down for each width,
 * the depths had fallen behind GCC 12: the AVX2 runs, said to spill
 * nothing, spilled seven products of text and powers of H.  */
template <class VT, int NV, void (*CLEAR) ()>
struct entry
{
  static unsigned int
  do_setkey (gcm_ghash_key *key, const unsigned char *h)
  {
    const unsigned int depth = setkey<VT, NV> (key, h);
    CLEAR ();
    return FRAME_DEPTH_X86 () + depth;
  }

  static unsigned int
  do_update (const gcm_ghash_key *key, unsigned char *s,
             const unsigned char *x, size_t nblocks)
  {
    const unsigned int depth = update<VT, NV> (key, s, x, nblocks);
    CLEAR ();
    return FRAME_DEPTH_X86 () + depth;
  }

  static constexpr polyval_ops ops
    = { do_setkey, do_update, sizeof (key_area<VT, NV>), nullptr,
        nullptr, 0 };
};

} // namespace polyval_vpclmul
} // namespace

#endif /* GCIPHER_CIPHER_GCM_SIV_VPCLMUL_KERNEL_H */
