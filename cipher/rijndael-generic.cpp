/* rijndael-generic.cpp - constant-time portable AES (FIPS-197).
 *
 * Bitsliced: four 16-byte blocks live in eight 64-bit words q[0..7];
 * word q[i] holds bit i (0 = least significant) of all 64 bytes.  The
 * byte of block b (0..3) at row r, column c of the AES state (FIPS-197
 * 3.4: input byte n -> r = n % 4, c = n / 4) sits at bit
 *
 *     pos(b, r, c) = 8*r + 32*(c >> 1) + 4*(c & 1) + b
 *
 * i.e. each 32-bit half of a word holds two columns, byte r of a half is
 * row r, and inside that byte the low nibble is column 2h, the high nibble
 * column 2h+1, one bit per block.  With that layout
 *   - SubBytes is a boolean circuit evaluated on the eight words (the
 *     113-gate S-box circuit of Boyar and Peralta, "A new combinational
 *     logic minimization technique with applications to cryptology",
 *     SEA 2010; the inverse S-box is G o S o G with G the inverse affine
 *     map of FIPS-197 5.3.2, so only one non-linear circuit exists);
 *   - ShiftRows (FIPS-197 5.1.2) is a fixed shift-and-mask per row;
 *   - MixColumns (FIPS-197 5.1.3) needs "the byte one row down", which is
 *     a rotation of each 32-bit half by 8 bits, and xtime on bit planes.
 * There is no table lookup and no branch on key or data anywhere,
 * including the key expansion (FIPS-197 5.2), whose SubWord runs the
 * same circuit on 32-bit words.
 *
 * Loading is the 8x8 bit-matrix transpose of the eight 64-bit words that
 * hold the columns (three rounds of swap-and-move).  It is its own
 * inverse, so it also unloads.
 *
 * Portable C++ only (also the i386 and RISC-V fallback): no intrinsics.
 */
#include <config.h>
#include <string.h>
#include "rijndael-internal.h"

/* Fully unroll fixed-count loops over bit planes, lanes and rounds.  */
#define UNROLL _Pragma ("GCC unroll 16")

