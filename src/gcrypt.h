/* gcrypt.h - gcipher's libgcrypt-compatible public interface.
 *
 * gcipher implements libgcrypt's symmetric-cipher API.  Every number in
 * this file (enum values, GCRYCTL_* command codes, flag bits) is part of
 * the libgcrypt ABI, version 1.10 (API level GCRYPT_VERSION_NUMBER), and
 * must stay identical to it: binaries compiled against libgcrypt's header
 * call into gcipher unchanged.  The layout and comments are gcipher's own.
 *
 * Only the cipher subsystem and the core calls a cipher-only program
 * needs (version check, control, errors, memory, random) are declared.
 */
#ifndef GCIPHER_GCRYPT_H
#define GCIPHER_GCRYPT_H
#ifndef _GCRYPT_H
#define _GCRYPT_H 1   /* Same include guard effect as libgcrypt's header. */
#endif

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <gpg-error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The libgcrypt API level this header describes.  gcry_check_version()
 * accepts any request up to this version.  */
#define GCRYPT_VERSION "1.10.1"
#define GCRYPT_VERSION_NUMBER 0x010a01

/* gcipher's own version, appended to GCRYPT_VERSION by
 * gcry_check_version (NULL).  */
#define GCIPHER_VERSION "0.1.0"

#define _GCRY_ERR_SOURCE_DEFAULT GPG_ERR_SOURCE_GCRYPT

#if defined(__GNUC__)
# define _GCRY_GCC_ATTR_DEPRECATED  __attribute__ ((__deprecated__))
# define _GCRY_GCC_ATTR_PURE        __attribute__ ((__pure__))
# define _GCRY_GCC_ATTR_MALLOC      __attribute__ ((__malloc__))
# define _GCRY_GCC_ATTR_PRINTF(f,a) __attribute__ ((format (printf,f,a)))
#else
# define _GCRY_GCC_ATTR_DEPRECATED
# define _GCRY_GCC_ATTR_PURE
# define _GCRY_GCC_ATTR_MALLOC
# define _GCRY_GCC_ATTR_PRINTF(f,a)
#endif

/* ------------------------------------------------------------------ */
/* Errors: thin wrappers over libgpg-error.                            */
/* ------------------------------------------------------------------ */

typedef gpg_error_t      gcry_error_t;
typedef gpg_err_code_t   gcry_err_code_t;
typedef gpg_err_source_t gcry_err_source_t;

#ifndef GCRY_ERR_SOURCE_DEFAULT
#define GCRY_ERR_SOURCE_DEFAULT GPG_ERR_SOURCE_USER_1
#endif

static GPG_ERR_INLINE gcry_error_t
gcry_err_make (gcry_err_source_t source, gcry_err_code_t code)
{ return gpg_err_make (source, code); }

static GPG_ERR_INLINE gcry_error_t
gcry_error (gcry_err_code_t code)
{ return gcry_err_make (GCRY_ERR_SOURCE_DEFAULT, code); }

static GPG_ERR_INLINE gcry_err_code_t
gcry_err_code (gcry_error_t err)
{ return gpg_err_code (err); }

static GPG_ERR_INLINE gcry_err_source_t
gcry_err_source (gcry_error_t err)
{ return gpg_err_source (err); }

/* Descriptions of an error value's code and source (libgpg-error's).  */
const char *gcry_strerror (gcry_error_t err);
const char *gcry_strsource (gcry_error_t err);

/* errno <-> error code conversions (libgpg-error's tables).  */
gcry_err_code_t gcry_err_code_from_errno (int err);
int             gcry_err_code_to_errno (gcry_err_code_t code);
gcry_error_t    gcry_err_make_from_errno (gcry_err_source_t source, int err);
gcry_error_t    gcry_error_from_errno (int err);

/* ------------------------------------------------------------------ */
/* Threads: callbacks are unused since libgcrypt 1.6; kept for source  */
/* compatibility of programs that still set them.                      */
/* ------------------------------------------------------------------ */

#define GCRY_THREAD_OPTION_DEFAULT  0
#define GCRY_THREAD_OPTION_USER     1
#define GCRY_THREAD_OPTION_PTH      2
#define GCRY_THREAD_OPTION_PTHREAD  3
#define GCRY_THREAD_OPTION_VERSION  1

