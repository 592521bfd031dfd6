/* cipher.cpp - handle lifecycle, algorithm registry and mode dispatch.
 *
 * The API functions here (_gcry_cipher_*) return gcry_err_code_t; the
 * exported shells in src/visibility.cpp and src/preload.cpp turn them
 * into gcry_error_t.  Every behaviour visible through the API (error
 * codes, their order, what a call does to the handle after an error)
 * follows libgcrypt 1.10 as observed by running it side by side; the
 * differential test tests/t-api-diff.cpp holds the proof.
 *
 * The handle is one allocation: struct gcry_cipher_handle, then the
 * algorithm context at a CONTEXT_ALIGN boundary.  Every mode lives in
 * its cipher-<mode>.cpp and is reached through its cipher_mode_ops.
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "g10lib.h"
#include "cipher-internal.h"

namespace {

/* ---- Registry ------------------------------------------------------ */

/* Every algorithm gcipher implements, in gcry_cipher_algos order.  */
const cipher_spec *const cipher_list[] =
  {
    &_gcry_cipher_spec_aes,
    &_gcry_cipher_spec_aes192,
    &_gcry_cipher_spec_aes256,
    &_gcry_cipher_spec_serpent128,
    &_gcry_cipher_spec_serpent192,
    &_gcry_cipher_spec_serpent256,
    &_gcry_cipher_spec_des, &_gcry_cipher_spec_tripledes,
    &_gcry_cipher_spec_blowfish, &_gcry_cipher_spec_idea,
    &_gcry_cipher_spec_rfc2268_40, &_gcry_cipher_spec_rfc2268_128,
    &_gcry_cipher_spec_gost28147, &_gcry_cipher_spec_gost28147_mesh,
    &_gcry_cipher_spec_cast5,
    &_gcry_cipher_spec_camellia128,
    &_gcry_cipher_spec_camellia192,
    &_gcry_cipher_spec_camellia256,
    &_gcry_cipher_spec_sm4,
    &_gcry_cipher_spec_seed,
    &_gcry_cipher_spec_twofish,
    &_gcry_cipher_spec_twofish128,
    &_gcry_cipher_spec_aria128,      /* libgcrypt 1.11's, not in 1.10.  */
    &_gcry_cipher_spec_aria192,
    &_gcry_cipher_spec_aria256,
    &_gcry_cipher_spec_arcfour,      /* Stream ciphers.  */
    &_gcry_cipher_spec_salsa20,
    &_gcry_cipher_spec_salsa20r12,
    &_gcry_cipher_spec_chacha20,
  };
constexpr size_t n_ciphers = sizeof cipher_list / sizeof cipher_list[0];

/* Every mode gcipher serves, one entry per mode (see cipher_mode_ops in
 * cipher-internal.h): the generic ones, then those with state of their
 * own.  A mode not listed is not served (GPG_ERR_INV_CIPHER_MODE at
 * open); every open handle has its entry in mode_ops, and the data path
 * is one call through it.  */
const cipher_mode_ops *const mode_ops_list[] =
  {
    &_gcry_cipher_mode_ecb,
    &_gcry_cipher_mode_cbc,
    &_gcry_cipher_mode_cfb,
    &_gcry_cipher_mode_cfb8,
    &_gcry_cipher_mode_ofb,
    &_gcry_cipher_mode_ctr,
    &_gcry_cipher_mode_stream,
    &_gcry_cipher_mode_xts,
    &_gcry_cipher_mode_ocb,
    &_gcry_cipher_mode_ccm,
    &_gcry_cipher_mode_eax,
    &_gcry_cipher_mode_siv,
    &_gcry_cipher_mode_aeswrap,
    &_gcry_cipher_mode_gcm,
    &_gcry_cipher_mode_gcm_siv,
    &_gcry_cipher_mode_poly1305,
  };

/* Algorithms with libgcrypt's extras (cipher_extra_ops in
 * cipher-internal.h).  */
const cipher_extra_ops *const extra_ops_list[] =
  {
    &_gcry_cipher_extra_tripledes,
    &_gcry_cipher_extra_gost28147, &_gcry_cipher_extra_gost28147_mesh,
    &_gcry_cipher_extra_arcfour,     /* Stream ciphers: RESET.  */
    &_gcry_cipher_extra_salsa20,
    &_gcry_cipher_extra_salsa20r12,
    &_gcry_cipher_extra_chacha20,
    nullptr  /* (placeholder so the list is never empty) */
  };

/* Wipe C's algorithm context for a new key, except the prefix the
 * algorithm keeps across setkey (cipher_extra_ops::keep_bytes).  */
void
wipe_ctx_for_setkey (gcry_cipher_hd_t c)
{
  const cipher_extra_ops *x = _gcry_cipher_extra_ops (c->spec);
  size_t keep = x ? x->keep_bytes : 0;
  wipememory (static_cast<unsigned char *> (c->ctx) + keep,
              c->spec->contextsize - keep);
}

/* A handle gcipher did not open, or one already closed (close wipes
 * the magic).  libgcrypt dereferences such a handle and crashes; gcipher
 * answers GPG_ERR_INV_ARG instead, as it does for a NULL pointer where
 * a buffer of nonzero length is required.  */
bool
bad_handle (gcry_cipher_hd_t h)
{
  return !h || (h->magic != CTX_MAGIC_NORMAL && h->magic != CTX_MAGIC_SECURE);
}

/* OUT and IN share some but not all bytes.  libgcrypt documents only
 * IN == OUT (in place) and disjoint buffers; its result for other
 * overlaps depends on the offset and the path.  gcipher computes the
 * disjoint-buffer result instead (crypt_overlapping below).  Only
 * addresses are compared: public data.  */
bool
partial_overlap (const void *out, size_t outlen, const void *in, size_t inlen)
{
  if (!outlen || !inlen || out == in)
    return false;
  uintptr_t o = reinterpret_cast<uintptr_t> (out);
  uintptr_t i = reinterpret_cast<uintptr_t> (in);
  return o < i + inlen && i < o + outlen;
}

