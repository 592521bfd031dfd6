/* poly1305.cpp - Poly1305 (RFC 8439 2.5) in radix 2^44 (64-bit targets)
 * or 2^26 (the others); see poly1305.h.
 *
 * The message is split in 16-byte blocks; each is read as a
 * little-endian number, a 1 bit is appended above its top byte (2^128
 * for a whole block, 2^(8n) for the last n-byte block), added to the
 * accumulator, and the sum multiplied by r modulo p = 2^130 - 5.  The
 * tag is (h mod p) + s mod 2^128.
 */
#include <config.h>
#include <string.h>

#include "poly1305.h"
#include "bufhelp.h"

namespace {

#ifdef POLY1305_RADIX44

using namespace poly1305_radix44;

/* X * Y mod p into Z, limbs carried within 44/44/42 bits (the
 * products' bounds of poly1305.h need limbs under 2^44).  */
void
mul_carried (const uint64_t *x, const uint64_t *y, uint64_t *z)
{
  acc d;
  d.mac (x[0], x[1], x[2], y, y[1] * 20, y[2] * 20);
  uint64_t x0, x1, x2, c;
  d.carry (x0, x1, x2);
  c = x1 >> 44; x1 &= M44; x2 += c;
  c = x2 >> 42; x2 &= M42; x0 += c * 5;
  c = x0 >> 44; x0 &= M44; x1 += c;
  z[0] = x0; z[1] = x1; z[2] = x2;
}

/* r^2, then r^3 = r^2 r and r^4 = r^2 r^2 side by side: two products
 * deep.  */
void
make_powers (poly1305_context *ctx)
{
  mul_carried (ctx->r[0], ctx->r[0], ctx->r[1]);
  mul_carried (ctx->r[1], ctx->r[0], ctx->r[2]);
  mul_carried (ctx->r[1], ctx->r[1], ctx->r[3]);
  ctx->powers = 1;
}

/* Absorb NBLOCKS 16-byte blocks at M one after the other in radix 2^64
 * (poly1305.h's serial64): on AMD Zen 4 4.0 ns per block, against 5.1
 * for four blocks per reduction in radix 2^44 with the powers r^2..r^4
 * (poly1305.h's step4, kept for the stitched AVX-512
 * ChaCha20-Poly1305) and their set-up, which short messages would pay
 * for too.  HIBIT: 1 for whole blocks (2^128), 0 for the padded last
 * one.  Out of line: its frame stays out of the one
 * _gcry_poly1305_update calls the vector kernels from.  */
__attribute__ ((noinline)) void
poly1305_blocks (poly1305_context *ctx, const unsigned char *m,
                 size_t nblocks, uint64_t hibit)
{
  serial64 h (ctx);
  for (; nblocks; nblocks--, m += POLY1305_BLOCKSIZE)
    h.block (m, hibit);
  h.store (ctx);
}

void
poly1305_key (poly1305_context *ctx, const unsigned char *key)
{
  /* RFC 8439 2.5: clamp r with 0x0ffffffc0ffffffc0ffffffc0fffffff.  */
  uint64_t k0 = buf_get_le64 (key) & 0x0ffffffc0fffffffull;
  uint64_t k1 = buf_get_le64 (key + 8) & 0x0ffffffc0ffffffcull;
  ctx->r[0][0] = k0 & M44;
  ctx->r[0][1] = ((k0 >> 44) | (k1 << 20)) & M44;
  ctx->r[0][2] = (k1 >> 24) & M42;
  ctx->powers = 0;
  ctx->s[0] = buf_get_le64 (key + 16);
  ctx->s[1] = buf_get_le64 (key + 24);
}

/* h mod p, plus s, mod 2^128 into TAG.  */
void
poly1305_tag (poly1305_context *ctx, unsigned char *tag)
{
  uint64_t h0 = ctx->h[0], h1 = ctx->h[1], h2 = ctx->h[2], c;
  /* Full carry, twice: every limb in range, h < 2^130 + small.  */
  for (int i = 0; i < 2; i++)
    {
      c = h1 >> 44; h1 &= M44; h2 += c;
      c = h2 >> 42; h2 &= M42; h0 += c * 5;
      c = h0 >> 44; h0 &= M44; h1 += c;
    }
  /* g = h + 5 - 2^130; no borrow out of limb 2 means h >= p and g is
   * h - p.  Select with a mask.  */
  uint64_t g0 = h0 + 5; c = g0 >> 44; g0 &= M44;
  uint64_t g1 = h1 + c; c = g1 >> 44; g1 &= M44;
  uint64_t g2 = h2 + c - (1ull << 42);
  uint64_t use_g = (g2 >> 63) - 1;   /* All ones when g2 did not borrow. */
  h0 = (h0 & ~use_g) | (g0 & use_g);
  h1 = (h1 & ~use_g) | (g1 & use_g);
  h2 = (h2 & ~use_g) | (g2 & use_g);

  uint64_t w0 = h0 | (h1 << 44);
  uint64_t w1 = (h1 >> 20) | (h2 << 24);
  u128 f = (u128) w0 + ctx->s[0];
  buf_put_le64 (tag, (uint64_t) f);
  f = (u128) w1 + ctx->s[1] + (uint64_t) (f >> 64);
  buf_put_le64 (tag + 8, (uint64_t) f);
}

#else /* !POLY1305_RADIX44 */

constexpr uint32_t M26 = 0x3ffffff;

/* Absorb NBLOCKS 16-byte blocks; HIBIT is 2^128 in limb 4's scale
 * (1 << 24) for whole blocks, 0 for the already padded last block.  */
void
poly1305_blocks (poly1305_context *ctx, const unsigned char *m,
                 size_t nblocks, uint32_t hibit)
{
  const uint32_t r0 = ctx->r[0], r1 = ctx->r[1], r2 = ctx->r[2],
                 r3 = ctx->r[3], r4 = ctx->r[4];
  /* 2^130 = 5 (mod p): limb products past limb 4 fold back times 5.  */
  const uint32_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;
  uint32_t h0 = ctx->h[0], h1 = ctx->h[1], h2 = ctx->h[2], h3 = ctx->h[3],
           h4 = ctx->h[4];

  for (; nblocks; nblocks--, m += POLY1305_BLOCKSIZE)
    {
      uint32_t t0 = buf_get_le32 (m), t1 = buf_get_le32 (m + 4),
               t2 = buf_get_le32 (m + 8), t3 = buf_get_le32 (m + 12);
      h0 += t0 & M26;
      h1 += ((t0 >> 26) | (t1 << 6)) & M26;
      h2 += ((t1 >> 20) | (t2 << 12)) & M26;
      h3 += ((t2 >> 14) | (t3 << 18)) & M26;
      h4 += (t3 >> 8) | hibit;

      uint64_t d0 = (uint64_t) h0 * r0 + (uint64_t) h1 * s4
                    + (uint64_t) h2 * s3 + (uint64_t) h3 * s2
                    + (uint64_t) h4 * s1;
      uint64_t d1 = (uint64_t) h0 * r1 + (uint64_t) h1 * r0
                    + (uint64_t) h2 * s4 + (uint64_t) h3 * s3
                    + (uint64_t) h4 * s2;
      uint64_t d2 = (uint64_t) h0 * r2 + (uint64_t) h1 * r1
                    + (uint64_t) h2 * r0 + (uint64_t) h3 * s4
                    + (uint64_t) h4 * s3;
      uint64_t d3 = (uint64_t) h0 * r3 + (uint64_t) h1 * r2
                    + (uint64_t) h2 * r1 + (uint64_t) h3 * r0
                    + (uint64_t) h4 * s4;
      uint64_t d4 = (uint64_t) h0 * r4 + (uint64_t) h1 * r3
                    + (uint64_t) h2 * r2 + (uint64_t) h3 * r1
                    + (uint64_t) h4 * r0;

      /* Partial carry: limbs back under 2^26 (h0 a little above).  */
      uint64_t c;
      c = d0 >> 26; h0 = (uint32_t) d0 & M26; d1 += c;
      c = d1 >> 26; h1 = (uint32_t) d1 & M26; d2 += c;
      c = d2 >> 26; h2 = (uint32_t) d2 & M26; d3 += c;
      c = d3 >> 26; h3 = (uint32_t) d3 & M26; d4 += c;
      c = d4 >> 26; h4 = (uint32_t) d4 & M26;
      h0 += (uint32_t) c * 5;
      h1 += h0 >> 26;
      h0 &= M26;
    }
  ctx->h[0] = h0; ctx->h[1] = h1; ctx->h[2] = h2; ctx->h[3] = h3;
  ctx->h[4] = h4;
}

void
poly1305_key (poly1305_context *ctx, const unsigned char *key)
{
  /* RFC 8439 2.5: clamp r with 0x0ffffffc0ffffffc0ffffffc0fffffff.  */
  uint32_t t0 = buf_get_le32 (key) & 0x0fffffff;
  uint32_t t1 = buf_get_le32 (key + 4) & 0x0ffffffc;
  uint32_t t2 = buf_get_le32 (key + 8) & 0x0ffffffc;
  uint32_t t3 = buf_get_le32 (key + 12) & 0x0ffffffc;
  ctx->r[0] = t0 & M26;
  ctx->r[1] = ((t0 >> 26) | (t1 << 6)) & M26;
  ctx->r[2] = ((t1 >> 20) | (t2 << 12)) & M26;
  ctx->r[3] = ((t2 >> 14) | (t3 << 18)) & M26;
  ctx->r[4] = t3 >> 8;
  for (int i = 0; i < 4; i++)
    ctx->s[i] = buf_get_le32 (key + 16 + 4 * i);
}

/* h mod p, plus s, mod 2^128 into TAG.  */
void
poly1305_tag (poly1305_context *ctx, unsigned char *tag)
{
  uint32_t h0 = ctx->h[0], h1 = ctx->h[1], h2 = ctx->h[2], h3 = ctx->h[3],
           h4 = ctx->h[4], c;
  /* Full carry: every limb under 2^26, h < 2^130 + small.  */
  c = h1 >> 26; h1 &= M26; h2 += c;
  c = h2 >> 26; h2 &= M26; h3 += c;
  c = h3 >> 26; h3 &= M26; h4 += c;
  c = h4 >> 26; h4 &= M26; h0 += c * 5;
  c = h0 >> 26; h0 &= M26; h1 += c;

  /* g = h + 5 - 2^130; if g >= 0 (no borrow out of limb 4) then h >= p
   * and h - p = g is the reduced value.  Select with a mask.  */
  uint32_t g0 = h0 + 5; c = g0 >> 26; g0 &= M26;
  uint32_t g1 = h1 + c; c = g1 >> 26; g1 &= M26;
  uint32_t g2 = h2 + c; c = g2 >> 26; g2 &= M26;
  uint32_t g3 = h3 + c; c = g3 >> 26; g3 &= M26;
  uint32_t g4 = h4 + c - (1u << 26);
  uint32_t use_g = (g4 >> 31) - 1;   /* All ones when g4 did not borrow. */
  h0 = (h0 & ~use_g) | (g0 & use_g);
  h1 = (h1 & ~use_g) | (g1 & use_g);
  h2 = (h2 & ~use_g) | (g2 & use_g);
  h3 = (h3 & ~use_g) | (g3 & use_g);
  h4 = (h4 & ~use_g) | (g4 & use_g);

  /* h mod 2^128 as four 32-bit words, plus s mod 2^128.  */
  uint32_t w0 = h0 | (h1 << 26);
  uint32_t w1 = (h1 >> 6) | (h2 << 20);
  uint32_t w2 = (h2 >> 12) | (h3 << 14);
  uint32_t w3 = (h3 >> 18) | (h4 << 8);
  uint64_t f;
  f = (uint64_t) w0 + ctx->s[0];             buf_put_le32 (tag, (uint32_t) f);
  f = (uint64_t) w1 + ctx->s[1] + (f >> 32); buf_put_le32 (tag + 4, (uint32_t) f);
  f = (uint64_t) w2 + ctx->s[2] + (f >> 32); buf_put_le32 (tag + 8, (uint32_t) f);
  f = (uint64_t) w3 + ctx->s[3] + (f >> 32); buf_put_le32 (tag + 12, (uint32_t) f);
}

#endif /* !POLY1305_RADIX44 */

/* 2^128 in the top limb's (word's) scale.  */
#ifdef POLY1305_RADIX44
constexpr uint64_t HIBIT = 1;
#else
constexpr uint32_t HIBIT = 1u << 24;
#endif

#ifdef POLY1305_USE_SIMD
/* Whole blocks at M through the chosen SIMD path: on x86 the largest
 * multiple of 8 blocks not above NBLOCKS, once NBLOCKS reaches 16 (the
 * powers made) or the run that pays for making them: 32 blocks for
 * AVX-512 IFMA, 64 for AVX2 (on AMD Zen 4 the scalar path takes 82 ns
 * for 16 blocks, the AVX-512 one 105 and the AVX2 one 184 with their
 * set-up; equal at about 24 and 64 blocks); with NEON the largest
 * multiple of 4, once NBLOCKS reaches 8.  Returns the blocks done; the
 * caller does the rest.  The kernels' burn depths are within
 * POLY1305_BURN_DEPTH, which the callers burn.  */
size_t
simd_blocks (poly1305_context *ctx, const unsigned char *m, size_t nblocks)
{
  switch (ctx->path)
    {
#ifdef POLY1305_USE_AVX
    case 0:
      if (nblocks < (ctx->simd_ready ? 16u : 32u))
        return 0;
      nblocks &= ~(size_t) 7;
      if (!ctx->powers)   /* The kernels' set-up starts from r^1..r^4.  */
        make_powers (ctx);
      _gcry_poly1305_avx512_blocks (ctx, m, nblocks);
      return nblocks;
    case 1:
      if (nblocks < (ctx->simd_ready ? 16u : 64u))
        return 0;
      nblocks &= ~(size_t) 7;
      if (!ctx->powers)
        make_powers (ctx);
      _gcry_poly1305_avx2_blocks (ctx, m, nblocks);
      return nblocks;
#endif
#ifdef POLY1305_USE_NEON
    case 0:
      if (nblocks < 8)
        return 0;
      nblocks &= ~(size_t) 3;
      if (!ctx->powers)
        make_powers (ctx);
      _gcry_poly1305_neon_blocks (ctx, m, nblocks);
      return nblocks;
#endif
    default:
      return 0;
    }
}
#endif

} // namespace

