/* cipher-gcm-generic.cpp - the generic GHASH back end (NIST SP 800-38D
 * 6.4), for CPUs without a carry-less multiply instruction.
 *
 * Constant time: carry-less products from integer multiplies of operands
 * with holes (no table indexed by the secret H, no secret branch).  The
 * back-end interface is cipher-gcm.h's gcm_ghash_ops.
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"
#include "cipher-gcm.h"

namespace {

constexpr size_t GCM_BLOCK_LEN = 16;

inline uint64_t
get_le64 (const unsigned char *p)
{
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = (v << 8) | p[i];
  return v;
}

inline void
put_le64 (unsigned char *p, uint64_t v)
{
  for (int i = 0; i < 8; i++, v >>= 8)
    p[i] = (unsigned char) v;
}

/* ---- Generic GHASH ---------------------------------------------------
 *
 * Representation: two 64-bit words w0, w1 with the coefficient of x^i
 * (SP 800-38D 6.3) at bit i of w0 (i < 64) or bit i - 64 of w1.  From the
 * byte string: bytes little-endian with the bits of each byte reversed.
 * Then multiplication is the plain carry-less product followed by a
 * reduction modulo x^128 + x^7 + x^2 + x + 1 (SP 800-38D 6.3).
 *
 * Carry-less 32x32 product with integer multiplies: each operand is split
 * into four masks keeping every fourth bit (classes 0..3).  The integer
 * product of two such masks has, at a position of class a+b mod 4, the
 * count (at most 8) of the bit pairs meeting there; 8 needs four bits, so
 * a count never carries into the next position of the same class.  XOR
 * of the four products of the same class, masked to that class, is the
 * carry-less product.  16 multiplies, no secret branch or index.  */

inline uint64_t
clmul32 (uint32_t x, uint32_t y)
{
  const uint64_t m0 = 0x1111111111111111ULL, m1 = 0x2222222222222222ULL;
  const uint64_t m2 = 0x4444444444444444ULL, m3 = 0x8888888888888888ULL;
  const uint64_t x0 = x & (uint32_t) m0, x1 = x & (uint32_t) m1;
  const uint64_t x2 = x & (uint32_t) m2, x3 = x & (uint32_t) m3;
  const uint64_t y0 = y & (uint32_t) m0, y1 = y & (uint32_t) m1;
  const uint64_t y2 = y & (uint32_t) m2, y3 = y & (uint32_t) m3;
  uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
  uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
  uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
  uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
  return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

/* 64x64 -> 128 (Karatsuba over 32-bit halves).  */
inline void
clmul64 (uint64_t a, uint64_t b, uint64_t &lo, uint64_t &hi)
{
  const uint32_t a0 = (uint32_t) a, a1 = (uint32_t) (a >> 32);
  const uint32_t b0 = (uint32_t) b, b1 = (uint32_t) (b >> 32);
  uint64_t l = clmul32 (a0, b0), h = clmul32 (a1, b1);
  uint64_t m = clmul32 (a0 ^ a1, b0 ^ b1) ^ l ^ h;
  lo = l ^ (m << 32);
  hi = h ^ (m >> 32);
}

/* Y = Y * H mod P (Karatsuba over 64-bit halves, then reduction).  */
inline void
gf128_mul (uint64_t &y0, uint64_t &y1, uint64_t h0, uint64_t h1,
           uint64_t h01)
{
  uint64_t a0, a1, b0, b1, c0, c1;
  clmul64 (y0, h0, a0, a1);
  clmul64 (y1, h1, b0, b1);
  clmul64 (y0 ^ y1, h01, c0, c1);
  c0 ^= a0 ^ b0;
  c1 ^= a1 ^ b1;
  const uint64_t z0 = a0, z1 = a1 ^ c0, z2 = b0 ^ c1, z3 = b1;

  /* x^128 = 1 + x + x^2 + x^7: fold (z2, z3) times that into (z0, z1);
   * the bits pushed past x^127 (at most 7) fold once more.  */
  const uint64_t o = (z3 >> 63) ^ (z3 >> 62) ^ (z3 >> 57);
  uint64_t r0 = z0 ^ z2 ^ (z2 << 1) ^ (z2 << 2) ^ (z2 << 7);
  uint64_t r1 = z1 ^ z3 ^ ((z3 << 1) | (z2 >> 63)) ^ ((z3 << 2) | (z2 >> 62))
                ^ ((z3 << 7) | (z2 >> 57));
  r0 ^= o ^ (o << 1) ^ (o << 2) ^ (o << 7);
  y0 = r0;
  y1 = r1;
}

/* Reverse the bits of every byte.  */
inline uint64_t
rev_bits_in_bytes (uint64_t x)
{
  x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
  x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
  return x;
}

inline void
load_elem (const unsigned char *p, uint64_t &w0, uint64_t &w1)
{
  w0 = rev_bits_in_bytes (get_le64 (p));
  w1 = rev_bits_in_bytes (get_le64 (p + 8));
}

inline void
store_elem (unsigned char *p, uint64_t w0, uint64_t w1)
{
  put_le64 (p, rev_bits_in_bytes (w0));
  put_le64 (p + 8, rev_bits_in_bytes (w1));
}

/* Generic key area: H in the representation above, and h0 ^ h1.  */
struct generic_key
{
  uint64_t h0, h1, h01;
};

unsigned int
generic_setkey (gcm_ghash_key *key, const unsigned char *h)
{
  generic_key *k = reinterpret_cast<generic_key *> (key->bytes);
  load_elem (h, k->h0, k->h1);
  k->h01 = k->h0 ^ k->h1;
  return 256;  /* H's words spilled on i386 (GCC 12: a 100-byte frame).  */
}

unsigned int
generic_ghash (const gcm_ghash_key *key, unsigned char *y,
               const unsigned char *buf, size_t nblocks)
{
  const generic_key *k = reinterpret_cast<const generic_key *> (key->bytes);
  uint64_t y0, y1, x0, x1;
  load_elem (y, y0, y1);
  for (; nblocks; nblocks--, buf += GCM_BLOCK_LEN)
    {
      load_elem (buf, x0, x1);
      y0 ^= x0;
      y1 ^= x1;
      gf128_mul (y0, y1, k->h0, k->h1, k->h01);
    }
  store_elem (y, y0, y1);
  /* The multiply's masked pieces of H and Y spill: GCC 12's frames are
   * 0xc8 bytes on x86-64 (about 380 with the saved registers and the
   * red zone), 0x2f4 on i386 (about 780), 0x80 + 0xd0 on arm64 (clmul64
   * out of line); the 128 this returned left them below the burn.  */
  return 1024;
}

} // namespace

const gcm_ghash_ops _gcry_ghash_ops_generic = { generic_setkey, generic_ghash,
                                                nullptr };
