/* cipher-gcm-siv-intel-pclmul.cpp - POLYVAL (RFC 8452 3) with PCLMULQDQ,
 * in POLYVAL's own bit order (no byte reversal).
 *
 * Built with -mpclmul -msse4.1 in its own convenience library; used by
 * cipher-gcm-siv.cpp only when HWF_INTEL_PCLMUL is present.  Field,
 * reduction and key layout: cipher-gcm-siv-intel-pclmul.h.
 *
 * POLYVAL (H, X_1..X_n) = S_n with S_0 = 0, S_j = dot (S_{j-1} + X_j, H);
 * eight blocks per reduction: S' = dot (S + X_1, K_8) + dot (X_2, K_7) +
 * ... + dot (X_8, K_1), the products summed unreduced (Karatsuba, the
 * key halves' XOR precomputed) and reduced once.
 *
 * Constant time: no branch or index depends on the key or the data.
 * The xmm registers are cleared on return.
 */
#include <config.h>

#include <string.h>

#include "g10lib.h"
#include "cipher-gcm-siv.h"
#include "cipher-gcm-siv-intel-pclmul.h"
#include "frame-depth-x86.h"

namespace {

using namespace polyval_x86;

constexpr int POLYVAL_LANES = PCLMUL_LANES;
typedef pclmul_key polyval_pclmul_key;
static_assert (sizeof (polyval_pclmul_key) <= sizeof (gcm_ghash_key));

/* K_1..K_4 and their Karatsuba halves into the key area: K_2, then K_3
 * and K_4.  */
inline void
powers_low (polyval_pclmul_key *k, const unsigned char *h)
{
  V *p = k->k;
  p[0] = _mm_loadu_si128 (reinterpret_cast<const V *> (h));
  p[1] = dot (p[0], p[0]);
  p[2] = dot (p[1], p[0]);
  p[3] = dot (p[1], p[1]);
  for (int i = 0; i < 4; i++)
    k->kk[i] = halves (p[i]);
}

/* K_5..K_8 (and halves) from the K_1..K_4 in the key area.  */
inline void
powers_high (polyval_pclmul_key *k)
{
  static_assert (POLYVAL_LANES == 8);
  V *p = k->k;
  p[4] = dot (p[3], p[0]);
  p[5] = dot (p[3], p[1]);
  p[6] = dot (p[3], p[2]);
  p[7] = dot (p[3], p[3]);
  for (int i = 4; i < 8; i++)
    k->kk[i] = halves (p[i]);
}

/* i386 has 8 xmm registers: the powers spill.  */
#ifdef __x86_64__
constexpr unsigned int SETKEY_BURN = 0;    /* Everything in registers.  */
#else
constexpr unsigned int SETKEY_BURN = 256;
#endif

inline polyval_pclmul_key *
key_of (gcm_ghash_key *key)
{
  return reinterpret_cast<polyval_pclmul_key *> (key->bytes);
}

unsigned int
polyval_pclmul_setkey (gcm_ghash_key *key, const unsigned char *h)
{
  powers_low (key_of (key), h);
  powers_high (key_of (key));
  clear_xmm ();
  return SETKEY_BURN;
}

/* K_1..K_4 only, for update calls of at most four blocks: a message
 * with at most 64 bytes of AAD and 64 of text (its calls: the AAD, the
 * text, the length block) needs no more.  Half the products of setkey,
 * one fewer in the chain.  */
unsigned int
polyval_pclmul_setkey_short (gcm_ghash_key *key, const unsigned char *h)
{
  powers_low (key_of (key), h);
  clear_xmm ();
  return SETKEY_BURN;
}

/* The rest of setkey after setkey_short (a longer call came).  */
unsigned int
polyval_pclmul_extend (gcm_ghash_key *key)
{
  powers_high (key_of (key));
  clear_xmm ();
  return SETKEY_BURN;
}

/* S = dot (S + X_1, K_n) + dot (X_2, K_(n-1)) + ... + dot (X_n, K_1)
 * for N = 1..8 blocks at X.  */
template <int N>
inline V
fold (const polyval_pclmul_key *k, V s, const unsigned char *x)
{
  V lo = _mm_setzero_si128 (), mid = lo, hi = lo;
  _Pragma ("GCC unroll 8")
  for (int i = 1; i < N; i++)
    mul_acc (_mm_loadu_si128 (reinterpret_cast<const V *> (x + 16 * i)),
             k->k[N - 1 - i], k->kk[N - 1 - i], lo, mid, hi);
  mul_acc (_mm_xor_si128 (s, _mm_loadu_si128 (reinterpret_cast<const V *> (x))),
           k->k[N - 1], k->kk[N - 1], lo, mid, hi);
  return reduce (lo, mid, hi);
}

unsigned int
polyval_pclmul_update (const gcm_ghash_key *key, unsigned char *sp,
                       const unsigned char *x, size_t nblocks)
{
  const polyval_pclmul_key *k
    = reinterpret_cast<const polyval_pclmul_key *> (key->bytes);
  V s = _mm_loadu_si128 (reinterpret_cast<const V *> (sp));
  for (; nblocks >= POLYVAL_LANES; nblocks -= POLYVAL_LANES)
    {
      s = fold<POLYVAL_LANES> (k, s, x);
      x += 16 * POLYVAL_LANES;
    }
  /* The rest (a public count) in one fold.  */
  switch (nblocks)
    {
    case 7: s = fold<7> (k, s, x); break;
    case 6: s = fold<6> (k, s, x); break;
    case 5: s = fold<5> (k, s, x); break;
    case 4: s = fold<4> (k, s, x); break;
    case 3: s = fold<3> (k, s, x); break;
    case 2: s = fold<2> (k, s, x); break;
    case 1: s = fold<1> (k, s, x); break;
    default: break;
    }
  _mm_storeu_si128 (reinterpret_cast<V *> (sp), s);
  clear_xmm ();
  /* GCC 12 spills the eight-block fold's operands (text blocks and key
   * halves) into a 256-byte frame on x86-64 too, and a key power and
   * products 120 bytes into the red zone below it; t-hygiene's
   * StackBurnEveryPathEveryMode found the GCM-SIV plaintext there when
   * this said 0, and 256 + 8 words still missed the red zone.  */
  return FRAME_DEPTH_X86 ();
}

} // namespace

const polyval_ops _gcry_polyval_ops_pclmul
  = { polyval_pclmul_setkey, polyval_pclmul_update,
      sizeof (polyval_pclmul_key), polyval_pclmul_setkey_short,
      polyval_pclmul_extend, 4 };
