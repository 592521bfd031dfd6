#!/bin/sh
# t-substitute.sh - gcipher's libgcrypt.so.20 under an unchanged binary.
#
# Builds a small C program with the system compiler against the SYSTEM
# libgcrypt header and library (-lgcrypt), as any libgcrypt user is
# built.  It uses only calls gcipher provides: version check, control,
# AES-128 CBC and CTR with known answers (FIPS-197 Appendix C.1,
# NIST SP 800-38A F.2.1/F.2.2 and F.5.1/F.5.2), secure memory, random,
# error strings.  The program runs three times:
#   1. as built: the system libgcrypt;
#   2. with LD_LIBRARY_PATH=$top_builddir/src/.libs: gcipher's cipher-only
#      substitute;
#   3. with LD_LIBRARY_PATH=$top_builddir/src/full/.libs: the full
#      substitute (when built), whose memory, random and error calls are
#      the system libgcrypt's;
# and the gcipher runs must really have loaded gcipher (the dynamic
# loader's trace says so, and the cipher-only library's
# gcry_check_version suffix "-gcipher"; the full one returns the system
# libgcrypt's string) and, with GCIPHER_TRACE=1, traced the AES handles
# as opened by gcipher.
#
# Exit 77 (skip) when there is no C compiler, no system gcrypt.h or no
# linkable system libgcrypt.
set -u

: "${top_builddir:=$(cd "$(dirname "$0")/.." && pwd)}"
libdir="$top_builddir/src/.libs"
CC_PROG="${CC_SYSTEM:-cc}"
HDR="${SYSTEM_GCRYPT_H:-/usr/include/gcrypt.h}"

skip () { echo "SKIP: $*"; exit 77; }
fail () { echo "FAIL: $*"; exit 1; }

command -v "$CC_PROG" >/dev/null 2>&1 || skip "no C compiler ($CC_PROG)"
[ -f "$HDR" ] || skip "no system gcrypt.h ($HDR)"
[ -f "$libdir/libgcrypt.so.20" ] || fail "gcipher not built: $libdir/libgcrypt.so.20"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-substitute.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

cat >"$tmp/prog.c" <<'EOF'
/* A libgcrypt user, built against the system header.  */
#include <stdio.h>
#include <string.h>
#include <gcrypt.h>

static int failures;

static void
hex2bin (const char *hex, unsigned char *out, size_t n)
{
  for (size_t i = 0; i < n; i++)
    sscanf (hex + 2 * i, "%2hhx", &out[i]);
}

static void
check (int ok, const char *what)
{
  if (!ok)
    {
      printf ("FAIL %s\n", what);
      failures++;
    }
}

static void
check_err (gcry_error_t err, const char *what)
{
  if (err)
    {
      printf ("FAIL %s: %s\n", what, gcry_strerror (err));
      failures++;
    }
}

/* Encrypt PT under KEY/IV in MODE, compare with CT, decrypt back; the
 * same once in one call and once in two calls (the chaining state must
 * carry over).  */
static void
kat (const char *name, int mode, const char *key_hex, const char *iv_hex,
     const char *pt_hex, const char *ct_hex)
{
  unsigned char key[16], iv[16], pt[64], ct[64], buf[64];
  size_t n = strlen (pt_hex) / 2;
  hex2bin (key_hex, key, 16);
  hex2bin (iv_hex, iv, 16);
  hex2bin (pt_hex, pt, n);
  hex2bin (ct_hex, ct, n);

  for (int split = 0; split < 2; split++)
    {
      gcry_cipher_hd_t hd;
      check_err (gcry_cipher_open (&hd, GCRY_CIPHER_AES128, mode, 0), name);
      if (!hd)
        return;
      check_err (gcry_cipher_setkey (hd, key, 16), name);
      if (mode == GCRY_CIPHER_MODE_CTR)
        check_err (gcry_cipher_setctr (hd, iv, 16), name);
      else
        check_err (gcry_cipher_setiv (hd, iv, 16), name);
      size_t first = split ? 16 : n;
      check_err (gcry_cipher_encrypt (hd, buf, first, pt, first), name);
      if (first < n)
        check_err (gcry_cipher_encrypt (hd, buf + first, n - first,
                                        pt + first, n - first), name);
      check (!memcmp (buf, ct, n), name);

      if (mode == GCRY_CIPHER_MODE_CTR)
        check_err (gcry_cipher_setctr (hd, iv, 16), name);
      else
        check_err (gcry_cipher_setiv (hd, iv, 16), name);
      check_err (gcry_cipher_decrypt (hd, buf, n, NULL, 0), name);  /* in place */
      check (!memcmp (buf, pt, n), name);
      gcry_cipher_close (hd);
    }
}

