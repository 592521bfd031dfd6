/* serpent-avx2.cpp - Serpent bulk modes with AVX2.
 *
 * Word-sliced like serpent-sse2.cpp, on ymm registers: each 128-bit lane
 * holds one block after the load, the in-lane 4x4 transpose makes
 * register j hold word X_j of eight blocks, and two sets of eight (16
 * blocks) run side by side.  The 32 rounds are one out-of-line function
 * per direction (Ops::OUTLINE), so their register allocation is the same
 * under every mode.  A short last batch loads and stores 128-bit halves.
 * Built with -mavx2 in its own convenience library; used when
 * HWF_INTEL_AVX2 is present.
 */
#include <config.h>
#include <immintrin.h>
#include "serpent-internal.h"

namespace {

struct ops_avx2
{
  typedef __m256i V;
  static constexpr size_t BPV = 2;
  static constexpr int SETS = SERPENT_SIMD_SETS;
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

  static SERPENT_INLINE V zero () { return _mm256_setzero_si256 (); }
  static SERPENT_INLINE V
  loadn (const unsigned char *p, size_t n)
  {
    if (n >= 2)
      return _mm256_loadu_si256 ((const V *)p);
    if (n == 1)
      return _mm256_zextsi128_si256 (_mm_loadu_si128 ((const __m128i *)p));
    return zero ();
  }
  static SERPENT_INLINE void
  storen (unsigned char *p, V v, size_t n)
  {
    if (n >= 2)
      _mm256_storeu_si256 ((V *)p, v);
    else if (n == 1)
      _mm_storeu_si128 ((__m128i *)p, _mm256_castsi256_si128 (v));
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
    return _mm256_inserti128_si256 (
      _mm256_castsi128_si256 (_mm_loadu_si128 ((const __m128i *)p)),
      _mm_loadu_si128 ((const __m128i *)(p + 16)), 1);
  }
  static SERPENT_INLINE V
  maskn (V v, size_t n)
  {
    if (n >= 2)
      return v;
    if (n == 1)
      return _mm256_zextsi128_si256 (_mm256_castsi256_si128 (v));
    return zero ();
  }
  static SERPENT_INLINE V
  bcast_block (const unsigned char *p)
  {
    return _mm256_broadcastsi128_si256 (_mm_loadu_si128 ((const __m128i *)p));
  }
  /* [carry.block1, cur.block0].  */
  static SERPENT_INLINE V
  with_prev (V cur, V carry)
  {
    return _mm256_permute2x128_si256 (carry, cur, 0x21);
  }
  static SERPENT_INLINE void
  fold (V v, unsigned char *out)
  {
    _mm_storeu_si128 ((__m128i *)out,
                      _mm_xor_si128 (_mm256_castsi256_si128 (v),
                                     _mm256_extracti128_si256 (v, 1)));
  }
  static SERPENT_INLINE void
  transpose (V &a, V &b, V &c, V &d)
  {
    const V t0 = _mm256_unpacklo_epi32 (a, b);
    const V t1 = _mm256_unpackhi_epi32 (a, b);
    const V t2 = _mm256_unpacklo_epi32 (c, d);
    const V t3 = _mm256_unpackhi_epi32 (c, d);
    a = _mm256_unpacklo_epi64 (t0, t2);
    b = _mm256_unpackhi_epi64 (t0, t2);
    c = _mm256_unpacklo_epi64 (t1, t3);
    d = _mm256_unpackhi_epi64 (t1, t3);
  }
  static SERPENT_INLINE V
  key (const uint32_t *kr, int j)
  {
    return _mm256_set1_epi32 ((int)kr[j]);
  }
  template <int N> static SERPENT_INLINE V
  rol (V x)
  {
    return _mm256_or_si256 (_mm256_slli_epi32 (x, N),
                            _mm256_srli_epi32 (x, 32 - N));
  }
  template <int N> static SERPENT_INLINE V shl (V x)
  { return _mm256_slli_epi32 (x, N); }
  static SERPENT_INLINE V xor3 (V a, V b, V c) { return a ^ b ^ c; }
  template <int I> static SERPENT_INLINE void sbox (V &a, V &b, V &c, V &d)
  { serpent_sbox<I> (a, b, c, d); }
  template <int I> static SERPENT_INLINE void inv_sbox (V &a, V &b, V &c,
                                                        V &d)
  { serpent_inv_sbox<I> (a, b, c, d); }

  /* VZEROALL clears ymm0-15 (all of them on i386's 8 too).  */
  static SERPENT_INLINE void clear () { asm volatile ("vzeroall" ::: "memory"); }
};

static_assert (4 * ops_avx2::SETS * ops_avx2::BPV == SERPENT_AVX2_LANES);

} // namespace

void
_gcry_serpent_avx2_fill_bulk (cipher_bulk_ops *bulk)
{
  serpent_simd<ops_avx2>::fill_bulk (bulk);
}
