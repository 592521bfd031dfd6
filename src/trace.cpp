/* trace.cpp - GCIPHER_TRACE, shared by the interposer (preload.cpp)
 * and both substitutes (visibility.cpp).
 *
 *   GCIPHER_TRACE=1      trace lines to stderr;
 *   GCIPHER_TRACE=/file  trace lines appended to that file (O_APPEND, one
 *                        write(2) per line, so several processes may
 *                        share the file).  Unset, empty or "0": no trace.
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
int trace_fd = -1;

void
trace_init (void)
{
  const char *t = getenv ("GCIPHER_TRACE");
  if (t && *t && strcmp (t, "0") != 0)
    {
      if (!strcmp (t, "1"))
        trace_fd = STDERR_FILENO;
      else
        trace_fd = open (t, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    }
}

} // namespace

bool
_gcry_trace_on (void)
{
  pthread_once (&trace_once, trace_init);
  return trace_fd >= 0;
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
  ssize_t w;
  do
    w = write (trace_fd, line, (size_t) n);
  while (w < 0 && errno == EINTR);
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
