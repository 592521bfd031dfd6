#!/bin/sh
# check-sanitizers.sh - build gcipher with the sanitizers and run its
# tests there (`make check-sanitizers` runs this from the build tree).
#
#   asan   AddressSanitizer + UndefinedBehaviorSanitizer
#          (-fsanitize=address,undefined -fno-sanitize-recover=all
#          -fno-omit-frame-pointer, LeakSanitizer on): the library, both
#          shared libraries and the whole test suite (`make check` in
#          that tree: every GoogleTest suite and shell check).
#   tsan   ThreadSanitizer: the library and tests/t-threads (many
#          threads racing the first use, then using handles at once)
#          and t-runtime (its thread and child-process cases), all of
#          it (configure included) under `setarch ARCH -R` where that
#          works: GCC 12's TSan fails to start on kernels that randomise
#          mmap with more than 28 bits.
#
# Compiler: GCC (CC/CXX = gcc/g++, or GCIPHER_SANITIZE_CC/_CXX); its
# runtimes libasan8, libubsan1 and libtsan2 come with the gcc-12
# packages.  -fsanitize is passed in LDFLAGS too: the shared libraries
# are linked with the C driver and -Wl,--no-undefined, so the runtimes
# must be on their link line (they become DT_NEEDED entries; libstdc++
# still is not one of gcipher's own).  Any report fails the test that
# triggered it: -fno-sanitize-recover=all and halt_on_error=1 (ASan,
# UBSan, TSan) make the first report end the process with a non-zero
# status, which the test harness counts as a failure.
#
# Everything lives under BUILDDIR/build-sanitizers (GCIPHER_SANITIZE_DIR
# overrides; a name .gitignore already ignores):
#   src/            a pristine copy of the source tree, made only when the
#                   source tree is configured in-tree (which refuses VPATH
#                   builds); modification times are kept, so make
#                   rebuilds only what changed since the last run
#   TREE/build/     the VPATH build (TREE: asan, tsan)
#   TREE/logs/      the test logs (t-*.log, t-*.trs, test-suite.log):
#                   .ci/run counts them like the main tree's
#   results.tsv     one line per tree: tree, passed, failed, skipped,
#                   status (PASS/FAIL; FAIL with 0 0 0 = failed to build)
#                   (GoogleTest cases, one case per other test)
#   suites.tsv      one line per suite: tree, suite, status (PASS, FAIL,
#                   SKIP), passed, failed, skipped; a tree that failed
#                   before its tests is one line with suite "build"
# Only what the tests need is built: no benchmarks, no documentation.
#
# Output for CI: one line per suite and tree,
#   sanitizers: PASS asan/t-aes-gcm
#   sanitizers: FAIL asan/t-stream      (then its first report, indented)
#   sanitizers: SKIP asan/t-preload-gpg.sh
#   sanitizers: FAIL tsan/build         (configure or build failed)
# (a suite the tree lists but that left no verdict is a FAIL); other
# lines start with "check-sanitizers:".  Exit status 0 only when no
# FAIL line was printed.
#
# The whole-program shell checks under ASan (tests/sanitize/run-test):
#   t-substitute.sh   runs an uninstrumented program on the ASan-built
#                     libgcrypt.so.20; the ASan runtime must come first in
#                     the process, so it runs with LD_PRELOAD=libasan.so
#                     (the system compiler it calls runs without it) and
#                     without leak detection (LeakSanitizer would judge
#                     the shell tools the script runs); memory errors
#                     in gcipher are still fatal.
#   t-preload-gpg.sh  skipped: it preloads the interposer into gpg with
#                     its own LD_PRELOAD, where the ASan runtime cannot be
#                     put first, and gpg, its agent and libgcrypt are not
#                     instrumented.
#   t-install.sh      skipped: it builds plain programs against the
#                     installed ASan-built library (the runtime cannot
#                     come first); it checks layout and build flags, run
#                     by the main tree's make check and distcheck.
#   t-benchopts.sh    skipped: this tree builds the check programs only,
#                     not tests/benchmark and tests/bench-slope.
#
# Environment:
#   GCIPHER_SANITIZE_TREES  trees to build and run (default "asan tsan";
#                           the script's arguments override)
#   GCIPHER_SANITIZE_JOBS   make -j (default 2)
#   GCIPHER_SANITIZE_TSAN_TESTS  the TSan tree's tests (default
#                           "t-threads t-runtime")
#   GCIPHER_SANITIZE_UNINSTRUMENTED  the cipher/ convenience libraries
#                           the asan tree builds without sanitizers
#                           (default: the Serpent, ChaCha20 and Salsa20
#                           AVX2/AVX-512 kernels; "" instruments all)
#   GCIPHER_SANITIZE_TIMEOUT  seconds one suite may run before it is
#                           killed and fails (default 1200; run-test)
# Prints one summary line per tree and exits non-zero when anything
# failed.  Time from clean trees on 2 busy cores (load 2-5): 12 minutes
# (13 CPU-minutes): the ASan tree 10 to build, 2 to run (t-badinput and
# t-aes about a minute each), the TSan tree 1.5 in all.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$here/../.." && pwd)}"
: "${top_builddir:=$(pwd)}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
dir=${GCIPHER_SANITIZE_DIR:-$top_builddir/build-sanitizers}
jobs=${GCIPHER_SANITIZE_JOBS:-2}
trees=${*:-${GCIPHER_SANITIZE_TREES:-asan tsan}}
tsan_tests=${GCIPHER_SANITIZE_TSAN_TESTS:-t-threads t-runtime}
uninstrumented=${GCIPHER_SANITIZE_UNINSTRUMENTED-libserpent-avx2.la \
  libserpent-avx512.la libchacha20-avx2.la libchacha20-avx512.la \
  libsalsa20-avx2.la libsalsa20-avx512.la}