#ifdef POLY1305_USE_SIMD
const cipher_impl<poly1305_impl_ops> _gcry_poly1305_impls[] = {
#ifdef POLY1305_USE_AVX
  /* Also needs AVX512-IFMA, which has no hwf name.  */
  { { "avx512-ifma", HWF_INTEL_AVX512 | HWF_INTEL_AVX2 },
    { _gcry_poly1305_have_ifma } },
  { { "avx2", HWF_INTEL_AVX2 }, { nullptr } },
#endif
#ifdef POLY1305_USE_NEON
  { { "neon", HWF_ARM_NEON }, { nullptr } },
#endif
  { { "generic", 0 }, { nullptr } },
};
const size_t _gcry_poly1305_n_impls
  = sizeof _gcry_poly1305_impls / sizeof _gcry_poly1305_impls[0];

namespace {

/* The CPU check of an entry beyond its hwf bits.  */
bool
poly1305_cpu_has (const cipher_impl<poly1305_impl_ops> &impl)
{
  return !impl.ops.cpu_has || impl.ops.cpu_has ();
}

} // namespace

int
_gcry_poly1305_path_usable (size_t idx, unsigned int hwf)
{
  return idx < _gcry_poly1305_n_impls
         && cipher_impl_usable (_gcry_poly1305_impls[idx], hwf)
         && poly1305_cpu_has (_gcry_poly1305_impls[idx]);
}
#endif

