#!/bin/sh
# check-cross.sh - build gcipher for the cross targets and run its whole
# test suite there (`make check-cross` runs this from the build tree).
#
#   i686     Debian's i686-linux-gnu GCC; the 32-bit test binaries run
#            directly on the amd64 kernel (biarch libc6-i386/lib32stdc++6).
#   riscv64  clang-19 --target=riscv64-linux-gnu with lld-19 and Debian's
#            riscv64 cross libraries; the suite runs under qemu-riscv64
#            (QEMU 10) once per CPU of tests/cross/targets.sh: no vector
#            unit, V at VLEN 128, V + Zvkned/Zvkg/Zvkb/Zvbc at VLEN 128,
#            256 and 1024.
#   aarch64  clang-19 --target=aarch64-linux-gnu with lld-19 and Debian's
#            arm64 cross libraries; the suite runs under qemu-aarch64
#            on -cpu max (NEON, AES, PMULL, SHA, ...) and on a Cortex-A53
#            with the crypto extensions disabled (generic AES and GHASH;
#            see targets.sh for why it is not a QEMU CPU model).
#
# Everything lives under BUILDDIR/cross (GCIPHER_CROSS_DIR overrides):
#   src/               a pristine copy of the source tree (the tracked and
#                      new files plus the generated autotools files), so an
#                      in-tree configured checkout still builds VPATH
#   deps/              libgpg-error + GoogleTest builds (build-deps.sh)
#   ARCH/prefix/       those dependencies, found by configure through
#                      PKG_CONFIG_LIBDIR
#   ARCH/build/        the VPATH build (../../src/configure --host=...)
#   ARCH/logs/CPU/     each run's test logs (CPU: native, novec, v128, ...)
#   results.tsv        one line per target and CPU: arch, cpu, passed,
#                      failed, skipped, status (read by .ci/run)
# Steps are cached: packages are installed (.ci/install-cross-deps) only
# when a tool is missing, the dependencies rebuilt only when their
# versions or compiler change, configure re-run only when its arguments
# change, make rebuilds what changed.
#
# Environment:
#   GCIPHER_CROSS_TARGETS     targets to run (default "i686 riscv64
#                             aarch64"; the script's arguments override)
#   GCIPHER_CROSS_RISCV_CPUS  QEMU -cpu values separated by newlines or
#                             blanks (a value has no blank in it)
#   GCIPHER_CROSS_ARM64_CPUS  likewise for aarch64 (targets.sh's syntax:
#                             CPU, CPU/hwf-off=NAME+NAME, .../tests=T+T)
#   GCIPHER_CROSS_JOBS        make -j (default 2)
# Prints one summary line per target and CPU (test counts, detected
# hardware features, the cipher paths the tests ran) and exits non-zero
# when anything failed.  Full run from scratch: see README.md.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/targets.sh"
: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
: "${top_builddir:=$(pwd)}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
cross=${GCIPHER_CROSS_DIR:-$top_builddir/cross}
jobs=${GCIPHER_CROSS_JOBS:-2}
targets=${*:-${GCIPHER_CROSS_TARGETS:-$cross_targets_default}}
me=check-cross

mkdir -p "$cross" || exit 1
cross=$(cd "$cross" && pwd)
t_start=$(date +%s)
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }
say() { echo "$me: $*"; }

results=$cross/results.tsv
: >"$results"
overall=0

