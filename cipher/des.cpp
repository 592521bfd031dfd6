/* des.cpp - DES (FIPS 46-3) and Triple DES, TDEA keying option 1
 * (NIST SP 800-67 Rev. 2): the two specs, key schedules, block
 * functions, weak-key check and self-test.
 *
 * Bits are numbered 1..64 from the most significant bit of the block
 * read big-endian, as FIPS 46-3 numbers them; every table below is the
 * standard's table transcribed with that numbering:
 *   IP, IP^-1          FIPS 46-3 "Enciphering", figure 1 tables
 *   E, P               FIPS 46-3 "The Cipher Function f"
 *   S1..S8             FIPS 46-3 "Primitive Functions S1, ..., S8"
 *   PC-1, PC-2, shifts FIPS 46-3 appendix 1 ("Key Schedule Calculation")
 *
 * Constant time: IP and IP^-1 are delta swaps, E is eight rotations,
 * the key schedule's PC-1/PC-2 are loops over public bit positions.
 * S-boxes and P together are "bit planes": for S-box i and output bit j
 * one 64-bit word whose bit x is bit j of S_i (x), so the bit is one
 * shift by the secret 6-bit input x (shift counts take constant time on
 * every supported CPU) and goes straight to its place after P (a public
 * shift): no secret-dependent branch or memory index.  The weak-key
 * check compares against all sixteen keys with masks.  Still slower than
 * libgcrypt's combined SP tables, which are secret-indexed lookups.
 *
 * libgcrypt behaviour kept (probed on 1.10.1): DES takes exactly 8 key
 * bytes, 3DES exactly 24 (K1 || K2 || K3); parity bits are ignored.  A
 * weak or semi-weak DES key (SP 800-67 3.3.2, parity bits ignored), or
 * such a key as any of K1, K2, K3, makes setkey answer GPG_ERR_WEAK_KEY
 * after it expanded the key: cipher.cpp keeps the key usable when
 * GCRYCTL_SET_ALLOW_WEAK_KEY was given.  K1 == K2 and the like are not
 * checked.  3DES (only) accepts libgcrypt's private command 61, which
 * turns the weak-key check off for the handle (it survives setkey; a
 * reset returns to the setting the last setkey saw); SET_SBOX on 3DES
 * answers GPG_ERR_INV_OP, both on DES GPG_ERR_NOT_SUPPORTED.
 */
#include <config.h>
#include <stddef.h>
#include <string.h>
#include "g10lib.h"
#include "cipher-internal.h"