/* MODE's entry in mode_ops_list, or NULL if gcipher does not serve
 * it.  */
const cipher_mode_ops *
mode_ops_of (int mode)
{
  for (const cipher_mode_ops *ops : mode_ops_list)
    if (ops->mode == mode)
      return ops;
  return nullptr;
}

/* Whether C's mode keeps its mode_ctx state across setkey / reset (the
 * mode's cipher_mode_ops::keeps).  */
bool
mode_state_survives_setkey (gcry_cipher_hd_t c)
{
  return (c->mode_ops->keeps & MODE_KEEPS_ON_SETKEY) != 0;
}

bool
mode_state_survives_reset (gcry_cipher_hd_t c)
{
  return (c->mode_ops->keeps & MODE_KEEPS_ON_RESET) != 0;
}

/* Per-algorithm run-time state, indexed like cipher_list.  Plain
 * zero-initialised statics (no dynamic initialisation).  */
enum selftest_state : int { ST_NOT_RUN = 0, ST_PASSED = 1, ST_FAILED = 2 };
int selftest_state_of[n_ciphers];   /* Atomic access only.  */
int disabled_of[n_ciphers];         /* GCRYCTL_DISABLE_ALGO; atomic.  */
pthread_mutex_t selftest_lock = PTHREAD_MUTEX_INITIALIZER;

/* Index of ALGO in cipher_list, or -1.  */
int
index_of_algo (int algo)
{
  for (size_t i = 0; i < n_ciphers; i++)
    if (cipher_list[i]->algo == algo)
      return (int) i;
  return -1;
}

bool
algo_disabled (int idx)
{
  return __atomic_load_n (&disabled_of[idx], __ATOMIC_ACQUIRE) != 0;
}

/* ASCII-only case-insensitive equality (names are ASCII; no locale).  */
bool
ascii_iequal (const char *a, const char *b)
{
  for (;; a++, b++)
    {
      unsigned char x = (unsigned char) *a, y = (unsigned char) *b;
      if (x >= 'A' && x <= 'Z')
        x = (unsigned char) (x + ('a' - 'A'));
      if (y >= 'A' && y <= 'Z')
        y = (unsigned char) (y + ('a' - 'A'));
      if (x != y)
        return false;
      if (!x)
        return true;
    }
}

/* Find the dotted-decimal OID in STR (an optional "oid." or "OID."
 * prefix, exactly those two spellings, as libgcrypt accepts) among the
 * specs' OID tables.  Returns the spec and sets *MODE, or NULL.  */
const cipher_spec *
spec_from_oid (const char *str, int *mode)
{
  if (!str)
    return nullptr;
  if (!strncmp (str, "oid.", 4) || !strncmp (str, "OID.", 4))
    str += 4;
  for (size_t i = 0; i < n_ciphers; i++)
    {
      const cipher_oid_spec *o = cipher_list[i]->oids;
      for (; o && o->oid; o++)
        if (ascii_iequal (str, o->oid))
          {
            if (mode)
              *mode = o->mode;
            return cipher_list[i];
          }
    }
  return nullptr;
}

/* ---- Generic handle state ------------------------------------------- */

/* Clear the IV/counter state as libgcrypt's reset does; the key
 * schedule and the key mark stay.  Flags set by ctl stay too.  */
void
cipher_reset (gcry_cipher_hd_t c)
{
  cipher_marks keep = c->marks;
  memset (&c->marks, 0, sizeof c->marks);
  c->marks.key = keep.key;
  c->marks.allow_weak_key = keep.allow_weak_key;
  wipememory (c->iv, sizeof c->iv);
  wipememory (c->lastiv, sizeof c->lastiv);
  wipememory (c->ctr, sizeof c->ctr);
  c->unused = 0;
  if (const cipher_extra_ops *x = _gcry_cipher_extra_ops (c->spec))
    if (x->reset)
      x->reset (c->ctx);
  if (c->mode_ctx && !mode_state_survives_reset (c))
    wipememory (c->mode_ctx, c->mode_ctx_size);
  if (c->mode_ops->reset)
    c->mode_ops->reset (c);
}

/* OpenPGP CFB resynchronisation (RFC 4880 13.9): with
 * GCRY_CIPHER_ENABLE_SYNC and a partly used keystream block, the shift
 * register becomes the last block-size bytes of the ciphertext stream
 * (IV || C), i.e. the tail of the previous register (LASTIV) followed by
 * the ciphertext bytes of the current block.  Otherwise a no-op.  The
 * operation is generic over the handle state, as in libgcrypt, so it
 * also acts on OFB/CTR handles opened with ENABLE_SYNC.  */
void
cipher_sync (gcry_cipher_hd_t c)
{
  if (!(c->flags & GCRY_CIPHER_ENABLE_SYNC) || !c->unused)
    return;
  const size_t bs = c->spec->blocksize;
  const size_t used = bs - c->unused;
  unsigned char reg[MAX_BLOCKSIZE];
  memcpy (reg, c->lastiv + used, c->unused);
  memcpy (reg + c->unused, c->iv, used);
  memcpy (c->iv, reg, bs);
  wipememory (reg, sizeof reg);
  c->unused = 0;
}

} // namespace

/* ---- Registry API ---------------------------------------------------- */

const cipher_spec *
_gcry_cipher_spec_from_algo (int algo)
{
  int i = index_of_algo (algo);
  return i < 0 ? nullptr : cipher_list[i];
}

const cipher_spec *
_gcry_cipher_spec_nth (int idx)
{
  if (idx < 0 || (size_t) idx >= n_ciphers)
    return nullptr;
  return cipher_list[idx];
}

const cipher_extra_ops *
_gcry_cipher_extra_ops (const cipher_spec *spec)
{
  for (const cipher_extra_ops *x : extra_ops_list)
    if (x && x->spec == spec)
      return x;
  return nullptr;
}

/* Modes served for SPEC: those in mode_ops_list whose supported hook
 * accepts it.  A stream cipher (stencrypt, block size 1) gets only the
 * modes whose hook says they take one (STREAM; POLY1305 for ChaCha20).
 * A block cipher needs the single-block functions and a block of at
 * most MAX_BLOCKSIZE bytes for any mode (cipher_block_spec_ok, the
 * whole rule of the generic modes); a mode without a hook takes every
 * such cipher.  */
