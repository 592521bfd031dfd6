/* cipher-gcm-riscv-zvkg.cpp - GHASH (NIST SP 800-38D 6.4) with the RISC-V
 * vector GHASH instructions (Zvkg), and the Zvkned AES path's stitched
 * CTR + GHASH (its gcm_crypt bulk slot).
 *
 * vghsh.vv vd, vs2, vs1 computes (vd ^ vs1) * vs2 in GF(2^128) on every
 * element group, all three in the byte order of the standard (SP 800-38D
 * 6.3), so no byte or bit reflection is needed.  The key area holds
 * H^32 .. H^1 (pow[k] = H^(32-k), 16 bytes each); a run of blocks is
 * hashed N lanes at a time (N = VLEN/32 blocks per LMUL-4 group, at most
 * 32):
 *
 *   lane j of the sum A starts as Y (j = 0) or 0; each group but the last
 *   does A = (A ^ X) * H^N; the last does A = (A ^ X) * H^(N-j) per lane;
 *   then Y = XOR of the lanes.
 *
 * which is Algorithm 2 of SP 800-38D 6.4 reassociated (the sum of
 * X_i * H^(n-i+1)).  A run whose length is not a multiple of N hashes its
 * first n mod N blocks the same way with N = n mod N first.
 *
 * Registers: riscv-vcrypto-asm.h (X = v16 group: data; T = v20: powers;
 * U = v24: lane sums; W = v28: scratch).  Everything ends zeroed.
 */
#include <config.h>
#include <string.h>
#include "cipher-gcm.h"
#include "rijndael-internal.h"
#include "riscv-vcrypto-asm.h"

namespace {

using namespace rvv;

constexpr size_t ZVKG_POWERS = RVV_MAX_LANES;

struct zvkg_key
{
  /* pow[k] = H^(ZVKG_POWERS - k): the powers for lanes 0..m-1 of an
   * m-block group start at pow[ZVKG_POWERS - m].  */
  alignas (16) unsigned char pow[ZVKG_POWERS][16];
};
static_assert (sizeof (zvkg_key) <= GCM_GHASH_KEY_SIZE);

inline const unsigned char *
powers_for (const zvkg_key *k, size_t m)
{
  return k->pow[ZVKG_POWERS - m];
}

unsigned int
zvkg_setkey (gcm_ghash_key *key, const unsigned char *h)
{
  zvkg_key *k = reinterpret_cast<zvkg_key *> (key->bytes);
  vset_m1 ();
  RVV_LD_BLOCK ("v20", h);
  RVV_ASM ("vmv.v.v v16, v20\n\t"
           "vse32.v v20, (%0)", "r" (k->pow[ZVKG_POWERS - 1]));
  for (size_t i = 2; i <= ZVKG_POWERS; i++)
    RVV_ASM ("vgmul.vv v16, v20\n\t"
             "vse32.v v16, (%0)", "r" (k->pow[ZVKG_POWERS - i]));
  vclear_all ();
  return 0;
}

/* Y = GHASH continued over M (<= group size) blocks at BUF in one group:
 * every lane gets its own power (the last group of a run).  */
inline void
ghash_one_group (const zvkg_key *k, unsigned char *y,
                 const unsigned char *buf, size_t m)
{
  sums_start (y, m);
  RVV_LD_GROUP ("v16", buf, m);
  RVV_ASM ("vle32.v v20, (%0)\n\t"
           "vghsh.vv v24, v20, v16", "r" (powers_for (k, m)));
  fold_u_lanes (y, m);
}

unsigned int
zvkg_ghash (const gcm_ghash_key *key, unsigned char *y,
            const unsigned char *buf, size_t nblocks)
{
  const zvkg_key *k = reinterpret_cast<const zvkg_key *> (key->bytes);
  if (!nblocks)
    return 0;
  const size_t g = group_blocks ();
  size_t head = nblocks % g;
  if (head)
    {
      ghash_one_group (k, y, buf, head);
      buf += 16 * head;
      nblocks -= head;
    }
  if (nblocks)
    {
      /* T = H^g in every lane; U = the lane sums.  */
      vset_m4 (g);
      broadcast_block_to_t (powers_for (k, g), g);
      sums_start (y, g);
      for (; nblocks > g; nblocks -= g, buf += 16 * g)
        {
          RVV_LD_GROUP ("v16", buf, g);
          RVV_ASM0 ("vghsh.vv v24, v20, v16");
        }
      RVV_LD_GROUP ("v16", buf, g);
      RVV_ASM ("vle32.v v20, (%0)\n\t"
               "vghsh.vv v24, v20, v16", "r" (powers_for (k, g)));
      fold_u_lanes (y, g);
    }
  vclear_all ();
  return 0;
}

/* ---- Stitched CTR + GHASH for the Zvkned AES path ------------------
 *
 * LMUL 2 here (the AES keys take v1..v15, and five groups are live):
 *   v16-17 X  AES states / output     v18-19 C  counters (vrev8 form)
 *   v20-21 D  input data              v22-23 A  GHASH lane sums
 *   v24-25 H  H^N in every lane       v26-27 P  H^N..H^1 (last group)
 *   v28-31 scratch; v0 the mask of word 3 (the inc32 word).  */

template <unsigned int ROUNDS, bool DECRYPT>
void
gcm_zvkned_t (const RIJNDAEL_context *ctx, gcm_state *st, unsigned char *ctr,
              unsigned char *out, const unsigned char *in, size_t ngroups,
              size_t g)
{
  const zvkg_key *k = reinterpret_cast<const zvkg_key *> (st->key.bytes);
  vset_m1 ();
  load_round_keys<ROUNDS> (ctx->keys.ni.enc[0]);
  /* C = the counter block in every lane, byte-swapped per word, lane j
   * + j in word 3; H = H^g in every lane; A = Y in lane 0.  */
  RVV_LD_BLOCK ("v26", ctr);
  RVV_ASM ("vle32.v v24, (%1)\n\t"
           "vsetvli zero, %2, e64, m2, ta, ma\n\t"
           "vid.v v28\n\t"
           "vand.vi v28, v28, 1\n\t"
           "vrgather.vv v18, v26, v28\n\t"
           "vmv.v.v v26, v24\n\t"
           "vrgather.vv v24, v26, v28\n\t"
           "vsetvli zero, %3, e32, m2, tu, mu\n\t"
           "vid.v v28\n\t"
           "vand.vi v30, v28, 3\n\t"
           "vmseq.vi v0, v30, 3\n\t"
           "vsrl.vi v28, v28, 2\n\t"
           "vrev8.v v18, v18\n\t"
           "vadd.vv v18, v18, v28, v0.t\n\t"
           "vmv.v.i v22, 0\n\t"
           "vsetivli zero, 16, e8, m1, tu, mu\n\t"
           "vle8.v v22, (%4)\n\t"
           "vsetvli zero, %3, e32, m2, tu, mu\n\t"
           "vle32.v v26, (%5)",
           "r" (ctr), "r" (powers_for (k, g)), "r" (2 * g), "r" (4 * g),
           "r" (st->y), "r" (powers_for (k, g)));
  for (size_t i = 0; i < ngroups; i++)
    {
      RVV_ASM ("vrev8.v v16, v18\n\t"
               "vadd.vx v18, v18, %0, v0.t", "r" (g));
      enc_x<ROUNDS> ();
      RVV_LD_GROUP_M2 ("v20", in, g);
      /* The last group multiplies lane j by H^(g-j) (P), the others by
       * H^g (H).  */
      const bool last = i + 1 == ngroups;
      if (DECRYPT)
        {
          if (last)
            RVV_ASM0 ("vghsh.vv v22, v26, v20");
          else
            RVV_ASM0 ("vghsh.vv v22, v24, v20");
        }
      RVV_ASM0 ("vxor.vv v16, v16, v20");
      RVV_ST_GROUP_M2 ("v16", out, g);
      if (!DECRYPT)
        {
          if (last)
            RVV_ASM0 ("vghsh.vv v22, v26, v16");
          else
            RVV_ASM0 ("vghsh.vv v22, v24, v16");
        }
      in += 16 * g;
      out += 16 * g;
    }
  /* Y = XOR of the lanes of A (e64: even elements the low halves).  */
  RVV_ASM ("vsetvli zero, %1, e64, m2, ta, ma\n\t"
           "vid.v v28\n\t"
           "vand.vi v28, v28, 1\n\t"
           "vmseq.vi v0, v28, 0\n\t"
           "vmv.v.i v28, 0\n\t"
           "vredxor.vs v30, v22, v28, v0.t\n\t"
           "vmnot.m v0, v0\n\t"
           "vredxor.vs v31, v22, v28, v0.t\n\t"
           "vsetivli zero, 2, e64, m1, ta, ma\n\t"
           "vslideup.vi v30, v31, 1\n\t"
           "vsetivli zero, 16, e8, m1, ta, ma\n\t"
           "vse8.v v30, (%0)", "r" (st->y), "r" (2 * g));
  /* inc32 (SP 800-38D 6.2) by the blocks done.  */
  uint32_t low = ((uint32_t)ctr[12] << 24) | ((uint32_t)ctr[13] << 16)
                 | ((uint32_t)ctr[14] << 8) | ctr[15];
  low += (uint32_t)(ngroups * g);
  ctr[12] = (unsigned char)(low >> 24);
  ctr[13] = (unsigned char)(low >> 16);
  ctr[14] = (unsigned char)(low >> 8);
  ctr[15] = (unsigned char)low;
}

} // namespace

