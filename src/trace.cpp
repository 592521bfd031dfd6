/* trace.cpp - GCIPHER_TRACE, shared by the interposer (preload.cpp)
 * and both substitutes (visibility.cpp).
 *
 *   GCIPHER_TRACE=1      trace lines to stderr;
 *   GCIPHER_TRACE=/file  trace lines appended to that file (a relative
 *                        name is taken from the working directory at
 *                        the first trace line): each line is one open
 *                        (O_APPEND), one write(2) and one close, so
 *                        several processes may share the file, and a
 *                        program that closes or reuses file descriptors
 *                        (daemons close them all) never finds a trace
 *                        line in a file of its own.  Unset, empty or
 *                        "0": no trace.
 * The variable is read once per process.  The line formats are listed
 * in preload.cpp's header comment and in the manual (section 1.2).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "g10lib.h"
#include "../cipher/cipher-internal.h"

namespace {

pthread_once_t trace_once = PTHREAD_ONCE_INIT;
bool trace_enabled;
bool trace_stderr;
/* The trace file's absolute name.  A descriptor kept open would be
 * closed by a daemon's start-up and its number given to one of the
 * program's own files, which would then get the trace lines.  */
char trace_path[4096];

void
trace_init (void)
{
  const char *t = getenv ("GCIPHER_TRACE");
  if (!t || !*t || !strcmp (t, "0"))
    return;
  if (!strcmp (t, "1"))
    {
      trace_stderr = trace_enabled = true;
      return;
    }
  size_t len = strlen (t), dirlen = 0;
  if (t[0] != '/')
    {
      if (!getcwd (trace_path, sizeof trace_path - 1))
        return;
      dirlen = strlen (trace_path);
      trace_path[dirlen++] = '/';
    }
  if (dirlen + len >= sizeof trace_path)
    return;   /* No such file name: no trace.  */
  memcpy (trace_path + dirlen, t, len + 1);
  trace_enabled = true;
}

} // namespace

bool
_gcry_trace_on (void)
{
  pthread_once (&trace_once, trace_init);
  return trace_enabled;
}

void
_gcry_trace (const char *fmt, ...)
{
  if (!_gcry_trace_on ())
    return;
  char line[256];
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (line, sizeof line - 1, fmt, ap);
  va_end (ap);
  if (n < 0)
    return;
  if ((size_t) n > sizeof line - 2)
    n = sizeof line - 2;
  line[n++] = '\n';
  const int saved_errno = errno;   /* The caller's, untouched.  */
  int fd = trace_stderr
           ? STDERR_FILENO
           : open (trace_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      errno = saved_errno;
      return;
    }
  ssize_t w;
  do
    w = write (fd, line, (size_t) n);
  while (w < 0 && errno == EINTR);
  if (fd != STDERR_FILENO)
    close (fd);
  errno = saved_errno;
}

void
_gcry_trace_setkey (gcry_cipher_hd_t h, gcry_err_code_t ec)
{
  if (!h || !_gcry_trace_on ())
    return;
  const char *path = h->impl_name ? h->impl_name : "none";
  if (ec)
    _gcry_trace ("gcipher: setkey hd=%p path=%s err=%d",
                 static_cast<void *> (h), path, (int) ec);
  else
    _gcry_trace ("gcipher: setkey hd=%p path=%s", static_cast<void *> (h), path);
}

const char *
_gcry_trace_mode_name (int mode, char *buf, size_t buflen)
{
  static const char *const names[] = {
    "NONE", "ECB", "CFB", "CBC", "STREAM", "OFB", "CTR", "AESWRAP", "CCM",
    "GCM", "POLY1305", "OCB", "CFB8", "XTS", "EAX", "SIV", "GCM-SIV"
  };
  if (mode >= 0 && (size_t) mode < sizeof names / sizeof names[0])
    return names[mode];
  snprintf (buf, buflen, "%d", mode);
  return buf;
}
