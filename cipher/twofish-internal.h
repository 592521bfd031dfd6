/* twofish-internal.h - Twofish (Schneier et al., "Twofish: A 128-Bit
 * Block Cipher", 1998): the context and the compile-time definitions
 * shared by the generic code (twofish.cpp) and the SIMD paths
 * (twofish-avx2.cpp, twofish-avx512.cpp through twofish-simd.h).
 *
 * The SIMD kernels evaluate q0/q1 (4.3.5) nibble by nibble with byte
 * shuffles (a 16-entry table per shuffle).  Writing one q as the paper
 * does, on a byte x = 16 a0 + b0:
 *
 *   a1 = a0 ^ b0               b1 = Fa (a0) ^ ror4 (b0)
 *   a2 = t0[a1], b2 = t1[b1]
 *   a3 = a2 ^ b2               b3 = Fa (a2) ^ ror4 (b2)
 *   a4 = t2[a3], b4 = t3[b3],  y = 16 b4 + a4
 *
 * with Fa (a) = a ^ (8 a mod 16) and ror4 both GF(2)-linear, so
 *
 *   a3 = t0[a1] ^ t1[b1]       b3 = (Fa t0)[a1] ^ (ror4 t1)[b1]
 *
 * (four lookups, no arithmetic on nibbles in between), and the next q
 * layer of h (4.3.2) after the XOR with a key byte L = 16 Lh + Ll starts
 * from
 *
 *   a1' = t3[b3] ^ (t2[a3] ^ Lh ^ Ll)
 *   b1' = (Fa t3)[b3] ^ ((ror4 t2)[a3] ^ Fa (Lh) ^ ror4 (Ll))
 *
 * where the two parenthesised tables are key dependent: setkey computes
 * them (tf_simd_key_tables: table entries XORed with a key-derived
 * nibble, public indices) and the kernels only ever load them whole into
 * registers.  The last q layer feeds the MDS matrix (4.3.2); multiplying
 * by a constant c of GF(2^8) is GF(2)-linear, so c y = (c t2)[a3] ^
 * (c (16 t3))[b3], two more lookups per product.  tf_simd_tab holds the
 * public tables; static_asserts check the nibble chain against the
 * reference q0/q1 on all 256 inputs.
 */
#ifndef GCIPHER_TWOFISH_INTERNAL_H
#define GCIPHER_TWOFISH_INTERNAL_H

#include <config.h>
#include <stddef.h>
#include <stdint.h>
#include "cipher-internal.h"
#include "gf256-ct.h"

