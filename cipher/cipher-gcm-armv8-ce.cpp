/* cipher-gcm-armv8-ce.cpp - GHASH (NIST SP 800-38D 6.4) and POLYVAL
 * (RFC 8452 3) with the ARMv8 64x64 carry-less multiply (FEAT_PMULL:
 * PMULL, PMULL2), arm64 only.  Built with -march=armv8-a+crypto;
 * arm_neon.h intrinsics.
 *
 * Representation: RBIT on each byte turns a GHASH block (SP 800-38D 6.3:
 * byte 0 bit 7 is the coefficient of x^0) into the 128-bit little-endian
 * integer whose bit i is the coefficient of x^i, so the field arithmetic
 * is the plain polynomial one: a 128x128 product from three PMULLs
 * (Karatsuba: a0*b0, a1*b1, (a0^a1)*(b0^b1)), reduced modulo
 * x^128 + x^7 + x^2 + x + 1 by two more PMULLs with 0x87 (the upper 64
 * bits folded into bits 64..191, then the next 64 into bits 0..127).
 * POLYVAL's caller passes the GHASH key of RFC 8452 Appendix A; its
 * blocks and state are the byte-reversed GHASH ones, so they go through
 * a byte reversal besides the RBIT, and the same code serves both.
 *
 * Aggregated reduction: 8 blocks per reduction, Y ^ X_1 times H^8, X_2
 * times H^7, ..., X_8 times H, the three Karatsuba parts summed
 * unreduced.  The key area holds H^1..H^8 and, per power, the XOR of its
 * two halves.  No branch or memory index depends on data or key.
 *
 * GCM with the ARMv8-CE AES path goes through _gcry_aes_armv8_ce_gcm_crypt
 * (the AES path's gcm_crypt slot): per group of 8 blocks, the 8 counter
 * blocks (inc32, SP 800-38D 6.2) through AESE/AESMC and the ciphertext
 * into one aggregated GHASH step, in one pass over the text.
 */
#include <config.h>
#include <string.h>
#include "armv8-ce-simd.h"
#include "cipher-gcm.h"

