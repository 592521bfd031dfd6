#!/bin/sh
# build-deps.sh - build gcipher's test dependencies for a cross target
# into a private prefix, from Debian's own sources:
#   libgpg-error  `apt-get source libgpg-error` (Debian's source package,
#                 its patches applied by dpkg-source), static + PIC, so
#                 neither the test binaries nor the library need a
#                 run-time path into the prefix;
#   GoogleTest    the googletest package's /usr/src/googletest (the same
#                 version the native build uses): gtest-all.cc and
#                 gtest_main.cc into libgtest.a / libgtest_main.a, with
#                 gtest.pc / gtest_main.pc written here.
# configure finds both through PKG_CONFIG_LIBDIR=PREFIX/lib/pkgconfig.
#
# Usage: build-deps.sh ARCH PREFIX WORKDIR
#   ARCH     i686 or riscv64 (tests/cross/targets.sh)
#   PREFIX   install prefix (e.g. BUILDDIR/cross/riscv64/prefix)
#   WORKDIR  scratch space; WORKDIR/../deps-src caches the downloaded
#            source package for all targets
# Idempotent: PREFIX/.gcipher-deps records what was built (versions,
# compiler, this script's checksum); nothing is rebuilt when it matches.
# Needs the deb-src entry .ci/install-cross-deps adds.  About a minute
# per target on 2 cores.
set -eu
me=build-deps
here=$(cd "$(dirname "$0")" && pwd)
. "$here/targets.sh"

[ $# = 3 ] || { echo "usage: $0 ARCH PREFIX WORKDIR" >&2; exit 2; }
arch=$1; prefix=$2; work=$3
cross_target "$arch" || { echo "$me: unknown target $arch" >&2; exit 2; }
mkdir -p "$prefix" "$work"
prefix=$(cd "$prefix" && pwd); work=$(cd "$work" && pwd)
srccache=$(dirname "$work")/deps-src
mkdir -p "$srccache"

gtest_src=/usr/src/googletest/googletest
[ -f "$gtest_src/src/gtest-all.cc" ] ||
  { echo "$me: $gtest_src missing (install the googletest package)" >&2; exit 1; }
gtest_version=$(dpkg-query -W -f='${Version}' googletest 2>/dev/null || echo unknown)
gtest_version_pc=$(printf '%s' "$gtest_version" | sed 's/^[0-9]*://; s/-.*//')

# The libgpg-error source package: the candidate version of the binary
# package the native build uses, from the deb-src entry.
(
  cd "$srccache"
  if ! ls libgpg-error_*.dsc >/dev/null 2>&1; then
    echo "$me: apt-get source libgpg-error"
    apt-get source -q --download-only libgpg-error >apt-source.log 2>&1 || {
      cat apt-source.log >&2
      echo "$me: apt-get source failed: run .ci/install-cross-deps (adds deb-src)" >&2
      exit 1
    }
  fi
)
dsc=$(ls "$srccache"/libgpg-error_*.dsc | tail -1)
gpgerr_version=$(sed -n 's/^Version: //p' "$dsc")

cc_version=$($cross_cc --version | head -1)
stamp="libgpg-error $gpgerr_version; googletest $gtest_version; $cross_host; $cc_version; $(cksum < "$0")"
if [ -f "$prefix/.gcipher-deps" ] && [ "$(cat "$prefix/.gcipher-deps")" = "$stamp" ]; then
  echo "$me: $arch: up to date ($prefix)"
  exit 0
fi

echo "$me: $arch: building libgpg-error $gpgerr_version and GoogleTest $gtest_version_pc into $prefix"
rm -rf "$work/libgpg-error" "$work/gtest" "$prefix"
mkdir -p "$work/gtest" "$prefix/lib/pkgconfig" "$prefix/include"

# libgpg-error: Debian source, Debian patches (dpkg-source -x applies them).
dpkg-source -q -x "$dsc" "$work/libgpg-error" >"$work/dpkg-source.log" 2>&1 ||
  { cat "$work/dpkg-source.log" >&2; exit 1; }
(
  cd "$work/libgpg-error"
  ./configure -q --host="$cross_host" --prefix="$prefix" \
    CC="$cross_cc" LDFLAGS="$cross_ldflags" CFLAGS="-O2" \
    --enable-static --disable-shared --with-pic \
    --disable-doc --disable-tests --disable-languages --disable-nls \
    >"$work/gpgerr-configure.log" 2>&1 ||
    { tail -40 "$work/gpgerr-configure.log" config.log >&2; exit 1; }
  { make -j2 && make install; } >"$work/gpgerr-make.log" 2>&1 ||
    { tail -40 "$work/gpgerr-make.log" >&2; exit 1; }
)
# No .la: libtool would otherwise pull the static archive in by name and
# warn about it; -lgpg-error finds libgpg-error.a all the same.
rm -f "$prefix"/lib/*.la

# GoogleTest: two translation units, as its own build does.
(
  cd "$work/gtest"
  for f in gtest-all gtest_main; do
    $cross_cxx -std=c++17 -O2 -pthread -I"$gtest_src/include" -I"$gtest_src" \
      -c "$gtest_src/src/$f.cc" -o "$f.o"
  done
  "$cross_host-ar" rcs "$prefix/lib/libgtest.a" gtest-all.o
  "$cross_host-ar" rcs "$prefix/lib/libgtest_main.a" gtest_main.o
)
cp -R "$gtest_src/include/gtest" "$prefix/include/"
cat >"$prefix/lib/pkgconfig/gtest.pc" <<EOF
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: gtest
Description: GoogleTest (built by gcipher's tests/cross/build-deps.sh for $cross_host)
Version: $gtest_version_pc
Libs: -L\${libdir} -lgtest -pthread
Cflags: -I\${includedir}
EOF
cat >"$prefix/lib/pkgconfig/gtest_main.pc" <<EOF
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: gtest_main
Description: GoogleTest main() (built by gcipher's tests/cross/build-deps.sh for $cross_host)
Version: $gtest_version_pc
Requires: gtest = $gtest_version_pc
Libs: -L\${libdir} -lgtest_main -pthread
Cflags: -I\${includedir}
EOF

printf '%s\n' "$stamp" >"$prefix/.gcipher-deps"
echo "$me: $arch: done"
