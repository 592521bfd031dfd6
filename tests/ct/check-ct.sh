#!/bin/sh
# check-ct.sh - `make check-ct`: tests/ct/ct-check under valgrind memcheck.
#
# Usage: check-ct.sh PROGRAM LOGDIR [TRACER CIPHERDIR ALLOWLIST]
#
# 1. PROGRAM --host-paths, natively: the implementations this CPU has.
# 2. PROGRAM --host=... under memcheck with --error-exitcode=1
#    --track-origins=yes, in $CT_JOBS shards (default 2, one per core),
#    each shard's memcheck reports in LOGDIR/ct-check-K.vg.log, its
#    output in LOGDIR/ct-check-K.out.
# 3. Prints every "ct: ..." line (one per path: PASS / FAIL; NOTCT and
#    NOTCOVERED lines), then
#      ct: N paths checked, M not covered: <impl> (<why>), ...
#      ct: P passed, F failed
# 4. With TRACER (tests/ct/ct-trace): every path of this CPU that step 2
#    did not pass (VAES, VPCLMULQDQ, AVX-512, GFNI: valgrind cannot run
#    them) natively by trace equivalence, in $CT_JOBS shards, output in
#    LOGDIR/ct-trace-K.out (the driver's own in LOGDIR/ct-trace-K.log),
#    each shard stopping to trace after $CT_TRACE_BUDGET seconds (150):
#      ct-trace: PASS|FAIL <path>
#      ct-trace: NOTRUN <path> (time budget ... used up)
#      ct-trace: SKIP <impl> (this CPU lacks <hwf>)
#      ct-trace: P passed, F failed
#    and the object-code scan of the ISA kernels in CIPHERDIR
#    (tests/ct/ct-scan.sh with ALLOWLIST), ct-scan: lines, then
#      ct: evidence: V paths by memcheck, T by trace equivalence; ...
# Exits 1 if any path failed, memcheck reported anything (also outside
# a path), a shard did not finish, or the scan failed.
set -u
prog=${1:?usage: check-ct.sh PROGRAM LOGDIR [TRACER CIPHERDIR ALLOWLIST]}
logdir=${2:?usage: check-ct.sh PROGRAM LOGDIR [TRACER CIPHERDIR ALLOWLIST]}
tracer=${3:-}
budget=${CT_TRACE_BUDGET:-150}
cipherdir=${4:-}
allow=${5:-}
jobs=${CT_JOBS:-2}
valgrind=${VALGRIND:-valgrind}

if ! command -v "$valgrind" >/dev/null 2>&1; then
  echo "ct: FAIL valgrind not found (install valgrind)"
  echo "ct: 0 paths checked, 0 not covered"
  echo "ct: 0 passed, 1 failed"
  exit 1
fi
mkdir -p "$logdir" || exit 1
host=$("$prog" --host-paths) || { echo "ct: FAIL $prog --host-paths"; exit 1; }

# run_shards NAME FUNC: FUNC K for K = 0 .. $jobs-1 at once, each one's
# output in LOGDIR/NAME-K.out and exit status in LOGDIR/NAME-K.rc.
run_shards () {
  pids=
  k=0
  while [ "$k" -lt "$jobs" ]; do
    rm -f "$logdir/$1-$k.out" "$logdir/$1-$k.rc"
    ( "$2" "$k" >"$logdir/$1-$k.out" 2>&1
      echo $? >"$logdir/$1-$k.rc" ) &
    pids="$pids $!"
    k=$((k + 1))
  done
  wait $pids
}

memcheck_shard () {
  rm -f "$logdir/ct-check-$1.vg.log"
  "$valgrind" -q --tool=memcheck --error-exitcode=1 --track-origins=yes \
    --leak-check=no --num-callers=30 \
    --log-file="$logdir/ct-check-$1.vg.log" \
    "$prog" --host="$host" --shard="$1/$jobs"
}

trace_shard () {
  "$tracer" --budget="$budget" --log="$logdir/ct-trace-$1.log" \
    --verified="$(dirname "$0")/trace-verified.txt" -- "$prog" \
    --skip="$logdir/ct-valgrind-paths.txt" --shard="$1/$jobs"
}

run_shards ct-check memcheck_shard

