/* secmem.cpp - gcry_malloc and friends, and the secure-memory pool.
 *
 * Normal allocations come from malloc (or the program's allocation
 * handler).  Secure allocations come from a pool of anonymous mappings
 * that are mlock()ed (kept out of swap) and excluded from core dumps
 * (madvise MADV_DONTDUMP); freeing a secure block wipes it.  If locking
 * fails (RLIMIT_MEMLOCK, no privilege) the pool is used unlocked and a
 * warning is logged once, unless the program suppressed it
 * (GCRYCTL_DISABLE_SECMEM_WARN) or deferred it
 * (GCRYCTL_SUSPEND_SECMEM_WARN), as libgcrypt does.
 *
 * Pool size and exhaustion follow libgcrypt 1.10 (observed on the system
 * library; the manual's GCRYCTL_INIT_SECMEM and GCRYCTL_AUTO_EXPAND_SECMEM):
 *
 *  - The primary pool is 32 KiB, made on first use, or max (N, 16 KiB)
 *    rounded up to the page size when GCRYCTL_INIT_SECMEM N (N > 0) comes
 *    first; a later INIT_SECMEM leaves an existing pool alone.
 *    INIT_SECMEM 0 disables secure memory like GCRYCTL_DISABLE_SECMEM
 *    (secure requests are then served from normal memory; libgcrypt
 *    aborts instead).
 *  - gcry_malloc_secure, gcry_calloc_secure, gcry_realloc of a secure
 *    block, and so gcry_cipher_open with GCRY_CIPHER_SECURE, fail when
 *    the pool cannot hold the request: NULL with errno ENOMEM, which
 *    gcry_cipher_open reports as GPG_ERR_ENOMEM.  Never a crash.
 *  - The x* variants add an overflow region instead (libgcrypt's
 *    "overflow pools"); only if that fails too do they ask the
 *    out-of-core handler and end through _gcry_fatal_error.
 *  - After GCRYCTL_AUTO_EXPAND_SECMEM CHUNK every secure request may add
 *    an overflow region of max (CHUNK or 32 KiB, request) bytes.
 *    (libgcrypt fails a request larger than the chunk; gcipher serves
 *    it, as the program asked for expansion.)
 *  Overflow regions are mapped, locked and excluded from dumps like the
 *  primary pool (libgcrypt takes them from malloc, unlocked).
 *
 * Pool layout: a table of regions (mappings), each cut into blocks, each
 * a 16-byte header {size incl. header, in-use flag} then the payload, so
 * payloads are 16-byte aligned; allocation is first fit over all regions
 * with coalescing of adjacent free blocks during the walk.  One mutex
 * guards the table.
 *
 * Error conventions (as libgcrypt's): a zero-byte request fails with
 * errno EINVAL, an impossible one with ENOMEM; the x* variants never
 * return NULL but ask the out-of-core handler and then end the process
 * through _gcry_fatal_error.
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "g10lib.h"

namespace {

/* ---- Handlers ------------------------------------------------------ */
gcry_handler_alloc_t h_alloc;
gcry_handler_alloc_t h_alloc_secure;
gcry_handler_secure_check_t h_is_secure;
gcry_handler_realloc_t h_realloc;
gcry_handler_free_t h_free;
gcry_handler_no_mem_t h_outofcore;
void *h_outofcore_opaque;

template <typename T>
inline T
load (const T &v)
{
  return __atomic_load_n (&v, __ATOMIC_ACQUIRE);
}

template <typename T>
inline void
store (T &v, T x)
{
  __atomic_store_n (&v, x, __ATOMIC_RELEASE);
}

/* ---- Pool ---------------------------------------------------------- */
constexpr size_t HDR = 16;            /* Block header; payload alignment. */
constexpr size_t MIN_SPLIT = HDR + 16;
constexpr size_t DEFAULT_POOL = 32768;   /* libgcrypt's default pool.  */
constexpr size_t MIN_POOL = 16384;       /* Smallest INIT_SECMEM pool.  */
constexpr int MAX_REGIONS = 1024;

struct blk_hdr
{
  size_t size;    /* Bytes incl. this header; multiple of 16.  */
  size_t used;    /* Nonzero when allocated.  */
};
static_assert (sizeof (blk_hdr) <= HDR);