# --- 1. Packages -------------------------------------------------------
need_install=no
for arch in $targets; do
  cross_target "$arch" || { say "unknown target $arch"; exit 2; }
  for t in $cross_tools; do
    command -v "$t" >/dev/null 2>&1 || need_install=yes
  done
  if [ -n "$cross_qemu" ]; then
    # QEMU 10 (bookworm-backports), for the vector crypto extensions.
    v=$("$cross_qemu" -version 2>/dev/null |
        sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -1)
    [ "${v:-0}" -ge 10 ] || need_install=yes
    # binfmt_misc entry, for tests that re-execute themselves.
    grep -qs "interpreter .*$cross_binfmt" /proc/sys/fs/binfmt_misc/* ||
      need_install=yes
  fi
done
[ -f /usr/src/googletest/googletest/src/gtest-all.cc ] || need_install=yes
apt-cache showsrc libgpg-error >/dev/null 2>&1 || need_install=yes
if [ "$need_install" = yes ]; then
  say "installing the cross tools (.ci/install-cross-deps)"
  if [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; then
    "$top_srcdir/.ci/install-cross-deps" || { say "package installation failed"; exit 1; }
  else
    say "cross tools missing: run $top_srcdir/.ci/install-cross-deps as root"
    exit 1
  fi
fi

# --- 2. A pristine source tree -----------------------------------------
# A source directory configured in-tree refuses VPATH builds, so the
# cross builds configure a copy.  With git: the tracked and the new
# (not ignored) files, minus any build directory inside the checkout,
# plus the generated files (configure, Makefile.in, ...).  Without git:
# the source tree itself when it is not configured in-tree, else
# `make distdir`.  Modification times are kept, so make rebuilds only
# what changed since the last run.
t0=$(date +%s)
src=$cross/src
if git -C "$top_srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mkdir -p "$src"
  (
    cd "$top_srcdir" || exit 1
    {
      git ls-files -c
      # New files not yet committed, but not what an in-tree build left
      # (test programs and tools are neither ignored nor tracked): no
      # ELF files, no libtool wrapper scripts.
      git ls-files -o --exclude-standard | while IFS= read -r f; do
        [ "$(head -c 4 "$f" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ] &&
          continue
        head -n 5 "$f" 2>/dev/null | grep -q 'Generated by ltmain.sh' && continue
        printf '%s\n' "$f"
      done
      for f in configure aclocal.m4 config.h.in; do echo "$f"; done
      find build-aux m4 -type f 2>/dev/null
      git ls-files -co --exclude-standard -- '*Makefile.am' '**/Makefile.am' |
        sed 's/\.am$/.in/'
    } | LC_ALL=C sort -u | while IFS= read -r f; do
      # Skip build trees inside the checkout (they hold a config.status)
      # and files that do not exist (deleted but still tracked).
      d=${f%%/*}
      [ "$d" != "$f" ] && [ -f "$d/config.status" ] && continue
      [ -f "$f" ] && printf '%s\n' "$f"
    done >"$cross/src-files.txt"
    tar -cf - -T "$cross/src-files.txt" | tar -xpf - -C "$src"
  ) || { say "copying the source tree failed"; exit 1; }
  # Drop what the source tree no longer has (make would find it by VPATH).
  (cd "$src" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) |
    LC_ALL=C comm -23 - "$cross/src-files.txt" | (cd "$src" && xargs -r rm -f --)
elif [ ! -f "$top_srcdir/config.status" ]; then
  src=$top_srcdir
else
  # distdir must be a name relative to the build tree (subdirectories
  # prefix it with ../).
  rm -rf "$src" "$top_builddir/gcipher-cross-src"
  make -C "$top_builddir" -s distdir distdir=gcipher-cross-src >/dev/null &&
    mv "$top_builddir/gcipher-cross-src" "$src" ||
    { say "make distdir failed"; exit 1; }
fi
say "source tree: $src ($(elapsed "$t0"))"

# --- 3. Per target: dependencies, configure, build, tests --------------
# Summarise the logs in directory $1: sets s_pass s_fail s_skip s_bad
# (suites that failed without a GoogleTest verdict), s_hwf, s_paths.
summarise() {
  s_pass=0; s_fail=0; s_skip=0; s_bad=0
  for log in "$1"/t-*.log; do
    [ -f "$log" ] || continue
    trs=${log%.log}.trs
    res=$(sed -n 's/^:test-result: //p' "$trs" 2>/dev/null | head -1)
    if grep -q '^\[==========\]' "$log"; then
      p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
      f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
      k=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
      s_pass=$((s_pass + ${p:-0})); s_fail=$((s_fail + ${f:-0}))
      s_skip=$((s_skip + ${k:-0}))
      if [ -z "$p$f" ] || { [ "$res" != PASS ] && [ -z "$f" ]; }; then
        s_bad=$((s_bad + 1))       # crashed, or exited non-zero anyway
      fi
    else
      case "$res" in
        PASS) s_pass=$((s_pass + 1)) ;;
        SKIP) s_skip=$((s_skip + 1)) ;;
        *) s_fail=$((s_fail + 1)) ;;
      esac
    fi
  done
  s_hwf=$(sed -n 's/^\[ hwf      \] hwflist://p' "$1/t-hwf.log" 2>/dev/null | head -1)
  s_paths=$(cat "$1"/t-*.log 2>/dev/null |
    sed -n 's/^\[ path     \] \([^ ]*\) .*/\1/p' | sort -u | tr '\n' ' ')
  # GCM's AES+GHASH pairs (t-aes-gcm: "[ GCM paths ] ran: a+b, c+d").
  s_gcm=$(sed -n 's/^\[ GCM paths \] ran: //p' "$1/t-aes-gcm.log" 2>/dev/null |
    head -1)
}

