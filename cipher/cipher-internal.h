/* cipher-internal.h - the cipher handle, algorithm specs and bulk ops.
 *
 * The contract every algorithm and every mode file keeps:
 *
 *  - An algorithm is a cipher_spec: name, aliases, OIDs, block size (bytes),
 *    default key length (bits), context size (bytes), setkey, single-block
 *    encrypt/decrypt and a self-test.
 *  - setkey expands the key into the context and fills the handle's
 *    cipher_bulk_ops with the fastest implementation the CPU allows and the
 *    hwf disable list permits (first match in the spec's impls[] list).
 *  - Every function that touches secret data returns the number of stack
 *    bytes it may have left secrets in; the API layer burns that much
 *    (_gcry_burn_stack) before returning to the user.  0 = nothing to burn.
 *  - Bulk functions take whole blocks (NBLOCKS counts 16-byte blocks); the
 *    mode code in cipher-*.cpp owns partial blocks, buffering and IV state.
 *    Buffers may be unaligned; IN == OUT (in place) is allowed, partial
 *    overlap never reaches a mode (cipher.cpp moves the input to the
 *    output first and runs the mode in place).
 */
#ifndef GCIPHER_CIPHER_INTERNAL_H
#define GCIPHER_CIPHER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "../src/g10lib.h"

/* Largest block size of an algorithm gcipher implements itself.  */
#define MAX_BLOCKSIZE 16
/* Alignment of the algorithm context inside the handle allocation.  */
#define CONTEXT_ALIGN 64

struct gcm_ghash_ops;   /* cipher-gcm.h */
struct gcm_ghash_key;

/* Whole-block bulk functions (libgcrypt's bulk-ops table).  A NULL slot
 * means "no bulk path": the mode falls back to the per-block functions.
 * All return the stack burn depth in bytes, except the OCB/GCM ones which
 * return the number of blocks they did NOT process (0 = all done) and burn
 * by themselves.  IV/CTR/TWEAK are 16-byte buffers, updated in place. */
struct cipher_bulk_ops
{
  /* ECB over NBLOCKS blocks; ENCRYPT selects the direction.  */
  unsigned int (*ecb_crypt) (void *ctx, void *out, const void *in,
                             size_t nblocks, int encrypt);
  /* CBC encryption (SP 800-38A 6.2).  With CBC_MAC nonzero every output
   * block goes to OUT (not advanced) and IV ends as the MAC.  */
  unsigned int (*cbc_enc) (void *ctx, unsigned char *iv, void *out,
                           const void *in, size_t nblocks, int cbc_mac);
  unsigned int (*cbc_dec) (void *ctx, unsigned char *iv, void *out,
                           const void *in, size_t nblocks);
  /* CFB-128 (SP 800-38A 6.3); IV ends as the last ciphertext block.  */
  unsigned int (*cfb_enc) (void *ctx, unsigned char *iv, void *out,
                           const void *in, size_t nblocks);
  unsigned int (*cfb_dec) (void *ctx, unsigned char *iv, void *out,
                           const void *in, size_t nblocks);
  /* OFB (SP 800-38A 6.4); IV ends as the last keystream block.  */
  unsigned int (*ofb_enc) (void *ctx, unsigned char *iv, void *out,
                           const void *in, size_t nblocks);
  /* CTR with a 128-bit big-endian counter, wrapping at 2^128
   * (SP 800-38A 6.5, B.1); CTR ends as the next unused counter.  */
  unsigned int (*ctr16be_enc) (void *ctx, unsigned char *ctr, void *out,
                               const void *in, size_t nblocks);
  /* CTR with a 32-bit little-endian counter in bytes 0..3 (RFC 8452 4). */
  unsigned int (*ctr32le_enc) (void *ctx, unsigned char *ctr, void *out,
                               const void *in, size_t nblocks);
  /* XTS (IEEE 1619-2018 5.3) over whole blocks; TWEAK is the running
   * tweak (already encrypted), updated in place.  */
  unsigned int (*xts_crypt) (void *ctx, unsigned char *tweak, void *out,
                             const void *in, size_t nblocks, int encrypt);
  size_t (*ocb_crypt) (gcry_cipher_hd_t c, void *out, const void *in,
                       size_t nblocks, int encrypt);
  size_t (*ocb_auth) (gcry_cipher_hd_t c, const void *abuf, size_t nblocks);
  size_t (*gcm_crypt) (gcry_cipher_hd_t c, void *out, const void *in,
                       size_t nblocks, int encrypt);
  /* CCM payload (NIST SP 800-38C 6.1, 6.2) over NBLOCKS whole blocks:
   * CTR as ctr16be_enc on CTR, and the CBC-MAC register MAC (16 bytes)
   * run over the plaintext (IN when ENCRYPT, else OUT), the two
   * interleaved.  Returns the stack burn depth.  */
  unsigned int (*ccm_crypt) (void *ctx, unsigned char *mac,
                             unsigned char *ctr, void *out, const void *in,
                             size_t nblocks, int encrypt);
  /* GCM-SIV decryption (RFC 8452 4) over NBLOCKS whole blocks: CTR as
   * ctr32le_enc on CTR, and POLYVAL of the plaintext (OUT) continued in
   * S (16 bytes, RFC 8452 order) on the key area KEY of the GHASH back
   * end GHASH (cipher-gcm.h), interleaved.  Returns the blocks left
   * undone: all of them when the slot cannot use that back end.  */
  size_t (*gcm_siv_dec) (void *ctx, const gcm_ghash_ops *ghash,
                         const gcm_ghash_key *key, unsigned char *s,
                         unsigned char *ctr, void *out, const void *in,
                         size_t nblocks);
};