namespace {

using namespace armv8_ce;

#define UNROLL ARMV8_UNROLL

constexpr int PMULL_POWERS = 8;

/* Key area layout: H^(i+1) (RBIT form) and its halves' XOR in both
 * lanes.  */
struct pmull_key
{
  V h[PMULL_POWERS];
  V k[PMULL_POWERS];
};
static_assert (sizeof (pmull_key) <= GCM_GHASH_KEY_SIZE);

/* Low, high 64x64 -> 128 carry-less products of the lanes.  */
inline V
pmull_lo (V a, V b)
{
  return vreinterpretq_u8_p128 (
      vmull_p64 ((poly64_t)vgetq_lane_u64 (vreinterpretq_u64_u8 (a), 0),
                 (poly64_t)vgetq_lane_u64 (vreinterpretq_u64_u8 (b), 0)));
}

inline V
pmull_hi (V a, V b)
{
  return vreinterpretq_u8_p128 (vmull_high_p64 (vreinterpretq_p64_u8 (a),
                                                vreinterpretq_p64_u8 (b)));
}

/* Lane halves XORed: (a0 ^ a1) in both lanes.  */
inline V
halves_xor (V a)
{
  return veorq_u8 (a, vextq_u8 (a, a, 8));
}

/* Unreduced product accumulator (Karatsuba parts).  */
struct acc3
{
  V lo, hi, mid;
};

inline void
acc_first (acc3 &a, V x, V h, V k)
{
  a.lo = pmull_lo (x, h);
  a.hi = pmull_hi (x, h);
  a.mid = pmull_lo (halves_xor (x), k);
}

inline void
acc_add (acc3 &a, V x, V h, V k)
{
  a.lo = veorq_u8 (a.lo, pmull_lo (x, h));
  a.hi = veorq_u8 (a.hi, pmull_hi (x, h));
  a.mid = veorq_u8 (a.mid, pmull_lo (halves_xor (x), k));
}

/* The 256-bit sum reduced modulo x^128 + x^7 + x^2 + x + 1.  */
inline V
reduce (const acc3 &a)
{
  const V zero = vdupq_n_u8 (0);
  const V g = vreinterpretq_u8_u64 (vdupq_n_u64 (0x87));
  V mid = veorq_u8 (a.mid, veorq_u8 (a.lo, a.hi));
  /* P1:P0 and P3:P2 with the middle term at bits 64..191.  */
  V lo = veorq_u8 (a.lo, vextq_u8 (zero, mid, 8));
  V hi = veorq_u8 (a.hi, vextq_u8 (mid, zero, 8));
  /* P3 * x^192 = P3 * 0x87 * x^64.  */
  V t = pmull_hi (hi, g);
  lo = veorq_u8 (lo, vextq_u8 (zero, t, 8));
  hi = veorq_u8 (hi, vextq_u8 (t, zero, 8));
  /* P2 * x^128 = P2 * 0x87.  */
  return veorq_u8 (lo, pmull_lo (hi, g));
}

inline V
gf_mul (V a, V h, V k)
{
  acc3 acc;
  acc_first (acc, a, h, k);
  return reduce (acc);
}

/* Block <-> RBIT form: GHASH RBIT per byte; POLYVAL also reverses the
 * bytes (an involution either way).  */
template <bool POLYVAL>
inline V
to_field (V b)
{
  b = vrbitq_u8 (b);
  if constexpr (POLYVAL)
    {
      b = vrev64q_u8 (b);
      b = vextq_u8 (b, b, 8);
    }
  return b;
}

constexpr unsigned int PMULL_BURN = 256;

unsigned int
pmull_setkey (gcm_ghash_key *key, const unsigned char *h)
{
  pmull_key k;
  V h1 = to_field<false> (loadu (h));
  V k1 = halves_xor (h1);
  k.h[0] = h1;
  k.k[0] = k1;
  for (int i = 1; i < PMULL_POWERS; i++)
    {
      k.h[i] = gf_mul (k.h[i - 1], h1, k1);
      k.k[i] = halves_xor (k.h[i]);
    }
  memcpy (key->bytes, &k, sizeof k);
  wipememory (&k, sizeof k);
  clear_vregs ();
  return PMULL_BURN;
}

/* Y over NBLOCKS blocks: groups of 8 with one reduction, then the rest
 * (fewer than 8) the same way with H^m .. H^1.  */
template <bool POLYVAL>
unsigned int
pmull_hash (const gcm_ghash_key *key, unsigned char *yp,
            const unsigned char *buf, size_t nblocks)
{
  const pmull_key *k = (const pmull_key *)__builtin_assume_aligned
                         (key->bytes, 16);
  V y = to_field<POLYVAL> (loadu (yp));
  for (; nblocks >= PMULL_POWERS; nblocks -= PMULL_POWERS)
    {
      acc3 acc;
      acc_first (acc, veorq_u8 (y, to_field<POLYVAL> (loadu (buf))),
                 k->h[PMULL_POWERS - 1], k->k[PMULL_POWERS - 1]);
      UNROLL
      for (int j = 1; j < PMULL_POWERS; j++)
        acc_add (acc, to_field<POLYVAL> (loadu (buf + 16 * j)),
                 k->h[PMULL_POWERS - 1 - j], k->k[PMULL_POWERS - 1 - j]);
      y = reduce (acc);
      buf += 16 * PMULL_POWERS;
    }
  if (nblocks)
    {
      const int m = (int)nblocks;
      acc3 acc;
      acc_first (acc, veorq_u8 (y, to_field<POLYVAL> (loadu (buf))),
                 k->h[m - 1], k->k[m - 1]);
      for (int j = 1; j < m; j++)
        acc_add (acc, to_field<POLYVAL> (loadu (buf + 16 * j)),
                 k->h[m - 1 - j], k->k[m - 1 - j]);
      y = reduce (acc);
    }
  storeu (yp, to_field<POLYVAL> (y));
  clear_vregs ();
  return PMULL_BURN;
}

/* One aggregated step: Y = (Y ^ C_0) H^8 ^ C_1 H^7 ^ ... ^ C_7 H.  */
inline V
ghash8 (const pmull_key *k, V y, const V *c)
{
  acc3 acc;
  acc_first (acc, veorq_u8 (y, to_field<false> (c[0])),
             k->h[PMULL_POWERS - 1], k->k[PMULL_POWERS - 1]);
  UNROLL
  for (int j = 1; j < PMULL_POWERS; j++)
    acc_add (acc, to_field<false> (c[j]), k->h[PMULL_POWERS - 1 - j],
             k->k[PMULL_POWERS - 1 - j]);
  return reduce (acc);
}

/* NGROUPS groups of 8 blocks of GCM text: CTR (inc32 on bytes 12..15 of
 * CTR, kept as a 32-bit lane after VREV32) and GHASH of the ciphertext
 * (the input when decrypting, the output when encrypting).  */
template <unsigned int ROUNDS, bool DECRYPT>
void
gcm_group_t (const RIJNDAEL_context *ctx, gcm_state *st, unsigned char *ctr,
             unsigned char *out, const unsigned char *in, size_t ngroups)
{
  const pmull_key *hk = (const pmull_key *)__builtin_assume_aligned
                          (st->key.bytes, 16);
  round_keys<ROUNDS> rk (ctx, false);
  uint32x4_t c = vreinterpretq_u32_u8 (vrev32q_u8 (loadu (ctr)));
  V y = to_field<false> (loadu (st->y));
  for (; ngroups; ngroups--)
    {
      V x[PMULL_POWERS], t[PMULL_POWERS];
      UNROLL
      for (int i = 0; i < PMULL_POWERS; i++)
        {
          uint32x4_t ci = vaddq_u32 (c, vsetq_lane_u32 ((uint32_t)i,
                                                        vdupq_n_u32 (0), 3));
          x[i] = vrev32q_u8 (vreinterpretq_u8_u32 (ci));
        }
      c = vaddq_u32 (c, vsetq_lane_u32 ((uint32_t)PMULL_POWERS,
                                        vdupq_n_u32 (0), 3));
      if (DECRYPT)
        {
          UNROLL
          for (int i = 0; i < PMULL_POWERS; i++)
            t[i] = loadu (in + 16 * i);
          y = ghash8 (hk, y, t);
        }
      rounds_upto_last<ROUNDS, PMULL_POWERS, false> (rk.k, x);
      UNROLL
      for (int i = 0; i < PMULL_POWERS; i++)
        {
          V o = xor3 (x[i], rk.k[ROUNDS], loadu (in + 16 * i));
          storeu (out + 16 * i, o);
          if (!DECRYPT)
            t[i] = o;
        }
      if (!DECRYPT)
        y = ghash8 (hk, y, t);
      in += 16 * PMULL_POWERS;
      out += 16 * PMULL_POWERS;
    }
  storeu (st->y, to_field<false> (y));
  storeu (ctr, vrev32q_u8 (vreinterpretq_u8_u32 (c)));
}

template <unsigned int ROUNDS>
void gcm_enc_t (const RIJNDAEL_context *x, gcm_state *s, unsigned char *c,
                unsigned char *o, const unsigned char *i, size_t n)
{ gcm_group_t<ROUNDS, false> (x, s, c, o, i, n); }
template <unsigned int ROUNDS>
void gcm_dec_t (const RIJNDAEL_context *x, gcm_state *s, unsigned char *c,
                unsigned char *o, const unsigned char *i, size_t n)
{ gcm_group_t<ROUNDS, true> (x, s, c, o, i, n); }

/* Not inlined: its frame (spilled round keys) lies below the caller's
 * burn.  */
__attribute__ ((noinline)) void
gcm_run (const RIJNDAEL_context *ctx, gcm_state *st, unsigned char *ctr,
         unsigned char *o, const unsigned char *i, size_t ngroups,
         int encrypt)
{
  if (encrypt)
    RIJNDAEL_DISPATCH (ctx, gcm_enc_t, ctx, st, ctr, o, i, ngroups);
  else
    RIJNDAEL_DISPATCH (ctx, gcm_dec_t, ctx, st, ctr, o, i, ngroups);
  clear_vregs ();
}

unsigned int
pmull_ghash (const gcm_ghash_key *key, unsigned char *y,
             const unsigned char *buf, size_t nblocks)
{
  return pmull_hash<false> (key, y, buf, nblocks);
}

unsigned int
pmull_polyval (const gcm_ghash_key *key, unsigned char *s,
               const unsigned char *x, size_t nblocks)
{
  return pmull_hash<true> (key, s, x, nblocks);
}

} // namespace

