/* cipher-gcm.h - GCM (NIST SP 800-38D) state layout and GHASH back ends.
 *
 * The GCM state lives in the handle's mode_ctx area (struct gcm_state).
 * GHASH (SP 800-38D 6.4) is done by one of several back ends, chosen at
 * setkey like the AES paths (first entry of _gcry_gcm_ghash_table whose
 * hwf bits are all present and not disabled):
 *
 *   "vpclmul-avx512"  VPCLMULQDQ on zmm, 4 blocks per instruction
 *   "vpclmul-avx2"    VPCLMULQDQ on ymm, 2 blocks per instruction
 *   "pclmul"          PCLMULQDQ, 8 blocks per reduction   (x86)
 *   "zvkg"            RISC-V vector GHASH, VLEN/32 blocks per instruction
 *   "zbc"             RISC-V scalar carry-less multiply (Zbc + Zbb)
 *   "pmull"           arm64 PMULL, 8 blocks per reduction (ARMv8 CE)
 *   "generic"         constant-time integer carry-less multiply
 *                     (cipher-gcm-generic.cpp)
 *
 * A back end sees only its key area (gcm_ghash_key: its own layout of the
 * hash key H = CIPH_K(0^128) and its powers) and the running hash value Y
 * as the 16 bytes of the standard (SP 800-38D 6.3: byte 0 bit 7 is the
 * coefficient of x^0).  Everything in the key area is secret.
 *
 * With the AES-NI path the text goes through the cipher's gcm_crypt bulk
 * slot, one pass of CTR and GHASH together: AES-NI + PCLMULQDQ (8 blocks
 * per group) when the back end is "pclmul", VAES + VPCLMULQDQ on zmm (32
 * blocks per group) or ymm (16) when it is "vpclmul-avx512" or
 * "vpclmul-avx2"; with the Zvkned path, Zvkned CTR + vghsh (VLEN/64
 * blocks per group) when the back end is "zvkg"; with the ARMv8-CE path,
 * AESE CTR + PMULL (8 blocks per group) when it is "pmull"; otherwise (and for the tails) CTR through
 * ctr16be_enc, then GHASH, in 4 KiB chunks.
 */
#ifndef GCIPHER_CIPHER_GCM_H
#define GCIPHER_CIPHER_GCM_H

#include <stddef.h>
#include <stdint.h>
#include "cipher-internal.h"
#include "cipher-impl.h"

/* Bytes of the back ends' key area (enough for H^1..H^8 with their
 * Karatsuba halves plus H^1..H^64 with theirs).  */
#define GCM_GHASH_KEY_SIZE 2304

struct gcm_ghash_key
{
  alignas (64) unsigned char bytes[GCM_GHASH_KEY_SIZE];
};

/* One GHASH back end.  */
struct gcm_ghash_ops
{
  /* Derive the key area from H (16 bytes, SP 800-38D 6.4 byte order).
   * Returns the stack burn depth.  */
  unsigned int (*setkey) (gcm_ghash_key *key, const unsigned char *h);
  /* Y = GHASH_H continued over NBLOCKS 16-byte blocks of BUF: for each
   * block X, Y = (Y xor X) * H (SP 800-38D 6.4, Algorithm 2).  Y is the
   * 16-byte running value in standard byte order.  NBLOCKS may be 0.
   * Returns the stack burn depth.  */
  unsigned int (*ghash) (const gcm_ghash_key *key, unsigned char *y,
                         const unsigned char *buf, size_t nblocks);
  /* Optional (GCM-SIV, cipher-gcm-siv.cpp): POLYVAL (RFC 8452 3)
   * continued over NBLOCKS blocks of X, S the 16-byte running value in
   * POLYVAL byte order, on the key area set up for the GHASH key
   * mulX_GHASH (ByteReverse (H)) (RFC 8452 Appendix A): what ghash
   * computes on byte-reversed blocks and state, without the reversals.
   * Returns the stack burn depth.  */
  unsigned int (*polyval) (const gcm_ghash_key *key, unsigned char *s,
                           const unsigned char *x, size_t nblocks);
};

/* The mode state (h->mode_ctx).  Zeroed at open and reset; wiped with
 * the handle.  */