int
_gcry_cipher_mode_supported (const cipher_spec *spec, int mode)
{
  if (!spec)
    return 0;
  const cipher_mode_ops *ops = mode_ops_of (mode);
  if (!ops)
    return 0;
  if (spec->stencrypt)
    return ops->supported && ops->supported (spec);
  if (!cipher_block_spec_ok (spec))
    return 0;
  return !ops->supported || ops->supported (spec);
}

gcry_err_code_t
_gcry_cipher_selftest_once (const cipher_spec *spec)
{
  int idx = -1;
  for (size_t i = 0; i < n_ciphers; i++)
    if (cipher_list[i] == spec)
      idx = (int) i;
  if (idx < 0)
    return GPG_ERR_CIPHER_ALGO;

  int st = __atomic_load_n (&selftest_state_of[idx], __ATOMIC_ACQUIRE);
  if (st == ST_NOT_RUN)
    {
      pthread_mutex_lock (&selftest_lock);
      st = __atomic_load_n (&selftest_state_of[idx], __ATOMIC_ACQUIRE);
      if (st == ST_NOT_RUN)
        {
          const char *what = spec->selftest ? spec->selftest () : nullptr;
          if (what)
            _gcry_log_error ("%s selftest failed: %s\n", spec->name, what);
          st = what ? ST_FAILED : ST_PASSED;
          __atomic_store_n (&selftest_state_of[idx], st, __ATOMIC_RELEASE);
        }
      pthread_mutex_unlock (&selftest_lock);
    }
  return st == ST_PASSED ? GPG_ERR_NO_ERROR : GPG_ERR_SELFTEST_FAILED;
}

gcry_err_code_t
_gcry_cipher_selftest_all (void)
{
  gcry_err_code_t first = GPG_ERR_NO_ERROR;
  for (size_t i = 0; i < n_ciphers; i++)
    {
      gcry_err_code_t rc = _gcry_cipher_selftest_once (cipher_list[i]);
      if (rc && !first)
        first = rc;
    }
  return first;
}

int
_gcry_cipher_is_implemented (int algo, int mode, unsigned int flags)
{
  (void) flags;  /* Invalid flags get the same error from us.  */
  const cipher_spec *spec = _gcry_cipher_spec_from_algo (algo);
  return spec && _gcry_cipher_mode_supported (spec, mode);
}

const char *
_gcry_cipher_algo_name (int algo)
{
  const cipher_spec *spec = _gcry_cipher_spec_from_algo (algo);
  return spec ? spec->name : "?";
}

/* Names and aliases compare ASCII case-insensitively; an OID (with or
 * without "oid."/"OID.") maps to its algorithm.  Disabled algorithms
 * still map (libgcrypt does the same).  */
int
_gcry_cipher_map_name (const char *name)
{
  if (!name)
    return 0;
  const cipher_spec *spec = spec_from_oid (name, nullptr);
  if (spec)
    return spec->algo;
  for (size_t i = 0; i < n_ciphers; i++)
    {
      if (ascii_iequal (name, cipher_list[i]->name))
        return cipher_list[i]->algo;
      for (const char *const *a = cipher_list[i]->aliases; a && *a; a++)
        if (ascii_iequal (name, *a))
          return cipher_list[i]->algo;
    }
  return 0;
}

int
_gcry_cipher_mode_from_oid (const char *oid)
{
  int mode = 0;
  if (!spec_from_oid (oid, &mode))
    return 0;
  return mode;
}

size_t
_gcry_cipher_get_algo_keylen (int algo)
{
  const cipher_spec *spec = _gcry_cipher_spec_from_algo (algo);
  return spec ? spec->keylen / 8 : 0;
}

size_t
_gcry_cipher_get_algo_blklen (int algo)
{
  const cipher_spec *spec = _gcry_cipher_spec_from_algo (algo);
  return spec ? spec->blocksize : 0;
}

/* GCRYCTL_GET_KEYLEN / GET_BLKLEN: BUFFER must be NULL and NBYTES set,
 * else GPG_ERR_CIPHER_ALGO; GCRYCTL_TEST_ALGO: both NULL, else
 * GPG_ERR_INV_ARG, then GPG_ERR_CIPHER_ALGO for an unknown or disabled
 * algorithm.  Other commands: GPG_ERR_INV_OP.  */
gcry_err_code_t
_gcry_cipher_algo_info (int algo, int what, void *buffer, size_t *nbytes)
{
  const cipher_spec *spec = _gcry_cipher_spec_from_algo (algo);
  switch (what)
    {
    case GCRYCTL_GET_KEYLEN:
      if (buffer || !nbytes || !spec || !spec->keylen || spec->keylen > 512)
        return GPG_ERR_CIPHER_ALGO;
      *nbytes = spec->keylen / 8;
      return GPG_ERR_NO_ERROR;
    case GCRYCTL_GET_BLKLEN:
      if (buffer || !nbytes || !spec || !spec->blocksize
          || spec->blocksize >= 10000)
        return GPG_ERR_CIPHER_ALGO;
      *nbytes = spec->blocksize;
      return GPG_ERR_NO_ERROR;
    case GCRYCTL_TEST_ALGO:
      if (buffer || nbytes)
        return GPG_ERR_INV_ARG;
      if (!spec || algo_disabled (index_of_algo (algo)))
        return GPG_ERR_CIPHER_ALGO;
      return GPG_ERR_NO_ERROR;
    default:
      return GPG_ERR_INV_OP;
    }
}

/* ---- Handle lifecycle ------------------------------------------------- */

/* Flags gcry_cipher_open accepts.  */
static const unsigned int valid_open_flags =
  GCRY_CIPHER_SECURE | GCRY_CIPHER_ENABLE_SYNC | GCRY_CIPHER_CBC_CTS
  | GCRY_CIPHER_CBC_MAC | GCRY_CIPHER_EXTENDED;