const gcm_ghash_ops _gcry_ghash_ops_armv8_pmull = {
  pmull_setkey, pmull_ghash, pmull_polyval
};

/* The ARMv8-CE AES path's gcm_crypt slot: whole groups of 8 blocks with
 * C->ctr as the next counter block, GHASH with the "pmull" key of C's GCM
 * state.  Returns the blocks left undone (all of them with another GHASH
 * back end).  */
size_t
_gcry_aes_armv8_ce_gcm_crypt (gcry_cipher_hd_t c, void *out, const void *in,
                              size_t nblocks, int encrypt)
{
  gcm_state *st = static_cast<gcm_state *> (c->mode_ctx);
  const RIJNDAEL_context *ctx = static_cast<const RIJNDAEL_context *> (c->ctx);
  if (!st || st->ghash != &_gcry_ghash_ops_armv8_pmull
      || ctx->path != RIJNDAEL_PATH_ARMV8_CE)
    return nblocks;
  const size_t ngroups = nblocks / PMULL_POWERS;
  if (!ngroups)
    return nblocks;
  gcm_run (ctx, st, c->ctr, static_cast<unsigned char *> (out),
           static_cast<const unsigned char *> (in), ngroups, encrypt);
  _gcry_burn_stack (PMULL_BURN);
  return nblocks - ngroups * PMULL_POWERS;
}
