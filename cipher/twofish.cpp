/* twofish.cpp - Twofish (Schneier et al., "Twofish: A 128-Bit Block
 * Cipher", 1998): the two specs, key schedule, constant-time generic
 * block functions and self-test.
 *
 * Paths (the first whose hwf bits are all present and not disabled wins
 * at setkey; all share the key schedule below):
 *   "gfni-avx512"  zmm, whole key-dependent S-box tables in registers
 *                  (VPERMI2B; needs AVX512-VBMI too), MDS by GFNI
 *                  (twofish-gfni-avx512.cpp)
 *   "avx512"       zmm, the S-boxes as 16-byte rows looked up by PSHUFB
 *                  (twofish-avx512.cpp)
 *   "avx2"         ymm, the same (twofish-avx2.cpp)
 *   "generic"      the code below, no bulk slots: 11 MB/s (128-bit key)
 *                  and 8 MB/s (256) in CTR on one Zen 4 core.
 * A SIMD path fills the bulk slots (cipher-batch-modes.h) and the
 * context's encrypt1 / decrypt1, which the spec's single-block functions
 * call (one block in registers: twofish-simd.h's tf_crypt_one); twofish-simd.h has the kernels, twofish-internal.h the nibble
 * tables (and how the key-dependent ones are derived at setkey, in
 * tf_simd_key_tables below, without a secret index), from which the
 * path's fill computes the whole S-box tables it looks up.
 *
 * Constant time (generic).  Twofish's S-boxes are key dependent: each byte goes
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
#include "cipher-batch-modes.h"
#include "twofish-internal.h"
#include "cipher-impl.h"

namespace {

using namespace gf256ct;
using namespace twofish_detail;

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
  /* tf_h2's frame (~700 bytes on i686) below this one.  */
  return sizeof m + sizeof keys_me_mo + 1024;
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
tf_encrypt_generic (void *c, unsigned char *out, const unsigned char *in)
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
  /* tf_h2 (out of line) holds S-box intermediates in a frame of up to
   * ~700 bytes (i686).  */
  return 1024;
}

unsigned int
tf_decrypt_generic (void *c, unsigned char *out, const unsigned char *in)
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
  return 1024;  /* As tf_encrypt_generic.  */
}

/* The spec's single-block functions: the chosen path's (a SIMD kernel
 * on one batch) or the generic code.  The test is on the path, public. */
unsigned int
tf_encrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const TWOFISH_context *ctx = (const TWOFISH_context *) c;
  if (ctx->encrypt1)
    return ctx->encrypt1 (c, out, in);
  return tf_encrypt_generic (c, out, in);
}

unsigned int
tf_decrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const TWOFISH_context *ctx = (const TWOFISH_context *) c;
  if (ctx->decrypt1)
    return ctx->decrypt1 (c, out, in);
  return tf_decrypt_generic (c, out, in);
}

/* What a path brings beside its name and hwf bits.  */
struct tf_impl_ops
{
  unsigned int lanes;                      /* Blocks per widest batch.  */
  /* Bulk slots and single-block functions; NULL: none.  */
  void (*fill) (cipher_bulk_ops *, TWOFISH_context *);
  /* A CPU check beyond the hwf bits (AVX512-VBMI has none); NULL:
   * none.  */
  int (*cpu_has) (void);
};

/* Paths, fastest first (the first whose hwf bits are all present and
 * not disabled wins at setkey); all share the key schedule, a SIMD path
 * adds the nibble tables (twofish-internal.h) and the bulk slots.  */
constexpr cipher_impl<tf_impl_ops> tf_impls[] = {
#if defined (GCIPHER_ARCH_X86) && defined (__x86_64__)
  { { "gfni-avx512", HWF_INTEL_GFNI | HWF_INTEL_AVX512 },
    { TWOFISH_AVX512_LANES, _gcry_twofish_gfni_avx512_fill,
      _gcry_twofish_have_vbmi } },
  { { "avx512", HWF_INTEL_AVX512 },
    { TWOFISH_AVX512_LANES, _gcry_twofish_avx512_fill, nullptr } },
#endif
#ifdef GCIPHER_ARCH_X86
  { { "avx2", HWF_INTEL_AVX2 },
    { TWOFISH_AVX2_LANES, _gcry_twofish_avx2_fill, nullptr } },
#endif
  { { "generic", 0 }, { 1, nullptr, nullptr } },
};

constexpr auto tf_impl_list = cipher_impl_info_list (tf_impls);

/* The CPU check of an entry beyond its hwf bits.  */
bool
tf_cpu_has (const cipher_impl<tf_impl_ops> &impl)
{
  return !impl.ops.cpu_has || impl.ops.cpu_has ();
}

/* Key CTX for path IDX and fill BULK; returns the burn depth.  */
unsigned int
tf_setkey_path (TWOFISH_context *ctx, const unsigned char *key,
                size_t keylen, cipher_bulk_ops *bulk, size_t idx)
{
  wipememory (ctx, sizeof *ctx);
  memset (bulk, 0, sizeof *bulk);
  unsigned int burn = tf_key_schedule (ctx, key, keylen);
  if (tf_impls[idx].ops.fill)
    {
      tf_simd_key_tables (ctx);
      tf_impls[idx].ops.fill (bulk, ctx);
      /* The fills derive key tables in vector registers, which the
       * compiler may spill (i686: up to ~1.2 KiB below the caller).  */
      constexpr unsigned int FILL_BURN = 2048;
      burn = burn > FILL_BURN ? burn : FILL_BURN;
    }
  return burn;
}