namespace {

/* Stack bytes a bitsliced call may leave state or key bits in (the
 * eight state words, 64-byte staging buffers, circuit temporaries
 * spilled by the compiler).  Measured with -fstack-usage on x86-64 GCC
 * 12 -O2: about 380 (single block) and 620 (bulk); the rest is margin
 * for other ABIs and compilers (arm64: lanes frames of 0x70-0x80).
 * i386, with seven general registers, spills the rounds into frames of
 * 8 to 13 KiB (encrypt_lanes<14> 0x2c8c bytes, decrypt_lanes<14>
 * 0x341c; up to 14,064 bytes below the bulk callers' callers), which
 * 640 and 1024 left mostly unburned.  */
#ifdef __i386__
constexpr unsigned int BURN_SINGLE = 16384;
constexpr unsigned int BURN_BULK = 16384;
#else
constexpr unsigned int BURN_SINGLE = 640;
constexpr unsigned int BURN_BULK = 1024;
#endif

/* ---- The S-box circuit ------------------------------------------- */

/* Forward S-box on bit planes: X[i] holds bit i of every byte (any word
 * type, every bit position an independent byte).  Boyar-Peralta number
 * the bits from the most significant (U0) down, so the planes are read
 * reversed.  Top linear layer, 4-bit-inversion-based middle, bottom
 * linear layer with the affine constant folded in as complements.  */
template <typename W>
inline void
sbox_planes (W x[8])
{
  const W U0 = x[7], U1 = x[6], U2 = x[5], U3 = x[4];
  const W U4 = x[3], U5 = x[2], U6 = x[1], U7 = x[0];

  /* Top linear transform.  */
  const W T1 = U0 ^ U3;
  const W T2 = U0 ^ U5;
  const W T3 = U0 ^ U6;
  const W T4 = U3 ^ U5;
  const W T5 = U4 ^ U6;
  const W T6 = T1 ^ T5;
  const W T7 = U1 ^ U2;
  const W T8 = U7 ^ T6;
  const W T9 = U7 ^ T7;
  const W T10 = T6 ^ T7;
  const W T11 = U1 ^ U5;
  const W T12 = U2 ^ U5;
  const W T13 = T3 ^ T4;
  const W T14 = T6 ^ T11;
  const W T15 = T5 ^ T11;
  const W T16 = T5 ^ T12;
  const W T17 = T9 ^ T16;
  const W T18 = U3 ^ U7;
  const W T19 = T7 ^ T18;
  const W T20 = T1 ^ T19;
  const W T21 = U6 ^ U7;
  const W T22 = T7 ^ T21;
  const W T23 = T2 ^ T22;
  const W T24 = T2 ^ T10;
  const W T25 = T20 ^ T17;
  const W T26 = T3 ^ T16;
  const W T27 = T1 ^ T12;

  /* Shared non-linear middle (inversion in GF(2^8) via GF(2^4)).  */
  const W M1 = T13 & T6;
  const W M2 = T23 & T8;
  const W M3 = T14 ^ M1;
  const W M4 = T19 & U7;
  const W M5 = M4 ^ M1;
  const W M6 = T3 & T16;
  const W M7 = T22 & T9;
  const W M8 = T26 ^ M6;
  const W M9 = T20 & T17;
  const W M10 = M9 ^ M6;
  const W M11 = T1 & T15;
  const W M12 = T4 & T27;
  const W M13 = M12 ^ M11;
  const W M14 = T2 & T10;
  const W M15 = M14 ^ M11;
  const W M16 = M3 ^ M2;
  const W M17 = M5 ^ T24;
  const W M18 = M8 ^ M7;
  const W M19 = M10 ^ M15;
  const W M20 = M16 ^ M13;
  const W M21 = M17 ^ M15;
  const W M22 = M18 ^ M13;
  const W M23 = M19 ^ T25;
  const W M24 = M22 ^ M23;
  const W M25 = M22 & M20;
  const W M26 = M21 ^ M25;
  const W M27 = M20 ^ M21;
  const W M28 = M23 ^ M25;
  const W M29 = M28 & M27;
  const W M30 = M26 & M24;
  const W M31 = M20 & M23;
  const W M32 = M27 & M31;
  const W M33 = M27 ^ M25;
  const W M34 = M21 & M22;
  const W M35 = M24 & M34;
  const W M36 = M24 ^ M25;
  const W M37 = M21 ^ M29;
  const W M38 = M32 ^ M33;
  const W M39 = M23 ^ M30;
  const W M40 = M35 ^ M36;
  const W M41 = M38 ^ M40;
  const W M42 = M37 ^ M39;
  const W M43 = M37 ^ M38;
  const W M44 = M39 ^ M40;
  const W M45 = M42 ^ M41;
  const W M46 = M44 & T6;
  const W M47 = M40 & T8;
  const W M48 = M39 & U7;
  const W M49 = M43 & T16;
  const W M50 = M38 & T9;
  const W M51 = M37 & T17;
  const W M52 = M42 & T15;
  const W M53 = M45 & T27;
  const W M54 = M41 & T10;
  const W M55 = M44 & T13;
  const W M56 = M40 & T23;
  const W M57 = M39 & T19;
  const W M58 = M43 & T3;
  const W M59 = M38 & T22;
  const W M60 = M37 & T20;
  const W M61 = M42 & T1;
  const W M62 = M45 & T4;
  const W M63 = M41 & T2;

  /* Bottom linear transform (affine map of FIPS-197 5.1.1).  */
  const W L0 = M61 ^ M62;
  const W L1 = M50 ^ M56;
  const W L2 = M46 ^ M48;
  const W L3 = M47 ^ M55;
  const W L4 = M54 ^ M58;
  const W L5 = M49 ^ M61;
  const W L6 = M62 ^ L5;
  const W L7 = M46 ^ L3;
  const W L8 = M51 ^ M59;
  const W L9 = M52 ^ M53;
  const W L10 = M53 ^ L4;
  const W L11 = M60 ^ L2;
  const W L12 = M48 ^ M51;
  const W L13 = M50 ^ L0;
  const W L14 = M52 ^ M61;
  const W L15 = M55 ^ L1;
  const W L16 = M56 ^ L0;
  const W L17 = M57 ^ L1;
  const W L18 = M58 ^ L8;
  const W L19 = M63 ^ L4;
  const W L20 = L0 ^ L1;
  const W L21 = L1 ^ L7;
  const W L22 = L3 ^ L12;
  const W L23 = L18 ^ L2;
  const W L24 = L15 ^ L9;
  const W L25 = L6 ^ L10;
  const W L26 = L7 ^ L9;
  const W L27 = L8 ^ L10;
  const W L28 = L11 ^ L14;
  const W L29 = L11 ^ L17;

  x[7] = L6 ^ L24;
  x[6] = ~(L16 ^ L26);
  x[5] = ~(L19 ^ L28);
  x[4] = L6 ^ L21;
  x[3] = L20 ^ L22;
  x[2] = L25 ^ L29;
  x[1] = ~(L13 ^ L27);
  x[0] = ~(L6 ^ L23);
}

/* G(y) = A^-1(y) ^ 0x05 = rotl1(y) ^ rotl3(y) ^ rotl6(y) ^ 0x05 on every
 * byte (FIPS-197 5.3.2); InvSubBytes = G o SubBytes o G.  */
template <typename W>
inline void
inv_affine_planes (W x[8])
{
  W y[8];
  UNROLL
  for (int i = 0; i < 8; i++)
    y[i] = x[(i + 7) & 7] ^ x[(i + 5) & 7] ^ x[(i + 2) & 7];
  x[0] = ~y[0];
  x[1] = y[1];
  x[2] = ~y[2];
  UNROLL
  for (int i = 3; i < 8; i++)
    x[i] = y[i];
}

template <typename W>
inline void
inv_sbox_planes (W x[8])
{
  inv_affine_planes (x);
  sbox_planes (x);
  inv_affine_planes (x);
}

/* ---- Layout: load/store with the 8x8 bit transpose ----------------- */

inline void
swapmove (uint64_t &a, uint64_t &b, uint64_t mask, int n)
{
  uint64_t t = ((a >> n) ^ b) & mask;
  b ^= t;
  a ^= t << n;
}

/* Transpose, in every byte position k, the 8x8 bit matrix whose row j is
 * byte k of w[j]: afterwards bit j of byte k of w[i] is what bit i of
 * byte k of w[j] was.  An involution.  */
inline void
ortho (uint64_t w[8])
{
  for (int j = 0; j < 8; j += 2)
    swapmove (w[j], w[j + 1], 0x5555555555555555ull, 1);
  swapmove (w[0], w[2], 0x3333333333333333ull, 2);
  swapmove (w[1], w[3], 0x3333333333333333ull, 2);
  swapmove (w[4], w[6], 0x3333333333333333ull, 2);
  swapmove (w[5], w[7], 0x3333333333333333ull, 2);
  for (int j = 0; j < 4; j++)
    swapmove (w[j], w[j + 4], 0x0f0f0f0f0f0f0f0full, 4);
}

inline uint64_t
ld32 (const unsigned char *p)
{
  return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16)
         | ((uint64_t)p[3] << 24);
}

