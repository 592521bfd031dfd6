/* twofish.cpp - Twofish (Schneier et al., "Twofish: A 128-Bit Block
 * Cipher", 1998): the two specs, key schedule, constant-time generic
 * block functions and self-test.
 *
 * One path, "generic": no bulk slots; every mode runs through the
 * single-block functions.  Speed was not the goal of this first landing,
 * constant time was: 11 MB/s (128-bit key) and 8 MB/s (256) in CTR on one Zen 4 core, against
 * hundreds of MB/s for libgcrypt's table and SIMD code.
 *
 * Constant time.  Twofish's S-boxes are key dependent: each byte goes
 * through two or four layers of the fixed permutations q0/q1 (4.3.5),
 * XORed with key bytes, then through the MDS matrix (4.3.2).  Table
 * implementations precompute key-dependent 8x32-bit tables at setkey and
 * index them with secret bytes; gcipher does not.  It computes q0/q1 as
 * the paper defines them, from four 4-bit permutations t0..t3 each, and
 * looks those up with a constant-time multiplexer: the eight bytes of
 * both g() calls of a round sit in one 64-bit word (16 nibbles), each
 * nibble position with its own 16-entry table (q0's or q1's t_i, per the
 * byte's position in h, 4.3.2), and a nibble's value selects its entry
 * through a 4-level tree of masked selects (15 word-wide selects per
 * lookup of all 16 nibbles).  The MDS product multiplies by the
 * constants 0x5b and 0xef with lane-wise xtime (gf256-ct.h); the
 * Reed-Solomon key step (4.3.1) likewise.  No branch and no memory index
 * depends on the key or the data; rotations are by constants, additions
 * are mod 2^32.  The key length (public) selects 2 or 4 q-layers.
 *
 * Names as libgcrypt 1.10 answers: "TWOFISH" (id 10, default 256-bit
 * key) and "TWOFISH128" (id 303, default 128-bit key), no aliases, no
 * OIDs; both ids take a 16- or a 32-byte key (libgcrypt 1.10 refuses
 * 24 bytes, and so does gcipher: GPG_ERR_INV_KEYLEN).
 */
#include <config.h>
#include <string.h>
#include "cipher-internal.h"
#include "bufhelp.h"
#include "gf256-ct.h"

