/* sysgcrypt-test.h - the GoogleTest fixture of the suites that compare
 * gcipher with the system libgcrypt call for call.
 *
 * SetUp loads the system library with sysgcrypt_load_quiet (gcipher
 * initialised, both libraries' logs quiet) into SYS and skips the test
 * when it is missing; OURS is gcipher's table of the same type
 * (sysgcrypt_ours).  A suite derives its own fixture from it, so test
 * names stay per suite:
 *
 *   class ApiDiff : public SysgcryptTest {};
 *   TEST_F (ApiDiff, ...) { Twin t (&ours, sys); ... }
 */
#ifndef GCIPHER_TESTS_SYSGCRYPT_TEST_H
#define GCIPHER_TESTS_SYSGCRYPT_TEST_H

#include <gtest/gtest.h>

#include "sysgcrypt.h"

class SysgcryptTest : public ::testing::Test
{
protected:
  void
  SetUp () override
  {
    sys = sysgcrypt_load_quiet ();
    if (!sys)
      GTEST_SKIP () << "system libgcrypt unavailable: " << sysgcrypt_error ();
  }

  const sysgcrypt *sys = nullptr;
  const sysgcrypt &ours = *sysgcrypt_ours ();
};

#endif /* GCIPHER_TESTS_SYSGCRYPT_TEST_H */