inline void
st32 (unsigned char *p, uint64_t v)
{
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}

/* Load block b (16 bytes at P) into the pre-transpose words: w[b] gets
 * columns 0 and 2, w[b+4] columns 1 and 3 (the 32-bit halves).  */
inline void
load_block (uint64_t w[8], int b, const unsigned char *p)
{
  w[b] = ld32 (p) | (ld32 (p + 8) << 32);
  w[b + 4] = ld32 (p + 4) | (ld32 (p + 12) << 32);
}

inline void
store_block (unsigned char *p, const uint64_t w[8], int b)
{
  st32 (p, w[b]);
  st32 (p + 8, w[b] >> 32);
  st32 (p + 4, w[b + 4]);
  st32 (p + 12, w[b + 4] >> 32);
}

/* Load N (1..4) consecutive blocks from IN, the other lanes zero.  */
inline void
load_blocks (uint64_t q[8], const unsigned char *in, size_t n)
{
  UNROLL
  for (int b = 0; b < 4; b++)
    {
      if ((size_t)b < n)
        load_block (q, b, in + 16 * b);
      else
        q[b] = q[b + 4] = 0;
    }
  ortho (q);
}

inline void
store_blocks (unsigned char *out, uint64_t q[8], size_t n)
{
  ortho (q);
  for (size_t b = 0; b < n; b++)
    store_block (out + 16 * b, q, (int)b);
}

