/* t-robust.cpp - bad pointers get an error code, never a crash.
 *
 * libgcrypt 1.10 dereferences a NULL handle or a NULL buffer of nonzero
 * length and crashes; gcipher answers GPG_ERR_INV_ARG (the differential
 * test cannot cover these: the reference would crash).  Every other
 * argument error is compared with libgcrypt in t-api-diff.  */
#include <gtest/gtest.h>
#include <gcrypt.h>

namespace {

gcry_err_code_t
code (gcry_error_t e)
{
  return gcry_err_code (e);
}

TEST (Robust, NullHandle)
{
  unsigned char b[32] = { 0 };
  size_t n = 0;
  EXPECT_EQ (code (gcry_cipher_open (nullptr, GCRY_CIPHER_AES,
                                     GCRY_CIPHER_MODE_CBC, 0)),
             GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_setkey (nullptr, b, 16)), GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_setiv (nullptr, b, 16)), GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_setctr (nullptr, b, 16)), GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_encrypt (nullptr, b, 32, nullptr, 0)),
             GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_decrypt (nullptr, b, 32, b, 32)),
             GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_authenticate (nullptr, b, 16)),
             GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_gettag (nullptr, b, 16)), GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_checktag (nullptr, b, 16)), GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_reset (nullptr)), GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_info (nullptr, GCRYCTL_GET_TAGLEN, nullptr,
                                     &n)),
             GPG_ERR_INV_ARG);
  gcry_cipher_close (nullptr);  /* Ignored, as in libgcrypt.  */
}

TEST (Robust, ForeignHandle)
{
  /* Memory that is not a gcipher handle (a zeroed block).  */
  alignas (16) unsigned char fake[512] = { 0 };
  unsigned char b[32] = { 0 };
  gcry_cipher_hd_t h = reinterpret_cast<gcry_cipher_hd_t> (fake);
  EXPECT_EQ (code (gcry_cipher_setkey (h, b, 16)), GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_encrypt (h, b, 32, nullptr, 0)),
             GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_ctl (h, GCRYCTL_RESET, nullptr, 0)),
             GPG_ERR_INV_ARG);
}

TEST (Robust, NullBuffers)
{
  unsigned char key[16] = { 1 }, b[32] = { 0 };
  gcry_cipher_hd_t h;
  ASSERT_EQ (gcry_cipher_open (&h, GCRY_CIPHER_AES, GCRY_CIPHER_MODE_CBC, 0),
             0u);
  EXPECT_EQ (code (gcry_cipher_setkey (h, nullptr, 16)), GPG_ERR_INV_ARG);
  ASSERT_EQ (gcry_cipher_setkey (h, key, 16), 0u);
  EXPECT_EQ (code (gcry_cipher_encrypt (h, nullptr, 32, b, 32)),
             GPG_ERR_INV_ARG);
  EXPECT_EQ (code (gcry_cipher_decrypt (h, nullptr, 32, b, 32)),
             GPG_ERR_INV_ARG);
  /* Zero-length calls with NULL buffers are fine.  */
  EXPECT_EQ (gcry_cipher_encrypt (h, nullptr, 0, nullptr, 0), 0u);
  /* The handle is still usable after the errors.  */
  EXPECT_EQ (gcry_cipher_encrypt (h, b, 32, nullptr, 0), 0u);
  gcry_cipher_close (h);
}

TEST (Robust, PartialOverlapRefused)
{
  unsigned char key[16] = { 2 }, buf[300] = { 0 };
  for (int mode : { GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC,
                    GCRY_CIPHER_MODE_CFB, GCRY_CIPHER_MODE_CTR })
    {
      gcry_cipher_hd_t h;
      ASSERT_EQ (gcry_cipher_open (&h, GCRY_CIPHER_AES, mode, 0), 0u);
      ASSERT_EQ (gcry_cipher_setkey (h, key, 16), 0u);
      EXPECT_EQ (code (gcry_cipher_encrypt (h, buf + 16, 256, buf, 256)),
                 GPG_ERR_INV_ARG) << "mode " << mode;
      EXPECT_EQ (code (gcry_cipher_decrypt (h, buf, 256, buf + 1, 256)),
                 GPG_ERR_INV_ARG) << "mode " << mode;
      /* In place and adjacent buffers are fine.  */
      EXPECT_EQ (gcry_cipher_encrypt (h, buf, 128, buf, 128), 0u);
      EXPECT_EQ (gcry_cipher_encrypt (h, buf + 128, 128, buf, 128), 0u);
      gcry_cipher_close (h);
    }
}

} // namespace