namespace {

/* ---- FIPS 46-3 tables ---------------------------------------------- */

constexpr unsigned char ip_table[64] = {
  58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4,
  62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8,
  57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3,
  61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7
};

constexpr unsigned char fp_table[64] = {
  40, 8, 48, 16, 56, 24, 64, 32, 39, 7, 47, 15, 55, 23, 63, 31,
  38, 6, 46, 14, 54, 22, 62, 30, 37, 5, 45, 13, 53, 21, 61, 29,
  36, 4, 44, 12, 52, 20, 60, 28, 35, 3, 43, 11, 51, 19, 59, 27,
  34, 2, 42, 10, 50, 18, 58, 26, 33, 1, 41, 9, 49, 17, 57, 25
};

constexpr unsigned char e_table[48] = {
  32, 1, 2, 3, 4, 5, 4, 5, 6, 7, 8, 9,
  8, 9, 10, 11, 12, 13, 12, 13, 14, 15, 16, 17,
  16, 17, 18, 19, 20, 21, 20, 21, 22, 23, 24, 25,
  24, 25, 26, 27, 28, 29, 28, 29, 30, 31, 32, 1
};

constexpr unsigned char p_table[32] = {
  16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10,
  2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4, 25
};

constexpr unsigned char pc1_table[56] = {
  57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18,
  10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
  63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22,
  14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4
};

constexpr unsigned char pc2_table[48] = {
  14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10,
  23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
  41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48,
  44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32
};

constexpr unsigned char key_shifts[16] = {
  1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1
};

/* S1..S8, each four rows of sixteen entries.  */
constexpr unsigned char sbox_table[8][4][16] = {
  { { 14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7 },
    { 0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8 },
    { 4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0 },
    { 15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13 } },
  { { 15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10 },
    { 3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5 },
    { 0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15 },
    { 13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9 } },
  { { 10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8 },
    { 13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1 },
    { 13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7 },
    { 1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12 } },
  { { 7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15 },
    { 13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9 },
    { 10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4 },
    { 3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14 } },
  { { 2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9 },
    { 14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6 },
    { 4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14 },
    { 11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3 } },
  { { 12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11 },
    { 10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8 },
    { 9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6 },
    { 4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13 } },
  { { 4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1 },
    { 13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6 },
    { 1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2 },
    { 6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12 } },
  { { 13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7 },
    { 1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2 },
    { 7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8 },
    { 2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11 } }
};

/* Each S-box row packed into one word: entry C in bits 4C..4C+3.  */
struct packed_sboxes
{
  uint64_t row[8][4];
};

constexpr packed_sboxes
pack_sboxes ()
{
  packed_sboxes p {};
  for (int s = 0; s < 8; s++)
    for (int r = 0; r < 4; r++)
      for (int c = 0; c < 16; c++)
        p.row[s][r] |= (uint64_t) sbox_table[s][r][c] << (4 * c);
  return p;
}

constexpr packed_sboxes sboxes = pack_sboxes ();

/* S-boxes with P folded in (file comment): plane[i][j] rotated right by
 * x has, at bit dest[i][j], bit j (0 = most significant) of S_(i+1) (x),
 * x = b1..b6 (row b1b6, column b2b3b4b5); dest[i][j] is the bit number
 * (0 = least significant) that output bit lands on after P.  (The plane
 * of bit j is stored rotated left by dest[i][j].)  */
struct sp_planes
{
  uint64_t plane[8][4];
  unsigned char dest[8][4];
};

constexpr sp_planes
make_sp_planes ()
{
  sp_planes t {};
  for (int i = 0; i < 8; i++)
    {
      for (int x = 0; x < 64; x++)
        {
          const int row = ((x >> 4) & 2) | (x & 1), col = (x >> 1) & 15;
          const int v = sbox_table[i][row][col];
          for (int j = 0; j < 4; j++)
            t.plane[i][j] |= (uint64_t) ((v >> (3 - j)) & 1) << x;
        }
      for (int j = 0; j < 4; j++)
        {
          for (int k = 0; k < 32; k++)
            if (p_table[k] == 4 * i + j + 1)
              t.dest[i][j] = (unsigned char) (31 - k);
          const int d = t.dest[i][j];
          t.plane[i][j] = d ? (t.plane[i][j] << d) | (t.plane[i][j] >> (64 - d))
                            : t.plane[i][j];
        }
    }
  return t;
}

constexpr sp_planes sp = make_sp_planes ();

/* Weak and semi-weak keys (SP 800-67 Rev. 2 3.3.2, FIPS 74 3.6), parity
 * bits (the low bit of each byte) cleared.  */
constexpr uint64_t weak_keys[16] = {
  0x0101010101010101ull, 0xfefefefefefefefeull,
  0xe0e0e0e0f1f1f1f1ull, 0x1f1f1f1f0e0e0e0eull,
  0x01fe01fe01fe01feull, 0xfe01fe01fe01fe01ull,
  0x1fe01fe00ef10ef1ull, 0xe01fe01ff10ef10eull,
  0x01e001e001f101f1ull, 0xe001e001f101f101ull,
  0x1ffe1ffe0efe0efeull, 0xfe1ffe1ffe0efe0eull,
  0x011f011f010e010eull, 0x1f011f010e010e01ull,
  0xe0fee0fef1fef1feull, 0xfee0fee0fef1fef1ull
};
constexpr uint64_t parity_mask = 0xfefefefefefefefeull;

/* ---- Contexts ------------------------------------------------------- */

struct des_ks
{
  uint64_t k[16];            /* Round keys K1..K16, 48 bits each.  */
};

struct DES_context
{
  des_ks ks;
};

/* 3DES: the first 8 bytes survive setkey (cipher_extra_ops).  */
struct TRIPLEDES_context
{
  unsigned char no_weak_key;            /* Command 61 given.  */
  unsigned char no_weak_key_at_setkey;  /* Its value at the last setkey. */
  unsigned char pad[6];
  des_ks ks[3];
};
static_assert (offsetof (TRIPLEDES_context, ks) == 8);

/* ---- Primitives ------------------------------------------------------ */

inline uint64_t
load_be64 (const unsigned char *p)
{
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v = (v << 8) | p[i];
  return v;
}

inline void
store_be64 (unsigned char *p, uint64_t v)
{
  for (int i = 7; i >= 0; i--, v >>= 8)
    p[i] = (unsigned char) v;
}

/* The N-bit result whose bit I (1 = most significant) is bit TABLE[I-1]
 * of the INBITS-bit value IN (FIPS numbering).  Public positions only. */
template <size_t N>
inline uint64_t
permute (uint64_t in, unsigned int inbits, const unsigned char (&table)[N])
{
  uint64_t out = 0;
  for (size_t i = 0; i < N; i++)
    out = (out << 1) | ((in >> (inbits - table[i])) & 1);
  return out;
}

/* All-ones if A == B, else 0, without a branch: x | -x has its top
 * bit set exactly when x != 0.  */
inline uint64_t
eq_mask (uint64_t a, uint64_t b)
{
  uint64_t x = a ^ b;
  return ((x | (0 - x)) >> 63) - 1;
}

/* S-box S (0..7) on the six bits B: row b1b6, column b2b3b4b5.  */
inline uint32_t
sbox (int s, uint64_t b)
{
  uint64_t row = ((b >> 4) & 2) | (b & 1);
  uint64_t col = (b >> 1) & 15;
  uint64_t w = 0;
  for (uint64_t r = 0; r < 4; r++)
    w |= sboxes.row[s][r] & eq_mask (row, r);
  return (uint32_t) ((w >> (4 * col)) & 15);
}

inline uint32_t
rotl32 (uint32_t x, unsigned int n)
{
  return (x << n) | (x >> ((32 - n) & 31));
}

/* Six bits of E (R) for S-box I: E's rows are the windows of bits
 * 4i .. 4i+5 of R taken cyclically (bit 0 = bit 32), i.e. the low six
 * bits of R rotated left by 5 + 4i.  The selftest checks this against
 * e_table.  */
inline uint32_t
e_chunk (uint32_t r, int i)
{
  return rotl32 (r, (unsigned int) (5 + 4 * i) & 31) & 63;
}

/* f(R, K) = P (S1..S8 (E (R) xor K)), through the bit planes.  */
inline uint32_t
des_f (uint32_t r, uint64_t k)
{
  uint32_t f = 0;
#pragma GCC unroll 8
  for (int i = 0; i < 8; i++)
    {
      const uint64_t x = e_chunk (r, i) ^ ((k >> (42 - 6 * i)) & 63);
#pragma GCC unroll 4
      for (int j = 0; j < 4; j++)
        {
          const uint64_t w = sp.plane[i][j];
          f |= (uint32_t) (((w >> x) | (w << ((64 - x) & 63)))
                           & ((uint64_t) 1 << sp.dest[i][j]));
        }
    }
  return f;
}

/* The same, straight from the standard's S and P tables (self-test).  */
uint32_t
des_f_reference (uint32_t r, uint64_t k)
{
  uint32_t s = 0;
  for (int i = 0; i < 8; i++)
    s = (s << 4) | sbox (i, e_chunk (r, i) ^ ((k >> (42 - 6 * i)) & 63));
  return (uint32_t) permute (s, 32, p_table);
}

/* Exchange the bits of A >> N and B selected by M (a "delta swap").  */
inline void
swap_bits (uint32_t &a, uint32_t &b, unsigned int n, uint32_t m)
{
  uint32_t t = ((a >> n) ^ b) & m;
  b ^= t;
  a ^= t << n;
}

/* IP and IP^-1 as five delta swaps on the two halves (the bit matrix
 * transposition they are); equal to permute () with ip_table/fp_table,
 * which the selftest checks.  */
inline uint64_t
des_ip (uint64_t x)
{
  uint32_t l = (uint32_t) (x >> 32), r = (uint32_t) x;
  swap_bits (l, r, 4, 0x0f0f0f0f);
  swap_bits (l, r, 16, 0x0000ffff);
  swap_bits (r, l, 2, 0x33333333);
  swap_bits (r, l, 8, 0x00ff00ff);
  swap_bits (l, r, 1, 0x55555555);
  return ((uint64_t) l << 32) | r;
}

inline uint64_t
des_fp (uint64_t x)
{
  uint32_t l = (uint32_t) (x >> 32), r = (uint32_t) x;
  swap_bits (l, r, 1, 0x55555555);
  swap_bits (r, l, 8, 0x00ff00ff);
  swap_bits (r, l, 2, 0x33333333);
  swap_bits (l, r, 16, 0x0000ffff);
  swap_bits (l, r, 4, 0x0f0f0f0f);
  return ((uint64_t) l << 32) | r;
}

/* The 16-round DES on the 64-bit block X with KS forward (encryption)
 * or backward (decryption, FIPS 46-3 "Deciphering").  */
uint64_t
des_crypt_block (const des_ks &ks, uint64_t x, bool decrypt)
{
  x = des_ip (x);
  uint32_t l = (uint32_t) (x >> 32), r = (uint32_t) x;
  for (int i = 0; i < 16; i++)
    {
      uint32_t t = l ^ des_f (r, ks.k[decrypt ? 15 - i : i]);
      l = r;
      r = t;
    }
  /* The preoutput is R16 L16.  */
  return des_fp (((uint64_t) r << 32) | l);
}

/* FIPS 46-3 appendix 1: PC-1, the left shifts of C and D, PC-2.  */
void
des_key_schedule (des_ks &ks, const unsigned char *key)
{
  uint64_t cd = permute (load_be64 (key), 64, pc1_table);
  uint32_t c = (uint32_t) (cd >> 28) & 0x0fffffff, d = (uint32_t) cd & 0x0fffffff;
  for (int i = 0; i < 16; i++)
    {
      unsigned int n = key_shifts[i];
      c = ((c << n) | (c >> (28 - n))) & 0x0fffffff;
      d = ((d << n) | (d >> (28 - n))) & 0x0fffffff;
      ks.k[i] = permute (((uint64_t) c << 28) | d, 56, pc2_table);
    }
  cd = 0;
  c = d = 0;
}

/* Nonzero if the 8-byte KEY is weak or semi-weak (all sixteen compared,
 * no early exit; only the final answer is public).  */
bool
des_is_weak_key (const unsigned char *key)
{
  uint64_t k = load_be64 (key) & parity_mask, hit = 0;
  for (uint64_t w : weak_keys)
    hit |= eq_mask (k, w & parity_mask);
  return hit != 0;
}

constexpr unsigned int des_burn = 160 + 12 * sizeof (void *);

unsigned int
des_encrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const DES_context *ctx = static_cast<const DES_context *> (c);
  store_be64 (out, des_crypt_block (ctx->ks, load_be64 (in), false));
  return des_burn;
}