/* ---- Round functions on the bitsliced state ------------------------ */

inline void
add_round_key (uint64_t q[8], const uint64_t rk[8])
{
  UNROLL
  for (int i = 0; i < 8; i++)
    q[i] ^= rk[i];
}

/* FIPS-197 5.1.2: row r rotates left by r columns (new column c takes
 * old column c + r).  Row r is byte r of each half; see the layout.  */
inline uint64_t
shift_rows_word (uint64_t x)
{
  return (x & 0x000000ff000000ffull)
         /* row 1 */
         | ((x >> 4) & 0x00000f0000000f00ull)
         | ((x >> 28) & 0x000000000000f000ull)
         | ((x << 36) & 0x0000f00000000000ull)
         /* row 2 */
         | ((x >> 32) & 0x0000000000ff0000ull)
         | ((x << 32) & 0x00ff000000000000ull)
         /* row 3 */
         | ((x >> 36) & 0x000000000f000000ull)
         | ((x << 4) & 0xf0000000f0000000ull)
         | ((x << 28) & 0x0f00000000000000ull);
}

/* FIPS-197 5.3.1: new column c takes old column c - r.  */
inline uint64_t
inv_shift_rows_word (uint64_t x)
{
  return (x & 0x000000ff000000ffull)
         /* row 1 */
         | ((x >> 36) & 0x0000000000000f00ull)
         | ((x << 4) & 0x0000f0000000f000ull)
         | ((x << 28) & 0x00000f0000000000ull)
         /* row 2 */
         | ((x >> 32) & 0x0000000000ff0000ull)
         | ((x << 32) & 0x00ff000000000000ull)
         /* row 3 */
         | ((x >> 4) & 0x0f0000000f000000ull)
         | ((x >> 28) & 0x00000000f0000000ull)
         | ((x << 36) & 0xf000000000000000ull);
}

/* Row r takes row r + 1 (mod 4) of the same column.  */
inline uint64_t
rot_row1 (uint64_t x)
{
  return ((x >> 8) & 0x00ffffff00ffffffull) | ((x << 24) & 0xff000000ff000000ull);
}

/* Row r takes row r + 2 (mod 4).  */
inline uint64_t
rot_row2 (uint64_t x)
{
  return ((x >> 16) & 0x0000ffff0000ffffull) | ((x << 16) & 0xffff0000ffff0000ull);
}

/* Multiply every byte by x (xtime, FIPS-197 4.2.1) in bit planes.  */
inline void
xtime_planes (uint64_t d[8], const uint64_t s[8])
{
  const uint64_t hi = s[7];
  d[7] = s[6];
  d[6] = s[5];
  d[5] = s[4];
  d[4] = s[3] ^ hi;
  d[3] = s[2] ^ hi;
  d[2] = s[1];
  d[1] = s[0] ^ hi;
  d[0] = hi;
}

