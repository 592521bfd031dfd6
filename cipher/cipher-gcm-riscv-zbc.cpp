/* cipher-gcm-riscv-zbc.cpp - GHASH (NIST SP 800-38D 6.4) with the RISC-V
 * scalar carry-less multiply (Zbc: clmul, clmulh) and byte reverse (Zbb:
 * rev8), for CPUs without the vector GHASH instructions (Zvkg).
 *
 * Representation: a block as the 128-bit big-endian integer of its 16
 * bytes (hi = bytes 0..7, lo = bytes 8..15).  Then bit 127 - i is the
 * coefficient of x^i (SP 800-38D 6.3): the polynomial bit-reflected.
 * The carry-less product of two reflected 128-bit values is the reflected
 * 255-bit product; shifted left by one it is the reflected 256-bit
 * product, whose low 128 bits hold x^128 .. x^255 and are folded back
 * with x^128 = x^7 + x^2 + x + 1 (in reflected form: shifts right by
 * 1, 2 and 7, twice).  Karatsuba: three 64x64 products (clmul for the
 * low, clmulh for the high half of each).  No branch, no table.
 *
 * The key area holds H in that representation and hi ^ lo.  These files
 * are built for the base ISA; the instructions come from inline
 * assembly with ".option arch, +zbb, +zbc".
 */
#include <config.h>
#include <string.h>
#include "cipher-gcm.h"

namespace {

struct zbc_key
{
  uint64_t hi, lo, hilo;
};

/* The low (clmul) or high (clmulh) 64 bits of the carry-less product.  */
template <bool HIGH>
inline uint64_t
clmul (uint64_t a, uint64_t b)
{
  uint64_t r;
  if constexpr (HIGH)
    asm (".option push\n\t.option arch, +zbc\n\tclmulh %0, %1, %2\n\t"
         ".option pop" : "=r" (r) : "r" (a), "r" (b));
  else
    asm (".option push\n\t.option arch, +zbc\n\tclmul %0, %1, %2\n\t"
         ".option pop" : "=r" (r) : "r" (a), "r" (b));
  return r;
}

inline uint64_t
clmul_lo (uint64_t a, uint64_t b)
{
  return clmul<false> (a, b);
}

inline uint64_t
clmul_hi (uint64_t a, uint64_t b)
{
  return clmul<true> (a, b);
}

inline uint64_t
load_be64 (const unsigned char *p)
{
  uint64_t v, r;
  memcpy (&v, p, 8);
  asm (".option push\n\t.option arch, +zbb\n\trev8 %0, %1\n\t.option pop"
       : "=r" (r) : "r" (v));
  return r;
}

inline void
store_be64 (unsigned char *p, uint64_t v)
{
  uint64_t r;
  asm (".option push\n\t.option arch, +zbb\n\trev8 %0, %1\n\t.option pop"
       : "=r" (r) : "r" (v));
  memcpy (p, &r, 8);
}

/* (YH, YL) = (YH, YL) * H in GF(2^128), reflected representation.  */
inline void
gf128_mul_reflected (uint64_t &yh, uint64_t &yl, const zbc_key *k)
{
  /* 256-bit product Z3:Z2:Z1:Z0 (Karatsuba).  */
  uint64_t a0 = clmul_lo (yl, k->lo), a1 = clmul_hi (yl, k->lo);
  uint64_t b0 = clmul_lo (yh, k->hi), b1 = clmul_hi (yh, k->hi);
  uint64_t m = yh ^ yl;
  uint64_t c0 = clmul_lo (m, k->hilo) ^ a0 ^ b0;
  uint64_t c1 = clmul_hi (m, k->hilo) ^ a1 ^ b1;
  uint64_t z0 = a0, z1 = a1 ^ c0, z2 = b0 ^ c1, z3 = b1;
  /* Shift left by one: the reflected 256-bit product.  */
  z3 = (z3 << 1) | (z2 >> 63);
  z2 = (z2 << 1) | (z1 >> 63);
  z1 = (z1 << 1) | (z0 >> 63);
  z0 <<= 1;
  /* Fold the low 128 bits (x^128..x^255) into the high ones.  First
   * the bits that the right shifts below would push out of Z1:Z0.  */
  uint64_t d = z1 ^ (z0 << 63) ^ (z0 << 62) ^ (z0 << 57);
  uint64_t e0 = (z0 >> 1) | (d << 63), e1 = d >> 1;
  uint64_t f0 = (z0 >> 2) | (d << 62), f1 = d >> 2;
  uint64_t g0 = (z0 >> 7) | (d << 57), g1 = d >> 7;
  yh = z3 ^ d ^ e1 ^ f1 ^ g1;
  yl = z2 ^ z0 ^ e0 ^ f0 ^ g0;
}

unsigned int
zbc_setkey (gcm_ghash_key *key, const unsigned char *h)
{
  zbc_key *k = reinterpret_cast<zbc_key *> (key->bytes);
  k->hi = load_be64 (h);
  k->lo = load_be64 (h + 8);
  k->hilo = k->hi ^ k->lo;
  return 32;
}

unsigned int
zbc_ghash (const gcm_ghash_key *key, unsigned char *y,
           const unsigned char *buf, size_t nblocks)
{
  const zbc_key *k = reinterpret_cast<const zbc_key *> (key->bytes);
  uint64_t yh = load_be64 (y), yl = load_be64 (y + 8);
  for (; nblocks; nblocks--, buf += 16)
    {
      yh ^= load_be64 (buf);
      yl ^= load_be64 (buf + 8);
      gf128_mul_reflected (yh, yl, k);
    }
  store_be64 (y, yh);
  store_be64 (y + 8, yl);
  /* The products may have been spilled.  */
  return 128;
}

} // namespace

const gcm_ghash_ops _gcry_ghash_ops_zbc = { zbc_setkey, zbc_ghash, nullptr };
