/* serpent-x86.h - the x86 SIMD paths' Ops (serpent-internal.h) on the
 * simd_x86 vector traits.
 *
 * serpent_ops_x86<VT> is VT (simd-x86.h's X1, Y2 or Z4: BPV = W blocks
 * per register, one per 16-byte lane) under the names the round engine
 * and serpent_simd call.  From VT as they are: V (VT::T), zero, xor3,
 * tern (Z4) and, for the ISA files, load, store and the rest of the
 * traits.  Under Serpent's names: key (kr, j), word J of round key KR
 * in every 32-bit word (VT::set1_32; it hides VT::key, the 16-byte
 * broadcast); rol<N>, the shift pair joined by VT::or_ (not
 * VT::shlr32, whose vector | compiles the SSE2 and AVX2 rounds with
 * another register allocation; serpent-avx512.cpp takes VPROLD,
 * Z4::shlr32); shl<N> (VT::slli32); transpose
 * (simd_x86::word_transpose4); sbox and inv_sbox, the two-input gate
 * formulas.  Each ISA file (serpent-sse2.cpp, serpent-avx2.cpp,
 * serpent-avx512.cpp) derives its ops from it and adds what is its own:
 * the flags and burn depth, the partial loads and stores, clear and
 * (AVX-512) VPROLD and the VPTERNLOG S-boxes.
 * Include only from those files (intrinsics).
 */
#ifndef GCIPHER_SERPENT_X86_H
#define GCIPHER_SERPENT_X86_H

#include "simd-x86.h"
#include "serpent-internal.h"

namespace {

template <class VT>
struct serpent_ops_x86 : VT
{
  typedef typename VT::T V;
  static constexpr size_t BPV = VT::W;
  static constexpr int SETS = SERPENT_SIMD_SETS;

  static SERPENT_INLINE V
  key (const uint32_t *kr, int j)
  {
    return VT::set1_32 (kr[j]);
  }
  template <int N> static SERPENT_INLINE V rol (V x)
  {
    return VT::or_ (VT::template slli32<N> (x),
                    VT::template srli32<32 - N> (x));
  }
  template <int N> static SERPENT_INLINE V shl (V x)
  { return VT::template slli32<N> (x); }
  static SERPENT_INLINE void
  transpose (V &a, V &b, V &c, V &d)
  {
    simd_x86::word_transpose4<VT> (a, b, c, d);
  }
  template <int I> static SERPENT_INLINE void sbox (V &a, V &b, V &c, V &d)
  { serpent_sbox<I> (a, b, c, d); }
  template <int I> static SERPENT_INLINE void inv_sbox (V &a, V &b, V &c,
                                                        V &d)
  { serpent_inv_sbox<I> (a, b, c, d); }
};

} // namespace

#endif /* GCIPHER_SERPENT_X86_H */
