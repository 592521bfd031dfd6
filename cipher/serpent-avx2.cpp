/* serpent-avx2.cpp - Serpent bulk modes with AVX2.
 *
 * Word-sliced like serpent-sse2.cpp, on ymm registers: each 128-bit lane
 * holds one block after the load, the in-lane 4x4 transpose makes
 * register j hold word X_j of eight blocks, and two sets of eight (16
 * blocks) run side by side.  The 32 rounds are one out-of-line kernel
 * per direction and set count (serpent-internal.h), so their register
 * allocation is the same under every mode of cipher-batch-modes.h.  A
 * short last batch loads and stores 128-bit halves.
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
  static constexpr bool TERN = false, INTERLEAVE = false;
  static constexpr bool ROUND_LOOP = false;
  static constexpr bool PIN = true;
  /* Below cipher-batch-modes.h's scratch: the rest of the slot's frame
   * and the kernel's.  Measured with -fstack-usage (GCC 12, x86-64):
   * slot frames at most 192 bytes beyond their buffers, kernel frames
   * 40 bytes, plus the 128-byte red zone.  i386 keeps the depth the
   * path had with drivers of its own.  */
#ifdef __x86_64__
  static constexpr unsigned int BURN = 512;
#else
  static constexpr unsigned int BURN = 1536;
#endif

  /* Two 16-byte loads and an insert.  */
  static SERPENT_INLINE V
  loadn (const unsigned char *p0, const unsigned char *p1, size_t n)
  {
    if (n >= 2)
      return _mm256_inserti128_si256 (
          _mm256_castsi128_si256 (X1::load (p0)), X1::load (p1), 1);
    if (n == 1)
      return first_lane (X1::load (p0));
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
