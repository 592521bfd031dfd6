#!/bin/sh
# ct-scan.sh - scan the x86 ISA kernels' object code for instructions
# that carry vector data into general registers, flags or addresses.
#
# Usage: ct-scan.sh CIPHERDIR ALLOWLIST
#
# The ISA kernels (cipher/Makefile.am builds each into its own libtool
# convenience library, compiled with that ISA's flags: the objects
# cipher/.libs/lib<name>_la-<file>.o) keep the secret state in vector
# registers.  A secret leaks to timing only when
# it reaches a branch or a memory address, and from a vector register
# that needs one of these instructions first (AT&T syntax, as objdump
# prints it):
#   to a general register:  (v)movd / (v)movq / (v)pextr* / (v)extractps
#                           to %r.. or %e.., (v)pmovmskb, (v)movmskp*,
#                           kmov* to %r.. or %e.., vcvt*2si
#   to the flags:           (v)ptest, vtestp*, kortest*, ktest*,
#                           (u)comis*, pcmp[ei]str*
#   to an address:          gathers and scatters (a vector index)
#   variable latency:       div / idiv (on general registers)
# Each one found is printed with its function; it passes only if
# ALLOWLIST has a line "OBJECT-GLOB FUNCTION-SUBSTRING MNEMONIC
# justification" that matches it (# comments), and then it is listed
# with the justification.  Output:
#   ct-scan: PASS <object> (<n> instructions, none of the kinds above)
#   ct-scan: NOTE <object>: <function>: <insn> (<justification>)
#   ct-scan: FAIL <object>: <function>: <insn>: no justification
#   ct-scan: P passed, F failed
set -u
dir=${1:?usage: ct-scan.sh CIPHERDIR ALLOWLIST}
allow=${2:?usage: ct-scan.sh CIPHERDIR ALLOWLIST}
if ! command -v objdump >/dev/null 2>&1; then
  echo "ct-scan: FAIL objdump not found (install binutils)"
  echo "ct-scan: 0 passed, 1 failed"
  exit 1
fi
case $(uname -m) in
  x86_64|i?86) ;;
  *) echo "ct-scan: 0 passed, 0 failed (x86 kernels only)"; exit 0 ;;
esac

objs=$(ls "$dir"/.libs/lib*_la-*.o 2>/dev/null | sort)
if [ -z "$objs" ]; then
  echo "ct-scan: FAIL no ISA kernel objects in $dir/.libs (build first)"
  echo "ct-scan: 0 passed, 1 failed"
  exit 1
fi

npass=0
nfail=0
for o in $objs; do
  base=$(basename "$o")
  # One line per suspicious instruction: "function<TAB>mnemonic operands".
  # Per function: a vmovd / vmovq from %xmmN is a spill reload when the
  # function also moves a general register into %xmmN.
  hits=$(objdump -d --no-show-raw-insn -w "$o" | awk '
    function flush(   i, x) {
      for (i = 1; i <= nh; i++) {
        x = hx[i]
        if (x != "" && (x in spilled)) nspill++
        else print f "\t" hl[i]
      }
      nh = 0; split("", spilled)
    }
    /^[0-9a-f]+ <.*>:$/ { flush(); f = $2; gsub(/[<>:]/, "", f); next }
    /^ *[0-9a-f]+:\t/ {
      sub(/^ *[0-9a-f]+:\t/, ""); n++
      m = $1; ops = $2
      gpr = (ops ~ /,%(r[a-z0-9]+|e[a-z]+)$/)
      if (m ~ /^v?mov[dq]$/ && ops ~ /^%(r[a-z0-9]+|e[a-z]+),%xmm[0-9]+$/) {
        x = ops; sub(/^.*,/, "", x); spilled[x] = 1
      }
      if ((m ~ /^v?mov[dq]$/ && gpr) || (m ~ /^v?pextr[bwdq]$/ && gpr) \
          || (m ~ /^v?extractps$/ && gpr) || m ~ /^v?pmovmskb$/ \
          || m ~ /^v?movmskp[sd]$/ || (m ~ /^kmov[bwdq]$/ && gpr) \
          || m ~ /^vcvt.*2u?si$/ || m ~ /^v?ptest$/ || m ~ /^vtestp[sd]$/ \
          || m ~ /^kortest[bwdq]$/ || m ~ /^ktest[bwdq]$/ \
          || m ~ /^v?u?comis[sd]$/ || m ~ /^v?pcmp[ei]str[im]$/ \
          || m ~ /gather|scatter/ || m ~ /^i?div[bwlq]?$/) {
        x = ""
        if (m ~ /^v?mov[dq]$/ && ops ~ /^%xmm[0-9]+,/) {
          x = ops; sub(/,.*$/, "", x)
        }
        nh++; hl[nh] = m " " ops; hx[nh] = x
      }
    }
    END { flush(); print "#count\t" n + 0; print "#spill\t" nspill + 0 }')
  count=$(printf '%s\n' "$hits" | sed -n 's/^#count\t//p')
  nspill=$(printf '%s\n' "$hits" | sed -n 's/^#spill\t//p')
  bad=0
  notes=
  while IFS='	' read -r func insn; do
    case $func in "#"*) continue ;; esac
    [ -n "$func" ] || continue
    mn=${insn%% *}
    why=$(awk -v o="$base" -v f="$func" -v m="$mn" '
      /^#/ || NF < 4 { next }
      {
        glob = $1; gsub(/\./, "\\.", glob); gsub(/\*/, ".*", glob)
        if (o ~ ("^" glob "$") && index(f, $2) && m == $3) {
          $1 = $2 = $3 = ""; sub(/^ +/, ""); print; exit
        }
      }' "$allow")
    if [ -n "$why" ]; then
      notes="${notes}ct-scan: NOTE $base: $func: $insn ($why)
"
    else
      echo "ct-scan: FAIL $base: $func: $insn: no justification in $allow"
      bad=$((bad + 1))
    fi
  done <<EOF
$hits
EOF
  printf '%s' "$notes" | sort -u
  [ "${nspill:-0}" -eq 0 ] \
    || echo "ct-scan: NOTE $base: $nspill vmovd/vmovq reloads of general" \
            "registers the compiler spilled to vector registers"
  if [ "$bad" -eq 0 ]; then
    npass=$((npass + 1))
    if [ -z "$notes" ]; then
      echo "ct-scan: PASS $base ($count instructions, none of the kinds above)"
    else
      echo "ct-scan: PASS $base ($count instructions, the ones above justified)"
    fi
  else
    nfail=$((nfail + 1))
  fi
done
echo "ct-scan: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