/* One implementation ("path") of an algorithm: its name as the trace and
 * the tests print it, and the hwf bits it needs (all of them).  */
struct cipher_impl_info
{
  const char *name;
  unsigned int hwf;
};

struct cipher_oid_spec
{
  const char *oid;
  int mode;
};

struct cipher_spec
{
  int algo;
  const char *name;
  const char *const *aliases;        /* NULL-terminated, or NULL.  */
  const cipher_oid_spec *oids;       /* {NULL,0}-terminated, or NULL.  */
  size_t blocksize;                  /* Bytes.  */
  size_t keylen;                     /* Bits.  */
  size_t contextsize;                /* Bytes, allocated CONTEXT_ALIGNed.  */
  /* Expand KEY (KEYLEN bytes) into CTX; fill BULK; set *IMPL_NAME to the
   * chosen path.  Returns GPG_ERR_INV_KEYLEN for a bad length (a weak
   * key: GPG_ERR_WEAK_KEY), else 0.  Burns its own stack.  The caller
   * runs the self-test first (_gcry_cipher_selftest_once; setkey in
   * cipher.cpp does, and so must a test calling the spec directly).  */
  gcry_err_code_t (*setkey) (void *ctx, const unsigned char *key,
                             size_t keylen, cipher_bulk_ops *bulk,
                             const char **impl_name);
  /* One block; return the stack burn depth.  */
  unsigned int (*encrypt) (void *ctx, unsigned char *out,
                           const unsigned char *in);
  unsigned int (*decrypt) (void *ctx, unsigned char *out,
                           const unsigned char *in);
  /* Known answers and bulk-vs-single-block checks of every available
   * path; NULL on success, else a description of the failure.  */
  const char *(*selftest) (void);
  /* Paths, fastest first; the last needs no hwf (generic): the name/hwf
   * view of the algorithm's table (cipher-impl.h).  */
  const cipher_impl_info *impls;
  size_t n_impls;
  /* Stream ciphers (libgcrypt's stencrypt/stdecrypt/setiv; block
   * ciphers leave them NULL, so positional initialisers stay valid).
   * A spec with stencrypt serves GCRY_CIPHER_MODE_STREAM (and the mode
   * files that accept it, e.g. POLY1305); its blocksize is 1 and
   * encrypt/decrypt are NULL.  stencrypt/stdecrypt: LEN bytes (any
   * length; IN == OUT allowed), keystream position kept in the context;
   * return the stack burn depth.  setiv: the nonce (IV NULL or a length
   * the algorithm does not take: its default, as libgcrypt); no error.
   * cipher.cpp keeps a copy of the context as it was after setkey and
   * restores it on GCRYCTL_RESET (libgcrypt does the same), so the
   * context must be position independent (no pointers into itself).  */
  unsigned int (*stencrypt) (void *ctx, unsigned char *out,
                             const unsigned char *in, size_t len) = nullptr;
  unsigned int (*stdecrypt) (void *ctx, unsigned char *out,
                             const unsigned char *in, size_t len) = nullptr;
  void (*setiv) (void *ctx, const unsigned char *iv, size_t ivlen) = nullptr;
};

/* Mode flags of the handle.  */
struct cipher_marks
{
  unsigned int key : 1;       /* setkey succeeded.  */
  unsigned int iv : 1;        /* An IV was set.  */
  unsigned int tag : 1;       /* AEAD: tag computed/finalized.  */
  unsigned int finalize : 1;  /* GCRYCTL_FINALIZE seen.  */
  unsigned int allow_weak_key : 1;  /* GCRYCTL_SET_ALLOW_WEAK_KEY.  */
  /* Set by cipher.cpp around a call whose buffer is NULL (or whose
   * length no buffer can have): the mode hook runs its own argument,
   * length and state checks in libgcrypt's order, then returns
   * GPG_ERR_NO_ERROR (see cipher_check_only) before it touches a buffer
   * or the message state; cipher.cpp then refuses the call.  So the
   * code is libgcrypt's wherever libgcrypt answers before it would
   * dereference the pointer.  */
  unsigned int check_only : 1;
};

#define CTX_MAGIC_NORMAL 0x24091964u
#define CTX_MAGIC_SECURE 0x46919042u

/* The handle.  One allocation holds the handle, then the algorithm
 * context at a CONTEXT_ALIGN boundary.  Wiped on close.  */
