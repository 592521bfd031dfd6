#!/bin/sh
# check-package.sh - the Debian package, built, checked and used (make
# check-package; run by CI with .ci/run).
#
# Steps, each printing one "package: PASS|FAIL STEP ..." line:
#   build     DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b on a
#             pristine copy of the source (tests/copy-srctree) in
#             $top_builddir/package-check/ (the .deb lands there too);
#             nocheck because CI has run the test suite already;
#   lintian   lintian on the .deb; an error fails (package-check/lintian.log
#             keeps every tag);
#   layout    the .deb's files are all in gcipher's private directories
#             (/usr/lib/MULTIARCH/gcipher, /usr/include/gcipher,
#             /usr/share/gcipher, /usr/share/doc/gcipher, and the man pages
#             gcipher(7), gcipher-libgcrypt-config(1)), the expected
#             ones are there, and no maintainer script diverts anything;
#   pkgconfig a C program built with the unpacked .pc (PKG_CONFIG_SYSROOT_DIR
#             = the throw-away root) runs on the unpacked gcipher;
#   gpg       gpg --symmetric --cipher-algo AES256 with the unpacked
#             interposer preloaded (GCIPHER_TRACE=1), decrypted preloaded
#             and by a stock gpg, equal to the input; the trace must show
#             the AES256 handles opened and keyed by gcipher;
#   full substitute  gpg with LD_LIBRARY_PATH on the unpacked full
#             libgcrypt.so.20: encrypts (trace: AES256 -> gcipher), a
#             stock gpg decrypts.
# The package is unpacked with dpkg -x into a throw-away root under
# package-check/, never installed on this machine.
# Environment: top_srcdir, top_builddir (set by make);
# GCIPHER_PACKAGE_REUSE=1 skips the build when a .deb is there already.
# About 4.5 minutes on 2 idle cores (7.5 with other builds running), nearly
# all of it the package build (the steps after it: 4 seconds).
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
work=$top_builddir/package-check
passed=0 failed=0
start=$(date +%s)
pass () { echo "package: PASS $*"; passed=$((passed + 1)); }
fail () { echo "package: FAIL $*"; failed=$((failed + 1)); }
finish () {
  echo "check-package: $passed passed, $failed failed in $(( $(date +%s) - start )) s" \
       "(logs in $work)"
  [ "$failed" = 0 ]
  exit
}

for tool in dpkg-buildpackage dpkg-architecture dh lintian gpg; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    fail "build: $tool not found (run .ci/install-deps)"
    finish
  fi
done
# Never inherit a preload or gcipher settings from the caller.
unset LD_PRELOAD LD_LIBRARY_PATH GCIPHER_STRICT GCIPHER_TRACE GCIPHER_FORWARD