#ifdef POLY1305_RADIX44
void
_gcry_poly1305_powers (poly1305_context *ctx)
{
  if (!ctx->powers)
    make_powers (ctx);
}
#endif

void
_gcry_poly1305_init (poly1305_context *ctx, const unsigned char *key)
{
  poly1305_key (ctx, key);
  memset (ctx->h, 0, sizeof ctx->h);
  memset (ctx->buf, 0, sizeof ctx->buf);
  ctx->leftover = 0;
#ifdef POLY1305_USE_SIMD
  ctx->path = (unsigned int) cipher_impl_choose (
      _gcry_poly1305_impls, _gcry_get_hw_features (), poly1305_cpu_has);
  /* SIMD holds key powers only while SIMD_READY is set (a message that
   * was never finished); so _gcry_poly1305_finish can leave it alone
   * when it is clear.  */
  if (ctx->simd_ready)
    wipememory (&ctx->simd, sizeof ctx->simd);
  ctx->simd_ready = 0;
#endif
}

const char *
_gcry_poly1305_path_name (const poly1305_context *ctx)
{
#ifdef POLY1305_USE_SIMD
  return _gcry_poly1305_impls[ctx->path].name;
#else
  (void) ctx;
  return "generic";
#endif
}

void
_gcry_poly1305_update (poly1305_context *ctx, const unsigned char *m,
                       size_t len)
{
  if (!len)   /* Nothing to absorb; M may be NULL (memcpy needs non-NULL).  */
    return;
  if (ctx->leftover)
    {
      size_t n = POLY1305_BLOCKSIZE - ctx->leftover;
      n = n < len ? n : len;
      memcpy (ctx->buf + ctx->leftover, m, n);
      ctx->leftover += n;
      m += n;
      len -= n;
      if (ctx->leftover < POLY1305_BLOCKSIZE)
        return;
      poly1305_blocks (ctx, ctx->buf, 1, HIBIT);
      ctx->leftover = 0;
    }
  if (len >= POLY1305_BLOCKSIZE)
    {
      size_t nblocks = len / POLY1305_BLOCKSIZE;
#ifdef POLY1305_USE_SIMD
      size_t done = simd_blocks (ctx, m, nblocks);
      m += done * POLY1305_BLOCKSIZE;
      len -= done * POLY1305_BLOCKSIZE;
      nblocks -= done;
      if (nblocks)
#endif
        poly1305_blocks (ctx, m, nblocks, HIBIT);
      m += nblocks * POLY1305_BLOCKSIZE;
      len -= nblocks * POLY1305_BLOCKSIZE;
    }
  if (len)
    {
      memcpy (ctx->buf, m, len);
      ctx->leftover = len;
    }
}

