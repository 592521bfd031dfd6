/* twofish-simd.h - the Twofish SIMD kernel, one template over the
 * register width (Ops: simd-x86.h's vector traits X1, Y2 or Z4 as
 * tf_vec128, tf_vec256, tf_vec512; 8, 16 or 32 blocks per batch) and the
 * way the key-dependent S-boxes are evaluated.  Intrinsics: included only
 * by twofish-avx2.cpp, twofish-avx512.cpp and twofish-gfni-avx512.cpp,
 * which are compiled with those ISAs' flags and chain the widths
 * (cipher-batch-modes.h).
 *
 * Layout.  Word-sliced state: a batch of N = BYTES/2 blocks (Ops::BYTES
 * bytes per register) is 8 registers, two per state word R0..R3, after
 * an in-lane 4x4 transpose of 32-bit words (blocks are four
 * little-endian words, 4.1).  Per round the two g inputs, R0 and
 * R1 <<< 8 (4.3.1), are four registers of words; a byte shuffle (the
 * rotation by 8 folded into R1's) and another 4x4 word transpose turn
 * them into four byte planes: plane i holds byte i of every g input, so
 * every byte of a plane goes through the same key-dependent S-box s_i
 * (h without the MDS, 4.3.2).
 * Three ways to evaluate s_i on a plane (tf_sbox_kind):
 *
 *   NIBBLE  the q0/q1 layers of h as a chain of 16-entry lookups, with
 *           the key XORs folded into key-dependent tables
 *           (twofish-internal.h); 3 layers (128-bit keys) or 5 (256).
 *           Only setkey uses it: it computes the whole s_i tables
 *           (tf_sbox_builder) for the other two.
 *   ROWS    s_i as 16 rows of 16 bytes: every row looked up by the low
 *           nibble (PSHUFB), one kept per byte by a tree of blends on the
 *           bits of the high nibble (xmm/ymm: its last level through
 *           PSHUFB's zeroing on bit 7).  Independent of the key length.
 *   VBMI    s_i as four zmm registers, looked up by two VPERMI2B and a
 *           blend on bit 7.
 *
 * The MDS product is three constant multiples per plane (1, 0x5b, 0xef:
 * GF(2)-linear, so nibble-table lookups or GF2P8AFFINEQB) XORed across
 * planes; the planes go back to words the way they came, and the PHT,
 * round keys and the rotations by one bit (4.3.1, 4.3.6) run on 32-bit
 * lanes.
 *
 * Constant time: every table, public or key dependent, is loaded whole
 * into registers from fixed addresses and looked up by register
 * permutes (PSHUFB, VPERMI2B: data-independent timing); the blends,
 * XOR, AND, additions, shifts and shuffles by constants complete the
 * rest.  No branch and no memory index depends on the key or the data.
 */
#ifndef GCIPHER_TWOFISH_SIMD_H
#define GCIPHER_TWOFISH_SIMD_H

#include <immintrin.h>
#include <string.h>
#include "twofish-internal.h"
#include "gf256-gfni.h"
#include "bufhelp.h"
#include "vec-clear-x86.h"
#include "simd-x86.h"
#include "cipher-batch-modes.h"

#define TF_INLINE inline __attribute__ ((always_inline))

