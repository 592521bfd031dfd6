/* cipher-gcm-siv.h - AES-GCM-SIV (RFC 8452): what the tests may see.
 *
 * The mode itself is _gcry_cipher_mode_gcm_siv (cipher-internal.h);
 * POLYVAL runs on the GHASH back ends of cipher-gcm.h.
 */
#ifndef GCIPHER_CIPHER_GCM_SIV_H
#define GCIPHER_CIPHER_GCM_SIV_H

#include <stddef.h>
#include "cipher-internal.h"
#include "cipher-gcm.h"

/* A native POLYVAL back end (RFC 8452 3), on POLYVAL's own byte order:
 * no byte reversal (the GHASH back ends serve through RFC 8452
 * Appendix A otherwise).  The key area is the GHASH one's type.  */
struct polyval_ops
{
  /* Derive the key area from H (16 bytes, RFC 8452 byte order).
   * Returns the stack burn depth.  */
  unsigned int (*setkey) (gcm_ghash_key *key, const unsigned char *h);
  /* S = POLYVAL continued over NBLOCKS 16-byte blocks of X: for each
   * block, S = dot (S xor X_j, H).  S is 16 bytes in RFC 8452 order.
   * Returns the stack burn depth.  */
  unsigned int (*update) (const gcm_ghash_key *key, unsigned char *s,
                          const unsigned char *x, size_t nblocks);
  /* Bytes at the start of the key area that setkey writes (the rest is
   * left alone, and a message's end wipes only these).  */
  size_t key_size;
  /* Optional (both or neither): the key area for update calls of at
   * most SHORT_BLOCKS blocks only (fewer key powers: a short message's
   * set-up), and the rest of setkey's work after it.  Each returns the
   * stack burn depth.  */
  unsigned int (*setkey_short) (gcm_ghash_key *key, const unsigned char *h);
  unsigned int (*extend) (gcm_ghash_key *key);
  size_t short_blocks;
};

#ifdef GCIPHER_ARCH_X86
/* PCLMULQDQ, eight blocks per reduction (cipher-gcm-siv-intel-pclmul.cpp);
 * needs HWF_INTEL_PCLMUL.  Named "polyval-pclmul".  */
extern const polyval_ops _gcry_polyval_ops_pclmul GCIPHER_INTERNAL;
/* VPCLMULQDQ on ymm, runs of 16 blocks, K_1..K_16 from the PCLMULQDQ
 * key (cipher-gcm-siv-intel-vpclmul-avx2.cpp); needs HWF_INTEL_PCLMUL,
 * HWF_INTEL_VAES_VPCLMUL and HWF_INTEL_AVX2.  "polyval-vpclmul-avx2".  */
extern const polyval_ops _gcry_polyval_ops_vpclmul_avx2 GCIPHER_INTERNAL;
#ifdef __x86_64__
/* The same on zmm, runs of 32 blocks (x86-64 only; needs
 * HWF_INTEL_AVX512 instead of AVX2).  "polyval-vpclmul-avx512".  */
extern const polyval_ops _gcry_polyval_ops_vpclmul_avx512 GCIPHER_INTERNAL;
#endif
#endif

/* Name of the POLYVAL back end C's current (or last) message ended on
 * ("polyval-pclmul", "vpclmul-avx512", "generic", ...), or NULL when C
 * is not a GCM-SIV handle or nothing has been hashed since the key /
 * the last reset / the nonce.  */
const char *_gcry_cipher_gcm_siv_polyval_name (gcry_cipher_hd_t c)
  GCIPHER_INTERNAL;

/* POLYVAL (RFC 8452 3) under the 16-byte key H over NBLOCKS 16-byte
 * blocks of X, into RESULT (16 bytes), on the back end named NAME
 * ("polyval-pclmul", or a name of _gcry_gcm_ghash_impls used through
 * RFC 8452 Appendix A).  Returns 0, or -1 for an unknown name or one
 * this CPU lacks.  For the tests.  */
int _gcry_polyval_test (const char *name, const unsigned char *h,
                        const unsigned char *x, size_t nblocks,
                        unsigned char *result) GCIPHER_INTERNAL;

#endif /* GCIPHER_CIPHER_GCM_SIV_H */