const gcm_ghash_ops _gcry_ghash_ops_zvkg = { zvkg_setkey, zvkg_ghash, nullptr };

/* The Zvkned path's gcm_crypt slot: whole groups of N blocks (N = VLEN/64
 * at LMUL 2, at most 32) of GCM text with C->ctr as the next counter
 * block (inc32), GHASH with the "zvkg" key of C's GCM state.  Returns the
 * blocks left undone (all of them with another GHASH back end).  */
size_t
_gcry_aes_zvkned_gcm_crypt (gcry_cipher_hd_t c, void *out, const void *in,
                            size_t nblocks, int encrypt)
{
  gcm_state *st = static_cast<gcm_state *> (c->mode_ctx);
  const RIJNDAEL_context *ctx = static_cast<const RIJNDAEL_context *> (c->ctx);
  if (!st || st->ghash != &_gcry_ghash_ops_zvkg
      || ctx->path != RIJNDAEL_PATH_ZVKNED)
    return nblocks;
  const size_t g = group_blocks<2> ();
  const size_t ngroups = nblocks / g;
  if (!ngroups)
    return nblocks;
  unsigned char *o = static_cast<unsigned char *> (out);
  const unsigned char *i = static_cast<const unsigned char *> (in);
  if (encrypt)
    RIJNDAEL_DISPATCH_B (ctx, gcm_zvkned_t, false, ctx, st, c->ctr, o, i,
                         ngroups, g);
  else
    RIJNDAEL_DISPATCH_B (ctx, gcm_zvkned_t, true, ctx, st, c->ctr, o, i,
                         ngroups, g);
  vclear_all ();
  return nblocks - ngroups * g;
}
