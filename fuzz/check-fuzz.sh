#!/bin/sh
# check-fuzz.sh - build the differential fuzz target (fuzz/cipher-diff.cpp)
# and run it for a bounded time (`make check-fuzz` runs this from the
# build tree).
#
# Everything lives under BUILDDIR/fuzz-build (GCIPHER_FUZZ_DIR overrides):
#   config.status, cipher/, src/   a VPATH build of the library with
#                      clang-19 and -fsanitize=fuzzer-no-link,address,
#                      undefined (only libgcipher-static.la is built: the
#                      shared libraries link with -Wl,--no-undefined,
#                      which the sanitizer runtimes do not allow)
#   cipher-diff        the target, linked with -fsanitize=fuzzer
#   seed/              the seed corpus, written by fuzz/make-corpus
#   corpus/            the growing corpus (kept between runs)
#   crash-*, leak-*, timeout-*   inputs that found a difference or a bug
#   fuzz.log           the last run's libFuzzer output
#
# Environment:
#   GCIPHER_FUZZ_TIME   seconds to fuzz (default 120)
#   GCIPHER_FUZZ_JOBS   make -j for the library (default 2)
#   GCIPHER_FUZZ_CC, GCIPHER_FUZZ_CXX   compilers (clang-19, clang++-19)
#   GCIPHER_FUZZ_ARGS   extra libFuzzer arguments (e.g. -jobs=4 -workers=4)
#   GCIPHER_FUZZ_LIBGCRYPT   the libgcrypt.so.20 to compare with (default
#                      the system one), e.g. libgcrypt master
#                      (../shared/peers/x86_64/libgcrypt.so.20, beside
#                      its libgpg-error) or gcipher's own src/.libs/
#                      libgcrypt.so.20 (the C ABI shell)
#   GCIPHER_FUZZ_LIGHT_KERNELS   1: every ISA kernel library of cipher/
#                      (AVX2, AVX-512, GFNI, VAES, SSE2, PCLMUL, AES-NI)
#                      gets coverage only and -O0 (the two below always
#                      get coverage only): a much shorter build on a busy
#                      machine, at the price of ASan/UBSan inside the
#                      kernels and of their speed
#   GCIPHER_FUZZ_SANITIZE   0: coverage only, no ASan/UBSan (a faster
#                      target for long runs; its own tree, fuzz-build-nosan
#                      unless GCIPHER_FUZZ_DIR is set)
# Needs clang-19 and its libFuzzer runtime (Debian: clang-19,
# libclang-rt-19-dev).  Prints the executions, the corpus size and the
# skip counts; exits non-zero if the target found anything.  A long run:
# doc/gcipher.md, "Differential fuzzing".
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$(cd "$here/.." && pwd)}"
: "${top_builddir:=$(pwd)}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
sanitize=${GCIPHER_FUZZ_SANITIZE:-1}
if [ "$sanitize" = 0 ]; then
  dir=${GCIPHER_FUZZ_DIR:-$top_builddir/fuzz-build-nosan}
else
  dir=${GCIPHER_FUZZ_DIR:-$top_builddir/fuzz-build}
fi
seconds=${GCIPHER_FUZZ_TIME:-120}
jobs=${GCIPHER_FUZZ_JOBS:-2}
cc=${GCIPHER_FUZZ_CC:-clang-19}
cxx=${GCIPHER_FUZZ_CXX:-clang++-19}
me=check-fuzz
say() { echo "$me: $*"; }
die() { echo "$me: $*" >&2; exit 1; }

command -v "$cxx" >/dev/null 2>&1 ||
  die "$cxx not found (Debian: apt-get install clang-19 libclang-rt-19-dev)"
mkdir -p "$dir" || exit 1
dir=$(cd "$dir" && pwd)
cd "$dir" || exit 1

# --- 1. libFuzzer runtime ---------------------------------------------------
printf 'extern "C" int LLVMFuzzerTestOneInput (const unsigned char *, unsigned long) { return 0; }\n' \
  >probe.cpp
"$cxx" -fsanitize=fuzzer probe.cpp -o probe >probe.log 2>&1 ||
  die "$cxx cannot link -fsanitize=fuzzer (Debian: apt-get install libclang-rt-19-dev); see $dir/probe.log"
rm -f probe probe.cpp probe.log

# --- 2. The sanitized library ----------------------------------------------
# A source tree configured in-tree refuses VPATH builds: a copy of it
# (tests/copy-srctree) is configured instead.
# (Not $dir/src: that is the build tree's own src/.)
src=$top_srcdir
if [ -f "$top_srcdir/config.status" ]; then
  src=$dir/srctree
  sh "$top_srcdir/tests/copy-srctree" "$top_srcdir" "$src" ||
    die "copying the source tree failed"
fi
san="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
ldsan="-fsanitize=address,undefined"
tsan="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
if [ "$sanitize" = 0 ]; then
  san="-fsanitize=fuzzer-no-link" ldsan= tsan="-fsanitize=fuzzer"
fi
opt=-O1
[ "$sanitize" = 0 ] && opt=-O2
flags="-g $opt -fno-omit-frame-pointer $san"
args="CC=$cc CXX=$cxx CFLAGS=$flags CXXFLAGS=$flags"
if [ ! -f config.status ] || [ "$(cat configure.args 2>/dev/null)" != "$args" ]; then
  say "configuring $dir"
  "$src/configure" -q CC="$cc" CXX="$cxx" CFLAGS="$flags" \
    CXXFLAGS="$flags" LDFLAGS="$ldsan" \
    >configure.log 2>&1 || die "configure failed, see $dir/configure.log"
  echo "$args" >configure.args