unsigned int
des_decrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const DES_context *ctx = static_cast<const DES_context *> (c);
  store_be64 (out, des_crypt_block (ctx->ks, load_be64 (in), true));
  return des_burn;
}

/* SP 800-67 3.1: C = E_K3 (D_K2 (E_K1 (P))), P = D_K1 (E_K2 (D_K3 (C))). */
unsigned int
tripledes_encrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const TRIPLEDES_context *ctx = static_cast<const TRIPLEDES_context *> (c);
  uint64_t x = load_be64 (in);
  x = des_crypt_block (ctx->ks[0], x, false);
  x = des_crypt_block (ctx->ks[1], x, true);
  x = des_crypt_block (ctx->ks[2], x, false);
  store_be64 (out, x);
  return des_burn;
}

unsigned int
tripledes_decrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const TRIPLEDES_context *ctx = static_cast<const TRIPLEDES_context *> (c);
  uint64_t x = load_be64 (in);
  x = des_crypt_block (ctx->ks[2], x, true);
  x = des_crypt_block (ctx->ks[1], x, false);
  x = des_crypt_block (ctx->ks[0], x, true);
  store_be64 (out, x);
  return des_burn;
}

const cipher_impl_info des_impls[] = { { "generic", 0 } };

/* KEYLEN must be 8: GPG_ERR_INV_KEYLEN, else the self-test, the key
 * schedule, then GPG_ERR_WEAK_KEY for a weak or semi-weak key.  */
