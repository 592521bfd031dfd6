/* serpent-neon.cpp - Serpent bulk modes with arm64 NEON (AdvSIMD, base
 * ARMv8-A; arm_neon.h intrinsics).
 *
 * Word-sliced as the SSE2 path: four blocks are transposed (TRN1/TRN2)
 * so that register j holds word X_j of each of them, and the bitsliced
 * round engine of serpent-internal.h runs on four blocks per
 * instruction; two sets of four (8 blocks) are interleaved, which the 32
 * SIMD registers of arm64 hold without spilling the state.  Rotations
 * are SHL + SRI.  Constant time: the same instructions whatever the
 * data; every bulk call ends by zeroing the SIMD registers.
 */
#include <config.h>
#include <arm_neon.h>
#include "serpent-internal.h"
#include "vec-clear-arm64.h"

namespace {

struct ops_neon
{
  typedef uint32x4_t V;
  static constexpr size_t BPV = 1;
  static constexpr int SETS = SERPENT_SIMD_SETS;
  static constexpr bool TERN = false, INTERLEAVE = false;
  static constexpr bool ROUND_LOOP = true;
  static constexpr bool PIN = false;
  static constexpr unsigned int BURN = 1024;

  static SERPENT_INLINE V zero () { return vdupq_n_u32 (0); }
  static SERPENT_INLINE V
  loadn (const unsigned char *p0, const unsigned char *, size_t n)
  {
    return n ? vreinterpretq_u32_u8 (vld1q_u8 (p0)) : zero ();
  }
  static SERPENT_INLINE void
  storen (unsigned char *p, V v, size_t n)
  {
    if (n)
      vst1q_u8 (p, vreinterpretq_u8_u32 (v));
  }
  /* 4x4 transpose of 32-bit words: block i word j <-> register j lane i. */
  static SERPENT_INLINE void
  transpose (V &a, V &b, V &c, V &d)
  {
    const uint64x2_t t0 = vreinterpretq_u64_u32 (vtrn1q_u32 (a, b));
    const uint64x2_t t1 = vreinterpretq_u64_u32 (vtrn2q_u32 (a, b));
    const uint64x2_t t2 = vreinterpretq_u64_u32 (vtrn1q_u32 (c, d));
    const uint64x2_t t3 = vreinterpretq_u64_u32 (vtrn2q_u32 (c, d));
    a = vreinterpretq_u32_u64 (vtrn1q_u64 (t0, t2));
    b = vreinterpretq_u32_u64 (vtrn1q_u64 (t1, t3));
    c = vreinterpretq_u32_u64 (vtrn2q_u64 (t0, t2));
    d = vreinterpretq_u32_u64 (vtrn2q_u64 (t1, t3));
  }
  static SERPENT_INLINE V
  key (const uint32_t *kr, int j)
  {
    return vdupq_n_u32 (kr[j]);
  }
  template <int N> static SERPENT_INLINE V
  rol (V x)
  {
    return vsriq_n_u32 (vshlq_n_u32 (x, N), x, 32 - N);
  }
  template <int N> static SERPENT_INLINE V shl (V x)
  { return vshlq_n_u32 (x, N); }
  static SERPENT_INLINE V xor3 (V a, V b, V c) { return a ^ b ^ c; }
  template <int I> static SERPENT_INLINE void sbox (V &a, V &b, V &c, V &d)
  { serpent_sbox<I> (a, b, c, d); }
  template <int I> static SERPENT_INLINE void inv_sbox (V &a, V &b, V &c,
                                                        V &d)
  { serpent_inv_sbox<I> (a, b, c, d); }

  static SERPENT_INLINE void clear () { vec_clear_arm64 (); }
};

static_assert (4 * ops_neon::SETS * ops_neon::BPV == SERPENT_NEON_LANES);

} // namespace

void
_gcry_serpent_neon_fill_bulk (cipher_bulk_ops *bulk)
{
  serpent_simd<ops_neon>::fill_bulk (bulk);
}
