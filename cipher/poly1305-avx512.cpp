/* poly1305-avx512.cpp - Poly1305 (RFC 8439 2.5) sixteen blocks per step
 * with AVX-512 IFMA (vpmadd52luq/vpmadd52huq) on eight 64-bit lanes;
 * built with -mavx512f/vl/bw/dq/ifma in its own convenience library, run
 * when hwf "intel-avx512" is present and CPUID reports IFMA.
 *
 * Numbers: radix 2^44 as poly1305.h (x = x0 + x1 2^44 + x2 2^88, limbs
 * of 44, 44 and 42 bits, a few bits more between reductions), one limb
 * per zmm register, lane i of the three registers one number.
 *
 * Lanes and Horner's rule.  A run of N = 16 T blocks m_0 .. m_(N-1)
 * turns the accumulator h into
 *     h r^N + sum_p m_p r^(N-p)           (mod p = 2^130 - 5)
 * (RFC 8439 2.5: add the block, multiply by r, once per block).  Lane i
 * takes the blocks at positions b(i) and 8 + b(i) of every group of
 * sixteen, b(i) = i/2 + 4 (i mod 2) (the order the 64-bit unpacks below
 * leave them in); the accumulator h enters lane 0 (b(0) = 0).  Every
 * step but the last is, per lane,
 *     H <- (H + A) r^16 + B r^8
 * (A, B: the lane's blocks of the first and second half of the group),
 * and the last one
 *     H <- (H + A) r^(16 - b(i)) + B r^(8 - b(i)).
 * Block p = 16 t + b then carries r^16 (its step) r^(16 (T - 2 - t))
 * (the later full steps) r^(16 - b) (the last one) = r^(N - p), and
 * block p = 16 t + 8 + b carries r^8 r^(16 (T - 2 - t)) r^(16 - b) =
 * r^(N - p); in the last step the two exponents are the same ones.  h
 * in lane 0 carries r^(16 T).  So the sum of the eight lanes is the
 * value of the serial rule, and it goes back to the context's scalar h.
 * A run of N = 16 T + 8 blocks makes all T sixteen-block steps non-final
 * and ends with H <- (H + A) r^(8 - b(i)) on the last eight: the same
 * count with one group of eight fewer r^8 factors on every earlier block
 * (block p = 16 t + b: r^16 r^(16 (T - 1 - t)) r^(8 - b) = r^(N - p)).
 * The two products of a step share one reduction; the B product does not
 * depend on H, so only (H + A) r^16 is on the serial chain.
 *
 * Product (per lane) of x by a power R = (r0, r1, r2), s_j = 20 r_j.
 * Limb i of x times limb j of R lands at 2^(44 (i + j)); at 2^132 (i + j
 * = 3) and 2^176 (i + j = 4) it folds back times 20, as 2^132 = 4 2^130
 * = 20 (mod p):
 *     column 0:  x0 r0 + x1 s2 + x2 s1
 *     column 1:  x0 r1 + x1 r0 + x2 s2
 *     column 2:  x0 r2 + x1 r1 + x2 r0
 * vpmadd52luq adds bits 0..51 of a 52x52-bit product to a 64-bit lane,
 * vpmadd52huq bits 52..103.  A product in column k is lo + hi 2^52 at
 * 2^(44 k), so hi lands at 2^(44 (k + 1)) times 2^8; from column 2 it is
 * 2^132 2^8, i.e. times 20 2^8 = 5 2^10 into column 0:
 *     t0 = lo0 + 5 2^10 hi2,  t1 = lo1 + 2^8 hi0,  t2 = lo2 + 2^8 hi1.
 * Bounds: x limbs below 2^46 (h below 2^45 plus a block below 2^44), R
 * limbs below 2^45, s_j below 2^50; every product below 2^96, so lo
 * below 2^52 and hi below 2^44; six products per column (two per step):
 * lo sums below 2^55, hi sums below 2^47, t below 2^60.  All inputs stay
 * below 2^52, as vpmadd52 needs.
 * Reduction, the three carries side by side (latency 3):
 *     h0 = (t0 mod 2^44) + 5 (t2 >> 42)     (2^130 = 5 mod p)
 *     h1 = (t1 mod 2^44) + (t0 >> 44)
 *     h2 = (t2 mod 2^42) + (t1 >> 44)
 * gives limbs below 2^44 + 5 * 2^18 (h1 below 2^44 + 2^16, h2 below
 * 2^42 + 2^16): below 2^45, the
 * bound the next step assumed.  The value is unchanged mod p.
 *
 * Powers (first bulk call of a message, stored in the context):
 * r^1..r^4 come from poly1305.cpp's key setup; one vector product gives
 * r^5..r^8 (lanes r^1..r^4 times r^4), a second r^9..r^16 (r^1..r^8
 * times r^8); vpermq puts them in lane order b(i).
 *
 * Constant time: the same instructions whatever the data.  Key powers
 * and accumulators live in zmm registers (cleared at the end) and the
 * context.
 */
