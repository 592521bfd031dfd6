/* aria.cpp - ARIA (RFC 5794; KS X 1213-1): the three specs, key
 * schedule, constant-time generic block functions and self-test.
 *
 * ARIA is not in libgcrypt 1.10 (the system library); libgcrypt 1.11
 * added it, and gcipher follows 1.11's ABI and answers: algorithm ids
 * GCRY_CIPHER_ARIA128/192/256 = 319/320/321, names "ARIA128", "ARIA192",
 * "ARIA256" (no aliases), block 16 bytes, default key lengths 128/192/
 * 256 bits; every id accepts a 16-, 24- or 32-byte key and the length
 * (not the id) chooses 12, 14 or 16 rounds, other lengths give
 * GPG_ERR_INV_KEYLEN.  OIDs: the NSRI arc 1.2.410.200046.1.1 as
 * libgcrypt 1.11 registers it (and OpenSSL's object registry, obj_mac.h
 * "aria-128-ecb" ...): .1-.5 ECB, CBC, CFB, OFB, CTR for 128-bit keys,
 * .6-.10 for 192, .11-.15 for 256; .34/.35/.36 GCM and .37/.38/.39 CCM.
 *
 * Paths (the first whose hwf bits are all present and not disabled wins
 * at setkey; all share the key layout):
 *   "gfni-avx512"  GFNI kernels on zmm/ymm/xmm (aria-gfni-avx512.cpp)
 *   "gfni-avx2"    GFNI kernels on ymm/xmm     (aria-gfni-avx2.cpp)
 *   "vaes-avx2"    AES-NI S-box layer, VAES on ymm, then xmm
 *                  (aria-vaes-avx2.cpp)
 *   "aesni-avx2"   AES-NI S-box layer on ymm/xmm (aria-aesni-avx2.cpp)
 *   "generic"      the code below, no bulk slots: 8 MB/s (ARIA-128) in
 *                  CTR on one Zen 4 core.
 * A SIMD path fills the bulk slots (cipher-batch-modes.h) and the
 * context's encrypt1 / decrypt1, which the spec's single-block functions
 * call (aria-gfni.h has the byte-sliced kernel and the one-block kernel
 * for the chained modes).
 *
 * S-boxes without tables (RFC 5794 2.4.2): SB1(x) = A x^-1 ^ 0x63 (the
 * AES S-box), SB2(x) = B x^247 ^ 0xe2, SB3 = SB1^-1, SB4 = SB2^-1, all
 * in the AES field.  x^247 = (x^-1)^8 and the 8th power is linear, so
 * each of the four is an affine map around the field inversion
 * (aria-internal.h derives the matrices at compile time and checks the
 * first row of every table, and SB3/SB4 as inverses on all 256 inputs);
 * gf256-ct.h evaluates eight of them per 64-bit word, lane by lane, with
 * per-lane matrices (a substitution layer mixes all four S-boxes).
 * The diffusion layer A (2.4.3) is a fixed network of 48 byte XORs.
 *
 * Constant time: the S-boxes as above; the rest is XOR, shifts and
 * rotations by constants.  The key length (public) selects the rounds.
 */
#include <config.h>
#include <string.h>
#include "cipher-internal.h"
#include "bufhelp.h"
#include "cipher-batch-modes.h"
#include "aria-internal.h"
#include "cipher-impl.h"