# The features QEMU's -cpu value $1 enables / disables, as hwf names.
expect_hwf() {
  case "$1" in
    max|max/*|cortex-*)
      # arm64: every QEMU model has NEON, AES, PMULL, SHA1 and SHA2;
      # what the entry's hwf-off list takes away must not be listed.
      e_yes=; e_no=$(cross_cpu_hwf_off "$1")
      for x in arm-neon arm-aes arm-pmull arm-sha1 arm-sha2; do
        case ",$e_no," in
          *",$x,"*) ;;
          *) e_yes="${e_yes:+$e_yes,}$x" ;;
        esac
      done
      return ;;
  esac
  e_yes=riscv-imafdc; e_no=
  case "$1" in *v=false*) e_no=riscv-v ;; *) e_yes="$e_yes,riscv-v" ;; esac
  for x in zvkned zvkg zvkb zvbc; do
    case ",$1," in
      *",$x=true,"*) e_yes="$e_yes,riscv-$x" ;;
      *) e_no="${e_no:+$e_no,}riscv-$x" ;;
    esac
  done
}

for arch in $targets; do
  cross_target "$arch"
  t_arch=$(date +%s)
  base=$cross/$arch
  prefix=$base/prefix
  build=$base/build
  rm -rf "$base/logs"             # no stale results from an earlier run
  mkdir -p "$build" "$base/logs"

  t0=$(date +%s)
  if ! sh "$here/build-deps.sh" "$arch" "$prefix" "$cross/deps/$arch"; then
    say "$arch: building the dependencies failed"
    printf '%s\t%s\t0\t1\t0\tFAIL\n' "$arch" all >>"$results"
    overall=1; continue
  fi
  say "$arch: dependencies ($(elapsed "$t0"))"

  # configure (again) when its arguments changed or it never completed.
  t0=$(date +%s)
  conf_args="--host=$cross_host CC=$cross_cc CXX=$cross_cxx LDFLAGS=$cross_ldflags PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig src=$src"
  if [ ! -f "$build/Makefile" ] || [ ! -f "$build/.gcipher-configure" ] ||
     [ "$(cat "$build/.gcipher-configure")" != "$conf_args" ]; then
    rm -f "$build/.gcipher-configure"
    if ! (cd "$build" && PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" \
          PKG_CONFIG_PATH= "$src/configure" -q --host="$cross_host" \
          CC="$cross_cc" CXX="$cross_cxx" LDFLAGS="$cross_ldflags" \
          PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" >configure.out 2>&1); then
      tail -30 "$build/configure.out"
      say "$arch: configure failed (see $build/config.log)"
      printf '%s\t%s\t0\t1\t0\tFAIL\n' "$arch" all >>"$results"
      overall=1; continue
    fi
    printf '%s\n' "$conf_args" >"$build/.gcipher-configure"
  fi
  # Build the library, the tools and the test programs (TESTS= runs none).
  if ! make -C "$build" -j"$jobs" -s >"$base/make.log" 2>&1 ||
     ! make -C "$build" -j"$jobs" -s check TESTS= >>"$base/make.log" 2>&1; then
    grep -E -B2 -A8 'error|Error' "$base/make.log" | head -60
    say "$arch: build failed (see $base/make.log)"
    printf '%s\t%s\t0\t1\t0\tFAIL\n' "$arch" all >>"$results"
    overall=1; continue
  fi
  say "$arch: configure + build ($(elapsed "$t0"))"

  # The suite, once per CPU (word splitting of the list is intended).
  # shellcheck disable=SC2086
  printf '%s\n' $cross_cpus | while IFS= read -r cpu; do
    [ -n "$cpu" ] || continue
    tag=$(cross_cpu_tag "$cpu")
    logs=$base/logs/$tag
    t0=$(date +%s)
    if [ -n "$cross_qemu" ]; then
      expect_hwf "$cpu"
      # The CPU goes by QEMU_CPU, not -cpu, so that processes the tests
      # start (re-executing themselves via binfmt_misc) get it too.
      GCIPHER_CROSS_EMULATOR=$cross_qemu
      QEMU_CPU=$(cross_cpu_qemu "$cpu")
      QEMU_LD_PREFIX=$cross_sysroot
      GCIPHER_EXPECT_HWF=$e_yes
      GCIPHER_EXPECT_NO_HWF=$e_no
      export GCIPHER_CROSS_EMULATOR QEMU_CPU QEMU_LD_PREFIX \
        GCIPHER_EXPECT_HWF GCIPHER_EXPECT_NO_HWF
      # Features the CPU entry takes away (arm64's no-crypto CPU).
      hwf_off=$(cross_cpu_hwf_off "$cpu")
      if [ -n "$hwf_off" ]; then
        GCIPHER_DISABLE_HWF=$hwf_off; export GCIPHER_DISABLE_HWF
      else
        unset GCIPHER_DISABLE_HWF
      fi
    else
      unset GCIPHER_CROSS_EMULATOR QEMU_CPU GCIPHER_EXPECT_HWF \
        GCIPHER_EXPECT_NO_HWF GCIPHER_DISABLE_HWF
    fi
    only=$(cross_cpu_tests "$cpu")
    rm -f "$build"/tests/t-*.log "$build"/tests/t-*.trs
    if [ -n "$only" ]; then
      make -C "$build/tests" -j"$jobs" -s check TESTS="$only" \
        >"$base/check-$tag.out" 2>&1
    else
      make -C "$build/tests" -j"$jobs" -s check >"$base/check-$tag.out" 2>&1
    fi
    rc=$?
    rm -rf "$logs"; mkdir -p "$logs"
    cp "$build"/tests/t-*.log "$build"/tests/t-*.trs "$build"/tests/test-suite.log \
      "$base/check-$tag.out" "$logs/" 2>/dev/null
    summarise "$logs"
    status=PASS
    if [ "$rc" != 0 ] || [ "$s_fail" != 0 ] || [ "$s_bad" != 0 ]; then
      status=FAIL
      [ "$s_fail" = 0 ] && s_fail=$((s_bad > 0 ? s_bad : 1))
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$arch" "$cpu" "$s_pass" "$s_fail" \
      "$s_skip" "$status" >>"$results"
    say "$status $arch cpu=$cpu: $s_pass passed, $s_fail failed, $s_skip skipped ($(elapsed "$t0"))"
    say "    hwf: ${s_hwf:-?}"
    say "    paths: ${s_paths:-none reported}"
    say "    GCM AES+GHASH: ${s_gcm:-none reported}"
    if [ "$status" = FAIL ]; then
      grep -h -E '^(FAIL|ERROR|XPASS)' "$logs/check-$tag.out" | sed 's/^/    /' | head -20
      say "    logs: $logs"
    fi
  done
  say "$arch: total $(elapsed "$t_arch")"
done

if grep -q 'FAIL$' "$results"; then overall=1; fi
say "all cross targets: $(elapsed "$t_start"); results in $results"
exit $overall