mkdir -p "$work" || exit 1
version=$(cd "$top_srcdir" && dpkg-parsechangelog -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
src=$work/gcipher-$version
deb=$work/gcipher_${version}_$arch.deb

# ---- build ---------------------------------------------------------------
t0=$(date +%s)
if [ "${GCIPHER_PACKAGE_REUSE:-}" = 1 ] && [ -f "$deb" ]; then
  # For working on the later steps: keep the .deb of the previous run.
  pass "build $(basename "$deb") (reused: GCIPHER_PACKAGE_REUSE=1)"
else
  rm -f "$work"/*.deb "$work"/*.ddeb "$work"/*.buildinfo "$work"/*.changes
  if ! sh "$top_srcdir/tests/copy-srctree" "$top_srcdir" "$src" \
       >"$work/copy.log" 2>&1; then
    fail "build: copying the source tree (copy.log)"
    finish
  fi
  if (cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
        dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1 && [ -f "$deb" ]; then
    pass "build $(basename "$deb") ($(( $(date +%s) - t0 )) s," \
         "$(du -k "$deb" | cut -f1) KiB)"
  else
    tail -30 "$work/build.log" | sed 's/^/  /'
    fail "build: dpkg-buildpackage failed (package-check/build.log)"
    finish
  fi
fi

# ---- lintian -------------------------------------------------------------
lintian --fail-on error "$deb" >"$work/lintian.log" 2>&1
lrc=$?
ne=$(grep -c '^E: ' "$work/lintian.log") nw=$(grep -c '^W: ' "$work/lintian.log")
ni=$(grep -c '^I: ' "$work/lintian.log")
tags=$(sed -n 's/^[EW]: [^ ]*: \([^ ]*\).*/\1/p' "$work/lintian.log" | sort -u | tr '\n' ' ')
if [ "$lrc" = 0 ] && [ "$ne" = 0 ]; then
  pass "lintian ($ne errors, $nw warnings, $ni info${tags:+: $tags})"
else
  sed 's/^/  /' "$work/lintian.log"
  fail "lintian ($ne errors, $nw warnings, exit $lrc)"
fi

# ---- layout --------------------------------------------------------------
root=$work/root
rm -rf "$root" "$work/control"
dpkg-deb -c "$deb" >"$work/contents.txt"
if ! { dpkg -x "$deb" "$root" && dpkg-deb -e "$deb" "$work/control"; }; then
  fail "layout: dpkg -x / dpkg-deb -e failed"; finish
fi
gl=/usr/lib/$multiarch/gcipher
bad=$(cd "$root" && find . ! -type d | sed 's|^\.||' | grep -v \
        -e "^$gl/" -e '^/usr/include/gcipher/' -e '^/usr/share/gcipher/' \
        -e '^/usr/share/doc/gcipher/' -e '^/usr/share/man/man7/gcipher\.7\.gz$' \
        -e '^/usr/share/man/man1/gcipher-libgcrypt-config\.1\.gz$')
missing=
for f in "$gl/libgcrypt.so.20" "$gl/libgcipher-preload.so" \
         "$gl/cipher-only/libgcrypt.so.20" "$gl/bin/gcipher-system" \
         /usr/include/gcipher/gcrypt.h "$gl/pkgconfig/libgcrypt.pc" \
         "$gl/bin/libgcrypt-config" /usr/share/gcipher/aclocal/libgcrypt.m4 \
         /usr/share/doc/gcipher/copyright /usr/share/doc/gcipher/gcipher.md.gz \
         /usr/share/man/man7/gcipher.7.gz \
         /usr/share/man/man1/gcipher-libgcrypt-config.1.gz; do
  [ -e "$root$f" ] || missing="$missing $f"
done
diverts=$(grep -l -e dpkg-divert -e update-alternatives "$work/control"/* 2>/dev/null)
if [ -z "$bad$missing$diverts" ]; then
  pass "layout ($(grep -vc '/$' "$work/contents.txt") files, all under $gl," \
       "/usr/include/gcipher, /usr/share/gcipher, /usr/share/doc/gcipher," \
       "gcipher's two man pages; no diversions)"
else
  fail "layout:${bad:+ outside the private directories: $bad}${missing:+ missing:$missing}${diverts:+ diverting scripts: $diverts}"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gcipher-pkg.XXXXXX") || exit 1
h=$tmp/gnupg
# shellcheck disable=SC2317  # called from the EXIT trap
cleanup () {
  gpgconf --homedir "$h" --kill all >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

# ---- pkgconfig -----------------------------------------------------------
# The unpacked .pc names /usr/...; PKG_CONFIG_SYSROOT_DIR moves its -I and
# -L into the root (the cipher-only library: gcipher's header declares the
# cipher API and the core calls only).  The run path stays /usr/lib/.../gcipher (not
# installed here), so the program runs with LD_LIBRARY_PATH, linked with
# --enable-new-dtags so that it wins over the run path.
cat >"$tmp/prog.c" <<'EOF'
#include <stdio.h>
#include <gcrypt.h>
int main (void) { puts (gcry_check_version (NULL)); return 0; }
EOF
flags=$(PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_PATH=$root$gl/pkgconfig \
          pkg-config --cflags --libs libgcrypt 2>&1)
# shellcheck disable=SC2086
if cc -o "$tmp/prog" "$tmp/prog.c" -Wl,--enable-new-dtags $flags \
     >"$work/cc.log" 2>&1 &&
   out=$(LD_LIBRARY_PATH=$root$gl/cipher-only "$tmp/prog") &&
   case $out in *-gcipher*) true ;; *) false ;; esac; then
  pass "pkgconfig (cc \$(pkg-config --cflags --libs libgcrypt) -> $out)"
else
  fail "pkgconfig: flags [$flags], program said [${out:-}] (package-check/cc.log)"
fi

# ---- gpg through the unpacked interposer ---------------------------------
# The agent is started first without the preload (as tests/t-preload-gpg.sh
# does) and gpg runs with --no-autostart: only gpg's own cipher calls go
# through gcipher.
preload=$root$gl/libgcipher-preload.so
mkdir -m 700 "$h"
head -c 100000 /dev/urandom >"$tmp/plain"
gpg_opts="--batch --yes --quiet --homedir $h --no-autostart --no-symkey-cache
  --pinentry-mode loopback --passphrase secret --compress-algo none"
gpgconf --homedir "$h" --launch gpg-agent >/dev/null 2>&1
# shellcheck disable=SC2086
if ! LD_PRELOAD=$preload GCIPHER_TRACE=1 gpg $gpg_opts --symmetric \
       --cipher-algo AES256 -o "$tmp/enc.gpg" "$tmp/plain" 2>"$tmp/enc.trace"; then
  sed 's/^/  /' "$tmp/enc.trace"; fail "gpg: preloaded --symmetric failed"
elif ! LD_PRELOAD=$preload GCIPHER_TRACE=1 gpg $gpg_opts --decrypt \
       -o "$tmp/dec" "$tmp/enc.gpg" 2>"$tmp/dec.trace"; then
  sed 's/^/  /' "$tmp/dec.trace"; fail "gpg: preloaded --decrypt failed"
elif ! gpg $gpg_opts --decrypt -o "$tmp/dec-stock" "$tmp/enc.gpg" 2>"$tmp/stock.err"; then
  sed 's/^/  /' "$tmp/stock.err"; fail "gpg: stock gpg cannot decrypt the preloaded output"
elif ! cmp -s "$tmp/plain" "$tmp/dec" || ! cmp -s "$tmp/plain" "$tmp/dec-stock"; then
  fail "gpg: decrypted data differ from the input"
else
  bad='' paths=''
  for t in enc dec; do
    grep -q 'open hd=.* algo=AES256 mode=CFB -> gcipher' "$tmp/$t.trace" ||
      bad="$bad $t:no-gcipher-open"
    grep -q -e '-> forwarded' -e '-> rejected' -e 'path=forwarded' \
         -e 'path=none' "$tmp/$t.trace" && bad="$bad $t:forwarded"
    paths="$paths $(sed -n 's/^gcipher: setkey hd=[^ ]* path=\([^ ]*\)$/\1/p' \
                    "$tmp/$t.trace" | sort -u | tr '\n' ' ')"
  done
  if [ -z "$bad" ]; then
    # shellcheck disable=SC2086  # $paths: one word per path
    pass "gpg (AES256 100000 B: preloaded encrypt, preloaded and stock decrypt" \
         "equal; trace: AES256 CFB -> gcipher, paths: $(printf '%s\n' $paths |
           sort -u | tr '\n' ' ' | sed 's/ $//'))"
  else
    cat "$tmp/enc.trace" "$tmp/dec.trace" | sed 's/^/  /'
    fail "gpg: trace$bad"
  fi
fi

# ---- gpg on the unpacked full substitute ---------------------------------
# Its private link (system-libgcrypt/libgcrypt-system.so.20) is relative,
# ../../libgcrypt.so.20: the root gets the system libgcrypt there, as the
# package's libgcrypt20 dependency provides it on a real system.  gpg
# runs on the full substitute (the agent started above stays stock).
link=$root$gl/system-libgcrypt/libgcrypt-system.so.20
sys=$(readlink -f /usr/lib/$multiarch/libgcrypt.so.20)
if [ -L "$link" ] && ln -sf "$sys" "$root/usr/lib/$multiarch/libgcrypt.so.20" &&
   [ -e "$link" ]; then
  v=$(LD_LIBRARY_PATH=$root$gl gpg --homedir "$h" --version 2>&1 |
        sed -n 's/^libgcrypt //p')
  # shellcheck disable=SC2086
  if LD_LIBRARY_PATH=$root$gl GCIPHER_TRACE=1 gpg $gpg_opts \
       --symmetric --cipher-algo AES256 -o "$tmp/full.gpg" "$tmp/plain" \
       2>"$tmp/full.trace" &&
     gpg $gpg_opts --decrypt -o "$tmp/full-dec" "$tmp/full.gpg" 2>/dev/null &&
     cmp -s "$tmp/plain" "$tmp/full-dec" &&
     grep -q 'algo=AES256 mode=CFB -> gcipher' "$tmp/full.trace" &&
     [ -n "$v" ]; then
    pass "full substitute (gpg reports libgcrypt $v; AES256 CFB -> gcipher," \
         "stock gpg decrypts)"
  else
    sed 's/^/  /' "$tmp/full.trace"
    fail "full substitute: gpg (libgcrypt '$v') round trip or trace"
  fi
else
  fail "full substitute: no private link $gl/system-libgcrypt/libgcrypt-system.so.20"
fi
finish
