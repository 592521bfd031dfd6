#!/bin/sh
# t-full-substitute.sh - the full substitute libgcrypt.so.20 (src/full/)
# under unchanged programs, and its switch script.
#
#  1. ABI: every symbol of the system libgcrypt's version node
#     GCRYPT_1.6 resolves through a dlopen handle of gcipher's library
#     (dlvsym, version GCRYPT_1.6); the gcry_cipher_* ones, and
#     gcry_check_version and gcry_control, into gcipher's own file, all
#     others into the system libgcrypt (dladdr).  Prints the counts.
#  2. gpg, unchanged, with LD_LIBRARY_PATH=src/full/.libs (its agent
#     inherits it): gpg --version gives the system libgcrypt's version
#     string unchanged; the loader's bindings
#     (LD_DEBUG=bindings) show gpg's gcry_cipher_open bound to gcipher
#     and its gcry_md_open to the system library under its private name;
#     a symmetric round trip (AES256, 256 KiB, also with
#     GCIPHER_DISABLE_HWF=all) and a public-key one (a new Curve25519, passphrase-protected
#     key: ECDH and EdDSA through gcry_pk_*, AES in gcipher) decrypt
#     what a stock gpg encrypted and the other way round.
#  3. gcipher-system enable/disable in a throw-away root (needs root:
#     chroot): a small program linked with -lgcrypt (md + cipher) runs
#     in the root from the loader's cache alone, with GCIPHER_TRACE=1;
#     after enable the trace shows its AES handle opened by gcipher and
#     it prints the same version, digest and ciphertext, after disable no
#     trace.  Skipped when not root.
#
# Environment: top_builddir, top_srcdir, CC_SYSTEM, GPG.  About 3 seconds.
# Exit 0 pass, 1 fail, 77 skip (no full substitute built).
set -u
me=t-full-substitute
: "${top_builddir:=$(cd "$(dirname "$0")/.." && pwd)}"
top_builddir=$(cd "$top_builddir" && pwd)
full=$top_builddir/src/full/.libs
CC_PROG=${CC_SYSTEM:-cc}
GPG=${GPG:-/usr/bin/gpg}
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
unset LD_LIBRARY_PATH LD_PRELOAD GCIPHER_TRACE GCIPHER_DISABLE_HWF

skip () { echo "$me: SKIP: $*"; exit 77; }
fails=0
fail () { echo "$me: FAIL: $*"; fails=$((fails + 1)); }
fatal () { echo "$me: FAIL: $*"; exit 1; }

[ -f "$full/libgcrypt.so.20" ] || skip "no full substitute (configure --disable-full-substitute or no system libgcrypt)"
sys=$(readlink "$full/system-libgcrypt/libgcrypt-system.so.20") ||
  fatal "no $full/system-libgcrypt/libgcrypt-system.so.20"
command -v "$CC_PROG" >/dev/null 2>&1 || skip "no C compiler ($CC_PROG)"
# A sanitizer build (make check-sanitizers): gpg and the chroot program
# are not instrumented and the sanitizer runtime cannot come first in
# them; the code is the library's, checked by the GoogleTest suites there.
if readelf -d "$full/libgcrypt.so.20" 2>/dev/null | grep -q -e 'libasan' -e 'libtsan' -e 'libubsan'; then
  skip "sanitizer-built library: uninstrumented programs cannot load it"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX") || fatal "mktemp"