int
main (void)
{
  const char *v = gcry_check_version (GCRYPT_VERSION);
  if (!v)
    {
      printf ("FAIL check_version(%s)\n", GCRYPT_VERSION);
      return 1;
    }
  printf ("version=%s\n", gcry_check_version (NULL));
  check (gcry_check_version ("99.0.0") == NULL, "check_version refuses 99");
  gcry_control (GCRYCTL_SUSPEND_SECMEM_WARN);
  gcry_control (GCRYCTL_INIT_SECMEM, 16384, 0);
  gcry_control (GCRYCTL_RESUME_SECMEM_WARN);
  check_err (gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0), "init finished");
  check (gcry_control (GCRYCTL_INITIALIZATION_FINISHED_P) != 0, "finished_p");
  check (gcry_err_code (gcry_control ((enum gcry_ctl_cmds) 4242))
         == GPG_ERR_INV_OP, "unknown control");

  /* FIPS-197 Appendix C.1 (AES-128), one block: CBC with a zero IV is
   * the bare cipher.  */
  kat ("fips197-c1", GCRY_CIPHER_MODE_CBC,
       "000102030405060708090a0b0c0d0e0f", "00000000000000000000000000000000",
       "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a");
  /* SP 800-38A F.2.1/F.2.2 CBC-AES128.  */
  kat ("sp800-38a-f2.1", GCRY_CIPHER_MODE_CBC,
       "2b7e151628aed2a6abf7158809cf4f3c", "000102030405060708090a0b0c0d0e0f",
       "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
       "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
       "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
       "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7");
  /* SP 800-38A F.5.1/F.5.2 CTR-AES128.  */
  kat ("sp800-38a-f5.1", GCRY_CIPHER_MODE_CTR,
       "2b7e151628aed2a6abf7158809cf4f3c", "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
       "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
       "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
       "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
       "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee");

  /* An unknown algorithm is refused with the usual code.  */
  gcry_cipher_hd_t hd = NULL;
  gcry_error_t err = gcry_cipher_open (&hd, 9999, GCRY_CIPHER_MODE_CBC, 0);
  check (gcry_err_code (err) == GPG_ERR_CIPHER_ALGO, "open unknown algo");
  check (!strcmp (gcry_strerror (err), "Invalid cipher algorithm"),
         "strerror text");
  check (!strcmp (gcry_strsource (err), "gcrypt"), "strsource text");

  /* Secure memory.  */
  unsigned char *s = gcry_malloc_secure (64);
  check (s && gcry_is_secure (s), "malloc_secure");
  unsigned char *p = gcry_malloc (64);
  check (p && !gcry_is_secure (p), "malloc");

  /* Random.  */
  memset (s, 0, 64);
  gcry_randomize (s, 32, GCRY_STRONG_RANDOM);
  gcry_randomize (s + 32, 32, GCRY_STRONG_RANDOM);
  check (memcmp (s, s + 32, 32) != 0, "randomize");
  gcry_free (s);
  gcry_free (p);

  printf (failures ? "result=FAIL\n" : "result=OK\n");
  return failures ? 1 : 0;
}
EOF

if ! "$CC_PROG" -o "$tmp/prog" "$tmp/prog.c" -lgcrypt >"$tmp/cc.log" 2>&1; then
  cat "$tmp/cc.log"
  skip "cannot build against the system libgcrypt"
fi

# 1. The system libgcrypt.
out1=$(env -u LD_LIBRARY_PATH -u LD_PRELOAD "$tmp/prog" 2>&1); rc1=$?
echo "--- system libgcrypt:"; echo "$out1"
[ $rc1 -eq 0 ] || fail "the program fails on the system libgcrypt itself"
case "$out1" in *gcipher*) fail "system run already reports gcipher";; esac