cc=${GCIPHER_SANITIZE_CC:-gcc}
cxx=${GCIPHER_SANITIZE_CXX:-g++}
shell_prog=${CONFIG_SHELL:-/bin/sh}
me=check-sanitizers

mkdir -p "$dir" || exit 1
dir=$(cd "$dir" && pwd)
t_start=$(date +%s)
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }
say() { echo "$me: $*"; }
results=$dir/results.tsv
suites=$dir/suites.tsv
: >"$results"
: >"$suites"
n_pass=0 n_fail=0 n_skip=0

# One suite's verdict: "sanitizers: STATUS TREE/SUITE" on stdout (what
# CI counts) and a line in suites.tsv.
suite_line() {  # tree suite status passed failed skipped
  echo "sanitizers: $3 $1/$2"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$suites"
  case $3 in
    PASS) n_pass=$((n_pass + 1)) ;;
    SKIP) n_skip=$((n_skip + 1)) ;;
    *) n_fail=$((n_fail + 1)) ;;
  esac
}

for t in "$cc" "$cxx"; do
  command -v "$t" >/dev/null 2>&1 || {
    say "compiler $t not found"
    suite_line all build FAIL 0 1 0
    printf 'all\t0\t1\t0\tFAIL\n' >>"$results"; exit 1; }
done

# --- 1. The source tree ---------------------------------------------------
# A source tree configured in-tree (config.status there) refuses VPATH
# builds: configure a copy of it (tests/copy-srctree).
t0=$(date +%s)
src=$top_srcdir
if [ -f "$top_srcdir/config.status" ]; then
  src=$dir/src
  sh "$top_srcdir/tests/copy-srctree" "$top_srcdir" "$src" || {
    say "copying the source tree failed"
    suite_line all build FAIL 0 1 0
    printf 'all\t0\t1\t0\tFAIL\n' >>"$results"; exit 1; }
fi
say "source tree: $src ($(elapsed "$t0"))"