namespace {

using namespace gf256ct;

using namespace aria_detail;

/* Lane affine maps of substitution layer SL (1 or 2) for the words of
 * block bytes 0..7 and 8..15 (lane i = byte i, resp. i + 8: the same
 * S-box, the pattern has period 4).  */
constexpr lane_affine<uint64_t>
aria_lanes (int sl, bool in)
{
  bitmat m[8] {};
  uint8_t c[8] {};
  for (int i = 0; i < 8; i++)
    {
      const aria_sbox_def &d = aria_sb[aria_sl_sbox (sl, i)];
      m[i] = in ? d.in : d.out_sq;
      c[i] = in ? d.cin : d.cout;
    }
  return make_lanes<uint64_t> (m, c);
}

template <int SL>
struct aria_sl_maps
{
  static constexpr lane_affine<uint64_t> in = aria_lanes (SL, true);
  static constexpr lane_affine<uint64_t> out = aria_lanes (SL, false);
};

/* Compile-time reference of SL on one word (lane layout check).  */
constexpr uint64_t
aria_sl_ref (int sl, uint64_t x)
{
  uint64_t r = 0;
  for (int i = 0; i < 8; i++)
    r |= (uint64_t) aria_sbox_ref (aria_sl_sbox (sl, i),
                                   (uint8_t) (x >> (8 * i))) << (8 * i);
  return r;
}
static_assert ((aria_sl_ref (1, 0) & 0xffffffff) == 0x3052e263u
               && (aria_sl_ref (2, 0) & 0xffffffff) == 0xe2633052u,
               "ARIA substitution layers (RFC 5794 2.4.2: SB1..SB4 (0))");

/* SL (2.4.2) on the 16 bytes in S.  */
template <int SL>
inline void
aria_subst (uint64_t (&s)[2])
{
  typedef aria_sl_maps<SL> m;
  s[0] = sbox_layer<ARIA_POLY> (m::in, m::out, s[0]);
  s[1] = sbox_layer<ARIA_POLY> (m::in, m::out, s[1]);
}

/* A (2.4.3) on the 16 bytes in S.  */
inline void
aria_A (uint64_t (&s)[2])
{
  uint8_t x[16];
  for (int p = 0; p < 16; p++)
    x[p] = (uint8_t) (s[p >> 3] >> (8 * (p & 7)));
  aria_diffuse (x);
  s[0] = s[1] = 0;
  for (int p = 0; p < 16; p++)
    s[p >> 3] |= (uint64_t) x[p] << (8 * (p & 7));
}

inline void
aria_xor_key (uint64_t (&s)[2], const aria_key &k)
{
  s[0] ^= k.w[0];
  s[1] ^= k.w[1];
}

/* FO (D, RK) = A (SL1 (D ^ RK)), FE (D, RK) = A (SL2 (D ^ RK)) (2.4).  */
template <int SL>
inline void
aria_round (uint64_t (&s)[2], const aria_key &rk)
{
  aria_xor_key (s, rk);
  aria_subst<SL> (s);
  aria_A (s);
}

inline void
aria_load (uint64_t (&s)[2], const unsigned char *in)
{
  s[0] = buf_get_le64 (in);
  s[1] = buf_get_le64 (in + 8);
}

/* The block as the 128-bit big-endian number of RFC 5794 2.2 (HI the
 * most significant half) and back.  */
inline void
aria_to_be (const uint64_t (&s)[2], uint64_t *hi, uint64_t *lo)
{
  *hi = __builtin_bswap64 (s[0]);
  *lo = __builtin_bswap64 (s[1]);
}

/* X ^ (Y >>> N) (rotation of the 128-bit number, 0 < N < 128, N
 * public), in block byte order.  */
aria_key
aria_xor_rotr (const uint64_t (&x)[2], const uint64_t (&y)[2], unsigned n)
{
  uint64_t hi, lo;
  aria_to_be (y, &hi, &lo);
  if (n >= 64)
    {
      uint64_t t = hi;
      hi = lo;
      lo = t;
      n -= 64;
    }
  if (n)
    {
      const uint64_t h = (hi >> n) | (lo << (64 - n));
      const uint64_t l = (lo >> n) | (hi << (64 - n));
      hi = h;
      lo = l;
    }
  aria_key k;
  k.w[0] = x[0] ^ __builtin_bswap64 (hi);
  k.w[1] = x[1] ^ __builtin_bswap64 (lo);
  return k;
}

/* CK1, CK2, CK3 come from C1, C2, C3 (2.2): (C1, C2, C3) for 128-bit
 * keys, (C2, C3, C1) for 192, (C3, C1, C2) for 256.  Big-endian bytes. */
const unsigned char aria_C[3][16] = {
  { 0x51, 0x7c, 0xc1, 0xb7, 0x27, 0x22, 0x0a, 0x94,
    0xfe, 0x13, 0xab, 0xe8, 0xfa, 0x9a, 0x6e, 0xe0 },
  { 0x6d, 0xb1, 0x4a, 0xcc, 0x9e, 0x21, 0xc8, 0x20,
    0xff, 0x28, 0xb1, 0xd5, 0xef, 0x5d, 0xe2, 0xb0 },
  { 0xdb, 0x92, 0x37, 0x1d, 0x21, 0x26, 0xe9, 0x70,
    0x03, 0x24, 0x97, 0x75, 0x04, 0xe8, 0xc9, 0x0e },
};

/* Key expansion (RFC 5794 2.2) and the decryption keys (2.4); KEY is
 * KEYLEN = 16, 24 or 32 bytes.  Returns the burn depth.  */
unsigned int
aria_key_schedule (ARIA_context *ctx, const unsigned char *key,
                   size_t keylen)
{
  const unsigned int n = (unsigned int) keylen / 4 + 8;   /* 12, 14, 16 */
  const unsigned int c0 = ((unsigned int) keylen - 16) / 8;  /* 0, 1, 2 */
  unsigned char kr[16];
  uint64_t w[4][2], t[2], krw[2], ck[2];

  memset (kr, 0, sizeof kr);
  memcpy (kr, key + 16, keylen - 16);
  aria_load (w[0], key);
  aria_load (krw, kr);
  /* W1 = FO (W0, CK1) ^ KR, W2 = FE (W1, CK2) ^ W0, W3 = FO (W2, CK3)
   * ^ W1.  */
  for (int i = 1; i < 4; i++)
    {
      t[0] = w[i - 1][0];
      t[1] = w[i - 1][1];
      aria_load (ck, aria_C[(c0 + i - 1) % 3]);
      aria_key k = { { ck[0], ck[1] } };
      if (i == 2)
        aria_round<2> (t, k);
      else
        aria_round<1> (t, k);
      const uint64_t *prev = i == 1 ? krw : w[i - 2];
      w[i][0] = t[0] ^ prev[0];
      w[i][1] = t[1] ^ prev[1];
    }
  /* ek(4g + i + 1) = W_i ^ (W_(i+1 mod 4) >>> r_g), r = 19, 31, 128 - 61,
   * 128 - 31; ek17 = W0 ^ (W1 <<< 19).  */
  static const unsigned int rot[4] = { 19, 31, 67, 97 };
  for (int g = 0; g < 4; g++)
    for (int i = 0; i < 4; i++)
      ctx->ek[4 * g + i] = aria_xor_rotr (w[i], w[(i + 1) & 3], rot[g]);
  ctx->ek[16] = aria_xor_rotr (w[0], w[1], 109);
  ctx->rounds = n;
  /* dk1 = ek(n+1), dk(i) = A (ek(n+2-i)), dk(n+1) = ek1.  */
  ctx->dk[0] = ctx->ek[n];
  for (unsigned int i = 1; i < n; i++)
    {
      uint64_t s[2] = { ctx->ek[n - i].w[0], ctx->ek[n - i].w[1] };
      aria_A (s);
      ctx->dk[i].w[0] = s[0];
      ctx->dk[i].w[1] = s[1];
    }
  ctx->dk[n] = ctx->ek[0];
  wipememory (kr, sizeof kr);
  wipememory (w, sizeof w);
  wipememory (t, sizeof t);
  wipememory (krw, sizeof krw);
  /* The frame (~400 bytes on i686) and the out-of-line S-box inversion
   * below it (~250).  */
  return 1024;
}

/* Encryption (2.3: rounds 1..n-1 FO on odd, FE on even rounds, then
 * SL2 and the last key) with round keys RK; decryption is the same with
 * the decryption keys (2.4).  */
unsigned int
aria_crypt (const aria_key *rk, unsigned int n, unsigned char *out,
            const unsigned char *in)
{
  uint64_t s[2];
  aria_load (s, in);
  for (unsigned int r = 0; r + 2 < n; r += 2)
    {
      aria_round<1> (s, rk[r]);
      aria_round<2> (s, rk[r + 1]);
    }
  aria_round<1> (s, rk[n - 2]);
  aria_xor_key (s, rk[n - 1]);
  aria_subst<2> (s);
  aria_xor_key (s, rk[n]);
  buf_put_le64 (out, s[0]);
  buf_put_le64 (out + 8, s[1]);
  /* The state, the byte array and network temporaries of aria_A, and
   * the out-of-line S-box inversion (gf256ct) below them: ~640 bytes
   * on i686.  */
  return 768 + 16 * sizeof (void *);
}

/* The spec's single-block functions: the chosen path's (a SIMD kernel
 * on one block) or the generic code.  The test is on the path, public. */
unsigned int
aria_encrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const ARIA_context *ctx = (const ARIA_context *) c;
  if (ctx->encrypt1)
    return ctx->encrypt1 (c, out, in);
  return aria_crypt (ctx->ek, ctx->rounds, out, in);
}

