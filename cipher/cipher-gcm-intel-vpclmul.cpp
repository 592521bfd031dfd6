/* cipher-gcm-intel-vpclmul.cpp - GHASH (NIST SP 800-38D 6.4) with
 * VPCLMULQDQ on 256-bit (AVX2, 2 blocks per instruction) and 512-bit
 * (AVX-512, 4 blocks per instruction) registers; POLYVAL (RFC 8452 3)
 * through the same code for GCM-SIV.  The stitched VAES kernels of GCM
 * and GCM-SIV decryption, which read this key area (its layout is in
 * cipher-gcm-intel-vpclmul.h), are cipher-gcm-intel-vaes-avx512.cpp and
 * cipher-gcm-intel-vaes-avx2.cpp.
 *
 * Same representation as cipher-gcm-intel-pclmul.cpp (blocks loaded
 * byte-reversed, key powers stored premultiplied by x^-1, so a carry-less
 * product needs no 1-bit shift; cipher-gcm-intel-clmul.h).  The key area
 * starts with exactly the pclmul back end's layout (H^1..H^8 and their
 * Karatsuba halves), so its 128-bit code serves the tails, and continues
 * with H^64..H^1 in load order (hp[i] = H^(64-i) * x^-1; the AVX2 back
 * end fills hp[32..63] only): one 512-bit load gives the powers for four
 * consecutive blocks, e.g. hp[48..51] = H^16..H^13 for blocks 0..3 of a
 * 16-block run; then hkp[i], the XOR of
 * hp[i]'s two 64-bit halves in both halves of the lane (the Karatsuba
 * operand of the key).
 *
 * Every block D (halves d1 x^64 + d0) is multiplied with its power P
 * (p1 x^64 + p0) the Karatsuba way, three carry-less products instead of
 * the schoolbook four:
 *   D P = d1 p1 x^128 + (d1 p0 + d0 p1) x^64 + d0 p0,
 *   d1 p0 + d0 p1 = (d1 + d0) (p1 + p0) + d1 p1 + d0 p0   (over GF(2)),
 * so each lane forms LO = d0 p0, HI = d1 p1 and M = (d1 + d0) (p1 + p0)
 * (the last with hkp, and D's halves XORed by one VPSHUFD and one XOR).
 * The three sums run over a whole run of blocks unreduced; at the end the
 * middle is recovered as M + LO + HI, folded into [HI : LO] at x^64 and
 * each lane reduced (finish512_karatsuba), then the lanes are XORed to
 * 128 bits.  VPCLMULQDQ is the bottleneck of this code (one instruction
 * per two cycles whatever the width on Zen 4 and Zen 5, measured; the
 * AES unit runs beside it), so the fourth product saved is a quarter of
 * the GHASH time.  The running value Y is XORed into the run's first
 * block (it then meets the run's top power).  POLYVAL is the same
 * computation without the byte reversals of the blocks and of Y, on the
 * key area of mulX_GHASH (ByteReverse (H)) (RFC 8452 Appendix A: the two
 * reversals cancel).  The functions carry their ISA as target
 * attributes (the file itself is built for PCLMUL/SSE4.1 only) and are
 * only installed when the hwf bits say the CPU has them.
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-gcm-intel-vpclmul.h"
#include "frame-depth-x86.h"
#include "vec-clear-x86.h"


namespace {

/* ---- AVX2: 32, 16 and 8 blocks per reduction, two per ymm register -- */

/* The Karatsuba products of D and P (Q: P's halves XORed), accumulated
 * (see the head of this file).  The sums are hidden from the optimiser
 * after each block: otherwise GCC 12 computes a 32-block run's 48
 * products before any sum and spills them, 1 KiB of products of the
 * data with powers of H in the frame.  */
TARGET_AVX2 inline void
mul2_acc (__m256i d, __m256i p, __m256i q, __m256i &lo, __m256i &mid,
          __m256i &hi)
{
  lo = _mm256_xor_si256 (lo, _mm256_clmulepi64_epi128 (d, p, 0x00));
  hi = _mm256_xor_si256 (hi, _mm256_clmulepi64_epi128 (d, p, 0x11));
  const __m256i dk = _mm256_xor_si256 (d, _mm256_shuffle_epi32 (d, 0x4e));
  mid = _mm256_xor_si256 (mid, _mm256_clmulepi64_epi128 (dk, q, 0x00));
  asm ("" : "+x" (lo), "+x" (mid), "+x" (hi));
}

