/* rijndael-internal.h - AES (FIPS-197) context and the per-path entry points.
 *
 * One context serves every path (generic bitsliced, AES-NI, ...); the
 * path chosen at setkey is recorded in it and the key material is kept in
 * the form that path wants:
 *
 *   - ARMv8-CE (arm64): keys.ni.enc and keys.ni.dec as for AES-NI (the
 *     AESE/AESD forms of the same two schedules).
 *   - Zvkned (RISC-V): keys.ni.enc only (the inverse cipher runs on the
 *     same round keys in reverse order).
 *   - AES-NI: FIPS-197 5.2 round keys for the cipher (enc) and, for the
 *     equivalent inverse cipher (FIPS-197 5.3.5), InvMixColumns applied
 *     to the inner round keys in reverse order (dec).  16-byte aligned.
 *   - generic: each round key bitsliced and replicated over the four
 *     lanes of the 64-bit bitslice (see rijndael-generic.cpp), 8 words per
 *     round key; encryption and decryption share it.
 */
#ifndef GCIPHER_RIJNDAEL_INTERNAL_H
#define GCIPHER_RIJNDAEL_INTERNAL_H

#include <config.h>
#include <stddef.h>
#include <stdint.h>
#include "cipher-internal.h"

/* FN<R> (...) for the context CTX's (public) round count R, 10, 12 or
 * 14: the one round-count dispatch of the AES paths' kernels (AES-NI,
 * VAES, ARMv8 CE, Zvkned and their stitched GCM kernels), an
 * expression.  RIJNDAEL_DISPATCH_B: FN<R, B> (...).  */
#define RIJNDAEL_DISPATCH(ctx, fn, ...)                                   \
  (((const RIJNDAEL_context *)(ctx))->rounds == 10                         \
     ? fn<10> (__VA_ARGS__)                                                \
     : ((const RIJNDAEL_context *)(ctx))->rounds == 12                     \
         ? fn<12> (__VA_ARGS__)                                            \
         : fn<14> (__VA_ARGS__))
#define RIJNDAEL_DISPATCH_B(ctx, fn, b, ...)                              \
  (((const RIJNDAEL_context *)(ctx))->rounds == 10                         \
     ? fn<10, b> (__VA_ARGS__)                                             \
     : ((const RIJNDAEL_context *)(ctx))->rounds == 12                     \
         ? fn<12, b> (__VA_ARGS__)                                         \
         : fn<14, b> (__VA_ARGS__))

/* FIPS-197 5: Nr = 10, 12, 14 for 128-, 192-, 256-bit keys.  */
#define RIJNDAEL_MAX_ROUNDS 14

/* Which path expanded the key (index into the spec's impls[] is not
 * used: that list depends on the architecture).  */
enum rijndael_path : unsigned int
  {
    RIJNDAEL_PATH_GENERIC = 0,
    RIJNDAEL_PATH_AESNI = 1,
    RIJNDAEL_PATH_ZVKNED = 2,
    RIJNDAEL_PATH_ARMV8_CE = 3
  };

/* One block (the spec's encrypt/decrypt signature); burn depth.  */
typedef unsigned int (*rijndael_block_fn) (void *ctx, unsigned char *out,
                                           const unsigned char *in);

struct RIJNDAEL_context
{
  union
  {
    struct
    {
      /* Round keys 0..rounds, 16 bytes each (FIPS-197 5.2 byte order). */
      alignas (16) unsigned char enc[RIJNDAEL_MAX_ROUNDS + 1][16];
      /* Equivalent-inverse-cipher round keys, dec[0] = enc[rounds].  */
      alignas (16) unsigned char dec[RIJNDAEL_MAX_ROUNDS + 1][16];
    } ni;
    /* Generic: round key r, bit plane i (see rijndael-generic.cpp).  */
    alignas (16) uint64_t bs[RIJNDAEL_MAX_ROUNDS + 1][8];
  } keys;
  unsigned int rounds;        /* Nr: 10, 12 or 14.  */
  rijndael_path path;
  /* The single-block functions of the path setkey chose (its entry in
   * rijndael.cpp's table).  */
  rijndael_block_fn encrypt, decrypt;
};

/* ---- Generic constant-time path (rijndael-generic.cpp) ------------- */
/* Expand KEY (KEYLEN = 16, 24 or 32 bytes, FIPS-197 5.2) into the
 * byte-form schedule W (4 * (rounds + 1) words as 16*(rounds+1) bytes).
 * Constant time (bitsliced SubWord).  Used by every path that does not
 * expand keys itself.  Returns the stack burn depth.  */