gcry_err_code_t
des_setkey (void *c, const unsigned char *key, size_t keylen,
            cipher_bulk_ops *bulk, const char **impl_name)
{
  DES_context *ctx = static_cast<DES_context *> (c);
  (void) bulk;
  if (keylen != 8)
    return GPG_ERR_INV_KEYLEN;
  des_key_schedule (ctx->ks, key);
  /* The weak-key bit is setkey's public answer (its return value);
   * declassified for the constant-time checker (g10lib.h ct_public)
   * before cipher.cpp acts on it.  */
  bool weak = des_is_weak_key (key);
  ct_public (&weak, sizeof weak);
  _gcry_burn_stack (256);
  if (impl_name)
    *impl_name = des_impls[0].name;
  return weak ? GPG_ERR_WEAK_KEY : GPG_ERR_NO_ERROR;
}

/* KEYLEN must be 24 (K1 || K2 || K3).  */
gcry_err_code_t
tripledes_setkey (void *c, const unsigned char *key, size_t keylen,
                  cipher_bulk_ops *bulk, const char **impl_name)
{
  TRIPLEDES_context *ctx = static_cast<TRIPLEDES_context *> (c);
  (void) bulk;
  if (keylen != 24)
    return GPG_ERR_INV_KEYLEN;
  bool weak = false;
  for (int i = 0; i < 3; i++)
    {
      des_key_schedule (ctx->ks[i], key + 8 * i);
      weak |= des_is_weak_key (key + 8 * i);
    }
  ct_public (&weak, sizeof weak);  /* Public answer, as for DES.  */
  ctx->no_weak_key_at_setkey = ctx->no_weak_key;
  _gcry_burn_stack (256);
  if (impl_name)
    *impl_name = des_impls[0].name;
  return weak && !ctx->no_weak_key ? GPG_ERR_WEAK_KEY : GPG_ERR_NO_ERROR;
}

