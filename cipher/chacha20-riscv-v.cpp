/* chacha20-riscv-v.cpp - ChaCha20 (RFC 8439 2.3) with the RISC-V vector
 * extension (RVV 1.0): VLEN / 32 blocks per pass (4 at VLEN 128, 32 at
 * VLEN 1024), the rotations with Zvkb's vror where the CPU has it.
 *
 * Layout: "one word per register", as the AVX2 and NEON paths: vector
 * register x_i holds state word i of vl consecutive blocks, block k in
 * 32-bit element k (vtype e32, LMUL 1), so a quarter round (RFC 8439
 * 2.1) is the scalar one on whole registers.  Elements differ only in
 * words 12 and 13, the 64-bit block counter (chacha20-internal.h):
 * element k gets counter + k, the carry out of word 12 going into word
 * 13 (a compare into the mask register, one add with carry).  The other
 * fourteen words come from general registers (vmv.v.x, and vadd.vx for
 * the feed-forward).  The data moves with strided segment loads and
 * stores (vlsseg8e32 / vssseg8e32, stride 64 bytes): one instruction
 * gives word j of every block for eight j, already in the register
 * layout, so no transpose is needed.
 *
 * As in the other RISC-V vector files (riscv-vcrypto-asm.h): every
 * vector instruction is inline assembly on fixed registers, the file is
 * compiled without compiler vector code, and nothing is called between
 * the statements of a pass.  Register map:
 *   v0         the carry mask of the counter words
 *   v1 .. v16  x_0 .. x_15
 *   v17        element index (vid)
 *   v18, v19   the initial words 12 and 13 (for the feed-forward)
 *   v20 .. v23 rotation scratch (one per quarter round of a round)
 *   v24 .. v31 eight words of input, then output, of every block
 *
 * Element loads are 32-bit: IN and OUT must be 4-byte aligned for this
 * path (RVV leaves misaligned element accesses to the implementation);
 * calls on other buffers take the generic block function.  Constant
 * time: the same instructions whatever the key and data.  The vector
 * registers are zeroed at the end; the key words pass through general
 * registers only.
 */
#include <config.h>

#include "chacha20-internal.h"
#include "riscv-vcrypto-asm.h"

namespace {

using namespace rvv;

/* ---- Round text (fixed registers) --------------------------------- */

#define VADD(a, b) "vadd.vv " a ", " a ", " b "\n\t"
#define VXOR(a, b) "vxor.vv " a ", " a ", " b "\n\t"
/* D rotated left by L = 32 - R bits (T: scratch).  */
#define ROL_ZVKB(d, l, r, t) "vror.vi " d ", " d ", " #r "\n\t"
#define ROL_V(d, l, r, t) \
  "vsll.vi " t ", " d ", " #l "\n\t" \
  "vsrl.vi " d ", " d ", " #r "\n\t" \
  "vor.vv " d ", " d ", " t "\n\t"

/* Four quarter rounds (RFC 8439 2.1) side by side: (a0, b0, c0, d0) ..
 * (a3, b3, c3, d3), step by step.  */
#define QR_STEP(ROL, l, r, a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3) \
  VADD (a0, b0) VADD (a1, b1) VADD (a2, b2) VADD (a3, b3) \
  VXOR (d0, a0) VXOR (d1, a1) VXOR (d2, a2) VXOR (d3, a3) \
  ROL (d0, l, r, "v20") ROL (d1, l, r, "v21") \
  ROL (d2, l, r, "v22") ROL (d3, l, r, "v23")
#define QR4(ROL, a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, \
            a3, b3, c3, d3) \
  QR_STEP (ROL, 16, 16, a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3) \
  QR_STEP (ROL, 12, 20, c0, d0, b0, c1, d1, b1, c2, d2, b2, c3, d3, b3) \
  QR_STEP (ROL, 8, 24, a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3) \
  QR_STEP (ROL, 7, 25, c0, d0, b0, c1, d1, b1, c2, d2, b2, c3, d3, b3)
