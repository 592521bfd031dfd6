/* t-robust.cpp - bad pointers get an error code, never a crash.
 *
 * libgcrypt 1.10 dereferences a NULL handle or a NULL buffer of nonzero
 * length and crashes; gcipher answers GPG_ERR_INV_ARG (the differential
 * test cannot cover these: the reference would crash).  Every other
 * argument error is compared with libgcrypt in t-api-diff.  */
#include <string.h>

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

/* Partly overlapping buffers give the disjoint-buffer result (the full
 * table is tests/t-overlap.cpp).  The known answer: AES-128-CBC, key
 * and IV zero, BUF[i] = i, decrypt 64 bytes from BUF + 16 into BUF;
 * libgcrypt 1.10 gives the same for this offset.  */
TEST (Robust, PartialOverlapGivesSeparateResult)
{
  unsigned char key[16] = { 0 }, buf[80], ref[64];
  for (int i = 0; i < 80; i++)
    buf[i] = (unsigned char) i;
  gcry_cipher_hd_t h;
  ASSERT_EQ (gcry_cipher_open (&h, GCRY_CIPHER_AES, GCRY_CIPHER_MODE_CBC, 0),
             0u);
  ASSERT_EQ (gcry_cipher_setkey (h, key, 16), 0u);
  ASSERT_EQ (gcry_cipher_setiv (h, key, 16), 0u);
  ASSERT_EQ (gcry_cipher_decrypt (h, ref, 64, buf + 16, 64), 0u);
  ASSERT_EQ (gcry_cipher_setiv (h, key, 16), 0u);
  ASSERT_EQ (gcry_cipher_decrypt (h, buf, 64, buf + 16, 64), 0u);
  EXPECT_EQ (memcmp (buf, ref, 64), 0);
  static const unsigned char head[16] =
    { 0x02, 0x1f, 0xa8, 0x55, 0x30, 0x2a, 0x7f, 0xad,
      0x9b, 0x81, 0xa1, 0x0e, 0x2b, 0x1f, 0x96, 0xf0 };
  EXPECT_EQ (memcmp (buf, head, 16), 0);
  /* The 16 bytes after the output are the input's last block, as
   * they were.  */
  for (int i = 64; i < 80; i++)
    EXPECT_EQ (buf[i], i);
  gcry_cipher_close (h);
}

} // namespace
