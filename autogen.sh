#!/bin/sh
# autogen.sh - generate configure and the Makefile.in files.
set -e
cd "$(dirname "$0")"
mkdir -p build-aux m4
autoreconf --force --install --verbose >/dev/null 2>&1 || autoreconf --force --install --verbose
echo "Now run ./configure && make && make check"
