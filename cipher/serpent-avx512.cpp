/* serpent-avx512.cpp - Serpent bulk modes with AVX-512 (F, VL, BW, DQ).
 *
 * Word-sliced on zmm registers: four blocks per register after the load,
 * the in-lane 4x4 transpose makes register j hold word X_j of 16 blocks,
 * and two sets (32 blocks) run interleaved instruction by instruction
 * (Ops::INTERLEAVE: 32 registers hold both sets).  The S-boxes are the
 * VPTERNLOGD forms of serpent-internal.h (8 or 9 three-input operations
 * each instead of 14-17 two-input gates), the rotations of LT are
 * VPROLD, and its three-way XORs VPTERNLOGD too.  Short batches use
 * partial loads and masked stores (no access past the buffers).  The Ops is
 * simd-x86.h's Z4 through serpent-x86.h.  Built with
 * -mavx512f -mavx512vl -mavx512bw -mavx512dq in its own convenience
 * library; used when HWF_INTEL_AVX512 is present.
 */
#include <config.h>

/* GCC 12's AVX-512 intrinsics (unpack, rotate) start from
 * _mm512_undefined_epi32 (), a self-initialised variable that trips
 * -Wmaybe-uninitialized where they are inlined (in simd-x86.h: before
 * the includes).  */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include "vec-clear-x86.h"
#include "serpent-x86.h"

namespace {

using simd_x86::X1;
using simd_x86::Y2;
using simd_x86::Z4;

struct ops_avx512 : serpent_ops_x86<Z4>
{
  static constexpr bool TERN = true, INTERLEAVE = true;
  static constexpr bool ROUND_LOOP = false;
  static constexpr bool PIN = false;
  /* Measured with the disassembly (GCC 12, x86-64): the kernels keep
   * state and keys in the 32 zmm registers (their frame is one saved
   * rbp), so they leave nothing to burn; cipher-batch-modes.h wipes its
   * batch buffers (and burns the OCB frames itself).  i386 sees eight
   * vector registers: there the rounds spill state (plaintext-derived,
   * found up to 1248 bytes deep by t-hygiene), so its slots burn.  */
#ifdef __x86_64__
  static constexpr unsigned int BURN = 0;
#else
  static constexpr unsigned int BURN = 2048;
#endif

  static SERPENT_INLINE __mmask16
  mask_of (size_t n)
  {
    return (__mmask16)((1u << (4 * n)) - 1);
  }
  static SERPENT_INLINE void
  storen (unsigned char *p, V v, size_t n)
  {
    if (n >= 4)
      store (p, v);
    else
      _mm512_mask_storeu_epi32 (p, mask_of (n), v);
  }
  /* 16-byte loads and inserts; no access past block N.  */
  static SERPENT_INLINE V
  loadn (const unsigned char *p0, const unsigned char *p1, size_t n)
  {
    __m256i lo = Y2::first_lane (n ? X1::load (p0) : X1::zero ());
    if (n > 1)
      lo = _mm256_inserti128_si256 (lo, X1::load (p1), 1);
    V r = _mm512_zextsi256_si512 (lo);
    if (n > 2)
      {
        __m256i hi = Y2::first_lane (X1::load (p1 + 16));
        if (n > 3)
          hi = _mm256_inserti128_si256 (hi, X1::load (p1 + 32), 1);
        r = _mm512_inserti64x4 (r, hi, 1);
      }
    return r;
  }
  /* VPROLD.  */
  template <int N> static SERPENT_INLINE V rol (V x)
  { return shlr32<N> (x); }
  template <int I> static SERPENT_INLINE void sbox (V &a, V &b, V &c, V &d)
  { serpent_sbox_tern<ops_avx512, I> (a, b, c, d); }
  template <int I> static SERPENT_INLINE void inv_sbox (V &a, V &b, V &c,
                                                        V &d)
  { serpent_inv_sbox_tern<ops_avx512, I> (a, b, c, d); }

  static SERPENT_INLINE void clear () { vec_clear_zmm (); }
};

static_assert (4 * ops_avx512::SETS * ops_avx512::BPV
               == SERPENT_AVX512_LANES);

} // namespace

void
_gcry_serpent_avx512_fill_bulk (cipher_bulk_ops *bulk)
{
  serpent_simd<ops_avx512>::fill_bulk (bulk);
}