# --- 2. Per tree ----------------------------------------------------------
# Count the logs in $1 (of tree $2) as .ci/run does: GoogleTest lines
# per suite, one case per other test; a suite without a verdict counts
# as one failure, and so does a suite of the list $3 that left no log.
# One suite_line per suite.
summarise() {
  s_pass=0; s_fail=0; s_skip=0
  list=$3
  if [ -z "$list" ]; then
    for log in "$1"/t-*.log; do
      [ -f "$log" ] && list="$list $(basename "$log" .log)"
    done
  fi
  for t in $list; do
    log=$1/$t.log
    p=0 f=0 k=0
    if [ ! -f "$log" ]; then
      f=1
    else
      res=$(sed -n 's/^:test-result: //p' "$1/$t.trs" 2>/dev/null | head -1)
      if grep -q '^\[==========\]' "$log"; then
        p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
        f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
        k=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -1)
        # Crashed (no verdict), or a sanitizer ended it after the verdict.
        if [ -z "$p$f" ] || { [ "$res" != PASS ] && [ -z "$f" ]; }; then
          f=$((${f:-0} + 1))
        fi
        p=${p:-0} f=${f:-0} k=${k:-0}
      else
        case "$res" in
          PASS) p=1 ;;
          SKIP) k=1 ;;
          *) f=1 ;;
        esac
      fi
    fi
    if [ "$f" != 0 ]; then st=FAIL
    elif [ "$p" = 0 ] && [ "$k" != 0 ]; then st=SKIP
    else st=PASS
    fi
    suite_line "$2" "$t" "$st" "$p" "$f" "$k"
    if [ "$st" = FAIL ]; then
      if [ -f "$log" ]; then
        first_report "$log" | sed 's/^/    /'
        grep -h -E '^(\[  FAILED  \] [A-Za-z]|FAIL:|.*timed out)' "$log" |
          head -5 | sed 's/^/    /'
      else
        echo "    no log: the suite did not run (see $base/check.out)"
      fi
    fi
    s_pass=$((s_pass + p)); s_fail=$((s_fail + f)); s_skip=$((s_skip + k))
  done
}

# The first sanitizer report in the log $1, for the summary.
first_report() {
  grep -h -m3 -E '^(==[0-9]+==ERROR|SUMMARY: (Address|Undefined|Thread|Leak)Sanitizer|WARNING: ThreadSanitizer|.*runtime error:)' \
    "$1" 2>/dev/null | head -3
}

# The ASan runtime as the dynamic loader finds it (for LD_PRELOAD).
asan_runtime() {
  f=$("$cc" -print-file-name=libasan.so)
  [ -f "$f" ] && readlink -f "$f"
}