/* libgcrypt's private command 61 turns the weak-key check off; other
 * commands (SET_SBOX): GPG_ERR_INV_OP.  */
gcry_err_code_t
tripledes_set_extra_info (void *c, int what, const void *buffer,
                          size_t buflen)
{
  TRIPLEDES_context *ctx = static_cast<TRIPLEDES_context *> (c);
  (void) buffer;
  (void) buflen;
  if (what != 61)
    return GPG_ERR_INV_OP;
  ctx->no_weak_key = 1;
  return GPG_ERR_NO_ERROR;
}

void
tripledes_reset (void *c)
{
  TRIPLEDES_context *ctx = static_cast<TRIPLEDES_context *> (c);
  ctx->no_weak_key = ctx->no_weak_key_at_setkey;
}

/* ---- Self-tests ------------------------------------------------------ */

struct des_kat
{
  unsigned char key[24], pt[8], ct[8];
};

/* FIPS 81 appendix B ("Now is t"), and the weak key 0101..01 (which
 * encrypts twice to the identity); SP 800-67 style three-key vectors
 * from Botan's block/des.vec.  */
const des_kat des_kats[] = {
  { { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef },
    { 0x4e, 0x6f, 0x77, 0x20, 0x69, 0x73, 0x20, 0x74 },
    { 0x3f, 0xa4, 0x0e, 0x8a, 0x98, 0x4d, 0x48, 0x15 } },
  { { 0x01, 0x13, 0xb9, 0x70, 0xfd, 0x34, 0xf2, 0xce },
    { 0x05, 0x9b, 0x5e, 0x08, 0x51, 0xcf, 0x14, 0x3a },
    { 0x86, 0xa5, 0x60, 0xf1, 0x0e, 0xc6, 0xd8, 0x5b } },
};

const des_kat tripledes_kats[] = {
  { { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
      0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55,
      0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 },
    { 0x73, 0x6f, 0x6d, 0x65, 0x64, 0x61, 0x74, 0x61 },
    { 0x18, 0xd7, 0x48, 0xe5, 0x63, 0x62, 0x05, 0x72 } },
};