struct gcry_cipher_handle
{
  uint32_t magic;
  size_t alloc_size;                 /* Bytes in this allocation.  */
  void *alloc_base;                  /* Its start (the handle may sit a
                                      * few bytes in, for alignment).  */
  const cipher_spec *spec;
  int algo;
  int mode;
  unsigned int flags;                /* Current flags (ctl may change). */
  unsigned int open_flags;           /* As given to open: CBC-CTS is
                                        fixed then, as in libgcrypt.  */
  cipher_marks marks;
  cipher_bulk_ops bulk;
  const char *impl_name;             /* Path chosen at setkey.  */
  void *ctx;                         /* Algorithm context (in this block). */

  /* Generic mode state.  */
  alignas (16) unsigned char iv[MAX_BLOCKSIZE];     /* IV / chaining value */
  alignas (16) unsigned char lastiv[MAX_BLOCKSIZE]; /* CFB sync, CTS, ...  */
  alignas (16) unsigned char ctr[MAX_BLOCKSIZE];    /* CTR counter.  */
  size_t unused;     /* Unused keystream bytes: the last UNUSED bytes of
                        iv (CFB, OFB: iv holds the keystream block, its
                        used bytes turned into ciphertext in CFB) or of
                        lastiv (CTR keystream).  CFB keeps the register
                        the partial block came from in lastiv (for
                        GCRYCTL_CFB_SYNC); CFB8 keeps its keystream
                        there.  Same layout as libgcrypt, so odd
                        sequences (sync on an OFB handle) match too. */

  /* State of a mode beyond the generic ones (AEAD, XTS, key wrap): its
   * cipher_mode_ops::state_size bytes, CONTEXT_ALIGNed, in this same
   * allocation after the algorithm context; zeroed at open, cleared by
   * GCRYCTL_RESET (then the mode's reset hook runs), wiped on close.
   * NULL for the generic modes (their state is iv/lastiv/ctr/unused
   * above).  Each mode file defines its own layout (in cipher-<mode>.h
   * when a bulk function needs to see it).  */
  void *mode_ctx;
  size_t mode_ctx_size;
  /* The mode's entry in mode_ops_list; never NULL on an open handle.  */
  const struct cipher_mode_ops *mode_ops;
};

/* True while cipher.cpp only wants the hook's checks (cipher_marks::
 * check_only): the hook returns GPG_ERR_NO_ERROR at this point, after
 * its checks and before any write.  Only the hooks of modes without a
 * cipher_mode_ops::check hook test it; the generic modes (ECB, CBC,
 * CFB, CFB8, OFB, CTR) and STREAM have their few rules in their check
 * hook instead, so their per-call path has no extra test.  */
inline bool
cipher_check_only (gcry_cipher_hd_t c)
{
  return __builtin_expect (c->marks.check_only, 0);
}

/* Stack burning after a secret-touching call (ARCHITECTURE.md): the
 * kernels return the depth in bytes their frames may have left key- or
 * data-dependent bytes in; a mode keeps the largest of its calls' depths
 * and burns once at the end, that depth plus four words for the frames
 * in between.  Depth 0 (nothing ran, or nothing left on the stack):
 * nothing to burn.  umax: the larger of two depths.  */
constexpr unsigned int
umax (unsigned int a, unsigned int b)
{
  return a > b ? a : b;
}

inline void
cipher_burn (unsigned int depth)
{
  if (depth)
    _gcry_burn_stack (depth + 4 * sizeof (void *));
}

#define MODE_KEEPS_ON_SETKEY 1u  /* mode_ctx not wiped before setkey.  */
#define MODE_KEEPS_ON_RESET  2u  /* mode_ctx not wiped by GCRYCTL_RESET.  */

/* A mode: every mode gcipher serves, the generic ones (ECB, CBC, CFB,
 * CFB8, OFB, CTR, STREAM) as well as AEAD, XTS and key wrap.  Each mode
 * file defines one `const cipher_mode_ops _gcry_cipher_mode_<name>`
 * (cipher-cfb.cpp two: CFB and CFB8) and adds it to mode_ops_list in
 * cipher.cpp; open finds the mode there (no entry: GPG_ERR_INV_CIPHER_MODE)
 * and every open handle has its entry in mode_ops.  cipher.cpp calls the
 * hooks after its own common checks (handle valid, key set for data
 * calls, argument shapes as the comments below say).  A NULL hook gets
 * libgcrypt's answer for "this mode has no such operation"
 * (GPG_ERR_INV_CIPHER_MODE), or the generic behaviour where noted;
 * encrypt and decrypt are required.  Every member defaults to NULL (0),
 * so a table names only what its mode has, with designated initializers
 * (.mode = ..., .encrypt = ...).  Lengths are bytes.  */