/* Errors in libgcrypt's order: a mode number >= 0x10000 (libgcrypt's
 * internal modes) GPG_ERR_INV_CIPHER_MODE, unknown or disabled algorithm, then bad
 * flags (unknown bits, or CTS with MAC) -- also GPG_ERR_CIPHER_ALGO --,
 * then a mode the algorithm cannot serve (GPG_ERR_INV_CIPHER_MODE), then
 * allocation failure.  *HANDLE is NULL after an error.  */
gcry_err_code_t
_gcry_cipher_open (gcry_cipher_hd_t *handle, int algo, int mode,
                   unsigned int flags)
{
  if (!handle)
    return GPG_ERR_INV_ARG;  /* libgcrypt would crash.  */
  gcry_err_code_t err = GPG_ERR_NO_ERROR;
  int idx = index_of_algo (algo);
  const cipher_spec *spec = idx < 0 ? nullptr : cipher_list[idx];

  if (mode >= 0x10000)
    err = GPG_ERR_INV_CIPHER_MODE;  /* libgcrypt's internal modes (CMAC). */
  else if (!spec || algo_disabled (idx))
    err = GPG_ERR_CIPHER_ALGO;
  else if ((flags & ~valid_open_flags)
           || ((flags & GCRY_CIPHER_CBC_CTS) && (flags & GCRY_CIPHER_CBC_MAC)))
    err = GPG_ERR_CIPHER_ALGO;
  else if (!_gcry_cipher_mode_supported (spec, mode))
    err = GPG_ERR_INV_CIPHER_MODE;

  gcry_cipher_hd_t h = nullptr;
  if (!err)
    {
      const bool secure = (flags & GCRY_CIPHER_SECURE) != 0;
      const cipher_mode_ops *ops = mode_ops_of (mode);
      size_t state = ops && ops->state_size ? ops->state_size (spec) : 0;
      /* The handle's own members are 16-byte aligned (alignas), and
       * the allocator need not give that: the full substitute's secure
       * handles come from the real libgcrypt's secure pool, 8-byte
       * aligned (an aligned SSE load of OCB's state faulted in
       * gpg-agent).  So the handle sits at the first aligned address of
       * the block.  */
      constexpr size_t handle_align = alignof (gcry_cipher_handle);
      size_t size = (handle_align - 1) + sizeof (gcry_cipher_handle)
                    + (CONTEXT_ALIGN - 1) + spec->contextsize;
      if (state)
        size += (CONTEXT_ALIGN - 1) + state;
      void *mem = secure ? _gcry_malloc_secure (size) : _gcry_malloc (size);
      if (!mem)
        err = errno ? gpg_err_code_from_errno (errno) : GPG_ERR_ENOMEM;
      else
        {
          memset (mem, 0, size);
          uintptr_t base = (reinterpret_cast<uintptr_t> (mem)
                            + handle_align - 1)
                           & ~(uintptr_t) (handle_align - 1);
          h = reinterpret_cast<gcry_cipher_hd_t> (base);
          h->alloc_base = mem;
          uintptr_t p = base + sizeof (gcry_cipher_handle);
          p = (p + CONTEXT_ALIGN - 1) & ~(uintptr_t) (CONTEXT_ALIGN - 1);
          h->magic = secure ? CTX_MAGIC_SECURE : CTX_MAGIC_NORMAL;
          h->alloc_size = size;
          h->spec = spec;
          h->algo = algo;
          h->mode = mode;
          h->flags = flags;
          h->open_flags = flags;
          h->ctx = reinterpret_cast<void *> (p);
          h->mode_ops = ops;
          if (state)
            {
              uintptr_t q = p + spec->contextsize;
              q = (q + CONTEXT_ALIGN - 1) & ~(uintptr_t) (CONTEXT_ALIGN - 1);
              h->mode_ctx = reinterpret_cast<void *> (q);
              h->mode_ctx_size = state;
            }
        }
    }
  *handle = err ? nullptr : h;
  return err;
}

void
_gcry_cipher_close (gcry_cipher_hd_t h)
{
  if (!h)
    return;
  if (h->magic != CTX_MAGIC_NORMAL && h->magic != CTX_MAGIC_SECURE)
    {
      /* Catches foreign memory; a handle used after close is the
       * caller's undefined behaviour and may go unnoticed.  */
      _gcry_log_error ("gcry_cipher_close: not a cipher handle\n");
      return;
    }
  size_t size = h->alloc_size;
  void *mem = h->alloc_base;
  wipememory (mem, size);  /* Also clears the magic.  */
  _gcry_free (mem);
}

/* Key lengths are the algorithm's business (AES takes 16, 24 or 32
 * bytes whatever AES variant was opened, as in libgcrypt).  The
 * self-test runs first, once per process.  After a failure the handle
 * has no key (GPG_ERR_MISSING_KEY on use).  The IV state is kept.  */
gcry_err_code_t
_gcry_cipher_setkey (gcry_cipher_hd_t c, const void *key, size_t keylen)
{
  if (bad_handle (c) || (!key && keylen))
    return GPG_ERR_INV_ARG;
  gcry_err_code_t rc = _gcry_cipher_selftest_once (c->spec);
  if (rc)
    {
      c->marks.key = 0;
      return rc;
    }

  /* A length the mode refuses up front (XTS: odd) leaves the handle and
   * its previous key as they were, as in libgcrypt.  */
  if (c->mode_ops->keylen_check)
    {
      rc = c->mode_ops->keylen_check (keylen);
      if (rc)
        return rc;
    }
  wipe_ctx_for_setkey (c);
  memset (&c->bulk, 0, sizeof c->bulk);
  c->impl_name = nullptr;
  if (c->mode_ctx && !mode_state_survives_setkey (c))
    wipememory (c->mode_ctx, c->mode_ctx_size);
  const unsigned char *k = static_cast<const unsigned char *> (key);
  if (c->mode_ops->setkey)
    rc = c->mode_ops->setkey (c, k, keylen);
  else
    rc = _gcry_cipher_setkey_algo (c, k, keylen);
  if (!rc || (rc == GPG_ERR_WEAK_KEY && c->marks.allow_weak_key))
    c->marks.key = 1;
  else
    {
      c->marks.key = 0;
      wipe_ctx_for_setkey (c);
      if (c->mode_ctx && !mode_state_survives_setkey (c))
        wipememory (c->mode_ctx, c->mode_ctx_size);
      memset (&c->bulk, 0, sizeof c->bulk);
    }
  return rc;
}

