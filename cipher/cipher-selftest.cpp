/* cipher-selftest.cpp - bulk-slot versus single-block self-test helpers.
 *
 * Each helper takes a context already keyed for one path and that path's
 * bulk table, runs the bulk slot over NBLOCKS blocks of fixed data (out of
 * place, then in place) and compares output and final IV/counter with the
 * same computation done block by block with SPEC's single-block functions
 * (NIST SP 800-38A 6.1, 6.2, 6.3, 6.5; RFC 8452 4; IEEE 1619-2018 5.3).
 * Nothing random: a failure reproduces.  Return NULL on success, else a
 * static description.
 */
#include <config.h>
#include <string.h>
#include "cipher-internal.h"

namespace {

/* Scratch for one check: four NBLOCKS*BLOCKSIZE buffers.  */
struct scratch
{
  unsigned char *mem;
  unsigned char *in, *expect, *out, *tmp;
  size_t len;

  bool init (size_t nblocks, size_t blocksize)
  {
    len = nblocks * blocksize;
    mem = (unsigned char *)_gcry_malloc (4 * len + 1);
    if (!mem)
      return false;
    in = mem;
    expect = in + len;
    out = expect + len;
    tmp = out + len;
    return true;
  }
  void done ()
  {
    if (mem)
      {
        wipememory (mem, 4 * len + 1);
        _gcry_free (mem);
      }
  }
};

void
fill_pattern (unsigned char *p, size_t n, unsigned int seed)
{
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)(i * 7 + seed * 13 + (i >> 8));
}

/* Big-endian increment of the whole block (SP 800-38A B.1).  */
void
ctr_inc (unsigned char *ctr, size_t bs)
{
  for (size_t i = bs; i-- > 0;)
    if (++ctr[i])
      break;
}

inline unsigned int
maxu (unsigned int a, unsigned int b)
{
  return a > b ? a : b;
}

/* Run the chained bulk function FN (CBC-dec, CFB-dec, CTR: same shape)
 * from the chaining value IV0, out of place and then in place, and
 * compare with S.expect and the chaining value WANT_IV it must end on.
 * Returns NULL or OUT_MSG / IN_MSG; raises *BURN.  */
typedef unsigned int (*chained_bulk_fn) (void *ctx, unsigned char *iv,
                                         void *out, const void *in,
                                         size_t nblocks);

/* The same for any bulk call: RUN (iv, out, in) runs it over S's
 * NBLOCKS blocks with the chaining value IV (NULL-safe when IVLEN is 0:
 * ECB) and returns its burn depth.  */
template <class Run>
const char *
compare_bulk (Run &&run, const unsigned char *iv0,
              const unsigned char *want_iv, size_t ivlen, scratch &s,
              unsigned int *burn, const char *out_msg, const char *in_msg)
{
  unsigned char iv[MAX_BLOCKSIZE];
  if (ivlen)
    memcpy (iv, iv0, ivlen);
  *burn = maxu (*burn, run (iv, s.out, s.in));
  if (memcmp (s.out, s.expect, s.len) || (ivlen && memcmp (iv, want_iv, ivlen)))
    return out_msg;
  memcpy (s.tmp, s.in, s.len);
  if (ivlen)
    memcpy (iv, iv0, ivlen);
  *burn = maxu (*burn, run (iv, s.tmp, s.tmp));
  if (memcmp (s.tmp, s.expect, s.len) || (ivlen && memcmp (iv, want_iv, ivlen)))
    return in_msg;
  return NULL;
}

const char *
compare_chained (chained_bulk_fn fn, void *ctx, const unsigned char *iv0,
                 const unsigned char *want_iv, scratch &s, size_t bs,
                 size_t nblocks, unsigned int *burn, const char *out_msg,
                 const char *in_msg)
{
  return compare_bulk (
      [&] (unsigned char *iv, unsigned char *out, const unsigned char *in) {
        return fn (ctx, iv, out, in, nblocks);
      },
      iv0, want_iv, bs, s, burn, out_msg, in_msg);
}