struct region
{
  unsigned char *base;   /* NULL: slot unused.  */
  size_t size;           /* Mapping length (multiple of the page).  */
};

pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
region regions[MAX_REGIONS];
int n_regions;                   /* Slots in use are below this.  */
size_t pool_region_size = DEFAULT_POOL;  /* Primary pool (bytes).  */
bool pool_made;                  /* The primary pool was mapped.  */
bool auto_expand;                /* GCRYCTL_AUTO_EXPAND_SECMEM seen.  */
size_t expand_chunk = DEFAULT_POOL;  /* Its overflow region size.  */
size_t pool_used_bytes;          /* Payload bytes handed out (stats).  */
size_t pool_used_blocks;

/* Flags (atomics; set by gcry_control, read anywhere).  */
bool secmem_disabled;      /* Secure allocations come from malloc.  */
bool secmem_no_lock;       /* DISABLE_LOCKED_SECMEM: never mlock.  */
bool warn_disabled;        /* DISABLE_SECMEM_WARN.  */
bool warn_suspended;       /* SUSPEND_SECMEM_WARN until RESUME.  */
bool warn_pending;         /* Locking failed while suspended.  */
bool warn_done;            /* The warning was printed.  */

size_t
page_size (void)
{
  long p = sysconf (_SC_PAGESIZE);
  return p > 0 ? (size_t) p : 4096;
}

void
insecure_warning (void)
{
  /* Called with pool_lock held.  */
  if (load (warn_disabled) || warn_done)
    return;
  if (load (warn_suspended))
    {
      warn_pending = true;
      return;
    }
  warn_done = true;
  _gcry_log_info ("Warning: secure memory could not be locked; "
                  "using insecure memory!\n");
}

/* Map and (try to) lock a new region of at least SIZE bytes, excluded
 * from core dumps.  Returns its slot, or -1 with errno ENOMEM.  Pool
 * lock held.  */
