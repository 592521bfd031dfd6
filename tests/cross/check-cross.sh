#!/bin/sh
# check-cross.sh - build and test gcipher for the cross targets.
# No cross target is configured yet: the i386 build arrives with the wide
# AES issue and the RISC-V build (QEMU) with the RISC-V issue.
echo "check-cross: no cross targets configured yet (i386 and riscv64 pending)"
exit 0