namespace {

/* The register operations: simd-x86.h's traits and whether the blends
 * run on k-masks.  Internal linkage like the traits: each ISA file
 * keeps its own copy of every kernel it instantiates.  */
struct tf_vec128 : simd_x86::X1
{
  static constexpr bool MASK_BLEND = false;   /* Blends on k-masks.  */
};

#ifdef __AVX2__
struct tf_vec256 : simd_x86::Y2
{
  static constexpr bool MASK_BLEND = false;
};
#endif

#ifdef __AVX512BW__
struct tf_vec512 : simd_x86::Z4
{
  static constexpr bool MASK_BLEND = true;
  /* Z4's key in the unmasked form (the ISA files silence GCC 12's
   * warning on it): with Z4's maskz form GCC 12 compiles crypt_blocks
   * differently (other registers and spills for the broadcast S-box
   * rows and tables, about 500 instructions fewer per direction), code
   * that has not been measured.  */
  static TF_INLINE T key (const void *p)
  { return _mm512_broadcast_i32x4 (_mm_load_si128 ((const __m128i *) p)); }
};
#endif

#if defined (__AVX512VBMI__) && defined (__GFNI__)
/* zmm with AVX512-VBMI and GFNI: a whole 256-entry byte table in four
 * registers, looked up by two VPERMI2B (index bits 0-6) and a blend on
 * bit 7; the MDS multiples by GF2P8AFFINEQB.  */
struct tf_vec512_vbmi : tf_vec512
{
  /* Y[0] = TAB[x], Y[1] = 0x5b TAB[x], Y[2] = 0xef TAB[x] for every byte
   * x of X (TAB 64-byte aligned).  */
  static TF_INLINE void sbox_mds (const uint8_t *tab, T x, T *y);
};
#endif

} // namespace

namespace twofish_detail {

inline constexpr tf_simd_tables tf_simd_tab = make_tf_simd_tables ();

/* The GF2P8AFFINEQB matrix (gf256-gfni.h) of the multiplication by C in
 * Twofish's MDS field (4.3.2; GF(2)-linear: column j = C x^j).  */
constexpr uint64_t
tf_gfni_mul (uint8_t c)
{
  gf256ct::bitmat m {};
  for (int j = 0; j < 8; j++)
    m.col[j] = tf_gf_mul (c, (uint8_t) (1u << j));
  return gf256ct::gfni_qword (m);
}

constexpr bool
tf_gfni_check (uint8_t c)
{
  for (unsigned x = 0; x < 256; x++)
    if (gf256ct::gfni_affine (tf_gfni_mul (c), (uint8_t) x, 0)
        != tf_gf_mul (c, (uint8_t) x))
      return false;
  return true;
}

static_assert (tf_gfni_check (0x5b) && tf_gfni_check (0xef),
               "Twofish MDS multiples as GFNI matrices");

/* How a kernel evaluates the key-dependent S-boxes s_0..s_3 of h.  */
enum tf_sbox_kind
{
  TF_SBOX_NIBBLE,   /* The nibble chain, q layer by q layer.  */
  TF_SBOX_ROWS,     /* CTX->sbox: 16 PSHUFB rows, one kept per byte.  */
  TF_SBOX_VBMI      /* CTX->sbox: Ops::sbox_mds (VPERMI2B, GFNI).  */
};

/* Ops: the register operations; SBOX: a tf_sbox_kind.  */
template <class Ops, int SBOX = TF_SBOX_NIBBLE>
struct twofish_simd
{
  typedef typename Ops::T V;
  static constexpr size_t N = Ops::BYTES / 2;   /* Blocks per batch.  */
  /* Frame of crypt_blocks: the state, the planes and the tables GCC
   * keeps broadcast on the stack (up to about 150 registers' worth, the
   * 64 S-box rows among them: 9.2 KiB for zmm, 2.6 KiB for ymm with
   * GCC 12 on x86-64), and temporaries.  */
  static constexpr unsigned int BURN = 160 * Ops::BYTES + 1024;

  static TF_INLINE V
  T (const uint8_t *p)
  {
    return Ops::key (p);
  }

  static TF_INLINE V
  look (const uint8_t *table, V idx)
  {
    return Ops::shuffle8 (Ops::key (table), idx);
  }

  /* In-lane 4x4 transpose of 32-bit words (simd-x86.h; an
   * involution).  */
  static TF_INLINE void
  transpose (V &a, V &b, V &c, V &d)
  {
    simd_x86::word_transpose4<Ops> (a, b, c, d);
  }

