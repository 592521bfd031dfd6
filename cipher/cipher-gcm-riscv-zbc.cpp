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
 * The key area holds H^1..H^4 in that representation, each with its
 * hi ^ lo; four blocks share one reduction (their products summed
 * unreduced), the blocks past a multiple of four take one each.  Data
 * 8-byte aligned is loaded as doublewords, other data byte by byte (the
 * base ISA's misaligned loads may trap or be emulated).  These files
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

/* The 256-bit carry-less product of two reflected 128-bit values,
 * accumulated over several products before one reduction (Karatsuba:
 * the low halves' product in A, the high halves' in B, the product of
 * the halves' XORs in C, each as its low and high 64 bits).  */
struct acc256
{
  uint64_t a0 = 0, a1 = 0, b0 = 0, b1 = 0, c0 = 0, c1 = 0;

  /* += (XH, XL) * K.  */
  inline void
  mac (uint64_t xh, uint64_t xl, const zbc_key *k)
  {
    const uint64_t m = xh ^ xl;
    a0 ^= clmul_lo (xl, k->lo);
    a1 ^= clmul_hi (xl, k->lo);
    b0 ^= clmul_lo (xh, k->hi);
    b1 ^= clmul_hi (xh, k->hi);
    c0 ^= clmul_lo (m, k->hilo);
    c1 ^= clmul_hi (m, k->hilo);
  }

  /* The sum reduced modulo the GCM polynomial into (YH, YL).  */
  inline void
  reduce (uint64_t &yh, uint64_t &yl) const
  {
    /* 256-bit product Z3:Z2:Z1:Z0.  */
    const uint64_t m0 = c0 ^ a0 ^ b0, m1 = c1 ^ a1 ^ b1;
    uint64_t z0 = a0, z1 = a1 ^ m0, z2 = b0 ^ m1, z3 = b1;
    /* Shift left by one: the reflected 256-bit product.  */
    z3 = (z3 << 1) | (z2 >> 63);
    z2 = (z2 << 1) | (z1 >> 63);
    z1 = (z1 << 1) | (z0 >> 63);
    z0 <<= 1;
    /* Fold the low 128 bits (x^128..x^255) into the high ones.  First
     * the bits that the right shifts below would push out of Z1:Z0.  */
    const uint64_t d = z1 ^ (z0 << 63) ^ (z0 << 62) ^ (z0 << 57);
    const uint64_t e0 = (z0 >> 1) | (d << 63), e1 = d >> 1;
    const uint64_t f0 = (z0 >> 2) | (d << 62), f1 = d >> 2;
    const uint64_t g0 = (z0 >> 7) | (d << 57), g1 = d >> 7;
    yh = z3 ^ d ^ e1 ^ f1 ^ g1;
    yl = z2 ^ z0 ^ e0 ^ f0 ^ g0;
  }
};

/* The key area: H^1 .. H^ZBC_POWERS (k[i] = H^(i+1)).  Four blocks
 * share one reduction: (Y + X_1) H^4 + X_2 H^3 + X_3 H^2 + X_4 H, the
 * products summed unreduced.  */
constexpr int ZBC_POWERS = 4;

struct zbc_key_area
{
  zbc_key k[ZBC_POWERS];
};
static_assert (sizeof (zbc_key_area) <= sizeof (gcm_ghash_key));

/* (YH, YL) = (YH, YL) * K in GF(2^128), reflected representation.  */
inline void
gf128_mul_reflected (uint64_t &yh, uint64_t &yl, const zbc_key *k)
{
  acc256 z;
  z.mac (yh, yl, k);
  z.reduce (yh, yl);
}

unsigned int
zbc_setkey (gcm_ghash_key *key, const unsigned char *h)
{
  zbc_key_area *a = reinterpret_cast<zbc_key_area *> (key->bytes);
  a->k[0].hi = load_be64 (h);
  a->k[0].lo = load_be64 (h + 8);
  a->k[0].hilo = a->k[0].hi ^ a->k[0].lo;
  for (int i = 1; i < ZBC_POWERS; i++)
    {
      uint64_t ph = a->k[i - 1].hi, pl = a->k[i - 1].lo;
      gf128_mul_reflected (ph, pl, &a->k[0]);
      a->k[i].hi = ph;
      a->k[i].lo = pl;
      a->k[i].hilo = ph ^ pl;
    }
  return 128;
}

/* One block of BUF as (hi, lo).  ALIGNED: BUF is 8-byte aligned, so
 * whole doubleword loads (riscv64 without fast misaligned access moves
 * a possibly misaligned word as bytes).  */
template <bool ALIGNED>
inline void
load_block (const unsigned char *buf, uint64_t &hi, uint64_t &lo)
{
  if constexpr (ALIGNED)
    {
      hi = load_be64 (static_cast<const unsigned char *> (
          __builtin_assume_aligned (buf, 8)));
      lo = load_be64 (static_cast<const unsigned char *> (
          __builtin_assume_aligned (buf + 8, 8)));
    }
  else
    {
      hi = load_be64 (buf);
      lo = load_be64 (buf + 8);
    }
}

template <bool ALIGNED>
inline void
ghash_blocks (const zbc_key_area *a, uint64_t &yh, uint64_t &yl,
              const unsigned char *buf, size_t nblocks)
{
  for (; nblocks >= ZBC_POWERS; nblocks -= ZBC_POWERS, buf += 16 * ZBC_POWERS)
    {
      acc256 z;
      uint64_t xh, xl;
      load_block<ALIGNED> (buf, xh, xl);
      z.mac (yh ^ xh, yl ^ xl, &a->k[ZBC_POWERS - 1]);
      for (int i = 1; i < ZBC_POWERS; i++)
        {
          load_block<ALIGNED> (buf + 16 * i, xh, xl);
          z.mac (xh, xl, &a->k[ZBC_POWERS - 1 - i]);
        }
      z.reduce (yh, yl);
    }
  for (; nblocks; nblocks--, buf += 16)
    {
      uint64_t xh, xl;
      load_block<ALIGNED> (buf, xh, xl);
      yh ^= xh;
      yl ^= xl;
      gf128_mul_reflected (yh, yl, &a->k[0]);
    }
}

unsigned int
zbc_ghash (const gcm_ghash_key *key, unsigned char *y,
           const unsigned char *buf, size_t nblocks)
{
  const zbc_key_area *a = reinterpret_cast<const zbc_key_area *> (key->bytes);
  uint64_t yh = load_be64 (y), yl = load_be64 (y + 8);
  if ((uintptr_t) buf & 7)
    ghash_blocks<false> (a, yh, yl, buf, nblocks);
  else
    ghash_blocks<true> (a, yh, yl, buf, nblocks);
  store_be64 (y, yh);
  store_be64 (y + 8, yl);
  /* The products may have been spilled.  */
  return 256;
}

} // namespace

const gcm_ghash_ops _gcry_ghash_ops_zbc = { zbc_setkey, zbc_ghash, nullptr };