const char *
des_selftest (void)
{
  alignas (16) DES_context ctx;
  unsigned char buf[8];
  const char *err = NULL;
  for (const des_kat &v : des_kats)
    {
      des_key_schedule (ctx.ks, v.key);
      des_encrypt (&ctx, buf, v.pt);
      if (memcmp (buf, v.ct, 8))
        err = "DES: encryption known answer failed";
      des_decrypt (&ctx, buf, v.ct);
      if (!err && memcmp (buf, v.pt, 8))
        err = "DES: decryption known answer failed";
    }
  /* The fast IP, IP^-1 and E against the standard's tables.  */
  uint64_t x = 0x0123456789abcdefull;
  for (int n = 0; n < 64 && !err; n++)
    {
      uint32_t e = 0;
      uint64_t ex = permute ((uint32_t) x, 32, e_table);
      for (int i = 0; i < 8; i++)
        e |= (uint32_t) ((ex >> (42 - 6 * i)) & 63) ^ e_chunk ((uint32_t) x, i);
      if (des_ip (x) != permute (x, 64, ip_table)
          || des_fp (x) != permute (x, 64, fp_table) || e)
        err = "DES: IP, IP^-1 or E differ from FIPS 46-3";
      x = x * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    }
  /* The bit-plane f against the S and P tables.  */
  for (int n = 0; n < 64 && !err; n++)
    {
      if (des_f ((uint32_t) x, x >> 16) != des_f_reference ((uint32_t) x,
                                                            x >> 16))
        err = "DES: S-box bit planes differ from FIPS 46-3";
      x = x * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
    }
  /* Weak-key detection: 0101..01 is weak, 0101..01 with parity flipped
   * too, the FIPS 81 key is not.  */
  const unsigned char weak[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
  const unsigned char weak2[8] = { 0, 1, 0, 1, 0, 1, 0, 1 };
  if (!err && (!des_is_weak_key (weak) || !des_is_weak_key (weak2)
               || des_is_weak_key (des_kats[0].key)))
    err = "DES: weak-key detection failed";
  wipememory (&ctx, sizeof ctx);
  _gcry_burn_stack (512);
  return err;
}

const char *
tripledes_selftest (void)
{
  alignas (16) TRIPLEDES_context ctx;
  unsigned char buf[8];
  const char *err = NULL;
  memset (&ctx, 0, sizeof ctx);
  for (const des_kat &v : tripledes_kats)
    {
      for (int i = 0; i < 3; i++)
        des_key_schedule (ctx.ks[i], v.key + 8 * i);
      tripledes_encrypt (&ctx, buf, v.pt);
      if (memcmp (buf, v.ct, 8))
        err = "3DES: encryption known answer failed";
      tripledes_decrypt (&ctx, buf, v.ct);
      if (!err && memcmp (buf, v.pt, 8))
        err = "3DES: decryption known answer failed";
    }
  wipememory (&ctx, sizeof ctx);
  _gcry_burn_stack (512);
  return err;
}

/* ---- Names (as libgcrypt 1.10 answers them) ------------------------- */

const cipher_oid_spec tripledes_oids[] = {
  { "1.2.840.113549.3.7", GCRY_CIPHER_MODE_CBC },     /* des-ede3-cbc */
  { "1.3.36.3.1.3.2.1", GCRY_CIPHER_MODE_CBC },       /* TeleTrust */
  { "1.2.840.113549.1.12.1.3", GCRY_CIPHER_MODE_CBC },/* PKCS#12 3DES */
  { NULL, 0 }
};

} // namespace

const cipher_spec _gcry_cipher_spec_des = {
  GCRY_CIPHER_DES, "DES", NULL, NULL,
  8, 64, sizeof (DES_context),
  des_setkey, des_encrypt, des_decrypt, des_selftest,
  des_impls, 1
};

const cipher_spec _gcry_cipher_spec_tripledes = {
  GCRY_CIPHER_3DES, "3DES", NULL, tripledes_oids,
  8, 192, sizeof (TRIPLEDES_context),
  tripledes_setkey, tripledes_encrypt, tripledes_decrypt, tripledes_selftest,
  des_impls, 1
};

const cipher_extra_ops _gcry_cipher_extra_tripledes = {
  &_gcry_cipher_spec_tripledes, offsetof (TRIPLEDES_context, ks),
  tripledes_set_extra_info, tripledes_reset
};
