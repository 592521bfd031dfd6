/* camellia.cpp - Camellia (RFC 3713): the three specs, key schedule,
 * constant-time generic block functions and self-test.
 *
 * Paths (the first whose hwf bits are all present and not disabled wins
 * at setkey; all share the key layout):
 *   "gfni-avx512"  GFNI kernels on zmm/ymm/xmm (camellia-gfni-avx512.cpp)
 *   "gfni-avx2"    GFNI kernels on ymm/xmm     (camellia-gfni-avx2.cpp)
 *   "vaes-avx2"    AES-NI S-box layer, VAES on ymm, then xmm
 *                  (camellia-vaes-avx2.cpp)
 *   "aesni-avx2"   AES-NI S-box layer on ymm/xmm (camellia-aesni-avx2.cpp)
 *   "aesni-avx"    AES-NI S-box layer on xmm (camellia-aesni-avx.cpp)
 *   "generic"      the code below, no bulk slots: 12 MB/s (128-bit key)
 *                  and 9 MB/s (256) in CTR on one Zen 4 core.
 * A SIMD path fills the bulk slots (cipher-batch-modes.h) and the
 * context's encrypt1 / decrypt1, which the spec's single-block functions
 * call (camellia-gfni.h has the byte-sliced kernel).
 *
 * S-boxes without tables.  RFC 3713 2.4.4 prints SBOX1 as a table and
 * derives SBOX2(x) = SBOX1(x) <<< 1, SBOX3(x) = SBOX1(x) >>> 1,
 * SBOX4(x) = SBOX1(x <<< 1).  The Camellia specification (Aoki et al.,
 * "Specification of Camellia - a 128-bit Block Cipher", NTT/Mitsubishi
 * 2000, 2.4.6 and the design paper, SAC 2000) defines SBOX1 algebraically:
 *
 *   s1(x) = h(g(f(0xc5 ^ x))) ^ 0x6e
 *
 * with f, h the GF(2)-linear maps below (cam_f, cam_h; bit a1 is the most
 * significant) and g the inversion in GF(2^8) written on the basis
 * {1, b, b^2, b^3, a, ab, ab^2, ab^3}, a a root of
 * X^8 + X^6 + X^5 + X^3 + 1 and b = a^238 (b^4 + b + 1 = 0).  With the
 * basis change M (cam_to_field) folded into the linear maps,
 * s1(x) = (h M^-1 sq) * (M f x ^ M f 0xc5)^127 ^ 0x6e, which
 * gf256-ct.h evaluates for all eight S-boxes of a round function at once,
 * lane by lane (s2/s3 rotate the output, s4 the input: per-lane
 * matrices).  static_asserts compare the construction with the first row
 * of the RFC's SBOX1; the known answers of RFC 3713 Appendix A (self-test)
 * and the test suite cover the rest.
 *
 * Constant time: the S-boxes as above; everything else is XOR, AND, OR,
 * shifts and rotations by constants.  The key length (public) selects 18
 * or 24 rounds.
 *
 * Names, OIDs, key lengths as libgcrypt 1.10 answers: "CAMELLIA128",
 * "CAMELLIA192", "CAMELLIA256", no aliases; OIDs 1.2.392.200011.61.1.1.1.
 * {2,3,4} (CBC, RFC 3657) and 0.3.4401.5.3.1.9.{1,3,4} +20/+40 (ECB, OFB,
 * CFB); every id accepts a 16-, 24- or 32-byte key (the length, not the
 * id, chooses the variant), other lengths give GPG_ERR_INV_KEYLEN.
 */
#include <config.h>
#include <string.h>
#include "cipher-internal.h"
#include "bufhelp.h"
#include "cipher-batch-modes.h"
#include "camellia-internal.h"
#include "cipher-impl.h"