/* Y continued over the whole NB-block runs of BUF (NB = 16 or 32):
 * block i of a run multiplied by H^(NB-i) (hp[64-NB..63], two powers
 * per load), Y folded into the first block, one reduction per run.  The
 * products are this code's bottleneck: NB blocks take 3 NB/2 + 2, where
 * the 8-block runs below take 17 per 8.  A run's chain from Y (one
 * product, one sum, the reduction) is shorter than the time its products
 * take to issue, so Y goes into the first block here and not beside it
 * as in the 8-block runs; the first block's products are summed last,
 * and the loop is unrolled (with the loop kept, GCC left a branch on
 * the first block in it).  On AMD Zen 4 with AVX-512 off, GHASH of 16
 * KiB (GCM authenticate): 8-block runs 1262-1280 ns, 16-block runs
 * 981-986, 32-block runs 960-976; libgcrypt master 930-944.  REV as
 * ghash256; BUF and NBLOCKS advanced.  */
template <bool REV, int NB>
TARGET_AVX2 inline __m128i
ghash256_runs (const vpclmul_key *k, __m128i y, const unsigned char *&buf,
               size_t &nblocks)
{
  static_assert (NB == 16 || NB == 32, "the AVX2 key has H^1..H^32");
  const __m256i mask = _mm256_broadcastsi128_si256 (bswap_mask128 ());
  const __m256i *hp = reinterpret_cast<const __m256i *> (k->hp + 64 - NB);
  const __m256i *hk = reinterpret_cast<const __m256i *> (k->hkp + 64 - NB);
  for (; nblocks >= NB; nblocks -= NB, buf += 16 * NB)
    {
      /* The powers' address hidden from the optimiser: loaded where
       * used, not hoisted out of the loop into 2 KiB of spill slots.  */
      asm ("" : "+r" (hp), "+r" (hk));
      const __m256i *b = reinterpret_cast<const __m256i *> (buf);
      __m256i lo = _mm256_setzero_si256 (), mid = lo, hi = lo;
#pragma GCC unroll 16
      for (int j = NB / 2 - 1; j >= 0; j--)
        {
          __m256i d = _mm256_loadu_si256 (b + j);
          if (REV)
            d = _mm256_shuffle_epi8 (d, mask);
          if (j == 0)
            d = _mm256_xor_si256 (d, _mm256_zextsi128_si256 (y));
          mul2_acc (d, _mm256_load_si256 (hp + j), _mm256_load_si256 (hk + j),
                    lo, mid, hi);
        }
      y = finish128_karatsuba (hxor256 (lo), hxor256 (mid), hxor256 (hi));
    }
  return y;
}

/* Y continued over the whole 8-block runs of BUF (REV: blocks
 * byte-reversed on load, GHASH; without: POLYVAL through Appendix A of
 * RFC 8452, see ghash512), the 32-block runs first, then a 16-block one
 * (ghash256_runs).  BUF and NBLOCKS advanced (fewer than 8 blocks
 * left).  */