namespace twofish_detail {

struct TWOFISH_context
{
  uint32_t K[40];       /* Expanded key words K_0..K_39 (4.3.6).  */
  uint64_t sbox_key[4]; /* S-box key words, the list L of g (4.3.2):
                           L_l in both halves (the two g inputs).  */
  unsigned int k;       /* Key length in 64-bit words: 2 or 4; 0 unkeyed. */
  /* The chosen SIMD path's single-block functions, NULL for
   * "generic".  */
  unsigned int (*encrypt1) (void *ctx, unsigned char *out,
                            const unsigned char *in);
  unsigned int (*decrypt1) (void *ctx, unsigned char *out,
                            const unsigned char *in);
  /* Key-dependent nibble tables of the SIMD paths (see the file
   * comment): ktab[l][i][0] = t2 ^ (Lh ^ Ll), ktab[l][i][1] = ror4 t2 ^
   * (Fa (Lh) ^ ror4 (Ll)) for the q of layer L of h at byte I, L the key
   * byte XORed after that layer.  Layers 0..3 (0, 1 only with k = 4). */
  alignas (16) uint8_t ktab[4][4][2][16];
  /* The key-dependent S-boxes s_0..s_3 (h of 4.3.2 without the MDS
   * product: byte I of h's input to byte I of the result) as whole
   * tables, for the "gfni-avx512" path (loaded whole into registers,
   * looked up by VPERMI2B) and the "avx2" and "avx512" paths (16 rows of 16 bytes,
   * each looked up by PSHUFB and kept where the high nibble matches);
   * computed at setkey by the nibble kernel, without a secret index.  */
  alignas (64) uint8_t sbox[4][256];
};

/* t0..t3 of q0 and of q1, as printed in 4.3.5.  */
constexpr uint8_t tf_t[2][4][16] = {
  { { 0x8, 0x1, 0x7, 0xD, 0x6, 0xF, 0x3, 0x2,
      0x0, 0xB, 0x5, 0x9, 0xE, 0xC, 0xA, 0x4 },
    { 0xE, 0xC, 0xB, 0x8, 0x1, 0x2, 0x3, 0x5,
      0xF, 0x4, 0xA, 0x6, 0x7, 0x0, 0x9, 0xD },
    { 0xB, 0xA, 0x5, 0xE, 0x6, 0xD, 0x9, 0x0,
      0xC, 0x8, 0xF, 0x3, 0x2, 0x4, 0x7, 0x1 },
    { 0xD, 0x7, 0xF, 0x4, 0x1, 0x2, 0x6, 0xE,
      0x9, 0xB, 0x3, 0x0, 0x8, 0x5, 0xC, 0xA } },
  { { 0x2, 0x8, 0xB, 0xD, 0xF, 0x7, 0x6, 0xE,
      0x3, 0x1, 0x9, 0x4, 0x0, 0xA, 0xC, 0x5 },
    { 0x1, 0xE, 0x2, 0xB, 0x4, 0xC, 0x3, 0x7,
      0x6, 0xD, 0xA, 0x5, 0xF, 0x9, 0x0, 0x8 },
    { 0x4, 0xC, 0x7, 0x5, 0x1, 0x6, 0x9, 0xA,
      0x0, 0xE, 0xD, 0x8, 0x2, 0xB, 0x3, 0xF },
    { 0xB, 0x9, 0x5, 0x1, 0xC, 0x3, 0xD, 0xE,
      0x6, 0x4, 0x7, 0xF, 0x2, 0x0, 0x8, 0xA } },
};

constexpr uint8_t
ror4 (uint8_t x)
{
  return (uint8_t) (((x >> 1) | (x << 3)) & 15);
}

/* a ^ (8 a mod 16) (4.3.5).  */
constexpr uint8_t
fa4 (uint8_t a)
{
  return (uint8_t) ((a ^ (a << 3)) & 15);
}

/* Compile-time reference of q0 (Q = 0) and q1 (Q = 1), 4.3.5.  */
constexpr uint8_t
tf_q_ref (int q, uint8_t x)
{
  uint8_t a0 = x >> 4, b0 = x & 15;
  uint8_t a1 = a0 ^ b0, b1 = (uint8_t) (fa4 (a0) ^ ror4 (b0));
  uint8_t a2 = tf_t[q][0][a1], b2 = tf_t[q][1][b1];
  uint8_t a3 = a2 ^ b2, b3 = (uint8_t) (fa4 (a2) ^ ror4 (b2));
  uint8_t a4 = tf_t[q][2][a3], b4 = tf_t[q][3][b3];
  return (uint8_t) (16 * b4 + a4);
}

/* The first entries of q0 and q1 as the paper's reference code lists
 * them.  */
static_assert (tf_q_ref (0, 0) == 0xa9 && tf_q_ref (0, 1) == 0x67
               && tf_q_ref (0, 2) == 0xb3 && tf_q_ref (0, 3) == 0xe8
               && tf_q_ref (1, 0) == 0x75 && tf_q_ref (1, 1) == 0xf3
               && tf_q_ref (1, 2) == 0xc6 && tf_q_ref (1, 3) == 0xf4,
               "Twofish q0/q1 construction");

/* Which q each byte position of h uses, layer by layer (4.3.2, the
 * h function): bit i = 1 means q1 for byte i.  Layer 0 only with k = 4,
 * layer 1 with k >= 3; layers 2..4 always (innermost first).  */
constexpr unsigned tf_layer_q1[5] = {
  0x9,   /* q1 q0 q0 q1 */
  0x3,   /* q1 q1 q0 q0 */
  0xa,   /* q0 q1 q0 q1 */
  0xc,   /* q0 q0 q1 q1 */
  0x5,   /* q1 q0 q1 q0 */
};

constexpr int
tf_layer_q (int l, int i)
{
  return (int) ((tf_layer_q1[l] >> i) & 1);
}

constexpr unsigned TF_MDS_POLY = 0x169;   /* x^8 + x^6 + x^5 + x^3 + 1 */

/* The MDS matrix (4.3.2), rows.  */
constexpr uint8_t tf_mds[4][4] = {
  { 0x01, 0xef, 0x5b, 0x5b },
  { 0x5b, 0xef, 0xef, 0x01 },
  { 0xef, 0x5b, 0x01, 0xef },
  { 0xef, 0x01, 0xef, 0x5b },
};

/* The MDS constants as indices into tf_simd_tables::mlo / mhi.  */
constexpr uint8_t tf_mds_const[3] = { 0x01, 0x5b, 0xef };

constexpr int
tf_mds_idx (int j, int i)
{
  return tf_mds[j][i] == 0x01 ? 0 : tf_mds[j][i] == 0x5b ? 1 : 2;
}

/* A * B in the MDS field (compile time only).  */
constexpr uint8_t
tf_gf_mul (uint8_t a, uint8_t b)
{
  return gf256ct::mul (a, b, TF_MDS_POLY);
}

/* The public nibble tables of the SIMD kernels (file comment), 16
 * bytes each, aligned for whole-vector loads.  */
struct tf_simd_tables
{
  alignas (16) uint8_t gather_a[16];  /* Bytes by position: in-lane 4x4. */
  alignas (16) uint8_t gather_b[16];  /* The same after a rotation <<< 8. */
  alignas (16) uint8_t in_fa[16];     /* Fa, on a0 of h's input byte.  */
  alignas (16) uint8_t in_ror[16];    /* ror4, on b0.  */
  alignas (16) uint8_t t0[2][16], fat0[2][16];   /* On a1, per q.  */
  alignas (16) uint8_t t1[2][16], rort1[2][16];  /* On b1.  */
  alignas (16) uint8_t t3[2][16], fat3[2][16];   /* On b3 (not last). */
  alignas (16) uint8_t mlo[2][3][16];  /* c t2, c in tf_mds_const.  */
  alignas (16) uint8_t mhi[2][3][16];  /* c (16 t3).  */
  alignas (16) uint8_t mul_lo[3][16];  /* c v (c in tf_mds_const).  */
  alignas (16) uint8_t mul_hi[3][16];  /* c (16 v).  */
  alignas (64) uint8_t iota[256];      /* 0, 1, ..., 255.  */
};

constexpr tf_simd_tables
make_tf_simd_tables ()
{
  tf_simd_tables t {};
  for (int j = 0; j < 256; j++)
    t.iota[j] = (uint8_t) j;
  for (int j = 0; j < 16; j++)
    {
      const int w = j & 3, p = j >> 2;   /* Output dword P, byte W.  */
      t.gather_a[j] = (uint8_t) (4 * w + p);
      t.gather_b[j] = (uint8_t) (4 * w + ((p + 3) & 3));
      t.in_fa[j] = fa4 ((uint8_t) j);
      t.in_ror[j] = ror4 ((uint8_t) j);
      for (int c = 0; c < 3; c++)
        {
          t.mul_lo[c][j] = tf_gf_mul (tf_mds_const[c], (uint8_t) j);
          t.mul_hi[c][j] = tf_gf_mul (tf_mds_const[c], (uint8_t) (16 * j));
        }
      for (int q = 0; q < 2; q++)
        {
          t.t0[q][j] = tf_t[q][0][j];
          t.fat0[q][j] = fa4 (tf_t[q][0][j]);
          t.t1[q][j] = tf_t[q][1][j];
          t.rort1[q][j] = ror4 (tf_t[q][1][j]);
          t.t3[q][j] = tf_t[q][3][j];
          t.fat3[q][j] = fa4 (tf_t[q][3][j]);
          for (int c = 0; c < 3; c++)
            {
              t.mlo[q][c][j] = tf_gf_mul (tf_mds_const[c], tf_t[q][2][j]);
              t.mhi[q][c][j] = tf_gf_mul (tf_mds_const[c],
                                          (uint8_t) (16 * tf_t[q][3][j]));
            }
        }
    }
  return t;
}

/* The nibble chain of the file comment for one q layer of h followed by
 * the key byte KEY and the next layer's input split, on all 256 inputs,
 * against tf_q_ref; and the first layer's split, and the MDS product
 * tables.  Compile time only.  */
constexpr bool
tf_simd_check ()
{
  constexpr tf_simd_tables t = make_tf_simd_tables ();
  for (int q = 0; q < 2; q++)
    for (unsigned x = 0; x < 256; x++)
      {
        const uint8_t a0 = (uint8_t) (x >> 4), b0 = (uint8_t) (x & 15);
        const uint8_t a1 = a0 ^ b0, b1 = t.in_fa[a0] ^ t.in_ror[b0];
        const uint8_t a3 = t.t0[q][a1] ^ t.t1[q][b1];
        const uint8_t b3 = t.fat0[q][a1] ^ t.rort1[q][b1];
        const uint8_t y = tf_q_ref (q, (uint8_t) x);
        for (int c = 0; c < 3; c++)
          if ((t.mlo[q][c][a3] ^ t.mhi[q][c][b3])
                != tf_gf_mul (tf_mds_const[c], y)
              || (t.mul_lo[c][y & 15] ^ t.mul_hi[c][y >> 4])
                   != tf_gf_mul (tf_mds_const[c], y))
            return false;
        const uint8_t key = (uint8_t) (x * 37 + 11);
        const uint8_t kh = key >> 4, kl = key & 15;
        const uint8_t na1 = t.t3[q][b3] ^ (tf_t[q][2][a3] ^ kh ^ kl);
        const uint8_t nb1 = t.fat3[q][b3]
                            ^ (ror4 (tf_t[q][2][a3]) ^ fa4 (kh) ^ ror4 (kl));
        const uint8_t y2 = y ^ key;
        if (na1 != ((y2 >> 4) ^ (y2 & 15))
            || nb1 != (fa4 ((uint8_t) (y2 >> 4)) ^ ror4 (y2 & 15)))
          return false;
      }
  return true;
}

static_assert (tf_simd_check (), "Twofish SIMD nibble tables");

/* Fill CTX->ktab from CTX->sbox_key and CTX->k (twofish.cpp).  */
void tf_simd_key_tables (TWOFISH_context *ctx);

} // namespace twofish_detail