unsigned int _gcry_aes_generic_expand_key (unsigned char *w,
                                           const unsigned char *key,
                                           size_t keylen) GCIPHER_INTERNAL;
/* Set up CTX->keys.bs from KEY; fills CTX->rounds.  Burn depth.  */
unsigned int _gcry_aes_generic_setkey (RIJNDAEL_context *ctx,
                                       const unsigned char *key,
                                       size_t keylen) GCIPHER_INTERNAL;
unsigned int _gcry_aes_generic_encrypt (void *ctx, unsigned char *out,
                                        const unsigned char *in)
  GCIPHER_INTERNAL;
unsigned int _gcry_aes_generic_decrypt (void *ctx, unsigned char *out,
                                        const unsigned char *in)
  GCIPHER_INTERNAL;
/* Fill the bulk slots the generic path provides (the parallel ones:
 * ecb_crypt, cbc_dec, cfb_dec, ctr16be_enc).  */
void _gcry_aes_generic_fill_bulk (cipher_bulk_ops *bulk) GCIPHER_INTERNAL;

/* ---- AES-NI path (rijndael-aesni.cpp, x86 only) --------------------- */
#ifdef GCIPHER_ARCH_X86
/* Blocks per batch of the AES-NI parallel modes (x86-64 has 16 xmm
 * registers, i386 8): the xmm instance of rijndael-x86-drivers.h's
 * drivers (ECB, CBC-dec, CFB-dec, CTR) and XTS; OCB takes at most 8.
 * The self-test runs batches of lanes + 1 and + 2.  */
#ifdef __x86_64__
#define RIJNDAEL_AESNI_LANES 12
#else
#define RIJNDAEL_AESNI_LANES 4
#endif
/* Expand KEY into CTX->keys.ni with AES-NI; fills CTX->rounds.  */
unsigned int _gcry_aes_aesni_setkey (RIJNDAEL_context *ctx,
                                     const unsigned char *key,
                                     size_t keylen) GCIPHER_INTERNAL;
unsigned int _gcry_aes_aesni_encrypt (void *ctx, unsigned char *out,
                                      const unsigned char *in)
  GCIPHER_INTERNAL;
unsigned int _gcry_aes_aesni_decrypt (void *ctx, unsigned char *out,
                                      const unsigned char *in)
  GCIPHER_INTERNAL;
/* ecb_crypt, cbc_enc, cbc_dec, cfb_enc, cfb_dec, ofb_enc, ctr16be_enc,
 * ctr32le_enc, ccm_crypt, xts_crypt, ocb_crypt, ocb_auth, gcm_crypt,
 * gcm_siv_dec.  */
void _gcry_aes_aesni_fill_bulk (cipher_bulk_ops *bulk) GCIPHER_INTERNAL;
/* The "aesni-avx" path (CPUs with AVX): the same from the VEX-encoded
 * build of rijndael-aesni.cpp and rijndael-aesni-xts-ocb.cpp (-mavx;
 * on x86-64 only XTS and OCB, the rest from the SSE build: see
 * rijndael-aesni.cpp).  The key schedule is the same as the SSE
 * build's.  */
unsigned int _gcry_aes_aesni_avx_setkey (RIJNDAEL_context *ctx,
                                         const unsigned char *key,
                                         size_t keylen) GCIPHER_INTERNAL;
unsigned int _gcry_aes_aesni_avx_encrypt (void *ctx, unsigned char *out,
                                          const unsigned char *in)
  GCIPHER_INTERNAL;
unsigned int _gcry_aes_aesni_avx_decrypt (void *ctx, unsigned char *out,
                                          const unsigned char *in)
  GCIPHER_INTERNAL;
void _gcry_aes_aesni_avx_fill_bulk (cipher_bulk_ops *bulk)
  GCIPHER_INTERNAL;
/* xts_crypt, ocb_crypt and ocb_auth of rijndael-aesni-xts-ocb.cpp's SSE
 * and VEX builds.  */
void _gcry_aes_aesni_fill_xts_ocb (cipher_bulk_ops *bulk) GCIPHER_INTERNAL;
void _gcry_aes_aesni_avx_fill_xts_ocb (cipher_bulk_ops *bulk)
  GCIPHER_INTERNAL;
/* Their xts_crypt slot by name (the i386 VAES path's short calls).  */
unsigned int _gcry_aes_aesni_xts_crypt (void *ctx, unsigned char *tweak,
                                        void *out, const void *in,
                                        size_t nblocks, int encrypt)
  GCIPHER_INTERNAL;