  /* h (4.3.2) from layer FIRST (0: k = 4, 2: k = 2) on byte plane I,
   * then the three MDS multiples of the result: Y[0] = y, Y[1] = 0x5b y,
   * Y[2] = 0xef y.  */
  template <int FIRST, int I>
  static TF_INLINE void
  h_plane (const TWOFISH_context *ctx, V p, V *y)
  {
    const tf_simd_tables &tb = tf_simd_tab;
    if constexpr (SBOX == TF_SBOX_VBMI)
      {
        Ops::sbox_mds (ctx->sbox[I], p, y);
        return;
      }
    else if constexpr (SBOX == TF_SBOX_ROWS)
      {
        /* Row H of s_I holds s_I (16 H + v) at v: every row looked up
         * by the low nibble, then a tree of blends on the bits of the
         * high nibble (bit 4 + L moved to bit 7, which PBLENDVB and
         * VPMOVB2M test).  With PBLENDVB (xmm, ymm) the last level is
         * PSHUFB's zeroing on bit 7: rows H and H + 8 looked up by P and
         * by P ^ 0x80 and ORed (fewer blends, which compete with the
         * shuffles for ports); with mask registers (zmm) blends are
         * cheap and the tree is complete.  */
        const uint8_t *row = ctx->sbox[I];
        V r[8];
        if constexpr (Ops::MASK_BLEND)
          {
            const V lo = Ops::nib_lo (p);
            const V m0 = Ops::template slli16<3> (p);
#pragma GCC unroll 8
            for (int h = 0; h < 8; h++)
              r[h] = Ops::blendv8 (look (row + 32 * h, lo),
                                   look (row + 32 * h + 16, lo), m0);
            const V m1 = Ops::template slli16<2> (p);
#pragma GCC unroll 4
            for (int h = 0; h < 4; h++)
              r[h] = Ops::blendv8 (r[2 * h], r[2 * h + 1], m1);
            const V m2 = Ops::template slli16<1> (p);
            r[0] = Ops::blendv8 (r[0], r[1], m2);
            r[1] = Ops::blendv8 (r[2], r[3], m2);
            r[0] = Ops::blendv8 (r[0], r[1], p);
          }
        else
          {
            const V pf = p ^ Ops::set1_8 ((char) 0x80);
#pragma GCC unroll 8
            for (int h = 0; h < 8; h++)
              r[h] = look (row + 16 * h, p) | look (row + 16 * (h + 8), pf);
            const V m0 = Ops::template slli16<3> (p);
#pragma GCC unroll 4
            for (int h = 0; h < 4; h++)
              r[h] = Ops::blendv8 (r[2 * h], r[2 * h + 1], m0);
            const V m1 = Ops::template slli16<2> (p);
            r[0] = Ops::blendv8 (r[0], r[1], m1);
            r[1] = Ops::blendv8 (r[2], r[3], m1);
            r[0] = Ops::blendv8 (r[0], r[1], Ops::template slli16<1> (p));
          }
        const V s = r[0];
        const V sl = Ops::nib_lo (s), sh = Ops::nib_hi (s);
        y[0] = s;
        y[1] = look (tb.mul_lo[1], sl) ^ look (tb.mul_hi[1], sh);
        y[2] = look (tb.mul_lo[2], sl) ^ look (tb.mul_hi[2], sh);
        return;
      }
    const V lo = Ops::nib_lo (p), hi = Ops::nib_hi (p);
    V a = hi ^ lo;
    V b = look (tb.in_fa, hi) ^ look (tb.in_ror, lo);
#pragma GCC unroll 5
    for (int l = FIRST; l < 5; l++)
      {
        const int q = tf_layer_q (l, I);
        const V a3 = look (tb.t0[q], a) ^ look (tb.t1[q], b);
        const V b3 = look (tb.fat0[q], a) ^ look (tb.rort1[q], b);
        if (l < 4)
          {
            a = look (ctx->ktab[l][I][0], a3) ^ look (tb.t3[q], b3);
            b = look (ctx->ktab[l][I][1], a3) ^ look (tb.fat3[q], b3);
          }
        else
          {
#pragma GCC unroll 3
            for (int c = 0; c < 3; c++)
              y[c] = look (tb.mlo[q][c], a3) ^ look (tb.mhi[q][c], b3);
          }
      }
  }

