/* cipher-gcm-intel-vaes-kernel.h - the stitched VAES CTR + VPCLMULQDQ
 * GHASH kernel of GCM, written once over the vector width.
 *
 * No include guard: cipher-gcm-intel-vpclmul.cpp includes this file once
 * per width, each time inside its own namespace that defines the traits
 * struct V (256-bit or 512-bit registers) and under a "#pragma GCC
 * target" for that width's ISA, so every instantiation is compiled for
 * exactly its instructions.  V provides:
 *
 *   T                     the vector type; BLOCKS 16-byte blocks per T
 *   REGS                  counter registers per group (BLOCKS * REGS
 *                         blocks per group, at most 32)
 *   BURN                  stack bytes to clear after a call
 *   loadu/storeu/load     memory; vxor; bswap (per 128-bit lane)
 *   load_fresh (p)        an aligned load the compiler cannot hoist (the
 *                         hash key powers, same reason as bcast_key)
 *   add32                 dword adds (the counter's low 32 bits)
 *   bcast (k)             a 128-bit value in every lane
 *   bcast_key (p)         the round key at P in every lane, loaded anew
 *                         each time (an asm the compiler cannot hoist:
 *                         hoisted round keys would be spilled to the
 *                         stack)
 *   aesenc/aesenclast     one AES round on every lane
 *   zext (y)              Y in lane 0, zero elsewhere
 *   mul_acc (d, p, q, ...)  Karatsuba carry-less products of D and P
 *                         (Q: P's halves XORed), accumulated
 *   hxor (v)              XOR of all lanes (128 bits)
 *   lane0 (v)             lane 0
 *   ctr_offsets ()        per-lane counter offsets (0, 1, ...)
 *   ctr_next (c)          C plus the step between registers (an asm:
 *                         left to itself the compiler makes one constant
 *                         per register and spills them)
 *   cleanup ()            clear the vector registers
 *
 * and the enclosing file the key layout (vpclmul_key),
 * finish128_karatsuba and the 128-bit byte-reversal mask.
 *
 * A group: the counter registers go through the AES rounds (independent
 * registers hide VAESENC's latency) while the GHASH products of one
 * group of ciphertext (the previous group's output when encrypting, this
 * group's input when decrypting) with H^G..H^1 are formed between the
 * rounds and reduced once at the end.  The counter is kept byte-reversed
 * per lane, so inc32 (SP 800-38D 6.2) is a dword add that wraps by
 * itself.
 */

#ifndef GCM_SP
#ifdef __x86_64__
#define GCM_SP "%%rsp"
#else
#define GCM_SP "%%esp"
#endif
#endif

constexpr size_t GROUP_BLOCKS = V::BLOCKS * V::REGS;
constexpr size_t GROUP_BYTES = 16 * GROUP_BLOCKS;
static_assert (GROUP_BLOCKS <= 32, "key area holds H^1..H^32");

/* GHASH products of register B of the group at HASHIN (Y folded into
 * register 0), accumulated.  */
inline __attribute__ ((always_inline)) void
hash_reg (const vpclmul_key *k, const unsigned char *hashin, int b,
          __m128i y, typename V::T &lo, typename V::T &mid,
          typename V::T &hi)
{
  const typename V::T *hp
    = reinterpret_cast<const typename V::T *> (k->hp + 32 - GROUP_BLOCKS);
  const typename V::T *hk
    = reinterpret_cast<const typename V::T *> (k->hkp + 32 - GROUP_BLOCKS);
  typename V::T d = V::bswap (V::loadu (hashin + 16 * V::BLOCKS * b));
  if (b == 0)
    d = V::vxor (d, V::zext (y));
  V::mul_acc (d, V::load_fresh (hp + b), V::load_fresh (hk + b), lo, mid, hi);
}

template <unsigned int ROUNDS>
inline __attribute__ ((always_inline)) void
ctr_ghash_group (const __m128i *rk, const vpclmul_key *k,
                 typename V::T &ctr, __m128i &y, unsigned char *out,
                 const unsigned char *in, const unsigned char *hashin)
{
  typedef typename V::T T;
  T x[V::REGS];
  const T k0 = V::bcast_key (rk);
  _Pragma ("GCC unroll 16")
  for (int j = 0; j < V::REGS; j++)
    {
      x[j] = V::vxor (V::bswap (ctr), k0);
      ctr = V::ctr_next (ctr);
    }
  T lo = V::zero (), mid = lo, hi = lo;
  _Pragma ("GCC unroll 16")
  for (unsigned int r = 1; r < ROUNDS; r++)
    {
      const T key = V::bcast_key (rk + r);
      _Pragma ("GCC unroll 16")
      for (int j = 0; j < V::REGS; j++)
        x[j] = V::aesenc (x[j], key);
      /* Registers REGS-1..1 first, register 0 (which takes Y) last.  */
      if (hashin && r <= (unsigned int) V::REGS)
        hash_reg (k, hashin, (V::REGS - (int) r) % V::REGS, y, lo, mid, hi);
    }
  const T last = V::bcast_key (rk + ROUNDS);
  _Pragma ("GCC unroll 16")
  for (int j = 0; j < V::REGS; j++)
    {
      x[j] = V::aesenclast (x[j], last);
      V::storeu (out + 16 * V::BLOCKS * j,
                 V::vxor (x[j], V::loadu (in + 16 * V::BLOCKS * j)));
    }
  if (hashin)
    y = finish128_karatsuba (V::hxor (lo), V::hxor (mid), V::hxor (hi));
}