struct gcry_thread_cbs { unsigned int option; };

#define GCRY_THREAD_OPTION_PTH_IMPL \
  static struct gcry_thread_cbs gcry_threads_pth = \
    { (GCRY_THREAD_OPTION_PTH | (GCRY_THREAD_OPTION_VERSION << 8)) }
#define GCRY_THREAD_OPTION_PTHREAD_IMPL \
  static struct gcry_thread_cbs gcry_threads_pthread = \
    { (GCRY_THREAD_OPTION_PTHREAD | (GCRY_THREAD_OPTION_VERSION << 8)) }

/* Opaque objects of the rest of libgcrypt, declared so that programs
 * naming them in prototypes still compile.  gcipher implements none.  */
struct gcry_context;
typedef struct gcry_context *gcry_ctx_t;
struct gcry_mpi;
typedef struct gcry_mpi *gcry_mpi_t;

typedef struct
{
  size_t size;  /* Allocated size of DATA, or 0.  */
  size_t off;   /* Offset of the used part.  */
  size_t len;   /* Length of the used part.  */
  void *data;
} gcry_buffer_t;

/* ------------------------------------------------------------------ */
/* Version check and control.                                          */
/* ------------------------------------------------------------------ */

/* Returns the library version if it is at least REQ_VERSION (or
 * REQ_VERSION is NULL), else NULL.  */
const char *gcry_check_version (const char *req_version);

/* Command codes of gcry_control, gcry_cipher_ctl, gcry_cipher_info and
 * gcry_cipher_algo_info (libgcrypt's numbering; gaps are retired codes). */