template <bool REV>
TARGET_AVX2 inline __m128i
ghash256 (const vpclmul_key *k, __m128i y, const unsigned char *&buf,
          size_t &nblocks)
{
  y = ghash256_runs<REV, 32> (k, y, buf, nblocks);
  y = ghash256_runs<REV, 16> (k, y, buf, nblocks);
  const __m256i mask = _mm256_broadcastsi128_si256 (bswap_mask128 ());
  const __m256i *hp = reinterpret_cast<const __m256i *> (k->hp + 56);
  const __m256i *hk = reinterpret_cast<const __m256i *> (k->hkp + 56);
  for (; nblocks >= 8; nblocks -= 8, buf += 128)
    {
      asm ("" : "+r" (hp), "+r" (hk));   /* As in ghash256_runs.  */
      const __m256i *b = reinterpret_cast<const __m256i *> (buf);
      __m256i lo = _mm256_setzero_si256 (), mid = lo, hi = lo;
      for (int j = 0; j < 4; j++)
        {
          __m256i d = _mm256_loadu_si256 (b + j);
          if (REV)
            d = _mm256_shuffle_epi8 (d, mask);
          mul2_acc (d, _mm256_load_si256 (hp + j), _mm256_load_si256 (hk + j),
                    lo, mid, hi);
        }
      /* Y enters as Y H^8, off the products' chain.  */
      __m128i l = hxor256 (lo), m = hxor256 (mid), h = hxor256 (hi);
      mul1_acc (y, k->hp[56], k->hkp[56], l, m, h);
      y = finish128_karatsuba (l, m, h);
    }
  return y;
}

/* Lane by lane: A * B, operands premultiplied by x^-1 (mul_premul),
 * the Karatsuba way (finish256_karatsuba).  */
TARGET_AVX2 inline __m256i
mul_premul2 (__m256i a, __m256i b)
{
  const __m256i lo = _mm256_clmulepi64_epi128 (a, b, 0x00);
  const __m256i hi = _mm256_clmulepi64_epi128 (a, b, 0x11);
  const __m256i mid = _mm256_clmulepi64_epi128 (
      _mm256_xor_si256 (a, _mm256_shuffle_epi32 (a, 0x4e)),
      _mm256_xor_si256 (b, _mm256_shuffle_epi32 (b, 0x4e)), 0x00);
  return finish256_karatsuba (lo, mid, hi);
}

/* The key area for the AVX2 back end: the pclmul layout (H^1..H^8),
 * then hp[32..63] = H^32..H^1 and their halves, the most its kernels
 * read (8-block runs; the stitched GCM and GCM-SIV kernel's pairs of
 * 16-block groups).  Two powers per register in hp's order, R_j =
 * [H^(2j+2), H^(2j+1)] at hp + 62 - 2j; R_(step+j) = R_j H^(2 step)
 * lane by lane: 12 products in two dependent steps, where a chain of
 * scalar products took 56 for H^9..H^64 (GCM-SIV derives a POLYVAL key
 * per message, so this is per message there).  Each step reads its
 * operands back from the key area: held in registers, the sixteen did
 * not fit and GCC spilled key powers to the stack.  */
TARGET_AVX2 inline __m256i
avx2_power_pair (const vpclmul_key *k, int j)
{
  return _mm256_load_si256 (reinterpret_cast<const __m256i *> (k->hp + 62
                                                               - 2 * j));
}

TARGET_AVX2 inline void
avx2_put_power_pair (vpclmul_key *k, int j, __m256i r)
{
  _mm256_store_si256 (reinterpret_cast<__m256i *> (k->hp + 62 - 2 * j), r);
  _mm256_store_si256 (reinterpret_cast<__m256i *> (k->hkp + 62 - 2 * j),
                      _mm256_xor_si256 (r, _mm256_shuffle_epi32 (r, 0x4e)));
}

TARGET_AVX2 unsigned int
vpclmul_avx2_setkey (gcm_ghash_key *key, const unsigned char *hbytes)
{
  const unsigned int depth = _gcry_ghash_ops_pclmul.setkey (key, hbytes);
  vpclmul_key *k = reinterpret_cast<vpclmul_key *> (key->bytes);
  for (int j = 0; j < 4; j++)
    avx2_put_power_pair (k, j, _mm256_set_m128i (k->h[2 * j],
                                                 k->h[2 * j + 1]));
  for (int step = 4; step < 16; step *= 2)
    {
      asm ("" : "+r" (k));  /* Operands from the key area, not spills.  */
      /* H^(2 step), lane 0 of R_(step-1), in both lanes.  */
      const __m256i top
        = _mm256_permute4x64_epi64 (avx2_power_pair (k, step - 1), 0x44);
      for (int j = 0; j < step; j++)
        avx2_put_power_pair (k, step + j,
                             mul_premul2 (avx2_power_pair (k, j), top));
    }
  _mm256_zeroall ();
  /* pclmul_setkey's frame is below this one (on i386, with 8 vector
   * registers, this one spills powers too).  */
  return FRAME_DEPTH_X86 () + depth;
}