namespace {

using namespace gf256ct;

struct TWOFISH_context
{
  uint32_t K[40];       /* Expanded key words K_0..K_39 (4.3.6).  */
  uint64_t sbox_key[4]; /* S-box key words, the list L of g (4.3.2):
                           L_l in both halves (the two g inputs).  */
  unsigned int k;       /* Key length in 64-bit words: 2 or 4.  */
};

/* ---- q0, q1 (4.3.5) ------------------------------------------------- */

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

/* Compile-time reference of q0 (Q = 0) and q1 (Q = 1), 4.3.5.  */
constexpr uint8_t
tf_q_ref (int q, uint8_t x)
{
  uint8_t a0 = x >> 4, b0 = x & 15;
  uint8_t a1 = a0 ^ b0, b1 = (uint8_t) (a0 ^ ror4 (b0) ^ ((8 * a0) & 15));
  uint8_t a2 = tf_t[q][0][a1], b2 = tf_t[q][1][b1];
  uint8_t a3 = a2 ^ b2, b3 = (uint8_t) (a2 ^ ror4 (b2) ^ ((8 * a2) & 15));
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

/* Per-nibble tables of one lookup step: entry J of nibble position P
 * (position 2i = low nibble of byte lane i, 2i+1 = its high nibble).
 * STEP 0: t0 (high) / t1 (low); STEP 1: t2 (high) / t3 (low).  Stored
 * as the select tree wants: leaf[j] and the XOR of sibling leaves.  */
struct nib_table
{
  uint64_t leaf[16];
};

constexpr nib_table
make_nib_table (unsigned q1_bytes, int step)
{
  nib_table t {};
  for (int j = 0; j < 16; j++)
    for (int lane = 0; lane < 8; lane++)
      {
        int q = (q1_bytes >> (lane % 4)) & 1;
        uint64_t hi = tf_t[q][2 * step][j], lo = tf_t[q][2 * step + 1][j];
        t.leaf[j] |= ((hi << 4) | lo) << (8 * lane);
      }
  return t;
}

struct tf_layer_tables
{
  nib_table step[5][2];
};

constexpr tf_layer_tables
make_layer_tables ()
{
  tf_layer_tables t {};
  for (int l = 0; l < 5; l++)
    for (int s = 0; s < 2; s++)
      t.step[l][s] = make_nib_table (tf_layer_q1[l], s);
  return t;
}

constexpr tf_layer_tables tf_tables = make_layer_tables ();

constexpr uint64_t NIB1 = 0x1111111111111111ull;
constexpr uint64_t BYTE_LO = 0x0f0f0f0f0f0f0f0full;
constexpr uint64_t BYTE_1 = 0x0101010101010101ull;

/* All-ones in each nibble of V whose bit B is set.  */
inline uint64_t
nib_mask (uint64_t v, int b)
{
  uint64_t m = (v >> b) & NIB1;
  return (m << 4) - m;
}

/* Every nibble of V replaced by entry V's-nibble of its position's
 * table: a select tree on the nibble's bits, least significant first. */
inline uint64_t
nib_lookup (const nib_table &t, uint64_t v)
{
  const uint64_t m0 = nib_mask (v, 0), m1 = nib_mask (v, 1);
  const uint64_t m2 = nib_mask (v, 2), m3 = nib_mask (v, 3);
  uint64_t r[8];
  for (int i = 0; i < 8; i++)
    r[i] = t.leaf[2 * i] ^ (m0 & (t.leaf[2 * i] ^ t.leaf[2 * i + 1]));
  for (int i = 0; i < 4; i++)
    r[i] = r[2 * i] ^ (m1 & (r[2 * i] ^ r[2 * i + 1]));
  for (int i = 0; i < 2; i++)
    r[i] = r[2 * i] ^ (m2 & (r[2 * i] ^ r[2 * i + 1]));
  return r[0] ^ (m3 & (r[0] ^ r[1]));
}

/* Nibble-wise (a ^ ror4 (b) ^ 8a mod 16) for A, B in the low nibbles. */
inline uint64_t
mix_b (uint64_t a, uint64_t b)
{
  uint64_t rb = ((b >> 1) & 0x0707070707070707ull) | ((b & BYTE_1) << 3);
  return a ^ rb ^ ((a & BYTE_1) << 3);
}

/* Layer L's q on each byte of X (4.3.5).  */
inline uint64_t
tf_q_layer (int l, uint64_t x)
{
  uint64_t a = (x >> 4) & BYTE_LO, b = x & BYTE_LO;
  uint64_t c = nib_lookup (tf_tables.step[l][0], ((a ^ b) << 4) | mix_b (a, b));
  a = (c >> 4) & BYTE_LO;
  b = c & BYTE_LO;
  uint64_t d = nib_lookup (tf_tables.step[l][1], ((a ^ b) << 4) | mix_b (a, b));
  /* y = 16 b4 + a4: t3's result (low nibble) becomes the high one.  */
  return ((d & BYTE_LO) << 4) | ((d >> 4) & BYTE_LO);
}

constexpr unsigned TF_MDS_POLY = 0x169;   /* x^8 + x^6 + x^5 + x^3 + 1 */

/* The MDS matrix (4.3.2), rows.  */
constexpr uint8_t tf_mds[4][4] = {
  { 0x01, 0xef, 0x5b, 0x5b },
  { 0x5b, 0xef, 0xef, 0x01 },
  { 0xef, 0x5b, 0x01, 0xef },
  { 0xef, 0x01, 0xef, 0x5b },
};

/* Byte I of the product of each lane of Y by C in {0x01, 0x5b, 0xef}. */
inline uint64_t
pick (uint8_t c, uint64_t y1, uint64_t y5b, uint64_t yef)
{
  return c == 0x01 ? y1 : c == 0x5b ? y5b : yef;
}

/* h (4.3.2) of the two words in X (low half and high half) with the
 * key list KEYS (one word of each half per layer, L_0 first), then the
 * MDS product of each half.  K = 2 or 4 (public).  */
inline uint64_t
tf_h2 (uint64_t x, const uint64_t *keys, unsigned int k)
{
  int first = k == 4 ? 0 : 2;
  for (int l = first; l < 4; l++)
    x = tf_q_layer (l, x) ^ keys[3 - l];   /* L_3 (k = 4) ... L_0 */
  x = tf_q_layer (4, x);

  /* MDS: lane-wise multiples by 0x5b and 0xef.  */
  uint64_t p[8];
  p[0] = x;
  for (int i = 1; i < 8; i++)
    p[i] = xtime<TF_MDS_POLY> (p[i - 1]);
  const uint64_t y5b = p[0] ^ p[1] ^ p[3] ^ p[4] ^ p[6];
  const uint64_t yef = p[0] ^ p[1] ^ p[2] ^ p[3] ^ p[5] ^ p[6] ^ p[7];
  uint64_t z = 0;
  for (int half = 0; half < 2; half++)
    for (int i = 0; i < 4; i++)
      {
        uint64_t zi = 0;
        for (int j = 0; j < 4; j++)
          zi ^= pick (tf_mds[i][j], x, y5b, yef) >> (8 * (4 * half + j));
        z |= (zi & 0xff) << (8 * (4 * half + i));
      }
  return z;
}

inline uint32_t
rol32 (uint32_t x, int n)
{
  return (x << n) | (x >> (32 - n));
}

inline uint32_t
ror32 (uint32_t x, int n)
{
  return (x >> n) | (x << (32 - n));
}

/* RS * (8 key bytes) over GF(2)[x] / (x^8 + x^6 + x^3 + x^2 + 1)
 * (4.3.1, 4.3.6), as a little-endian word.  Constant time: lane-wise
 * xtime, the branches test bits of the public matrix only.  */
uint32_t
tf_rs (const unsigned char *m)
{
  static constexpr uint8_t rs[4][8] = {
    { 0x01, 0xa4, 0x55, 0x87, 0x5a, 0x58, 0xdb, 0x9e },
    { 0xa4, 0x56, 0x82, 0xf3, 0x1e, 0xc6, 0x68, 0xe5 },
    { 0x02, 0xa1, 0xfc, 0xc1, 0x47, 0xae, 0x3d, 0x19 },
    { 0xa4, 0x55, 0x87, 0x5a, 0x58, 0xdb, 0x9e, 0x03 },
  };
  uint32_t s = 0;
  for (int j = 0; j < 8; j++)
    {
      /* Column j times m_j: m_j in all four lanes, times 2^b lane-wise. */
      uint32_t mj = m[j], col = 0, acc = 0;
      mj |= mj << 8;
      mj |= mj << 16;
      for (int i = 0; i < 4; i++)
        col |= (uint32_t) rs[i][j] << (8 * i);
      for (int b = 0; b < 8; b++)
        {
          acc ^= mj & lane_mask (col, b);
          mj = xtime<0x14d> (mj);
        }
      s ^= acc;
    }
  return s;
}

/* Key schedule (4.3.6, 4.3.2); KEYLEN 16 or 32 (checked by the caller).
 * Returns the burn depth.  */
unsigned int
tf_key_schedule (TWOFISH_context *ctx, const unsigned char *key,
                 size_t keylen)
{
  const unsigned int k = (unsigned int) (keylen / 8);
  uint32_t m[8];
  for (unsigned int i = 0; i < 2 * k; i++)
    m[i] = buf_get_le32 (key + 4 * i);
  /* The g list L = (S_{k-1}, ..., S_0); the round-key h lists Me, Mo
   * (even and odd key words) in the low and high halves.  */
  uint64_t keys_me_mo[4];
  for (unsigned int l = 0; l < k; l++)
    {
      uint64_t s = tf_rs (key + 8 * l);
      ctx->sbox_key[k - 1 - l] = s | (s << 32);
      keys_me_mo[l] = m[2 * l] | ((uint64_t) m[2 * l + 1] << 32);
    }
  ctx->k = k;
  for (unsigned int i = 0; i < 20; i++)
    {
      uint64_t x = (uint64_t) (2 * i) * 0x01010101u
                   | ((uint64_t) ((2 * i + 1) * 0x01010101u) << 32);
      uint64_t ab = tf_h2 (x, keys_me_mo, k);
      uint32_t a = (uint32_t) ab, b = rol32 ((uint32_t) (ab >> 32), 8);
      ctx->K[2 * i] = a + b;
      ctx->K[2 * i + 1] = rol32 (a + 2 * b, 9);
    }
  wipememory (m, sizeof m);
  wipememory (keys_me_mo, sizeof keys_me_mo);
  return sizeof m + sizeof keys_me_mo + 512;
}

/* The two g values of round function F (4.3.1): g(R0) and g(R1 <<< 8). */
inline void
tf_g2 (const TWOFISH_context *ctx, uint32_t r0, uint32_t r1, uint32_t *t0,
       uint32_t *t1)
{
  if (!ctx->k)
    {
      /* An unkeyed (all-zero) context, reachable only through the modes
       * that run the cipher before a key is set (EAX, SIV): g is zero,
       * as with libgcrypt 1.10's all-zero key-dependent tables.  */
      *t0 = *t1 = 0;
      return;
    }
  uint64_t t = tf_h2 (r0 | ((uint64_t) rol32 (r1, 8) << 32), ctx->sbox_key,
                      ctx->k);
  *t0 = (uint32_t) t;
  *t1 = (uint32_t) (t >> 32);
}

unsigned int
tf_encrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const TWOFISH_context *ctx = (const TWOFISH_context *) c;
  uint32_t r[4];
  for (int i = 0; i < 4; i++)
    r[i] = buf_get_le32 (in + 4 * i) ^ ctx->K[i];
  for (int n = 0; n < 16; n++)
    {
      uint32_t t0, t1;
      tf_g2 (ctx, r[0], r[1], &t0, &t1);
      uint32_t f0 = t0 + t1 + ctx->K[2 * n + 8];
      uint32_t f1 = t0 + 2 * t1 + ctx->K[2 * n + 9];
      uint32_t n2 = ror32 (r[2] ^ f0, 1), n3 = rol32 (r[3], 1) ^ f1;
      r[2] = r[0];
      r[3] = r[1];
      r[0] = n2;
      r[1] = n3;
    }
  /* Undo the last swap, output whitening.  */
  for (int i = 0; i < 4; i++)
    buf_put_le32 (out + 4 * i, r[(i + 2) % 4] ^ ctx->K[i + 4]);
  return 128 + 8 * sizeof (void *);
}

unsigned int
tf_decrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const TWOFISH_context *ctx = (const TWOFISH_context *) c;
  uint32_t r[4];
  for (int i = 0; i < 4; i++)
    r[(i + 2) % 4] = buf_get_le32 (in + 4 * i) ^ ctx->K[i + 4];
  for (int n = 15; n >= 0; n--)
    {
      /* Undo the swap of round n, then its F.  */
      uint32_t r0 = r[2], r1 = r[3], a2 = r[0], a3 = r[1];
      uint32_t t0, t1;
      tf_g2 (ctx, r0, r1, &t0, &t1);
      uint32_t f0 = t0 + t1 + ctx->K[2 * n + 8];
      uint32_t f1 = t0 + 2 * t1 + ctx->K[2 * n + 9];
      r[0] = r0;
      r[1] = r1;
      r[2] = rol32 (a2, 1) ^ f0;
      r[3] = ror32 (a3 ^ f1, 1);
    }
  for (int i = 0; i < 4; i++)
    buf_put_le32 (out + 4 * i, r[i] ^ ctx->K[i]);
  return 128 + 8 * sizeof (void *);
}

