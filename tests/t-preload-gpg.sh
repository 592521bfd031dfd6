#!/bin/sh
# t-preload-gpg.sh - libgcipher-preload.so under a real client: gpg.
#
# What runs (all in a throw-away GNUPGHOME, mode 700):
#  1. gpg --symmetric --cipher-algo AES128|AES192|AES256 on files of 0 B,
#     1 B and 1 MiB (random), with the interposer preloaded in strict mode
#     (GCIPHER_STRICT=1: nothing forwarded), decrypted by a stock gpg and
#     compared; then the other way round (stock encrypts, preloaded
#     decrypts).  gpg 2.2 encrypts in CFB mode (with MDC); its S2K hashing
#     stays in the real libgcrypt, only gcry_cipher_* are interposed.
#     Each preloaded run traces to its own file (GCIPHER_TRACE=file); the
#     trace must show the AES handles opened by gcipher ("-> gcipher") and
#     keyed on a gcipher path (path=aesni, generic, ...), never
#     "forwarded" or "rejected".  The stock decryption's status line
#     DECRYPTION_INFO must name the requested algorithm.
#     Then, for 1 MiB: the generic path (GCIPHER_DISABLE_HWF=all, trace
#     must say path=generic); legacy packets without MDC (--rfc2440, CFB
#     with GCRY_CIPHER_ENABLE_SYNC); Twofish taken away from gcipher with
#     GCIPHER_FORWARD=TWOFISH (gcipher implements every libgcrypt cipher,
#     so that is how the forwarding path is reached): round trip through
#     the real libgcrypt without strict mode, and a clean refusal (gpg
#     error exit, no crash) in strict mode.
#  2. With the helper t-preload-helper (built by make check): the same
#     fixed AES encryptions, stock vs strict preload (must agree wherever
#     gcipher serves the mode); Twofish-CBC and Camellia128-CBC, taken
#     away with GCIPHER_FORWARD, forwarded without strict mode (must
#     agree with stock, trace "-> forwarded"), refused in strict mode
#     (GPG_ERR_CIPHER_ALGO, name "?"), and GPG_ERR_NOT_IMPLEMENTED when no
#     real libgcrypt is in the process; and the AES cases again through
#     the full substitute (src/full/.libs/libgcrypt.so.20 preloaded):
#     equal to stock, every handle traced "-> gcipher".
#
# gpg-agent: gpg runs it as a separate daemon.  The agent is started here
# first, WITHOUT the preload (gpgconf --launch from a clean environment),
# and every preloaded gpg runs with --no-autostart, so LD_PRELOAD reaches
# gpg only.  Reason: the agent's own cipher use (AES key wrap for its
# passphrase cache, OCB for key protection) is not what this test is
# about, and under strict mode a mode gcipher lacks would break the agent
# and show up as a confusing gpg failure; keeping the agent stock also
# means the symmetric data path we compare is gpg's alone.  The script
# checks the running agent's environment has no LD_PRELOAD.
#
# Environment: top_builddir (default ..), GPG (default /usr/bin/gpg),
# SYSTEM_LIBGCRYPT (for part 2; default: the one gpg uses),
# GCIPHER_PRELOAD_LIB (another interposer build to test).
# Runtime: about a second.
# Exit: 0 pass, 1 fail, 77 skip (no gpg).

: "${top_builddir:=..}"
GPG=${GPG:-/usr/bin/gpg}
PRELOAD=${GCIPHER_PRELOAD_LIB:-$top_builddir/src/.libs/libgcipher-preload.so}
HELPER=$top_builddir/tests/t-preload-helper
PASS='gcipher-t-preload pass phrase'
me=t-preload-gpg

if [ ! -x "$GPG" ]; then
  echo "$me: SKIP: $GPG not found"
  exit 77
