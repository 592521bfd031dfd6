/* riscv-vcrypto-asm.h - RISC-V vector crypto (Zvkned, Zvkg, Zvkb) from
 * inline assembly: the register map and the small named helpers the
 * RISC-V files share (rijndael-riscv-zvkned.cpp, cipher-gcm-riscv-zvkg.cpp;
 * chacha20-riscv-v.cpp uses RVV_BEGIN / RVV_END and vclear_all with its
 * own register map).
 *
 * Why inline assembly with fixed registers: clang 19 assembles the vector
 * crypto instructions but exposes no intrinsics for them.  These files are
 * compiled for the base ISA (rv64gc) and every vector instruction comes
 * from an asm statement that enables the extensions locally
 * (".option arch, +v, ..."), so the compiler itself never emits a vector
 * instruction, never allocates a vector register and never touches vl or
 * vtype: values stay in the registers below from one asm statement to the
 * next.  That holds even when -march has V: the files are built with
 * RISCV_NOVEC_CXXFLAGS (configure.ac; no implicit vector memcpy, no
 * vectorizers).  Every statement is volatile (their order is kept) and
 * clobbers memory; no function (not even memcpy) is called between the
 * statements of a kernel (all vector registers and vtype are
 * caller-saved in the RISC-V psABI).
 *
 * Register map (RISC-V "V" 1.0, vector crypto 1.0: element groups of
 * 4 x 32-bit = one 128-bit block, EGS = 4, so vl is always a multiple of 4):
 *
 *   v0          mask
 *   v1 .. v15   AES round keys k_0 .. k_Nr (k_r in v(1+r)), FIPS-197 5.2
 *               byte order loaded as 32-bit little-endian elements
 *   v16 .. v19  X: the AES state group (LMUL 4; v16 alone at LMUL 1)
 *   v20 .. v23  T: second group (tweaks, chaining values, counters)
 *   v24 .. v27  U: third group (input data, checksums, GHASH sums)
 *   v28 .. v31  W: fourth group (scratch, lane indices, H powers)
 *
 * A parallel kernel sets vtype e32/m4 with vl = 4 * blocks (blocks <= the
 * group size: vl = AVL is then guaranteed, RVV 1.0 6.3), so one
 * instruction covers VLEN / 32 blocks: 4 at VLEN 128, 32 at VLEN 1024.
 * Kernels end by zeroing all 32 vector registers (vclear_all), so no key
 * or data is left behind.
 */
#ifndef GCIPHER_RISCV_VCRYPTO_ASM_H
#define GCIPHER_RISCV_VCRYPTO_ASM_H

#include <stddef.h>
#include <stdint.h>

/* Open / close an asm body with the vector crypto extensions enabled.  */
#define RVV_BEGIN ".option push\n\t.option arch, +v, +zvkned, +zvkb, +zvkg\n\t"
#define RVV_END "\n\t.option pop"

/* One volatile statement: BODY (a string literal) with the given input
 * operands; memory is clobbered (loads/stores and ordering).  */
#define RVV_ASM(body, ...) \
  asm volatile (RVV_BEGIN body RVV_END : : __VA_ARGS__ : "memory")
#define RVV_ASM0(body) asm volatile (RVV_BEGIN body RVV_END : : : "memory")

/* Blocks one LMUL-4 group holds at most (VLEN / 32); the kernels never
 * use more than RVV_MAX_LANES of them (so buffers sized by it suffice for
 * any VLEN, and the GHASH power table stays small).  */
#define RVV_MAX_LANES 32