/* FIPS-197 5.1.3: out_r = 2 a_r + 3 a_{r+1} + a_{r+2} + a_{r+3}
 *                     = 2 t_r + a_{r+1} + t_{r+2},  t_r = a_r + a_{r+1}. */
inline void
mix_columns (uint64_t q[8])
{
  uint64_t t[8], t2[8];
  UNROLL
  for (int i = 0; i < 8; i++)
    t[i] = q[i] ^ rot_row1 (q[i]);
  xtime_planes (t2, t);
  UNROLL
  for (int i = 0; i < 8; i++)
    q[i] = t2[i] ^ rot_row1 (q[i]) ^ rot_row2 (t[i]);
}

/* FIPS-197 5.3.3: the inverse matrix {0e,0b,0d,09} factors as the
 * forward one times {05,00,04,00}: u_r = a_r + 4 (a_r + a_{r+2}).  */
inline void
inv_mix_columns (uint64_t q[8])
{
  uint64_t t[8], t2[8], t4[8];
  UNROLL
  for (int i = 0; i < 8; i++)
    t[i] = q[i] ^ rot_row2 (q[i]);
  xtime_planes (t2, t);
  xtime_planes (t4, t2);
  UNROLL
  for (int i = 0; i < 8; i++)
    q[i] ^= t4[i];
  mix_columns (q);
}

/* FIPS-197 5.1 on four lanes.  */
template <unsigned int ROUNDS>
void
encrypt_lanes (const uint64_t (*rk)[8], uint64_t q[8])
{
  add_round_key (q, rk[0]);
  UNROLL
  for (unsigned int r = 1; r < ROUNDS; r++)
    {
      sbox_planes (q);
      UNROLL
      for (int i = 0; i < 8; i++)
        q[i] = shift_rows_word (q[i]);
      mix_columns (q);
      add_round_key (q, rk[r]);
    }
  sbox_planes (q);
  UNROLL
  for (int i = 0; i < 8; i++)
    q[i] = shift_rows_word (q[i]);
  add_round_key (q, rk[ROUNDS]);
}

/* FIPS-197 5.3 (the inverse cipher, not the equivalent one: it uses the
 * encryption round keys as they are).  */
template <unsigned int ROUNDS>
void
decrypt_lanes (const uint64_t (*rk)[8], uint64_t q[8])
{
  add_round_key (q, rk[ROUNDS]);
  UNROLL
  for (unsigned int r = ROUNDS - 1; r > 0; r--)
    {
      UNROLL
      for (int i = 0; i < 8; i++)
        q[i] = inv_shift_rows_word (q[i]);
      inv_sbox_planes (q);
      add_round_key (q, rk[r]);
      inv_mix_columns (q);
    }
  UNROLL
  for (int i = 0; i < 8; i++)
    q[i] = inv_shift_rows_word (q[i]);
  inv_sbox_planes (q);
  add_round_key (q, rk[0]);
}

/* Dispatch on the (public) round count.  */
inline void
encrypt4 (const RIJNDAEL_context *ctx, uint64_t q[8])
{
  switch (ctx->rounds)
    {
    case 10: encrypt_lanes<10> (ctx->keys.bs, q); break;
    case 12: encrypt_lanes<12> (ctx->keys.bs, q); break;
    default: encrypt_lanes<14> (ctx->keys.bs, q); break;
    }
}

inline void
decrypt4 (const RIJNDAEL_context *ctx, uint64_t q[8])
{
  switch (ctx->rounds)
    {
    case 10: decrypt_lanes<10> (ctx->keys.bs, q); break;
    case 12: decrypt_lanes<12> (ctx->keys.bs, q); break;
    default: decrypt_lanes<14> (ctx->keys.bs, q); break;
    }
}

/* ---- Key expansion ------------------------------------------------ */

/* SubWord (FIPS-197 5.2) on the 4 bytes at W, constant time: the bytes
 * become bit positions 0..3 of eight bit planes.  */