int
region_new (size_t size)
{
  size_t ps = page_size ();
  if (size > SIZE_MAX - ps)
    {
      errno = ENOMEM;
      return -1;
    }
  size = (size + ps - 1) & ~(ps - 1);
  int slot = -1;
  for (int i = 0; i < n_regions; i++)
    if (!regions[i].base)
      {
        slot = i;
        break;
      }
  if (slot < 0)
    {
      if (n_regions == MAX_REGIONS)
        {
          errno = ENOMEM;
          return -1;
        }
      slot = n_regions;
    }
  void *p = mmap (nullptr, size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    {
      errno = ENOMEM;
      return -1;
    }
#ifdef MADV_DONTDUMP
  madvise (p, size, MADV_DONTDUMP);
#endif
#ifdef HAVE_MLOCK
  if (!load (secmem_no_lock) && mlock (p, size) != 0)
    insecure_warning ();
#endif
  if (slot == n_regions)
    n_regions++;
  regions[slot].base = (unsigned char *) p;
  regions[slot].size = size;
  blk_hdr *b = (blk_hdr *) p;
  b->size = size;
  b->used = 0;
  return slot;
}

void
region_release (int slot)
{
  /* Pool lock held; the region's contents are already wiped.  */
  munmap (regions[slot].base, regions[slot].size);  /* Also unlocks.  */
  regions[slot].base = nullptr;
  regions[slot].size = 0;
  while (n_regions > 0 && !regions[n_regions - 1].base)
    n_regions--;
}

/* Slot of the region holding P, or -1.  Pool lock held.  */
int
region_of (const void *p)
{
  uintptr_t a = (uintptr_t) p;
  for (int i = 0; i < n_regions; i++)
    if (regions[i].base && a >= (uintptr_t) regions[i].base
        && a < (uintptr_t) regions[i].base + regions[i].size)
      return i;
  return -1;
}

/* First fit in pool region SLOT for a block of NEED bytes (incl. the
 * header), merging runs of free blocks on the way.  */
void *
region_alloc (int slot, size_t need)
{
  unsigned char *base = regions[slot].base;
  size_t size = regions[slot].size;
  size_t off = 0;
  while (off < size)
    {
      blk_hdr *b = (blk_hdr *) (base + off);
      if (!b->used)
        {
          /* Absorb following free blocks.  */
          while (off + b->size < size)
            {
              blk_hdr *n = (blk_hdr *) (base + off + b->size);
              if (n->used)
                break;
              b->size += n->size;
            }
          if (b->size >= need)
            {
              if (b->size - need >= MIN_SPLIT)
                {
                  blk_hdr *rest = (blk_hdr *) (base + off + need);
                  rest->size = b->size - need;
                  rest->used = 0;
                  b->size = need;
                }
              b->used = 1;
              pool_used_bytes += b->size - HDR;
              pool_used_blocks++;
              return base + off + HDR;
            }
        }
      off += b->size;
    }
  return nullptr;
}

/* A secure block of N bytes from the pool.  Without room: with XHINT
 * (the x* variants) or after AUTO_EXPAND_SECMEM an overflow region is
 * added, else NULL with errno ENOMEM (libgcrypt 1.10's behaviour).  */
void *
pool_alloc (size_t n, bool xhint)
{
  if (n > SIZE_MAX / 2)
    {
      errno = ENOMEM;
      return nullptr;
    }
  size_t need = ((n + 15) & ~(size_t) 15) + HDR;
  void *p = nullptr;
  pthread_mutex_lock (&pool_lock);
  if (!pool_made)
    pool_made = region_new (pool_region_size) >= 0;
  for (int i = 0; i < n_regions && !p; i++)
    if (regions[i].base)
      p = region_alloc (i, need);
  if (!p && (xhint || load (auto_expand)))
    {
      size_t size = auto_expand ? expand_chunk : pool_region_size;
      int slot = region_new (need > size ? need : size);
      if (slot >= 0)
        p = region_alloc (slot, need);
    }
  pthread_mutex_unlock (&pool_lock);
  if (!p)
    errno = ENOMEM;
  return p;
}

/* Payload size of pool block P (pool lock held).  */
size_t
pool_block_size (const void *p)
{
  const blk_hdr *b = (const blk_hdr *) ((const unsigned char *) p - HDR);
  return b->size - HDR;
}

/* Free P if it is a pool block: wipe it and mark it free.  Returns
 * false if P is not in the pool.  */
bool
pool_free (void *p)
{
  pthread_mutex_lock (&pool_lock);
  int slot = region_of (p);
  if (slot < 0)
    {
      pthread_mutex_unlock (&pool_lock);
      return false;
    }
  blk_hdr *b = (blk_hdr *) ((unsigned char *) p - HDR);
  if (!b->used)
    {
      pthread_mutex_unlock (&pool_lock);
      _gcry_fatal_error (GPG_ERR_INV_ARG,
                         "gcry_free: secure block freed twice or invalid");
    }
  _gcry_wipememory (p, b->size - HDR);
  b->used = 0;
  pool_used_bytes -= b->size - HDR;
  pool_used_blocks--;
  pthread_mutex_unlock (&pool_lock);
  return true;
}

bool
pool_contains (const void *p)
{
  if (!p)
    return false;
  pthread_mutex_lock (&pool_lock);
  bool r = region_of (p) >= 0;
  pthread_mutex_unlock (&pool_lock);
  return r;
}

bool
mul_overflows (size_t n, size_t m, size_t *out)
{
  return __builtin_mul_overflow (n, m, out);
}

/* The x* retry loop: ask the out-of-core handler, else end.  */
void
out_of_core (size_t n, bool secure, int err)
{
  gcry_handler_no_mem_t h = load (h_outofcore);
  if (h && n && h (load (h_outofcore_opaque), n, secure ? 1 : 0))
    return;   /* Handler freed something: retry.  */
  if (h && !n)
    h (load (h_outofcore_opaque), n, secure ? 1 : 0);
  _gcry_fatal_error (gpg_err_code_from_errno (err ? err : ENOMEM),
                     nullptr);
}

} // namespace

/* ---- Handlers and controls ----------------------------------------- */

void
_gcry_set_allocation_handler (gcry_handler_alloc_t f_alloc,
                              gcry_handler_alloc_t f_alloc_secure,
                              gcry_handler_secure_check_t f_is_secure,
                              gcry_handler_realloc_t f_realloc,
                              gcry_handler_free_t f_free)
{
  store (h_alloc, f_alloc);
  store (h_alloc_secure, f_alloc_secure);
  store (h_is_secure, f_is_secure);
  store (h_realloc, f_realloc);
  store (h_free, f_free);
}