unsigned int
aria_decrypt (void *c, unsigned char *out, const unsigned char *in)
{
  const ARIA_context *ctx = (const ARIA_context *) c;
  if (ctx->decrypt1)
    return ctx->decrypt1 (c, out, in);
  return aria_crypt (ctx->dk, ctx->rounds, out, in);
}

/* What a path brings beside its name and hwf bits.  */
struct aria_impl_ops
{
  unsigned int lanes;                      /* Blocks per batch.  */
  /* Bulk slots and single-block functions; NULL: none.  */
  void (*fill) (cipher_bulk_ops *, ARIA_context *);
};

/* Paths, fastest first (the first whose hwf bits are all present and
 * not disabled wins at setkey); all share the key layout and the
 * single-block functions, a SIMD path adds bulk slots.  */
constexpr cipher_impl<aria_impl_ops> aria_impls[] = {
#ifdef GCIPHER_ARCH_X86
  { { "gfni-avx512", HWF_INTEL_GFNI | HWF_INTEL_AVX512 },
    { ARIA_GFNI_AVX512_LANES, _gcry_aria_gfni_avx512_fill } },
  { { "gfni-avx2", HWF_INTEL_GFNI | HWF_INTEL_AVX2 },
    { ARIA_GFNI_AVX2_LANES, _gcry_aria_gfni_avx2_fill } },
  { { "vaes-avx2",
      HWF_INTEL_VAES_VPCLMUL | HWF_INTEL_AESNI | HWF_INTEL_AVX2 },
    { ARIA_AESNI_AVX2_LANES, _gcry_aria_vaes_avx2_fill } },
  { { "aesni-avx2", HWF_INTEL_AESNI | HWF_INTEL_AVX2 },
    { ARIA_AESNI_AVX2_LANES, _gcry_aria_aesni_avx2_fill } },
#endif
  { { "generic", 0 }, { 1, nullptr } },
};