using twofish_detail::TWOFISH_context;

/* Blocks per call of the widest kernel of each path.  */
constexpr unsigned int TWOFISH_AVX2_LANES = 16;
constexpr unsigned int TWOFISH_AVX512_LANES = 32;

/* Fill BULK and CTX's encrypt1 / decrypt1 for the path (after
 * tf_simd_key_tables).  The gfni-avx512 fill computes CTX->sbox
 * first.  */
void _gcry_twofish_avx2_fill (cipher_bulk_ops *bulk, TWOFISH_context *ctx);
void _gcry_twofish_avx512_fill (cipher_bulk_ops *bulk,
                                TWOFISH_context *ctx);
void _gcry_twofish_gfni_avx512_fill (cipher_bulk_ops *bulk,
                                     TWOFISH_context *ctx);
/* Nonzero if the CPU has AVX512-VBMI (CPUID.7.0:ECX bit 1), which the
 * gfni-avx512 path needs beyond its hwf bits (every CPU with GFNI and
 * AVX-512 so far has it).  In twofish-avx2.cpp.  */
int _gcry_twofish_have_vbmi (void);

/* twofish-avx2.cpp's kernels, which the AVX-512 paths call as well
 * (twofish-simd.h's tf_avx2_ymm, tf_avx2_xmm and tf_avx2_one,
 * cipher-batch-modes.h's batch_called): 16 blocks (ymm), 8 (xmm) or one
 * block in registers, from IN to OUT (may be equal).  */
#define TWOFISH_AVX2_KERNEL(NAME)                                       \
  void NAME##_enc (const void *ctx, unsigned char *out,                 \
                   const unsigned char *in);                            \
  void NAME##_dec (const void *ctx, unsigned char *out,                 \
                   const unsigned char *in);
TWOFISH_AVX2_KERNEL (_gcry_twofish_avx2_blk16)
TWOFISH_AVX2_KERNEL (_gcry_twofish_avx2_blk8)
TWOFISH_AVX2_KERNEL (_gcry_twofish_avx2_blk1)
#undef TWOFISH_AVX2_KERNEL

#endif /* GCIPHER_TWOFISH_INTERNAL_H */