/* RFC 8439 2.3: the column round, then the diagonal round; x_i is
 * v(i+1).  */
#define DOUBLE_ROUND(ROL) \
  QR4 (ROL, "v1", "v5", "v9", "v13", "v2", "v6", "v10", "v14", \
       "v3", "v7", "v11", "v15", "v4", "v8", "v12", "v16") \
  QR4 (ROL, "v1", "v6", "v11", "v16", "v2", "v7", "v12", "v13", \
       "v3", "v8", "v9", "v14", "v4", "v5", "v10", "v15")

/* Set vl for up to N blocks and the sixteen words of STATE's blocks
 * (counter + k in element k); returns vl.  */
inline __attribute__ ((always_inline)) size_t
load_state (const uint32_t *s, size_t n)
{
  size_t vl;
  asm volatile (RVV_BEGIN
                "vsetvli %[vl], %[n], e32, m1, ta, ma\n\t"
                "vid.v v17\n\t"
                "vadd.vx v13, v17, %[c12]\n\t"
                /* Element k wrapped where counter + k < counter: the
                 * mask bit is its carry into word 13 (vadc writes every
                 * element; a masked add would leave the others to the
                 * mask policy).  */
                "vmsltu.vx v0, v13, %[c12]\n\t"
                "vmv.v.x v14, %[c13]\n\t"
                "vadc.vim v14, v14, 0, v0\n\t"
                "vmv.v.v v18, v13\n\t"
                "vmv.v.v v19, v14"
                RVV_END
                : [vl] "=&r" (vl)
                : [n] "r" (n), [c12] "r" (s[12]), [c13] "r" (s[13])
                : "memory");
  asm volatile (RVV_BEGIN
                "vmv.v.x v1, %0\n\tvmv.v.x v2, %1\n\t"
                "vmv.v.x v3, %2\n\tvmv.v.x v4, %3\n\t"
                "vmv.v.x v5, %4\n\tvmv.v.x v6, %5\n\t"
                "vmv.v.x v7, %6\n\tvmv.v.x v8, %7"
                RVV_END
                : : "r" (s[0]), "r" (s[1]), "r" (s[2]), "r" (s[3]),
                    "r" (s[4]), "r" (s[5]), "r" (s[6]), "r" (s[7])
                : "memory");
  asm volatile (RVV_BEGIN
                "vmv.v.x v9, %0\n\tvmv.v.x v10, %1\n\t"
                "vmv.v.x v11, %2\n\tvmv.v.x v12, %3\n\t"
                "vmv.v.x v15, %4\n\tvmv.v.x v16, %5"
                RVV_END
                : : "r" (s[8]), "r" (s[9]), "r" (s[10]), "r" (s[11]),
                    "r" (s[14]), "r" (s[15])
                : "memory");
  return vl;
}

/* The feed-forward (RFC 8439 2.3: the initial state added), then the
 * keystream XORed into vl blocks from IN to OUT (4-byte aligned; IN ==
 * OUT allowed: each half is read before it is written).  */