gcry_err_code_t
_gcry_cipher_setkey_algo_ctx (gcry_cipher_hd_t c, void *ctx,
                              const unsigned char *key, size_t keylen,
                              cipher_bulk_ops *bulk)
{
  const char *impl = nullptr;
  return c->spec->setkey (ctx, key, keylen, bulk, &impl);
}

gcry_err_code_t
_gcry_cipher_setkey_algo (gcry_cipher_hd_t c, const unsigned char *key,
                          size_t keylen)
{
  return c->spec->setkey (c->ctx, key, keylen, &c->bulk, &c->impl_name);
}

/* The generic setiv's other cases (out of line: the common one in
 * _gcry_cipher_setiv then needs no frame).  */
static __attribute__ ((noinline)) gcry_err_code_t
setiv_general (gcry_cipher_hd_t c, const void *iv, size_t ivlen)
{
  const size_t bs = c->spec->blocksize;
  memset (c->iv, 0, bs);
  if (iv)
    {
      if (ivlen != bs)
        {
          /* libgcrypt 1.10's words, for log handlers that match them.  */
          _gcry_log_info ("WARNING: cipher_setiv: ivlen=%u blklen=%u\n",
                          (unsigned int) ivlen, (unsigned int) bs);
          /* A variadic callee on arm64 stores q0-q7 in its register save
           * area (AAPCS64 va_start), and they may still hold what the
           * last cipher call computed: wipe that frame.  */
          _gcry_burn_stack (1024);
        }
      memcpy (c->iv, iv, ivlen < bs ? ivlen : bs);
      c->marks.iv = 1;
    }
  else
    c->marks.iv = 0;
  c->unused = 0;
  return GPG_ERR_NO_ERROR;
}

/* The IV of the generic modes: a short IV is zero-padded, a long one
 * truncated to the block size (libgcrypt logs a warning and goes on),
 * NULL clears it.  Always succeeds; drops leftover keystream.  In CTR
 * mode this does not touch the counter (use setctr), as in libgcrypt. */
gcry_err_code_t
_gcry_cipher_setiv (gcry_cipher_hd_t c, const void *iv, size_t ivlen)
{
  if (bad_handle (c))
    return GPG_ERR_INV_ARG;
  if (c->mode_ops->setiv)
    return c->mode_ops->setiv (c, static_cast<const unsigned char *> (iv),
                               ivlen);
  if (c->spec->setiv)
    {
      /* A stream cipher's nonce: only the algorithm's own setiv, as in
       * libgcrypt (never an error; bad lengths are the algorithm's).  */
      c->spec->setiv (c->ctx, static_cast<const unsigned char *> (iv),
                      ivlen);
      return GPG_ERR_NO_ERROR;
    }
  if (iv && ivlen == MAX_BLOCKSIZE && c->spec->blocksize == MAX_BLOCKSIZE)
    {
      /* The common case as a fixed-size copy (no library calls).  */
      memcpy (c->iv, iv, MAX_BLOCKSIZE);
      c->marks.iv = 1;
      c->unused = 0;
      return GPG_ERR_NO_ERROR;
    }
  return setiv_general (c, iv, ivlen);
}

/* The CTR counter block: exactly block-size bytes, or (NULL or 0
 * bytes) for zero; anything else GPG_ERR_INV_ARG.  Drops leftover
 * keystream (in any mode).  */
gcry_err_code_t
_gcry_cipher_setctr (gcry_cipher_hd_t c, const void *ctr, size_t ctrlen)
{
  if (bad_handle (c))
    return GPG_ERR_INV_ARG;
  const size_t bs = c->spec->blocksize;
  if (ctr && ctrlen == MAX_BLOCKSIZE && bs == MAX_BLOCKSIZE)
    memcpy (c->ctr, ctr, MAX_BLOCKSIZE);  /* Fixed size: no call.  */
  else if (ctr && ctrlen == bs)
    memcpy (c->ctr, ctr, bs);
  else if (!ctr || !ctrlen)
    memset (c->ctr, 0, bs);
  else
    return GPG_ERR_INV_ARG;
  c->unused = 0;
  return GPG_ERR_NO_ERROR;
}

/* libgcrypt's private cipher commands (not in gcrypt.h; numbers from
 * libgcrypt's test API header, the tests pass them as plain ints).  63
 * is libgcrypt 1.11's; its tests read the CTR counter back with it.  */
enum
  {
    PRIV_CIPHERCTL_DISABLE_WEAK_KEY = 61,
    PRIV_CIPHERCTL_GET_INPUT_VECTOR = 62,
    PRIV_CIPHERCTL_GET_COUNTER = 63
  };

/* The answer of PRIV_CIPHERCTL_GET_INPUT_VECTOR and _GET_COUNTER, the
 * same layout for both: one length byte N (the unused keystream count,
 * or the block size when there is none), then the last N bytes of BLOCK
 * (the shift register, or the next counter block).  A buffer shorter
 * than 1 + block size is GPG_ERR_TOO_SHORT, as in libgcrypt; a NULL one
 * GPG_ERR_INV_ARG (libgcrypt would write through it).  */
static gcry_err_code_t
get_block_tail (gcry_cipher_hd_t h, const unsigned char *block,
                void *buffer, size_t buflen)
{
  const size_t bs = h->spec->blocksize;
  if (buflen < 1 + bs)
    return GPG_ERR_TOO_SHORT;
  if (!buffer)
    return GPG_ERR_INV_ARG;
  size_t n = h->unused ? h->unused : bs;
  unsigned char *dst = static_cast<unsigned char *> (buffer);
  dst[0] = (unsigned char) n;
  memcpy (dst + 1, block + bs - n, n);
  return GPG_ERR_NO_ERROR;
}

