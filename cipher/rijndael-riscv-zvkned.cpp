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
 *  - XTS tweaks and OCB offsets are computed in general registers (public
 *    block index, constant-time doubling) and parked in the output
 *    blocks, then loaded back as a group.
 *
 * Nothing secret is stored on the stack except OCB-auth offsets, which
 * are wiped; every bulk call ends by zeroing the vector registers.
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

/* Call F<10>, F<12> or F<14> for the context's round count (F<.., B>
 * with a second template argument B).  */
#define ZVKNED_DISPATCH(ctx, f, ...)                                       \
  (((const RIJNDAEL_context *)(ctx))->rounds == 10 ? f<10> (__VA_ARGS__)  \
   : ((const RIJNDAEL_context *)(ctx))->rounds == 12 ? f<12> (__VA_ARGS__) \
   : f<14> (__VA_ARGS__))
#define ZVKNED_DISPATCH_B(ctx, f, b, ...)                                  \
  (((const RIJNDAEL_context *)(ctx))->rounds == 10                         \
   ? f<10, b> (__VA_ARGS__)                                                \
   : ((const RIJNDAEL_context *)(ctx))->rounds == 12                       \
   ? f<12, b> (__VA_ARGS__) : f<14, b> (__VA_ARGS__))

/* Load / store the group X, T, U at P (vl set by the caller).  */
inline __attribute__ ((always_inline)) void
load_x (const void *p)
{
  RVV_ASM ("vle32.v v16, (%0)", "r" (p));
}

inline __attribute__ ((always_inline)) void
store_x (void *p)
{
  RVV_ASM ("vse32.v v16, (%0)", "r" (p));
}

/* ---- Single blocks ------------------------------------------------ */

template <unsigned int ROUNDS, bool DECRYPT>
unsigned int
crypt1_t (const RIJNDAEL_context *ctx, unsigned char *out,
          const unsigned char *in)
{
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  load_x (in);
  crypt_x<ROUNDS, DECRYPT> ();
  store_x (out);
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
      vset_m4 (n);
      load_x (in);
      crypt_x<ROUNDS, DECRYPT> ();
      store_x (out);
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
    ZVKNED_DISPATCH_B (ctx, ecb_t, false, c, o, i, nblocks);
  else
    ZVKNED_DISPATCH_B (ctx, ecb_t, true, c, o, i, nblocks);
  vclear_all ();
  return 0;
}

/* ---- Serial modes: CBC-enc, CFB-enc, OFB (SP 800-38A 6.2-6.4) ------- */

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
template <unsigned int ROUNDS>
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
  RVV_ASM ("vle32.v v16, (%0)\n\t"
           "vle32.v v20, (%1)\n\t"
           "vxor.vv v16, v16, v20\n\t"
           "vxor.vv v16, v16, v1", "r" (iv), "r" (in));
  for (; nblocks > 1; nblocks--)
    {
      in += 16;
      /* Off the chain: v24 = k_Nr ^ k_0 ^ P_(i+1), v25 = P_(i+1) ^ k_0. */
      RVV_ASM ("vle32.v v20, (%0)\n\t"
               "vxor.vv v24, v31, v20\n\t"
               "vxor.vv v25, v20, v1", "r" (in));
      enc_x_mid<ROUNDS> ();
      RVV_ASM ("vaesef.vs v16, v24\n\t"
               "vxor.vv v28, v16, v25\n\t"
               "vse32.v v28, (%0)", "r" (out));
      out += ostep;
    }
  enc_x_mid<ROUNDS> ();
  final_round_x<ROUNDS> ();
  RVV_ASM ("vse32.v v16, (%0)\n\t"
           "vse32.v v16, (%1)", "r" (out), "r" (iv));
  return 0;
}

/* The plain chain: X = C_(i-1) ^ P_i, round 0, rounds 1..Nr.  */
template <unsigned int ROUNDS>
unsigned int
cbc_enc_plain_t (const RIJNDAEL_context *ctx, unsigned char *iv,
                 unsigned char *out, const unsigned char *in, size_t nblocks,
                 int cbc_mac)
{
  const size_t ostep = cbc_mac ? 0 : 16;
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  load_x (iv);
  for (; nblocks; nblocks--)
    {
      RVV_ASM ("vle32.v v20, (%0)\n\t"
               "vxor.vv v16, v16, v20", "r" (in));
      enc_x<ROUNDS> ();
      store_x (out);
      in += 16;
      out += ostep;
    }
  store_x (iv);
  return 0;
}