fi
GPGCONF=$(dirname "$GPG")/gpgconf
[ -x "$GPGCONF" ] || GPGCONF=gpgconf
GPGCA=$(dirname "$GPG")/gpg-connect-agent
[ -x "$GPGCA" ] || GPGCA=gpg-connect-agent
if [ ! -f "$PRELOAD" ]; then
  echo "$me: FAIL: $PRELOAD not built"
  exit 1
fi
case $PRELOAD in /*) ;; *) PRELOAD=$(cd "$(dirname "$PRELOAD")" && pwd)/$(basename "$PRELOAD") ;; esac

# Never inherit a preload or gcipher settings from the caller.
unset LD_PRELOAD GCIPHER_STRICT GCIPHER_TRACE GCIPHER_FORWARD

tmp=$(mktemp -d "${TMPDIR:-/tmp}/t-preload-gpg.XXXXXX") || exit 1
GNUPGHOME=$tmp/h
export GNUPGHOME
mkdir "$GNUPGHOME" && chmod 700 "$GNUPGHOME" || exit 1

# shellcheck disable=SC2317  # called from the EXIT trap
cleanup () {
  GNUPGHOME=$tmp/h "$GPGCONF" --kill all >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

fails=0
fail () {
  echo "$me: FAIL: $*"
  fails=$((fails + 1))
}

# Common gpg options: non-interactive, passphrase on the command line via
# loopback, no symmetric-key cache in the agent, cheap S2K, no
# compression (the cipher sees the data as is), never start an agent.
gpg_opts="--batch --yes --quiet --no-tty --no-autostart --no-symkey-cache
  --pinentry-mode loopback --s2k-count 65536 --compress-algo none"

# Start the agent stock (see the header) and remember its pid.
env -u LD_PRELOAD "$GPGCONF" --launch gpg-agent >/dev/null 2>&1
agent_pid=$("$GPGCA" --no-autostart 'getinfo pid' /bye 2>/dev/null \
            | sed -n 's/^D \([0-9][0-9]*\).*/\1/p')
if [ -z "$agent_pid" ]; then
  fail "could not start gpg-agent in $GNUPGHOME"
  exit 1
fi

# stock_gpg ARGS...  /  pre_gpg TRACEFILE ARGS...
# Per-case knobs: XOPTS (extra gpg options for both sides), PRE_ENV (extra
# environment for the preloaded gpg, e.g. GCIPHER_DISABLE_HWF=all), STRICT.
XOPTS='' PRE_ENV='' STRICT=1
stock_gpg () {
  # shellcheck disable=SC2086
  "$GPG" $gpg_opts $XOPTS --passphrase "$PASS" "$@"
}
pre_gpg () {
  trace=$1; shift
  # shellcheck disable=SC2086
  env $PRE_ENV LD_PRELOAD="$PRELOAD" GCIPHER_STRICT=$STRICT \
    GCIPHER_TRACE="$trace" "$GPG" $gpg_opts $XOPTS --passphrase "$PASS" "$@"
}

# check_trace FILE ALGONAME [PATH]: the AES handle(s) opened by gcipher in
# CFB and keyed on a gcipher path (PATH if given), nothing forwarded.
paths_seen=
check_trace () {
  if [ ! -s "$1" ]; then
    fail "$2: empty trace $1 (preload not active?)"
    return
  fi
  if grep -q -e '-> forwarded' -e '-> rejected' -e 'path=forwarded' \
       -e 'path=none' -e ' err=' "$1"; then
    fail "$2: trace shows forwarding or errors:"; sed 's/^/  /' "$1"
  fi
  grep -q "open hd=.* algo=$2 mode=CFB -> gcipher" "$1" \
    || { fail "$2: no '$2 CFB -> gcipher' open in trace"; sed 's/^/  /' "$1"; }
  p=$(sed -n 's/^gcipher: setkey hd=[^ ]* path=\([^ ]*\)$/\1/p' "$1" \
      | grep -v -x -e forwarded -e none | sort -u)
  if [ -z "$p" ]; then
    fail "$2: no setkey with a gcipher path in trace"
  elif [ -n "${3:-}" ] && [ "$p" != "$3" ]; then
    fail "$2: expected path=$3, trace has: $p"
  fi
  for x in $p; do
    case " $paths_seen " in *" $x "*) ;; *) paths_seen="$paths_seen $x" ;; esac
  done
}