enum gcry_ctl_cmds
  {
    GCRYCTL_CFB_SYNC                      = 3,
    GCRYCTL_RESET                         = 4,
    GCRYCTL_FINALIZE                      = 5,
    GCRYCTL_GET_KEYLEN                    = 6,
    GCRYCTL_GET_BLKLEN                    = 7,
    GCRYCTL_TEST_ALGO                     = 8,
    GCRYCTL_IS_SECURE                     = 9,
    GCRYCTL_GET_ASNOID                    = 10,
    GCRYCTL_ENABLE_ALGO                   = 11,
    GCRYCTL_DISABLE_ALGO                  = 12,
    GCRYCTL_DUMP_RANDOM_STATS             = 13,
    GCRYCTL_DUMP_SECMEM_STATS             = 14,
    GCRYCTL_GET_ALGO_NPKEY                = 15,
    GCRYCTL_GET_ALGO_NSKEY                = 16,
    GCRYCTL_GET_ALGO_NSIGN                = 17,
    GCRYCTL_GET_ALGO_NENCR                = 18,
    GCRYCTL_SET_VERBOSITY                 = 19,
    GCRYCTL_SET_DEBUG_FLAGS               = 20,
    GCRYCTL_CLEAR_DEBUG_FLAGS             = 21,
    GCRYCTL_USE_SECURE_RNDPOOL            = 22,
    GCRYCTL_DUMP_MEMORY_STATS             = 23,
    GCRYCTL_INIT_SECMEM                   = 24,
    GCRYCTL_TERM_SECMEM                   = 25,
    GCRYCTL_DISABLE_SECMEM_WARN           = 27,
    GCRYCTL_SUSPEND_SECMEM_WARN           = 28,
    GCRYCTL_RESUME_SECMEM_WARN            = 29,
    GCRYCTL_DROP_PRIVS                    = 30,
    GCRYCTL_ENABLE_M_GUARD                = 31,
    GCRYCTL_START_DUMP                    = 32,
    GCRYCTL_STOP_DUMP                     = 33,
    GCRYCTL_GET_ALGO_USAGE                = 34,
    GCRYCTL_IS_ALGO_ENABLED               = 35,
    GCRYCTL_DISABLE_INTERNAL_LOCKING      = 36,
    GCRYCTL_DISABLE_SECMEM                = 37,
    GCRYCTL_INITIALIZATION_FINISHED       = 38,
    GCRYCTL_INITIALIZATION_FINISHED_P     = 39,
    GCRYCTL_ANY_INITIALIZATION_P          = 40,
    GCRYCTL_SET_CBC_CTS                   = 41,
    GCRYCTL_SET_CBC_MAC                   = 42,
    GCRYCTL_ENABLE_QUICK_RANDOM           = 44,
    GCRYCTL_SET_RANDOM_SEED_FILE          = 45,
    GCRYCTL_UPDATE_RANDOM_SEED_FILE       = 46,
    GCRYCTL_SET_THREAD_CBS                = 47,
    GCRYCTL_FAST_POLL                     = 48,
    GCRYCTL_SET_RANDOM_DAEMON_SOCKET      = 49,
    GCRYCTL_USE_RANDOM_DAEMON             = 50,
    GCRYCTL_FAKED_RANDOM_P                = 51,
    GCRYCTL_SET_RNDEGD_SOCKET             = 52,
    GCRYCTL_PRINT_CONFIG                  = 53,
    GCRYCTL_OPERATIONAL_P                 = 54,
    GCRYCTL_FIPS_MODE_P                   = 55,
    GCRYCTL_FORCE_FIPS_MODE               = 56,
    GCRYCTL_SELFTEST                      = 57,
    GCRYCTL_DISABLE_HWF                   = 63,
    GCRYCTL_SET_ENFORCED_FIPS_FLAG        = 64,
    GCRYCTL_SET_PREFERRED_RNG_TYPE        = 65,
    GCRYCTL_GET_CURRENT_RNG_TYPE          = 66,
    GCRYCTL_DISABLE_LOCKED_SECMEM         = 67,
    GCRYCTL_DISABLE_PRIV_DROP             = 68,
    GCRYCTL_SET_CCM_LENGTHS               = 69,
    GCRYCTL_CLOSE_RANDOM_DEVICE           = 70,
    GCRYCTL_INACTIVATE_FIPS_FLAG          = 71,
    GCRYCTL_REACTIVATE_FIPS_FLAG          = 72,
    GCRYCTL_SET_SBOX                      = 73,
    GCRYCTL_DRBG_REINIT                   = 74,
    GCRYCTL_SET_TAGLEN                    = 75,
    GCRYCTL_GET_TAGLEN                    = 76,
    GCRYCTL_REINIT_SYSCALL_CLAMP          = 77,
    GCRYCTL_AUTO_EXPAND_SECMEM            = 78,
    GCRYCTL_SET_ALLOW_WEAK_KEY            = 79,
    GCRYCTL_SET_DECRYPTION_TAG            = 80,
    GCRYCTL_FIPS_SERVICE_INDICATOR_CIPHER = 81,
    GCRYCTL_FIPS_SERVICE_INDICATOR_KDF    = 82,
    GCRYCTL_NO_FIPS_MODE                  = 83
  };

/* Global library control; see the libgcrypt manual for each command.  */
gcry_error_t gcry_control (enum gcry_ctl_cmds cmd, ...);

/* ------------------------------------------------------------------ */
/* Symmetric ciphers.                                                  */
/* ------------------------------------------------------------------ */

struct gcry_cipher_handle;
typedef struct gcry_cipher_handle *gcry_cipher_hd_t;

