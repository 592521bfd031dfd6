/* bufhelp.h - byte-order loads and stores of unaligned buffers.
 *
 * buf_get_le32 (p) reads 4 bytes at P as a little-endian integer, and so
 * on; no alignment needed (memcpy), compiled to single loads and stores
 * (plus a byte swap for the other order) at -O2.
 */
#ifndef GCIPHER_BUFHELP_H
#define GCIPHER_BUFHELP_H

#include <stdint.h>
#include <string.h>

template <class T>
inline T
buf_get_native (const void *p)
{
  T v;
  memcpy (&v, p, sizeof v);
  return v;
}

template <class T>
inline void
buf_put_native (void *p, T v)
{
  memcpy (p, &v, sizeof v);
}

inline uint32_t
buf_get_le32 (const void *p)
{
  uint32_t v = buf_get_native<uint32_t> (p);
  return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? v : __builtin_bswap32 (v);
}

inline uint32_t
buf_get_be32 (const void *p)
{
  uint32_t v = buf_get_native<uint32_t> (p);
  return __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? v : __builtin_bswap32 (v);
}

inline uint64_t
buf_get_le64 (const void *p)
{
  uint64_t v = buf_get_native<uint64_t> (p);
  return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? v : __builtin_bswap64 (v);
}

inline void
buf_put_le32 (void *p, uint32_t v)
{
  buf_put_native (p, __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                     ? v : __builtin_bswap32 (v));
}

inline void
buf_put_be32 (void *p, uint32_t v)
{
  buf_put_native (p, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
                     ? v : __builtin_bswap32 (v));
}

inline void
buf_put_le64 (void *p, uint64_t v)
{
  buf_put_native (p, __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                     ? v : __builtin_bswap64 (v));
}

#endif /* GCIPHER_BUFHELP_H */