fi
say "building the library"
# The AVX-512 Serpent and AVX2 ChaCha20 kernels take many minutes to
# compile under ASan + UBSan (huge inlined intrinsic bodies) and gain
# little from it: coverage only there (`make check-sanitizers` runs them
# under the sanitizers with GCC).
# Some compile-time tables (static_assert over GF(2^8) arithmetic) need
# more constant-evaluation steps than clang allows by default.
steps="-fconstexpr-steps=100000000"
light="$steps -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link"
light_libs="libserpent-avx512.la libchacha20-avx2.la"
if [ "${GCIPHER_FUZZ_LIGHT_KERNELS:-0}" = 1 ]; then
  light="$steps -g -O0 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link"
  light_libs=$(sed -n 's/^\(lib[a-z0-9_-]*\.la\):.*/\1/p' cipher/Makefile |
               grep -v '^libcipher\.la$')
fi
build_lib() {
  libs=
  for l in $light_libs; do
    grep -q "^$l:" cipher/Makefile && libs="$libs $l"
  done
  # shellcheck disable=SC2086
  [ -z "$libs" ] || make -s -j"$jobs" -C cipher $libs CXXFLAGS="$light" ||
    return 1
  make -s -j"$jobs" -C cipher CXXFLAGS="$flags $steps" &&
    make -s -j"$jobs" -C src libgcipher-static.la
}
build_lib >build.log 2>&1 ||
  { tail -30 build.log; die "library build failed, see $dir/build.log"; }

# --- 3. The target -----------------------------------------------------------
lib=src/.libs/libgcipher-static.a
if [ ! -x cipher-diff ] || [ "$lib" -nt cipher-diff ] ||
   [ "$top_srcdir/fuzz/cipher-diff.cpp" -nt cipher-diff ] ||
   [ "$top_srcdir/tests/sysgcrypt.cpp" -nt cipher-diff ] ||
   [ "$(cat target.args 2>/dev/null)" != "$tsan" ]; then
  say "building cipher-diff"
  # shellcheck disable=SC2046
  "$cxx" -std=c++20 -g $opt -fno-omit-frame-pointer -Wall -Wextra \
    $tsan \
    -I. -I"$top_srcdir/src" -I"$top_srcdir/cipher" -I"$top_srcdir/tests" \
    $(pkg-config --cflags gpg-error) \
    "$top_srcdir/fuzz/cipher-diff.cpp" "$top_srcdir/tests/sysgcrypt.cpp" \
    "$lib" $(pkg-config --libs gpg-error) -ldl -lpthread -o cipher-diff \
    >target.log 2>&1 ||
    { cat target.log; die "cipher-diff build failed"; }
  echo "$tsan" >target.args
fi

# --- 4. Corpus and run -------------------------------------------------------
# One seed set per algorithm index the target compares (ARIA too when
# the compared library has it).
nalgos=$(GCIPHER_FUZZ_COUNT_ALGOS=1 ./cipher-diff 2>/dev/null | tail -1)
case $nalgos in
  ''|*[!0-9]*) die "cipher-diff cannot load the compared libgcrypt" \
                   "(${GCIPHER_FUZZ_LIBGCRYPT:-the system one})" ;;
esac
python3 "$top_srcdir/fuzz/make-corpus" seed "$nalgos" || die "make-corpus failed"
mkdir -p corpus
# With -jobs=N libFuzzer writes each job's output to fuzz-K.log here
# (fuzz.log then holds the parent's lines): last run's removed first.
rm -f fuzz-[0-9]*.log
before=$(find corpus -type f | wc -l)
say "fuzzing for ${seconds}s (corpus: $before files + seed)"
# The system libgcrypt lives in its own link-map namespace with its own
# libc, which ASan does not see; leaks are gcipher's.
sym=$(command -v llvm-symbolizer-19 || command -v llvm-symbolizer || true)
[ -n "$sym" ] && export ASAN_SYMBOLIZER_PATH="$sym" UBSAN_SYMBOLIZER_PATH="$sym"
# shellcheck disable=SC2086
ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  ./cipher-diff -max_total_time="$seconds" -max_len=4096 -timeout=30 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$dir/" \
    ${GCIPHER_FUZZ_ARGS:-} corpus seed >fuzz.log 2>&1
rc=$?
after=$(find corpus -type f | wc -l)
# One log per job (-jobs=N), else fuzz.log: executions and speeds are
# summed over the jobs, the coverage is the largest any job reached.
logs=$(ls fuzz-[0-9]*.log 2>/dev/null)
[ -n "$logs" ] || logs=fuzz.log
execs=0 speed=0 cov=0
for l in $logs; do
  e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$l" | tail -1)
  v=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$l" | tail -1)
  c=$(grep -o 'cov: [0-9]*' "$l" | tail -1 | sed 's/cov: //')
  execs=$((execs + ${e:-0})) speed=$((speed + ${v:-0}))
  [ "${c:-0}" -gt "$cov" ] && cov=$c
  if [ "$l" = fuzz.log ]; then
    grep '^cipher-diff:' "$l" | sed "s/^cipher-diff:/$me:/"
  else
    grep '^cipher-diff: [0-9]' "$l" |
      sed "s/^cipher-diff:/$me: job ${l#fuzz-}:/; s/\.log:/:/"
  fi
done
say "$execs executions ($speed/s), cov: $cov edges," \
    "corpus $before -> $after files (+ $(find seed -type f | wc -l) seeds)"
if [ "$rc" != 0 ]; then
  [ "$logs" = fuzz.log ] || logs="$logs fuzz.log"
  # shellcheck disable=SC2086
  grep -h -A40 '==== cipher-diff\|ERROR: \|runtime error' $logs | head -80
  ls -1 "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* 2>/dev/null
  die "cipher-diff found a problem (exit $rc), see $dir/fuzz.log"
fi
exit 0