struct cipher_mode_ops
{
  int mode;
  /* Which of the mode_ctx state libgcrypt keeps where the other modes
   * start clean (bit mask of MODE_KEEPS_*): e.g. an OCB, CCM, EAX, GCM or
   * GCM-SIV message survives setkey (the setkey hook re-derives what
   * depends on the key); XTS's and SIV's second key schedule, AES-WRAP's
   * last unwrapped length and GCM-SIV's key length survive GCRYCTL_RESET
   * (the reset hook clears the message part).  */
  unsigned int keeps = 0;
  /* May SPEC serve this mode (e.g. block size 16)?  Nonzero if so; open
   * fails with GPG_ERR_INV_CIPHER_MODE otherwise.  cipher.cpp asks only
   * for a block cipher that cipher_block_spec_ok accepts (NULL then
   * means yes) and for a stream cipher (spec->stencrypt set; NULL then
   * means no).  */
  int (*supported) (const cipher_spec *spec) = nullptr;
  /* Bytes of mode state for SPEC (the h->mode_ctx area).  NULL: none
   * (mode_ctx stays NULL).  */
  size_t (*state_size) (const cipher_spec *spec) = nullptr;
  /* The whole key set-up (cipher.cpp has run the self-test and wiped
   * the context and bulk table; on error it wipes them again).  Use
   * _gcry_cipher_setkey_algo for the algorithm part.  NULL: just that.  */
  gcry_err_code_t (*setkey) (gcry_cipher_hd_t c, const unsigned char *key,
                             size_t keylen) = nullptr;
  /* NULL: the generic setiv (zero-pad / truncate to the block size).  */
  gcry_err_code_t (*setiv) (gcry_cipher_hd_t c, const unsigned char *iv,
                            size_t ivlen) = nullptr;
  /* After GCRYCTL_RESET's generic part (IV, counters and the mode_ctx
   * area are cleared first): re-derive what must survive (e.g. the
   * GHASH key powers from the key).  NULL: nothing more.  */
  void (*reset) (gcry_cipher_hd_t c) = nullptr;
  /* Data: OUT has OUTSIZE bytes (>= what the mode writes is the mode's
   * check); IN == OUT for in place.  The key is known to be set.
   * Required (cipher.cpp calls them without a test).  */
  gcry_err_code_t (*encrypt) (gcry_cipher_hd_t c, unsigned char *out,
                              size_t outsize, const unsigned char *in,
                              size_t inlen) = nullptr;
  gcry_err_code_t (*decrypt) (gcry_cipher_hd_t c, unsigned char *out,
                              size_t outsize, const unsigned char *in,
                              size_t inlen) = nullptr;
  gcry_err_code_t (*authenticate) (gcry_cipher_hd_t c,
                                   const unsigned char *abuf,
                                   size_t abuflen) = nullptr;
  gcry_err_code_t (*gettag) (gcry_cipher_hd_t c, unsigned char *tag,
                             size_t taglen) = nullptr;
  gcry_err_code_t (*checktag) (gcry_cipher_hd_t c, const unsigned char *tag,
                               size_t taglen) = nullptr;
  /* The mode's own commands: GCRYCTL_SET_TAGLEN (BUFFER an int, BUFLEN
   * sizeof (int), checked by cipher.cpp), GCRYCTL_SET_CCM_LENGTHS,
   * GCRYCTL_SET_DECRYPTION_TAG (BUFFER non-NULL, checked).  */
  gcry_err_code_t (*ctl) (gcry_cipher_hd_t c, int cmd, void *buffer,
                          size_t buflen) = nullptr;
  /* gcry_cipher_info: GCRYCTL_GET_TAGLEN (NBYTES set, BUFFER NULL),
   * GCRYCTL_GET_KEYLEN (both set), argument shapes checked.  */
  gcry_err_code_t (*info) (gcry_cipher_hd_t c, int what, void *buffer,
                           size_t *nbytes) = nullptr;
  /* GCRYCTL_SET_SBOX changed the block function under a keyed handle
   * (GOST 28147): re-derive what the mode precomputed from the block
   * function where libgcrypt computes it later, on the first use.
   * NULL (the default): nothing is precomputed, or it is kept.  */
  void (*block_changed) (gcry_cipher_hd_t c) = nullptr;
  /* The checks encrypt (ENCRYPT true) or decrypt would make of a call
   * with OUTSIZE bytes of output and INLEN of input, in their order and
   * with their codes, without the buffers: what cipher.cpp runs before
   * a call it will not or cannot make as it stands (a NULL output,
   * partly overlapping buffers).  GPG_ERR_NO_ERROR if the call would get
   * past them.  Touches no state.  NULL: cipher.cpp runs the encrypt or
   * decrypt hook with cipher_marks::check_only set instead, which the
   * hook must then honour (cipher_check_only).  */
  gcry_err_code_t (*check) (gcry_cipher_hd_t c, size_t outsize,
                            size_t inlen, bool encrypt) = nullptr;
  /* A key length the mode refuses before setkey touches the handle, so
   * the previous key stays in use (XTS: an odd length cannot split into
   * Key1 || Key2): the error code, else GPG_ERR_NO_ERROR.  NULL: every
   * length goes to the setkey hook.  */
  gcry_err_code_t (*keylen_check) (size_t keylen) = nullptr;
  /* True when a call writes one block whatever its input length (CBC
   * encryption with GCRY_CIPHER_CBC_MAC): cipher.cpp runs a call whose
   * buffers overlap into a local block and copies it to OUT.  NULL:
   * never.  */
  bool (*writes_one_block) (gcry_cipher_hd_t c, bool encrypt) = nullptr;
  /* The output is longer or shorter than the input (key wrap, 8 bytes):
   * cipher.cpp neither moves an overlapping input into OUT first nor
   * runs an empty call with a NULL output through a dummy block; the
   * data hooks handle both.  */
  bool resizes = false;
};