namespace rvv {

/* Blocks per LMUL-4 group (LMUL 2 with LMUL = 2) on this CPU:
 * VLMAX(e32, LMUL) / 4, capped at RVV_MAX_LANES.  */
template <int LMUL = 4>
inline size_t
group_blocks (void)
{
  static_assert (LMUL == 2 || LMUL == 4);
  size_t vlmax;
  if constexpr (LMUL == 4)
    asm volatile (RVV_BEGIN "vsetvli %0, zero, e32, m4, ta, ma" RVV_END
                  : "=r" (vlmax) : : "memory");
  else
    asm volatile (RVV_BEGIN "vsetvli %0, zero, e32, m2, ta, ma" RVV_END
                  : "=r" (vlmax) : : "memory");
  vlmax /= 4;
  return vlmax < RVV_MAX_LANES ? vlmax : RVV_MAX_LANES;
}

/* vtype e32/m4, vl = 4 * N (N <= group_blocks ()), tail and mask
 * undisturbed: lanes past a short last group and masked-off elements keep
 * their values (running sums and counters live there).  */
inline __attribute__ ((always_inline)) void
vset_m4 (size_t n)
{
  RVV_ASM ("vsetvli zero, %0, e32, m4, tu, mu", "r" (4 * n));
}

/* vtype e32/m1, vl = 4: one block.  */
inline __attribute__ ((always_inline)) void
vset_m1 (void)
{
  RVV_ASM0 ("vsetivli zero, 4, e32, m1, ta, ma");
}

/* Zero every vector register (v0..v31).  */
inline __attribute__ ((always_inline)) void
vclear_all (void)
{
  size_t vl;
  asm volatile (RVV_BEGIN "vsetvli %0, zero, e8, m8, ta, ma\n\t"
                "vmv.v.i v0, 0\n\tvmv.v.i v8, 0\n\t"
                "vmv.v.i v16, 0\n\tvmv.v.i v24, 0" RVV_END
                : "=r" (vl) : : "memory");
}

} // namespace rvv

/* ---- Loads and stores of caller buffers ------------------------------
 * Data, IV, counter and key buffers come with any alignment, and a
 * vector access that is not aligned to its element size may trap
 * (address-misaligned; e.g. the SpacemiT X60 raises SIGBUS on a
 * misaligned vle32.v).  So they are moved as bytes (vle8/vse8, vtype
 * e8 for that one instruction), then vtype is set back: e32/m4 (m2 for
 * the _M2 forms) with vl = 4 * N for a group of N blocks, e32/m1 with
 * vl = 4 for one block.  Only the context's own 16-byte aligned tables
 * (round keys, H powers, OCB offsets) are loaded with vle32/vle64.  */
#define RVV_LD_GROUP(reg, p, n) \
  RVV_ASM ("vsetvli zero, %1, e8, m4, tu, mu\n\tvle8.v " reg ", (%0)\n\t" \
           "vsetvli zero, %2, e32, m4, tu, mu", \
           "r" (p), "r" (16 * (n)), "r" (4 * (n)))
#define RVV_ST_GROUP(reg, p, n) \
  RVV_ASM ("vsetvli zero, %1, e8, m4, tu, mu\n\tvse8.v " reg ", (%0)\n\t" \
           "vsetvli zero, %2, e32, m4, tu, mu", \
           "r" (p), "r" (16 * (n)), "r" (4 * (n)))
#define RVV_LD_GROUP_M2(reg, p, n) \
  RVV_ASM ("vsetvli zero, %1, e8, m2, tu, mu\n\tvle8.v " reg ", (%0)\n\t" \
           "vsetvli zero, %2, e32, m2, tu, mu", \
           "r" (p), "r" (16 * (n)), "r" (4 * (n)))
#define RVV_ST_GROUP_M2(reg, p, n) \
  RVV_ASM ("vsetvli zero, %1, e8, m2, tu, mu\n\tvse8.v " reg ", (%0)\n\t" \
           "vsetvli zero, %2, e32, m2, tu, mu", \
           "r" (p), "r" (16 * (n)), "r" (4 * (n)))
#define RVV_LD_BLOCK(reg, p) \
  RVV_ASM ("vsetivli zero, 16, e8, m1, ta, ma\n\tvle8.v " reg ", (%0)\n\t" \
           "vsetivli zero, 4, e32, m1, ta, ma", "r" (p))
#define RVV_ST_BLOCK(reg, p) \
  RVV_ASM ("vsetivli zero, 16, e8, m1, ta, ma\n\tvse8.v " reg ", (%0)\n\t" \
           "vsetivli zero, 4, e32, m1, ta, ma", "r" (p))

/* ---- AES round sequences on X (v16 group), keys in v1..v15 ---------- */
/* Middle rounds r = 2..Nr-1 of the cipher with round keys v(1+r)... the
 * strings below name the key registers directly.  */
