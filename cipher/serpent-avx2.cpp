/* serpent-avx2.cpp - Serpent bulk modes with AVX2.
 *
 * Word-sliced like serpent-sse2.cpp, on ymm registers: each 128-bit lane
 * holds one block after the load, the in-lane 4x4 transpose makes
 * register j hold word X_j of eight blocks, and two sets of eight (16
 * blocks) run side by side.  The 32 rounds are one out-of-line function
 * per direction (Ops::OUTLINE), so their register allocation is the same
 * under every mode.  A short last batch loads and stores 128-bit halves.
 * The Ops is simd-x86.h's Y2 through serpent-x86.h.  Built with -mavx2 in its own convenience library; used when
 * HWF_INTEL_AVX2 is present.
 */
#include <config.h>
#include "vec-clear-x86.h"
#include "serpent-x86.h"

namespace {

using simd_x86::X1;
using simd_x86::Y2;

struct ops_avx2 : serpent_ops_x86<Y2>
{
  static constexpr bool TERN = false, INTERLEAVE = false, OUTLINE = true;
  static constexpr bool ROUND_LOOP = false;
  static constexpr bool PIN = true;
  /* Measured with -fstack-usage and the disassembly (GCC 12, x86-64):
   * two sets of state in 16 ymm registers spill to the frames and the
   * red zone; the deepest chain (OCB wrapper 704 bytes incl. its wiped
   * offset buffer, then the out-of-line rounds, 136 + 128 red zone)
   * stays under 1000 bytes.  */
  static constexpr unsigned int BURN = 1536;
  static constexpr unsigned int OCB_BURN = 1536;

  static SERPENT_INLINE V
  loadn (const unsigned char *p, size_t n)
  {
    if (n >= 2)
      return load (p);
    if (n == 1)
      return first_lane (X1::load (p));
    return zero ();
  }
  static SERPENT_INLINE void
  storen (unsigned char *p, V v, size_t n)
  {
    if (n >= 2)
      store (p, v);
    else if (n == 1)
      X1::store (p, lane0 (v));
  }
  /* Counter blocks HI:LO and HI:LO + 1 (big-endian, carry into HI).  */
  static SERPENT_INLINE V
  ctr_v (uint64_t hi, uint64_t lo)
  {
    const uint64_t lo1 = lo + 1, hi1 = hi + (lo1 == 0);
    return _mm256_set_epi64x ((long long)__builtin_bswap64 (lo1),
                              (long long)__builtin_bswap64 (hi1),
                              (long long)__builtin_bswap64 (lo),
                              (long long)__builtin_bswap64 (hi));
  }
  static SERPENT_INLINE V
  ctr32le_v (uint64_t lofix, uint64_t hi, uint32_t k)
  {
    return _mm256_set_epi64x ((long long)hi,
                              (long long)(lofix | (uint32_t)(k + 1)),
                              (long long)hi, (long long)(lofix | k));
  }
  static SERPENT_INLINE V
  loadn_fwd (const unsigned char *p, size_t n)
  {
    if (n < 2)
      return loadn (p, n);
    return _mm256_inserti128_si256 (_mm256_castsi128_si256 (X1::load (p)),
                                    X1::load (p + 16), 1);
  }
  static SERPENT_INLINE V
  maskn (V v, size_t n)
  {
    if (n >= 2)
      return v;
    if (n == 1)
      return first_lane (lane0 (v));
    return zero ();
  }
  /* [carry.block1, cur.block0].  */
  static SERPENT_INLINE V
  with_prev (V cur, V carry)
  {
    return _mm256_permute2x128_si256 (carry, cur, 0x21);
  }

  /* VZEROALL clears ymm0-15 (all of them on i386's 8 too).  */
  static SERPENT_INLINE void clear () { vec_clear_ymm (); }
};

static_assert (4 * ops_avx2::SETS * ops_avx2::BPV == SERPENT_AVX2_LANES);

} // namespace

void
_gcry_serpent_avx2_fill_bulk (cipher_bulk_ops *bulk)
{
  serpent_simd<ops_avx2>::fill_bulk (bulk);
}