/* T *= alpha in GF(2^128) (IEEE 1619-2018 5.2): the 16 bytes are a
 * little-endian integer shifted left by one, the bit shifted out folded
 * back as 0x87.  Byte-wise and branch-free.  */
void
xts_double (unsigned char *t)
{
  unsigned int carry = t[15] >> 7;
  for (size_t i = 15; i > 0; i--)
    t[i] = (unsigned char)((t[i] << 1) | (t[i - 1] >> 7));
  t[0] = (unsigned char)((t[0] << 1) ^ (0x87 & (0u - carry)));
}

/* The frame of every helper: nothing to do for NBLOCKS 0, NO_SLOT when
 * the bulk slot is missing (HAVE_SLOT false), else BODY (s, burn) with
 * the scratch buffers for NBLOCKS blocks of BS bytes; then the scratch is
 * wiped and freed and the stack burned as deep as BODY reported.  */
template <class Body>
const char *
run_check (size_t nblocks, size_t bs, bool have_slot, const char *no_slot,
           Body &&body)
{
  if (!nblocks)
    return NULL;
  if (!have_slot)
    return no_slot;
  scratch s {};
  if (!s.init (nblocks, bs))
    return "selftest: out of core";
  unsigned int burn = 0;
  const char *err = body (s, burn);
  s.done ();
  _gcry_burn_stack (burn);
  return err;
}

} // namespace

/* CTR: the counter starts close below a carry out of the low 64 bits, so
 * a run of NBLOCKS crosses it; a second run starts at all-ones (wrap at
 * 2^(8*blocksize)).  */
const char *
_gcry_selftest_helper_ctr (const char *, const cipher_spec *spec,
                           void *ctx, const cipher_bulk_ops *bulk,
                           size_t nblocks)
{
  const size_t bs = spec->blocksize;
  return run_check (nblocks, bs, bulk->ctr16be_enc && bs == 16,
                    "selftest: no 16-byte CTR bulk function",
                    [&] (scratch &s, unsigned int &burn) -> const char * {
    unsigned char iv0[MAX_BLOCKSIZE], ctr[MAX_BLOCKSIZE], ks[MAX_BLOCKSIZE];
    const char *err = NULL;
    fill_pattern (s.in, s.len, 1);
    for (int run = 0; run < 2 && !err; run++)
      {
        for (size_t i = 0; i < bs; i++)
          iv0[i] = (unsigned char)(0xf0 + i);
        if (run == 0)
          {
            memset (iv0 + 8, 0xff, 8);
            iv0[15] = (unsigned char)(0xff - nblocks / 2);
          }
        else
          memset (iv0, 0xff, bs);

        memcpy (ctr, iv0, bs);
        for (size_t b = 0; b < nblocks; b++)
          {
            burn = maxu (burn, spec->encrypt (ctx, ks, ctr));
            cipher_block_xor (s.expect + b * bs, s.in + b * bs, ks, bs);
            ctr_inc (ctr, bs);
          }
        err = compare_chained (
            bulk->ctr16be_enc, ctx, iv0, ctr, s, bs, nblocks, &burn,
            "selftest: CTR bulk differs from single-block (out of place)",
            "selftest: CTR bulk differs from single-block (in place)");
      }
    wipememory (ks, sizeof ks);
    return err;
  });
}

/* CBC decryption: P_i = D(C_i) ^ C_{i-1}, C_{-1} = IV.  */
const char *
_gcry_selftest_helper_cbc (const char *, const cipher_spec *spec,
                           void *ctx, const cipher_bulk_ops *bulk,
                           size_t nblocks)
{
  const size_t bs = spec->blocksize;
  return run_check (nblocks, bs, bulk->cbc_dec && bs <= MAX_BLOCKSIZE,
                    "selftest: no CBC-decryption bulk function",
                    [&] (scratch &s, unsigned int &burn) -> const char * {
    unsigned char iv0[MAX_BLOCKSIZE], blk[MAX_BLOCKSIZE];
    fill_pattern (s.in, s.len, 2);
    fill_pattern (iv0, bs, 3);
    for (size_t b = 0; b < nblocks; b++)
      {
        burn = maxu (burn, spec->decrypt (ctx, blk, s.in + b * bs));
        cipher_block_xor (s.expect + b * bs, blk,
                          b ? s.in + (b - 1) * bs : iv0, bs);
      }
    wipememory (blk, sizeof blk);
    return compare_chained (
        bulk->cbc_dec, ctx, iv0, s.in + (nblocks - 1) * bs, s, bs, nblocks,
        &burn, "selftest: CBC-dec bulk differs from single-block (out of place)",
        "selftest: CBC-dec bulk differs from single-block (in place)");
  });
}

