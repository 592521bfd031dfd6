/* cipher-impl.h - one implementation table per algorithm, one chooser.
 *
 * An algorithm (or a GHASH / Poly1305 back-end family) lists its paths in
 * ONE array of cipher_impl<Ops>, fastest first, ending with the generic
 * path, which needs no hwf bits.  Each entry carries its name (as the
 * trace, impl_name and the tests print it), the hwf bits it needs (all
 * of them) and OPS: what the algorithm needs of a path (a set-up or
 * fill function installing the bulk slots, per-path single-block
 * functions, a batch width for the self-test, ...).  An entry that
 * exists only on some targets is one #ifdef around one initialiser.
 *
 * cipher_impl_choose picks the first entry whose hwf bits are all in the
 * given mask (_gcry_get_hw_features (): detected, minus the disable
 * list, under the test mask); it runs at setkey only, so the data path
 * never sees the table.  cipher_impl_info_list gives the name/hwf view
 * cipher_spec::impls expects (built at compile time from the same
 * array, so the two cannot drift apart).
 */
#ifndef GCIPHER_CIPHER_IMPL_H
#define GCIPHER_CIPHER_IMPL_H

#include <stddef.h>
#include "cipher-internal.h"

/* One path: cipher_impl_info (name, hwf) and the algorithm's OPS.
 * Derived, so &table[i] is a cipher_impl_info pointer as well.  */
template <typename Ops>
struct cipher_impl : cipher_impl_info
{
  Ops ops;
};

/* True if all of the hwf bits NEED are in HWF.  */
inline constexpr bool
cipher_hwf_present (unsigned int need, unsigned int hwf)
{
  return (need & hwf) == need;
}

/* True if all of IMPL's hwf bits are in HWF.  */
inline constexpr bool
cipher_impl_usable (const cipher_impl_info &impl, unsigned int hwf)
{
  return cipher_hwf_present (impl.hwf, hwf);
}

/* Index of the first entry E of IMPLS whose hwf bits are all in HWF and
 * for which ALSO (E) holds (a CPU check beyond the hwf bits, e.g. an
 * instruction set without an hwf name); the last entry (generic, no hwf
 * bits) when none before it qualifies.  */
template <typename Ops, size_t N, typename Pred>
constexpr size_t
cipher_impl_choose (const cipher_impl<Ops> (&impls)[N], unsigned int hwf,
                    Pred also)
{
  static_assert (N > 0, "an implementation table ends with generic");
  for (size_t i = 0; i + 1 < N; i++)
    if (cipher_impl_usable (impls[i], hwf) && also (impls[i]))
      return i;
  return N - 1;
}

template <typename Ops, size_t N>
constexpr size_t
cipher_impl_choose (const cipher_impl<Ops> (&impls)[N], unsigned int hwf)
{
  return cipher_impl_choose (impls, hwf,
                             [] (const cipher_impl<Ops> &) { return true; });
}

/* The name/hwf view of a table, for cipher_spec::impls and the tests.  */
template <size_t N>
struct cipher_impl_infos
{
  cipher_impl_info v[N];
  static constexpr size_t n = N;
};

/* Called only when a table's last entry needs hwf bits: not constexpr,
 * so such a table fails to compile.  Never defined.  */
void cipher_impl_last_entry_needs_hwf ();

template <typename Ops, size_t N>
constexpr cipher_impl_infos<N>
cipher_impl_info_list (const cipher_impl<Ops> (&impls)[N])
{
  if (impls[N - 1].hwf != 0)
    cipher_impl_last_entry_needs_hwf ();
  cipher_impl_infos<N> r {};
  for (size_t i = 0; i < N; i++)
    r.v[i] = impls[i];
  return r;
}

#endif /* GCIPHER_CIPHER_IMPL_H */
