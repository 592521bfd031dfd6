/* t-abi-system.c - the ABI facts of the SYSTEM libgcrypt header.
 *
 * Compiled as C against the header named by SYSTEM_GCRYPT_H (defined by
 * tests/Makefile.am from configure, and not defined at all when
 * libgcrypt20-dev is absent: then the tables are empty and t-abi skips).
 * It exports a table of (name, value) for every enum constant and
 * numeric macro that gcipher's own src/gcrypt.h defines, plus the sizes
 * and offsets of the public structs; t-abi.cpp includes gcipher's header
 * and compares.  The name lists below are shared with t-abi.cpp, which
 * includes this file with ABI_LIST_ONLY defined and checks at compile
 * time (-Werror=switch-enum) that every enumerator of gcipher's enums is
 * listed.
 */
#ifndef T_ABI_SYSTEM_LISTS
#define T_ABI_SYSTEM_LISTS

#define ABI_ENUM_CTL_CMDS(X) \
  X (GCRYCTL_CFB_SYNC) \
  X (GCRYCTL_RESET) \
  X (GCRYCTL_FINALIZE) \
  X (GCRYCTL_GET_KEYLEN) \
  X (GCRYCTL_GET_BLKLEN) \
  X (GCRYCTL_TEST_ALGO) \
  X (GCRYCTL_IS_SECURE) \
  X (GCRYCTL_GET_ASNOID) \
  X (GCRYCTL_ENABLE_ALGO) \
  X (GCRYCTL_DISABLE_ALGO) \
  X (GCRYCTL_DUMP_RANDOM_STATS) \
  X (GCRYCTL_DUMP_SECMEM_STATS) \
  X (GCRYCTL_GET_ALGO_NPKEY) \
  X (GCRYCTL_GET_ALGO_NSKEY) \
  X (GCRYCTL_GET_ALGO_NSIGN) \
  X (GCRYCTL_GET_ALGO_NENCR) \
  X (GCRYCTL_SET_VERBOSITY) \
  X (GCRYCTL_SET_DEBUG_FLAGS) \
  X (GCRYCTL_CLEAR_DEBUG_FLAGS) \
  X (GCRYCTL_USE_SECURE_RNDPOOL) \
  X (GCRYCTL_DUMP_MEMORY_STATS) \
  X (GCRYCTL_INIT_SECMEM) \
  X (GCRYCTL_TERM_SECMEM) \
  X (GCRYCTL_DISABLE_SECMEM_WARN) \
  X (GCRYCTL_SUSPEND_SECMEM_WARN) \
  X (GCRYCTL_RESUME_SECMEM_WARN) \
  X (GCRYCTL_DROP_PRIVS) \
  X (GCRYCTL_ENABLE_M_GUARD) \
  X (GCRYCTL_START_DUMP) \
  X (GCRYCTL_STOP_DUMP) \
  X (GCRYCTL_GET_ALGO_USAGE) \
  X (GCRYCTL_IS_ALGO_ENABLED) \
  X (GCRYCTL_DISABLE_INTERNAL_LOCKING) \
  X (GCRYCTL_DISABLE_SECMEM) \
  X (GCRYCTL_INITIALIZATION_FINISHED) \
  X (GCRYCTL_INITIALIZATION_FINISHED_P) \
  X (GCRYCTL_ANY_INITIALIZATION_P) \
  X (GCRYCTL_SET_CBC_CTS) \
  X (GCRYCTL_SET_CBC_MAC) \
  X (GCRYCTL_ENABLE_QUICK_RANDOM) \
  X (GCRYCTL_SET_RANDOM_SEED_FILE) \
  X (GCRYCTL_UPDATE_RANDOM_SEED_FILE) \
  X (GCRYCTL_SET_THREAD_CBS) \
  X (GCRYCTL_FAST_POLL) \
  X (GCRYCTL_SET_RANDOM_DAEMON_SOCKET) \
  X (GCRYCTL_USE_RANDOM_DAEMON) \
  X (GCRYCTL_FAKED_RANDOM_P) \
  X (GCRYCTL_SET_RNDEGD_SOCKET) \
  X (GCRYCTL_PRINT_CONFIG) \
  X (GCRYCTL_OPERATIONAL_P) \
  X (GCRYCTL_FIPS_MODE_P) \
  X (GCRYCTL_FORCE_FIPS_MODE) \
  X (GCRYCTL_SELFTEST) \
  X (GCRYCTL_DISABLE_HWF) \
  X (GCRYCTL_SET_ENFORCED_FIPS_FLAG) \
  X (GCRYCTL_SET_PREFERRED_RNG_TYPE) \
  X (GCRYCTL_GET_CURRENT_RNG_TYPE) \
  X (GCRYCTL_DISABLE_LOCKED_SECMEM) \
  X (GCRYCTL_DISABLE_PRIV_DROP) \
  X (GCRYCTL_SET_CCM_LENGTHS) \
  X (GCRYCTL_CLOSE_RANDOM_DEVICE) \
  X (GCRYCTL_INACTIVATE_FIPS_FLAG) \
  X (GCRYCTL_REACTIVATE_FIPS_FLAG) \
  X (GCRYCTL_SET_SBOX) \
  X (GCRYCTL_DRBG_REINIT) \
  X (GCRYCTL_SET_TAGLEN) \
  X (GCRYCTL_GET_TAGLEN) \
  X (GCRYCTL_REINIT_SYSCALL_CLAMP) \
  X (GCRYCTL_AUTO_EXPAND_SECMEM) \
  X (GCRYCTL_SET_ALLOW_WEAK_KEY) \
  X (GCRYCTL_SET_DECRYPTION_TAG) \
  X (GCRYCTL_FIPS_SERVICE_INDICATOR_CIPHER) \
  X (GCRYCTL_FIPS_SERVICE_INDICATOR_KDF) \
  X (GCRYCTL_NO_FIPS_MODE)