#define RVV_EM(n) "vaesem.vs v16, v" #n "\n\t"
#define RVV_DM(n) "vaesdm.vs v16, v" #n "\n\t"
/* Encryption rounds 1..Nr-1 (keys k_1..k_{Nr-1} = v2..vNr).  */
#define RVV_EMID10 RVV_EM (2) RVV_EM (3) RVV_EM (4) RVV_EM (5) RVV_EM (6) \
  RVV_EM (7) RVV_EM (8) RVV_EM (9) RVV_EM (10)
#define RVV_EMID12 RVV_EMID10 RVV_EM (11) RVV_EM (12)
#define RVV_EMID14 RVV_EMID12 RVV_EM (13) RVV_EM (14)
/* Inverse-cipher middle rounds (FIPS-197 5.3: keys k_{Nr-1} .. k_1).  */
#define RVV_DMID10 RVV_DM (10) RVV_DM (9) RVV_DM (8) RVV_DM (7) RVV_DM (6) \
  RVV_DM (5) RVV_DM (4) RVV_DM (3) RVV_DM (2)
#define RVV_DMID12 RVV_DM (12) RVV_DM (11) RVV_DMID10
#define RVV_DMID14 RVV_DM (14) RVV_DM (13) RVV_DMID12

namespace rvv {

/* Load round keys k_0..k_Nr (16 bytes each, consecutive at K) into
 * v1..v(Nr+1).  Needs vtype e32/m1 (vset_m1).  */
template <unsigned int ROUNDS>
inline __attribute__ ((always_inline)) void
load_round_keys (const unsigned char *k)
{
#define RVV_LK(n) "vle32.v v" #n ", (%0)\n\taddi %0, %0, 16\n\t"
#define RVV_LK11 RVV_LK (1) RVV_LK (2) RVV_LK (3) RVV_LK (4) RVV_LK (5) \
  RVV_LK (6) RVV_LK (7) RVV_LK (8) RVV_LK (9) RVV_LK (10) RVV_LK (11)
  const unsigned char *p = k;
  if constexpr (ROUNDS == 10)
    asm volatile (RVV_BEGIN RVV_LK11 RVV_END : "+r" (p) : : "memory");
  else if constexpr (ROUNDS == 12)
    asm volatile (RVV_BEGIN RVV_LK11 RVV_LK (12) RVV_LK (13) RVV_END
                  : "+r" (p) : : "memory");
  else
    asm volatile (RVV_BEGIN RVV_LK11 RVV_LK (12) RVV_LK (13) RVV_LK (14)
                  RVV_LK (15) RVV_END : "+r" (p) : : "memory");
#undef RVV_LK11
#undef RVV_LK
}

/* FIPS-197 5.1 on every block of X: round 0 (vaesz), Nr-1 middle rounds,
 * final round.  */
template <unsigned int ROUNDS>
inline __attribute__ ((always_inline)) void
enc_x (void)
{
  if constexpr (ROUNDS == 10)
    RVV_ASM0 ("vaesz.vs v16, v1\n\t" RVV_EMID10 "vaesef.vs v16, v11");
  else if constexpr (ROUNDS == 12)
    RVV_ASM0 ("vaesz.vs v16, v1\n\t" RVV_EMID12 "vaesef.vs v16, v13");
  else
    RVV_ASM0 ("vaesz.vs v16, v1\n\t" RVV_EMID14 "vaesef.vs v16, v15");
}

/* Rounds 1..Nr-1 only (round 0 already folded into X by the caller).  */
template <unsigned int ROUNDS>
inline __attribute__ ((always_inline)) void
enc_x_mid (void)
{
  if constexpr (ROUNDS == 10)
    RVV_ASM0 (RVV_EMID10);
  else if constexpr (ROUNDS == 12)
    RVV_ASM0 (RVV_EMID12);
  else
    RVV_ASM0 (RVV_EMID14);
}

/* FIPS-197 5.3 (the inverse cipher, not the equivalent one: vaesdm adds
 * the round key before InvMixColumns, so the encryption keys serve in
 * reverse order) on every block of X.  */
template <unsigned int ROUNDS>
inline __attribute__ ((always_inline)) void
dec_x (void)
{
  if constexpr (ROUNDS == 10)
    RVV_ASM0 ("vaesz.vs v16, v11\n\t" RVV_DMID10 "vaesdf.vs v16, v1");
  else if constexpr (ROUNDS == 12)
    RVV_ASM0 ("vaesz.vs v16, v13\n\t" RVV_DMID12 "vaesdf.vs v16, v1");
  else
    RVV_ASM0 ("vaesz.vs v16, v15\n\t" RVV_DMID14 "vaesdf.vs v16, v1");
}

template <unsigned int ROUNDS, bool DECRYPT>
inline __attribute__ ((always_inline)) void
crypt_x (void)
{
  if constexpr (DECRYPT)
    dec_x<ROUNDS> ();
  else
    enc_x<ROUNDS> ();
}

/* Run the statement S10, S12 or S14 for ROUNDS = 10, 12, 14 (asm
 * strings that name the last round key register v11, v13 or v15).  */
#define RVV_BY_ROUNDS(ROUNDS, S10, S12, S14) \
  do { if constexpr ((ROUNDS) == 10) { S10; } \
       else if constexpr ((ROUNDS) == 12) { S12; } \
       else { S14; } } while (0)

/* ---- Lane helpers (vtype e32/m4, vl = 4 * N set by the caller) ----- */

/* W = lane number of each element (element e -> e / 4), and v0 = the
 * mask of the elements at position WORD (0..3) of their block.  */
template <int WORD>
inline __attribute__ ((always_inline)) void
lane_index_and_mask (void)
{
  RVV_ASM ("vid.v v28\n\t"
           "vand.vi v24, v28, 3\n\t"
           "vmseq.vi v0, v24, %0\n\t"
           "vsrl.vi v28, v28, 2", "i" (WORD));
}

/* U (N lanes) = the 16 bytes at P (any alignment) in lane 0, zeros in
 * the others (running sums: OCB checksum, GHASH lanes); vtype e32/m4,
 * vl = 4 * N after.  */
inline __attribute__ ((always_inline)) void
sums_start (const unsigned char *p, size_t n)
{
  vset_m4 (n);
  RVV_ASM ("vmv.v.i v24, 0\n\t"
           "vsetivli zero, 16, e8, m1, tu, mu\n\t"
           "vle8.v v24, (%0)", "r" (p));
  vset_m4 (n);
}

/* T = the 16 bytes at P (any alignment) in every lane (e64 gather of
 * elements 0/1 of the first register), vl = 4 * N restored.  Uses U and
 * W.  */
inline __attribute__ ((always_inline)) void
broadcast_block_to_t (const unsigned char *p, size_t n)
{
  RVV_ASM ("vsetivli zero, 16, e8, m1, ta, ma\n\t"
           "vle8.v v24, (%0)\n\t"
           "vsetvli zero, %1, e64, m4, ta, ma\n\t"
           "vid.v v28\n\t"
           "vand.vi v28, v28, 1\n\t"
           "vrgather.vv v20, v24, v28\n\t"
           "vsetvli zero, %2, e32, m4, tu, mu",
           "r" (p), "r" (2 * n), "r" (4 * n));
}

/* The 16 bytes at OUT = XOR of the N lanes of group U (v24..v27), e64
 * masked reductions (even elements = low halves, odd = high), vl = 4 * N
 * restored.  Clobbers v0, v28..v31.  */
inline __attribute__ ((always_inline)) void
fold_u_lanes (unsigned char *out, size_t n)
{
  RVV_ASM ("vsetvli zero, %1, e64, m4, ta, ma\n\t"
           "vid.v v28\n\t"
           "vand.vi v28, v28, 1\n\t"
           "vmseq.vi v0, v28, 0\n\t"
           "vmv.v.i v28, 0\n\t"
           "vredxor.vs v29, v24, v28, v0.t\n\t"
           "vmnot.m v0, v0\n\t"
           "vredxor.vs v30, v24, v28, v0.t\n\t"
           "vsetivli zero, 2, e64, m1, ta, ma\n\t"
           "vslideup.vi v29, v30, 1\n\t"
           "vsetivli zero, 16, e8, m1, ta, ma\n\t"
           "vse8.v v29, (%0)\n\t"
           "vsetvli zero, %2, e32, m4, tu, mu",
           "r" (out), "r" (2 * n), "r" (4 * n));
}

} // namespace rvv

#endif /* GCIPHER_RISCV_VCRYPTO_ASM_H */