/* The algorithm part of setkey: SPEC->setkey on CTX (normally c->ctx)
 * filling c->bulk and c->impl_name.  For modes with a second key (XTS,
 * SIV) call it again with the second context and a scratch bulk table
 * via _gcry_cipher_setkey_algo_ctx.  */
gcry_err_code_t _gcry_cipher_setkey_algo (gcry_cipher_hd_t c,
                                          const unsigned char *key,
                                          size_t keylen) GCIPHER_INTERNAL;
gcry_err_code_t _gcry_cipher_setkey_algo_ctx (gcry_cipher_hd_t c, void *ctx,
                                              const unsigned char *key,
                                              size_t keylen,
                                              cipher_bulk_ops *bulk)
  GCIPHER_INTERNAL;

/* ---- Registry (cipher.cpp) ----------------------------------------- */
/* Spec of ALGO, or NULL if gcipher does not implement it.  */
const cipher_spec *_gcry_cipher_spec_from_algo (int algo) GCIPHER_INTERNAL;
/* The nth spec gcipher implements (0..), NULL past the end.  */
const cipher_spec *_gcry_cipher_spec_nth (int idx) GCIPHER_INTERNAL;
/* Nonzero if gcipher implements MODE for SPEC: MODE has an entry in
 * mode_ops_list and its supported hook accepts SPEC.  */
int _gcry_cipher_mode_supported (const cipher_spec *spec, int mode)
  GCIPHER_INTERNAL;
/* Run SPEC's self-test once per process (thread-safe); returns
 * GPG_ERR_SELFTEST_FAILED forever after a failure.  */
gcry_err_code_t _gcry_cipher_selftest_once (const cipher_spec *spec)
  GCIPHER_INTERNAL;
/* Run every algorithm's self-test now (GCRYCTL_SELFTEST).  */
gcry_err_code_t _gcry_cipher_selftest_all (void) GCIPHER_INTERNAL;

/* ---- The API, unexported (cipher.cpp); visibility.cpp and preload.cpp
 * wrap these.  Return gcry_err_code_t (0 = success); the wrappers make
 * gcry_error_t with GPG_ERR_SOURCE_GCRYPT.  ------------------------- */
gcry_err_code_t _gcry_cipher_open (gcry_cipher_hd_t *handle, int algo,
                                   int mode, unsigned int flags)
  GCIPHER_INTERNAL;
void _gcry_cipher_close (gcry_cipher_hd_t h) GCIPHER_INTERNAL;
gcry_err_code_t _gcry_cipher_ctl (gcry_cipher_hd_t h, int cmd, void *buffer,
                                  size_t buflen) GCIPHER_INTERNAL;
gcry_err_code_t _gcry_cipher_info (gcry_cipher_hd_t h, int what,
                                   void *buffer, size_t *nbytes)
  GCIPHER_INTERNAL;
gcry_err_code_t _gcry_cipher_algo_info (int algo, int what, void *buffer,
                                        size_t *nbytes) GCIPHER_INTERNAL;
const char *_gcry_cipher_algo_name (int algo) GCIPHER_INTERNAL;
int _gcry_cipher_map_name (const char *name) GCIPHER_INTERNAL;
int _gcry_cipher_mode_from_oid (const char *oid) GCIPHER_INTERNAL;
gcry_err_code_t _gcry_cipher_encrypt (gcry_cipher_hd_t h, void *out,
                                      size_t outsize, const void *in,
                                      size_t inlen) GCIPHER_INTERNAL;
gcry_err_code_t _gcry_cipher_decrypt (gcry_cipher_hd_t h, void *out,
                                      size_t outsize, const void *in,
                                      size_t inlen) GCIPHER_INTERNAL;
gcry_err_code_t _gcry_cipher_setkey (gcry_cipher_hd_t h, const void *key,
                                     size_t keylen) GCIPHER_INTERNAL;
gcry_err_code_t _gcry_cipher_setiv (gcry_cipher_hd_t h, const void *iv,
                                    size_t ivlen) GCIPHER_INTERNAL;
gcry_err_code_t _gcry_cipher_setctr (gcry_cipher_hd_t h, const void *ctr,
                                     size_t ctrlen) GCIPHER_INTERNAL;
gcry_err_code_t _gcry_cipher_authenticate (gcry_cipher_hd_t h,
                                           const void *abuf, size_t abuflen)
  GCIPHER_INTERNAL;
gcry_err_code_t _gcry_cipher_gettag (gcry_cipher_hd_t h, void *outtag,
                                     size_t taglen) GCIPHER_INTERNAL;
gcry_err_code_t _gcry_cipher_checktag (gcry_cipher_hd_t h, const void *intag,
                                       size_t taglen) GCIPHER_INTERNAL;
size_t _gcry_cipher_get_algo_keylen (int algo) GCIPHER_INTERNAL;
size_t _gcry_cipher_get_algo_blklen (int algo) GCIPHER_INTERNAL;
/* Nonzero if (ALGO, MODE, FLAGS) would be served by gcipher (the
 * interposer forwards the rest).  */
int _gcry_cipher_is_implemented (int algo, int mode, unsigned int flags)
  GCIPHER_INTERNAL;

