/* rijndael-riscv-zvkned.cpp - AES (FIPS-197) with the RISC-V vector AES
 * instructions (Zvkned; Zvkb for the counter byte swaps).
 *
 * Only called when hwf has riscv-v, riscv-zvkned and riscv-zvkb.  The
 * vector instructions come from the helpers of riscv-vcrypto-asm.h
 * (fixed registers: round keys in v1..v15, the state group X in
 * v16..v19); the loops are C++ here.
 *
 *  - Key schedule (FIPS-197 5.2): vaeskf1 for AES-128, vaeskf2 for
 *    AES-256; AES-192 has no instruction and uses the constant-time
 *    generic expansion.  Decryption runs the inverse cipher (FIPS-197
 *    5.3) on the same round keys in reverse order (vaesdm/vaesdf).
 *  - Parallel modes (ECB, CBC-dec, CFB-dec, CTR, ctr32le, XTS, OCB) are
 *    VLEN-agnostic: one LMUL-4 group holds VLEN/32 blocks (4 at VLEN
 *    128, 32 at 1024), every AES instruction works on all of them.
 *  - CBC-enc, CFB-enc and OFB run one block at a time and keep the
 *    block-to-block dependency chain down to the Nr AES instructions:
 *    round key 0 and the next data block are XORed into the last round
 *    key off the chain, the data loads issued before the rounds and the
 *    output XOR after them (the "shortened chain").  The plain chain
 *    (XOR, round 0, Nr rounds) stays available for the instruction-count
 *    comparison: environment GCIPHER_RISCV_AES_CHAIN=plain at setkey.
 *  - Counters: ctr16be keeps the counter blocks byte-swapped per 32-bit
 *    word (vrev8) so one masked vadd steps every lane's low word; a run
 *    never crosses a 2^32 boundary of the low word (the carry into the
 *    upper 96 bits is done between runs), so the common case has no slow
 *    path and the 2^128 wrap is exact.  ctr32le adds to word 0 as is.
 *  - XTS tweaks stay in a vector group: the next group's are the current
 *    ones times alpha^N (shifts, one gather, the 0x87 fold), no chain
 *    through general registers.  OCB offsets of a group aligned to the
 *    group size are Offset_b XOR a per-call prefix table of L_ntz(k)
 *    (RFC 7253 4.2; ntz of the public block index), one vector XOR.
 *  - Caller buffers (data, IV, counter, tweak, key) may have any
 *    alignment: they are moved as bytes (vle8/vse8), except in the serial
 *    modes when all are 4-byte aligned (checked once per call).
 *
 * Nothing secret is stored on the stack except the OCB offset table,
 * which is wiped; every bulk call ends by zeroing the vector registers.
 */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "rijndael-internal.h"
#include "cipher-ocb.h"
#include "cipher-gcm.h"
#include "riscv-vcrypto-asm.h"
#include "bufhelp.h"