void
_gcry_poly1305_finish (poly1305_context *ctx, unsigned char *tag)
{
  if (ctx->leftover)
    {
      /* The last block: its bytes, a 1 byte, zeros; no 2^128 bit.  */
      ctx->buf[ctx->leftover] = 1;
      memset (ctx->buf + ctx->leftover + 1, 0,
              POLY1305_BLOCKSIZE - ctx->leftover - 1);
      poly1305_blocks (ctx, ctx->buf, 1, 0);
    }
  poly1305_tag (ctx, tag);
#ifdef POLY1305_USE_SIMD
  /* The vector paths' key powers (576 bytes) only if a bulk call made
   * them (the length of the message decides, which is public): a
   * short message does not pay for wiping them.  */
  if (ctx->simd_ready)
    {
      /* Three constant-size wipes (wipememory's unrolled stores): one
       * wipe of 576 bytes is a string store, about 12 ns on AMD Zen 4
       * at the end of every message.  */
      static_assert (sizeof ctx->simd == 3 * 192, "simd size");
      unsigned char *p = reinterpret_cast<unsigned char *> (&ctx->simd);
      wipememory (p, 192);
      wipememory (p + 192, 192);
      wipememory (p + 384, 192);
    }
  /* A constant size: a few vector stores rather than a string store.  */
  wipememory (ctx, offsetof (poly1305_context, simd));
#else
  wipememory (ctx, sizeof *ctx);
#endif
}