  /* T0 = g (A) and T1 = g (B <<< 8) (4.3.1) of the words in A[0..1],
   * B[0..1].  */
  template <int FIRST>
  static TF_INLINE void
  g2 (const TWOFISH_context *ctx, const V *a, const V *b, V *t0, V *t1)
  {
    const tf_simd_tables &tb = tf_simd_tab;
    const V ga = T (tb.gather_a), gb = T (tb.gather_b);
    V p[4] = { Ops::shuffle8 (a[0], ga), Ops::shuffle8 (a[1], ga),
               Ops::shuffle8 (b[0], gb), Ops::shuffle8 (b[1], gb) };
    transpose (p[0], p[1], p[2], p[3]);
    V y[4][3];
    h_plane<FIRST, 0> (ctx, p[0], y[0]);
    h_plane<FIRST, 1> (ctx, p[1], y[1]);
    h_plane<FIRST, 2> (ctx, p[2], y[2]);
    h_plane<FIRST, 3> (ctx, p[3], y[3]);
    V z[4];
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++)
      z[j] = y[0][tf_mds_idx (j, 0)] ^ y[1][tf_mds_idx (j, 1)]
             ^ y[2][tf_mds_idx (j, 2)] ^ y[3][tf_mds_idx (j, 3)];
    transpose (z[0], z[1], z[2], z[3]);
    t0[0] = Ops::shuffle8 (z[0], ga);
    t0[1] = Ops::shuffle8 (z[1], ga);
    t1[0] = Ops::shuffle8 (z[2], ga);
    t1[1] = Ops::shuffle8 (z[3], ga);
  }

  /* Round N (4.3.1) with g inputs GA, GB, updating U, V2 (encryption:
   * U = (U ^ F0) >>> 1, V2 = (V2 <<< 1) ^ F1; decryption the inverse). */
  template <bool DECRYPT, int FIRST>
  static TF_INLINE void
  round (const TWOFISH_context *ctx, const V *ga, const V *gb, V *u, V *v,
         int n)
  {
    V t0[2], t1[2];
    g2<FIRST> (ctx, ga, gb, t0, t1);
    const V k0 = Ops::set1_32 (ctx->K[2 * n + 8]);
    const V k1 = Ops::set1_32 (ctx->K[2 * n + 9]);
#pragma GCC unroll 2
    for (int s = 0; s < 2; s++)
      {
        const V sum = Ops::add32 (t0[s], t1[s]);
        const V f0 = Ops::add32 (sum, k0);
        const V f1 = Ops::add32 (Ops::add32 (sum, t1[s]), k1);
        if (DECRYPT)
          {
            u[s] = Ops::template rol32<1> (u[s]) ^ f0;
            v[s] = Ops::template rol32<31> (v[s] ^ f1);
          }
        else
          {
            u[s] = Ops::template rol32<31> (u[s] ^ f0);
            v[s] = Ops::template rol32<1> (v[s]) ^ f1;
          }
      }
  }

