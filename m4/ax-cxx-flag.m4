# AX_CXX_FLAG_REQUIRE(FLAGS)
# Fail configure unless the C++ compiler accepts FLAGS (gcipher's own
# macro: the house flags and the ISA flags of the kernels must work).
AC_DEFUN([AX_CXX_FLAG_REQUIRE],
[AC_LANG_PUSH([C++])
 AC_MSG_CHECKING([whether $CXX accepts $1])
 gcipher_save_CXXFLAGS="$CXXFLAGS"
 CXXFLAGS="$CXXFLAGS $1"
 AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
   [AC_MSG_RESULT([yes])],
   [AC_MSG_RESULT([no]); AC_MSG_ERROR([$CXX does not accept $1])])
 CXXFLAGS="$gcipher_save_CXXFLAGS"
 AC_LANG_POP([C++])])