void
_gcry_set_outofcore_handler (gcry_handler_no_mem_t h, void *opaque)
{
  store (h_outofcore_opaque, opaque);
  store (h_outofcore, h);
}

void
_gcry_secmem_init (size_t n)
{
  if (!n)
    {
      _gcry_secmem_disable ();
      return;
    }
  pthread_mutex_lock (&pool_lock);
  /* Only before the primary pool exists (libgcrypt ignores a second
   * INIT_SECMEM too).  */
  if (!pool_made)
    {
      size_t ps = page_size ();
      if (n < MIN_POOL)
        n = MIN_POOL;
      pool_region_size = (n + ps - 1) & ~(ps - 1);
      pool_made = region_new (pool_region_size) >= 0;
    }
  pthread_mutex_unlock (&pool_lock);
}

void
_gcry_secmem_set_auto_expand (unsigned int chunk)
{
  pthread_mutex_lock (&pool_lock);
  expand_chunk = chunk ? ((size_t) chunk + 15) & ~(size_t) 15 : DEFAULT_POOL;
  store (auto_expand, true);
  pthread_mutex_unlock (&pool_lock);
}

void
_gcry_secmem_disable (void)
{
  store (secmem_disabled, true);
}

void
_gcry_secmem_disable_locking (void)
{
  store (secmem_no_lock, true);
}

void
_gcry_secmem_term (void)
{
  /* Release the pool regions nothing is allocated from; live secure
   * blocks stay valid (libgcrypt would pull them from under the
   * program).  Free blocks were wiped when freed.  */
  pthread_mutex_lock (&pool_lock);
  for (int i = 0; i < n_regions; i++)
    {
      if (!regions[i].base)
        continue;
      size_t off = 0;
      bool any_used = false;
      while (off < regions[i].size)
        {
          blk_hdr *b = (blk_hdr *) (regions[i].base + off);
          any_used |= b->used != 0;
          off += b->size;
        }
      if (!any_used)
        region_release (i);
    }
  if (!n_regions)
    pool_made = false;  /* Mapped again (same size) on next use.  */
  pthread_mutex_unlock (&pool_lock);
}

void
_gcry_secmem_set_warning (int what)
{
  pthread_mutex_lock (&pool_lock);
  switch (what)
    {
    case 0:
      store (warn_disabled, true);
      break;
    case 1:
      store (warn_suspended, true);
      break;
    default:
      store (warn_suspended, false);
      if (warn_pending)
        {
          warn_pending = false;
          insecure_warning ();
        }
      break;
    }
  pthread_mutex_unlock (&pool_lock);
}

void
_gcry_secmem_dump_stats (void)
{
  pthread_mutex_lock (&pool_lock);
  size_t total = 0;
  for (int i = 0; i < n_regions; i++)
    total += regions[i].base ? regions[i].size : 0;
  size_t used = pool_used_bytes, blocks = pool_used_blocks;
  pthread_mutex_unlock (&pool_lock);
  _gcry_log_info ("secmem usage: %zu/%zu bytes in %zu blocks\n",
                  used, total, blocks);
}

/* ---- Allocation ----------------------------------------------------- */

void *
_gcry_malloc (size_t n)
{
  if (!n)
    {
      errno = EINVAL;
      return nullptr;
    }
  gcry_handler_alloc_t h = load (h_alloc);
  void *p = h ? h (n) : malloc (n);
  if (!p && !errno)
    errno = ENOMEM;
  return p;
}

/* The secure allocators with libgcrypt's "xhint": XHINT is true for
 * the x* variants, which may grow the pool (see the file comment).  */
static void *
malloc_secure_x (size_t n, bool xhint)
{
  if (!n)
    {
      errno = EINVAL;
      return nullptr;
    }
  if (load (secmem_disabled))
    return _gcry_malloc (n);
  gcry_handler_alloc_t h = load (h_alloc_secure);
  if (h)
    {
      void *p = h (n);
      if (!p && !errno)
        errno = ENOMEM;
      return p;
    }
  return pool_alloc (n, xhint);
}

static void *
calloc_secure_x (size_t n, size_t m, bool xhint)
{
  size_t total;
  if (mul_overflows (n, m, &total))
    {
      errno = ENOMEM;
      return nullptr;
    }
  void *p = malloc_secure_x (total, xhint);
  if (p)
    memset (p, 0, total);
  return p;
}

