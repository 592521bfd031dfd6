# GCIPHER_ISA_FLAGS(NAME, FLAGS)
# One ISA flag set of the kernels: fail configure unless the C++
# compiler accepts FLAGS, and substitute them as ISA_NAME_CXXFLAGS for
# the Makefiles.  Every ISA file's convenience library takes its flags
# from one of these variables (cipher/Makefile.am), so the set a file is
# built with is named and checked in one place (configure.ac).
AC_DEFUN([GCIPHER_ISA_FLAGS],
[AX_CXX_FLAG_REQUIRE([$2])
 AC_SUBST([ISA_$1_CXXFLAGS], ["$2"])])