namespace {

using namespace rvv;

inline const unsigned char *
enc_keys (const RIJNDAEL_context *ctx)
{
  return ctx->keys.ni.enc[0];
}

/* ---- Single blocks ------------------------------------------------ */

template <unsigned int ROUNDS, bool DECRYPT>
unsigned int
crypt1_t (const RIJNDAEL_context *ctx, unsigned char *out,
          const unsigned char *in)
{
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  RVV_LD_BLOCK ("v16", in);
  crypt_x<ROUNDS, DECRYPT> ();
  RVV_ST_BLOCK ("v16", out);
  vclear_all ();
  return 0;
}

/* ---- ECB ------------------------------------------------------------ */

template <unsigned int ROUNDS, bool DECRYPT>
void
ecb_t (const RIJNDAEL_context *ctx, unsigned char *out,
       const unsigned char *in, size_t nblocks)
{
  const size_t g = group_blocks ();
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  while (nblocks)
    {
      size_t n = nblocks < g ? nblocks : g;
      RVV_LD_GROUP ("v16", in, n);
      crypt_x<ROUNDS, DECRYPT> ();
      RVV_ST_GROUP ("v16", out, n);
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
}

unsigned int
zvkned_ecb_crypt (void *ctx, void *out, const void *in, size_t nblocks,
                  int encrypt)
{
  unsigned char *o = (unsigned char *)out;
  const unsigned char *i = (const unsigned char *)in;
  const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;
  if (encrypt)
    RIJNDAEL_DISPATCH_B (ctx, ecb_t, false, c, o, i, nblocks);
  else
    RIJNDAEL_DISPATCH_B (ctx, ecb_t, true, c, o, i, nblocks);
  vclear_all ();
  return 0;
}

/* ---- Serial modes: CBC-enc, CFB-enc, OFB (SP 800-38A 6.2-6.4) ------- */

/* The serial modes move one block per load and store, so their
 * buffers are checked once per call: all three 4-byte aligned, vle32 /
 * vse32 directly; else bytes (riscv-vcrypto-asm.h).  */
inline bool
words_aligned (const void *a, const void *b, const void *c)
{
  return !(((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) & 3);
}

#define LD_BLOCK_A(reg, p)                                              \
  do { if constexpr (ALIGNED) RVV_ASM ("vle32.v " reg ", (%0)", "r" (p)); \
       else RVV_LD_BLOCK (reg, p); } while (0)
#define ST_BLOCK_A(reg, p)                                              \
  do { if constexpr (ALIGNED) RVV_ASM ("vse32.v " reg ", (%0)", "r" (p)); \
       else RVV_ST_BLOCK (reg, p); } while (0)

/* v31 = k_Nr ^ k_0 (vtype e32/m1).  */
template <unsigned int ROUNDS>
inline __attribute__ ((always_inline)) void
last_key_xor_first (void)
{
  RVV_BY_ROUNDS (ROUNDS, RVV_ASM0 ("vxor.vv v31, v11, v1"),
                 RVV_ASM0 ("vxor.vv v31, v13, v1"),
                 RVV_ASM0 ("vxor.vv v31, v15, v1"));
}

/* The final round of X with k_Nr (the chain's last block).  */
template <unsigned int ROUNDS>
inline __attribute__ ((always_inline)) void
final_round_x (void)
{
  RVV_BY_ROUNDS (ROUNDS, RVV_ASM0 ("vaesef.vs v16, v11"),
                 RVV_ASM0 ("vaesef.vs v16, v13"),
                 RVV_ASM0 ("vaesef.vs v16, v15"));
}

/* CBC encryption, shortened chain.  X holds C_(i-1) ^ P_i ^ k_0 at the
 * top of each block, so the chain is rounds 1..Nr only: the final round
 * takes k_Nr ^ k_0 ^ P_(i+1) (v24, computed before the rounds from the
 * early load of P_(i+1)) and leaves the next block's round-1 input;
 * C_i = X ^ (P_(i+1) ^ k_0) comes out beside the chain.  With CBC_MAC
 * each C_i overwrites OUT (not advanced).  */
template <unsigned int ROUNDS, bool ALIGNED>
unsigned int
cbc_enc_short_t (const RIJNDAEL_context *ctx, unsigned char *iv,
                 unsigned char *out, const unsigned char *in, size_t nblocks,
                 int cbc_mac)
{
  const size_t ostep = cbc_mac ? 0 : 16;
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  last_key_xor_first<ROUNDS> ();
  /* X = IV ^ P_0 ^ k_0.  */
  LD_BLOCK_A ("v16", iv);
  LD_BLOCK_A ("v20", in);
  RVV_ASM0 ("vxor.vv v16, v16, v20\n\t"
            "vxor.vv v16, v16, v1");
  for (; nblocks > 1; nblocks--)
    {
      in += 16;
      /* Off the chain: v24 = k_Nr ^ k_0 ^ P_(i+1), v25 = P_(i+1) ^ k_0. */
      LD_BLOCK_A ("v20", in);
      RVV_ASM0 ("vxor.vv v24, v31, v20\n\t"
                "vxor.vv v25, v20, v1");
      enc_x_mid<ROUNDS> ();
      RVV_ASM0 ("vaesef.vs v16, v24\n\t"
                "vxor.vv v28, v16, v25");
      ST_BLOCK_A ("v28", out);
      out += ostep;
    }
  enc_x_mid<ROUNDS> ();
  final_round_x<ROUNDS> ();
  ST_BLOCK_A ("v16", out);
  ST_BLOCK_A ("v16", iv);
  return 0;
}

/* The plain chain: X = C_(i-1) ^ P_i, round 0, rounds 1..Nr.  */
template <unsigned int ROUNDS, bool ALIGNED>
unsigned int
cbc_enc_plain_t (const RIJNDAEL_context *ctx, unsigned char *iv,
                 unsigned char *out, const unsigned char *in, size_t nblocks,
                 int cbc_mac)
{
  const size_t ostep = cbc_mac ? 0 : 16;
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  LD_BLOCK_A ("v16", iv);
  for (; nblocks; nblocks--)
    {
      LD_BLOCK_A ("v20", in);
      RVV_ASM0 ("vxor.vv v16, v16, v20");
      enc_x<ROUNDS> ();
      ST_BLOCK_A ("v16", out);
      in += 16;
      out += ostep;
    }
  ST_BLOCK_A ("v16", iv);
  return 0;
}

/* CFB encryption, shortened chain: X = C_(i-1) ^ k_0 at the top; the
 * final round takes k_Nr ^ k_0 ^ P_i and leaves C_i ^ k_0, the next
 * block's round-1 input; C_i = X ^ k_0 beside the chain.  */
template <unsigned int ROUNDS, bool ALIGNED>
unsigned int
cfb_enc_short_t (const RIJNDAEL_context *ctx, unsigned char *iv,
                 unsigned char *out, const unsigned char *in, size_t nblocks)
{
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  last_key_xor_first<ROUNDS> ();
  LD_BLOCK_A ("v16", iv);
  RVV_ASM0 ("vxor.vv v16, v16, v1");
  for (; nblocks; nblocks--)
    {
      LD_BLOCK_A ("v20", in);
      RVV_ASM0 ("vxor.vv v24, v31, v20");
      enc_x_mid<ROUNDS> ();
      RVV_ASM0 ("vaesef.vs v16, v24\n\t"
                "vxor.vv v28, v16, v1");
      ST_BLOCK_A ("v28", out);
      in += 16;
      out += 16;
    }
  RVV_ASM0 ("vxor.vv v16, v16, v1");
  ST_BLOCK_A ("v16", iv);
  return 0;
}

template <unsigned int ROUNDS, bool ALIGNED>
unsigned int
cfb_enc_plain_t (const RIJNDAEL_context *ctx, unsigned char *iv,
                 unsigned char *out, const unsigned char *in, size_t nblocks)
{
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  LD_BLOCK_A ("v16", iv);
  for (; nblocks; nblocks--)
    {
      enc_x<ROUNDS> ();
      LD_BLOCK_A ("v20", in);
      RVV_ASM0 ("vxor.vv v16, v16, v20");
      ST_BLOCK_A ("v16", out);
      in += 16;
      out += 16;
    }
  ST_BLOCK_A ("v16", iv);
  return 0;
}

/* OFB, shortened chain: X = O_(i-1) ^ k_0; the final round takes
 * k_Nr ^ k_0 and leaves O_i ^ k_0; C_i = X ^ (P_i ^ k_0).  */
template <unsigned int ROUNDS, bool ALIGNED>
unsigned int
ofb_short_t (const RIJNDAEL_context *ctx, unsigned char *iv,
             unsigned char *out, const unsigned char *in, size_t nblocks)
{
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  last_key_xor_first<ROUNDS> ();
  LD_BLOCK_A ("v16", iv);
  RVV_ASM0 ("vxor.vv v16, v16, v1");
  for (; nblocks; nblocks--)
    {
      LD_BLOCK_A ("v20", in);
      RVV_ASM0 ("vxor.vv v24, v20, v1");
      enc_x_mid<ROUNDS> ();
      RVV_ASM0 ("vaesef.vs v16, v31\n\t"
                "vxor.vv v28, v16, v24");
      ST_BLOCK_A ("v28", out);
      in += 16;
      out += 16;
    }
  RVV_ASM0 ("vxor.vv v16, v16, v1");
  ST_BLOCK_A ("v16", iv);
  return 0;
}

template <unsigned int ROUNDS, bool ALIGNED>
unsigned int
ofb_plain_t (const RIJNDAEL_context *ctx, unsigned char *iv,
             unsigned char *out, const unsigned char *in, size_t nblocks)
{
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  LD_BLOCK_A ("v16", iv);
  for (; nblocks; nblocks--)
    {
      enc_x<ROUNDS> ();
      LD_BLOCK_A ("v20", in);
      RVV_ASM0 ("vxor.vv v24, v16, v20");
      ST_BLOCK_A ("v24", out);
      in += 16;
      out += 16;
    }
  ST_BLOCK_A ("v16", iv);
  return 0;
}

#define ZVKNED_SERIAL(name, tmpl, ...)                                   \
  unsigned int name (void *ctx, unsigned char *iv, void *out,          \
                     const void *in, size_t nblocks __VA_ARGS__)       \
  {                                                                    \
    const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;         \
    unsigned char *o = (unsigned char *)out;                           \
    const unsigned char *i = (const unsigned char *)in;                \
    if (nblocks && words_aligned (iv, o, i))                           \
      RIJNDAEL_DISPATCH_B (ctx, tmpl, true, c, iv, o, i,                 \
                         nblocks ZVKNED_EXTRA);                        \
    else if (nblocks)                                                  \
      RIJNDAEL_DISPATCH_B (ctx, tmpl, false, c, iv, o, i,                \
                         nblocks ZVKNED_EXTRA);                        \
    vclear_all ();                                                     \
    return 0;                                                          \
  }
#define ZVKNED_EXTRA
ZVKNED_SERIAL (zvkned_cfb_enc, cfb_enc_short_t)
ZVKNED_SERIAL (zvkned_cfb_enc_plain, cfb_enc_plain_t)
ZVKNED_SERIAL (zvkned_ofb_enc, ofb_short_t)
ZVKNED_SERIAL (zvkned_ofb_enc_plain, ofb_plain_t)
#undef ZVKNED_EXTRA
#define ZVKNED_EXTRA , cbc_mac
ZVKNED_SERIAL (zvkned_cbc_enc, cbc_enc_short_t, , int cbc_mac)
ZVKNED_SERIAL (zvkned_cbc_enc_plain, cbc_enc_plain_t, , int cbc_mac)
#undef ZVKNED_EXTRA
#undef ZVKNED_SERIAL
#undef LD_BLOCK_A
#undef ST_BLOCK_A

/* ---- CBC-dec, CFB-dec (SP 800-38A 6.2, 6.3) ------------------------ */

/* P_i = D(C_i) ^ C_(i-1).  T = the group's C_(i-1): its first block is
 * the chaining value (kept in v20 between groups), the rest the group's
 * ciphertext slid up by one block.  */
template <unsigned int ROUNDS>
unsigned int
cbc_dec_t (const RIJNDAEL_context *ctx, unsigned char *iv,
           unsigned char *out, const unsigned char *in, size_t nblocks)
{
  const size_t g = group_blocks ();
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  RVV_LD_BLOCK ("v20", iv);
  while (nblocks)
    {
      size_t n = nblocks < g ? nblocks : g;
      RVV_LD_GROUP ("v16", in, n);
      RVV_ASM ("vslideup.vi v20, v16, 4\n\t"
               "vslidedown.vx v24, v16, %0", "r" (4 * (n - 1)));
      dec_x<ROUNDS> ();
      RVV_ASM0 ("vxor.vv v16, v16, v20");
      RVV_ST_GROUP ("v16", out, n);
      RVV_ASM0 ("vmv1r.v v20, v24");
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
  RVV_ST_BLOCK ("v20", iv);
  return 0;
}

/* P_i = E(C_(i-1)) ^ C_i; X = the group's C_(i-1) built as in CBC.  */
template <unsigned int ROUNDS>
unsigned int
cfb_dec_t (const RIJNDAEL_context *ctx, unsigned char *iv,
           unsigned char *out, const unsigned char *in, size_t nblocks)
{
  const size_t g = group_blocks ();
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  RVV_LD_BLOCK ("v16", iv);
  while (nblocks)
    {
      size_t n = nblocks < g ? nblocks : g;
      RVV_LD_GROUP ("v24", in, n);
      RVV_ASM ("vslideup.vi v16, v24, 4\n\t"
               "vslidedown.vx v20, v24, %0", "r" (4 * (n - 1)));
      enc_x<ROUNDS> ();
      RVV_ASM0 ("vxor.vv v16, v16, v24");
      RVV_ST_GROUP ("v16", out, n);
      RVV_ASM0 ("vmv1r.v v16, v20");
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
  RVV_ST_BLOCK ("v16", iv);
  return 0;
}

unsigned int
zvkned_cbc_dec (void *ctx, unsigned char *iv, void *out, const void *in,
                size_t nblocks)
{
  if (nblocks)
    RIJNDAEL_DISPATCH (ctx, cbc_dec_t, (const RIJNDAEL_context *)ctx, iv,
                     (unsigned char *)out, (const unsigned char *)in,
                     nblocks);
  vclear_all ();
  return 0;
}

unsigned int
zvkned_cfb_dec (void *ctx, unsigned char *iv, void *out, const void *in,
                size_t nblocks)
{
  if (nblocks)
    RIJNDAEL_DISPATCH (ctx, cfb_dec_t, (const RIJNDAEL_context *)ctx, iv,
                     (unsigned char *)out, (const unsigned char *)in,
                     nblocks);
  vclear_all ();
  return 0;
}

/* ---- CTR ------------------------------------------------------------ */

enum ctr_kind
  {
    CTR_BE32,   /* 32-bit big-endian word 3 (SP 800-38A B.1 low bits,
                   SP 800-38D inc32): wraps mod 2^32.  */
    CTR_LE32    /* 32-bit little-endian word 0 (RFC 8452 4): wraps.  */
  };

/* NBLOCKS blocks of CTR keystream XOR IN -> OUT from the counter block
 * CTR, stepping only the 32-bit word of KIND (mod 2^32); CTR is not
 * updated.  T holds the group's counters, as loaded (LE32) or byte-
 * swapped per word (BE32: vrev8, so the masked vadd is the big-endian
 * add); v0 masks the counter word.  */
template <unsigned int ROUNDS, ctr_kind KIND>
void
ctr_run (const RIJNDAEL_context *ctx, const unsigned char *ctr,
         unsigned char *out, const unsigned char *in, size_t nblocks)
{
  const size_t g = group_blocks ();
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  vset_m4 (g);
  broadcast_block_to_t (ctr, g);
  lane_index_and_mask<KIND == CTR_BE32 ? 3 : 0> ();
  if (KIND == CTR_BE32)
    RVV_ASM0 ("vrev8.v v20, v20");
  RVV_ASM0 ("vadd.vv v20, v20, v28, v0.t");
  while (nblocks)
    {
      size_t n = nblocks < g ? nblocks : g;
      RVV_LD_GROUP ("v24", in, n);
      if (KIND == CTR_BE32)
        RVV_ASM0 ("vrev8.v v16, v20");
      else
        RVV_ASM0 ("vmv.v.v v16, v20");
      enc_x<ROUNDS> ();
      RVV_ASM0 ("vxor.vv v16, v16, v24");
      RVV_ST_GROUP ("v16", out, n);
      RVV_ASM ("vadd.vx v20, v20, %0, v0.t", "r" (n));
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
}

/* SP 800-38A 6.5 with the 128-bit big-endian counter (B.1): runs that
 * stop where the low 32-bit word wraps, the carry into the upper 96 bits
 * added between runs (the counter is public).  */
template <unsigned int ROUNDS>
unsigned int
ctr16be_t (const RIJNDAEL_context *ctx, unsigned char *ctr,
           unsigned char *out, const unsigned char *in, size_t nblocks)
{
  while (nblocks)
    {
      uint32_t low = buf_get_be32 (ctr + 12);
      uint64_t room = (UINT64_C (1) << 32) - low;
      size_t n = (uint64_t)nblocks < room ? nblocks : (size_t)room;
      ctr_run<ROUNDS, CTR_BE32> (ctx, ctr, out, in, n);
      buf_put_be32 (ctr + 12, low + (uint32_t)n);
      if ((uint64_t)n == room)
        for (int i = 11, carry = 1; i >= 0 && carry; i--)
          {
            ctr[i]++;
            carry = ctr[i] == 0;
          }
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
  return 0;
}

template <unsigned int ROUNDS>
unsigned int
ctr32le_t (const RIJNDAEL_context *ctx, unsigned char *ctr,
           unsigned char *out, const unsigned char *in, size_t nblocks)
{
  ctr_run<ROUNDS, CTR_LE32> (ctx, ctr, out, in, nblocks);
  buf_put_le32 (ctr, buf_get_le32 (ctr) + (uint32_t)nblocks);
  return 0;
}

unsigned int
zvkned_ctr16be_enc (void *ctx, unsigned char *ctr, void *out, const void *in,
                    size_t nblocks)
{
  if (nblocks)
    RIJNDAEL_DISPATCH (ctx, ctr16be_t, (const RIJNDAEL_context *)ctx, ctr,
                     (unsigned char *)out, (const unsigned char *)in,
                     nblocks);
  vclear_all ();
  return 0;
}

unsigned int
zvkned_ctr32le_enc (void *ctx, unsigned char *ctr, void *out, const void *in,
                    size_t nblocks)
{
  if (nblocks)
    RIJNDAEL_DISPATCH (ctx, ctr32le_t, (const RIJNDAEL_context *)ctx, ctr,
                     (unsigned char *)out, (const unsigned char *)in,
                     nblocks);
  vclear_all ();
  return 0;
}

/* ---- XTS (IEEE 1619-2018 5.3) ---------------------------------------- */

/* Tweak arithmetic (IEEE 1619-2018 5.2) on the tweak group T, all in
 * vector registers.  A tweak is the 128-bit little-endian integer of its
 * 16 bytes; at e64 its low half is an even element, its high half the
 * odd one after it.  Multiplying by alpha^s (0 <= s <= 32) is a 128-bit
 * shift left by s with the s bits pushed out (o) folded back as
 * o * 0x87 = o ^ o<<1 ^ o<<2 ^ o<<7 (below 2^39: no second fold):
 *
 *   R = (T >> 1) >> (63 - s)   even: carry lo -> hi; odd: o
 *   S = R with each even/odd pair swapped (vrgather by vid ^ 1)
 *   T = (T << s) ^ (even ? S ^ S<<1 ^ S<<2 ^ S<<7 : S)
 *
 * (the two-step right shift gives 0 for s = 0).  Uses X (v16) and W
 * (v28) as scratch, v0 = the even elements; vtype e64/m4 with vl =
 * 2 * group blocks set by the caller.  The shift is a scalar (every lane
 * alpha^s) or, for the first group, a vector (lane j: alpha^j).  */
inline __attribute__ ((always_inline)) void
xts_mul_fold_and_merge (void)
{
  /* U = R, X = S on entry; leaves T ^= the folded carry.  */
  RVV_ASM0 ("vid.v v28\n\t"
            "vxor.vi v28, v28, 1\n\t"
            "vrgather.vv v16, v24, v28\n\t"
            "vsll.vi v24, v16, 1\n\t"
            "vxor.vv v24, v24, v16\n\t"
            "vsll.vi v28, v16, 2\n\t"
            "vxor.vv v24, v24, v28\n\t"
            "vsll.vi v28, v16, 7\n\t"
            "vxor.vv v24, v24, v28\n\t"
            "vmerge.vvm v28, v16, v24, v0\n\t"
            "vxor.vv v20, v20, v28");
}

/* T (g lanes) = TWEAK * alpha^j in lane j.  Sets v0 (even elements) and
 * leaves vtype e64/m4, vl = 2 * g.  */
inline __attribute__ ((always_inline)) void
xts_first_tweaks (const unsigned char *tweak, size_t g)
{
  broadcast_block_to_t (tweak, g);
  RVV_ASM ("vsetvli zero, %0, e64, m4, ta, mu\n\t"
           "vid.v v28\n\t"
           "vand.vi v24, v28, 1\n\t"
           "vmseq.vi v0, v24, 0\n\t"
           "vsrl.vi v28, v28, 1\n\t"         /* s = lane */
           "vrsub.vx v16, v28, %1\n\t"       /* 63 - s */
           "vsrl.vi v24, v20, 1\n\t"
           "vsrl.vv v24, v24, v16\n\t"       /* R */
           "vsll.vv v20, v20, v28",           /* T << s */
           "r" (2 * g), "r" ((size_t)63));
  xts_mul_fold_and_merge ();
}

/* T *= alpha^S in every lane (vtype e64/m4 as above).  */
inline __attribute__ ((always_inline)) void
xts_step_tweaks (size_t s)
{
  RVV_ASM ("vsrl.vi v24, v20, 1\n\t"
           "vsrl.vx v24, v24, %0\n\t"
           "vsll.vx v20, v20, %1", "r" (63 - s), "r" (s));
  xts_mul_fold_and_merge ();
}

/* C_j = E(P_j ^ T_j) ^ T_j (decryption: D), IEEE 1619-2018 5.3.  The
 * tweaks of a group are made in T from the previous group's by one
 * multiplication by alpha^g (no general-register chain, nothing on the
 * stack); TWEAK ends as the tweak of the block after the last.  */
template <unsigned int ROUNDS, bool DECRYPT>
void
xts_t (const RIJNDAEL_context *ctx, unsigned char *tweak, unsigned char *out,
       const unsigned char *in, size_t nblocks)
{
  const size_t g = group_blocks ();
  size_t n = 0;
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  vset_m4 (g);
  xts_first_tweaks (tweak, g);
  while (nblocks)
    {
      if (n)
        xts_step_tweaks (n);
      n = nblocks < g ? nblocks : g;
      RVV_LD_GROUP ("v16", in, n);
      RVV_ASM0 ("vxor.vv v16, v16, v20");
      crypt_x<ROUNDS, DECRYPT> ();
      RVV_ASM0 ("vxor.vv v16, v16, v20");
      RVV_ST_GROUP ("v16", out, n);
      RVV_ASM ("vsetvli zero, %0, e64, m4, ta, mu", "r" (2 * g));
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
  /* The next tweak: lane 0 after one more step by the last group's size. */
  xts_step_tweaks (n);
  RVV_ST_BLOCK ("v20", tweak);
}

unsigned int
zvkned_xts_crypt (void *ctx, unsigned char *tweak, void *out, const void *in,
                  size_t nblocks, int encrypt)
{
  const RIJNDAEL_context *c = (const RIJNDAEL_context *)ctx;
  unsigned char *o = (unsigned char *)out;
  const unsigned char *i = (const unsigned char *)in;
  if (nblocks)
    {
      if (encrypt)
        RIJNDAEL_DISPATCH_B (ctx, xts_t, false, c, tweak, o, i, nblocks);
      else
        RIJNDAEL_DISPATCH_B (ctx, xts_t, true, c, tweak, o, i, nblocks);
    }
  vclear_all ();
  return 0;
}

/* ---- OCB (RFC 7253 4.1-4.3) ------------------------------------------ */

/* Offsets (RFC 7253 4.2: Offset_i = Offset_(i-1) ^ L_ntz(i), i the
 * public block index).  A group of G blocks (G a power of two) that
 * starts after block b, b a multiple of G, has for its lane j < G - 1
 *
 *   Offset_(b+1+j) = Offset_b ^ Q_j,   Q_j = L_ntz(1) ^ ... ^ L_ntz(j+1)
 *
 * (ntz (b + k) = ntz (k) for 0 < k < G), independent of b, and for the
 * last lane Q_(G-1) = Q_(G-2) ^ L_ntz(b+G).  So the Q table is made once
 * per call and a group's offsets are one broadcast of Offset_b and one
 * XOR; only the last lane's entry and the running offset are updated per
 * group in general registers.  Blocks before the first multiple of G get
 * their offsets one by one.  All buffers are 16-byte aligned (the L
 * table is, in the OCB state) so the 64-bit accesses are single loads
 * and stores; the caller wipes them.  */
struct ocb_offset_state
{
  const ocb_state *s;
  size_t g;                       /* Blocks per group.  */
  uint64_t blkn;                  /* Blocks done (b).  */
  alignas (16) uint64_t off[2];   /* Offset_b, little-endian halves.  */
  bool q_ready;
  alignas (16) uint64_t q[RVV_MAX_LANES * 2];   /* Q_j, or the offsets
                                                   of an unaligned run. */
};

inline const uint64_t *
ocb_l (const ocb_state *s, uint64_t i)
{
  return static_cast<const uint64_t *> (
      __builtin_assume_aligned (s->L[ocb_ntz (i)], 16));
}

inline void
ocb_offsets_start (ocb_offset_state &o, const ocb_state *s, size_t g,
                   uint64_t blkn, const unsigned char *offset)
{
  o.s = s;
  o.g = g;
  o.blkn = blkn;
  o.off[0] = buf_get_le64 (offset);
  o.off[1] = buf_get_le64 (offset + 8);
  o.q_ready = false;
}

/* T (v20) = the offsets of the next blocks: returns how many (at most
 * LEFT), with vtype e32/m4, vl = 4 * that set.  */
inline __attribute__ ((always_inline)) size_t
ocb_next_offsets (ocb_offset_state &o, size_t left)
{
  const size_t g = o.g;
  uint64_t *q = o.q;
  size_t n;
  if (o.blkn % g)
    {
      /* Up to the next multiple of G, one by one.  */
      n = g - (size_t)(o.blkn % g);
      n = n < left ? n : left;
      for (size_t i = 0; i < n; i++)
        {
          const uint64_t *l = ocb_l (o.s, ++o.blkn);
          o.off[0] ^= l[0];
          o.off[1] ^= l[1];
          q[2 * i] = o.off[0];
          q[2 * i + 1] = o.off[1];
        }
      o.q_ready = false;
      vset_m4 (n);
      RVV_ASM ("vle32.v v20, (%0)", "r" (q));
      return n;
    }
  if (!o.q_ready)
    {
      uint64_t a = 0, b = 0;
      for (size_t j = 0; j + 1 < g; j++)
        {
          const uint64_t *l = ocb_l (o.s, j + 1);
          a ^= l[0];
          b ^= l[1];
          q[2 * j] = a;
          q[2 * j + 1] = b;
        }
      o.q_ready = true;
    }
  n = g < left ? g : left;
  if (n == g)
    {
      const uint64_t *l = ocb_l (o.s, o.blkn + g);
      q[2 * g - 2] = q[2 * g - 4] ^ l[0];
      q[2 * g - 1] = q[2 * g - 3] ^ l[1];
    }
  /* T = Q ^ Offset_b in every lane (v0 = the odd e64 elements).  */
  RVV_ASM ("vsetvli zero, %1, e64, m4, ta, mu\n\t"
           "vid.v v28\n\t"
           "vand.vi v28, v28, 1\n\t"
           "vmsne.vi v0, v28, 0\n\t"
           "vlse64.v v28, (%0), zero\n\t"
           "vlse64.v v28, (%2), zero, v0.t\n\t"
           "vle64.v v20, (%3)\n\t"
           "vxor.vv v20, v20, v28\n\t"
           "vsetvli zero, %4, e32, m4, tu, mu",
           "r" (o.off), "r" (2 * n), "r" (o.off + 1), "r" (q), "r" (4 * n));
  o.off[0] ^= q[2 * n - 2];
  o.off[1] ^= q[2 * n - 1];
  o.blkn += n;
  return n;
}

inline void
ocb_offsets_end (ocb_offset_state &o, unsigned char *offset)
{
  buf_put_le64 (offset, o.off[0]);
  buf_put_le64 (offset + 8, o.off[1]);
}

/* C_i = Offset_i ^ E(P_i ^ Offset_i), Checksum ^= P_i (decryption: D,
 * the recovered P_i into the checksum).  The checksum runs lane-wise in
 * U and is folded into c->ctr at the end.  */
template <unsigned int ROUNDS, bool DECRYPT>
void
ocb_crypt_t (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
             size_t nblocks, ocb_offset_state &o)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c->ctx;
  ocb_state *s = ocb_state_of (c);
  const size_t g = group_blocks ();

  ocb_offsets_start (o, s, g, s->data_nblocks, c->iv);
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  sums_start (c->ctr, g);
  while (nblocks)
    {
      size_t n = ocb_next_offsets (o, nblocks);
      RVV_LD_GROUP ("v16", in, n);
      if (!DECRYPT)
        RVV_ASM0 ("vxor.vv v24, v24, v16");
      RVV_ASM0 ("vxor.vv v16, v16, v20");
      crypt_x<ROUNDS, DECRYPT> ();
      RVV_ASM0 ("vxor.vv v16, v16, v20");
      if (DECRYPT)
        RVV_ASM0 ("vxor.vv v24, v24, v16");
      RVV_ST_GROUP ("v16", out, n);
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
  vset_m4 (g);
  fold_u_lanes (c->ctr, g);
  ocb_offsets_end (o, c->iv);
  s->data_nblocks = o.blkn;
}

size_t
zvkned_ocb_crypt (gcry_cipher_hd_t c, void *out, const void *in,
                  size_t nblocks, int encrypt)
{
  ocb_offset_state o;
  unsigned char *op = (unsigned char *)out;
  const unsigned char *ip = (const unsigned char *)in;
  if (nblocks)
    {
      if (encrypt)
        RIJNDAEL_DISPATCH_B (c->ctx, ocb_crypt_t, false, c, op, ip, nblocks,
                             o);
      else
        RIJNDAEL_DISPATCH_B (c->ctx, ocb_crypt_t, true, c, op, ip, nblocks,
                             o);
      wipememory (&o, sizeof o);
    }
  vclear_all ();
  _gcry_burn_stack (64);
  return 0;
}

/* HASH (RFC 7253 4.1) over full AAD blocks: Sum ^= E(A_i ^ Offset_i).  */
template <unsigned int ROUNDS>
unsigned int
ocb_auth_t (gcry_cipher_hd_t c, const unsigned char *abuf, size_t nblocks,
            ocb_offset_state &o)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c->ctx;
  ocb_state *s = ocb_state_of (c);
  const size_t g = group_blocks ();

  ocb_offsets_start (o, s, g, s->aad_nblocks, s->aad_offset);
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  sums_start (s->aad_sum, g);
  while (nblocks)
    {
      size_t n = ocb_next_offsets (o, nblocks);
      RVV_LD_GROUP ("v16", abuf, n);
      RVV_ASM0 ("vxor.vv v16, v16, v20");
      enc_x<ROUNDS> ();
      RVV_ASM0 ("vxor.vv v24, v24, v16");
      abuf += 16 * n;
      nblocks -= n;
    }
  vset_m4 (g);
  fold_u_lanes (s->aad_sum, g);
  ocb_offsets_end (o, s->aad_offset);
  s->aad_nblocks = o.blkn;
  return 0;
}

size_t
zvkned_ocb_auth (gcry_cipher_hd_t c, const void *abuf, size_t nblocks)
{
  ocb_offset_state o;
  if (nblocks)
    {
      RIJNDAEL_DISPATCH (c->ctx, ocb_auth_t, c, (const unsigned char *)abuf,
                       nblocks, o);
      wipememory (&o, sizeof o);
    }
  vclear_all ();
  _gcry_burn_stack (64);
  return 0;
}

/* ---- Key schedule (FIPS-197 5.2) ----------------------------------- */

/* AES-128: vaeskf1.vi derives round key r from round key r-1 (v1).  */
void
setkey_128 (RIJNDAEL_context *ctx, const unsigned char *key)
{
#define KF1(r) "vaeskf1.vi v1, v1, " #r "\n\taddi %0, %0, 16\n\t" \
  "vse32.v v1, (%0)\n\t"
  unsigned char *p = ctx->keys.ni.enc[0];
  vset_m1 ();
  RVV_LD_BLOCK ("v1", key);
  asm volatile (RVV_BEGIN "vse32.v v1, (%0)\n\t"
                KF1 (1) KF1 (2) KF1 (3) KF1 (4) KF1 (5) KF1 (6) KF1 (7)
                KF1 (8) KF1 (9) KF1 (10) RVV_END
                : "+r" (p) : : "memory");
#undef KF1
}

/* AES-256: vaeskf2.vi takes round key r-2 in vd and r-1 in vs2 and
 * leaves round key r in vd; v1 and v2 alternate.  */
void
setkey_256 (RIJNDAEL_context *ctx, const unsigned char *key)
{
#define KF2(d, s, r) "vaeskf2.vi v" #d ", v" #s ", " #r "\n\t" \
  "addi %0, %0, 16\n\tvse32.v v" #d ", (%0)\n\t"
  unsigned char *p = ctx->keys.ni.enc[0];
  vset_m1 ();
  RVV_LD_BLOCK ("v1", key);
  RVV_LD_BLOCK ("v2", key + 16);
  asm volatile (RVV_BEGIN "vse32.v v1, (%0)\n\t"
                "addi %0, %0, 16\n\t"
                "vse32.v v2, (%0)\n\t"
                KF2 (1, 2, 2) KF2 (2, 1, 3) KF2 (1, 2, 4) KF2 (2, 1, 5)
                KF2 (1, 2, 6) KF2 (2, 1, 7) KF2 (1, 2, 8) KF2 (2, 1, 9)
                KF2 (1, 2, 10) KF2 (2, 1, 11) KF2 (1, 2, 12) KF2 (2, 1, 13)
                KF2 (1, 2, 14) RVV_END
                : "+r" (p) : : "memory");
#undef KF2
}

/* GCIPHER_RISCV_AES_CHAIN=plain selects the plain CBC/CFB/OFB
 * encryption chains (for the instruction-count report).  */
bool
plain_chain_requested (void)
{
  const char *v = secure_getenv ("GCIPHER_RISCV_AES_CHAIN");
  return v && !strcmp (v, "plain");
}

} // namespace

unsigned int
_gcry_aes_zvkned_setkey (RIJNDAEL_context *ctx, const unsigned char *key,
                         size_t keylen)
{
  unsigned int burn = 0;
  ctx->rounds = (unsigned int)(keylen / 4 + 6);
  if (keylen == 16)
    setkey_128 (ctx, key);
  else if (keylen == 32)
    setkey_256 (ctx, key);
  else
    burn = _gcry_aes_generic_expand_key (ctx->keys.ni.enc[0], key, keylen);
  vclear_all ();
  return burn;
}

unsigned int
_gcry_aes_zvkned_encrypt (void *ctx, unsigned char *out,
                          const unsigned char *in)
{
  return RIJNDAEL_DISPATCH_B (ctx, crypt1_t, false,
                            (const RIJNDAEL_context *)ctx, out, in);
}

unsigned int
_gcry_aes_zvkned_decrypt (void *ctx, unsigned char *out,
                          const unsigned char *in)
{
  return RIJNDAEL_DISPATCH_B (ctx, crypt1_t, true,
                            (const RIJNDAEL_context *)ctx, out, in);
}

void
_gcry_aes_zvkned_fill_bulk (cipher_bulk_ops *bulk)
{
  const bool plain = plain_chain_requested ();
  bulk->ecb_crypt = zvkned_ecb_crypt;
  bulk->cbc_enc = plain ? zvkned_cbc_enc_plain : zvkned_cbc_enc;
  bulk->cbc_dec = zvkned_cbc_dec;
  bulk->cfb_enc = plain ? zvkned_cfb_enc_plain : zvkned_cfb_enc;
  bulk->cfb_dec = zvkned_cfb_dec;
  bulk->ofb_enc = plain ? zvkned_ofb_enc_plain : zvkned_ofb_enc;
  bulk->ctr16be_enc = zvkned_ctr16be_enc;
  bulk->ctr32le_enc = zvkned_ctr32le_enc;
  bulk->xts_crypt = zvkned_xts_crypt;
  bulk->ocb_crypt = zvkned_ocb_crypt;
  bulk->ocb_auth = zvkned_ocb_auth;
  bulk->gcm_crypt = _gcry_aes_zvkned_gcm_crypt;  /* cipher-gcm-riscv-zvkg */
}