#define ABI_ENUM_CIPHER_ALGOS(X) \
  X (GCRY_CIPHER_NONE) \
  X (GCRY_CIPHER_IDEA) \
  X (GCRY_CIPHER_3DES) \
  X (GCRY_CIPHER_CAST5) \
  X (GCRY_CIPHER_BLOWFISH) \
  X (GCRY_CIPHER_SAFER_SK128) \
  X (GCRY_CIPHER_DES_SK) \
  X (GCRY_CIPHER_AES) \
  X (GCRY_CIPHER_AES192) \
  X (GCRY_CIPHER_AES256) \
  X (GCRY_CIPHER_TWOFISH) \
  X (GCRY_CIPHER_ARCFOUR) \
  X (GCRY_CIPHER_DES) \
  X (GCRY_CIPHER_TWOFISH128) \
  X (GCRY_CIPHER_SERPENT128) \
  X (GCRY_CIPHER_SERPENT192) \
  X (GCRY_CIPHER_SERPENT256) \
  X (GCRY_CIPHER_RFC2268_40) \
  X (GCRY_CIPHER_RFC2268_128) \
  X (GCRY_CIPHER_SEED) \
  X (GCRY_CIPHER_CAMELLIA128) \
  X (GCRY_CIPHER_CAMELLIA192) \
  X (GCRY_CIPHER_CAMELLIA256) \
  X (GCRY_CIPHER_SALSA20) \
  X (GCRY_CIPHER_SALSA20R12) \
  X (GCRY_CIPHER_GOST28147) \
  X (GCRY_CIPHER_CHACHA20) \
  X (GCRY_CIPHER_GOST28147_MESH) \
  X (GCRY_CIPHER_SM4)

/* libgcrypt 1.11 algorithms, not in the system 1.10: in gcipher's header
 * only, with 1.11's values; never looked up in the system table (t-abi.cpp
 * checks their values and the switch lists them).  */
#define ABI_ENUM_CIPHER_ALGOS_111(X) \
  X (GCRY_CIPHER_ARIA128) \
  X (GCRY_CIPHER_ARIA192) \
  X (GCRY_CIPHER_ARIA256)

#define ABI_ENUM_CIPHER_MODES(X) \
  X (GCRY_CIPHER_MODE_NONE) \
  X (GCRY_CIPHER_MODE_ECB) \
  X (GCRY_CIPHER_MODE_CFB) \
  X (GCRY_CIPHER_MODE_CBC) \
  X (GCRY_CIPHER_MODE_STREAM) \
  X (GCRY_CIPHER_MODE_OFB) \
  X (GCRY_CIPHER_MODE_CTR) \
  X (GCRY_CIPHER_MODE_AESWRAP) \
  X (GCRY_CIPHER_MODE_CCM) \
  X (GCRY_CIPHER_MODE_GCM) \
  X (GCRY_CIPHER_MODE_POLY1305) \
  X (GCRY_CIPHER_MODE_OCB) \
  X (GCRY_CIPHER_MODE_CFB8) \
  X (GCRY_CIPHER_MODE_XTS) \
  X (GCRY_CIPHER_MODE_EAX) \
  X (GCRY_CIPHER_MODE_SIV) \
  X (GCRY_CIPHER_MODE_GCM_SIV)

#define ABI_ENUM_CIPHER_FLAGS(X) \
  X (GCRY_CIPHER_SECURE) \
  X (GCRY_CIPHER_ENABLE_SYNC) \
  X (GCRY_CIPHER_CBC_CTS) \
  X (GCRY_CIPHER_CBC_MAC) \
  X (GCRY_CIPHER_EXTENDED)

#define ABI_ENUM_RNG_TYPES(X) \
  X (GCRY_RNG_TYPE_STANDARD) \
  X (GCRY_RNG_TYPE_FIPS) \
  X (GCRY_RNG_TYPE_SYSTEM)