/* POLYVAL over the last blocks (any number; used for fewer than a
 * vector group): up to 8 per reduction with the pclmul layout's
 * H^8..H^1, blocks as they are (Appendix A of RFC 8452).  */
inline __m128i
polyval_tail (const vpclmul_key *k, __m128i y, const unsigned char *x,
              size_t nblocks)
{
  while (nblocks)
    {
      const size_t n = nblocks < 8 ? nblocks : 8;
      __m128i l = _mm_setzero_si128 (), m = l, h = l;
      for (size_t i = 0; i < n; i++)
        {
          __m128i d = _mm_loadu_si128 ((const __m128i *) (x + 16 * i));
          if (i == 0)
            d = _mm_xor_si128 (d, y);
          mul1_acc (d, k->h[n - 1 - i], k->hk[n - 1 - i], l, m, h);
        }
      y = finish128_karatsuba (l, m, h);
      x += 16 * n;
      nblocks -= n;
    }
  return y;
}

TARGET_AVX2 unsigned int
vpclmul_avx2_ghash (const gcm_ghash_key *key, unsigned char *yp,
                    const unsigned char *buf, size_t nblocks)
{
  const vpclmul_key *k = reinterpret_cast<const vpclmul_key *> (key->bytes);
  if (nblocks >= 8)
    {
      __m128i y = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) yp),
                                    bswap_mask128 ());
      y = ghash256<true> (k, y, buf, nblocks);
      _mm_storeu_si128 ((__m128i *) yp, _mm_shuffle_epi8 (y, bswap_mask128 ()));
      _mm256_zeroall ();  /* Also drops the hash state and powers.  */
    }
  if (nblocks)
    return _gcry_ghash_ops_pclmul.ghash (key, yp, buf, nblocks);
  return 0;
}

/* POLYVAL (see vpclmul_avx512_polyval) on ymm.  */
TARGET_AVX2 unsigned int
vpclmul_avx2_polyval (const gcm_ghash_key *key, unsigned char *sp,
                      const unsigned char *x, size_t nblocks)
{
  const vpclmul_key *k = reinterpret_cast<const vpclmul_key *> (key->bytes);
  __m128i y = _mm_loadu_si128 ((const __m128i *) sp);
  y = ghash256<false> (k, y, x, nblocks);
  y = polyval_tail (k, y, x, nblocks);
  _mm_storeu_si128 ((__m128i *) sp, y);
  _mm256_zeroall ();
  return 0;
}

/* ---- AVX-512: 16 blocks per group in four zmm registers ---------------- */

/* The Karatsuba products of D and P (Q: P's halves XORed), accumulated
 * (see the head of this file).  */
TARGET_AVX512 inline void
mul4_acc (__m512i d, __m512i p, __m512i q, __m512i &lo, __m512i &mid,
          __m512i &hi)
{
  lo = _mm512_xor_si512 (lo, _mm512_clmulepi64_epi128 (d, p, 0x00));
  hi = _mm512_xor_si512 (hi, _mm512_clmulepi64_epi128 (d, p, 0x11));
  const __m512i dk = _mm512_xor_si512 (d, _mm512_shuffle_epi32 (d, _MM_PERM_BADC));
  mid = _mm512_xor_si512 (mid, _mm512_clmulepi64_epi128 (dk, q, 0x00));
}

/* A * B lane by lane, operands premultiplied by x^-1 (mul_premul), the
 * Karatsuba way (three products: see the head of this file).  */
TARGET_AVX512 inline __m512i
mul_premul4 (__m512i a, __m512i b)
{
  const __m512i lo = _mm512_clmulepi64_epi128 (a, b, 0x00);
  const __m512i hi = _mm512_clmulepi64_epi128 (a, b, 0x11);
  const __m512i mid = _mm512_clmulepi64_epi128 (
      _mm512_xor_si512 (a, _mm512_shuffle_epi32 (a, _MM_PERM_BADC)),
      _mm512_xor_si512 (b, _mm512_shuffle_epi32 (b, _MM_PERM_BADC)), 0x00);
  return finish512_karatsuba (lo, mid, hi);
}

