# targets.sh - the cross targets of `make check-cross` (sourced by
# check-cross.sh and build-deps.sh, POSIX sh).
#
# cross_target ARCH sets, for ARCH (i686, riscv64 or aarch64):
#   cross_host     the --host triplet
#   cross_cc       C compiler command (may carry options)
#   cross_cxx      C++ compiler command
#   cross_ldflags  extra LDFLAGS (the linker choice)
#   cross_tools    programs that must exist (checked before building)
#   cross_cpus     the CPUs the suite runs on, blank-separated: "native"
#                  runs the binaries directly, anything else is a QEMU
#                  -cpu value
#   cross_qemu     the user-mode emulator ("" when none is needed)
#   cross_sysroot  the target's C library root (QEMU_LD_PREFIX)
#   cross_binfmt   the binfmt_misc name of the emulator ("" when none)
# and returns 1 for an unknown ARCH.

cross_targets_default="i686 riscv64 aarch64"

# RISC-V CPUs: no vector unit (generic paths only); V with VLEN 128; V
# plus the vector crypto extensions at VLEN 128, 256 and 1024.  QEMU 10's
# rv64 CPU has V on by default, hence the explicit v=false.
riscv_vcrypto="zvkned=true,zvkg=true,zvkb=true,zvbc=true"
riscv_cpus_default="rv64,v=false
rv64,v=true,vlen=128
rv64,v=true,vlen=128,$riscv_vcrypto
rv64,v=true,vlen=256,$riscv_vcrypto
rv64,v=true,vlen=1024,$riscv_vcrypto"

# arm64 CPUs.  Every aarch64 model of QEMU 10 (cortex-a35 ... max) has
# FEAT_AES and FEAT_PMULL and none has a property to turn them off, so the
# CPU "without the crypto extensions" is a Cortex-A53 (ARMv8.0: NEON,
# AES, PMULL, SHA1, SHA2) with those features taken away through
# gcipher's disable list: "CPU/hwf-off=NAME+NAME" runs QEMU with -cpu CPU
# and GCIPHER_DISABLE_HWF=NAME,NAME, so the library sees (and t-hwf
# checks) a NEON-only CPU and every AES and GHASH call takes the generic
# paths.  "max" has everything QEMU implements.  A "/tests=T+T" field
# runs only those suites on that CPU (CI time): on "max" t-aes and the
# other suites already force every path, generic ones included, so the
# no-crypto CPU runs the detection check and the suites whose default
# paths change there (t-aes's paths-against-generic tests, merged with
# its known answers, run there too, on the generic path alone).
arm64_nocrypto_tests="t-hwf+t-aes+t-aes-gcm+t-aes-gcm-siv+t-aes-xts-ocb+t-aes-macmodes+t-stream+t-serpent"
arm64_cpus_default="max
cortex-a53/hwf-off=arm-aes+arm-pmull+arm-sha1+arm-sha2/tests=$arm64_nocrypto_tests"

cross_target() {
  case "$1" in
    i686|i386)
      cross_host=i686-linux-gnu
      cross_cc=i686-linux-gnu-gcc
      cross_cxx=i686-linux-gnu-g++
      cross_ldflags=
      cross_tools="i686-linux-gnu-gcc i686-linux-gnu-g++"
      # The amd64 kernel runs i386 binaries itself (IA-32 emulation);
      # the loader and libraries are the biarch ones (libc6-i386,
      # lib32stdc++6: /lib/ld-linux.so.2, /usr/lib32).
      cross_cpus=native
      cross_qemu=
      cross_sysroot=/usr/i686-linux-gnu
      cross_binfmt=
      ;;
    riscv64)
      cross_host=riscv64-linux-gnu
      cross_cc="clang-19 --target=riscv64-linux-gnu"
      cross_cxx="clang++-19 --target=riscv64-linux-gnu"
      cross_ldflags=-fuse-ld=lld
      cross_tools="clang-19 clang++-19 ld.lld-19 riscv64-linux-gnu-ar qemu-riscv64"
      cross_cpus=${GCIPHER_CROSS_RISCV_CPUS:-$riscv_cpus_default}
      cross_qemu=qemu-riscv64
      cross_sysroot=/usr/riscv64-linux-gnu
      cross_binfmt=qemu-riscv64
      ;;
    aarch64|arm64)
      # clang-19 and lld-19 with Debian's arm64 cross C/C++ libraries,
      # as for riscv64 (one compiler for both QEMU targets).
      cross_host=aarch64-linux-gnu
      cross_cc="clang-19 --target=aarch64-linux-gnu"
      cross_cxx="clang++-19 --target=aarch64-linux-gnu"
      cross_ldflags=-fuse-ld=lld
      cross_tools="clang-19 clang++-19 ld.lld-19 aarch64-linux-gnu-ar qemu-aarch64"
      cross_cpus=${GCIPHER_CROSS_ARM64_CPUS:-$arm64_cpus_default}
      cross_qemu=qemu-aarch64
      cross_sysroot=/usr/aarch64-linux-gnu
      cross_binfmt=qemu-aarch64
      ;;
    *) return 1 ;;
  esac
  return 0
}

# Short name of a CPU for directory and log names: "rv64,v=true,vlen=256,
# zvkned=true,..." -> "v256-zvk"; "rv64,v=false" -> "novec"; arm64:
# "max" -> "max", "cortex-a53/hwf-off=..." -> "a53-nocrypto".
cross_cpu_tag() {
  case "$1" in
    native) echo native ;;
    max|max/*) echo max ;;
    cortex-*) t=${1#cortex-}; t=${t%%/*}
      case "$1" in */hwf-off=*) t="$t-nocrypto" ;; esac
      echo "$t" ;;
    *v=false*) echo novec ;;
    *)
      vlen=$(printf '%s\n' "$1" | sed -n 's/.*vlen=\([0-9]*\).*/\1/p')
      tag="v${vlen:-128}"
      case "$1" in *zvk*) tag="$tag-zvk" ;; esac
      echo "$tag"
      ;;
  esac
}

# The QEMU -cpu value of a CPU entry ("cortex-a53/hwf-off=..." ->
# "cortex-a53") and the features it turns off, as a GCIPHER_DISABLE_HWF
# list ("arm-aes,arm-pmull,..."; empty when none).  Entries with a '/'
# must not contain blanks (the lists are split on white space).
cross_cpu_qemu() { printf '%s\n' "${1%%/*}"; }
# Field NAME of a CPU entry ("CPU/NAME=A+B/..."), with '+' turned into
# SEP; empty when absent.
cross_cpu_field() {
  printf '%s\n' "$1" | tr '/' '\n' | sed -n "s/^$2=//p" | head -1 | tr '+' "$3"
}
cross_cpu_hwf_off() { cross_cpu_field "$1" hwf-off ,; }
# The suites to run on that CPU (blank-separated; empty: all of them).
cross_cpu_tests() { cross_cpu_field "$1" tests ' '; }