struct gcm_state
{
  gcm_ghash_key key;                 /* H and its powers (secret).  */
  alignas (16) unsigned char y[16];  /* Running GHASH value.  */
  unsigned char tagiv[16];           /* CIPH_K(J0), xored into the tag.  */
  unsigned char tag[16];             /* The tag once computed.  */
  unsigned char macbuf[16];          /* Pending GHASH bytes.  */
  unsigned int mac_unused;           /* Bytes pending in macbuf.  */
  uint64_t aadlen;                   /* Bytes of AAD so far.  */
  uint64_t datalen;                  /* Bytes of text so far.  */
  unsigned char aad_finalized;       /* AAD padded and closed.  */
  unsigned char data_finalized;      /* Text closed (tag computed).  */
  unsigned char over_limits;         /* A length limit was exceeded.  */
  unsigned char ctr_secret;          /* J0 came from GHASH (IV not 96
                                        bits): the counter is secret.  */
  const gcm_ghash_ops *ghash;        /* NULL until a key is set.  */
  const char *ghash_name;            /* The back end's name.  */
};

/* Name of the GHASH back end of a keyed GCM handle, or NULL.  */
const char *_gcry_cipher_gcm_ghash_name (gcry_cipher_hd_t c)
  GCIPHER_INTERNAL;

/* Back ends (each in its own file, compiled with its ISA flags).  */
extern const gcm_ghash_ops _gcry_ghash_ops_generic GCIPHER_INTERNAL;
#ifdef GCIPHER_ARCH_X86
extern const gcm_ghash_ops _gcry_ghash_ops_pclmul GCIPHER_INTERNAL;
/* cipher-gcm-intel-vpclmul.cpp; their key area (cipher-gcm-intel-vpclmul.h)
 * begins with the pclmul layout.  */
extern const gcm_ghash_ops _gcry_ghash_ops_vpclmul_avx2 GCIPHER_INTERNAL;
extern const gcm_ghash_ops _gcry_ghash_ops_vpclmul_avx512 GCIPHER_INTERNAL;
/* Stitched AES-NI CTR + PCLMUL GHASH, the AES-NI path's gcm_crypt slot
 * (cipher-gcm-intel-pclmul.cpp; see cipher_bulk_ops::gcm_crypt).  */
size_t _gcry_aes_aesni_gcm_crypt (gcry_cipher_hd_t c, void *out,
                                  const void *in, size_t nblocks,
                                  int encrypt) GCIPHER_INTERNAL;
/* Its gcm_siv_dec slot (see cipher_bulk_ops::gcm_siv_dec), the same
 * kernel on GCM-SIV's counter and POLYVAL, for the pclmul key.  */
size_t _gcry_aes_aesni_gcm_siv_dec (void *ctx, const gcm_ghash_ops *ghash,
                                    const gcm_ghash_key *key,
                                    unsigned char *s, unsigned char *ctr,
                                    void *out, const void *in,
                                    size_t nblocks) GCIPHER_INTERNAL;
/* The VAES paths' gcm_crypt and gcm_siv_dec slots (see cipher_bulk_ops):
 * the stitched VAES + VPCLMULQDQ kernel on zmm, 32 blocks per group, for
 * the vpclmul-avx512 key (cipher-gcm-intel-vaes-avx512.cpp, x86-64), and
 * on ymm, 16 blocks per group, for the vpclmul-avx2 or vpclmul-avx512 key
 * (cipher-gcm-intel-vaes-avx2.cpp).  AES-NI key layout required; other
 * GHASH back ends: the slots hand the blocks to the AES-NI path's
 * (_gcry_aes_aesni_gcm_crypt, _gcry_aes_aesni_gcm_siv_dec).  */
#ifdef __x86_64__
size_t _gcry_aes_vaes_avx512_gcm_crypt (gcry_cipher_hd_t c, void *out,
                                        const void *in, size_t nblocks,
                                        int encrypt) GCIPHER_INTERNAL;
size_t _gcry_aes_vaes_avx512_gcm_siv_dec (void *ctx,
                                          const gcm_ghash_ops *ghash,
                                          const gcm_ghash_key *key,
                                          unsigned char *s,
                                          unsigned char *ctr, void *out,
                                          const void *in,
                                          size_t nblocks) GCIPHER_INTERNAL;
#endif
/* The zmm kernel's GCM-SIV decryption on the vpclmul-avx512 key area KEY
 * of an AES-NI-layout context CTX: CTR (32-bit little-endian counter in
 * CTR) and POLYVAL continued in S; whole groups of 32 blocks, returns
 * the blocks left undone.  Needs AVX-512 (amd64 and i386).  */
size_t _gcry_gcm_vaes_avx512_siv_dec (const void *ctx,
                                      const gcm_ghash_key *key,
                                      unsigned char *s, unsigned char *ctr,
                                      void *out, const void *in,
                                      size_t nblocks) GCIPHER_INTERNAL;