/* CFB-128 decryption: P_i = E(C_{i-1}) ^ C_i, C_{-1} = IV.  */
const char *
_gcry_selftest_helper_cfb (const char *, const cipher_spec *spec,
                           void *ctx, const cipher_bulk_ops *bulk,
                           size_t nblocks)
{
  const size_t bs = spec->blocksize;
  return run_check (nblocks, bs, bulk->cfb_dec && bs <= MAX_BLOCKSIZE,
                    "selftest: no CFB-decryption bulk function",
                    [&] (scratch &s, unsigned int &burn) -> const char * {
    unsigned char iv0[MAX_BLOCKSIZE], blk[MAX_BLOCKSIZE];
    fill_pattern (s.in, s.len, 4);
    fill_pattern (iv0, bs, 5);
    for (size_t b = 0; b < nblocks; b++)
      {
        burn = maxu (burn, spec->encrypt (ctx, blk,
                                          b ? s.in + (b - 1) * bs : iv0));
        cipher_block_xor (s.expect + b * bs, blk, s.in + b * bs, bs);
      }
    wipememory (blk, sizeof blk);
    return compare_chained (
        bulk->cfb_dec, ctx, iv0, s.in + (nblocks - 1) * bs, s, bs, nblocks,
        &burn, "selftest: CFB-dec bulk differs from single-block (out of place)",
        "selftest: CFB-dec bulk differs from single-block (in place)");
  });
}

/* CTR with a 32-bit little-endian counter in bytes 0..3 (RFC 8452 4):
 * bytes 4..15 never change, the counter wraps mod 2^32.  The first run
 * starts NBLOCKS / 2 below the wrap, so it crosses 2^32 mid-call (inside
 * a wide batch for NBLOCKS = lanes + 1 or + 2); the second starts at
 * 0xffffffff, so the very first increment wraps.  */
const char *
_gcry_selftest_helper_ctr32le (const char *, const cipher_spec *spec,
                               void *ctx, const cipher_bulk_ops *bulk,
                               size_t nblocks)
{
  const size_t bs = spec->blocksize;
  return run_check (nblocks, bs, bulk->ctr32le_enc && bs == 16,
                    "selftest: no 32-bit LE CTR bulk function",
                    [&] (scratch &s, unsigned int &burn) -> const char * {
    unsigned char iv0[16], ctr[16], ks[16];
    const char *err = NULL;
    fill_pattern (s.in, s.len, 6);
    for (int run = 0; run < 2 && !err; run++)
      {
        fill_pattern (iv0, bs, 7);
        uint32_t start = run == 0 ? 0xffffffffu - (uint32_t)(nblocks / 2)
                                  : 0xffffffffu;
        for (int i = 0; i < 4; i++)
          iv0[i] = (unsigned char)(start >> (8 * i));

        memcpy (ctr, iv0, bs);
        for (size_t b = 0; b < nblocks; b++)
          {
            burn = maxu (burn, spec->encrypt (ctx, ks, ctr));
            cipher_block_xor (s.expect + b * bs, s.in + b * bs, ks, bs);
            uint32_t v = (uint32_t)ctr[0] | (uint32_t)ctr[1] << 8
                         | (uint32_t)ctr[2] << 16 | (uint32_t)ctr[3] << 24;
            v++;
            for (int i = 0; i < 4; i++)
              ctr[i] = (unsigned char)(v >> (8 * i));
          }
        err = compare_chained (
            bulk->ctr32le_enc, ctx, iv0, ctr, s, bs, nblocks, &burn,
            "selftest: CTR32LE bulk differs from single-block (out of place)",
            "selftest: CTR32LE bulk differs from single-block (in place)");
      }
    wipememory (ks, sizeof ks);
    return err;
  });
}