gcry_err_code_t
tf_setkey (void *c, const unsigned char *key, size_t keylen,
           cipher_bulk_ops *bulk, const char **impl_name)
{
  TWOFISH_context *ctx = (TWOFISH_context *) c;
  if (keylen != 16 && keylen != 32)
    return GPG_ERR_INV_KEYLEN;
  size_t idx
    = cipher_impl_choose (tf_impls, _gcry_get_hw_features (), tf_cpu_has);
  _gcry_burn_stack (tf_setkey_path (ctx, key, keylen, bulk, idx));
  if (impl_name)
    *impl_name = tf_impls[idx].name;
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
  const unsigned int hwf = _gcry_get_hw_features ();
  alignas (CONTEXT_ALIGN) TWOFISH_context ctx;
  cipher_bulk_ops bulk;
  unsigned char buf[16];
  const char *err = NULL;
  /* Every path this CPU has, by index (not through the disable list). */
  for (size_t p = 0; p < tf_impl_list.n && !err; p++)
    {
      if (!cipher_impl_usable (tf_impls[p], hwf)
          || !tf_cpu_has (tf_impls[p]))
        continue;
      const unsigned int lanes = tf_impls[p].ops.lanes;
      for (int i = 0; i < 2 && !err; i++)
        {
          const unsigned char *want = i ? ct256 : ct128;
          tf_setkey_path (&ctx, zero, i ? 32 : 16, &bulk, p);
          tf_encrypt (&ctx, buf, zero);
          if (memcmp (buf, want, 16))
            err = "Twofish: encryption known answer failed";
          else
            {
              tf_decrypt (&ctx, buf, buf);
              if (memcmp (buf, zero, 16))
                err = "Twofish: decryption known answer failed";
            }
          if (!err && bulk.ecb_crypt)
            {
              bulk.ecb_crypt (&ctx, buf, zero, 1, 1);
              if (memcmp (buf, want, 16))
                err = "Twofish: bulk ECB known answer failed";
              else
                {
                  bulk.ecb_crypt (&ctx, buf, buf, 1, 0);
                  if (memcmp (buf, zero, 16))
                    err = "Twofish: bulk ECB decryption known answer failed";
                }
            }
          /* The bulk slots against the single-block functions (the
           * generic code checked above through the same known answers,
           * the path's own crypt1 here), across every batch width.  */
          if (!err && bulk.ctr16be_enc)
            err = _gcry_selftest_helper_ctr ("TWOFISH",
                                             &_gcry_cipher_spec_twofish,
                                             &ctx, &bulk, lanes + 9);
          if (!err && bulk.cbc_dec)
            err = _gcry_selftest_helper_cbc ("TWOFISH",
                                             &_gcry_cipher_spec_twofish,
                                             &ctx, &bulk, lanes + 10);
          if (!err && bulk.cfb_dec)
            err = _gcry_selftest_helper_cfb ("TWOFISH",
                                             &_gcry_cipher_spec_twofish,
                                             &ctx, &bulk, lanes + 2);
          if (!err && bulk.ecb_crypt)
            err = _gcry_selftest_helper_ecb ("TWOFISH",
                                             &_gcry_cipher_spec_twofish,
                                             &ctx, &bulk, 2 * lanes + 3);
          if (!err && bulk.xts_crypt)
            err = _gcry_selftest_helper_xts ("TWOFISH",
                                             &_gcry_cipher_spec_twofish,
                                             &ctx, &bulk, lanes + 3);
          if (!err && bulk.cbc_enc && bulk.cfb_enc && bulk.ofb_enc)
            err = batch_selftest_chained (&_gcry_cipher_spec_twofish,
                                          &ctx, &bulk);
        }
    }
  wipememory (&ctx, sizeof ctx);
  _gcry_burn_stack (1024);
  return err;
}

} // namespace

/* The key-dependent nibble tables of the SIMD paths (twofish-internal.h):
 * for each key layer L of h and byte I, t2 of that layer's q with every
 * entry XORed with a nibble derived from the key byte.  Public indices,
 * secret values only: constant time.  */
void
twofish_detail::tf_simd_key_tables (TWOFISH_context *ctx)
{
  const int first = ctx->k == 4 ? 0 : 2;
  for (int l = first; l < 4; l++)
    for (int i = 0; i < 4; i++)
      {
        const int q = tf_layer_q (l, i);
        const uint8_t key = (uint8_t) (ctx->sbox_key[3 - l] >> (8 * i));
        const uint8_t kh = key >> 4, kl = key & 15;
        const uint8_t ka = kh ^ kl;
        const uint8_t kb = fa4 (kh) ^ ror4 (kl);
        for (int v = 0; v < 16; v++)
          {
            ctx->ktab[l][i][0][v] = tf_t[q][2][v] ^ ka;
            ctx->ktab[l][i][1][v] = ror4 (tf_t[q][2][v]) ^ kb;
          }
      }
}

const cipher_spec _gcry_cipher_spec_twofish = {
  GCRY_CIPHER_TWOFISH, "TWOFISH", NULL, NULL,
  16, 256, sizeof (TWOFISH_context),
  tf_setkey, tf_encrypt, tf_decrypt, tf_selftest,
  tf_impl_list.v, tf_impl_list.n
};

const cipher_spec _gcry_cipher_spec_twofish128 = {
  GCRY_CIPHER_TWOFISH128, "TWOFISH128", NULL, NULL,
  16, 128, sizeof (TWOFISH_context),
  tf_setkey, tf_encrypt, tf_decrypt, tf_selftest,
  tf_impl_list.v, tf_impl_list.n
};