#include <config.h>
#include <immintrin.h>

/* GCC 12's AVX-512 intrinsics use a self-initialised "undefined" source
 * operand that -Wuninitialized flags inside the header.  */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include "poly1305.h"
#include "vec-clear-x86.h"

#ifdef POLY1305_USE_SIMD

namespace {

/* The three limbs of eight numbers.  */
struct vec3
{
  __m512i l0, l1, l2;
};

/* A power per lane: limbs and the folded multipliers s1 = 20 r1, s2 =
 * 20 r2.  */
struct vpow
{
  __m512i r0, r1, r2, s1, s2;
};

/* Column sums of products, low and high halves.  */
struct cols
{
  __m512i lo0, lo1, lo2, hi0, hi1, hi2;
};

inline __m512i
m44 ()
{
  return _mm512_set1_epi64 ((long long) ((1ull << 44) - 1));
}

inline __m512i
times20 (__m512i x)
{
  return _mm512_add_epi64 (_mm512_slli_epi64 (x, 4), _mm512_slli_epi64 (x, 2));
}

inline vpow
make_pow (__m512i r0, __m512i r1, __m512i r2)
{
  return { r0, r1, r2, times20 (r1), times20 (r2) };
}

inline cols
zero_cols ()
{
  __m512i z = _mm512_setzero_si512 ();
  return { z, z, z, z, z, z };
}

/* C += X * P (the three columns above, low and high halves).  */
inline void
mul_acc (cols &c, const vec3 &x, const vpow &p)
{
  c.lo0 = _mm512_madd52lo_epu64 (c.lo0, x.l0, p.r0);
  c.hi0 = _mm512_madd52hi_epu64 (c.hi0, x.l0, p.r0);
  c.lo1 = _mm512_madd52lo_epu64 (c.lo1, x.l0, p.r1);
  c.hi1 = _mm512_madd52hi_epu64 (c.hi1, x.l0, p.r1);
  c.lo2 = _mm512_madd52lo_epu64 (c.lo2, x.l0, p.r2);
  c.hi2 = _mm512_madd52hi_epu64 (c.hi2, x.l0, p.r2);
  c.lo0 = _mm512_madd52lo_epu64 (c.lo0, x.l1, p.s2);
  c.hi0 = _mm512_madd52hi_epu64 (c.hi0, x.l1, p.s2);
  c.lo1 = _mm512_madd52lo_epu64 (c.lo1, x.l1, p.r0);
  c.hi1 = _mm512_madd52hi_epu64 (c.hi1, x.l1, p.r0);
  c.lo2 = _mm512_madd52lo_epu64 (c.lo2, x.l1, p.r1);
  c.hi2 = _mm512_madd52hi_epu64 (c.hi2, x.l1, p.r1);
  c.lo0 = _mm512_madd52lo_epu64 (c.lo0, x.l2, p.s1);
  c.hi0 = _mm512_madd52hi_epu64 (c.hi0, x.l2, p.s1);
  c.lo1 = _mm512_madd52lo_epu64 (c.lo1, x.l2, p.s2);
  c.hi1 = _mm512_madd52hi_epu64 (c.hi1, x.l2, p.s2);
  c.lo2 = _mm512_madd52lo_epu64 (c.lo2, x.l2, p.r0);
  c.hi2 = _mm512_madd52hi_epu64 (c.hi2, x.l2, p.r0);
}

/* The column sums to limbs below 2^45 (file comment: t, then the three
 * carries side by side).  */
inline vec3
reduce (const cols &c)
{
  const __m512i mask44 = m44 ();
  const __m512i mask42 = _mm512_srli_epi64 (mask44, 2);
  __m512i f = _mm512_slli_epi64 (c.hi2, 10);
  __m512i t0 = _mm512_add_epi64 (c.lo0, _mm512_add_epi64 (f, _mm512_slli_epi64 (f, 2)));
  __m512i t1 = _mm512_add_epi64 (c.lo1, _mm512_slli_epi64 (c.hi0, 8));
  __m512i t2 = _mm512_add_epi64 (c.lo2, _mm512_slli_epi64 (c.hi1, 8));
  __m512i c0 = _mm512_srli_epi64 (t0, 44);
  __m512i c1 = _mm512_srli_epi64 (t1, 44);
  __m512i c2 = _mm512_srli_epi64 (t2, 42);
  vec3 h;
  h.l0 = _mm512_add_epi64 (_mm512_and_si512 (t0, mask44),
                           _mm512_add_epi64 (c2, _mm512_slli_epi64 (c2, 2)));
  h.l1 = _mm512_add_epi64 (_mm512_and_si512 (t1, mask44), c0);
  h.l2 = _mm512_add_epi64 (_mm512_and_si512 (t2, mask42), c1);
  return h;
}

/* Eight blocks at M (128 bytes) as limbs, 2^128 bit set: lane 2L holds
 * block L, lane 2L + 1 block 4 + L (b(i) of the file comment).  */
inline vec3
load8 (const unsigned char *m)
{
  const __m512i mask44 = m44 ();
  __m512i a = _mm512_loadu_si512 (m);
  __m512i b = _mm512_loadu_si512 (m + 64);
  __m512i lo = _mm512_unpacklo_epi64 (a, b);   /* Bytes 0..7 of each.  */
  __m512i hi = _mm512_unpackhi_epi64 (a, b);   /* Bytes 8..15.  */
  vec3 x;
  x.l0 = _mm512_and_si512 (lo, mask44);
  /* (lo >> 44 | hi << 20) & mask44: ternary-logic (A | B) & C.  */
  x.l1 = _mm512_ternarylogic_epi64 (_mm512_srli_epi64 (lo, 44),
                                    _mm512_slli_epi64 (hi, 20), mask44,
                                    0xa8);
  x.l2 = _mm512_or_si512 (_mm512_srli_epi64 (hi, 24),
                          _mm512_set1_epi64 (1ll << 40));
  return x;
}

inline vec3
add (const vec3 &a, const vec3 &b)
{
  return { _mm512_add_epi64 (a.l0, b.l0), _mm512_add_epi64 (a.l1, b.l1),
           _mm512_add_epi64 (a.l2, b.l2) };
}

/* Lane 0 of every limb of P in all lanes.  */
inline vpow
broadcast0 (const vpow &p)
{
  const __m512i z = _mm512_setzero_si512 ();
  return { _mm512_permutexvar_epi64 (z, p.r0),
           _mm512_permutexvar_epi64 (z, p.r1),
           _mm512_permutexvar_epi64 (z, p.r2),
           _mm512_permutexvar_epi64 (z, p.s1),
           _mm512_permutexvar_epi64 (z, p.s2) };
}

/* X * P with a full carry after the reduction: limbs below 2^44 (2^42
 * for limb 2, plus 2^13): powers, computed once per message.  */
inline vec3
mul_full (const vec3 &x, const vpow &p)
{
  cols c = zero_cols ();
  mul_acc (c, x, p);
  vec3 h = reduce (c);
  const __m512i mask44 = m44 ();
  h.l1 = _mm512_add_epi64 (h.l1, _mm512_srli_epi64 (h.l0, 44));
  h.l0 = _mm512_and_si512 (h.l0, mask44);
  h.l2 = _mm512_add_epi64 (h.l2, _mm512_srli_epi64 (h.l1, 44));
  h.l1 = _mm512_and_si512 (h.l1, mask44);
  return h;
}

/* CTX->simd.p44: [0] lane i r^(16 - b(i)), [1] lane i r^(8 - b(i)).  */
void
setup_powers (poly1305_context *ctx)
{
  const uint64_t (*r)[3] = ctx->r;   /* r^1 .. r^4.  */
  vec3 lo4;   /* Lanes r^1..r^4, r^1..r^4.  */
  lo4.l0 = _mm512_setr_epi64 (r[0][0], r[1][0], r[2][0], r[3][0], r[0][0],
                              r[1][0], r[2][0], r[3][0]);
  lo4.l1 = _mm512_setr_epi64 (r[0][1], r[1][1], r[2][1], r[3][1], r[0][1],
                              r[1][1], r[2][1], r[3][1]);
  lo4.l2 = _mm512_setr_epi64 (r[0][2], r[1][2], r[2][2], r[3][2], r[0][2],
                              r[1][2], r[2][2], r[3][2]);
  /* Multiplier: 1 in lanes 0..3, r^4 in lanes 4..7.  */
  const __mmask8 up = 0xf0;
  __m512i one = _mm512_setr_epi64 (1, 1, 1, 1, 0, 0, 0, 0);
  __m512i z = _mm512_setzero_si512 ();
  vpow m4 = make_pow (_mm512_mask_set1_epi64 (one, up, (long long) r[3][0]),
                      _mm512_mask_set1_epi64 (z, up, (long long) r[3][1]),
                      _mm512_mask_set1_epi64 (z, up, (long long) r[3][2]));
  vec3 p8 = mul_full (lo4, m4);               /* Lane k: r^(k+1).  */
  vpow b8 = make_pow (p8.l0, p8.l1, p8.l2);
  /* r^8 (lane 7) everywhere.  */
  const __m512i seven = _mm512_set1_epi64 (7);
  vpow r8 = make_pow (_mm512_permutexvar_epi64 (seven, b8.r0),
                      _mm512_permutexvar_epi64 (seven, b8.r1),
                      _mm512_permutexvar_epi64 (seven, b8.r2));
  vec3 p16 = mul_full (p8, r8);               /* Lane k: r^(k+9).  */
  /* Lane i wants r^(8 - b(i)) = lane 7 - b(i) of p8 (of p16 for
   * r^(16 - b(i))).  */
  const __m512i idx = _mm512_setr_epi64 (7, 3, 6, 2, 5, 1, 4, 0);
  __m512i *out = reinterpret_cast<__m512i *> (&ctx->simd.p44[0][0][0]);
  _mm512_storeu_si512 (out + 0, _mm512_permutexvar_epi64 (idx, p16.l0));
  _mm512_storeu_si512 (out + 1, _mm512_permutexvar_epi64 (idx, p16.l1));
  _mm512_storeu_si512 (out + 2, _mm512_permutexvar_epi64 (idx, p16.l2));
  _mm512_storeu_si512 (out + 3, _mm512_permutexvar_epi64 (idx, p8.l0));
  _mm512_storeu_si512 (out + 4, _mm512_permutexvar_epi64 (idx, p8.l1));
  _mm512_storeu_si512 (out + 5, _mm512_permutexvar_epi64 (idx, p8.l2));
  ctx->simd_ready = 1;
}

inline vpow
load_pow (const uint64_t (*p)[8])
{
  return make_pow (_mm512_loadu_si512 (p[0]), _mm512_loadu_si512 (p[1]),
                   _mm512_loadu_si512 (p[2]));
}

} // namespace