overall=0
for tree in $trees; do
  case $tree in
    asan)
      san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
      # The whole suite; the shell checks through run-test (see above).
      run_tests=
      build_progs=
      ;;
    tsan)
      san="-fsanitize=thread"
      run_tests=$tsan_tests
      build_progs=$tsan_tests
      ;;
    *) say "unknown tree $tree (asan, tsan)"; exit 2 ;;
  esac
  t_tree=$(date +%s)
  base=$dir/$tree
  build=$base/build
  rm -rf "$base/logs"
  mkdir -p "$build" "$base/logs"

  # GCC 12's TSan runtime cannot map its shadow memory when the kernel
  # randomises mmap with more than 28 bits (vm.mmap_rnd_bits; FATAL:
  # "unexpected memory mapping"): at 29 bits about half of all starts
  # fail, at 32 every one.  configure runs a program it compiled with
  # -fsanitize=thread (autoconf's cross-compiling check), so the whole
  # TSan tree (configure, make, tests) runs with address space
  # randomisation off (setarch -R) wherever setarch can turn it off.
  # It is a per-process setting the children inherit; the machine's is
  # left alone.
  norand=
  if [ "$tree" = tsan ] && setarch "$(uname -m)" -R true 2>/dev/null; then
    norand="setarch $(uname -m) -R"
    say "$tree: configure, build and tests under $norand"
  fi

  # configure (again) when its arguments changed or it never completed.
  # -O1: the sanitizers' usual level, and a faster build.
  t0=$(date +%s)
  flags="-O1 -g $san"
  conf_args="CC=$cc CXX=$cxx CFLAGS=$flags CXXFLAGS=$flags LDFLAGS=$san src=$src"
  if [ ! -f "$build/Makefile" ] || [ ! -f "$build/.gcipher-configure" ] ||
     [ "$(cat "$build/.gcipher-configure")" != "$conf_args" ]; then
    rm -f "$build/.gcipher-configure"
    # shellcheck disable=SC2086  # $norand: a command and its arguments
    if ! (cd "$build" && $norand "$src/configure" -q CC="$cc" CXX="$cxx" \
          CFLAGS="$flags" CXXFLAGS="$flags" LDFLAGS="$san" \
          >configure.out 2>&1); then
      tail -30 "$build/configure.out"
      say "FAIL $tree: configure failed (see $build/config.log)"
      suite_line "$tree" build FAIL 0 1 0
      printf '%s\t0\t1\t0\tFAIL\n' "$tree" >>"$results"
      overall=1; continue
    fi
    printf '%s\n' "$conf_args" >"$build/.gcipher-configure"
  fi

  # Build the library and the test programs only (no benchmarks, no
  # documentation): cipher/ and src/, then tests/ with its noinst
  # programs emptied and TESTS= (build, run nothing).
  # The test programs' list is one make argument ("$@"): split into
  # words, its second program became a goal of its own, which the
  # top-level make built beside `check`'s sub-make, both linking
  # libtestutil.la at once (ar: unable to copy .libs/libtestutil.a).
  if [ -n "$build_progs" ]; then
    set -- "check_PROGRAMS=$build_progs" noinst_LTLIBRARIES=
    lib_targets="libgcipher-static.la"
  else
    set --
    lib_targets=all
  fi
  # The biggest SIMD kernels (whole cipher rounds of inlined intrinsics
  # over 16-32 blocks) take GCC 12 many minutes each under ASan + UBSan
  # (serpent-avx512.cpp: over 11 CPU-minutes): in the asan tree they are
  # built without instrumentation (-O1 -g), so the sanitizers check
  # everything around them (the mode code that hands them the caller's
  # buffers included) but not their insides.  A target-specific
  # CXXFLAGS in an extra makefile (uninstrumented.mk) does that however
  # often make rebuilds them (a header changed); when the list changes,
  # their objects are rebuilt.
  uninst_mk=$base/uninstrumented.mk
  : >"$uninst_mk.new"
  if [ "$tree" = asan ]; then
    for l in $uninstrumented; do
      v=$(printf '%s\n' "${l%.la}_la" | sed 's/[^A-Za-z0-9_]/_/g')
      grep -q "^${v}_OBJECTS = " "$build/cipher/Makefile" || continue
      # shellcheck disable=SC2016  # make's $(...)
      printf '$(%s_OBJECTS): CXXFLAGS = -O1 -g\n' "$v" >>"$uninst_mk.new"
    done
  fi
  if ! cmp -s "$uninst_mk.new" "$uninst_mk"; then
    # The libraries of the old list and the new one.
    # shellcheck disable=SC2013,SC2016  # words; make's $(...)
    for v in $(cat "$uninst_mk" "$uninst_mk.new" 2>/dev/null |
               sed -n 's/^\$(\(.*\)_OBJECTS).*/\1/p'); do
      rm -f "$build/cipher/$v-"*.lo "$build/cipher/.libs/$v-"*.o
    done
  fi
  mv "$uninst_mk.new" "$uninst_mk"
  : >"$base/make.log"
  # shellcheck disable=SC2086  # word splitting of the lists is intended
  if ! $norand make -C "$build/cipher" -f Makefile -f "$uninst_mk" \
         -j"$jobs" -s >>"$base/make.log" 2>&1 ||
     ! $norand make -C "$build/src" -j"$jobs" -s $lib_targets \
         >>"$base/make.log" 2>&1 ||
     ! $norand make -C "$build/tests" -j"$jobs" -s check TESTS= \
         noinst_PROGRAMS= noinst_SCRIPTS= "$@" >>"$base/make.log" 2>&1; then
    grep -E -B2 -A8 'error|Error' "$base/make.log" | head -60
    say "FAIL $tree: build failed (see $base/make.log)"
    suite_line "$tree" build FAIL 0 1 0
    printf '%s\t0\t1\t0\tFAIL\n' "$tree" >>"$results"
    overall=1; continue
  fi
  say "$tree: configure + build ($(elapsed "$t0"))"

  # Run.  Every report is fatal; LeakSanitizer runs at the end of each
  # test process.  allocator_may_return_null=1: an impossible malloc
  # (t-runtime asks for SIZE_MAX - 100 bytes) returns NULL as the C
  # library's does, so gcipher's out-of-memory paths run instead of the
  # sanitizer's allocator ending the process.  ASAN_OPTIONS etc. from the caller are appended, so a
  # local run can add options (later ones win).
  t0=$(date +%s)
  rm -f "$build"/tests/t-*.log "$build"/tests/t-*.trs "$build"/tests/test-suite.log
  (
    GCIPHER_SANITIZER=$tree
    export GCIPHER_SANITIZER
    case $tree in
      asan)
        ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:allocator_may_return_null=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:detect_invalid_pointer_pairs=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
        UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
        GCIPHER_SANITIZE_PRELOAD=$(asan_runtime)
        export ASAN_OPTIONS UBSAN_OPTIONS GCIPHER_SANITIZE_PRELOAD
        ;;
      tsan)
        TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:allocator_may_return_null=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
        export TSAN_OPTIONS
        # run-test starts each suite under it (see norand above).
        GCIPHER_SANITIZE_SETARCH=$norand
        export GCIPHER_SANITIZE_SETARCH
        ;;
    esac
    if [ -n "$run_tests" ]; then
      # shellcheck disable=SC2086
      make -C "$build/tests" -j"$jobs" -s check TESTS="$run_tests" \
        check_PROGRAMS="$build_progs" noinst_LTLIBRARIES= noinst_PROGRAMS= \
        noinst_SCRIPTS= LOG_COMPILER="$shell_prog $here/run-test"
    else
      make -C "$build/tests" -j"$jobs" -s check noinst_PROGRAMS= \
        noinst_SCRIPTS= LOG_COMPILER="$shell_prog $here/run-test"
    fi
  ) >"$base/check.out" 2>&1
  rc=$?
  cp "$build"/tests/t-*.log "$build"/tests/t-*.trs \
    "$build"/tests/test-suite.log "$base/check.out" "$base/logs/" 2>/dev/null
  # The suites the tree runs: those named, or every test of tests/.
  expect=$run_tests
  if [ -z "$expect" ]; then
    # shellcheck disable=SC2016  # $(TESTS) is make's
    expect=$(printf 'sanitize-print-tests:\n\t@echo $(TESTS)\n' |
             make -C "$build/tests" -s -f Makefile -f - sanitize-print-tests \
               2>/dev/null)
  fi
  summarise "$base/logs" "$tree" "$expect"
  status=PASS
  if [ "$rc" != 0 ] || [ "$s_fail" != 0 ]; then
    status=FAIL
    if [ "$s_fail" = 0 ]; then
      # make check failed without a failing suite (e.g. a test program
      # failed to build): one failure of its own.
      suite_line "$tree" make-check FAIL 0 1 0
      s_fail=1
    fi
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$tree" "$s_pass" "$s_fail" "$s_skip" \
    "$status" >>"$results"
  say "$status $tree: $s_pass passed, $s_fail failed, $s_skip skipped (build $(elapsed "$t_tree") in all, tests $(elapsed "$t0"))"
  grep -h '^SKIP: ' "$base"/logs/t-*.log 2>/dev/null | sed 's/^/    /'
  if [ "$status" = FAIL ]; then
    overall=1
    say "    logs: $base/logs"
  fi
done

if grep -q 'FAIL$' "$results" || [ "$n_fail" != 0 ]; then overall=1; fi
say "suites: $n_pass passed, $n_fail failed, $n_skip skipped; all sanitizer trees: $(elapsed "$t_start"); results in $results and $suites"
exit $overall