  template <bool DECRYPT, int FIRST>
  static TF_INLINE void
  crypt (const TWOFISH_context *ctx, unsigned char *out,
         const unsigned char *in)
  {
    /* Words w0..w3 of the blocks; A, B, C, D as in twofish.cpp's
     * tf_encrypt / tf_decrypt without the swaps: encryption starts
     * from (A, B, C, D) = (w0, w1, w2, w3) ^ K0..K3, decryption from
     * (w2, w3, w0, w1) ^ (K6, K7, K4, K5).  */
    V w[4][2];
#pragma GCC unroll 2
    for (int s = 0; s < 2; s++)
      {
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++)
          w[j][s] = Ops::load (in + Ops::BYTES * (4 * s + j));
        transpose (w[0][s], w[1][s], w[2][s], w[3][s]);
      }
    V A[2], B[2], C[2], D[2];
    const uint32_t *K = ctx->K;
#pragma GCC unroll 2
    for (int s = 0; s < 2; s++)
      {
        if (DECRYPT)
          {
            A[s] = w[2][s] ^ Ops::set1_32 (K[6]);
            B[s] = w[3][s] ^ Ops::set1_32 (K[7]);
            C[s] = w[0][s] ^ Ops::set1_32 (K[4]);
            D[s] = w[1][s] ^ Ops::set1_32 (K[5]);
          }
        else
          {
            A[s] = w[0][s] ^ Ops::set1_32 (K[0]);
            B[s] = w[1][s] ^ Ops::set1_32 (K[1]);
            C[s] = w[2][s] ^ Ops::set1_32 (K[2]);
            D[s] = w[3][s] ^ Ops::set1_32 (K[3]);
          }
      }
    for (int r = 0; r < 16; r += 2)
      {
        if (DECRYPT)
          {
            round<true, FIRST> (ctx, C, D, A, B, 15 - r);
            round<true, FIRST> (ctx, A, B, C, D, 14 - r);
          }
        else
          {
            round<false, FIRST> (ctx, A, B, C, D, r);
            round<false, FIRST> (ctx, C, D, A, B, r + 1);
          }
      }
    /* Output: (C, D, A, B) ^ K4..K7, decryption (A, B, C, D) ^ K0..K3. */
#pragma GCC unroll 2
    for (int s = 0; s < 2; s++)
      {
        V o[4];
        if (DECRYPT)
          {
            o[0] = A[s] ^ Ops::set1_32 (K[0]);
            o[1] = B[s] ^ Ops::set1_32 (K[1]);
            o[2] = C[s] ^ Ops::set1_32 (K[2]);
            o[3] = D[s] ^ Ops::set1_32 (K[3]);
          }
        else
          {
            o[0] = C[s] ^ Ops::set1_32 (K[4]);
            o[1] = D[s] ^ Ops::set1_32 (K[5]);
            o[2] = A[s] ^ Ops::set1_32 (K[6]);
            o[3] = B[s] ^ Ops::set1_32 (K[7]);
          }
        transpose (o[0], o[1], o[2], o[3]);
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++)
          Ops::store (out + Ops::BYTES * (4 * s + j), o[j]);
      }
  }

  /* N blocks from IN to OUT (may be equal).  */
  template <bool DECRYPT>
  static __attribute__ ((noinline)) void
  crypt_blocks (const void *c, unsigned char *out, const unsigned char *in)
  {
    const TWOFISH_context *ctx = (const TWOFISH_context *) c;
    if (ctx->k == 4)
      crypt<DECRYPT, 0> (ctx, out, in);
    else
      crypt<DECRYPT, 2> (ctx, out, in);
  }
};

/* ---- One block in registers (the crypt_one kernels of the paths) ----
 * The round structure of twofish.cpp's generic code on 32-bit words;
 * G2 (R0, R1) returns g (R0) | g (R1 <<< 8) << 32 (4.3.1), computed on
 * the eight S-box input bytes of tf_one_g_input in one register.  */

inline uint64_t
tf_one_g_input (uint32_t r0, uint32_t r1)
{
  return r0 | ((uint64_t) ((r1 << 8) | (r1 >> 24)) << 32);
}

/* pshufb indices of the MDS product (4.3.2) of the two words in the low
 * qword of an xmm: output byte 4 w + j takes byte 4 w + i of the multiple
 * by M[j][i]; C selects the constant (tf_mds_const), K the first (0) or
 * second (1) column of row j holding it (0x80: none, the lane zeroed). */
constexpr uint64_t
tf_one_mds_idx (int c, int k)
{
  uint64_t r = 0;
  for (int w = 0; w < 2; w++)
    for (int j = 0; j < 4; j++)
      {
        int found = 0, src = 0x80;
        for (int i = 0; i < 4; i++)
          if (tf_mds_idx (j, i) == c && found++ == k)
            src = 4 * w + i;
        r |= (uint64_t) src << (8 * (4 * w + j));
      }
  return r;
}

/* The MDS product (4.3.2) of both words from the multiples Y, Y5B, YEF
 * of their S-box output bytes (low qwords).  */