/* The 128-bit lanes of V in reverse order.  */
TARGET_AVX512 inline __m512i
lanes_reversed (__m512i v)
{
  return _mm512_shuffle_i64x2 (v, v, 0x1b);
}

/* The key area for the AVX-512 back end: the pclmul layout (H^1..H^8),
 * then H^9..H^64 four at a time, the powers in lanes: with P_j the
 * vector [H^(4j+1), .., H^(4j+4)], P_(2+j) = P_j H^8 (j < 2),
 * P_(4+j) = P_j H^16 (j < 4), P_(8+j) = P_j H^32 (j < 8): 14 lane-wise
 * products in three dependent steps, where the scalar set-up makes 56
 * in a chain of 7 (GCM-SIV derives a POLYVAL key per message, so this
 * is per message there).  */
TARGET_AVX512 unsigned int
vpclmul_avx512_setkey (gcm_ghash_key *key, const unsigned char *hbytes)
{
  unsigned int depth = _gcry_ghash_ops_pclmul.setkey (key, hbytes);
  vpclmul_key *k = reinterpret_cast<vpclmul_key *> (key->bytes);
  __m512i p[16];
  p[0] = _mm512_loadu_si512 (k->h);
  p[1] = _mm512_loadu_si512 (k->h + 4);
  for (int step = 2; step < 16; step *= 2)
    {
      /* H^(4 step) is lane 3 of p[step - 1].  */
      const __m512i top = _mm512_shuffle_i64x2 (p[step - 1], p[step - 1], 0xff);
      for (int j = 0; j < step; j++)
        p[step + j] = mul_premul4 (p[j], top);
    }
  /* hp[64 - n] = H^n: P_j reversed at hp[60 - 4j].  */
  for (int j = 0; j < 16; j++)
    {
      const __m512i r = lanes_reversed (p[j]);
      _mm512_storeu_si512 (k->hp + 60 - 4 * j, r);
      _mm512_storeu_si512 (k->hkp + 60 - 4 * j,
                           _mm512_xor_si512 (r, _mm512_shuffle_epi32 (r, _MM_PERM_BADC)));
    }
  vec_clear_zmm ();
  /* P (1 KiB of powers) in this frame, pclmul_setkey's below it.  */
  return FRAME_DEPTH_X86 () + depth;
}

/* Y continued over the whole 64-block runs of BUF, then its whole
 * 16-block runs: each block multiplied by its power of H (H^64..H^1,
 * resp. H^16..H^1), Y folded into the first block, whose products are
 * summed last (as in ghash256_runs: 16 KiB 604-606 -> 584-585 ns on
 * AMD Zen 4), one reduction per run.  The sums are taken lane by lane
 * and reduced before the lanes are folded (finish512_karatsuba).  REV:
 * blocks byte-reversed on load (GHASH); without it the blocks are used
 * as they are, which with the key mulX_GHASH (ByteReverse (H)) and
 * Y = S computes POLYVAL (RFC 8452 Appendix A: the two byte reversals
 * cancel).  Returns the new Y; BUF and NBLOCKS advanced (fewer than 16
 * blocks left).  */
