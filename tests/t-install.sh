#!/bin/sh
# t-install.sh - the installed gcipher, as a program's build uses it.
#
#  1. `make install-strip prefix=TMP/prefix` (src/ only: everything
#     installed lives there): the private layout is complete, the
#     library has no debug sections or symbol table, and a C program built
#     with `pkg-config --cflags --libs libgcrypt` (PKG_CONFIG_PATH =
#     the private pkgconfig directory) runs on gcipher WITHOUT
#     LD_LIBRARY_PATH (the .pc's run path): gcry_check_version names
#     gcipher, AES-128 ECB gives FIPS-197 appendix C.1's ciphertext, and
#     the library loaded is the installed one (dladdr).
#  2. The installed libgcrypt-config: every option answers for this
#     installation, and its --cflags/--libs build the same program.
#  3. The installed AM_PATH_LIBGCRYPT: a tiny configure.ac through
#     aclocal + autoconf, run with --with-libgcrypt-prefix (found, flags
#     from gcipher's script), with LIBGCRYPT_CONFIG and too new a version
#     or another API number (not found).  Skipped without aclocal.
#  4. `make install DESTDIR=TMP/dest` under the configured prefix: the
#     staged .pc is used with PKG_CONFIG_SYSROOT_DIR=TMP/dest, which
#     prefixes its -I and -L paths with the staging directory.  (Not
#     pkg-config's --define-prefix: it derives the prefix from a .pc
#     in PREFIX/lib/pkgconfig, and ours is one level deeper, in
#     PREFIX/lib/gcipher/pkgconfig.)  The run path stays the real
#     prefix's, as it must for the installed program, so this run needs
#     LD_LIBRARY_PATH; the program is linked with --enable-new-dtags so
#     that LD_LIBRARY_PATH wins over a gcipher already installed there.
#     Then `make uninstall DESTDIR=...` must leave no file behind.
#
# Environment: top_builddir, top_srcdir (set by make check), MAKE, CC_SYSTEM.
# About 5 seconds.  Exit 0 pass, 1 fail, 77 skip (no C compiler or
# pkg-config; cross builds skip through tests/cross/run-test).
set -u
me=t-install
: "${top_builddir:=$(cd "$(dirname "$0")/.." && pwd)}"
CC_PROG=${CC_SYSTEM:-cc}
# A make from `make check` carries the parent's flags (jobserver,
# command-line variables such as prefix=): the installs below must see
# only their own.
MAKE_PROG=${MAKE:-make}
unset MAKEFLAGS MFLAGS MAKELEVEL LD_LIBRARY_PATH LD_PRELOAD

skip () { echo "$me: SKIP: $*"; exit 77; }
fails=0
fail () { echo "$me: FAIL: $*"; fails=$((fails + 1)); }
fatal () { echo "$me: FAIL: $*"; exit 1; }

command -v "$CC_PROG" >/dev/null 2>&1 || skip "no C compiler ($CC_PROG)"
command -v pkg-config >/dev/null 2>&1 || skip "no pkg-config"
[ -f "$top_builddir/src/Makefile" ] || fatal "no $top_builddir/src/Makefile"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-install.XXXXXX") || fatal "mktemp"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