TF_INLINE uint64_t
tf_one_mds (__m128i y, __m128i y5b, __m128i yef)
{
  typedef simd_x86::X1 X1;
  const __m128i z = X1::shuffle8 (y, X1::bcast64 (tf_one_mds_idx (0, 0)))
                    ^ X1::shuffle8 (y5b, X1::bcast64 (tf_one_mds_idx (1, 0)))
                    ^ X1::shuffle8 (y5b, X1::bcast64 (tf_one_mds_idx (1, 1)))
                    ^ X1::shuffle8 (yef, X1::bcast64 (tf_one_mds_idx (2, 0)))
                    ^ X1::shuffle8 (yef, X1::bcast64 (tf_one_mds_idx (2, 1)));
  uint64_t r;
  _mm_storel_epi64 ((__m128i *) &r, z);
  return r;
}

TF_INLINE uint32_t
tf_rol32 (uint32_t x, int n)
{
  return (x << n) | (x >> (32 - n));
}

template <bool DECRYPT, class G2>
TF_INLINE void
tf_crypt_one (const TWOFISH_context *ctx, unsigned char *out,
              const unsigned char *in, const G2 &g2)
{
  const uint32_t *K = ctx->K;
  uint32_t w[4];
  for (int i = 0; i < 4; i++)
    w[i] = buf_get_le32 (in + 4 * i);
  uint32_t a, b, c, d;
  if (DECRYPT)
    {
      /* tf_decrypt_generic with the swaps unrolled in pairs.  */
      a = w[2] ^ K[6], b = w[3] ^ K[7], c = w[0] ^ K[4], d = w[1] ^ K[5];
      for (int n = 15; n > 0; n -= 2)
        {
          uint64_t t = g2 (c, d);
          uint32_t t0 = (uint32_t) t, t1 = (uint32_t) (t >> 32);
          a = tf_rol32 (a, 1) ^ (t0 + t1 + K[2 * n + 8]);
          b = tf_rol32 (b ^ (t0 + 2 * t1 + K[2 * n + 9]), 31);
          t = g2 (a, b);
          t0 = (uint32_t) t;
          t1 = (uint32_t) (t >> 32);
          c = tf_rol32 (c, 1) ^ (t0 + t1 + K[2 * n + 6]);
          d = tf_rol32 (d ^ (t0 + 2 * t1 + K[2 * n + 7]), 31);
        }
      w[0] = a ^ K[0], w[1] = b ^ K[1], w[2] = c ^ K[2], w[3] = d ^ K[3];
    }
  else
    {
      a = w[0] ^ K[0], b = w[1] ^ K[1], c = w[2] ^ K[2], d = w[3] ^ K[3];
      for (int n = 0; n < 16; n += 2)
        {
          uint64_t t = g2 (a, b);
          uint32_t t0 = (uint32_t) t, t1 = (uint32_t) (t >> 32);
          c = tf_rol32 (c ^ (t0 + t1 + K[2 * n + 8]), 31);
          d = tf_rol32 (d, 1) ^ (t0 + 2 * t1 + K[2 * n + 9]);
          t = g2 (c, d);
          t0 = (uint32_t) t;
          t1 = (uint32_t) (t >> 32);
          a = tf_rol32 (a ^ (t0 + t1 + K[2 * n + 10]), 31);
          b = tf_rol32 (b, 1) ^ (t0 + 2 * t1 + K[2 * n + 11]);
        }
      w[0] = c ^ K[4], w[1] = d ^ K[5], w[2] = a ^ K[6], w[3] = b ^ K[7];
    }
  for (int i = 0; i < 4; i++)
    buf_put_le32 (out + 4 * i, w[i]);
}

#ifdef __AVX2__
namespace {

/* One block in registers for the chained modes and the single-block
 * functions of the avx2 and avx512 paths (cipher-batch-modes.h's
 * crypt_one of tf_avx2_one below, built in twofish-avx2.cpp;
 * tf_crypt_one above).  The eight S-box input bytes of a round sit in
 * the low qword of both lanes of a ymm, and a lane's PSHUFB takes its
 * own table: two ymm S-box lookups (the rows of TF_SBOX_ROWS) give s_0
 * and s_1, s_2 and s_3 of all eight bytes, and blends on byte-position
 * masks keep s_i at position i.  The MDS multiples by nibble tables.
 * Constant time: register shuffles and blends only.  */
struct tf_kernel_one_avx2 : twofish_simd<tf_vec128, TF_SBOX_ROWS>
{
  typedef simd_x86::X1 X1;
  typedef simd_x86::Y2 Y2;