/* ---- Generic modes (cipher-<mode>.cpp): the encrypt and decrypt
 * hooks of their cipher_mode_ops, also callable directly (CCM runs
 * CTR).  Lengths in bytes; the caller has checked that a key is set;
 * each checks OUTBUFLEN itself (GPG_ERR_BUFFER_TOO_SHORT).  Return 0
 * or a gcry_err_code_t; burn their own stack.  ------------------------ */
#define DECLARE_MODE(m)                                                  \
  gcry_err_code_t _gcry_cipher_##m##_encrypt (gcry_cipher_hd_t c,       \
      unsigned char *outbuf, size_t outbuflen,                          \
      const unsigned char *inbuf, size_t inbuflen) GCIPHER_INTERNAL;    \
  gcry_err_code_t _gcry_cipher_##m##_decrypt (gcry_cipher_hd_t c,       \
      unsigned char *outbuf, size_t outbuflen,                          \
      const unsigned char *inbuf, size_t inbuflen) GCIPHER_INTERNAL;
DECLARE_MODE (ecb)
DECLARE_MODE (cbc)
DECLARE_MODE (cfb)
DECLARE_MODE (cfb8)
DECLARE_MODE (ofb)
DECLARE_MODE (ctr)
DECLARE_MODE (stream)
#undef DECLARE_MODE

/* ---- Self-test helpers (cipher-selftest.cpp) ----------------------- */
/* Check the bulk CTR / CBC-dec / CFB-dec slots of a freshly keyed
 * context against the single-block function, NBLOCKS blocks, random-free
 * fixed data.  NULL on success, else a description.  */
const char *_gcry_selftest_helper_ctr (const char *cipher, const cipher_spec *spec,
                                       void *ctx, const cipher_bulk_ops *bulk,
                                       size_t nblocks) GCIPHER_INTERNAL;
const char *_gcry_selftest_helper_cbc (const char *cipher, const cipher_spec *spec,
                                       void *ctx, const cipher_bulk_ops *bulk,
                                       size_t nblocks) GCIPHER_INTERNAL;
const char *_gcry_selftest_helper_cfb (const char *cipher, const cipher_spec *spec,
                                       void *ctx, const cipher_bulk_ops *bulk,
                                       size_t nblocks) GCIPHER_INTERNAL;
/* The same for ctr32le_enc (RFC 8452 4, across the 2^32 wrap), xts_crypt
 * (both directions, IEEE 1619-2018 5.3) and ecb_crypt (both directions). */
const char *_gcry_selftest_helper_ctr32le (const char *cipher, const cipher_spec *spec, void *ctx, const cipher_bulk_ops *bulk, size_t nblocks) GCIPHER_INTERNAL;
const char *_gcry_selftest_helper_xts (const char *cipher, const cipher_spec *spec, void *ctx, const cipher_bulk_ops *bulk, size_t nblocks) GCIPHER_INTERNAL;
const char *_gcry_selftest_helper_ecb (const char *cipher, const cipher_spec *spec, void *ctx, const cipher_bulk_ops *bulk, size_t nblocks) GCIPHER_INTERNAL;

/* ---- Small helpers ------------------------------------------------ */
/* LEN / BS and LEN % BS (bytes) without a division instruction for the
 * 16-byte block size of every cipher gcipher implements.  */
static inline size_t
cipher_nblocks (size_t len, size_t bs)
{
  return bs == 16 ? len >> 4 : len / bs;
}

static inline size_t
cipher_tail (size_t len, size_t bs)
{
  return bs == 16 ? len & 15 : len % bs;
}

/* CBC's length rule (both directions): whole blocks, or with
 * ciphertext stealing (CBC_CTS given to open) more than one block.
 * Shared by cipher-cbc.cpp and cipher.cpp's checks-only path.  */
static inline bool
cipher_cbc_length_ok (gcry_cipher_hd_t c, size_t inbuflen)
{
  const size_t bs = c->spec->blocksize;
  return !cipher_tail (inbuflen, bs)
         || (inbuflen > bs && (c->open_flags & GCRY_CIPHER_CBC_CTS));
}

/* Whether SPEC is a block cipher the generic modes can run: the
 * single-block functions, and a block of 1 to MAX_BLOCKSIZE bytes.
 * Every mode but STREAM asks it of a spec without stencrypt (cipher.cpp,
 * _gcry_cipher_mode_supported); it is the whole supported rule of ECB,
 * CBC, CFB, CFB8, OFB and CTR.  */
static inline bool
cipher_block_spec_ok (const cipher_spec *spec)
{
  return spec->encrypt && spec->decrypt && spec->blocksize
         && spec->blocksize <= MAX_BLOCKSIZE;
}

/* The check hook (cipher_mode_ops::check) of the modes that write as
 * many bytes as they read and take any length (CFB, CFB8, OFB, CTR,
 * STREAM): GPG_ERR_BUFFER_TOO_SHORT if OUTSIZE < INLEN.  */
inline gcry_err_code_t
cipher_check_outsize (gcry_cipher_hd_t, size_t outsize, size_t inlen, bool)
{
  return outsize < inlen ? GPG_ERR_BUFFER_TOO_SHORT : GPG_ERR_NO_ERROR;
}

