#!/bin/sh
# t-benchopts.sh - libgcrypt's benchmark and bench-slope command lines on
# tests/benchmark and tests/bench-slope (doc/gcipher.md 12.1, 12.3), and
# bench-compare's --libgcrypt (doc/gcipher.md 12.4).
#
# What t-benchtools checks on the parsers, end to end: every option
# libgcrypt's programs take is accepted (the non-cipher ones with a note
# on stderr), no command means the cipher run over every algorithm,
# other commands are skipped with exit status 0, the cycles/byte cell
# is `-' without a clock and a number with one, and a --repetitions
# below the minimum falls back to the default with a note.  Runs use
# ARCFOUR, the 1 KiB default and few repetitions, to stay quick.
# bench-compare (built with OpenSSL only): --help lists --libgcrypt, a
# path that does not load stops the run with a message naming it, two
# --libgcrypt give two labelled columns (text and CSV) and both get the
# --disable-hwf names, and no row is above its AES-instruction bound.
set -u

: "${top_builddir:=$(cd "$(dirname "$0")/.." && pwd)}"
bindir="$top_builddir/tests"
BENCHMARK="$bindir/benchmark"
SLOPE="$bindir/bench-slope"

fail () { echo "FAIL: $*"; status=1; }
status=0

[ -x "$BENCHMARK" ] || { echo "FAIL: $BENCHMARK not built"; exit 1; }
[ -x "$SLOPE" ] || { echo "FAIL: $SLOPE not built"; exit 1; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
out="$tmp/out"
err="$tmp/err"

# run NAME EXPECTED-STATUS PROGRAM ARGS...: stdout in $out, stderr in $err.
run () {
  name=$1 want=$2
  shift 2
  "$@" >"$out" 2>"$err"
  rc=$?
  if [ "$rc" != "$want" ]; then
    fail "$name: exit status $rc, expected $want"
    sed 's/^/  stderr: /' "$err" | head -5
    return 1
  fi
  return 0
}

# want_out NAME REGEX / want_err NAME REGEX / no_out NAME
want_out () { grep -Eq -e "$2" "$out" || fail "$1: stdout lacks /$2/"; }
want_err () { grep -Eq -e "$2" "$err" || fail "$1: stderr lacks /$2/"; }
no_out () { [ ! -s "$out" ] || fail "$1: unexpected stdout"; }

# ---- benchmark ------------------------------------------------------------

# The cipher options libgcrypt's benchmark has, all at once.
if run "benchmark cipher options" 0 "$BENCHMARK" --cipher-repetitions 2 \
     --alignment 1 --cipher-with-keysetup --use-secmem --verbose --debug \
     --disable-hwf intel-avx2 cipher arcfour; then
  want_out "benchmark cipher options" '^Running each test 2 times\.$'
  # libgcrypt's header, to the column; a stream cipher's row ends after
  # its last available pair.
  want_out "benchmark cipher options" \
    '^ {16}ECB/Stream {4}CBC/Poly1305 {9}CFB {13}OFB {13}CTR {13}XTS {13}CCM {13}GCM {13}OCB {13}EAX {6}$'
  want_out "benchmark cipher options" '^ {13}(-{15} ){9}-{15}$'
  want_out "benchmark cipher options" '^ARCFOUR {6}[ 0-9.]{5}ms [ 0-9.]{5}ms$'
fi

# --large-buffers and --fips (gcipher has no FIPS mode and says so).
if run "benchmark --fips" 0 "$BENCHMARK" --large-buffers --fips cipher \
     arcfour; then
  want_out "benchmark --fips" '^ARCFOUR +[0-9.]+ms'
  want_err "benchmark --fips" 'FIPS mode.*ignored'
fi

# Options for the non-cipher parts: accepted, values consumed, one note
# each.
if run "benchmark ignored options" 0 "$BENCHMARK" --progress \
     --hash-repetitions 3 --mac-repetitions 4 --pk-count 1 --no-blinding \
     --prefer-standard-rng --prefer-fips-rng --prefer-system-rng \
     cipher arcfour; then
  want_out "benchmark ignored options" '^ARCFOUR +[0-9.]+ms'
  n=$(grep -c 'ignored' "$err")
  [ "$n" = 8 ] || fail "benchmark ignored options: $n notes, expected 8"
fi

# Other commands: nothing on stdout, a note, status 0.
for cmd in md mac random mpi pubkey rsa dsa ecc prime; do
  if run "benchmark $cmd" 0 "$BENCHMARK" "$cmd"; then
    no_out "benchmark $cmd"
    want_err "benchmark $cmd" "skipped"
  fi
done

# No command: the cipher table for every algorithm.
if run "benchmark (no command)" 0 "$BENCHMARK"; then
  want_out "benchmark (no command)" '^AES +[0-9.]+ms'
  want_out "benchmark (no command)" '^CHACHA20 +[0-9.]+ms'
  want_err "benchmark (no command)" 'no command'
fi

# Still refused: unknown options and commands, a missing value.
run "benchmark --foo" 2 "$BENCHMARK" --foo cipher aes
run "benchmark foo" 2 "$BENCHMARK" foo
run "benchmark --pk-count (no value)" 2 "$BENCHMARK" --pk-count
run "benchmark --alignment 0" 2 "$BENCHMARK" --alignment 0 cipher aes

# ---- bench-slope ----------------------------------------------------------

row='^ +STREAM enc \| +[0-9.]+ ns/B +[0-9.]+ MiB/s'

# Without --cpu-mhz: `-' in the cycles/byte column, in its place.
if run "bench-slope no clock" 0 "$SLOPE" --repetitions 2 cipher arcfour; then
  want_out "bench-slope no clock" \
    '^ ARCFOUR        \|  nanosecs/byte   mebibytes/sec   cycles/byte$'
  want_out "bench-slope no clock" \
    '^     STREAM enc \| [ 0-9.]{9} ns/B [ 0-9.]{9} MiB/s         - c/B$'
  want_out "bench-slope no clock" '^                =$'
fi

# With a clock: a number there.
if run "bench-slope --cpu-mhz" 0 "$SLOPE" --repetitions 2 --cpu-mhz 1000 \
     cipher arcfour; then
  want_out "bench-slope --cpu-mhz" "$row"' +[0-9.]+ c/B$'
fi

# CSV without a clock: the field stays empty.
if run "bench-slope --csv" 0 "$SLOPE" --repetitions 2 --csv cipher arcfour
then
  want_out "bench-slope --csv" '^cipher,ARCFOUR,STREAM enc,,,[0-9.]+,ns/B,[0-9.]+,MiB/s,,c/B$'
fi

# Below the repetition minimum: a note and the default.
if run "bench-slope --repetitions 1" 0 "$SLOPE" --repetitions 1 cipher \
     arcfour; then
  want_err "bench-slope --repetitions 1" 'minimum of 2 - using 32'
  want_out "bench-slope --repetitions 1" "$row"
fi

# --verbose and --debug: the library on stderr, the table unchanged.
if run "bench-slope --verbose --debug" 0 "$SLOPE" --verbose --debug \
     --repetitions 2 --unaligned --disable-hwf intel-avx2 cipher arcfour; then
  want_err "bench-slope --verbose --debug" 'library .* version'
  want_out "bench-slope --verbose --debug" "$row"
fi

# Other sections: skipped with a note, status 0.
for cmd in hash mac kdf ecc; do
  if run "bench-slope $cmd" 0 "$SLOPE" "$cmd"; then
    no_out "bench-slope $cmd"
    want_err "bench-slope $cmd" "skipped"
  fi
done

# No command: the cipher section for every algorithm.
if run "bench-slope (no command)" 0 "$SLOPE" --repetitions 2; then
  want_out "bench-slope (no command)" '^Cipher:$'
  want_out "bench-slope (no command)" '^ AES            \|'
  want_out "bench-slope (no command)" '^ CHACHA20       \|'
  want_err "bench-slope (no command)" 'no command'
fi

run "bench-slope --bogus" 2 "$SLOPE" --bogus cipher
run "bench-slope foo" 2 "$SLOPE" foo

# ---- bench-compare --------------------------------------------------------

COMPARE="$bindir/bench-compare"
if [ -x "$COMPARE" ]; then
  if run "bench-compare --help" 0 "$COMPARE" --help; then
    want_out "bench-compare --help" '--libgcrypt PATH'
  fi

  # A library that does not load: exit status 2, the path in the message,
  # no table.
  if run "bench-compare bad --libgcrypt" 2 "$COMPARE" \
       --libgcrypt "$tmp/no-such/libgcrypt.so.20" --sizes 16 --modes ecb \
       --rounds 1 aes; then
    want_err "bench-compare bad --libgcrypt" \
      "cannot use --libgcrypt $tmp/no-such/libgcrypt.so.20: dlmopen"
    no_out "bench-compare bad --libgcrypt"
  fi
  # Not a libgcrypt at all.
  run "bench-compare --libgcrypt libc" 2 "$COMPARE" \
    --libgcrypt "$(ldd "$COMPARE" | sed -n 's/.*=> \(.*libc\.so\.6\).*/\1/p')" \
    --sizes 16 --modes ecb --rounds 1 aes

  lib=${SYSTEM_LIBGCRYPT:-}
  if [ -n "$lib" ] && [ -f "$lib" ]; then
    # The same library twice: two namespaces, two columns, the second
    # numbered; an unknown hardware feature is refused by gcipher and by
    # both copies (so each got the name).
    qc="--sizes 16k --modes ecb,ctr --rounds 2 --ms 0.2"
    if run "bench-compare two --libgcrypt" 0 "$COMPARE" $qc \
         --disable-hwf no-such-feature --libgcrypt "$lib" \
         --libgcrypt "$lib" aes; then
      want_out "bench-compare two --libgcrypt" \
        "^bench-compare: gcipher .* \\| libgcrypt [^ ]+ \\($lib\\) \\| libgcrypt [^ ]+ #2 \\($lib\\) \\| "
      want_out "bench-compare two --libgcrypt" \
        '^ +libgcrypt +libgcrypt$'
      want_out "bench-compare two --libgcrypt" \
        '^algo +mode +dir +bytes +gcipher +[^ ]+ +ratio +[^ ]+ #2 +ratio +openssl +ratio +best +limit +%limit +xref$'
      want_out "bench-compare two --libgcrypt" \
        '^AES +CTR +enc +16K( +[0-9.]+){2} +[0-9.]+( <)?( +[0-9.]+ +[0-9.]+( <)?){2} +[0-9.]+( <)? '
      want_out "bench-compare two --libgcrypt" '^AES round instructions'
      n=$(grep -c "does not know hardware feature .no-such-feature'" "$err")
      [ "$n" = 3 ] || fail "bench-compare two --libgcrypt: $n hwf warnings, expected 3 (gcipher and both libraries)"
      # The bound holds: no row above 100% of it.  Allowance 10% for
      # timer noise on a loaded machine.
      awk '$1 == "AES" { for (i = 1; i <= NF; i++)
                           if ($i ~ /%$/ && $i + 0 > 110) { print; bad = 1 } }
           END { exit bad }' "$out" \
        || fail "bench-compare: a row above 110% of the AES-instruction bound"
    fi
    if run "bench-compare two --libgcrypt --csv" 0 "$COMPARE" $qc --csv \
         --libgcrypt "$lib" --libgcrypt "$lib" aes; then
      want_out "bench-compare two --libgcrypt --csv" \
        '^algo,keybits,mode,dir,bytes,gcipher_ns_per_byte,libgcrypt-[^,]+_ns_per_byte,libgcrypt-[^,]+_ratio,libgcrypt-[^,]+-2_ns_per_byte,libgcrypt-[^,]+-2_ratio,openssl_ns_per_byte,openssl_ratio,best_ratio,limit_ns_per_byte,limit_percent,mhz,ref_mode,ref_ratio$'
      want_out "bench-compare two --libgcrypt --csv" \
        '^AES,128,CTR,enc,16384(,[0-9.e-]+){8},[0-9.e-]+,[0-9.]+,[0-9.]+,CTR,'
    fi
  else
    echo "SKIP: bench-compare --libgcrypt columns (no SYSTEM_LIBGCRYPT)"
  fi
fi

[ "$status" = 0 ] && echo "PASS: benchmark, bench-slope and bench-compare command lines"
exit "$status"