  struct tables
  {
    __m256i row[2][16];   /* Row H of s_2G (low lane) and s_2G+1 (high). */
  };

  static TF_INLINE __m256i
  rows2 (const __m256i *row, __m256i p)
  {
    const __m256i pf = p ^ Y2::set1_8 ((char) 0x80);
    __m256i r[8];
#pragma GCC unroll 8
    for (int h = 0; h < 8; h++)
      r[h] = Y2::shuffle8 (row[h], p) | Y2::shuffle8 (row[h + 8], pf);
    const __m256i m0 = Y2::slli16<3> (p);
#pragma GCC unroll 4
    for (int h = 0; h < 4; h++)
      r[h] = Y2::blendv8 (r[2 * h], r[2 * h + 1], m0);
    const __m256i m1 = Y2::slli16<2> (p);
    r[0] = Y2::blendv8 (r[0], r[1], m1);
    r[1] = Y2::blendv8 (r[2], r[3], m1);
    return Y2::blendv8 (r[0], r[1], Y2::slli16<1> (p));
  }

  /* Bit 7 set in the bytes of position I (of 4) of the low qword.  */
  static constexpr uint64_t
  pos_mask (int i)
  {
    return (0x80ull << (8 * i)) | (0x80ull << (8 * (i + 4)));
  }

  static TF_INLINE uint64_t
  g2 (const tables &tb, uint32_t r0, uint32_t r1)
  {
    const __m256i p = Y2::bcast64 (tf_one_g_input (r0, r1));
    const __m256i s01 = rows2 (tb.row[0], p), s23 = rows2 (tb.row[1], p);
    __m128i y = Y2::lane0 (s01);
    y = X1::blendv8 (y, Y2::last (s01), X1::bcast64 (pos_mask (1)));
    y = X1::blendv8 (y, Y2::lane0 (s23), X1::bcast64 (pos_mask (2)));
    y = X1::blendv8 (y, Y2::last (s23), X1::bcast64 (pos_mask (3)));
    const tf_simd_tables &t = tf_simd_tab;
    const __m128i lo = X1::nib_lo (y), hi = X1::nib_hi (y);
    const __m128i y5b = look (t.mul_lo[1], lo) ^ look (t.mul_hi[1], hi);
    const __m128i yef = look (t.mul_lo[2], lo) ^ look (t.mul_hi[2], hi);
    return tf_one_mds (y, y5b, yef);
  }

  /* One block from IN to OUT (may be equal): twofish-avx2.cpp's
   * _gcry_twofish_avx2_blk1_enc / _dec.  */
  template <bool DECRYPT>
  static TF_INLINE void
  crypt_one (const void *c, unsigned char *out, const unsigned char *in)
  {
    const TWOFISH_context *ctx = (const TWOFISH_context *) c;
    tables tb;
#pragma GCC unroll 2
    for (int g = 0; g < 2; g++)
#pragma GCC unroll 16
      for (int h = 0; h < 16; h++)
        tb.row[g][h] = _mm256_inserti128_si256 (
          _mm256_castsi128_si256 (_mm_load_si128 (
            (const __m128i *) (ctx->sbox[2 * g] + 16 * h))),
          _mm_load_si128 ((const __m128i *) (ctx->sbox[2 * g + 1] + 16 * h)),
          1);
    tf_crypt_one<DECRYPT> (ctx, out, in, [&tb] (uint32_t r0, uint32_t r1) {
      return g2 (tb, r0, r1);
    });
  }
};

} // namespace