# roundtrip LABEL ALGO NUM TRACENAME FILE [PATH]: preloaded encrypts /
# stock decrypts, then stock encrypts / preloaded decrypts; outputs must
# equal FILE, the traces must pass check_trace.  Adds to $runs.
runs=0 total=0
roundtrip () {
  label=$1 algo=$2 num=$3 tname=$4 f=$5 want=${6:-}
  base=$d/$label.$algo.$(basename "$f")
  total=$((total + 2))
  # Preloaded encrypts, stock decrypts.
  if ! pre_gpg "$base.enc.trace" --symmetric --cipher-algo "$algo" \
         -o "$base.p.gpg" "$f" 2> "$base.p.err"; then
    fail "$label $algo $f: preloaded gpg --symmetric failed:"
    sed 's/^/  /' "$base.p.err"
  elif ! stock_gpg --status-file "$base.p.status" -d -o "$base.p.out" \
           "$base.p.gpg" 2> "$base.p.derr"; then
    fail "$label $algo $f: stock gpg could not decrypt preloaded output:"
    sed 's/^/  /' "$base.p.derr"
  elif ! cmp -s "$base.p.out" "$f"; then
    fail "$label $algo $f: preloaded encrypt -> stock decrypt differs from input"
  elif ! grep -q "DECRYPTION_INFO [0-9]* $num\b" "$base.p.status"; then
    fail "$label $algo $f: stock decrypt reports another algorithm:"
    grep DECRYPTION_INFO "$base.p.status"
  else
    runs=$((runs + 1))
  fi
  [ "$tname" = - ] || check_trace "$base.enc.trace" "$tname" "$want"

  # Stock encrypts, preloaded decrypts.
  if ! stock_gpg --symmetric --cipher-algo "$algo" -o "$base.s.gpg" \
         "$f" 2> "$base.s.err"; then
    fail "$label $algo $f: stock gpg --symmetric failed:"
    sed 's/^/  /' "$base.s.err"
  elif ! pre_gpg "$base.dec.trace" --status-file "$base.s.status" -d \
           -o "$base.s.out" "$base.s.gpg" 2> "$base.s.derr"; then
    fail "$label $algo $f: preloaded gpg could not decrypt stock output:"
    sed 's/^/  /' "$base.s.derr"
  elif ! cmp -s "$base.s.out" "$f"; then
    fail "$label $algo $f: stock encrypt -> preloaded decrypt differs from input"
  elif ! grep -q 'DECRYPTION_OKAY' "$base.s.status"; then
    fail "$label $algo $f: preloaded decrypt did not report DECRYPTION_OKAY"
  else
    runs=$((runs + 1))
  fi
  [ "$tname" = - ] || check_trace "$base.dec.trace" "$tname" "$want"
}

# ---- 1. gpg round trips -------------------------------------------------
d=$tmp/d
mkdir "$d"
: > "$d/f0"
head -c 1 /dev/urandom > "$d/f1"
head -c 1048576 /dev/urandom > "$d/f1m"

# 1a. The matrix, strict, gcipher's best path.
for algo in AES128 AES192 AES256; do
  case $algo in AES128) num=7 tname=AES ;; AES192) num=8 tname=AES192 ;;
                AES256) num=9 tname=AES256 ;; esac
  for f in f0 f1 f1m; do
    roundtrip m "$algo" "$num" "$tname" "$d/$f"
  done
done
main_runs=$runs main_total=$total

# 1b. The constant-time generic path (every hwf disabled), 1 MiB.
PRE_ENV=GCIPHER_DISABLE_HWF=all
roundtrip g AES256 9 AES256 "$d/f1m" generic
PRE_ENV=

