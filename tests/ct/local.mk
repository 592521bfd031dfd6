# tests/ct/local.mk - included by tests/Makefile.am.
#
# `make check-ct`: every algorithm, mode and implementation path valgrind
# can run, under memcheck with the key, the plaintext and the received
# tag marked secret (tests/ct/ct-check.cpp); then, natively, every path
# valgrind could not run (VAES, VPCLMULQDQ, AVX-512, GFNI) by trace
# equivalence (tests/ct/ct-trace.cpp), and a scan of the ISA kernels'
# object code (tests/ct/ct-scan.sh).  doc/gcipher.md "Constant-time
# check".  Needs valgrind and its <valgrind/memcheck.h>, and objdump.
# Not part of `make check`: about two minutes on two cores.
EXTRA_PROGRAMS += ct/ct-check ct/ct-trace
ct_ct_check_SOURCES = ct/ct-check.cpp
ct_ct_check_LDADD = ../src/libgcipher-static.la $(GPG_ERROR_LIBS) -ldl -lpthread
ct_ct_trace_SOURCES = ct/ct-trace.cpp
EXTRA_DIST += ct/check-ct.sh ct/ct-scan.sh ct/scan-allow.txt ct/local.mk \
  ct/trace-verified.txt

check-ct: ct/ct-check$(EXEEXT) ct/ct-trace$(EXEEXT)
	$(SHELL) $(srcdir)/ct/check-ct.sh ./ct/ct-check$(EXEEXT) ct \
	  ./ct/ct-trace$(EXEEXT) $(top_builddir)/cipher $(srcdir)/ct/scan-allow.txt

.PHONY: check-ct
