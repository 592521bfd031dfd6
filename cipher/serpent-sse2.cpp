/* serpent-sse2.cpp - Serpent bulk modes with SSE2 (amd64 and i386).
 *
 * Word-sliced: four blocks are transposed so that xmm register j holds
 * word X_j of each of them; the bitsliced round engine of
 * serpent-internal.h then runs on four blocks per instruction.  Two such
 * sets of four (8 blocks) are interleaved on x86-64, so the S-box
 * formulas of one set fill the latency gaps of the other; i386, with 8
 * xmm registers, runs one set.  The Ops is simd-x86.h's X1 through
 * serpent-x86.h (only SSE2 forms of it are called).  Built with -msse2
 * in its own convenience library; used when HWF_INTEL_SSE2 is present
 * (always on amd64).
 */
#include <config.h>
#include "serpent-x86.h"
#include "vec-clear-x86.h"

namespace {

struct ops_sse2 : serpent_ops_x86<simd_x86::X1>
{
  static constexpr bool TERN = false, INTERLEAVE = false;
  static constexpr bool ROUND_LOOP = true;
  static constexpr bool PIN = true;
  /* Below cipher-batch-modes.h's scratch: the rest of the slot's frame
   * and the kernel's.  Measured with -fstack-usage (GCC 12, x86-64):
   * slot frames at most 192 bytes beyond their buffers, kernel frames
   * 32 bytes, plus the 128-byte red zone.  i386 keeps the depth the
   * path had with drivers of its own.  */
#ifdef __x86_64__
  static constexpr unsigned int BURN = 512;
#else
  static constexpr unsigned int BURN = 1024;
#endif

  static SERPENT_INLINE V
  loadn (const unsigned char *p0, const unsigned char *, size_t n)
  {
    return n ? load (p0) : zero ();
  }
  static SERPENT_INLINE void
  storen (unsigned char *p, V v, size_t n)
  {
    if (n)
      store (p, v);
  }

  /* Zero every xmm register (caller-saved in both ABIs), so no key or
   * state is left in them.  */
  static SERPENT_INLINE void
  clear ()
  {
    vec_clear_xmm ();
  }
};

static_assert (4 * ops_sse2::SETS * ops_sse2::BPV == SERPENT_SSE2_LANES);

} // namespace

void
_gcry_serpent_sse2_fill_bulk (cipher_bulk_ops *bulk)
{
  serpent_simd<ops_sse2>::fill_bulk (bulk);
}