template <bool REV>
TARGET_AVX512 inline __m128i
ghash512 (const vpclmul_key *k, __m128i y, const unsigned char *&buf,
          size_t &nblocks)
{
  const __m512i mask = _mm512_load_si512 (bswap_mask512);
  const __m512i *hp = reinterpret_cast<const __m512i *> (k->hp);
  const __m512i *hk = reinterpret_cast<const __m512i *> (k->hkp);
  for (; nblocks >= 64; nblocks -= 64, buf += 1024)
    {
      __m512i lo = _mm512_setzero_si512 (), mid = lo, hi = lo;
      for (int j = 14; j >= 0; j -= 2)
        {
          __m512i d0 = _mm512_loadu_si512 (buf + 64 * j);
          __m512i d1 = _mm512_loadu_si512 (buf + 64 * j + 64);
          if (REV)
            {
              d0 = _mm512_shuffle_epi8 (d0, mask);
              d1 = _mm512_shuffle_epi8 (d1, mask);
            }
          if (j == 0)
            d0 = _mm512_xor_si512 (d0, _mm512_zextsi128_si512 (y));
          __m512i l0, m0, h0, l1, m1, h1;
          l0 = m0 = h0 = l1 = m1 = h1 = _mm512_setzero_si512 ();
          mul4_acc (d0, _mm512_load_si512 (hp + j), _mm512_load_si512 (hk + j),
                    l0, m0, h0);
          mul4_acc (d1, _mm512_load_si512 (hp + j + 1),
                    _mm512_load_si512 (hk + j + 1), l1, m1, h1);
          lo = _mm512_ternarylogic_epi64 (lo, l0, l1, 0x96);
          mid = _mm512_ternarylogic_epi64 (mid, m0, m1, 0x96);
          hi = _mm512_ternarylogic_epi64 (hi, h0, h1, 0x96);
        }
      y = hxor512 (finish512_karatsuba (lo, mid, hi));
    }
  for (; nblocks >= 16; nblocks -= 16, buf += 256)
    {
      __m512i lo = _mm512_setzero_si512 (), mid = lo, hi = lo;
      for (int j = 3; j >= 0; j--)
        {
          __m512i d = _mm512_loadu_si512 (buf + 64 * j);
          if (REV)
            d = _mm512_shuffle_epi8 (d, mask);
          if (j == 0)
            d = _mm512_xor_si512 (d, _mm512_zextsi128_si512 (y));
          mul4_acc (d, _mm512_load_si512 (hp + 12 + j),
                    _mm512_load_si512 (hk + 12 + j), lo, mid, hi);
        }
      y = hxor512 (finish512_karatsuba (lo, mid, hi));
    }
  return y;
}

TARGET_AVX512 unsigned int
vpclmul_avx512_ghash (const gcm_ghash_key *key, unsigned char *yp,
                      const unsigned char *buf, size_t nblocks)
{
  const vpclmul_key *k = reinterpret_cast<const vpclmul_key *> (key->bytes);
  if (nblocks >= 16)
    {
      __m128i y = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) yp),
                                    bswap_mask128 ());
      y = ghash512<true> (k, y, buf, nblocks);
      _mm_storeu_si128 ((__m128i *) yp, _mm_shuffle_epi8 (y, bswap_mask128 ()));
      vec_clear_zmm ();  /* Also drops the hash state and powers.  */
    }
  if (nblocks)
    return _gcry_ghash_ops_pclmul.ghash (key, yp, buf, nblocks);
  return 0;
}

/* POLYVAL (RFC 8452 3) continued over NBLOCKS blocks of X, S in POLYVAL
 * byte order, on the key area of vpclmul_avx512_setkey for the GHASH key
 * mulX_GHASH (ByteReverse (H)) (Appendix A, ghash512 without byte
 * reversal); the last < 16 blocks by polyval_tail.  */
TARGET_AVX512 unsigned int
vpclmul_avx512_polyval (const gcm_ghash_key *key, unsigned char *sp,
                        const unsigned char *x, size_t nblocks)
{
  const vpclmul_key *k = reinterpret_cast<const vpclmul_key *> (key->bytes);
  __m128i y = _mm_loadu_si128 ((const __m128i *) sp);
  y = ghash512<false> (k, y, x, nblocks);
  y = polyval_tail (k, y, x, nblocks);
  _mm_storeu_si128 ((__m128i *) sp, y);
  vec_clear_zmm ();
  return 0;
}


} // namespace

const gcm_ghash_ops _gcry_ghash_ops_vpclmul_avx2
  = { vpclmul_avx2_setkey, vpclmul_avx2_ghash, vpclmul_avx2_polyval };
const gcm_ghash_ops _gcry_ghash_ops_vpclmul_avx512
  = { vpclmul_avx512_setkey, vpclmul_avx512_ghash, vpclmul_avx512_polyval };