namespace {

using namespace gf256ct;

using namespace camellia_detail;

/* Lanes of the F-function word (RFC 3713 2.4.1): lane 7 holds t1 (the
 * most significant byte) ... lane 0 holds t8.  t1, t8: SBOX1; t2, t5:
 * SBOX2; t3, t6: SBOX3; t4, t7: SBOX4.  */
enum { S1 = 1, S2, S3, S4 };
constexpr int cam_lane_sbox[8] = { S1, S4, S3, S2, S4, S3, S2, S1 };

constexpr lane_affine<uint64_t>
cam_lanes (bool in)
{
  bitmat m[8] {};
  uint8_t c[8] {};
  for (int i = 0; i < 8; i++)
    {
      int s = cam_lane_sbox[i];
      if (in)
        {
          m[i] = s == S4 ? compose (cam_in, rot_mat (1)) : cam_in;
          c[i] = cam_cin;
        }
      else
        {
          int r = s == S2 ? 1 : s == S3 ? 7 : 0;
          m[i] = compose (rot_mat (r), cam_out);
          c[i] = rotl8 (cam_cout, r);
        }
    }
  return make_lanes<uint64_t> (m, c);
}

constexpr lane_affine<uint64_t> cam_lanes_in = cam_lanes (true);
constexpr lane_affine<uint64_t> cam_lanes_out = cam_lanes (false);

/* F (RFC 3713 2.4.1): S-function then P-function.  */
inline uint64_t
cam_F (uint64_t x, uint64_t k)
{
  uint64_t s = sbox_layer<CAM_POLY> (cam_lanes_in, cam_lanes_out, x ^ k);
  uint8_t t[9];
  for (int i = 1; i <= 8; i++)
    t[i] = (uint8_t) (s >> (64 - 8 * i));
  uint8_t y[8] = {
    (uint8_t) (t[1] ^ t[3] ^ t[4] ^ t[6] ^ t[7] ^ t[8]),
    (uint8_t) (t[1] ^ t[2] ^ t[4] ^ t[5] ^ t[7] ^ t[8]),
    (uint8_t) (t[1] ^ t[2] ^ t[3] ^ t[5] ^ t[6] ^ t[8]),
    (uint8_t) (t[2] ^ t[3] ^ t[4] ^ t[5] ^ t[6] ^ t[7]),
    (uint8_t) (t[1] ^ t[2] ^ t[6] ^ t[7] ^ t[8]),
    (uint8_t) (t[2] ^ t[3] ^ t[5] ^ t[7] ^ t[8]),
    (uint8_t) (t[3] ^ t[4] ^ t[5] ^ t[6] ^ t[8]),
    (uint8_t) (t[1] ^ t[4] ^ t[5] ^ t[6] ^ t[7]),
  };
  uint64_t r = 0;
  for (int i = 0; i < 8; i++)
    r = (r << 8) | y[i];
  return r;
}

inline uint32_t
rol32 (uint32_t x, int n)
{
  return (x << n) | (x >> (32 - n));
}

/* FL and FL^-1 (RFC 3713 2.4.2, 2.4.3).  */
inline uint64_t
cam_FL (uint64_t x, uint64_t k)
{
  uint32_t x1 = (uint32_t) (x >> 32), x2 = (uint32_t) x;
  uint32_t k1 = (uint32_t) (k >> 32), k2 = (uint32_t) k;
  x2 ^= rol32 (x1 & k1, 1);
  x1 ^= x2 | k2;
  return ((uint64_t) x1 << 32) | x2;
}

inline uint64_t
cam_FLINV (uint64_t y, uint64_t k)
{
  uint32_t y1 = (uint32_t) (y >> 32), y2 = (uint32_t) y;
  uint32_t k1 = (uint32_t) (k >> 32), k2 = (uint32_t) k;
  y1 ^= y2 | k2;
  y2 ^= rol32 (y1 & k1, 1);
  return ((uint64_t) y1 << 32) | y2;
}

inline uint64_t
get_be64 (const unsigned char *p)
{
  return ((uint64_t) buf_get_be32 (p) << 32) | buf_get_be32 (p + 4);
}

inline void
put_be64 (unsigned char *p, uint64_t v)
{
  buf_put_be32 (p, (uint32_t) (v >> 32));
  buf_put_be32 (p + 4, (uint32_t) v);
}

/* A 128-bit value as (hi, lo) and its rotation left by N (public).  */
struct u128
{
  uint64_t hi, lo;
};

inline u128
rot128 (u128 x, unsigned n)
{
  if (n >= 64)
    {
      uint64_t t = x.hi;
      x.hi = x.lo;
      x.lo = t;
      n -= 64;
    }
  if (!n)
    return x;
  return { (x.hi << n) | (x.lo >> (64 - n)), (x.lo << n) | (x.hi >> (64 - n)) };
}

/* Key schedule constants Sigma1..Sigma6 (RFC 3713 2.2).  */
constexpr uint64_t cam_sigma[6] = {
  0xA09E667F3BCC908Bull, 0xB67AE8584CAA73B2ull, 0xC6EF372FE94F82BEull,
  0x54FF53A5F1D36F1Cull, 0x10E527FADE682D1Dull, 0xB05688C2B3E6C1FDull
};

/* Where each subkey comes from (RFC 3713 2.2): key (0 KL, 1 KR, 2 KA,
 * 3 KB), rotation, half (0 = left, the high 64 bits).  */
struct cam_subkey_src
{
  unsigned char key, rot, half;
};

enum { KL, KR, KA, KB };

/* 128-bit keys: kw1 kw2 k1..k18 ke1..ke4 kw3 kw4, in RFC order.  */
const cam_subkey_src cam_src128[26] = {
  { KL, 0, 0 }, { KL, 0, 1 },                               /* kw1 kw2 */
  { KA, 0, 0 }, { KA, 0, 1 }, { KL, 15, 0 }, { KL, 15, 1 }, /* k1..k4 */
  { KA, 15, 0 }, { KA, 15, 1 },                             /* k5 k6 */
  { KA, 30, 0 }, { KA, 30, 1 },                             /* ke1 ke2 */
  { KL, 45, 0 }, { KL, 45, 1 }, { KA, 45, 0 }, { KL, 60, 1 }, /* k7..k10 */
  { KA, 60, 0 }, { KA, 60, 1 },                             /* k11 k12 */
  { KL, 77, 0 }, { KL, 77, 1 },                             /* ke3 ke4 */
  { KL, 94, 0 }, { KL, 94, 1 }, { KA, 94, 0 }, { KA, 94, 1 }, /* k13..16 */
  { KL, 111, 0 }, { KL, 111, 1 },                           /* k17 k18 */
  { KA, 111, 0 }, { KA, 111, 1 },                           /* kw3 kw4 */
};

/* 192/256-bit keys: kw1 kw2 k1..k6 ke1 ke2 k7..k12 ke3 ke4 k13..k18
 * ke5 ke6 k19..k24 kw3 kw4.  */
const cam_subkey_src cam_src256[34] = {
  { KL, 0, 0 }, { KL, 0, 1 },
  { KB, 0, 0 }, { KB, 0, 1 }, { KR, 15, 0 }, { KR, 15, 1 },
  { KA, 15, 0 }, { KA, 15, 1 },
  { KR, 30, 0 }, { KR, 30, 1 },
  { KB, 30, 0 }, { KB, 30, 1 }, { KL, 45, 0 }, { KL, 45, 1 },
  { KA, 45, 0 }, { KA, 45, 1 },
  { KL, 60, 0 }, { KL, 60, 1 },
  { KR, 60, 0 }, { KR, 60, 1 }, { KB, 60, 0 }, { KB, 60, 1 },
  { KL, 77, 0 }, { KL, 77, 1 },
  { KA, 77, 0 }, { KA, 77, 1 },
  { KR, 94, 0 }, { KR, 94, 1 }, { KA, 94, 0 }, { KA, 94, 1 },
  { KL, 111, 0 }, { KL, 111, 1 },
  { KB, 111, 0 }, { KB, 111, 1 },
};

/* KEYLEN 16, 24 or 32 (checked by the caller).  Returns the burn
 * depth.  */
unsigned int
cam_key_schedule (CAMELLIA_context *ctx, const unsigned char *key,
                  size_t keylen)
{
  u128 kk[4];
  kk[KL] = { get_be64 (key), get_be64 (key + 8) };
  if (keylen == 16)
    kk[KR] = { 0, 0 };
  else if (keylen == 24)
    kk[KR] = { get_be64 (key + 16), ~get_be64 (key + 16) };
  else
    kk[KR] = { get_be64 (key + 16), get_be64 (key + 24) };

  uint64_t d1 = kk[KL].hi ^ kk[KR].hi, d2 = kk[KL].lo ^ kk[KR].lo;
  d2 ^= cam_F (d1, cam_sigma[0]);
  d1 ^= cam_F (d2, cam_sigma[1]);
  d1 ^= kk[KL].hi;
  d2 ^= kk[KL].lo;
  d2 ^= cam_F (d1, cam_sigma[2]);
  d1 ^= cam_F (d2, cam_sigma[3]);
  kk[KA] = { d1, d2 };
  d1 = kk[KA].hi ^ kk[KR].hi;
  d2 = kk[KA].lo ^ kk[KR].lo;
  d2 ^= cam_F (d1, cam_sigma[4]);
  d1 ^= cam_F (d2, cam_sigma[5]);
  kk[KB] = { d1, d2 };

  const bool small = keylen == 16;
  const cam_subkey_src *src = small ? cam_src128 : cam_src256;
  const size_t n = small ? 26 : 34;
  uint64_t sub[34];
  for (size_t i = 0; i < n; i++)
    {
      u128 r = rot128 (kk[src[i].key], src[i].rot);
      sub[i] = src[i].half ? r.lo : r.hi;
    }
  /* Unpack the RFC order: 6 rounds, then an FL layer, ...  */
  ctx->rounds = small ? 18 : 24;
  size_t p = 0;
  ctx->kw[0] = sub[p++];
  ctx->kw[1] = sub[p++];
  for (unsigned r = 0, l = 0; r < ctx->rounds; r++)
    {
      if (r && r % 6 == 0)
        {
          ctx->ke[l++] = sub[p++];
          ctx->ke[l++] = sub[p++];
        }
      ctx->k[r] = sub[p++];
    }
  ctx->kw[2] = sub[p++];
  ctx->kw[3] = sub[p++];
  wipememory (kk, sizeof kk);
  wipememory (sub, sizeof sub);
  d1 = d2 = 0;
  /* The rest of the frame: 600 bytes deep on i686 with GCC 12 (an
   * audit of the frames; 256 here gave 592).  */
  return sizeof kk + sizeof sub + 320;
}

/* Encryption (RFC 3713 2.3.1/2.3.2) or, with DECRYPT, decryption
 * (2.3.3: the same network with the subkeys in reverse order).  */
template <bool DECRYPT>
unsigned int
cam_crypt (void *c, unsigned char *out, const unsigned char *in)
{
  const CAMELLIA_context *ctx = (const CAMELLIA_context *) c;
  const unsigned int nr = ctx->rounds;
  const unsigned int nfl = nr / 6 - 1;
  if (!nr)
    {
      /* An unkeyed (all-zero) context, reachable only through the modes
       * that run the cipher before a key is set (EAX, SIV): the block
       * passes unchanged, as in libgcrypt 1.10.  */
      memmove (out, in, 16);
      return 0;
    }
  uint64_t d1 = get_be64 (in), d2 = get_be64 (in + 8);

  d1 ^= ctx->kw[DECRYPT ? 2 : 0];
  d2 ^= ctx->kw[DECRYPT ? 3 : 1];
  for (unsigned int r = 0; r < nr; r += 2)
    {
      if (r && r % 6 == 0)
        {
          unsigned int l = r / 6 - 1;
          if (DECRYPT)
            {
              d1 = cam_FL (d1, ctx->ke[2 * (nfl - 1 - l) + 1]);
              d2 = cam_FLINV (d2, ctx->ke[2 * (nfl - 1 - l)]);
            }
          else
            {
              d1 = cam_FL (d1, ctx->ke[2 * l]);
              d2 = cam_FLINV (d2, ctx->ke[2 * l + 1]);
            }
        }
      d2 ^= cam_F (d1, ctx->k[DECRYPT ? nr - 1 - r : r]);
      d1 ^= cam_F (d2, ctx->k[DECRYPT ? nr - 2 - r : r + 1]);
    }
  d2 ^= ctx->kw[DECRYPT ? 0 : 2];
  d1 ^= ctx->kw[DECRYPT ? 1 : 3];
  put_be64 (out, d2);
  put_be64 (out + 8, d1);
  /* i386 has too few registers for the 64-bit halves and subkeys: GCC
   * spills them up to about 550 bytes below the caller (t-hygiene).  */
  return sizeof (void *) == 4 ? 768 : 128 + 8 * sizeof (void *);
}

/* The spec's single-block functions: the chosen path's (a GFNI kernel
 * on one block) or the generic code.  The test is on the path, public. */
unsigned int
cam_encrypt (void *ctx, unsigned char *out, const unsigned char *in)
{
  const CAMELLIA_context *c = (const CAMELLIA_context *) ctx;
  if (c->encrypt1)
    return c->encrypt1 (ctx, out, in);
  return cam_crypt<false> (ctx, out, in);
}

unsigned int
cam_decrypt (void *ctx, unsigned char *out, const unsigned char *in)
{
  const CAMELLIA_context *c = (const CAMELLIA_context *) ctx;
  if (c->decrypt1)
    return c->decrypt1 (ctx, out, in);
  return cam_crypt<true> (ctx, out, in);
}

/* What a path brings beside its name and hwf bits.  */
struct cam_impl_ops
{
  unsigned int lanes;                      /* Blocks per batch.  */
  /* Bulk slots and single-block functions; NULL: none.  */
  void (*fill) (cipher_bulk_ops *, CAMELLIA_context *);
};

/* Paths, fastest first (the first whose hwf bits are all present and
 * not disabled wins at setkey); all share the key layout and the
 * single-block functions, a SIMD path adds bulk slots.  The AES-NI
 * paths (the GFNI kernels' templates with sbox-layer-x86.h's AES-NI
 * S-box layer) serve CPUs without GFNI.  */
constexpr cipher_impl<cam_impl_ops> cam_impls[] = {
#ifdef GCIPHER_ARCH_X86
  { { "gfni-avx512", HWF_INTEL_GFNI | HWF_INTEL_AVX512 },
    { CAMELLIA_GFNI_AVX512_LANES, _gcry_camellia_gfni_avx512_fill } },
  { { "gfni-avx2", HWF_INTEL_GFNI | HWF_INTEL_AVX2 },
    { CAMELLIA_GFNI_AVX2_LANES, _gcry_camellia_gfni_avx2_fill } },
  { { "vaes-avx2",
      HWF_INTEL_VAES_VPCLMUL | HWF_INTEL_AESNI | HWF_INTEL_AVX2 },
    { CAMELLIA_AESNI_AVX2_LANES, _gcry_camellia_vaes_avx2_fill } },
  { { "aesni-avx2", HWF_INTEL_AESNI | HWF_INTEL_AVX2 },
    { CAMELLIA_AESNI_AVX2_LANES, _gcry_camellia_aesni_avx2_fill } },
  { { "aesni-avx", HWF_INTEL_AESNI | HWF_INTEL_AVX },
    { CAMELLIA_AESNI_AVX_LANES, _gcry_camellia_aesni_avx_fill } },
#endif
  { { "generic", 0 }, { 1, nullptr } },
};

constexpr auto cam_impl_list = cipher_impl_info_list (cam_impls);

/* Key CTX for path IDX and fill BULK; returns the burn depth.  */
unsigned int
cam_setkey_path (CAMELLIA_context *ctx, const unsigned char *key,
                 size_t keylen, cipher_bulk_ops *bulk, size_t idx)
{
  wipememory (ctx, sizeof *ctx);
  memset (bulk, 0, sizeof *bulk);
  unsigned int burn = cam_key_schedule (ctx, key, keylen);
  if (cam_impls[idx].ops.fill)
    cam_impls[idx].ops.fill (bulk, ctx);
  return burn;
}

gcry_err_code_t
cam_setkey (void *c, const unsigned char *key, size_t keylen,
            cipher_bulk_ops *bulk, const char **impl_name)
{
  CAMELLIA_context *ctx = (CAMELLIA_context *) c;
  if (keylen != 16 && keylen != 24 && keylen != 32)
    return GPG_ERR_INV_KEYLEN;
  size_t idx = cipher_impl_choose (cam_impls, _gcry_get_hw_features ());
  _gcry_burn_stack (cam_setkey_path (ctx, key, keylen, bulk, idx));
  if (impl_name)
    *impl_name = cam_impls[idx].name;
  return GPG_ERR_NO_ERROR;
}

/* ---- Self-test: RFC 3713 Appendix A ------------------------------- */

const char *
cam_selftest (void)
{
  static const unsigned char key[32] = {
    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
    0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
    0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff
  };
  static const unsigned char ct[3][16] = {
    { 0x67, 0x67, 0x31, 0x38, 0x54, 0x96, 0x69, 0x73,
      0x08, 0x57, 0x06, 0x56, 0x48, 0xea, 0xbe, 0x43 },
    { 0xb4, 0x99, 0x34, 0x01, 0xb3, 0xe9, 0x96, 0xf8,
      0x4e, 0xe5, 0xce, 0xe7, 0xd7, 0x9b, 0x09, 0xb9 },
    { 0x9a, 0xcc, 0x23, 0x7d, 0xff, 0x16, 0xd7, 0x6c,
      0x20, 0xef, 0x7c, 0x91, 0x9e, 0x3a, 0x75, 0x09 },
  };
  const unsigned int hwf = _gcry_get_hw_features ();
  alignas (CONTEXT_ALIGN) CAMELLIA_context ctx;
  cipher_bulk_ops bulk;
  unsigned char buf[16];
  const char *err = NULL;
  /* Every path this CPU has, by index (not through the disable list). */
  for (size_t p = 0; p < cam_impl_list.n && !err; p++)
    {
      if (!cipher_impl_usable (cam_impls[p], hwf))
        continue;
      const unsigned int lanes = cam_impls[p].ops.lanes;
      for (int i = 0; i < 3 && !err; i++)
        {
          cam_setkey_path (&ctx, key, 16 + 8 * i, &bulk, p);
          cam_encrypt (&ctx, buf, key);   /* The plaintext is the key's head. */
          if (memcmp (buf, ct[i], 16))
            err = "Camellia: encryption known answer failed";
          else
            {
              cam_decrypt (&ctx, buf, buf);
              if (memcmp (buf, key, 16))
                err = "Camellia: decryption known answer failed";
            }
          if (!err && bulk.ecb_crypt)
            {
              bulk.ecb_crypt (&ctx, buf, key, 1, 1);
              if (memcmp (buf, ct[i], 16))
                err = "Camellia: bulk ECB known answer failed";
              else
                {
                  bulk.ecb_crypt (&ctx, buf, buf, 1, 0);
                  if (memcmp (buf, key, 16))
                    err = "Camellia: bulk ECB decryption known answer failed";
                }
            }
          if (!err && bulk.ctr16be_enc)
            err = _gcry_selftest_helper_ctr ("CAMELLIA",
                                             &_gcry_cipher_spec_camellia128,
                                             &ctx, &bulk, lanes + 1);
          if (!err && bulk.cbc_dec)
            err = _gcry_selftest_helper_cbc ("CAMELLIA",
                                             &_gcry_cipher_spec_camellia128,
                                             &ctx, &bulk, lanes + 2);
          if (!err && bulk.cfb_dec)
            err = _gcry_selftest_helper_cfb ("CAMELLIA",
                                             &_gcry_cipher_spec_camellia128,
                                             &ctx, &bulk, lanes + 2);
          if (!err && bulk.ecb_crypt)
            err = _gcry_selftest_helper_ecb ("CAMELLIA",
                                             &_gcry_cipher_spec_camellia128,
                                             &ctx, &bulk, 2 * lanes + 3);
          if (!err && bulk.xts_crypt)
            err = _gcry_selftest_helper_xts ("CAMELLIA",
                                             &_gcry_cipher_spec_camellia128,
                                             &ctx, &bulk, lanes + 3);
          if (!err && bulk.cbc_enc && bulk.cfb_enc && bulk.ofb_enc)
            err = batch_selftest_chained (&_gcry_cipher_spec_camellia128,
                                          &ctx, &bulk);
        }
    }
  wipememory (&ctx, sizeof ctx);
  _gcry_burn_stack (1024);
  return err;
}

/* ---- Names -------------------------------------------------------- */

const cipher_oid_spec cam128_oids[] = {
  { "1.2.392.200011.61.1.1.1.2", GCRY_CIPHER_MODE_CBC },
  { "0.3.4401.5.3.1.9.1", GCRY_CIPHER_MODE_ECB },
  { "0.3.4401.5.3.1.9.3", GCRY_CIPHER_MODE_OFB },
  { "0.3.4401.5.3.1.9.4", GCRY_CIPHER_MODE_CFB },
  { NULL, 0 }
};
const cipher_oid_spec cam192_oids[] = {
  { "1.2.392.200011.61.1.1.1.3", GCRY_CIPHER_MODE_CBC },
  { "0.3.4401.5.3.1.9.21", GCRY_CIPHER_MODE_ECB },
  { "0.3.4401.5.3.1.9.23", GCRY_CIPHER_MODE_OFB },
  { "0.3.4401.5.3.1.9.24", GCRY_CIPHER_MODE_CFB },
  { NULL, 0 }
};
const cipher_oid_spec cam256_oids[] = {
  { "1.2.392.200011.61.1.1.1.4", GCRY_CIPHER_MODE_CBC },
  { "0.3.4401.5.3.1.9.41", GCRY_CIPHER_MODE_ECB },
  { "0.3.4401.5.3.1.9.43", GCRY_CIPHER_MODE_OFB },
  { "0.3.4401.5.3.1.9.44", GCRY_CIPHER_MODE_CFB },
  { NULL, 0 }
};

} // namespace

const cipher_spec _gcry_cipher_spec_camellia128 = {
  GCRY_CIPHER_CAMELLIA128, "CAMELLIA128", NULL, cam128_oids,
  16, 128, sizeof (CAMELLIA_context),
  cam_setkey, cam_encrypt, cam_decrypt, cam_selftest,
  cam_impl_list.v, cam_impl_list.n
};

const cipher_spec _gcry_cipher_spec_camellia192 = {
  GCRY_CIPHER_CAMELLIA192, "CAMELLIA192", NULL, cam192_oids,
  16, 192, sizeof (CAMELLIA_context),
  cam_setkey, cam_encrypt, cam_decrypt, cam_selftest,
  cam_impl_list.v, cam_impl_list.n
};

const cipher_spec _gcry_cipher_spec_camellia256 = {
  GCRY_CIPHER_CAMELLIA256, "CAMELLIA256", NULL, cam256_oids,
  16, 256, sizeof (CAMELLIA_context),
  cam_setkey, cam_encrypt, cam_decrypt, cam_selftest,
  cam_impl_list.v, cam_impl_list.n
};