status=0
extra=0
k=0
while [ "$k" -lt "$jobs" ]; do
  out=$logdir/ct-check-$k.out
  rc=$(cat "$logdir/ct-check-$k.rc" 2>/dev/null || echo 99)
  grep '^ct: ' "$out" | grep -v '^ct: summary'
  if ! grep -q '^ct: summary' "$out"; then
    echo "ct: FAIL shard $k/$jobs did not finish (exit $rc; see $out)"
    extra=$((extra + 1))
    status=1
  elif [ "$rc" != 0 ]; then
    status=1
    if ! grep -q '^ct: FAIL' "$out"; then
      echo "ct: FAIL shard $k/$jobs: memcheck reports outside any path" \
           "(see $logdir/ct-check-$k.vg.log)"
      extra=$((extra + 1))
    fi
  fi
  k=$((k + 1))
done

all=$(cat "$logdir"/ct-check-*.out)
npass=$(printf '%s\n' "$all" | grep -c '^ct: PASS ')
nfail=$(printf '%s\n' "$all" | grep -c '^ct: FAIL ')
nnc=$(printf '%s\n' "$all" | grep -c '^ct: NOTCOVERED ')
nc=$(printf '%s\n' "$all" | sed -n 's/^ct: NOTCOVERED \(.*\)/\1/p' \
     | sed 's/: \(.*\)/ (\1)/' | paste -sd, - | sed 's/,/, /g')
echo "ct: $((npass + nfail)) paths checked, $nnc not covered${nc:+: $nc}"
echo "ct: $npass passed, $((nfail + extra)) failed"
if [ "$nfail" -ne 0 ] || [ "$status" -ne 0 ]; then
  for f in "$logdir"/ct-check-*.vg.log; do
    [ -s "$f" ] && echo "ct: memcheck reports in $f"
  done
  status=1
fi
[ -n "$tracer" ] || exit "$status"

# 4. Trace equivalence for the paths memcheck did not pass.
printf '%s\n' "$all" | sed -n 's/^ct: PASS //p' >"$logdir/ct-valgrind-paths.txt"
run_shards ct-trace trace_shard
textra=0
k=0
while [ "$k" -lt "$jobs" ]; do
  grep '^ct-trace: ' "$logdir/ct-trace-$k.out" | grep -v '^ct-trace: summary'
  if ! grep -q '^ct-trace: summary' "$logdir/ct-trace-$k.out"; then
    echo "ct-trace: FAIL shard $k/$jobs did not finish" \
         "(see $logdir/ct-trace-$k.out)"
    textra=$((textra + 1))
  fi
  k=$((k + 1))
done
sed -n 's/^ct: NOTCOVERED \([^:]*\): \(.*\)/ct-trace: SKIP \1 (\2)/p' \
  "$logdir/ct-trace-0.log"
tall=$(cat "$logdir"/ct-trace-*.out)
tpass=$(printf '%s\n' "$tall" | grep -c '^ct-trace: PASS ')
tfail=$(printf '%s\n' "$tall" | grep -c '^ct-trace: FAIL ')
tnotrun=$(printf '%s\n' "$tall" | grep -c '^ct-trace: NOTRUN ')
tskip=$(grep -c '^ct: NOTCOVERED ' "$logdir/ct-trace-0.log")
tsteps=$(printf '%s\n' "$tall" \
         | sed -n 's/^ct-trace: summary .* failed, \([0-9]*\) steps.*/\1/p' \
         | awk '{ s += $1 } END { print s + 0 }')
echo "ct-trace: $((tpass + tfail)) paths traced ($tsteps instructions" \
     "compared), $tnotrun not run (time budget), $tskip implementations" \
     "not on this CPU"
echo "ct-trace: $tpass passed, $((tfail + textra)) failed"

# 5. The ISA kernels' object code.
sh "$(dirname "$0")/ct-scan.sh" "$cipherdir" "$allow" \
  >"$logdir/ct-scan.out" 2>&1
srs=$?
cat "$logdir/ct-scan.out"

echo "ct: evidence: $npass paths by memcheck, $tpass by trace" \
     "equivalence, $((nfail + tfail)) failed; without evidence:" \
     "$tnotrun paths (NOTRUN lines), $tskip implementations this CPU" \
     "lacks (SKIP lines)"
if [ "$tfail" -ne 0 ] || [ "$textra" -ne 0 ] || [ "$srs" -ne 0 ]; then
  status=1
fi
exit "$status"