# 1c. Legacy packets without MDC (--rfc2440): gpg then opens CFB with
#     GCRY_CIPHER_ENABLE_SYNC (OpenPGP CFB resync, RFC 4880 13.9).
XOPTS="--rfc2440 --ignore-mdc-error"
roundtrip r AES128 7 AES "$d/f1m"
XOPTS=

# 1d. Twofish taken away from gcipher (GCIPHER_FORWARD): forwarded to
#     the real libgcrypt without strict mode (round trip with stock),
#     refused cleanly in strict mode (gpg reports an invalid algorithm,
#     no crash).
PRE_ENV=GCIPHER_FORWARD=TWOFISH
STRICT=0
roundtrip f TWOFISH 10 - "$d/f1m"
STRICT=1
if ! grep -q 'algo=TWOFISH mode=CFB -> forwarded' "$d/f.TWOFISH.f1m.enc.trace" \
   || ! grep -q 'path=forwarded' "$d/f.TWOFISH.f1m.dec.trace"; then
  fail "TWOFISH: trace lacks the forwarded open/setkey"
fi
pre_gpg "$d/tw.strict.trace" --symmetric --cipher-algo TWOFISH \
  -o "$d/tw.strict.gpg" "$d/f1" 2> "$d/tw.strict.err"
rc=$?
PRE_ENV=
if [ $rc -eq 0 ] || [ $rc -gt 125 ]; then
  fail "TWOFISH strict: gpg should refuse cleanly, exit status $rc"
  sed 's/^/  /' "$d/tw.strict.err"
fi

# The agent must still be the one started stock, without the preload.
if [ -r "/proc/$agent_pid/environ" ]; then
  if tr '\0' '\n' < "/proc/$agent_pid/environ" | grep -q '^LD_PRELOAD='; then
    fail "gpg-agent ($agent_pid) runs with LD_PRELOAD"
  fi
  agent_note="agent $agent_pid stock"
else
  agent_note="agent environment not readable"
fi
now_pid=$("$GPGCA" --no-autostart 'getinfo pid' /bye 2>/dev/null \
          | sed -n 's/^D \([0-9][0-9]*\).*/\1/p')
[ "$now_pid" = "$agent_pid" ] || fail "gpg-agent changed ($agent_pid -> $now_pid)"

echo "$me: gpg $("$GPG" --version | sed -n '1s/.* //p'), strict preload:" \
     "$main_runs/$main_total AES round trips (AES128/192/256 x 0B/1B/1MiB x" \
     "preload-enc/stock-dec + stock-enc/preload-dec); all: $runs/$total incl." \
     "generic path (hwf off), --rfc2440 CFB resync, TWOFISH forwarded (non-strict);" \
     "TWOFISH strict refused (gpg exit $rc); gcipher paths:${paths_seen:- none};" \
     "$agent_note"

# ---- 2. helper: AES agreement, forwarding, strict refusal ---------------
if [ ! -x "$HELPER" ]; then
  echo "$me: note: $HELPER not built (make -C tests t-preload-helper); part 2 skipped"
