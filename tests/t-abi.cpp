// t-abi.cpp - gcipher's header against the system libgcrypt header.
//
// t-abi-system.c (C, system header) exports (name, value) for every enum
// constant and numeric macro of gcipher's src/gcrypt.h and the layout
// of its public structs; this file builds the same table from gcipher's
// header and compares them entry by entry.  So every number a compiled
// libgcrypt program passes in (command codes, algorithm and mode ids,
// flags) means the same to gcipher.
//
// The name lists live in t-abi-system.c; the switch statements below
// turn a missing enumerator into a compile error (-Werror=switch-enum),
// so a constant added to gcrypt.h without adding it to the list breaks
// the build instead of escaping the test.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <map>
#include <string>

#include "gcrypt.h"

#define ABI_LIST_ONLY
#include "t-abi-system.c"
#undef ABI_LIST_ONLY

extern "C" {
extern const int abi_system_available;
extern const struct abi_entry abi_system_table[];
extern const int abi_system_count;
extern const char abi_system_version[];
}

namespace {

#define ABI_ENTRY(n) { #n, (long long) (n) },
const abi_entry our_table[] = {
  ABI_ALL (ABI_ENTRY)
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
#undef ABI_ENTRY

// Compile-time completeness of the enum lists: each switch names every
// listed enumerator; -Wswitch-enum (an error here) reports any
// enumerator of the type that the list lacks.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch-enum"
#define ABI_CASE(n) case n: return 1;
int listed (gcry_ctl_cmds v) { switch (v) { ABI_ENUM_CTL_CMDS (ABI_CASE) } return 0; }
int listed (gcry_cipher_algos v) { switch (v) { ABI_ENUM_CIPHER_ALGOS (ABI_CASE) ABI_ENUM_CIPHER_ALGOS_111 (ABI_CASE) } return 0; }
int listed (gcry_cipher_modes v) { switch (v) { ABI_ENUM_CIPHER_MODES (ABI_CASE) } return 0; }
int listed (gcry_cipher_flags v) { switch (v) { ABI_ENUM_CIPHER_FLAGS (ABI_CASE) } return 0; }
int listed (gcry_rng_types v) { switch (v) { ABI_ENUM_RNG_TYPES (ABI_CASE) } return 0; }
int listed (gcry_random_level v) { switch (v) { ABI_ENUM_RANDOM_LEVEL (ABI_CASE) } return 0; }
int listed (gcry_log_levels v) { switch (v) { ABI_ENUM_LOG_LEVELS (ABI_CASE) } return 0; }
#undef ABI_CASE
#pragma GCC diagnostic pop

}  // namespace

TEST (Abi, EnumListsAreComplete)
{
  // The real check is at compile time; this keeps the functions used.
  EXPECT_EQ (listed (GCRYCTL_NO_FIPS_MODE), 1);
  EXPECT_EQ (listed (GCRY_CIPHER_SM4), 1);
  EXPECT_EQ (listed (GCRY_CIPHER_MODE_GCM_SIV), 1);
  EXPECT_EQ (listed (GCRY_CIPHER_EXTENDED), 1);
  EXPECT_EQ (listed (GCRY_RNG_TYPE_SYSTEM), 1);
  EXPECT_EQ (listed (GCRY_VERY_STRONG_RANDOM), 1);
  EXPECT_EQ (listed (GCRY_LOG_DEBUG), 1);
}

// libgcrypt 1.11 algorithms, not in the system 1.10 (ARIA): libgcrypt
// 1.11's gcrypt.h values (the system header lacks them, so they are not
// in the compared tables: ABI_ENUM_CIPHER_ALGOS_111).
TEST (Abi, Libgcrypt111Algos)
{
  EXPECT_EQ (listed (GCRY_CIPHER_ARIA256), 1);
  EXPECT_EQ ((int) GCRY_CIPHER_ARIA128, 319);
  EXPECT_EQ ((int) GCRY_CIPHER_ARIA192, 320);
  EXPECT_EQ ((int) GCRY_CIPHER_ARIA256, 321);
}

TEST (Abi, TableNamesUnique)
{
  std::map<std::string, long long> seen;
  for (const auto &e : our_table)
    EXPECT_TRUE (seen.emplace (e.name, e.value).second) << e.name;
}

TEST (Abi, ValuesMatchSystemHeader)
{
  if (!abi_system_available)
    GTEST_SKIP () << "no system gcrypt.h (SYSTEM_GCRYPT_H unset)";
  const int n_ours = (int) (sizeof our_table / sizeof our_table[0]);
  ASSERT_EQ (abi_system_count, n_ours) << "t-abi tables out of step";
  std::map<std::string, long long> sys;
  for (int i = 0; i < abi_system_count; i++)
    sys[abi_system_table[i].name] = abi_system_table[i].value;
  for (const auto &e : our_table)
    {
      auto it = sys.find (e.name);
      ASSERT_NE (it, sys.end ()) << e.name;
      EXPECT_EQ (e.value, it->second) << e.name;
    }
}

TEST (Abi, VersionMacroMatchesSystemHeader)
{
  if (!abi_system_available)
    GTEST_SKIP () << "no system gcrypt.h";
  EXPECT_STREQ (GCRYPT_VERSION, abi_system_version);
}

// The exported library itself answers with the header's API level.
TEST (Abi, CheckVersionReportsHeaderLevel)
{
  const char *v = gcry_check_version (nullptr);
  ASSERT_NE (v, nullptr);
  EXPECT_EQ (std::strncmp (v, GCRYPT_VERSION, std::strlen (GCRYPT_VERSION)), 0)
    << v;
  EXPECT_NE (gcry_check_version (GCRYPT_VERSION), nullptr);
}
