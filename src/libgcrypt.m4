# libgcrypt.m4 - AM_PATH_LIBGCRYPT for building against gcipher.
#
# gcipher's own implementation of the documented interface of
# libgcrypt's macro, installed privately (in $(datadir)/gcipher/aclocal,
# never in the system aclocal directory that libgcrypt20-dev owns).
# Use it with `aclocal -I <datadir>/gcipher/aclocal`.
#
# AM_PATH_LIBGCRYPT([MINIMUM-VERSION], [ACTION-IF-FOUND],
#                   [ACTION-IF-NOT-FOUND])
#
# Runs libgcrypt-config and, when the library is recent enough, sets and
# substitutes LIBGCRYPT_CFLAGS and LIBGCRYPT_LIBS, then runs
# ACTION-IF-FOUND; otherwise empties them and runs ACTION-IF-NOT-FOUND
# (default: an error).  MINIMUM-VERSION is "X.Y.Z" or, as libgcrypt
# allows, "API:X.Y.Z" where API is the required --api-version.
#
# Which libgcrypt-config: $LIBGCRYPT_CONFIG when set; else
# PFX/bin/libgcrypt-config for --with-libgcrypt-prefix=PFX (for gcipher
# PFX is its private library directory, e.g.
# /usr/lib/x86_64-linux-gnu/gcipher); else the first libgcrypt-config
# on PATH (the system libgcrypt's, if any).

AC_DEFUN([AM_PATH_LIBGCRYPT],
[AC_ARG_WITH([libgcrypt-prefix],
  [AS_HELP_STRING([--with-libgcrypt-prefix=PFX],
                  [use PFX/bin/libgcrypt-config (for gcipher: its private libdir)])],
  [gcipher_lg_prefix=$withval], [gcipher_lg_prefix=])
AC_ARG_VAR([LIBGCRYPT_CONFIG], [path of the libgcrypt-config script to use])
if test -z "$LIBGCRYPT_CONFIG"; then
  if test -n "$gcipher_lg_prefix" && test "$gcipher_lg_prefix" != yes &&
     test "$gcipher_lg_prefix" != no; then
    LIBGCRYPT_CONFIG=$gcipher_lg_prefix/bin/libgcrypt-config
  else
    AC_PATH_TOOL([LIBGCRYPT_CONFIG], [libgcrypt-config], [no])
  fi
fi

# Split "API:X.Y.Z" into the API number and the version.
gcipher_lg_want=m4_default([$1], [0.0.0])
gcipher_lg_want_api=
case $gcipher_lg_want in
  *:*) gcipher_lg_want_api=${gcipher_lg_want%%:*}
       gcipher_lg_want=${gcipher_lg_want#*:} ;;
esac

AC_MSG_CHECKING([for libgcrypt >= $gcipher_lg_want])
gcipher_lg_ok=no
gcipher_lg_have=
if test "$LIBGCRYPT_CONFIG" != no && test -x "$LIBGCRYPT_CONFIG"; then
  gcipher_lg_have=`$LIBGCRYPT_CONFIG --version 2>/dev/null`
  # Compare X.Y.Z numerically, field by field (a missing field is 0;
  # a suffix such as "-beta" is ignored).
  gcipher_lg_ok=`echo "$gcipher_lg_have $gcipher_lg_want" | awk '{
      n = split($[]1, h, "."); m = split($[]2, w, ".")
      for (i = 1; i <= 3; i++) {
        a = (i <= n) ? h[[i]] + 0 : 0; b = (i <= m) ? w[[i]] + 0 : 0
        if (a > b) { print "yes"; exit }
        if (a < b) { print "no"; exit }
      }
      print "yes" }'`
  if test "$gcipher_lg_ok" = yes && test -n "$gcipher_lg_want_api"; then
    gcipher_lg_api=`$LIBGCRYPT_CONFIG --api-version 2>/dev/null`
    test "$gcipher_lg_api" = "$gcipher_lg_want_api" || gcipher_lg_ok=no
  fi
fi
if test "$gcipher_lg_ok" = yes; then
  AC_MSG_RESULT([yes ($gcipher_lg_have)])
  LIBGCRYPT_CFLAGS=`$LIBGCRYPT_CONFIG --cflags`
  LIBGCRYPT_LIBS=`$LIBGCRYPT_CONFIG --libs`
  # A library built for another system than the one configured for is
  # most likely a mistake; say so, but let the caller decide.
  gcipher_lg_host=`$LIBGCRYPT_CONFIG --host 2>/dev/null`
  if test -n "$gcipher_lg_host" && test -n "$host" &&
     test "$gcipher_lg_host" != "$host"; then
    AC_MSG_WARN([$LIBGCRYPT_CONFIG is for $gcipher_lg_host, not $host])
  fi
  m4_default([$2], [:])
else
  if test -z "$gcipher_lg_have"; then
    AC_MSG_RESULT([no (no usable libgcrypt-config: $LIBGCRYPT_CONFIG)])
  else
    AC_MSG_RESULT([no (found $gcipher_lg_have)])
  fi
  LIBGCRYPT_CFLAGS=
  LIBGCRYPT_LIBS=
  m4_default([$3],
    [AC_MSG_ERROR([libgcrypt $1 or later not found; set LIBGCRYPT_CONFIG or use --with-libgcrypt-prefix])])
fi
AC_SUBST([LIBGCRYPT_CFLAGS])
AC_SUBST([LIBGCRYPT_LIBS])
])