constexpr auto aria_impl_list = cipher_impl_info_list (aria_impls);

/* Key CTX for path IDX and fill BULK; returns the burn depth.  */
unsigned int
aria_setkey_path (ARIA_context *ctx, const unsigned char *key,
                  size_t keylen, cipher_bulk_ops *bulk, size_t idx)
{
  wipememory (ctx, sizeof *ctx);
  memset (bulk, 0, sizeof *bulk);
  unsigned int burn = aria_key_schedule (ctx, key, keylen);
  if (aria_impls[idx].ops.fill)
    aria_impls[idx].ops.fill (bulk, ctx);
  return burn;
}

gcry_err_code_t
aria_setkey (void *c, const unsigned char *key, size_t keylen,
             cipher_bulk_ops *bulk, const char **impl_name)
{
  ARIA_context *ctx = (ARIA_context *) c;
  if (keylen != 16 && keylen != 24 && keylen != 32)
    return GPG_ERR_INV_KEYLEN;
  size_t idx = cipher_impl_choose (aria_impls, _gcry_get_hw_features ());
  _gcry_burn_stack (aria_setkey_path (ctx, key, keylen, bulk, idx));
  if (impl_name)
    *impl_name = aria_impls[idx].name;
  return GPG_ERR_NO_ERROR;
}