void
sub_word (unsigned char w[4])
{
  uint32_t x[8];
  UNROLL
  for (int i = 0; i < 8; i++)
    {
      x[i] = 0;
      for (int k = 0; k < 4; k++)
        x[i] |= (uint32_t)((w[k] >> i) & 1) << k;
    }
  sbox_planes (x);
  for (int k = 0; k < 4; k++)
    {
      unsigned int v = 0;
      UNROLL
      for (int i = 0; i < 8; i++)
        v |= ((x[i] >> k) & 1) << i;
      w[k] = (unsigned char)v;
    }
}

/* 16-byte big-endian counter increment (SP 800-38A B.1), wrapping at
 * 2^128; no data-dependent branch.  */
inline void
ctr_inc (unsigned char ctr[16])
{
  unsigned int carry = 1;
  for (int i = 15; i >= 0; i--)
    {
      carry += ctr[i];
      ctr[i] = (unsigned char)carry;
      carry >>= 8;
    }
}

/* ---- Bulk slots ---------------------------------------------------- */

unsigned int
generic_ecb_crypt (void *c, void *outv, const void *inv, size_t nblocks,
                   int encrypt)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c;
  unsigned char *out = (unsigned char *)outv;
  const unsigned char *in = (const unsigned char *)inv;
  uint64_t q[8];

  while (nblocks)
    {
      size_t n = nblocks < 4 ? nblocks : 4;
      load_blocks (q, in, n);
      if (encrypt)
        encrypt4 (ctx, q);
      else
        decrypt4 (ctx, q);
      store_blocks (out, q, n);
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
  return BURN_BULK;
}

/* SP 800-38A 6.2: P_i = D(C_i) ^ C_{i-1}, C_{-1} = IV.  */
unsigned int
generic_cbc_dec (void *c, unsigned char *iv, void *outv, const void *inv,
                 size_t nblocks)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c;
  unsigned char *out = (unsigned char *)outv;
  const unsigned char *in = (const unsigned char *)inv;
  uint64_t q[8];
  unsigned char cbuf[64], pbuf[64];

  while (nblocks)
    {
      size_t n = nblocks < 4 ? nblocks : 4;
      memcpy (cbuf, in, 16 * n);          /* IN may be OUT.  */
      load_blocks (q, cbuf, n);
      decrypt4 (ctx, q);
      store_blocks (pbuf, q, n);
      cipher_block_xor (out, pbuf, iv, 16);
      if (n > 1)
        cipher_block_xor (out + 16, pbuf + 16, cbuf, 16 * (n - 1));
      memcpy (iv, cbuf + 16 * (n - 1), 16);
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
  return BURN_BULK;
}

/* SP 800-38A 6.3 (s = 128): P_i = E(C_{i-1}) ^ C_i, C_{-1} = IV.  */
unsigned int
generic_cfb_dec (void *c, unsigned char *iv, void *outv, const void *inv,
                 size_t nblocks)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c;
  unsigned char *out = (unsigned char *)outv;
  const unsigned char *in = (const unsigned char *)inv;
  uint64_t q[8];
  unsigned char cbuf[80], kbuf[64];

  while (nblocks)
    {
      size_t n = nblocks < 4 ? nblocks : 4;
      memcpy (cbuf, iv, 16);
      memcpy (cbuf + 16, in, 16 * n);     /* IN may be OUT.  */
      load_blocks (q, cbuf, n);
      encrypt4 (ctx, q);
      store_blocks (kbuf, q, n);
      cipher_block_xor (out, kbuf, cbuf + 16, 16 * n);
      memcpy (iv, cbuf + 16 * n, 16);
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
  return BURN_BULK;
}