/* CFB encryption, shortened chain: X = C_(i-1) ^ k_0 at the top; the
 * final round takes k_Nr ^ k_0 ^ P_i and leaves C_i ^ k_0, the next
 * block's round-1 input; C_i = X ^ k_0 beside the chain.  */
template <unsigned int ROUNDS>
unsigned int
cfb_enc_short_t (const RIJNDAEL_context *ctx, unsigned char *iv,
                 unsigned char *out, const unsigned char *in, size_t nblocks)
{
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  last_key_xor_first<ROUNDS> ();
  RVV_ASM ("vle32.v v16, (%0)\n\t"
           "vxor.vv v16, v16, v1", "r" (iv));
  for (; nblocks; nblocks--)
    {
      RVV_ASM ("vle32.v v20, (%0)\n\t"
               "vxor.vv v24, v31, v20", "r" (in));
      enc_x_mid<ROUNDS> ();
      RVV_ASM ("vaesef.vs v16, v24\n\t"
               "vxor.vv v28, v16, v1\n\t"
               "vse32.v v28, (%0)", "r" (out));
      in += 16;
      out += 16;
    }
  RVV_ASM ("vxor.vv v16, v16, v1\n\t"
           "vse32.v v16, (%0)", "r" (iv));
  return 0;
}

template <unsigned int ROUNDS>
unsigned int
cfb_enc_plain_t (const RIJNDAEL_context *ctx, unsigned char *iv,
                 unsigned char *out, const unsigned char *in, size_t nblocks)
{
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  load_x (iv);
  for (; nblocks; nblocks--)
    {
      enc_x<ROUNDS> ();
      RVV_ASM ("vle32.v v20, (%0)\n\t"
               "vxor.vv v16, v16, v20\n\t"
               "vse32.v v16, (%1)", "r" (in), "r" (out));
      in += 16;
      out += 16;
    }
  store_x (iv);
  return 0;
}

/* OFB, shortened chain: X = O_(i-1) ^ k_0; the final round takes
 * k_Nr ^ k_0 and leaves O_i ^ k_0; C_i = X ^ (P_i ^ k_0).  */
template <unsigned int ROUNDS>
unsigned int
ofb_short_t (const RIJNDAEL_context *ctx, unsigned char *iv,
             unsigned char *out, const unsigned char *in, size_t nblocks)
{
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  last_key_xor_first<ROUNDS> ();
  RVV_ASM ("vle32.v v16, (%0)\n\t"
           "vxor.vv v16, v16, v1", "r" (iv));
  for (; nblocks; nblocks--)
    {
      RVV_ASM ("vle32.v v20, (%0)\n\t"
               "vxor.vv v24, v20, v1", "r" (in));
      enc_x_mid<ROUNDS> ();
      RVV_ASM ("vaesef.vs v16, v31\n\t"
               "vxor.vv v28, v16, v24\n\t"
               "vse32.v v28, (%0)", "r" (out));
      in += 16;
      out += 16;
    }
  RVV_ASM ("vxor.vv v16, v16, v1\n\t"
           "vse32.v v16, (%0)", "r" (iv));
  return 0;
}

template <unsigned int ROUNDS>
unsigned int
ofb_plain_t (const RIJNDAEL_context *ctx, unsigned char *iv,
             unsigned char *out, const unsigned char *in, size_t nblocks)
{
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  load_x (iv);
  for (; nblocks; nblocks--)
    {
      enc_x<ROUNDS> ();
      RVV_ASM ("vle32.v v20, (%0)\n\t"
               "vxor.vv v24, v16, v20\n\t"
               "vse32.v v24, (%1)", "r" (in), "r" (out));
      in += 16;
      out += 16;
    }
  store_x (iv);
  return 0;
}