/* ---- Self-test: RFC 5794 Appendix A -------------------------------- */

const char *
aria_selftest (void)
{
  /* A.1-A.3: the key 00 01 02 ... (16, 24, 32 bytes), the plaintext
   * 00 11 22 ... ff.  */
  static const unsigned char pt[16] = {
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
    0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff
  };
  static const unsigned char ct[3][16] = {
    { 0xd7, 0x18, 0xfb, 0xd6, 0xab, 0x64, 0x4c, 0x73,
      0x9d, 0xa9, 0x5f, 0x3b, 0xe6, 0x45, 0x17, 0x78 },
    { 0x26, 0x44, 0x9c, 0x18, 0x05, 0xdb, 0xe7, 0xaa,
      0x25, 0xa4, 0x68, 0xce, 0x26, 0x3a, 0x9e, 0x79 },
    { 0xf9, 0x2b, 0xd7, 0xc7, 0x9f, 0xb7, 0x2e, 0x2f,
      0x2b, 0x8f, 0x80, 0xc1, 0x97, 0x2d, 0x24, 0xfc },
  };
  unsigned char key[32];
  for (int i = 0; i < 32; i++)
    key[i] = (unsigned char) i;
  const unsigned int hwf = _gcry_get_hw_features ();
  alignas (CONTEXT_ALIGN) ARIA_context ctx;
  cipher_bulk_ops bulk;
  unsigned char buf[16];
  const char *err = NULL;
  /* Every path this CPU has, by index (not through the disable list). */
  for (size_t p = 0; p < aria_impl_list.n && !err; p++)
    {
      if (!cipher_impl_usable (aria_impls[p], hwf))
        continue;
      const unsigned int lanes = aria_impls[p].ops.lanes;
      for (int i = 0; i < 3 && !err; i++)
        {
          aria_setkey_path (&ctx, key, 16 + 8 * i, &bulk, p);
          aria_encrypt (&ctx, buf, pt);
          if (memcmp (buf, ct[i], 16))
            err = "ARIA: encryption known answer failed";
          else
            {
              aria_decrypt (&ctx, buf, buf);
              if (memcmp (buf, pt, 16))
                err = "ARIA: decryption known answer failed";
            }
          if (!err && bulk.ecb_crypt)
            {
              bulk.ecb_crypt (&ctx, buf, pt, 1, 1);
              if (memcmp (buf, ct[i], 16))
                err = "ARIA: bulk ECB known answer failed";
              else
                {
                  bulk.ecb_crypt (&ctx, buf, buf, 1, 0);
                  if (memcmp (buf, pt, 16))
                    err = "ARIA: bulk ECB decryption known answer failed";
                }
            }
          if (!err && bulk.ctr16be_enc)
            err = _gcry_selftest_helper_ctr ("ARIA",
                                             &_gcry_cipher_spec_aria128,
                                             &ctx, &bulk, lanes + 1);
          if (!err && bulk.cbc_dec)
            err = _gcry_selftest_helper_cbc ("ARIA",
                                             &_gcry_cipher_spec_aria128,
                                             &ctx, &bulk, lanes + 2);
          if (!err && bulk.cfb_dec)
            err = _gcry_selftest_helper_cfb ("ARIA",
                                             &_gcry_cipher_spec_aria128,
                                             &ctx, &bulk, lanes + 2);
          if (!err && bulk.ecb_crypt)
            err = _gcry_selftest_helper_ecb ("ARIA",
                                             &_gcry_cipher_spec_aria128,
                                             &ctx, &bulk, 2 * lanes + 3);
          if (!err && bulk.xts_crypt)
            err = _gcry_selftest_helper_xts ("ARIA",
                                             &_gcry_cipher_spec_aria128,
                                             &ctx, &bulk, lanes + 3);
          if (!err && bulk.cbc_enc && bulk.cfb_enc && bulk.ofb_enc)
            err = batch_selftest_chained (&_gcry_cipher_spec_aria128,
                                          &ctx, &bulk);
        }
    }
  wipememory (&ctx, sizeof ctx);
  _gcry_burn_stack (1024);
  return err;
}