#define ABI_ENUM_RANDOM_LEVEL(X) \
  X (GCRY_WEAK_RANDOM) \
  X (GCRY_STRONG_RANDOM) \
  X (GCRY_VERY_STRONG_RANDOM)

#define ABI_ENUM_LOG_LEVELS(X) \
  X (GCRY_LOG_CONT) \
  X (GCRY_LOG_INFO) \
  X (GCRY_LOG_WARN) \
  X (GCRY_LOG_ERROR) \
  X (GCRY_LOG_FATAL) \
  X (GCRY_LOG_BUG) \
  X (GCRY_LOG_DEBUG)

#define ABI_MACROS(X) \
  X (GCRYPT_VERSION_NUMBER) \
  X (GCRY_THREAD_OPTION_DEFAULT) \
  X (GCRY_THREAD_OPTION_USER) \
  X (GCRY_THREAD_OPTION_PTH) \
  X (GCRY_THREAD_OPTION_PTHREAD) \
  X (GCRY_THREAD_OPTION_VERSION) \
  X (GCRY_CIPHER_AES128) \
  X (GCRY_CIPHER_RIJNDAEL) \
  X (GCRY_CIPHER_RIJNDAEL128) \
  X (GCRY_CIPHER_RIJNDAEL192) \
  X (GCRY_CIPHER_RIJNDAEL256) \
  X (GCRY_GCM_BLOCK_LEN) \
  X (GCRY_CCM_BLOCK_LEN) \
  X (GCRY_OCB_BLOCK_LEN) \
  X (GCRY_XTS_BLOCK_LEN) \
  X (GCRY_SIV_BLOCK_LEN) \
  X (_GCRY_ERR_SOURCE_DEFAULT)
#define ABI_ALL(X) \
  ABI_ENUM_CTL_CMDS (X) ABI_ENUM_CIPHER_ALGOS (X) ABI_ENUM_CIPHER_MODES (X) \
  ABI_ENUM_CIPHER_FLAGS (X) ABI_ENUM_RNG_TYPES (X) \
  ABI_ENUM_RANDOM_LEVEL (X) ABI_ENUM_LOG_LEVELS (X) ABI_MACROS (X)

struct abi_entry
{
  const char *name;
  long long value;
};

#endif /* T_ABI_SYSTEM_LISTS */

#ifndef ABI_LIST_ONLY

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
/* Number of entries of abi_system_table; 0 when there is no system
 * header (the test then skips).  */
extern const int abi_system_available;
extern const struct abi_entry abi_system_table[];
extern const int abi_system_count;
extern const char abi_system_version[];
#ifdef __cplusplus
}
#endif

#if !defined(__cplusplus)
# if defined(SYSTEM_GCRYPT_H) && defined(__has_include)
#  if __has_include(SYSTEM_GCRYPT_H)
#   include SYSTEM_GCRYPT_H
#   define ABI_INCLUDED 1
#  endif
# endif

# ifdef ABI_INCLUDED
/* struct gcry_thread_cbs is deprecated in libgcrypt's header; its size
 * is still ABI.  */
#  pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#  define ABI_ENTRY(n) { #n, (long long) (n) },
const struct abi_entry abi_system_table[] = {
  ABI_ALL (ABI_ENTRY)
  /* Layout facts.  */
  { "sizeof(gcry_buffer_t)", (long long) sizeof (gcry_buffer_t) },
  { "offsetof(gcry_buffer_t,size)", (long long) offsetof (gcry_buffer_t, size) },
  { "offsetof(gcry_buffer_t,off)", (long long) offsetof (gcry_buffer_t, off) },
  { "offsetof(gcry_buffer_t,len)", (long long) offsetof (gcry_buffer_t, len) },
  { "offsetof(gcry_buffer_t,data)", (long long) offsetof (gcry_buffer_t, data) },
  { "sizeof(struct gcry_thread_cbs)", (long long) sizeof (struct gcry_thread_cbs) },
  { "sizeof(enum gcry_ctl_cmds)", (long long) sizeof (enum gcry_ctl_cmds) },
  { "sizeof(enum gcry_cipher_algos)", (long long) sizeof (enum gcry_cipher_algos) },
  { "sizeof(enum gcry_cipher_modes)", (long long) sizeof (enum gcry_cipher_modes) },
  { "sizeof(enum gcry_random_level)", (long long) sizeof (enum gcry_random_level) },
  { "sizeof(gcry_error_t)", (long long) sizeof (gcry_error_t) },
  { "sizeof(gcry_err_code_t)", (long long) sizeof (gcry_err_code_t) },
};
const int abi_system_count = (int) (sizeof abi_system_table
                                    / sizeof abi_system_table[0]);
const int abi_system_available = 1;
const char abi_system_version[] = GCRYPT_VERSION;
# else
const struct abi_entry abi_system_table[] = { { 0, 0 } };
const int abi_system_count = 0;
const int abi_system_available = 0;
const char abi_system_version[] = "";
# endif
#endif /* !__cplusplus */

#endif /* !ABI_LIST_ONLY */