const cipher_impl_info tf_impls[] = { { "generic", 0 } };

gcry_err_code_t
tf_setkey (void *c, const unsigned char *key, size_t keylen,
           cipher_bulk_ops *bulk, const char **impl_name)
{
  TWOFISH_context *ctx = (TWOFISH_context *) c;
  if (keylen != 16 && keylen != 32)
    return GPG_ERR_INV_KEYLEN;
  gcry_err_code_t ec
    = _gcry_cipher_selftest_once (&_gcry_cipher_spec_twofish);
  if (ec)
    return ec;
  wipememory (ctx, sizeof *ctx);
  memset (bulk, 0, sizeof *bulk);
  _gcry_burn_stack (tf_key_schedule (ctx, key, keylen));
  if (impl_name)
    *impl_name = tf_impls[0].name;
  return GPG_ERR_NO_ERROR;
}

/* ---- Self-test: the paper's known answers (appendix A.1, all-zero
 * key and plaintext, the first entries of ECB_TBL.TXT, I = 1) ----- */

const char *
tf_selftest (void)
{
  static const unsigned char zero[32] = { 0 };
  static const unsigned char ct128[16] = {
    0x9f, 0x58, 0x9f, 0x5c, 0xf6, 0x12, 0x2c, 0x32,
    0xb6, 0xbf, 0xec, 0x2f, 0x2a, 0xe8, 0xc3, 0x5a
  };
  static const unsigned char ct256[16] = {
    0x57, 0xff, 0x73, 0x9d, 0x4d, 0xc9, 0x2c, 0x1b,
    0xd7, 0xfc, 0x01, 0x70, 0x0c, 0xc8, 0x21, 0x6f
  };
  alignas (CONTEXT_ALIGN) TWOFISH_context ctx;
  unsigned char buf[16];
  const char *err = NULL;
  for (int i = 0; i < 2 && !err; i++)
    {
      tf_key_schedule (&ctx, zero, i ? 32 : 16);
      tf_encrypt (&ctx, buf, zero);
      if (memcmp (buf, i ? ct256 : ct128, 16))
        err = "Twofish: encryption known answer failed";
      else
        {
          tf_decrypt (&ctx, buf, buf);
          if (memcmp (buf, zero, 16))
            err = "Twofish: decryption known answer failed";
        }
    }
  wipememory (&ctx, sizeof ctx);
  _gcry_burn_stack (1024);
  return err;
}

} // namespace

const cipher_spec _gcry_cipher_spec_twofish = {
  GCRY_CIPHER_TWOFISH, "TWOFISH", NULL, NULL,
  16, 256, sizeof (TWOFISH_context),
  tf_setkey, tf_encrypt, tf_decrypt, tf_selftest, tf_impls, 1
};

const cipher_spec _gcry_cipher_spec_twofish128 = {
  GCRY_CIPHER_TWOFISH128, "TWOFISH128", NULL, NULL,
  16, 128, sizeof (TWOFISH_context),
  tf_setkey, tf_encrypt, tf_decrypt, tf_selftest, tf_impls, 1
};