gcry_err_code_t
_gcry_cipher_ctl (gcry_cipher_hd_t h, int cmd, void *buffer, size_t buflen)
{
  if (h && bad_handle (h))
    return GPG_ERR_INV_ARG;
  switch (cmd)
    {
    case GCRYCTL_DISABLE_ALGO:
      /* Global: the handle must be NULL, BUFFER an int algorithm id.  */
      {
        if (h || !buffer || buflen != sizeof (int))
          return GPG_ERR_CIPHER_ALGO;
        /* An unknown algorithm is not an error (libgcrypt 1.10).  */
        int idx = index_of_algo (*static_cast<int *> (buffer));
        if (idx >= 0)
          __atomic_store_n (&disabled_of[idx], 1, __ATOMIC_RELEASE);
        return GPG_ERR_NO_ERROR;
      }
    case GCRYCTL_SET_TAGLEN:
      if (!h || !buffer || buflen != sizeof (int))
        return GPG_ERR_INV_ARG;
      if (h->mode_ops->ctl)
        return h->mode_ops->ctl (h, cmd, buffer, buflen);
      return GPG_ERR_INV_CIPHER_MODE;  /* Not a mode with a tag length. */
    case GCRYCTL_SET_ALLOW_WEAK_KEY:
      if (!h || buffer || buflen > 1)
        return GPG_ERR_CIPHER_ALGO;
      h->marks.allow_weak_key = buflen ? 1 : 0;
      return GPG_ERR_NO_ERROR;
    case GCRYCTL_FINALIZE:
      if (!h || buffer || buflen)
        return GPG_ERR_INV_ARG;
      h->marks.finalize = 1;
      return GPG_ERR_NO_ERROR;
    default:
      break;
    }

  if (!h)
    return GPG_ERR_INV_ARG;

  switch (cmd)
    {
    case GCRYCTL_RESET:
      cipher_reset (h);
      return GPG_ERR_NO_ERROR;

    case GCRYCTL_CFB_SYNC:
      cipher_sync (h);
      return GPG_ERR_NO_ERROR;

    case GCRYCTL_SET_CBC_CTS:
      if (!buflen)
        h->flags &= ~GCRY_CIPHER_CBC_CTS;
      else if (h->flags & GCRY_CIPHER_CBC_MAC)
        return GPG_ERR_INV_FLAG;
      else
        h->flags |= GCRY_CIPHER_CBC_CTS;
      return GPG_ERR_NO_ERROR;

    case GCRYCTL_SET_CBC_MAC:
      if (!buflen)
        h->flags &= ~GCRY_CIPHER_CBC_MAC;
      else if (h->flags & GCRY_CIPHER_CBC_CTS)
        return GPG_ERR_INV_FLAG;
      else
        h->flags |= GCRY_CIPHER_CBC_MAC;
      return GPG_ERR_NO_ERROR;

    case GCRYCTL_SET_CCM_LENGTHS:
      if (h->mode_ops->ctl)
        return h->mode_ops->ctl (h, cmd, buffer, buflen);
      return GPG_ERR_INV_CIPHER_MODE;  /* CCM only.  */

    case GCRYCTL_SET_DECRYPTION_TAG:
      if (!buffer)
        return GPG_ERR_INV_ARG;
      if (h->mode_ops->ctl)
        return h->mode_ops->ctl (h, cmd, buffer, buflen);
      return GPG_ERR_INV_CIPHER_MODE;  /* SIV only.  */

    case GCRYCTL_SET_SBOX:
    case PRIV_CIPHERCTL_DISABLE_WEAK_KEY:
      /* The algorithm's extra info (GOST S-box, 3DES weak-key check).  */
      {
        const cipher_extra_ops *x = _gcry_cipher_extra_ops (h->spec);
        if (!x || !x->set_extra_info)
          return GPG_ERR_NOT_SUPPORTED;
        gcry_err_code_t rc = x->set_extra_info (h->ctx, cmd, buffer, buflen);
        if (!rc && cmd == GCRYCTL_SET_SBOX && h->marks.key
            && h->mode_ops->block_changed)
          h->mode_ops->block_changed (h);
        return rc;
      }

    case PRIV_CIPHERCTL_GET_INPUT_VECTOR:
      /* The IV / CFB and OFB shift register.  */
      return get_block_tail (h, h->iv, buffer, buflen);

    case PRIV_CIPHERCTL_GET_COUNTER:
      /* The next CTR (or GCM) counter block, whatever the mode.  */
      return get_block_tail (h, h->ctr, buffer, buflen);

    default:
      return GPG_ERR_INV_OP;
    }
}

/* GCRYCTL_GET_KEYLEN (AES-WRAP unwrapped length) needs BUFFER and
 * NBYTES; GCRYCTL_GET_TAGLEN needs NBYTES and no BUFFER; wrong
 * arguments GPG_ERR_INV_ARG, a mode without the notion
 * GPG_ERR_INV_CIPHER_MODE, other commands GPG_ERR_INV_OP.  */
gcry_err_code_t
_gcry_cipher_info (gcry_cipher_hd_t h, int what, void *buffer,
                   size_t *nbytes)
{
  if (h && bad_handle (h))
    return GPG_ERR_INV_ARG;
  switch (what)
    {
    case GCRYCTL_GET_KEYLEN:
      if (!h || !buffer || !nbytes)
        return GPG_ERR_INV_ARG;
      if (h->mode_ops->info)
        return h->mode_ops->info (h, what, buffer, nbytes);
      return GPG_ERR_INV_CIPHER_MODE;  /* AES-WRAP only.  */
    case GCRYCTL_GET_TAGLEN:
      if (!h || buffer || !nbytes)
        return GPG_ERR_INV_ARG;
      if (h->mode_ops->info)
        return h->mode_ops->info (h, what, buffer, nbytes);
      return GPG_ERR_INV_CIPHER_MODE;  /* AEAD modes only.  */
    default:
      return GPG_ERR_INV_OP;
    }
}

/* ---- Data path --------------------------------------------------------- */

