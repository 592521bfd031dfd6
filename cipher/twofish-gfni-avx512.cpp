/* twofish-gfni-avx512.cpp - Twofish bulk modes with AVX-512, AVX512-VBMI
 * and GFNI: batches of 32 blocks on zmm registers with the key-dependent
 * S-boxes as whole 256-byte tables in registers (VPERMI2B) and the MDS
 * multiples by GF2P8AFFINEQB (twofish-simd.h, TF_SBOX_VBMI), the rest
 * in twofish-avx2.cpp's batches of 16 (ymm) and 8 (xmm) with 16-byte
 * rows of those tables (TF_SBOX_ROWS; tf_avx2_ymm, tf_avx2_xmm).  Built
 * with AVX-512 F/VL/BW/DQ/VBMI and GFNI in its own convenience library;
 * used when HWF_INTEL_GFNI and HWF_INTEL_AVX512 are present and the CPU
 * has VBMI.
 *
 * The S-box tables come from the nibble kernel itself at setkey
 * (tf_sbox_builder: s_i on all 256 inputs is h_plane on four registers
 * of bytes 0..255 per byte position, with the key-dependent nibble
 * tables that twofish.cpp's tf_simd_key_tables derived): no secret
 * index anywhere.
 */
#include <config.h>

/* GCC 12's AVX-512 intrinsics start from _mm512_undefined_epi32 (), a
 * self-initialised variable that trips -Wmaybe-uninitialized where they
 * are inlined.  */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include "twofish-simd.h"
#include "cipher-batch-modes.h"

using namespace twofish_detail;

static_assert (twofish_simd<tf_vec512_vbmi, TF_SBOX_VBMI>::N
               == TWOFISH_AVX512_LANES);

namespace {

/* The narrowest kernel of the path: twofish-avx2.cpp's xmm batch, and
 * one block in registers for the chained modes and the single-block
 * functions (cipher-batch-modes.h's crypt_one): the round structure of
 * twofish.cpp's generic code on 32-bit words, the eight S-box bytes of
 * both g of a round in one register, each byte position through its own
 * s_i (VPERMI2B on the whole tables, merged by position masks), the MDS
 * by GF2P8AFFINEQB and PSHUFB.  Constant time: register permutes and
 * blends only.  */
struct tf_kernel_one : tf_avx2_xmm
{
  struct tables
  {
    __m512i t[4][4];
  };

  static TF_INLINE uint64_t
  g2 (const tables &tb, uint32_t r0, uint32_t r1)
  {
    const uint64_t x = tf_one_g_input (r0, r1);
    const __m512i v = _mm512_castsi128_si512 (_mm_cvtsi64_si128 ((long long) x));
    const __mmask64 b7 = _mm512_movepi8_mask (v);
    __m512i s = v;
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++)
      {
        const __m512i lo = _mm512_permutex2var_epi8 (tb.t[i][0], v, tb.t[i][1]);
        const __m512i hi = _mm512_permutex2var_epi8 (tb.t[i][2], v, tb.t[i][3]);
        s = _mm512_mask_blend_epi8 ((__mmask64) (0x11u << i), s,
                                    _mm512_mask_blend_epi8 (b7, lo, hi));
      }
    typedef simd_x86::X1 X1;
    const __m128i y = _mm512_castsi512_si128 (s);
    const __m128i y5b = X1::affine<0> (y, X1::bcast64 (tf_gfni_mul (0x5b)));
    const __m128i yef = X1::affine<0> (y, X1::bcast64 (tf_gfni_mul (0xef)));
    return tf_one_mds (y, y5b, yef);
  }

  template <bool DECRYPT>
  static __attribute__ ((noinline)) void
  crypt_one (const void *c, unsigned char *out, const unsigned char *in)
  {
    const TWOFISH_context *ctx = (const TWOFISH_context *) c;
    tables tb;
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
      tb.t[i / 4][i % 4]
        = _mm512_load_si512 ((const void *) (ctx->sbox[i / 4] + 64 * (i % 4)));
    tf_crypt_one<DECRYPT> (ctx, out, in, [&tb] (uint32_t r0, uint32_t r1) {
      return g2 (tb, r0, r1);
    });
  }
};

} // namespace

void
_gcry_twofish_gfni_avx512_fill (cipher_bulk_ops *bulk, TWOFISH_context *ctx)
{
  tf_sbox_builder<tf_vec512, vec_clear_zmm>::build (ctx);
  typedef batch_modes<vec_clear_zmm,
                      twofish_simd<tf_vec512_vbmi, TF_SBOX_VBMI>,
                      tf_avx2_ymm, tf_kernel_one> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}