# 2. and 3.: gcipher substituted.  Check with the loader's own trace that
# libgcrypt.so.20 resolves into our build tree.
runs=1
for libdir in "$libdir" "$top_builddir/src/full/.libs"; do
  [ -f "$libdir/libgcrypt.so.20" ] || continue
  runs=$((runs + 1))
  trace=$(LD_LIBRARY_PATH="$libdir" LD_TRACE_LOADED_OBJECTS=1 "$tmp/prog" 2>&1)
  echo "--- loader trace with LD_LIBRARY_PATH=$libdir:"; echo "$trace"
  echo "$trace" | grep -q "libgcrypt.so.20 => $libdir/libgcrypt.so.20" ||
    fail "the loader does not pick gcipher's libgcrypt.so.20 in $libdir"

  out2=$(LD_LIBRARY_PATH="$libdir" GCIPHER_TRACE=1 "$tmp/prog" 2>&1); rc2=$?
  echo "--- gcipher ($libdir):"; echo "$out2"
  # The cipher-only library names gcipher; the full one passes the
  # system libgcrypt's version string on unchanged.
  case "$libdir:$out2" in
    */full/.libs:*) echo "$out2" | grep -qxF "$(echo "$out1" | grep '^version=')" ||
                      fail "the full substitute's version differs from the system's" ;;
    *"version=1.10."*"-gcipher"*) ;;
    *) fail "the run in $libdir did not report gcipher's version" ;;
  esac
  echo "$out2" | grep -q "^gcipher: open hd=.* algo=AES mode=CBC -> gcipher" ||
    fail "no GCIPHER_TRACE line for the AES-CBC handle ($libdir)"
  [ $rc2 -eq 0 ] || fail "the program fails on gcipher ($libdir)"
done
echo "PASS: same program, same answers on libgcrypt and gcipher ($runs runs)"

# 4. GCIPHER_TRACE=FILE under a program that closes every descriptor
# after its first handle (as a daemon starts) and then opens a file of
# its own, which gets the lowest free number: the trace lines of later
# handles must go to the trace file, never into the program's file.
cat >"$tmp/fdprog.c" <<'EOF'
#include <fcntl.h>
#include <gcrypt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static int
one_handle (void)
{
  gcry_cipher_hd_t h;
  static const unsigned char key[16];
  if (gcry_cipher_open (&h, GCRY_CIPHER_AES, GCRY_CIPHER_MODE_CBC, 0)
      || gcry_cipher_setkey (h, key, sizeof key))
    return 1;
  gcry_cipher_close (h);
  return 0;
}
int
main (int argc, char **argv)
{
  (void) argc;
  gcry_check_version (NULL);
  if (one_handle ())
    return 2;
  for (int fd = 3; fd < 1024; fd++)
    close (fd);
  int own = open (argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (own < 0 || one_handle () || one_handle ())
    return 3;
  static const char data[] = "the program's own data\n";
  if (write (own, data, strlen (data)) != (ssize_t) strlen (data))
    return 4;
  return close (own) ? 5 : 0;
}
EOF
if "$CC_PROG" -o "$tmp/fdprog" "$tmp/fdprog.c" -lgcrypt >"$tmp/cc.log" 2>&1; then
  for libdir in "$libdir" "$top_builddir/src/full/.libs"; do
    [ -f "$libdir/libgcrypt.so.20" ] || continue
    rm -f "$tmp/trace.log" "$tmp/own"
    LD_LIBRARY_PATH="$libdir" GCIPHER_TRACE="$tmp/trace.log" \
      "$tmp/fdprog" "$tmp/own" || fail "fdprog exited $? ($libdir)"
    [ "$(cat "$tmp/own")" = "the program's own data" ] ||
      fail "trace lines went into the program's own file ($libdir): $(cat "$tmp/own")"
    n=$(grep -c "^gcipher: open hd=.* algo=AES mode=CBC -> gcipher" "$tmp/trace.log")
    [ "$n" = 3 ] || fail "$n of 3 AES-CBC open lines in the trace file ($libdir)"
  done
  echo "PASS: GCIPHER_TRACE=FILE survives a program closing and reusing descriptors"
else
  cat "$tmp/cc.log"
  fail "cannot build the descriptor test program"
fi
exit 0