size_t _gcry_aes_vaes_avx2_gcm_crypt (gcry_cipher_hd_t c, void *out,
                                      const void *in, size_t nblocks,
                                      int encrypt) GCIPHER_INTERNAL;
size_t _gcry_aes_vaes_avx2_gcm_siv_dec (void *ctx, const gcm_ghash_ops *ghash,
                                        const gcm_ghash_key *key,
                                        unsigned char *s, unsigned char *ctr,
                                        void *out, const void *in,
                                        size_t nblocks) GCIPHER_INTERNAL;
#endif

#ifdef HAVE_RISCV_VCRYPTO
/* cipher-gcm-riscv-zvkg.cpp.  */
extern const gcm_ghash_ops _gcry_ghash_ops_zvkg GCIPHER_INTERNAL;
/* The Zvkned AES path's gcm_crypt slot (stitched CTR + vghsh); all
 * blocks left undone unless the GHASH back end is "zvkg".  */
size_t _gcry_aes_zvkned_gcm_crypt (gcry_cipher_hd_t c, void *out,
                                   const void *in, size_t nblocks,
                                   int encrypt) GCIPHER_INTERNAL;
/* cipher-gcm-riscv-zbc.cpp (built with the same assembler check).  */
extern const gcm_ghash_ops _gcry_ghash_ops_zbc GCIPHER_INTERNAL;
#endif

#ifdef GCIPHER_ARCH_AARCH64
/* cipher-gcm-armv8-ce.cpp (GHASH and POLYVAL).  */
extern const gcm_ghash_ops _gcry_ghash_ops_armv8_pmull GCIPHER_INTERNAL;
/* The ARMv8-CE AES path's gcm_crypt slot (stitched CTR + PMULL GHASH, 8
 * blocks per group); all blocks left undone unless the GHASH back end is
 * "pmull".  */
size_t _gcry_aes_armv8_ce_gcm_crypt (gcry_cipher_hd_t c, void *out,
                                     const void *in, size_t nblocks,
                                     int encrypt) GCIPHER_INTERNAL;
#endif

/* The back ends, fastest first; the last (generic) needs no hwf.  GCM
 * and GCM-SIV choose from this one table with cipher_impl_choose.  */
inline constexpr cipher_impl<const gcm_ghash_ops *> _gcry_gcm_ghash_table[] = {
#ifdef GCIPHER_ARCH_X86
  { { "vpclmul-avx512", HWF_INTEL_VAES_VPCLMUL | HWF_INTEL_AVX512
                        | HWF_INTEL_PCLMUL | HWF_INTEL_SSE4_1
                        | HWF_INTEL_SSSE3 },
    &_gcry_ghash_ops_vpclmul_avx512 },
  { { "vpclmul-avx2", HWF_INTEL_VAES_VPCLMUL | HWF_INTEL_AVX2
                      | HWF_INTEL_PCLMUL | HWF_INTEL_SSE4_1
                      | HWF_INTEL_SSSE3 },
    &_gcry_ghash_ops_vpclmul_avx2 },
  { { "pclmul", HWF_INTEL_PCLMUL | HWF_INTEL_SSE4_1 | HWF_INTEL_SSSE3 },
    &_gcry_ghash_ops_pclmul },
#endif
#ifdef HAVE_RISCV_VCRYPTO
  { { "zvkg", HWF_RISCV_V | HWF_RISCV_ZVKG }, &_gcry_ghash_ops_zvkg },
  { { "zbc", HWF_RISCV_ZBC | HWF_RISCV_ZBB }, &_gcry_ghash_ops_zbc },
#endif
#ifdef GCIPHER_ARCH_AARCH64
  { { "pmull", HWF_ARM_NEON | HWF_ARM_PMULL }, &_gcry_ghash_ops_armv8_pmull },
#endif
  { { "generic", 0 }, &_gcry_ghash_ops_generic },
};
/* Its name/hwf view (cipher_impl_info, as cipher_spec::impls): the
 * tests force each back end by masking hwf to its bits.  */
inline constexpr auto _gcry_gcm_ghash_impl_list
  = cipher_impl_info_list (_gcry_gcm_ghash_table);
inline constexpr const cipher_impl_info (&_gcry_gcm_ghash_impls)
  [_gcry_gcm_ghash_impl_list.n] = _gcry_gcm_ghash_impl_list.v;
inline constexpr size_t _gcry_gcm_n_ghash_impls = _gcry_gcm_ghash_impl_list.n;

#endif /* GCIPHER_CIPHER_GCM_H */