/* One call through the mode's hook (every mode has both; see
 * cipher_mode_ops).  Always inlined: with its two cold callers
 * (overlap, checks only) the compiler would otherwise make it a
 * function of its own and add a call to every encrypt/decrypt
 * (measured: about 1 ns per call at 16 bytes).  */
static inline __attribute__ ((always_inline)) gcry_err_code_t
dispatch (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
          const unsigned char *in, size_t inlen, bool encrypt)
{
  const cipher_mode_ops *ops = c->mode_ops;
  return (encrypt ? ops->encrypt : ops->decrypt) (c, out, outsize, in,
                                                  inlen);
}

/* Encrypt or decrypt IN (INLEN bytes) into OUT (OUTSIZE bytes) when the
 * two partly overlap, with exactly the result disjoint buffers give
 * (for every mode, direction, offset and length; libgcrypt's result
 * depends on the offset).  Every mode works in place and in place
 * equals disjoint buffers, so the input is first moved to where the
 * output goes (memmove copes with the overlap) and then processed in
 * place.  Two modes write elsewhere than OUT[0..INLEN):
 *
 *  - AES key wrap writes INLEN + 8 bytes (wrap) or INLEN - 8 (unwrap):
 *    its code already moves the data with memmove before working in
 *    OUT, so it takes the buffers as they are;
 *  - CBC-MAC encryption writes one block only (the MAC): it goes to a
 *    local block and is copied to OUT, so the rest of OUT stays as the
 *    caller left it, as with disjoint buffers.
 *
 * A call the mode refuses (length, size, state: mode_checks, run before
 * the move) leaves OUT as disjoint buffers would; when OUTSIZE < INLEN
 * the mode refuses, and nothing is moved.  A decryption that fails
 * after its checks (a wrong tag) may leave the moved input in OUT where
 * the mode does not wipe it (documented), a failed encryption fills OUT
 * with 0x42 in both cases.  Out of line: never on the path of
 * non-overlapping calls.  */
static gcry_err_code_t mode_checks (gcry_cipher_hd_t c, unsigned char *out,
                                    size_t outsize, const unsigned char *in,
                                    size_t inlen, bool encrypt);

static __attribute__ ((noinline, cold)) gcry_err_code_t
crypt_overlapping (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
                   const unsigned char *in, size_t inlen, bool encrypt)
{
  const size_t bs = c->spec->blocksize;
  if (c->mode_ops->writes_one_block
      && c->mode_ops->writes_one_block (c, encrypt))
    {
      /* CBC-MAC: only the MAC block is output (OUTSIZE >= one block
       * suffices; a shorter one is refused by the mode as before).  */
      unsigned char mac[MAX_BLOCKSIZE];
      gcry_err_code_t rc = dispatch (c, mac, outsize < bs ? outsize : bs,
                                     in, inlen, encrypt);
      if (!rc)
        memcpy (out, mac, bs);
      wipememory (mac, sizeof mac);
      return rc;
    }
  if (c->mode_ops->resizes || outsize < inlen)
    return dispatch (c, out, outsize, in, inlen, encrypt);
  /* A call the mode refuses must leave OUT as separate buffers would
   * (found by the fuzzer: ECB decryption of a partial block moved the
   * input into OUT): its checks first.  */
  gcry_err_code_t rc = mode_checks (c, out, outsize, in, inlen, encrypt);
  if (rc)
    return rc;
  memmove (out, in, inlen);
  return dispatch (c, out, outsize, out, inlen, encrypt);
}

/* A data call with a NULL output buffer of nonzero size, or an input
 * length over PTRDIFF_MAX (no buffer is that long).  libgcrypt answers
 * such a call with its usual code when a length, state or size rule
 * refuses it, and crashes when it goes on to the data.  gcipher runs the
 * mode's checks alone (cipher_marks::check_only), returns their code,
 * and otherwise refuses: GPG_ERR_INV_ARG for the NULL buffer,
 * GPG_ERR_INV_LENGTH for the impossible length.  An empty input with a
 * NULL output writes nothing in any mode but key wrap, so it runs for
 * real (libgcrypt succeeds there), through a dummy output pointer.  */
static __attribute__ ((noinline, cold)) gcry_err_code_t
crypt_checks_only (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
                   const unsigned char *in, size_t inlen, bool encrypt)
{
  const bool null_out = !out && outsize;
  unsigned char dummy[MAX_BLOCKSIZE];
  if (null_out && !inlen && in && !c->mode_ops->resizes)
    return dispatch (c, dummy, outsize, in, 0, encrypt);
  gcry_err_code_t rc = mode_checks (c, out, outsize, in, inlen, encrypt);
  if (rc)
    {
      /* As every failed encryption (cipher_crypt).  */
      if (encrypt && out && outsize <= PTRDIFF_MAX)
        memset (out, 0x42, outsize);
      return rc;
    }
  return null_out ? GPG_ERR_INV_ARG : GPG_ERR_INV_LENGTH;
}

/* The mode's length, size and state checks of a data call, without
 * touching the data: the mode's check hook (the generic modes), else
 * its data hook under cipher_marks::check_only.  crypt_checks_only and
 * crypt_overlapping run them before anything is written.  */
static gcry_err_code_t
mode_checks (gcry_cipher_hd_t c, unsigned char *out, size_t outsize,
             const unsigned char *in, size_t inlen, bool encrypt)
{
  if (c->mode_ops->check)
    return c->mode_ops->check (c, outsize, inlen, encrypt);
  c->marks.check_only = 1;
  gcry_err_code_t rc = dispatch (c, out, outsize, in, inlen, encrypt);
  c->marks.check_only = 0;
  return rc;
}

/* The common part of encrypt and decrypt.  IN == NULL means in place
 * over all OUTSIZE bytes of OUT (INLEN is then ignored).  No key:
 * GPG_ERR_MISSING_KEY.  Length errors come from the mode.  If encryption
 * fails after the key check, OUT (OUTSIZE bytes) is overwritten with 0x42
 * so no plaintext can leak, as libgcrypt does (decryption leaves it).
 * One copy per direction, inlined into its entry point, so a decryption
 * ends in a tail call of the mode (no frame, no saved registers: five
 * cycles of a 64-byte ECB call).  */