static void *
realloc_x (void *a, size_t n, bool xhint)
{
  if (!a)
    return _gcry_malloc (n);
  if (!n)
    {
      _gcry_free (a);
      return nullptr;
    }
  /* A pool block stays in the pool: copy into a new secure block.  */
  size_t old = 0;
  pthread_mutex_lock (&pool_lock);
  if (region_of (a) >= 0)
    old = pool_block_size (a);
  pthread_mutex_unlock (&pool_lock);
  if (old)
    {
      if (n <= old)
        return a;
      void *p = pool_alloc (n, xhint);
      if (!p)
        return nullptr;   /* A stays valid, as with realloc.  */
      memcpy (p, a, old);
      pool_free (a);
      return p;
    }
  gcry_handler_realloc_t h = load (h_realloc);
  void *p = h ? h (a, n) : realloc (a, n);
  if (!p && !errno)
    errno = ENOMEM;
  return p;
}

static char *
strdup_x (const char *s, bool xhint)
{
  if (!s)
    {
      errno = EINVAL;
      return nullptr;
    }
  size_t n = strlen (s) + 1;
  char *p = (char *) (_gcry_is_secure (s) ? malloc_secure_x (n, xhint)
                                          : _gcry_malloc (n));
  if (p)
    memcpy (p, s, n);
  return p;
}

void *
_gcry_malloc_secure (size_t n)
{
  return malloc_secure_x (n, false);
}

void *
_gcry_calloc (size_t n, size_t m)
{
  size_t total;
  if (mul_overflows (n, m, &total))
    {
      errno = ENOMEM;
      return nullptr;
    }
  void *p = _gcry_malloc (total);
  if (p)
    memset (p, 0, total);
  return p;
}

void *
_gcry_calloc_secure (size_t n, size_t m)
{
  return calloc_secure_x (n, m, false);
}

void *
_gcry_realloc (void *a, size_t n)
{
  return realloc_x (a, n, false);
}

void
_gcry_free (void *a)
{
  if (!a)
    return;
  int saved = errno;   /* free must not clobber errno (libgcrypt).  */
  if (!pool_free (a))
    {
      gcry_handler_free_t h = load (h_free);
      if (h)
        h (a);
      else
        free (a);
    }
  errno = saved;
}

int
_gcry_is_secure (const void *a)
{
  if (!a)
    return 0;
  gcry_handler_secure_check_t h = load (h_is_secure);
  if (h)
    return h (a);
  return pool_contains (a) ? 1 : 0;
}

/* A copy of S in memory of the same kind (secure or not).  NULL gives
 * NULL with errno EINVAL (libgcrypt would crash).  */
char *
_gcry_strdup (const char *s)
{
  return strdup_x (s, false);
}

/* ---- x* variants ------------------------------------------------------ */

void *
_gcry_xmalloc (size_t n)
{
  void *p;
  while (!(p = _gcry_malloc (n)))
    out_of_core (n, false, errno);
  return p;
}

void *
_gcry_xmalloc_secure (size_t n)
{
  void *p;
  while (!(p = malloc_secure_x (n, true)))
    out_of_core (n, true, errno);
  return p;
}

void *
_gcry_xcalloc (size_t n, size_t m)
{
  void *p;
  while (!(p = _gcry_calloc (n, m)))
    {
      size_t total;
      out_of_core (mul_overflows (n, m, &total) ? 0 : total, false, errno);
    }
  return p;
}

void *
_gcry_xcalloc_secure (size_t n, size_t m)
{
  void *p;
  while (!(p = calloc_secure_x (n, m, true)))
    {
      size_t total;
      out_of_core (mul_overflows (n, m, &total) ? 0 : total, true, errno);
    }
  return p;
}

void *
_gcry_xrealloc (void *a, size_t n)
{
  void *p;
  while (!(p = realloc_x (a, n, true)))
    {
      if (!n && a)
        return nullptr;   /* realloc (a, 0) frees: not an error.  */
      out_of_core (n, a && _gcry_is_secure (a), errno);
    }
  return p;
}

char *
_gcry_xstrdup (const char *s)
{
  char *p;
  if (!s)
    return nullptr;  /* Nothing to copy; libgcrypt would crash.  */
  while (!(p = strdup_x (s, true)))
    out_of_core (strlen (s) + 1, _gcry_is_secure (s), errno);
  return p;
}