/* ---- Names (see the file comment for the OIDs' source) ------------- */

const cipher_oid_spec aria128_oids[] = {
  { "1.2.410.200046.1.1.1", GCRY_CIPHER_MODE_ECB },
  { "1.2.410.200046.1.1.2", GCRY_CIPHER_MODE_CBC },
  { "1.2.410.200046.1.1.3", GCRY_CIPHER_MODE_CFB },
  { "1.2.410.200046.1.1.4", GCRY_CIPHER_MODE_OFB },
  { "1.2.410.200046.1.1.5", GCRY_CIPHER_MODE_CTR },
  { "1.2.410.200046.1.1.34", GCRY_CIPHER_MODE_GCM },
  { "1.2.410.200046.1.1.37", GCRY_CIPHER_MODE_CCM },
  { NULL, 0 }
};
const cipher_oid_spec aria192_oids[] = {
  { "1.2.410.200046.1.1.6", GCRY_CIPHER_MODE_ECB },
  { "1.2.410.200046.1.1.7", GCRY_CIPHER_MODE_CBC },
  { "1.2.410.200046.1.1.8", GCRY_CIPHER_MODE_CFB },
  { "1.2.410.200046.1.1.9", GCRY_CIPHER_MODE_OFB },
  { "1.2.410.200046.1.1.10", GCRY_CIPHER_MODE_CTR },
  { "1.2.410.200046.1.1.35", GCRY_CIPHER_MODE_GCM },
  { "1.2.410.200046.1.1.38", GCRY_CIPHER_MODE_CCM },
  { NULL, 0 }
};
const cipher_oid_spec aria256_oids[] = {
  { "1.2.410.200046.1.1.11", GCRY_CIPHER_MODE_ECB },
  { "1.2.410.200046.1.1.12", GCRY_CIPHER_MODE_CBC },
  { "1.2.410.200046.1.1.13", GCRY_CIPHER_MODE_CFB },
  { "1.2.410.200046.1.1.14", GCRY_CIPHER_MODE_OFB },
  { "1.2.410.200046.1.1.15", GCRY_CIPHER_MODE_CTR },
  { "1.2.410.200046.1.1.36", GCRY_CIPHER_MODE_GCM },
  { "1.2.410.200046.1.1.39", GCRY_CIPHER_MODE_CCM },
  { NULL, 0 }
};

} // namespace

const cipher_spec _gcry_cipher_spec_aria128 = {
  GCRY_CIPHER_ARIA128, "ARIA128", NULL, aria128_oids,
  16, 128, sizeof (ARIA_context),
  aria_setkey, aria_encrypt, aria_decrypt, aria_selftest,
  aria_impl_list.v, aria_impl_list.n
};

const cipher_spec _gcry_cipher_spec_aria192 = {
  GCRY_CIPHER_ARIA192, "ARIA192", NULL, aria192_oids,
  16, 192, sizeof (ARIA_context),
  aria_setkey, aria_encrypt, aria_decrypt, aria_selftest,
  aria_impl_list.v, aria_impl_list.n
};

const cipher_spec _gcry_cipher_spec_aria256 = {
  GCRY_CIPHER_ARIA256, "ARIA256", NULL, aria256_oids,
  16, 256, sizeof (ARIA_context),
  aria_setkey, aria_encrypt, aria_decrypt, aria_selftest,
  aria_impl_list.v, aria_impl_list.n
};