else
  SYSLIB=${SYSTEM_LIBGCRYPT:-}
  if [ -z "$SYSLIB" ] || [ ! -f "$SYSLIB" ]; then
    SYSLIB=$(ldd "$GPG" | sed -n 's/.*libgcrypt\.so\.20 => \([^ ]*\).*/\1/p')
  fi
  h_stock () { LD_PRELOAD=$SYSLIB "$HELPER" "$@"; }
  h_pre () { LD_PRELOAD="$PRELOAD $SYSLIB" "$HELPER" "$@"; }
  h_fwd () {
    GCIPHER_FORWARD=TWOFISH,CAMELLIA128 LD_PRELOAD="$PRELOAD $SYSLIB" \
      "$HELPER" "$@"
  }

  served=0 notserved=
  for algo in 7 8 9; do
    for mode in 1 2 3 5 6; do
      s=$(h_stock $algo $mode)
      p=$(GCIPHER_STRICT=1 h_pre $algo $mode)
      case $p in
        *" open=0 "*)
          if [ "$s" = "$p" ]; then served=$((served + 1))
          else fail "AES algo=$algo mode=$mode differs: stock [$s] preload [$p]"; fi ;;
        *) notserved="$notserved $algo/$mode" ;;
      esac
    done
  done
  # CFB is what gpg needs; the helper must agree on it at least.
  case " $notserved " in *" 7/2 "*|*" 8/2 "*|*" 9/2 "*)
    fail "strict preload does not serve AES CFB:$notserved" ;; esac

  # The same through the full substitute (LD_PRELOAD of gcipher's full
  # libgcrypt.so.20, which loads the system libgcrypt itself): every AES
  # case equal to stock, every handle opened by gcipher.
  FULL=$top_builddir/src/full/.libs/libgcrypt.so.20
  full_note=
  if [ -f "$FULL" ]; then
    full_ok=0
    rm -f "$tmp/full.trace"
    for algo in 7 8 9; do
      for mode in 1 2 3 5 6; do
        s=$(h_stock $algo $mode)
        f=$(GCIPHER_TRACE=$tmp/full.trace LD_PRELOAD=$FULL "$HELPER" $algo $mode)
        if [ "$s" = "$f" ]; then full_ok=$((full_ok + 1))
        else fail "full substitute: AES algo=$algo mode=$mode differs: stock [$s] gcipher [$f]"; fi
      done
    done
    n_open=$(grep -c -- '-> gcipher$' "$tmp/full.trace" 2>/dev/null)
    [ "${n_open:-0}" -ge 15 ] ||
      fail "full substitute: ${n_open:-0} of 15 handles traced as opened by gcipher"
    full_note="; full substitute: $full_ok/15 AES cases equal to stock, ${n_open:-0} handles traced -> gcipher"
  fi

  for algo in 10:TWOFISH 310:CAMELLIA128; do
    num=${algo%%:*} name=${algo#*:}
    s=$(h_stock "$num" 3)
    p=$(GCIPHER_TRACE=$tmp/fwd.trace h_fwd "$num" 3)
    case $s in *" open=0 "*" rt=ok") ;; *) fail "$name: stock helper failed: $s" ;; esac
    [ "$s" = "$p" ] || fail "$name forwarded differs: stock [$s] preload [$p]"
    grep -q "algo=$name mode=CBC -> forwarded" "$tmp/fwd.trace" \
      || fail "$name: trace lacks '-> forwarded'"
    grep -q "path=forwarded" "$tmp/fwd.trace" \
      || fail "$name: trace lacks 'path=forwarded'"
    rm -f "$tmp/fwd.trace"
    p=$(GCIPHER_STRICT=1 h_fwd "$num" 3)
    case $p in "name=? keylen=0 blklen=0 map=0 test=12 open=12") ;;
      *) fail "$name strict: expected clean refusal, got [$p]" ;; esac
    p=$(GCIPHER_FORWARD=TWOFISH,CAMELLIA128 LD_PRELOAD=$PRELOAD "$HELPER" "$num" 3)
    case $p in *" open=69") ;;
      *) fail "$name without real libgcrypt: expected open=69, got [$p]" ;; esac
  done
  echo "$me: helper: AES modes served in strict mode and equal to stock: $served/15" \
       "(not served:${notserved:- none}); TWOFISH/CAMELLIA128-CBC (GCIPHER_FORWARD) forwarded = stock," \
       "strict -> GPG_ERR_CIPHER_ALGO, no libgcrypt -> GPG_ERR_NOT_IMPLEMENTED$full_note"
fi

if [ "$fails" -ne 0 ]; then
  echo "$me: $fails failure(s)"
  exit 1
fi
echo "$me: PASS"
exit 0