cleanup () {
  [ -d "$tmp/gnupg" ] && GNUPGHOME=$tmp/gnupg gpgconf --kill all >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

# ---- 1. Every GCRYPT_1.6 symbol -------------------------------------------
cat >"$tmp/syms.c" <<'EOF2'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
int
main (int argc, char **argv)
{
  void *h = dlopen (argv[1], RTLD_NOW | RTLD_LOCAL);
  char name[256];
  int n = 0, own = 0, other = 0, bad = 0;
  if (!h) { printf ("dlopen: %s\n", dlerror ()); return 2; }
  while (scanf ("%255s", name) == 1)
    {
      Dl_info info;
      void *p = dlvsym (h, name, "GCRYPT_1.6");
      int mine;
      n++;
      if (!p || !dladdr (p, &info))
        { printf ("missing %s\n", name); bad++; continue; }
      mine = !strcmp (info.dli_fname, argv[1]);
      own += mine;
      other += !mine;
      if (mine != (!strncmp (name, "gcry_cipher_", 12)
                   || !strcmp (name, "gcry_check_version")
                   || !strcmp (name, "gcry_control")))
        { printf ("wrong half %s: %s\n", name, info.dli_fname); bad++; }
    }
  printf ("symbols=%d gcipher=%d system=%d bad=%d\n", n, own, other, bad);
  return bad != 0 || n == 0;
}
EOF2
"$CC_PROG" -o "$tmp/syms" "$tmp/syms.c" -ldl >"$tmp/cc.log" 2>&1 ||
  { cat "$tmp/cc.log"; fatal "cannot build the symbol checker"; }
readelf --dyn-syms -W "$sys" |
  awk '$7 != "UND" && $8 ~ /@@?GCRYPT_1\.6$/ { sub (/@.*/, "", $8); print $8 }' |
  grep '^gcry_' >"$tmp/names"
nsys=$(wc -l <"$tmp/names")
nown=$(readelf --dyn-syms -W "$full/libgcrypt.so.20" |
         awk '$7 != "UND" && $8 ~ /^gcry_.*@@GCRYPT_1\.6$/' | wc -l)
out=$("$tmp/syms" "$full/libgcrypt.so.20" <"$tmp/names") ||
  fail "symbol resolution: $out"
echo "$me: system libgcrypt exports $nsys gcry_* symbols; gcipher's file defines $nown; $out"

# ---- 2. gpg --------------------------------------------------------------
gpgnote="gpg skipped (no $GPG)"
if [ -x "$GPG" ]; then
  export GNUPGHOME=$tmp/gnupg
  mkdir -m 700 "$GNUPGHOME"
  # A low S2K count and no compression: the time goes to the ciphers.
  G="$GPG --batch --yes --quiet --pinentry-mode loopback --passphrase pw
     --no-symkey-cache --compress-algo none --s2k-count 65536"
  on () { LD_LIBRARY_PATH=$full "$@"; }
  v=$(on $GPG --version 2>&1 | sed -n 's/^libgcrypt \(.*\)/\1/p')
  # The real library's version, unchanged (exact-match programs).
  vs=$($GPG --version 2>&1 | sed -n 's/^libgcrypt \(.*\)/\1/p')
  [ -n "$v" ] && [ "$v" = "$vs" ] ||
    fail "gpg --version on gcipher says libgcrypt '$v', stock '$vs'"
  b=$(LD_DEBUG=bindings on $GPG --version 2>&1 >/dev/null)
  echo "$b" | grep -q "binding file $GPG .* to $full/libgcrypt.so.20 .*\`gcry_cipher_open' \[GCRYPT_1.6\]" ||
    fail "gpg's gcry_cipher_open not bound to gcipher"
  echo "$b" | grep -q "binding file $GPG .* to .*libgcrypt-system.so.20 .*\`gcry_md_open' \[GCRYPT_1.6\]" ||
    fail "gpg's gcry_md_open not bound to the private system libgcrypt"
  head -c 262144 /dev/urandom >"$tmp/data"
  # Symmetric: gcipher encrypts, stock decrypts, and back.
  paths=
  for hwf in "" all; do
    rm -f "$tmp/s.gpg" "$tmp/s.out"
    rm -f "$tmp/s.trace"
    GCIPHER_TRACE=$tmp/s.trace GCIPHER_DISABLE_HWF=$hwf on $G --symmetric \
      --cipher-algo AES256 -o "$tmp/s.gpg" "$tmp/data" &&
      $G -o "$tmp/s.out" -d "$tmp/s.gpg" 2>/dev/null &&
      cmp -s "$tmp/data" "$tmp/s.out" ||
      fail "symmetric AES256, gcipher -> stock (hwf off: '$hwf')"
    grep -q 'algo=AES256 mode=CFB -> gcipher' "$tmp/s.trace" 2>/dev/null ||
      fail "GCIPHER_TRACE: no AES256 CFB handle opened by gcipher (hwf off: '$hwf')"
    if [ "$hwf" = all ]; then
      grep -q 'path=generic$' "$tmp/s.trace" ||
        fail "GCIPHER_DISABLE_HWF=all: the key was not set on the generic path"
    fi
    paths="$paths $(sed -n 's/.*setkey hd=[^ ]* path=//p' "$tmp/s.trace" | sort -u | tr '\n' ' ')"
    rm -f "$tmp/s.out"
    $G --symmetric --cipher-algo AES256 -o "$tmp/s2.gpg" "$tmp/data" &&
      GCIPHER_DISABLE_HWF=$hwf on $G -o "$tmp/s.out" -d "$tmp/s2.gpg" 2>/dev/null &&
      cmp -s "$tmp/data" "$tmp/s.out" ||
      fail "symmetric AES256, stock -> gcipher (hwf off: '$hwf')"
  done
  # Public key: generated on gcipher (the agent inherits the library:
  # the first gpg above started it on gcipher). With a passphrase, so
  # the agent protects the key with AES-OCB on a GCRY_CIPHER_SECURE
  # handle, which the full substitute takes from the real libgcrypt's
  # secure pool, 8-byte aligned (it once faulted there).
  on $G --quick-gen-key 'gcipher test <t@example.org>' \
       future-default default never >/dev/null 2>&1 ||
    fail "gpg --quick-gen-key on gcipher"
  rm -f "$tmp/p.gpg" "$tmp/p.out"
  on $G --trust-model always -r t@example.org --sign -e -o "$tmp/p.gpg" "$tmp/data" &&
    $G -o "$tmp/p.out" -d "$tmp/p.gpg" 2>/dev/null && cmp -s "$tmp/data" "$tmp/p.out" ||
    fail "public key, gcipher signs and encrypts -> stock"
  rm -f "$tmp/p.gpg" "$tmp/p.out"
  $G --trust-model always -r t@example.org --sign -e -o "$tmp/p.gpg" "$tmp/data" &&
    on $G -o "$tmp/p.out" -d "$tmp/p.gpg" 2>/dev/null && cmp -s "$tmp/data" "$tmp/p.out" ||
    fail "public key, stock -> gcipher decrypts and verifies"
  # shellcheck disable=SC2086  # one word per path
  gpgnote="gpg ($v) symmetric (trace paths: $(printf '%s\n' $paths | sort -u | tr '\n' ' ' | sed 's/ $//')) and public-key round trips"
fi

# ---- 3. gcipher-system in a throw-away root --------------------------------
rootnote="gcipher-system skipped (not root)"
if [ "$(id -u)" = 0 ] && command -v chroot >/dev/null 2>&1 &&
   [ -f "$top_srcdir/src/gcipher-system.in" ]; then
  r=$tmp/root
  ml=/usr/lib/gcipher-test
  mkdir -p "$r/etc/ld.so.conf.d" "$r$ml" "$r/bin"
  echo 'include /etc/ld.so.conf.d/*.conf' >"$r/etc/ld.so.conf"
  echo "$ml" >"$r/etc/ld.so.conf.d/system.conf"
  cat >"$tmp/prog.c" <<'EOF2'
#include <stdio.h>
#include <gcrypt.h>
int
main (void)
{
  unsigned char d[32], k[16] = { 1 }, b[16] = { 2 };
  gcry_cipher_hd_t h;
  const char *v = gcry_check_version (NULL);
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);
  gcry_md_hash_buffer (GCRY_MD_SHA256, d, "abc", 3);
  if (gcry_cipher_open (&h, GCRY_CIPHER_AES, GCRY_CIPHER_MODE_ECB, 0)
      || gcry_cipher_setkey (h, k, 16) || gcry_cipher_encrypt (h, b, 16, NULL, 0))
    return 1;
  gcry_cipher_close (h);
  printf ("%s %02x%02x %02x%02x\n", v, d[0], d[31], b[0], b[15]);
  fflush (stdout);
  return 0;
}
EOF2
  if "$CC_PROG" -o "$r/bin/prog" "$tmp/prog.c" -lgcrypt >"$tmp/cc.log" 2>&1; then
    # The program's libraries, each where the root's cache will find it;
    # the loader at its own path.
    for lib in $({ ldd "$r/bin/prog"; LD_LIBRARY_PATH=$full ldd "$full/libgcrypt.so.20"; } |
                 awk '$3 ~ /^\// { print $3 }' | sort -u); do
      case $lib in */libgcrypt.so.20|*/libgcrypt-system.so.20)
                     cp -L "$sys" "$r$ml/libgcrypt.so.20" ;;
                   *) cp -L "$lib" "$r$ml/" ;; esac
    done
    interp=$(readelf -l "$r/bin/prog" | sed -n 's/.*interpreter: \(.*\)]/\1/p')
    mkdir -p "$r$(dirname "$interp")" && cp -L "$interp" "$r$interp"
    # gcipher laid out in the root as make install does (copied from the
    # build tree: a make install here could race with t-install.sh's
    # under make -j check), its private link to the root's libgcrypt.
    gd=$r$ml/gcipher
    mkdir -p "$gd/system-libgcrypt" "$gd/bin"
    if cp -P "$full"/libgcrypt.so.20* "$gd/" &&
       ln -s "$ml/libgcrypt.so.20" "$gd/system-libgcrypt/libgcrypt-system.so.20" &&
       sed "s|@gcipherlibdir@|$ml/gcipher|g" "$top_srcdir/src/gcipher-system.in" \
         >"$gd/bin/gcipher-system" && chmod +x "$gd/bin/gcipher-system"; then
      sw=$r$ml/gcipher/bin/gcipher-system
      ldconfig -r "$r" || fail "ldconfig -r"
      export GCIPHER_TRACE=1   # stderr: the handle opened by gcipher
      before=$(chroot "$r" /bin/prog 2>&1)
      "$sw" --root "$r" enable >"$tmp/sw.log" 2>&1 || { cat "$tmp/sw.log"; fail "gcipher-system enable"; }
      during=$(chroot "$r" /bin/prog 2>&1)
      "$sw" --root "$r" status | grep -q "enabled" || fail "status after enable"
      "$sw" --root "$r" disable >"$tmp/sw.log" 2>&1 || { cat "$tmp/sw.log"; fail "gcipher-system disable"; }
      after=$(chroot "$r" /bin/prog 2>&1)
      unset GCIPHER_TRACE
      echo "$me: in the root: before '$before', enabled '$during', disabled '$after'"
      case $before in *"gcipher: open"*|"") fail "before enable: '$before'" ;; esac
      case $during in *"gcipher: open"*"-> gcipher"*) ;; *) fail "after enable: '$during'" ;; esac
      [ "$after" = "$before" ] || fail "after disable: '$after' (was '$before')"
      [ "$(echo "$during" | grep -v '^gcipher:')" = "$before" ] ||
        fail "version, digest or ciphertext differ on gcipher: '$during'"
      [ ! -e "$r/etc/ld.so.conf.d/00-gcipher.conf" ] || fail "disable left the conf file"
      rootnote="gcipher-system enable/disable in a chroot"
    else
      fail "laying out gcipher in the throw-away root"
    fi
  else
    rootnote="gcipher-system skipped (cannot build against the system libgcrypt)"
  fi
fi

[ "$fails" -eq 0 ] || { echo "$me: $fails failure(s)"; exit 1; }
echo "$me: PASS: $out; $gpgnote; $rootnote"
exit 0
