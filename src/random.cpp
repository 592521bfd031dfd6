/* random.cpp - random bytes from the kernel (getrandom(2)).
 *
 * gcipher has no generator of its own: every level (weak, strong, very
 * strong) and every nonce is read from the kernel's CSPRNG with
 * getrandom(2), flags 0, which blocks only until the kernel pool is
 * first initialised.  Interrupted and short reads are continued; a
 * kernel that cannot deliver (ENOSYS, EFAULT, ...) is a fatal error,
 * because returning without the bytes would hand out predictable keys.
 */
#include <config.h>

#include <errno.h>
#include <unistd.h>
#ifdef HAVE_SYS_RANDOM_H
# include <sys/random.h>
#endif
#include <sys/syscall.h>

#include "g10lib.h"

namespace {

long
kernel_getrandom (void *buf, size_t len)
{
#ifdef HAVE_GETRANDOM
  return getrandom (buf, len, 0);
#elif defined(SYS_getrandom)
  return syscall (SYS_getrandom, buf, len, 0);
#else
  (void) buf;
  (void) len;
  errno = ENOSYS;
  return -1;
#endif
}

} // namespace

void
_gcry_randomize (void *buf, size_t len, int level)
{
  (void) level;   /* All levels come from the same kernel source.  */
  unsigned char *p = (unsigned char *) buf;
  while (len)
    {
      /* Reads above 32 MiB may be cut short; ask for at most that.  */
      size_t chunk = len > (1u << 25) ? (1u << 25) : len;
      long n = kernel_getrandom (p, chunk);
      if (n < 0)
        {
          if (errno == EINTR || errno == EAGAIN)
            continue;
          _gcry_fatal_error (gpg_err_code_from_errno (errno),
                             "getrandom() failed");
        }
      if (n == 0)
        _gcry_fatal_error (GPG_ERR_ENOENT, "getrandom() returned no data");
      p += n;
      len -= (size_t) n;
    }
}