/* ---- twofish-avx2.cpp's narrow kernels, shared by every path ----
 * The ymm and xmm batches (twofish_simd<tf_vec256 / tf_vec128,
 * TF_SBOX_ROWS>) and tf_kernel_one_avx2's one block are built once, in
 * twofish-avx2.cpp with AVX2, as _gcry_twofish_avx2_blk16 / blk8 / blk1
 * (twofish-internal.h), and the AVX-512 files chain their zmm batches
 * with the same functions (every CPU with AVX-512 has AVX2): copies of
 * their own would add about 86 KB of code for the tails below 32 blocks
 * and the chained modes.  */
typedef batch_called<twofish_simd<tf_vec256, TF_SBOX_ROWS>,
                     _gcry_twofish_avx2_blk16_enc,
                     _gcry_twofish_avx2_blk16_dec> tf_avx2_ymm;
typedef batch_called<twofish_simd<tf_vec128, TF_SBOX_ROWS>,
                     _gcry_twofish_avx2_blk8_enc,
                     _gcry_twofish_avx2_blk8_dec> tf_avx2_xmm;

/* The xmm batch with tf_kernel_one_avx2's one block: the narrowest
 * kernel of the avx2 and avx512 paths.  */
typedef batch_called_one<twofish_simd<tf_vec128, TF_SBOX_ROWS>,
                         _gcry_twofish_avx2_blk8_enc,
                         _gcry_twofish_avx2_blk8_dec,
                         _gcry_twofish_avx2_blk1_enc,
                         _gcry_twofish_avx2_blk1_dec> tf_avx2_one;

#endif

/* CTX->sbox (twofish-internal.h) from the nibble kernel on Ops: s_I of
 * all 256 bytes, Ops::BYTES at a time; CTX->ktab must be set.  Out of
 * line and ending with CLEAR (which zeroes registers GCC does not know
 * about: no caller value may live in a vector register across it, and
 * none does across a call).  */
template <class Ops, void (*CLEAR) ()>
struct tf_sbox_builder
{
  typedef twofish_simd<Ops, TF_SBOX_NIBBLE> K;

  template <int FIRST, int I>
  static TF_INLINE void
  plane (TWOFISH_context *ctx)
  {
    for (size_t c = 0; c < 256; c += Ops::BYTES)
      {
        typename Ops::T y[3];
        K::template h_plane<FIRST, I> (ctx, Ops::load (tf_simd_tab.iota + c),
                                       y);
        Ops::store (ctx->sbox[I] + c, y[0]);
      }
  }

  template <int FIRST>
  static TF_INLINE void
  planes (TWOFISH_context *ctx)
  {
    plane<FIRST, 0> (ctx);
    plane<FIRST, 1> (ctx);
    plane<FIRST, 2> (ctx);
    plane<FIRST, 3> (ctx);
  }

  static __attribute__ ((noinline)) void
  build (TWOFISH_context *ctx)
  {
    if (ctx->k == 4)
      planes<0> (ctx);
    else
      planes<2> (ctx);
    CLEAR ();
  }
};

} // namespace twofish_detail

#if defined (__AVX512VBMI__) && defined (__GFNI__)
inline __attribute__ ((always_inline)) void
tf_vec512_vbmi::sbox_mds (const uint8_t *tab, T x, T *y)
{
  using twofish_detail::tf_gfni_mul;
  const T t0 = _mm512_load_si512 ((const void *) tab);
  const T t1 = _mm512_load_si512 ((const void *) (tab + 64));
  const T t2 = _mm512_load_si512 ((const void *) (tab + 128));
  const T t3 = _mm512_load_si512 ((const void *) (tab + 192));
  const T lo = _mm512_permutex2var_epi8 (t0, x, t1);
  const T hi = _mm512_permutex2var_epi8 (t2, x, t3);
  const T s = blendv8 (lo, hi, x);
  y[0] = s;
  y[1] = affine<0> (s, bcast64 (tf_gfni_mul (0x5b)));
  y[2] = affine<0> (s, bcast64 (tf_gfni_mul (0xef)));
}
#endif

#endif /* GCIPHER_TWOFISH_SIMD_H */