unsigned int _gcry_aes_aesni_avx_xts_crypt (void *ctx, unsigned char *tweak,
                                            void *out, const void *in,
                                            size_t nblocks, int encrypt)
  GCIPHER_INTERNAL;

/* ---- VAES paths (rijndael-vaes-avx2.cpp, rijndael-vaes-avx512.cpp) --
 * Key schedule, single blocks and the serial slots are the AES-NI
 * path's (ctx->path stays RIJNDAEL_PATH_AESNI); these fill the AES-NI
 * slots, then replace the parallel ones (ecb_crypt, cbc_dec, cfb_dec,
 * ctr16be_enc, ctr32le_enc, xts_crypt, ocb_crypt, ocb_auth) with
 * 256-bit (2 blocks per ymm) or 512-bit (4 blocks per zmm, x86-64 only)
 * kernels.  LANES: blocks per full batch (the self-test runs lanes + 1 and + 2).  */
#ifdef __x86_64__
#define RIJNDAEL_VAES_AVX2_LANES 16
#define RIJNDAEL_VAES_AVX512_LANES 32
void _gcry_aes_vaes_avx512_fill_bulk (cipher_bulk_ops *bulk)
  GCIPHER_INTERNAL;
#else
#define RIJNDAEL_VAES_AVX2_LANES 8
#endif
void _gcry_aes_vaes_avx2_fill_bulk (cipher_bulk_ops *bulk) GCIPHER_INTERNAL;
#endif

/* ---- RISC-V vector AES path (rijndael-riscv-zvkned.cpp) ------------ */
#ifdef HAVE_RISCV_VCRYPTO
/* The self-test's batch size (lanes + 1, lanes + 2 blocks): the largest
 * group the VLEN-agnostic kernels use (RVV_MAX_LANES), so every VLEN up
 * to 1024 sees whole groups and a tail.  */
#define RIJNDAEL_ZVKNED_LANES 32
/* Expand KEY into CTX->keys.ni.enc (vaeskf1 / vaeskf2; AES-192 with the
 * generic expansion); fills CTX->rounds.  */
unsigned int _gcry_aes_zvkned_setkey (RIJNDAEL_context *ctx,
                                      const unsigned char *key,
                                      size_t keylen) GCIPHER_INTERNAL;
unsigned int _gcry_aes_zvkned_encrypt (void *ctx, unsigned char *out,
                                       const unsigned char *in)
  GCIPHER_INTERNAL;
unsigned int _gcry_aes_zvkned_decrypt (void *ctx, unsigned char *out,
                                       const unsigned char *in)
  GCIPHER_INTERNAL;
/* ecb_crypt, cbc_enc, cbc_dec, cfb_enc, cfb_dec, ofb_enc, ctr16be_enc,
 * ctr32le_enc, xts_crypt, ocb_crypt, ocb_auth; gcm_crypt when the GCM
 * back end is "zvkg" (cipher-gcm-riscv-zvkg.cpp).  */
void _gcry_aes_zvkned_fill_bulk (cipher_bulk_ops *bulk) GCIPHER_INTERNAL;
#endif

/* ---- ARMv8 Cryptography Extensions path (rijndael-armv8-ce.cpp) --- */
#ifdef GCIPHER_ARCH_AARCH64
/* Blocks per batch of the parallel modes.  */
#define RIJNDAEL_ARMV8_CE_LANES 8
/* Expand KEY into CTX->keys.ni (enc, and dec with AESIMC); fills
 * CTX->rounds.  */
unsigned int _gcry_aes_armv8_ce_setkey (RIJNDAEL_context *ctx,
                                        const unsigned char *key,
                                        size_t keylen) GCIPHER_INTERNAL;
unsigned int _gcry_aes_armv8_ce_encrypt (void *ctx, unsigned char *out,
                                         const unsigned char *in)
  GCIPHER_INTERNAL;
unsigned int _gcry_aes_armv8_ce_decrypt (void *ctx, unsigned char *out,
                                         const unsigned char *in)
  GCIPHER_INTERNAL;
/* ecb_crypt, cbc_enc, cbc_dec, cfb_enc, cfb_dec, ofb_enc, ctr16be_enc,
 * ctr32le_enc, xts_crypt, ocb_crypt, ocb_auth; gcm_crypt when the GCM
 * back end is "pmull" (cipher-gcm-armv8-ce.cpp).  */
void _gcry_aes_armv8_ce_fill_bulk (cipher_bulk_ops *bulk) GCIPHER_INTERNAL;
#endif

#endif /* GCIPHER_RIJNDAEL_INTERNAL_H */