/* Algorithm identifiers (OpenPGP numbers below 300, libgcrypt's above). */
enum gcry_cipher_algos
  {
    GCRY_CIPHER_NONE           = 0,
    GCRY_CIPHER_IDEA           = 1,
    GCRY_CIPHER_3DES           = 2,
    GCRY_CIPHER_CAST5          = 3,
    GCRY_CIPHER_BLOWFISH       = 4,
    GCRY_CIPHER_SAFER_SK128    = 5,
    GCRY_CIPHER_DES_SK         = 6,
    GCRY_CIPHER_AES            = 7,
    GCRY_CIPHER_AES192         = 8,
    GCRY_CIPHER_AES256         = 9,
    GCRY_CIPHER_TWOFISH        = 10,
    GCRY_CIPHER_ARCFOUR        = 301,
    GCRY_CIPHER_DES            = 302,
    GCRY_CIPHER_TWOFISH128     = 303,
    GCRY_CIPHER_SERPENT128     = 304,
    GCRY_CIPHER_SERPENT192     = 305,
    GCRY_CIPHER_SERPENT256     = 306,
    GCRY_CIPHER_RFC2268_40     = 307,
    GCRY_CIPHER_RFC2268_128    = 308,
    GCRY_CIPHER_SEED           = 309,
    GCRY_CIPHER_CAMELLIA128    = 310,
    GCRY_CIPHER_CAMELLIA192    = 311,
    GCRY_CIPHER_CAMELLIA256    = 312,
    GCRY_CIPHER_SALSA20        = 313,
    GCRY_CIPHER_SALSA20R12     = 314,
    GCRY_CIPHER_GOST28147      = 315,
    GCRY_CIPHER_CHACHA20       = 316,
    GCRY_CIPHER_GOST28147_MESH = 317,
    GCRY_CIPHER_SM4            = 318,
    /* libgcrypt 1.11's values (not in the system libgcrypt 1.10).  */
    GCRY_CIPHER_ARIA128        = 319,
    GCRY_CIPHER_ARIA192        = 320,
    GCRY_CIPHER_ARIA256        = 321
  };

#define GCRY_CIPHER_AES128      GCRY_CIPHER_AES
#define GCRY_CIPHER_RIJNDAEL    GCRY_CIPHER_AES
#define GCRY_CIPHER_RIJNDAEL128 GCRY_CIPHER_AES128
#define GCRY_CIPHER_RIJNDAEL192 GCRY_CIPHER_AES192
#define GCRY_CIPHER_RIJNDAEL256 GCRY_CIPHER_AES256

/* Modes of operation.  */
enum gcry_cipher_modes
  {
    GCRY_CIPHER_MODE_NONE     = 0,
    GCRY_CIPHER_MODE_ECB      = 1,
    GCRY_CIPHER_MODE_CFB      = 2,
    GCRY_CIPHER_MODE_CBC      = 3,
    GCRY_CIPHER_MODE_STREAM   = 4,
    GCRY_CIPHER_MODE_OFB      = 5,
    GCRY_CIPHER_MODE_CTR      = 6,
    GCRY_CIPHER_MODE_AESWRAP  = 7,
    GCRY_CIPHER_MODE_CCM      = 8,
    GCRY_CIPHER_MODE_GCM      = 9,
    GCRY_CIPHER_MODE_POLY1305 = 10,
    GCRY_CIPHER_MODE_OCB      = 11,
    GCRY_CIPHER_MODE_CFB8     = 12,
    GCRY_CIPHER_MODE_XTS      = 13,
    GCRY_CIPHER_MODE_EAX      = 14,
    GCRY_CIPHER_MODE_SIV      = 15,
    GCRY_CIPHER_MODE_GCM_SIV  = 16
  };

/* Flags of gcry_cipher_open (bitwise OR).  */
enum gcry_cipher_flags
  {
    GCRY_CIPHER_SECURE      = 1,   /* Context in locked (secure) memory.  */
    GCRY_CIPHER_ENABLE_SYNC = 2,   /* OpenPGP CFB resynchronisation.  */
    GCRY_CIPHER_CBC_CTS     = 4,   /* CBC with ciphertext stealing.  */
    GCRY_CIPHER_CBC_MAC     = 8,   /* CBC-MAC: output only the last block. */
    GCRY_CIPHER_EXTENDED    = 16   /* AES-WRAP with padding (RFC 5649).  */
  };

/* Block length in bytes the AEAD and XTS modes require.  */
#define GCRY_GCM_BLOCK_LEN  16
#define GCRY_CCM_BLOCK_LEN  16
#define GCRY_OCB_BLOCK_LEN  16
#define GCRY_XTS_BLOCK_LEN  16
#define GCRY_SIV_BLOCK_LEN  16

/* Opens a handle for ALGO in MODE with FLAGS.  Errors:
 * GPG_ERR_CIPHER_ALGO, GPG_ERR_INV_CIPHER_MODE, GPG_ERR_INV_FLAG.  */
gcry_error_t gcry_cipher_open (gcry_cipher_hd_t *handle,
                               int algo, int mode, unsigned int flags);