#define ZVKNED_SERIAL(name, tmpl, ...)                                   \
  unsigned int name (void *ctx, unsigned char *iv, void *out,          \
                     const void *in, size_t nblocks __VA_ARGS__)       \
  {                                                                    \
    if (nblocks)                                                       \
      ZVKNED_DISPATCH (ctx, tmpl, (const RIJNDAEL_context *)ctx, iv,   \
                       (unsigned char *)out, (const unsigned char *)in, \
                       nblocks ZVKNED_EXTRA);                          \
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
  RVV_ASM ("vle32.v v20, (%0)", "r" (iv));
  while (nblocks)
    {
      size_t n = nblocks < g ? nblocks : g;
      vset_m4 (n);
      RVV_ASM ("vle32.v v16, (%0)\n\t"
               "vslideup.vi v20, v16, 4\n\t"
               "vslidedown.vx v24, v16, %1", "r" (in), "r" (4 * (n - 1)));
      dec_x<ROUNDS> ();
      RVV_ASM ("vxor.vv v16, v16, v20\n\t"
               "vse32.v v16, (%0)\n\t"
               "vmv1r.v v20, v24", "r" (out));
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
  vset_m1 ();
  RVV_ASM ("vse32.v v20, (%0)", "r" (iv));
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
  load_x (iv);
  while (nblocks)
    {
      size_t n = nblocks < g ? nblocks : g;
      vset_m4 (n);
      RVV_ASM ("vle32.v v24, (%0)\n\t"
               "vslideup.vi v16, v24, 4\n\t"
               "vslidedown.vx v20, v24, %1", "r" (in), "r" (4 * (n - 1)));
      enc_x<ROUNDS> ();
      RVV_ASM ("vxor.vv v16, v16, v24\n\t"
               "vse32.v v16, (%0)\n\t"
               "vmv1r.v v16, v20", "r" (out));
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
  vset_m1 ();
  store_x (iv);
  return 0;
}

unsigned int
zvkned_cbc_dec (void *ctx, unsigned char *iv, void *out, const void *in,
                size_t nblocks)
{
  if (nblocks)
    ZVKNED_DISPATCH (ctx, cbc_dec_t, (const RIJNDAEL_context *)ctx, iv,
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
    ZVKNED_DISPATCH (ctx, cfb_dec_t, (const RIJNDAEL_context *)ctx, iv,
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
      vset_m4 (n);
      if (KIND == CTR_BE32)
        RVV_ASM0 ("vrev8.v v16, v20");
      else
        RVV_ASM0 ("vmv.v.v v16, v20");
      enc_x<ROUNDS> ();
      RVV_ASM ("vle32.v v24, (%0)\n\t"
               "vxor.vv v16, v16, v24\n\t"
               "vse32.v v16, (%1)\n\t"
               "vadd.vx v20, v20, %2, v0.t",
               "r" (in), "r" (out), "r" (n));
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
    ZVKNED_DISPATCH (ctx, ctr16be_t, (const RIJNDAEL_context *)ctx, ctr,
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
    ZVKNED_DISPATCH (ctx, ctr32le_t, (const RIJNDAEL_context *)ctx, ctr,
                     (unsigned char *)out, (const unsigned char *)in,
                     nblocks);
  vclear_all ();
  return 0;
}

/* ---- XTS (IEEE 1619-2018 5.3) ---------------------------------------- */

/* T_j * alpha (IEEE 1619-2018 5.2) on the little-endian halves, the
 * reduction 0x87 by mask, not by branch.  */
inline void
xts_double (uint64_t &lo, uint64_t &hi)
{
  uint64_t carry = (uint64_t)((int64_t)hi >> 63) & 0x87;
  hi = (hi << 1) | (lo >> 63);
  lo = (lo << 1) ^ carry;
}

/* C_j = E(P_j ^ T_j) ^ T_j (decryption: D).  The group's input is loaded
 * first, then its tweaks are written to OUT and loaded back as T, so
 * IN == OUT works.  */
template <unsigned int ROUNDS, bool DECRYPT>
void
xts_t (const RIJNDAEL_context *ctx, unsigned char *tweak, unsigned char *out,
       const unsigned char *in, size_t nblocks)
{
  const size_t g = group_blocks ();
  uint64_t lo = buf_get_le64 (tweak), hi = buf_get_le64 (tweak + 8);
  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  while (nblocks)
    {
      size_t n = nblocks < g ? nblocks : g;
      vset_m4 (n);
      load_x (in);
      for (size_t i = 0; i < n; i++)
        {
          buf_put_le64 (out + 16 * i, lo);
          buf_put_le64 (out + 16 * i + 8, hi);
          xts_double (lo, hi);
        }
      RVV_ASM ("vle32.v v20, (%0)\n\t"
               "vxor.vv v16, v16, v20", "r" (out));
      crypt_x<ROUNDS, DECRYPT> ();
      RVV_ASM ("vxor.vv v16, v16, v20\n\t"
               "vse32.v v16, (%0)", "r" (out));
      in += 16 * n;
      out += 16 * n;
      nblocks -= n;
    }
  buf_put_le64 (tweak, lo);
  buf_put_le64 (tweak + 8, hi);
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
        ZVKNED_DISPATCH_B (ctx, xts_t, false, c, tweak, o, i, nblocks);
      else
        ZVKNED_DISPATCH_B (ctx, xts_t, true, c, tweak, o, i, nblocks);
    }
  vclear_all ();
  /* The running tweak halves may have been spilled.  */
  return 64;
}

/* ---- OCB (RFC 7253 4.1-4.3) ------------------------------------------ */

/* Offset_i = Offset_(i-1) ^ L_ntz(i) for the next N blocks, written to
 * DST (16 bytes each); OFF is the running offset (two LE halves).  */
inline void
ocb_offsets (const ocb_state *s, uint64_t &blkn, uint64_t off[2],
             unsigned char *dst, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      const unsigned char *l = s->L[ocb_ntz (++blkn)];
      off[0] ^= buf_get_le64 (l);
      off[1] ^= buf_get_le64 (l + 8);
      buf_put_le64 (dst + 16 * i, off[0]);
      buf_put_le64 (dst + 16 * i + 8, off[1]);
    }
}

/* U = 0 over all G lanes, then the 16 bytes at P into lane 0.  */
inline __attribute__ ((always_inline)) void
u_start (const unsigned char *p, size_t g)
{
  vset_m4 (g);
  RVV_ASM ("vmv.v.i v24, 0\n\t"
           "vsetivli zero, 4, e32, m1, tu, mu\n\t"
           "vle32.v v24, (%0)", "r" (p));
}

/* C_i = Offset_i ^ E(P_i ^ Offset_i), Checksum ^= P_i (decryption: D,
 * the recovered P_i into the checksum).  The offsets are parked in OUT
 * after the input group is loaded; the checksum runs lane-wise in U and
 * is folded into c->ctr at the end.  */
template <unsigned int ROUNDS, bool DECRYPT>
void
ocb_crypt_t (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
             size_t nblocks)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c->ctx;
  ocb_state *s = ocb_state_of (c);
  const size_t g = group_blocks ();
  uint64_t blkn = s->data_nblocks;
  uint64_t off[2] = { buf_get_le64 (c->iv), buf_get_le64 (c->iv + 8) };

  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  u_start (c->ctr, g);
  size_t left = nblocks;
  while (left)
    {
      size_t n = left < g ? left : g;
      vset_m4 (n);
      load_x (in);
      ocb_offsets (s, blkn, off, out, n);
      if (!DECRYPT)
        RVV_ASM0 ("vxor.vv v24, v24, v16");
      RVV_ASM ("vle32.v v20, (%0)\n\t"
               "vxor.vv v16, v16, v20", "r" (out));
      crypt_x<ROUNDS, DECRYPT> ();
      RVV_ASM0 ("vxor.vv v16, v16, v20");
      if (DECRYPT)
        RVV_ASM0 ("vxor.vv v24, v24, v16");
      store_x (out);
      in += 16 * n;
      out += 16 * n;
      left -= n;
    }
  vset_m4 (g);
  fold_u_lanes (c->ctr, g);
  buf_put_le64 (c->iv, off[0]);
  buf_put_le64 (c->iv + 8, off[1]);
  s->data_nblocks = blkn;
}

size_t
zvkned_ocb_crypt (gcry_cipher_hd_t c, void *out, const void *in,
                  size_t nblocks, int encrypt)
{
  unsigned char *o = (unsigned char *)out;
  const unsigned char *i = (const unsigned char *)in;
  if (nblocks)
    {
      if (encrypt)
        ZVKNED_DISPATCH_B (c->ctx, ocb_crypt_t, false, c, o, i, nblocks);
      else
        ZVKNED_DISPATCH_B (c->ctx, ocb_crypt_t, true, c, o, i, nblocks);
    }
  vclear_all ();
  _gcry_burn_stack (64);
  return 0;
}

/* HASH (RFC 7253 4.1) over full AAD blocks: Sum ^= E(A_i ^ Offset_i).
 * The offsets of a group go through a stack buffer (wiped).  */
template <unsigned int ROUNDS>
unsigned int
ocb_auth_t (gcry_cipher_hd_t c, const unsigned char *abuf, size_t nblocks)
{
  const RIJNDAEL_context *ctx = (const RIJNDAEL_context *)c->ctx;
  ocb_state *s = ocb_state_of (c);
  const size_t g = group_blocks ();
  alignas (16) unsigned char offs[RVV_MAX_LANES * 16];
  uint64_t blkn = s->aad_nblocks;
  uint64_t off[2] = { buf_get_le64 (s->aad_offset),
                      buf_get_le64 (s->aad_offset + 8) };

  vset_m1 ();
  load_round_keys<ROUNDS> (enc_keys (ctx));
  u_start (s->aad_sum, g);
  while (nblocks)
    {
      size_t n = nblocks < g ? nblocks : g;
      ocb_offsets (s, blkn, off, offs, n);
      vset_m4 (n);
      RVV_ASM ("vle32.v v16, (%0)\n\t"
               "vle32.v v20, (%1)\n\t"
               "vxor.vv v16, v16, v20", "r" (abuf), "r" (offs));
      enc_x<ROUNDS> ();
      RVV_ASM0 ("vxor.vv v24, v24, v16");
      abuf += 16 * n;
      nblocks -= n;
    }
  vset_m4 (g);
  fold_u_lanes (s->aad_sum, g);
  buf_put_le64 (s->aad_offset, off[0]);
  buf_put_le64 (s->aad_offset + 8, off[1]);
  s->aad_nblocks = blkn;
  wipememory (offs, sizeof offs);
  return 0;
}

size_t
zvkned_ocb_auth (gcry_cipher_hd_t c, const void *abuf, size_t nblocks)
{
  if (nblocks)
    ZVKNED_DISPATCH (c->ctx, ocb_auth_t, c, (const unsigned char *)abuf,
                     nblocks);
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
  asm volatile (RVV_BEGIN "vle32.v v1, (%1)\n\t"
                "vse32.v v1, (%0)\n\t"
                KF1 (1) KF1 (2) KF1 (3) KF1 (4) KF1 (5) KF1 (6) KF1 (7)
                KF1 (8) KF1 (9) KF1 (10) RVV_END
                : "+r" (p) : "r" (key) : "memory");
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
  asm volatile (RVV_BEGIN "vle32.v v1, (%1)\n\t"
                "addi %1, %1, 16\n\t"
                "vle32.v v2, (%1)\n\t"
                "vse32.v v1, (%0)\n\t"
                "addi %0, %0, 16\n\t"
                "vse32.v v2, (%0)\n\t"
                KF2 (1, 2, 2) KF2 (2, 1, 3) KF2 (1, 2, 4) KF2 (2, 1, 5)
                KF2 (1, 2, 6) KF2 (2, 1, 7) KF2 (1, 2, 8) KF2 (2, 1, 9)
                KF2 (1, 2, 10) KF2 (2, 1, 11) KF2 (1, 2, 12) KF2 (2, 1, 13)
                KF2 (1, 2, 14) RVV_END
                : "+r" (p), "+r" (key) : : "memory");
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
  return ZVKNED_DISPATCH_B (ctx, crypt1_t, false,
                            (const RIJNDAEL_context *)ctx, out, in);
}

unsigned int
_gcry_aes_zvkned_decrypt (void *ctx, unsigned char *out,
                          const unsigned char *in)
{
  return ZVKNED_DISPATCH_B (ctx, crypt1_t, true,
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