/* NGROUPS groups of text with CTRP (16 bytes) the next counter block and
 * ST's running GHASH value; both updated.  Not inlined: the caller burns
 * its frame.  */
template <unsigned int ROUNDS>
__attribute__ ((noinline)) void
crypt_t (const RIJNDAEL_context *actx, gcm_state *st, unsigned char *ctrp,
         unsigned char *out, const unsigned char *in, size_t ngroups,
         bool encrypt)
{
  typedef typename V::T T;
  const __m128i *rk = (const __m128i *) actx->keys.ni.enc;
  const vpclmul_key *k = reinterpret_cast<const vpclmul_key *> (st->key.bytes);
  __m128i y = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) st->y),
                                bswap_mask128 ());
  __m128i c = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) ctrp),
                                bswap_mask128 ());
  T ctr = V::add32 (V::bcast (c), V::ctr_offsets ());

  if (encrypt)
    {
      ctr_ghash_group<ROUNDS> (rk, k, ctr, y, out, in, nullptr);
      for (size_t g = 1; g < ngroups; g++)
        {
          ctr_ghash_group<ROUNDS> (rk, k, ctr, y, out + GROUP_BYTES,
                                   in + GROUP_BYTES, out);
          out += GROUP_BYTES;
          in += GROUP_BYTES;
        }
      /* The last group's ciphertext.  */
      T lo = V::zero (), mid = lo, hi = lo;
      for (int b = V::REGS - 1; b >= 0; b--)
        hash_reg (k, out, b, y, lo, mid, hi);
      y = finish128_karatsuba (V::hxor (lo), V::hxor (mid), V::hxor (hi));
    }
  else
    for (size_t g = 0; g < ngroups; g++)
      {
        ctr_ghash_group<ROUNDS> (rk, k, ctr, y, out, in, in);
        out += GROUP_BYTES;
        in += GROUP_BYTES;
      }

  _mm_storeu_si128 ((__m128i *) st->y, _mm_shuffle_epi8 (y, bswap_mask128 ()));
  /* Lane 0 of CTR is the next counter.  */
  _mm_storeu_si128 ((__m128i *) ctrp,
                    _mm_shuffle_epi8 (V::lane0 (ctr), bswap_mask128 ()));
  V::cleanup ();
}

/* Whole groups of NBLOCKS; returns the blocks left undone.  */
size_t
crypt (gcry_cipher_hd_t c, unsigned char *out, const unsigned char *in,
       size_t nblocks, int encrypt)
{
  gcm_state *st = static_cast<gcm_state *> (c->mode_ctx);
  const RIJNDAEL_context *actx = static_cast<const RIJNDAEL_context *> (c->ctx);
  size_t ngroups = nblocks / GROUP_BLOCKS;
  if (!ngroups)
    return nblocks;
  if (actx->rounds == 10)
    crypt_t<10> (actx, st, c->ctr, out, in, ngroups, encrypt);
  else if (actx->rounds == 12)
    crypt_t<12> (actx, st, c->ctr, out, in, ngroups, encrypt);
  else
    crypt_t<14> (actx, st, c->ctr, out, in, ngroups, encrypt);
  /* The kernel's frame (below this function's stack pointer: crypt_t
   * is not inlined) may hold spilled states and Y: wipe V::BURN bytes
   * there with vector stores, the stack pointer moved down over them
   * and back (REP STOSB in _gcry_burn_stack costs about 12 ns per call
   * on Zen 4, 15% of a 1 KiB message).  */
  asm volatile ("vpxor %%xmm0, %%xmm0, %%xmm0\n\t"
                "sub %0, " GCM_SP "\n\t"
                ".set .Lgcm_burn_off, 0\n\t"
                ".rept %c1\n\t"
                "vmovdqu %%ymm0, .Lgcm_burn_off(" GCM_SP ")\n\t"
                ".set .Lgcm_burn_off, .Lgcm_burn_off + 32\n\t"
                ".endr\n\t"
                "add %0, " GCM_SP "\n\t"
                "vzeroupper"
                : : "i" (V::BURN), "i" (V::BURN / 32) : "xmm0", "memory");
  static_assert (V::BURN % 32 == 0, "whole ymm stores");
  return nblocks % GROUP_BLOCKS;
}