/* SP 800-38A 6.5 with the whole block as a big-endian counter.  */
unsigned int
generic_ctr16be_enc (void *c, unsigned char *ctr, void *outv,
                     const void *inv, size_t nblocks)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c;
  unsigned char *out = (unsigned char *)outv;
  const unsigned char *in = (const unsigned char *)inv;
  uint64_t q[8];
  unsigned char cbuf[64], kbuf[64];

  while (nblocks)
    {
      size_t n = nblocks < 4 ? nblocks : 4;
      for (size_t b = 0; b < n; b++)
        {
          memcpy (cbuf + 16 * b, ctr, 16);
          ctr_inc (ctr);
        }
      load_blocks (q, cbuf, n);
      encrypt4 (ctx, q);
      store_blocks (kbuf, q, n);
      cipher_block_xor (out, in, kbuf, 16 * n);
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
  return BURN_BULK;
}

} // namespace

/* ---- Entry points ------------------------------------------------- */

unsigned int
_gcry_aes_generic_expand_key (unsigned char *w, const unsigned char *key,
                              size_t keylen)
{
  const unsigned int nk = (unsigned int)(keylen / 4);
  const unsigned int rounds = nk + 6;
  const unsigned int total = 4 * (rounds + 1);
  /* Rcon[i] = x^(i-1) in GF(2^8) (FIPS-197 5.2); indexed by the public
   * word number only.  */
  static const unsigned char rcon[11] =
    { 0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36 };

  memcpy (w, key, keylen);
  for (unsigned int i = nk; i < total; i++)
    {
      unsigned char t[4];
      memcpy (t, w + 4 * (i - 1), 4);
      if (i % nk == 0)
        {
          unsigned char t0 = t[0];            /* RotWord */
          t[0] = t[1];
          t[1] = t[2];
          t[2] = t[3];
          t[3] = t0;
          sub_word (t);
          t[0] ^= rcon[i / nk];
        }
      else if (nk > 6 && i % nk == 4)
        sub_word (t);
      for (int k = 0; k < 4; k++)
        w[4 * i + k] = w[4 * (i - nk) + k] ^ t[k];
    }
  return 256;
}

unsigned int
_gcry_aes_generic_setkey (RIJNDAEL_context *ctx, const unsigned char *key,
                          size_t keylen)
{
  unsigned char w[16 * (RIJNDAEL_MAX_ROUNDS + 1)];
  unsigned char rep[64];
  unsigned int burn;

  ctx->rounds = (unsigned int)(keylen / 4 + 6);
  burn = _gcry_aes_generic_expand_key (w, key, keylen);
  for (unsigned int r = 0; r <= ctx->rounds; r++)
    {
      /* The same round key in all four lanes.  */
      UNROLL
      for (int b = 0; b < 4; b++)
        memcpy (rep + 16 * b, w + 16 * r, 16);
      load_blocks (ctx->keys.bs[r], rep, 4);
    }
  wipememory (w, sizeof w);
  wipememory (rep, sizeof rep);
  return burn + sizeof w + sizeof rep + 128;
}

unsigned int
_gcry_aes_generic_encrypt (void *c, unsigned char *out,
                           const unsigned char *in)
{
  uint64_t q[8];
  load_blocks (q, in, 1);
  encrypt4 ((const RIJNDAEL_context *)c, q);
  store_blocks (out, q, 1);
  return BURN_SINGLE;
}

unsigned int
_gcry_aes_generic_decrypt (void *c, unsigned char *out,
                           const unsigned char *in)
{
  uint64_t q[8];
  load_blocks (q, in, 1);
  decrypt4 ((const RIJNDAEL_context *)c, q);
  store_blocks (out, q, 1);
  return BURN_SINGLE;
}

void
_gcry_aes_generic_fill_bulk (cipher_bulk_ops *bulk)
{
  bulk->ecb_crypt = generic_ecb_crypt;
  bulk->cbc_dec = generic_cbc_dec;
  bulk->cfb_dec = generic_cfb_dec;
  bulk->ctr16be_enc = generic_ctr16be_enc;
}