int
_gcry_poly1305_have_ifma (void)
{
  return (_gcry_hwf_x86_extra () & HWF_X86_AVX512_IFMA) != 0;
}

unsigned int
_gcry_poly1305_avx512_blocks (poly1305_context *ctx, const unsigned char *m,
                              size_t nblocks)
{
  if (nblocks < 8)
    return 0;
  if (!ctx->simd_ready)
    setup_powers (ctx);
  /* Step: H <- (H + A) P16 + B P8 over the sixteen blocks at M.  */
  auto step = [] (vec3 &h, const unsigned char *m, const vpow &p16,
                  const vpow &p8) __attribute__ ((always_inline)) {
    vec3 a = load8 (m), b = load8 (m + 128);
    cols c = zero_cols ();
    mul_acc (c, b, p8);         /* Off the serial chain.  */
    mul_acc (c, add (h, a), p16);
    h = reduce (c);
  };

  /* The context's h in lane 0.  */
  vec3 h = { _mm512_zextsi128_si512 (_mm_cvtsi64_si128 ((long long) ctx->h[0])),
             _mm512_zextsi128_si512 (_mm_cvtsi64_si128 ((long long) ctx->h[1])),
             _mm512_zextsi128_si512 (_mm_cvtsi64_si128 ((long long) ctx->h[2])) };
  /* A last group of eight blocks (NBLOCKS = 16 T + 8) takes the final
   * step H <- (H + A) r^(8 - b(i)); the sixteen-block steps before it
   * are then all non-final (the file comment's exponents with 16 T + 8
   * for N).  */
  const bool tail8 = (nblocks & 8) != 0;
  size_t nonfinal = nblocks / 16 - (tail8 ? 0 : 1);
  if (nonfinal)
    {
      const vpow r16 = broadcast0 (load_pow (ctx->simd.p44[0]));
      const vpow r8 = broadcast0 (load_pow (ctx->simd.p44[1]));
      for (; nonfinal; nonfinal--, m += 16 * POLY1305_BLOCKSIZE)
        step (h, m, r16, r8);
    }
  if (!tail8)
    step (h, m, load_pow (ctx->simd.p44[0]), load_pow (ctx->simd.p44[1]));
  else
    {
      cols c = zero_cols ();
      mul_acc (c, add (h, load8 (m)), load_pow (ctx->simd.p44[1]));
      h = reduce (c);
    }

  /* Sum of the lanes (each limb below 2^45: sums below 2^48), then a
   * serial carry into the context's form.  */
  uint64_t h0 = (uint64_t) _mm512_reduce_add_epi64 (h.l0);
  uint64_t h1 = (uint64_t) _mm512_reduce_add_epi64 (h.l1);
  uint64_t h2 = (uint64_t) _mm512_reduce_add_epi64 (h.l2);
  constexpr uint64_t M44 = (1ull << 44) - 1, M42 = (1ull << 42) - 1;
  uint64_t c;
  c = h0 >> 44; h0 &= M44; h1 += c;
  c = h1 >> 44; h1 &= M44; h2 += c;
  c = h2 >> 42; h2 &= M42; h0 += c * 5;
  c = h0 >> 44; h0 &= M44; h1 += c;
  ctx->h[0] = h0; ctx->h[1] = h1; ctx->h[2] = h2;
  vec_clear_zmm ();
  return 4 * 64 + 8 * sizeof (void *);
}

#endif /* POLY1305_USE_SIMD */