/* Wipes and frees the handle; NULL is ignored.  */
void gcry_cipher_close (gcry_cipher_hd_t h);
gcry_error_t gcry_cipher_ctl (gcry_cipher_hd_t h, int cmd, void *buffer,
                              size_t buflen);
gcry_error_t gcry_cipher_info (gcry_cipher_hd_t h, int what, void *buffer,
                               size_t *nbytes);
gcry_error_t gcry_cipher_algo_info (int algo, int what, void *buffer,
                                    size_t *nbytes);
/* Name of ALGO, "?" if unknown.  */
const char *gcry_cipher_algo_name (int algorithm) _GCRY_GCC_ATTR_PURE;
/* ALGO of a name, alias or OID ("oid." prefix allowed), 0 if unknown.  */
int gcry_cipher_map_name (const char *name) _GCRY_GCC_ATTR_PURE;
/* Mode of a dotted-decimal OID, 0 if unknown.  */
int gcry_cipher_mode_from_oid (const char *string) _GCRY_GCC_ATTR_PURE;

/* Encrypt INLEN bytes of IN into OUT (OUTSIZE bytes).  IN == NULL with
 * INLEN == 0 means in place over OUTSIZE bytes of OUT.  */
gcry_error_t gcry_cipher_encrypt (gcry_cipher_hd_t h,
                                  void *out, size_t outsize,
                                  const void *in, size_t inlen);
gcry_error_t gcry_cipher_decrypt (gcry_cipher_hd_t h,
                                  void *out, size_t outsize,
                                  const void *in, size_t inlen);
gcry_error_t gcry_cipher_setkey (gcry_cipher_hd_t hd,
                                 const void *key, size_t keylen);
gcry_error_t gcry_cipher_setiv (gcry_cipher_hd_t hd,
                                const void *iv, size_t ivlen);
gcry_error_t gcry_cipher_authenticate (gcry_cipher_hd_t hd, const void *abuf,
                                       size_t abuflen);
gcry_error_t gcry_cipher_gettag (gcry_cipher_hd_t hd, void *outtag,
                                 size_t taglen);
gcry_error_t gcry_cipher_checktag (gcry_cipher_hd_t hd, const void *intag,
                                   size_t taglen);
/* Sets the CTR-mode counter block (CTRLEN == block size), or zeroes it
 * for (NULL, 0).  */
gpg_error_t gcry_cipher_setctr (gcry_cipher_hd_t hd,
                                const void *ctr, size_t ctrlen);
/* Key length / block length of ALGO in bytes, 0 if unknown.  */
size_t gcry_cipher_get_algo_keylen (int algo);
size_t gcry_cipher_get_algo_blklen (int algo);

#define gcry_cipher_reset(h)   gcry_cipher_ctl ((h), GCRYCTL_RESET, NULL, 0)
#define gcry_cipher_sync(h)    gcry_cipher_ctl ((h), GCRYCTL_CFB_SYNC, NULL, 0)
#define gcry_cipher_cts(h,on)  gcry_cipher_ctl ((h), GCRYCTL_SET_CBC_CTS, \
                                                NULL, (on))
#define gcry_cipher_set_sbox(h,oid) gcry_cipher_ctl ((h), GCRYCTL_SET_SBOX, \
                                                     (void *) (oid), 0);
#define gcry_cipher_final(a)   gcry_cipher_ctl ((a), GCRYCTL_FINALIZE, NULL, 0)
#define gcry_cipher_test_algo(a) \
          gcry_cipher_algo_info ((a), GCRYCTL_TEST_ALGO, NULL, NULL)
#define gcry_cipher_set_decryption_tag(a, tag, taglen) \
          gcry_cipher_ctl ((a), GCRYCTL_SET_DECRYPTION_TAG, \
                           (void *) (tag), (taglen))

/* ------------------------------------------------------------------ */
/* Random (served from the kernel's getrandom).                        */
/* ------------------------------------------------------------------ */

enum gcry_rng_types
  {
    GCRY_RNG_TYPE_STANDARD = 1,
    GCRY_RNG_TYPE_FIPS     = 2,
    GCRY_RNG_TYPE_SYSTEM   = 3
  };

typedef enum gcry_random_level
  {
    GCRY_WEAK_RANDOM        = 0,
    GCRY_STRONG_RANDOM      = 1,
    GCRY_VERY_STRONG_RANDOM = 2
  }