/* A 16-byte block moved as one vector (GCC's vector extension: one
 * 16-byte load or store where the target has one, e.g. SSE2 movdqu).
 * A block written in pieces (bytes, 8-byte halves) and then read by a
 * kernel's 16-byte load cannot be forwarded from the store buffer: the
 * load waits until the pieces reach the cache, 10 to 20 cycles on x86
 * (Intel and AMD optimisation manuals, store-to-load forwarding), which
 * lands on the critical path of a short message's MAC chain.  */
typedef uint64_t block16_t __attribute__ ((vector_size (16)));
/* Targets whose baseline has 16-byte vector registers (x86-64's SSE2,
 * arm64's NEON) use it; elsewhere (i686, riscv64 without V) the compiler
 * would build the vector in a stack temporary, which leaves key-derived
 * bytes outside the callers' burn depths (t-hygiene on i686): the
 * users keep their word-by-word code there.  */
#if defined(__SSE2__) || defined(__ARM_NEON) || defined(__aarch64__)
# define CIPHER_BLOCK16_VECTOR 1
#endif

static inline block16_t
block16_load (const unsigned char *p)
{
  block16_t v;
  memcpy (&v, p, sizeof v);
  return v;
}

static inline void
block16_store (unsigned char *p, block16_t v)
{
  memcpy (p, &v, sizeof v);
}

static inline void
cipher_block_xor (unsigned char *dst, const unsigned char *a,
                  const unsigned char *b, size_t n)
{
  for (size_t i = 0; i < n; i++)
    dst[i] = a[i] ^ b[i];
}

/* Tag / integrity verification without a branch on its result (house
 * rule; checked by tests/ct): the result stays secret inside the
 * library and becomes public only as the API's return value.  DIFF is
 * an OR of the differences (any width up to 64 bits).  All ones if
 * DIFF != 0, else 0; the empty asm keeps the compiler from turning the
 * 0/1 into a branch.  */
static inline uint64_t
ct_mask_nonzero (uint64_t diff)
{
  uint64_t bad = (diff | (0 - diff)) >> 63;
  __asm__ ("" : "+r" (bad));
  return 0 - bad;
}

/* GPG_ERR_CHECKSUM if DIFF != 0, else GPG_ERR_NO_ERROR; no branch.  */
static inline gcry_err_code_t
ct_checksum_error (uint64_t diff)
{
  return (gcry_err_code_t) (ct_mask_nonzero (diff) & GPG_ERR_CHECKSUM);
}

#ifdef GCIPHER_ARCH_X86
/* cipher-ct-avx2.cpp: ct_wipe_if_nonzero's pass with 32-byte stores
 * over P[0 .. N & ~31) (KEEP: the mask, all ones or all zeros); returns
 * the bytes done.  */
size_t _gcry_ct_wipe_if_nonzero_avx2 (unsigned char *p, size_t n,
                                      uint64_t keep) GCIPHER_INTERNAL;
/* From this many bytes the AVX2 pass is worth its call.  */
# define CT_WIPE_AVX2_MIN 256
#endif

/* Zero the N bytes at P if DIFF != 0 (a failed check), else leave
 * them; the same memory accesses either way.  This pass runs over every
 * decrypted SIV / GCM-SIV message at the store rate (byte by byte it
 * cost four times the decryption itself; with 16-byte stores, a
 * sixth of a 16 KiB GCM-SIV decryption on AMD Zen 4): 32 bytes per
 * store on x86 hosts with AVX2 (cipher-ct-avx2.cpp; N, and whether the
 * CPU has AVX2, are public), else 16 where the target has 16-byte
 * vectors (CIPHER_BLOCK16_VECTOR: one SSE2 AND on x86-64), else 8
 * (elsewhere the compiler builds a generic vector in a stack temporary,
 * where the plaintext would stay).  */
static inline void
ct_wipe_if_nonzero (unsigned char *p, size_t n, uint64_t diff)
{
  const uint64_t keep = ~ct_mask_nonzero (diff);
  size_t i = 0;
#ifdef GCIPHER_ARCH_X86
  if (n >= CT_WIPE_AVX2_MIN && (_gcry_get_hw_features () & HWF_INTEL_AVX2))
    i = _gcry_ct_wipe_if_nonzero_avx2 (p, n, keep);
#endif
#ifdef CIPHER_BLOCK16_VECTOR
  const block16_t keepv = { keep, keep };
  /* Four vectors per step: the loop runs at the store rate (a third
   * faster than one per step on Zen 5).  Four variables, not an array:
   * GCC 12 kept a copy of an array in the stack frame, so the last 64
   * bytes of the plaintext stayed there after the caller's burn
   * (t-hygiene's plaintext windows found it after GCM-SIV
   * decryption).  */
  for (; i + 64 <= n; i += 64)
    {
      block16_t w0 = block16_load (p + i) & keepv;
      block16_t w1 = block16_load (p + i + 16) & keepv;
      block16_t w2 = block16_load (p + i + 32) & keepv;
      block16_t w3 = block16_load (p + i + 48) & keepv;
      block16_store (p + i, w0);
      block16_store (p + i + 16, w1);
      block16_store (p + i + 32, w2);
      block16_store (p + i + 48, w3);
    }
  for (; i + 16 <= n; i += 16)
    block16_store (p + i, block16_load (p + i) & keepv);
#endif
  for (; i + 8 <= n; i += 8)
    {
      uint64_t w;
      memcpy (&w, p + i, 8);
      w &= keep;
      memcpy (p + i, &w, 8);
    }
  for (; i < n; i++)
    p[i] &= (unsigned char) keep;
}