cat >"$tmp/prog.c" <<'EOF'
/* A libgcrypt user: version check, AES-128 ECB known answer (FIPS-197
   appendix C.1), and which file the library came from.  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <gcrypt.h>

int
main (void)
{
  static const unsigned char key[16] = {
    0x00,0x01,0x02,0x03,0x04,0x05,0x06,0x07,
    0x08,0x09,0x0a,0x0b,0x0c,0x0d,0x0e,0x0f };
  static const unsigned char pt[16] = {
    0x00,0x11,0x22,0x33,0x44,0x55,0x66,0x77,
    0x88,0x99,0xaa,0xbb,0xcc,0xdd,0xee,0xff };
  static const unsigned char want[16] = {
    0x69,0xc4,0xe0,0xd8,0x6a,0x7b,0x04,0x30,
    0xd8,0xcd,0xb7,0x80,0x70,0xb4,0xc5,0x5a };
  unsigned char out[16];
  gcry_cipher_hd_t hd;
  Dl_info info;
  const char *v = gcry_check_version (GCRYPT_VERSION);

  if (!v)
    {
      printf ("version check failed: %s\n", gcry_check_version (NULL));
      return 1;
    }
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);
  if (gcry_cipher_open (&hd, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_ECB, 0)
      || gcry_cipher_setkey (hd, key, sizeof key)
      || gcry_cipher_encrypt (hd, out, sizeof out, pt, sizeof pt))
    {
      printf ("AES-128 ECB failed\n");
      return 1;
    }
  gcry_cipher_close (hd);
  if (!dladdr ((void *) gcry_check_version, &info) || !info.dli_fname)
    info.dli_fname = "?";
  printf ("version=%s aes128-ecb=%s lib=%s\n", v,
          memcmp (out, want, 16) ? "WRONG" : "ok", info.dli_fname);
  return 0;
}
EOF

# check_run LABEL PROG LIBFILE [ENV...]: PROG runs on gcipher, from LIBFILE.
check_run () {
  label=$1 prog=$2 lib=$3; shift 3
  out=$(env "$@" "$prog" 2>&1)
  case $out in
    "version="*-gcipher*" aes128-ecb=ok lib=$lib") ;;
    *) fail "$label: expected a gcipher version, the FIPS-197 C.1 answer and lib=$lib; got: $out" ;;
  esac
}

# ---- 1. install-strip under a real prefix, pkg-config ------------------
p=$tmp/prefix
if ! "$MAKE_PROG" -C "$top_builddir/src" install-strip prefix="$p" \
       >"$tmp/install.log" 2>&1; then
  sed 's/^/  /' "$tmp/install.log" | tail -20
  fatal "make install-strip prefix=$p failed"
fi
gl=$p/lib/gcipher
gcl=$gl/cipher-only   # what a program built against gcipher links
for f in "$gcl/libgcrypt.so.20" "$gl/libgcipher-preload.so" \
         "$p/include/gcipher/gcrypt.h" "$gl/pkgconfig/libgcrypt.pc" \
         "$gl/bin/libgcrypt-config" "$p/share/gcipher/aclocal/libgcrypt.m4"; do
  [ -f "$f" ] || fail "not installed: ${f#"$tmp"/}"
done
[ -x "$gl/bin/libgcrypt-config" ] || fail "libgcrypt-config not executable"
# The full substitute (when built): the library, its private link to the
# system libgcrypt (a symbolic link, so not a file installed outside), the
# switch script.
full_note=
if [ -f "$top_builddir/src/full/.libs/libgcrypt.so.20" ]; then
  [ -f "$gl/libgcrypt.so.20" ] || fail "not installed: the full substitute"
  [ -x "$gl/bin/gcipher-system" ] || fail "not installed: bin/gcipher-system"
  [ -L "$gl/system-libgcrypt/libgcrypt-system.so.20" ] &&
    [ -e "$gl/system-libgcrypt/libgcrypt-system.so.20" ] ||
    fail "no working link system-libgcrypt/libgcrypt-system.so.20"
  full_note=", full substitute with its system-libgcrypt link"
fi
# Nothing outside the private directories.
stray=$(cd "$p" && find . -type f | grep -v -e '^\./lib/gcipher/' \
          -e '^\./include/gcipher/' -e '^\./share/gcipher/')
[ -z "$stray" ] || fail "installed outside the private directories: $stray"
for so in "$gcl/libgcrypt.so.20" "$gl/libgcipher-preload.so"; do
  if readelf -S "$so" 2>/dev/null | grep -q -e '\.debug_' -e '\.symtab'; then
    fail "install-strip left debug sections or a symbol table in $(basename "$so")"
  fi
done

want_version=$(sed -n 's/^#define GCRYPT_VERSION "\(.*\)"/\1/p' \
                 "$p/include/gcipher/gcrypt.h")
export PKG_CONFIG_PATH="$gl/pkgconfig"
pc_version=$(pkg-config --modversion libgcrypt)
[ "$pc_version" = "$want_version" ] ||
  fail "pkg-config --modversion: $pc_version, header says $want_version"
pkg-config --atleast-version 1.10 libgcrypt ||
  fail "pkg-config --atleast-version 1.10 libgcrypt fails"
flags=$(pkg-config --cflags --libs libgcrypt) || fail "pkg-config --cflags --libs"
case " $flags " in
  *" -I$p/include/gcipher "*"-L$gcl -Wl,-rpath,$gcl -lgcrypt "*) ;;
  *) fail "pkg-config flags: $flags" ;;
esac
# shellcheck disable=SC2086  # the flags are words
if "$CC_PROG" -o "$tmp/prog-pc" "$tmp/prog.c" $flags >"$tmp/cc.log" 2>&1; then
  check_run "pkg-config build, no LD_LIBRARY_PATH" "$tmp/prog-pc" \
    "$gcl/libgcrypt.so.20"
else
  sed 's/^/  /' "$tmp/cc.log"; fail "cc with pkg-config flags failed"
fi
unset PKG_CONFIG_PATH

# ---- 2. libgcrypt-config ------------------------------------------------
cfg=$gl/bin/libgcrypt-config
expect () {
  got=$("$cfg" "$1" 2>&1) || fail "libgcrypt-config $1 exits non-zero"
  [ "$got" = "$2" ] || fail "libgcrypt-config $1: '$got', expected '$2'"
}
expect --prefix "$p"
expect --exec-prefix "$p"
expect --version "$want_version"
expect --api-version 1
expect --cflags "-I$p/include/gcipher"
expect --libs "-L$gcl -Wl,-rpath,$gcl -lgcrypt"
expect --variable=libdir "$gcl"
expect --variable=api_version 1
expect --variable=no_such_variable ""
host=$("$cfg" --host)
[ -n "$host" ] || fail "libgcrypt-config --host is empty"
"$cfg" --algorithms | grep -q '^Symmetric cipher algorithms: .*\baes\b' ||
  fail "libgcrypt-config --algorithms lacks aes"
[ "$("$cfg" --version --api-version)" = "$want_version
1" ] || fail "libgcrypt-config --version --api-version: not one answer per line"
# libgcrypt's order, whatever the order asked; --variable ends the answers.
[ "$("$cfg" --libs --cflags)" = "-I$p/include/gcipher
-L$gcl -Wl,-rpath,$gcl -lgcrypt" ] || fail "libgcrypt-config --libs --cflags: not in libgcrypt's order"
[ "$("$cfg" --prefix --variable=api_version --version)" = 1 ] ||
  fail "libgcrypt-config --variable=NAME does not end the answers"
"$cfg" --no-such-option >/dev/null 2>&1 && fail "unknown option accepted"
"$cfg" >/dev/null 2>&1 && fail "no option accepted"
# shellcheck disable=SC2046
if "$CC_PROG" -o "$tmp/prog-cfg" "$tmp/prog.c" $("$cfg" --cflags) \
     $("$cfg" --libs) >"$tmp/cc.log" 2>&1; then
  check_run "libgcrypt-config build" "$tmp/prog-cfg" "$gcl/libgcrypt.so.20"
else
  sed 's/^/  /' "$tmp/cc.log"; fail "cc with libgcrypt-config flags failed"
fi

# ---- 3. AM_PATH_LIBGCRYPT ------------------------------------------------
m4note="AM_PATH_LIBGCRYPT skipped (no aclocal/autoconf)"
if command -v aclocal >/dev/null 2>&1 && command -v autoconf >/dev/null 2>&1; then
  ac=$tmp/ac
  mkdir "$ac"
  cat >"$ac/configure.ac" <<'EOF'
AC_INIT([t-install], [1])
AM_PATH_LIBGCRYPT([$WANT], [found=yes], [found=no])
echo "found=$found" > result
echo "cflags=$LIBGCRYPT_CFLAGS" >> result
echo "libs=$LIBGCRYPT_LIBS" >> result
EOF
  # -I first: aclocal takes a macro from the -I directories before the
  # system's /usr/share/aclocal (where libgcrypt20-dev's copy lives).
  if (cd "$ac" && aclocal -I "$p/share/gcipher/aclocal" && autoconf) \
       >"$tmp/ac.log" 2>&1; then
    # aclocal copies (or m4_includes) the macro file it chose.
    grep -q -e "gcipher's own implementation" \
         -e "$p/share/gcipher/aclocal/libgcrypt.m4" "$ac/aclocal.m4" ||
      fail "aclocal did not take the installed gcipher libgcrypt.m4"
    # ac_run VAR=VALUE... ./configure [ARG...]: the result file it wrote.
    ac_run () {
      rm -f "$ac/result"
      (cd "$ac" && env "$@") >"$tmp/ac-run.log" 2>&1
      cat "$ac/result" 2>/dev/null
    }
    r=$(ac_run WANT=1:1.10.0 ./configure --with-libgcrypt-prefix="$gl")
    [ "$r" = "found=yes
cflags=-I$p/include/gcipher
libs=-L$gcl -Wl,-rpath,$gcl -lgcrypt" ] ||
      { fail "AM_PATH_LIBGCRYPT --with-libgcrypt-prefix: $r"; cat "$tmp/ac-run.log"; }
    r=$(ac_run WANT=1.10 LIBGCRYPT_CONFIG="$cfg" ./configure)
    case $r in "found=yes"*) ;; *) fail "AM_PATH_LIBGCRYPT LIBGCRYPT_CONFIG, 1.10: $r" ;; esac
    r=$(ac_run WANT=1.99.0 LIBGCRYPT_CONFIG="$cfg" ./configure)
    [ "$r" = "found=no
cflags=
libs=" ] || fail "AM_PATH_LIBGCRYPT accepted $want_version for 1.99.0: $r"
    r=$(ac_run WANT=2:1.0 LIBGCRYPT_CONFIG="$cfg" ./configure)
    case $r in "found=no"*) ;; *) fail "AM_PATH_LIBGCRYPT accepted API 1 for API 2: $r" ;; esac
    m4note="AM_PATH_LIBGCRYPT found/refused as asked"
  else
    sed 's/^/  /' "$tmp/ac.log"; fail "aclocal/autoconf on the test configure.ac failed"
  fi
fi

# ---- 4. DESTDIR staging, PKG_CONFIG_SYSROOT_DIR, uninstall ---------------
d=$tmp/dest
if ! "$MAKE_PROG" -C "$top_builddir/src" install DESTDIR="$d" \
       >"$tmp/install-d.log" 2>&1; then
  sed 's/^/  /' "$tmp/install-d.log" | tail -20
  fatal "make install DESTDIR=$d failed"
fi
pc=$(find "$d" -path '*/gcipher/pkgconfig/libgcrypt.pc')
if [ -z "$pc" ]; then
  fail "no gcipher/pkgconfig/libgcrypt.pc under DESTDIR"
