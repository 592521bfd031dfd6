#!/bin/sh
# check-ct.sh - `make check-ct`: tests/ct/ct-check under valgrind memcheck.
#
# Usage: check-ct.sh PROGRAM LOGDIR
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
#    and exits 1 if any path failed, memcheck reported anything (also
#    outside a path), or a shard did not finish.
set -u
prog=${1:?usage: check-ct.sh PROGRAM LOGDIR}
logdir=${2:?usage: check-ct.sh PROGRAM LOGDIR}
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

pids=
k=0
while [ "$k" -lt "$jobs" ]; do
  rm -f "$logdir/ct-check-$k.out" "$logdir/ct-check-$k.vg.log" \
        "$logdir/ct-check-$k.rc"
  ( "$valgrind" -q --tool=memcheck --error-exitcode=1 --track-origins=yes \
      --leak-check=no --num-callers=30 \
      --log-file="$logdir/ct-check-$k.vg.log" \
      "$prog" --host="$host" --shard="$k/$jobs" \
      >"$logdir/ct-check-$k.out" 2>&1
    echo $? >"$logdir/ct-check-$k.rc" ) &
  pids="$pids $!"
  k=$((k + 1))
done
wait $pids

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
  exit 1
fi
exit 0