template <bool encrypt>
static inline __attribute__ ((always_inline)) gcry_err_code_t
cipher_crypt (gcry_cipher_hd_t h, void *out, size_t outsize, const void *in,
              size_t inlen)
{
  if (bad_handle (h))
    return GPG_ERR_INV_ARG;
  if (!in)
    {
      in = out;
      inlen = outsize;
    }
  if (!h->marks.key)
    {
      _gcry_log_error (encrypt ? "cipher_encrypt: key not set\n"
                               : "cipher_decrypt: key not set\n");
      return GPG_ERR_MISSING_KEY;
    }
  /* A NULL output with a nonzero size, or an input length no buffer
   * can have: the mode's checks only (out of line).  */
  if (__builtin_expect ((!out && outsize) || inlen > PTRDIFF_MAX, 0))
    return crypt_checks_only (h, static_cast<unsigned char *> (out),
                              outsize,
                              static_cast<const unsigned char *> (in),
                              inlen, encrypt);
  gcry_err_code_t rc;
  /* One address comparison per call; the rare overlap is out of line.  */
  if (__builtin_expect (partial_overlap (out, outsize < inlen ? outsize
                                                               : inlen,
                                         in, inlen), 0))
    rc = crypt_overlapping (h, static_cast<unsigned char *> (out), outsize,
                            static_cast<const unsigned char *> (in), inlen,
                            encrypt);
  else if (!encrypt)
    /* Nothing follows a decryption: the mode's call is the last step
     * (a tail call, no frame of its own).  */
    return dispatch (h, static_cast<unsigned char *> (out), outsize,
                     static_cast<const unsigned char *> (in), inlen, false);
  else
    rc = dispatch (h, static_cast<unsigned char *> (out), outsize,
                   static_cast<const unsigned char *> (in), inlen, true);
  /* An OUTSIZE no object can have (more than PTRDIFF_MAX bytes, e.g.
   * SIZE_MAX with an ECB length error) is not filled: libgcrypt
   * crashes there.  */
  if (rc && encrypt && out && outsize <= PTRDIFF_MAX)
    memset (out, 0x42, outsize);
  return rc;
}

gcry_err_code_t
_gcry_cipher_encrypt (gcry_cipher_hd_t h, void *out, size_t outsize,
                      const void *in, size_t inlen)
{
  return cipher_crypt<true> (h, out, outsize, in, inlen);
}

gcry_err_code_t
_gcry_cipher_decrypt (gcry_cipher_hd_t h, void *out, size_t outsize,
                      const void *in, size_t inlen)
{
  return cipher_crypt<false> (h, out, outsize, in, inlen);
}

/* After a hook ran with check_only set for a NULL buffer of nonzero
 * length: the hook's own code when its checks refused the call (as
 * libgcrypt answers before it dereferences), else GPG_ERR_INV_ARG
 * (libgcrypt would crash).  */
static gcry_err_code_t
hook_checks_only (gcry_cipher_hd_t h, gcry_err_code_t rc)
{
  h->marks.check_only = 0;
  return rc ? rc : GPG_ERR_INV_ARG;
}

/* AEAD entry points: the mode's hook, or GPG_ERR_INV_CIPHER_MODE for a
 * mode without one (the generic modes).  */
gcry_err_code_t
_gcry_cipher_authenticate (gcry_cipher_hd_t h, const void *abuf,
                           size_t abuflen)
{
  if (bad_handle (h))
    return GPG_ERR_INV_ARG;
  /* A non-AEAD mode answers GPG_ERR_INV_CIPHER_MODE below whatever the
   * buffer; only a mode that would use it gets the NULL check.  */
  if (!abuf && abuflen && h->mode_ops->authenticate)
    {
      h->marks.check_only = 1;
      return hook_checks_only (h, h->mode_ops->authenticate (h, nullptr, abuflen));
    }
  if (h->mode_ops->authenticate)
    return h->mode_ops->authenticate (
        h, static_cast<const unsigned char *> (abuf), abuflen);
  _gcry_log_error ("gcry_cipher_authenticate: invalid mode %d\n", h->mode);
  return GPG_ERR_INV_CIPHER_MODE;
}

gcry_err_code_t
_gcry_cipher_gettag (gcry_cipher_hd_t h, void *outtag, size_t taglen)
{
  if (bad_handle (h))
    return GPG_ERR_INV_ARG;
  /* A non-AEAD mode answers GPG_ERR_INV_CIPHER_MODE below whatever the
   * buffer; only a mode that would use it gets the NULL check.  */
  if (!outtag && taglen && h->mode_ops->gettag)
    {
      h->marks.check_only = 1;
      return hook_checks_only (h, h->mode_ops->gettag (h, nullptr, taglen));
    }
  if (h->mode_ops->gettag)
    return h->mode_ops->gettag (h, static_cast<unsigned char *> (outtag),
                                taglen);
  _gcry_log_error ("gcry_cipher_gettag: invalid mode %d\n", h->mode);
  return GPG_ERR_INV_CIPHER_MODE;
}

gcry_err_code_t
_gcry_cipher_checktag (gcry_cipher_hd_t h, const void *intag, size_t taglen)
{
  if (bad_handle (h))
    return GPG_ERR_INV_ARG;
  /* A non-AEAD mode answers GPG_ERR_INV_CIPHER_MODE below whatever the
   * buffer; only a mode that would use it gets the NULL check.  */
  if (!intag && taglen && h->mode_ops->checktag)
    {
      h->marks.check_only = 1;
      return hook_checks_only (h, h->mode_ops->checktag (h, nullptr, taglen));
    }
  if (h->mode_ops->checktag)
    return h->mode_ops->checktag (
        h, static_cast<const unsigned char *> (intag), taglen);
  _gcry_log_error ("gcry_cipher_checktag: invalid mode %d\n", h->mode);
  return GPG_ERR_INV_CIPHER_MODE;
}
