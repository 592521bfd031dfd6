/* cipher-selftest.cpp - bulk-slot versus single-block self-test helpers.
 *
 * Each helper takes a context already keyed for one path and that path's
 * bulk table, runs the bulk slot over NBLOCKS blocks of fixed data (out of
 * place, then in place) and compares output and final IV/counter with the
 * same computation done block by block with SPEC's single-block functions
 * (NIST SP 800-38A 6.2, 6.3, 6.5).  Nothing random: a failure reproduces.
 * Return NULL on success, else a static description.
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

const char *
compare_chained (chained_bulk_fn fn, void *ctx, const unsigned char *iv0,
                 const unsigned char *want_iv, scratch &s, size_t bs,
                 size_t nblocks, unsigned int *burn, const char *out_msg,
                 const char *in_msg)
{
  unsigned char iv[MAX_BLOCKSIZE];
  memcpy (iv, iv0, bs);
  *burn = maxu (*burn, fn (ctx, iv, s.out, s.in, nblocks));
  if (memcmp (s.out, s.expect, s.len) || memcmp (iv, want_iv, bs))
    return out_msg;
  memcpy (s.tmp, s.in, s.len);
  memcpy (iv, iv0, bs);
  *burn = maxu (*burn, fn (ctx, iv, s.tmp, s.tmp, nblocks));
  if (memcmp (s.tmp, s.expect, s.len) || memcmp (iv, want_iv, bs))
    return in_msg;
  return NULL;
}

} // namespace

/* CTR: the counter starts close below a carry out of the low 64 bits, so
 * a run of NBLOCKS crosses it; a second run starts at all-ones (wrap at
 * 2^(8*blocksize)).  */
const char *
_gcry_selftest_helper_ctr (const char *cipher, const cipher_spec *spec,
                           void *ctx, const cipher_bulk_ops *bulk,
                           size_t nblocks)
{
  const size_t bs = spec->blocksize;
  unsigned char iv0[MAX_BLOCKSIZE], ctr[MAX_BLOCKSIZE];
  unsigned char ks[MAX_BLOCKSIZE];
  unsigned int burn = 0;
  const char *err = NULL;
  scratch s {};

  (void)cipher;
  if (!nblocks)
    return NULL;
  if (!bulk->ctr16be_enc || bs != 16)
    return "selftest: no 16-byte CTR bulk function";
  if (!s.init (nblocks, bs))
    return "selftest: out of core";
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
  s.done ();
  wipememory (ks, sizeof ks);
  _gcry_burn_stack (burn);
  return err;
}

/* CBC decryption: P_i = D(C_i) ^ C_{i-1}, C_{-1} = IV.  */
const char *
_gcry_selftest_helper_cbc (const char *cipher, const cipher_spec *spec,
                           void *ctx, const cipher_bulk_ops *bulk,
                           size_t nblocks)
{
  const size_t bs = spec->blocksize;
  unsigned char iv0[MAX_BLOCKSIZE];
  unsigned char blk[MAX_BLOCKSIZE];
  unsigned int burn = 0;
  const char *err = NULL;
  scratch s {};

  (void)cipher;
  if (!nblocks)
    return NULL;
  if (!bulk->cbc_dec || bs > MAX_BLOCKSIZE)
    return "selftest: no CBC-decryption bulk function";
  if (!s.init (nblocks, bs))
    return "selftest: out of core";
  fill_pattern (s.in, s.len, 2);
  fill_pattern (iv0, bs, 3);

  for (size_t b = 0; b < nblocks; b++)
    {
      burn = maxu (burn, spec->decrypt (ctx, blk, s.in + b * bs));
      cipher_block_xor (s.expect + b * bs, blk,
                        b ? s.in + (b - 1) * bs : iv0, bs);
    }

  err = compare_chained (
      bulk->cbc_dec, ctx, iv0, s.in + (nblocks - 1) * bs, s, bs, nblocks, &burn,
      "selftest: CBC-dec bulk differs from single-block (out of place)",
      "selftest: CBC-dec bulk differs from single-block (in place)");
  s.done ();
  wipememory (blk, sizeof blk);
  _gcry_burn_stack (burn);
  return err;
}

/* CFB-128 decryption: P_i = E(C_{i-1}) ^ C_i, C_{-1} = IV.  */
const char *
_gcry_selftest_helper_cfb (const char *cipher, const cipher_spec *spec,
                           void *ctx, const cipher_bulk_ops *bulk,
                           size_t nblocks)
{
  const size_t bs = spec->blocksize;
  unsigned char iv0[MAX_BLOCKSIZE];
  unsigned char blk[MAX_BLOCKSIZE];
  unsigned int burn = 0;
  const char *err = NULL;
  scratch s {};

  (void)cipher;
  if (!nblocks)
    return NULL;
  if (!bulk->cfb_dec || bs > MAX_BLOCKSIZE)
    return "selftest: no CFB-decryption bulk function";
  if (!s.init (nblocks, bs))
    return "selftest: out of core";
  fill_pattern (s.in, s.len, 4);
  fill_pattern (iv0, bs, 5);

  for (size_t b = 0; b < nblocks; b++)
    {
      burn = maxu (burn, spec->encrypt (ctx, blk,
                                        b ? s.in + (b - 1) * bs : iv0));
      cipher_block_xor (s.expect + b * bs, blk, s.in + b * bs, bs);
    }

  err = compare_chained (
      bulk->cfb_dec, ctx, iv0, s.in + (nblocks - 1) * bs, s, bs, nblocks, &burn,
      "selftest: CFB-dec bulk differs from single-block (out of place)",
      "selftest: CFB-dec bulk differs from single-block (in place)");
  s.done ();
  wipememory (blk, sizeof blk);
  _gcry_burn_stack (burn);
  return err;
}
