/* twofish-avx2.cpp - Twofish bulk modes with AVX2: batches of 16 blocks
 * on ymm registers, the rest in batches of 8 on xmm registers
 * (twofish-simd.h, byte planes; the key-dependent S-boxes as 16 rows of
 * 16 bytes each, looked up by PSHUFB, the row chosen per byte by a tree
 * of PBLENDVB on the bits of the high nibble: TF_SBOX_ROWS).  The rows
 * come from the nibble kernel at setkey.  The chained modes and single
 * blocks run one block in registers (twofish-simd.h's
 * tf_kernel_one_avx2).  These three kernels serve the AVX-512 paths too
 * (_gcry_twofish_avx2_blk, twofish-simd.h's tf_avx2_ymm and
 * tf_avx2_one).  Built with -mavx2 in its own convenience library; used
 * when HWF_INTEL_AVX2 is present.
 */
#include <config.h>
#include <type_traits>
#include "twofish-simd.h"
#include "cipher-batch-modes.h"

using namespace twofish_detail;

static_assert (tf_avx2_ymm::N == TWOFISH_AVX2_LANES);

/* The ymm and xmm batches and the one block of every path
 * (twofish-simd.h's tf_avx2_ymm and tf_avx2_one): twofish_simd's
 * crypt_blocks and tf_kernel_one_avx2's crypt_one, built here once.
 * Each function has the kernel's body itself, not a jump to the kernel
 * (cipher-batch-modes.h's BATCH_KERNEL_EXPORT): GCC orders the code of
 * the local kernel differently.  */
template <size_t NB, bool DECRYPT>
__attribute__ ((noinline)) void
_gcry_twofish_avx2_blk (const void *c, unsigned char *out,
                        const unsigned char *in)
{
  if constexpr (NB == 1)
    tf_kernel_one_avx2::crypt_one_body<DECRYPT> (c, out, in);
  else
    {
      typedef std::conditional_t<NB == tf_avx2_ymm::N, tf_vec256, tf_vec128>
        Ops;
      typedef twofish_simd<Ops, TF_SBOX_ROWS> K;
      static_assert (NB == K::N);
      const TWOFISH_context *ctx = (const TWOFISH_context *) c;
      if (ctx->k == 4)
        K::template crypt<DECRYPT, 0> (ctx, out, in);
      else
        K::template crypt<DECRYPT, 2> (ctx, out, in);
    }
}

template batch_kernel_fn _gcry_twofish_avx2_blk<tf_avx2_ymm::N, false>;
template batch_kernel_fn _gcry_twofish_avx2_blk<tf_avx2_ymm::N, true>;
template batch_kernel_fn _gcry_twofish_avx2_blk<tf_avx2_xmm::N, false>;
template batch_kernel_fn _gcry_twofish_avx2_blk<tf_avx2_xmm::N, true>;
template batch_kernel_fn _gcry_twofish_avx2_blk<1, false>;
template batch_kernel_fn _gcry_twofish_avx2_blk<1, true>;

void
_gcry_twofish_avx2_fill (cipher_bulk_ops *bulk, TWOFISH_context *ctx)
{
  tf_sbox_builder<tf_vec256, vec_clear_ymm>::build (ctx);
  typedef batch_modes<vec_clear_ymm, tf_avx2_ymm, tf_avx2_one> modes;
  modes::fill (bulk, &ctx->encrypt1, &ctx->decrypt1);
}

int
_gcry_twofish_have_vbmi (void)
{
  return (_gcry_hwf_x86_extra () & HWF_X86_AVX512_VBMI) != 0;
}