else
  sgl=$(dirname "$(dirname "$pc")")
  flags=$(PKG_CONFIG_SYSROOT_DIR=$d PKG_CONFIG_PATH=$(dirname "$pc") \
            pkg-config --cflags --libs libgcrypt)
  # shellcheck disable=SC2086
  if "$CC_PROG" -o "$tmp/prog-d" "$tmp/prog.c" -Wl,--enable-new-dtags \
       $flags >"$tmp/cc.log" 2>&1; then
    check_run "DESTDIR build (sysroot)" "$tmp/prog-d" "$sgl/cipher-only/libgcrypt.so.20" \
      LD_LIBRARY_PATH="$sgl/cipher-only"
  else
    sed 's/^/  /' "$tmp/cc.log"; fail "cc with sysroot pkg-config flags ($flags) failed"
  fi
fi
if "$MAKE_PROG" -C "$top_builddir/src" uninstall DESTDIR="$d" \
     >"$tmp/uninstall.log" 2>&1; then
  left=$(find "$d" -type f)
  [ -z "$left" ] || fail "make uninstall left: $left"
else
  sed 's/^/  /' "$tmp/uninstall.log" | tail -20; fail "make uninstall failed"
fi

if [ "$fails" -ne 0 ]; then
  echo "$me: $fails failure(s)"
  exit 1
fi
echo "$me: PASS: install-strip layout (stripped, private dirs only$full_note)," \
     "pkg-config $pc_version build runs without LD_LIBRARY_PATH," \
     "libgcrypt-config, $m4note, DESTDIR + sysroot, uninstall"
exit 0