/* libgcrypt's per-algorithm extras, for the few algorithms that have
 * them: one cipher_extra_ops per such spec, listed in cipher.cpp's
 * extra_ops_list.  3DES (private command 61) and GOST 28147-89 with its
 * key-meshing variant (GCRYCTL_SET_SBOX) have set_extra_info and reset;
 * the stream ciphers ARCFOUR, Salsa20, Salsa20/12 and ChaCha20 a reset
 * only, and keep their whole context across setkey (a successful setkey
 * overwrites all of it, a failed one leaves it as libgcrypt does).
 * libgcrypt never wipes a context before setkey and GCRYCTL_RESET copies
 * back the context as setkey left it; gcipher wipes, so an algorithm
 * keeps what must survive in the first KEEP_BYTES of its context and
 * restores the rest in RESET.  */
struct cipher_extra_ops
{
  const cipher_spec *spec;
  size_t keep_bytes;   /* Context prefix setkey (and its failure) keeps. */
  /* GCRYCTL_SET_SBOX (BUFFER as the caller gave it) and libgcrypt's
   * private command 61 (no weak-key check): libgcrypt's set_extra_info.
   * Other algorithms answer GPG_ERR_NOT_SUPPORTED.  */
  gcry_err_code_t (*set_extra_info) (void *ctx, int what, const void *buffer,
                                     size_t buflen);
  /* GCRYCTL_RESET: return the context to its state right after the last
   * setkey (key meshing state, settings made since).  NULL: nothing.  */
  void (*reset) (void *ctx);
};
/* The extras of SPEC, or NULL (cipher.cpp).  */
const cipher_extra_ops *_gcry_cipher_extra_ops (const cipher_spec *spec)
  GCIPHER_INTERNAL;

/* Algorithms (one extern spec per algorithm file).  */
extern const cipher_spec _gcry_cipher_spec_aes GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_aes192 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_aes256 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_serpent128 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_serpent192 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_serpent256 GCIPHER_INTERNAL;
/* 128-bit-block ciphers with constant-time generic code (camellia.cpp,
 * sm4.cpp, seed.cpp, twofish.cpp).  */
extern const cipher_spec _gcry_cipher_spec_camellia128 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_camellia192 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_camellia256 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_sm4 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_seed GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_twofish GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_twofish128 GCIPHER_INTERNAL;
/* ARIA (aria.cpp; libgcrypt 1.11's algorithm, not in 1.10).  */
extern const cipher_spec _gcry_cipher_spec_aria128 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_aria192 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_aria256 GCIPHER_INTERNAL;
/* 64-bit-block ciphers (des.cpp, blowfish.cpp, idea.cpp, rfc2268.cpp,
 * gost28147.cpp) and their extras.  */
extern const cipher_spec _gcry_cipher_spec_des GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_tripledes GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_blowfish GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_idea GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_rfc2268_40 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_rfc2268_128 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_gost28147 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_gost28147_mesh GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_cast5 GCIPHER_INTERNAL;  /* cast5.cpp */
extern const cipher_extra_ops _gcry_cipher_extra_tripledes GCIPHER_INTERNAL;
extern const cipher_extra_ops _gcry_cipher_extra_gost28147 GCIPHER_INTERNAL;
extern const cipher_extra_ops _gcry_cipher_extra_gost28147_mesh
  GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_arcfour GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_salsa20 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_salsa20r12 GCIPHER_INTERNAL;
extern const cipher_spec _gcry_cipher_spec_chacha20 GCIPHER_INTERNAL;
/* Their GCRYCTL_RESET (keystream back to where setkey left it).  */
extern const cipher_extra_ops _gcry_cipher_extra_arcfour GCIPHER_INTERNAL;
extern const cipher_extra_ops _gcry_cipher_extra_salsa20 GCIPHER_INTERNAL;
extern const cipher_extra_ops _gcry_cipher_extra_salsa20r12 GCIPHER_INTERNAL;
extern const cipher_extra_ops _gcry_cipher_extra_chacha20 GCIPHER_INTERNAL;
/* Modes (one or two per mode file; cipher.cpp's mode_ops_list).  */
extern const cipher_mode_ops _gcry_cipher_mode_ecb GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_cbc GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_cfb GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_cfb8 GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_ofb GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_ctr GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_stream GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_poly1305 GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_ccm GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_eax GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_siv GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_aeswrap GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_xts GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_ocb GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_gcm GCIPHER_INTERNAL;
extern const cipher_mode_ops _gcry_cipher_mode_gcm_siv GCIPHER_INTERNAL;

#endif /* GCIPHER_CIPHER_INTERNAL_H */