gcry_random_level_t;

void gcry_randomize (void *buffer, size_t length,
                     enum gcry_random_level level);
void gcry_create_nonce (void *buffer, size_t length);

#define gcry_fast_random_poll()  gcry_control (GCRYCTL_FAST_POLL, NULL)

/* ------------------------------------------------------------------ */
/* Memory.                                                             */
/* ------------------------------------------------------------------ */

typedef void *(*gcry_handler_alloc_t) (size_t n);
typedef int   (*gcry_handler_secure_check_t) (const void *);
typedef void *(*gcry_handler_realloc_t) (void *p, size_t n);
typedef void  (*gcry_handler_free_t) (void *);
typedef int   (*gcry_handler_no_mem_t) (void *, size_t, unsigned int);
typedef void  (*gcry_handler_error_t) (void *, int, const char *);
typedef void  (*gcry_handler_log_t) (void *, int, const char *, va_list);
typedef void  (*gcry_handler_progress_t) (void *, const char *, int, int, int);

enum gcry_log_levels
  {
    GCRY_LOG_CONT  = 0,
    GCRY_LOG_INFO  = 10,
    GCRY_LOG_WARN  = 20,
    GCRY_LOG_ERROR = 30,
    GCRY_LOG_FATAL = 40,
    GCRY_LOG_BUG   = 50,
    GCRY_LOG_DEBUG = 100
  };

void gcry_set_allocation_handler (gcry_handler_alloc_t func_alloc,
                                  gcry_handler_alloc_t func_alloc_secure,
                                  gcry_handler_secure_check_t func_secure_check,
                                  gcry_handler_realloc_t func_realloc,
                                  gcry_handler_free_t func_free);
void gcry_set_outofcore_handler (gcry_handler_no_mem_t h, void *opaque);
void gcry_set_fatalerror_handler (gcry_handler_error_t fnc, void *opaque);
void gcry_set_log_handler (gcry_handler_log_t f, void *opaque);
void gcry_set_progress_handler (gcry_handler_progress_t cb, void *cb_data);
void gcry_set_gettext_handler (const char *(*f)(const char *));

void *gcry_malloc (size_t n) _GCRY_GCC_ATTR_MALLOC;
void *gcry_calloc (size_t n, size_t m) _GCRY_GCC_ATTR_MALLOC;
void *gcry_malloc_secure (size_t n) _GCRY_GCC_ATTR_MALLOC;
void *gcry_calloc_secure (size_t n, size_t m) _GCRY_GCC_ATTR_MALLOC;
void *gcry_realloc (void *a, size_t n);
char *gcry_strdup (const char *string) _GCRY_GCC_ATTR_MALLOC;
void *gcry_xmalloc (size_t n) _GCRY_GCC_ATTR_MALLOC;
void *gcry_xcalloc (size_t n, size_t m) _GCRY_GCC_ATTR_MALLOC;
void *gcry_xmalloc_secure (size_t n) _GCRY_GCC_ATTR_MALLOC;
void *gcry_xcalloc_secure (size_t n, size_t m) _GCRY_GCC_ATTR_MALLOC;
void *gcry_xrealloc (void *a, size_t n);
char *gcry_xstrdup (const char *a) _GCRY_GCC_ATTR_MALLOC;
void  gcry_free (void *a);
/* Nonzero if A was allocated by gcry_malloc_secure and friends.  */
int   gcry_is_secure (const void *a) _GCRY_GCC_ATTR_PURE;

/* Configuration text as GCRYCTL_PRINT_CONFIG prints it; MODE 0 and WHAT
 * NULL for all, or the value of one item (e.g. "hwflist").  Free the
 * result with gcry_free.  */
char *gcry_get_config (int mode, const char *what);

void gcry_log_debug (const char *fmt, ...) _GCRY_GCC_ATTR_PRINTF(1,2);
void gcry_log_debughex (const char *text, const void *buffer, size_t length);

#define gcry_fips_mode_active()  !!gcry_control (GCRYCTL_FIPS_MODE_P, 0)

#ifdef __cplusplus
}
#endif
#endif /* GCIPHER_GCRYPT_H */