/* XTS over whole blocks (IEEE 1619-2018 5.3.1, 5.4.1), both directions:
 * C_j = E(P_j ^ T_j) ^ T_j, P_j = D(C_j ^ T_j) ^ T_j, T_{j+1} = T_j *
 * alpha; the running tweak must end as T_nblocks.  The start tweak has
 * its top bits set, so the first doublings fold 0x87 back in.  */
const char *
_gcry_selftest_helper_xts (const char *, const cipher_spec *spec,
                           void *ctx, const cipher_bulk_ops *bulk,
                           size_t nblocks)
{
  const size_t bs = spec->blocksize;
  return run_check (nblocks, bs, bulk->xts_crypt && bs == 16,
                    "selftest: no XTS bulk function",
                    [&] (scratch &s, unsigned int &burn) -> const char * {
    unsigned char t0[16], t[16], blk[16];
    const char *err = NULL;
    fill_pattern (t0, bs, 9);
    t0[15] = 0xf5;         /* 1111 0101: carries on doublings 1-4, 6, 8.  */
    for (int encrypt = 1; encrypt >= 0 && !err; encrypt--)
      {
        fill_pattern (s.in, s.len, encrypt ? 10 : 11);
        memcpy (t, t0, bs);
        for (size_t b = 0; b < nblocks; b++)
          {
            cipher_block_xor (blk, s.in + b * bs, t, bs);
            burn = maxu (burn, encrypt ? spec->encrypt (ctx, blk, blk)
                                       : spec->decrypt (ctx, blk, blk));
            cipher_block_xor (s.expect + b * bs, blk, t, bs);
            xts_double (t);
          }
        err = compare_bulk (
            [&] (unsigned char *tw, unsigned char *out,
                 const unsigned char *in) {
              return bulk->xts_crypt (ctx, tw, out, in, nblocks, encrypt);
            },
            t0, t, bs, s, &burn,
            encrypt ? "selftest: XTS-enc bulk differs from single-block (out of place)"
                    : "selftest: XTS-dec bulk differs from single-block (out of place)",
            encrypt ? "selftest: XTS-enc bulk differs from single-block (in place)"
                    : "selftest: XTS-dec bulk differs from single-block (in place)");
      }
    wipememory (blk, sizeof blk);
    wipememory (t, sizeof t);
    return err;
  });
}

/* ECB (SP 800-38A 6.1) in both directions, block by block.  */
const char *
_gcry_selftest_helper_ecb (const char *, const cipher_spec *spec,
                           void *ctx, const cipher_bulk_ops *bulk,
                           size_t nblocks)
{
  const size_t bs = spec->blocksize;
  return run_check (nblocks, bs, bulk->ecb_crypt && bs <= MAX_BLOCKSIZE,
                    "selftest: no ECB bulk function",
                    [&] (scratch &s, unsigned int &burn) -> const char * {
    const char *err = NULL;
    for (int encrypt = 1; encrypt >= 0 && !err; encrypt--)
      {
        fill_pattern (s.in, s.len, encrypt ? 12 : 13);
        for (size_t b = 0; b < nblocks; b++)
          burn = maxu (burn,
                       encrypt
                       ? spec->encrypt (ctx, s.expect + b * bs, s.in + b * bs)
                       : spec->decrypt (ctx, s.expect + b * bs, s.in + b * bs));
        err = compare_bulk (
            [&] (unsigned char *, unsigned char *out,
                 const unsigned char *in) {
              return bulk->ecb_crypt (ctx, out, in, nblocks, encrypt);
            },
            NULL, NULL, 0, s, &burn,
            encrypt ? "selftest: ECB-enc bulk differs from single-block (out of place)"
                    : "selftest: ECB-dec bulk differs from single-block (out of place)",
            encrypt ? "selftest: ECB-enc bulk differs from single-block (in place)"
                    : "selftest: ECB-dec bulk differs from single-block (in place)");
      }
    return err;
  });
}
