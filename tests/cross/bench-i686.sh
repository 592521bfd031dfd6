#!/bin/sh
# bench-i686.sh - gcipher's i686 build against libgcrypt master built for
# i686, side by side in one process (tests/bench-compare), per host class.
# Not part of `make check`; doc/benchmarks.md ("i686 against libgcrypt
# master") has a run's figures.
#
# Usage: bench-i686.sh [I686-BUILDDIR [OUTDIR]]
#   I686-BUILDDIR  a configured i686 build of gcipher (default
#                  cross/i686/build, what `make check-cross` leaves)
#   OUTDIR         where the CSV files go (default ./bench-i686)
# Environment:
#   PEER_PREFIX    the i686 libgcrypt master + libgpg-error prefix (default
#                  /tmp/peer-i686), built with build-peer.sh when missing
#   PEERS_DIR      the folder with build-peer.sh (default
#                  <srcdir>/../shared/peers)
#   BENCH_ARGS     bench-compare arguments (default: 64 B, 1 KiB, 16 KiB;
#                  15 rounds; AES-128/192/256, ChaCha20, Serpent-128)
# The system libgcrypt is left out: there is no i386 one on the host.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-cross/i686/build}
out=${2:-bench-i686}
peer=${PEER_PREFIX:-/tmp/peer-i686}
peers_dir=${PEERS_DIR:-$here/../../../shared/peers}
args=${BENCH_ARGS:---sizes 64,1k,16k --rounds 15 aes aes192 aes256 chacha20 serpent128}

if [ ! -f "$peer/lib/libgcrypt.so.20" ]; then
  sh "$peers_dir/build-peer.sh" "$peer" --host=i686-linux-gnu \
    CC=i686-linux-gnu-gcc
fi
make -C "$build/tests" -s bench-compare
mkdir -p "$out"
# Host classes: every feature; no VAES; no AVX-512; neither (the names
# go to gcipher and to libgcrypt, which know the same ones).
for class in all intel-vaes-vpclmul intel-avx512 \
             intel-vaes-vpclmul,intel-avx512; do
  off=
  case $class in
    all) name=all ;;
    *) name=no-$(echo "$class" | tr ',' '+')
       for h in $(echo "$class" | tr ',' ' '); do off="$off --disable-hwf $h"; done ;;
  esac
  echo "bench-i686: $name"
  # shellcheck disable=SC2086
  "$build/tests/bench-compare" --csv $off --libgcrypt "$peer/lib/libgcrypt.so.20" \
    $args >"$out/$name.csv"
done
echo "bench-i686: results in $out"
