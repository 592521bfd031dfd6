# tests/ct/local.mk - included by tests/Makefile.am.
#
# `make check-ct`: every algorithm, mode and implementation path valgrind
# can run, under memcheck with the key, the plaintext and the received
# tag marked secret (tests/ct/ct-check.cpp; doc/gcipher.md "Constant-time
# check").  Needs valgrind and its <valgrind/memcheck.h>.  Not part of
# `make check`: about half a minute on two cores.
EXTRA_PROGRAMS += ct/ct-check
ct_ct_check_SOURCES = ct/ct-check.cpp
ct_ct_check_LDADD = ../src/libgcipher-static.la $(GPG_ERROR_LIBS) -ldl -lpthread
EXTRA_DIST += ct/check-ct.sh ct/local.mk

check-ct: ct/ct-check$(EXEEXT)
	$(SHELL) $(srcdir)/ct/check-ct.sh ./ct/ct-check$(EXEEXT) ct

.PHONY: check-ct