inline __attribute__ ((always_inline)) void
finish_xor (const uint32_t *s, unsigned char *out, const unsigned char *in)
{
  asm volatile (RVV_BEGIN
                "vadd.vx v1, v1, %0\n\tvadd.vx v2, v2, %1\n\t"
                "vadd.vx v3, v3, %2\n\tvadd.vx v4, v4, %3\n\t"
                "vadd.vx v5, v5, %4\n\tvadd.vx v6, v6, %5\n\t"
                "vadd.vx v7, v7, %6\n\tvadd.vx v8, v8, %7"
                RVV_END
                : : "r" (s[0]), "r" (s[1]), "r" (s[2]), "r" (s[3]),
                    "r" (s[4]), "r" (s[5]), "r" (s[6]), "r" (s[7])
                : "memory");
  asm volatile (RVV_BEGIN
                "vadd.vx v9, v9, %0\n\tvadd.vx v10, v10, %1\n\t"
                "vadd.vx v11, v11, %2\n\tvadd.vx v12, v12, %3\n\t"
                "vadd.vv v13, v13, v18\n\tvadd.vv v14, v14, v19\n\t"
                "vadd.vx v15, v15, %4\n\tvadd.vx v16, v16, %5"
                RVV_END
                : : "r" (s[8]), "r" (s[9]), "r" (s[10]), "r" (s[11]),
                    "r" (s[14]), "r" (s[15])
                : "memory");
  const size_t stride = CHACHA20_BLOCKSIZE;
  asm volatile (RVV_BEGIN
                "vlsseg8e32.v v24, (%[in]), %[st]\n\t"
                "vxor.vv v24, v24, v1\n\tvxor.vv v25, v25, v2\n\t"
                "vxor.vv v26, v26, v3\n\tvxor.vv v27, v27, v4\n\t"
                "vxor.vv v28, v28, v5\n\tvxor.vv v29, v29, v6\n\t"
                "vxor.vv v30, v30, v7\n\tvxor.vv v31, v31, v8\n\t"
                "vssseg8e32.v v24, (%[out]), %[st]\n\t"
                "vlsseg8e32.v v24, (%[in2]), %[st]\n\t"
                "vxor.vv v24, v24, v9\n\tvxor.vv v25, v25, v10\n\t"
                "vxor.vv v26, v26, v11\n\tvxor.vv v27, v27, v12\n\t"
                "vxor.vv v28, v28, v13\n\tvxor.vv v29, v29, v14\n\t"
                "vxor.vv v30, v30, v15\n\tvxor.vv v31, v31, v16\n\t"
                "vssseg8e32.v v24, (%[out2]), %[st]"
                RVV_END
                : : [in] "r" (in), [out] "r" (out), [in2] "r" (in + 32),
                    [out2] "r" (out + 32), [st] "r" (stride)
                : "memory");
}

/* Whole blocks: passes of up to VLEN / 32 blocks, the last one shorter
 * (vl = what is left).  */
template <bool ZVKB>
unsigned int
blocks (uint32_t *state, unsigned char *out, const unsigned char *in,
        size_t nblocks)
{
  if (((uintptr_t) out | (uintptr_t) in) & 3)
    return _gcry_chacha20_generic_blocks (state, out, in, nblocks);
  while (nblocks)
    {
      const size_t vl = load_state (state, nblocks);
      for (int r = 0; r < 10; r++)
        {
          if constexpr (ZVKB)
            asm volatile (RVV_BEGIN DOUBLE_ROUND (ROL_ZVKB) RVV_END
                          : : : "memory");
          else
            asm volatile (RVV_BEGIN DOUBLE_ROUND (ROL_V) RVV_END
                          : : : "memory");
        }
      finish_xor (state, out, in);
      const uint64_t ctr = (((uint64_t) state[13] << 32) | state[12]) + vl;
      state[12] = (uint32_t) ctr;
      state[13] = (uint32_t) (ctr >> 32);
      in += vl * CHACHA20_BLOCKSIZE;
      out += vl * CHACHA20_BLOCKSIZE;
      nblocks -= vl;
    }
  vclear_all ();
  /* The key words are loaded into general registers for each pass;
   * the compiler may keep some in its frame.  */
  return 32 * sizeof (uint32_t);
}

} // namespace

unsigned int
_gcry_chacha20_rvv_blocks (uint32_t *state, unsigned char *out,
                           const unsigned char *in, size_t nblocks)
{
  return blocks<false> (state, out, in, nblocks);
}

unsigned int
_gcry_chacha20_rvv_zvkb_blocks (uint32_t *state, unsigned char *out,
                                const unsigned char *in, size_t nblocks)
{
  return blocks<true> (state, out, in, nblocks);
}
