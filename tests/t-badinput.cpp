/* t-badinput.cpp - bad input, table-driven, against the system libgcrypt.
 *
 * Every public cipher function gets NULL handles, NULL buffers with a
 * nonzero length, lengths near SIZE_MAX, keys of every wrong length,
 * wrong IV / nonce / counter / tag lengths, bad ctl arguments, and every
 * call in every state of every mode (wrong call order).  A case is
 *
 *   (algorithm, mode, state the handle is brought to, one bad call)
 *
 * for every algorithm gcipher implements that the system library knows,
 * every mode gcipher serves for it (both enumerated from the library),
 * and the rows of the table below.  Each case runs on gcipher and on the
 * system libgcrypt (sysgcrypt.h, dlmopen), followed by the same
 * continuation (encrypt a known message, authenticate, gettag, then a
 * whole new message) whose return codes and output bytes are recorded:
 *
 *  - the bad call's gcry_error_t (source and code) must equal
 *    libgcrypt's, and so must the continuation (the state a rejected
 *    call leaves is libgcrypt's);
 *  - a rejected call must leave the handle as it was: the continuation
 *    equals that of a handle in the same state that never saw the call
 *    (unless libgcrypt itself changes the state there in the same way,
 *    e.g. a refused key drops the old one);
 *  - where libgcrypt crashes (NULL handles, NULL buffers, lengths beyond
 *    the buffer: rows marked SYS_MAY_CRASH are tried on it in a child
 *    process), the row is gcipher-only: gcipher must return the code the
 *    manual lists (doc/gcipher.md "Error codes") and leave the handle
 *    unchanged;
 *  - gcipher never crashes.
 *
 * Skipped when the system library cannot be loaded (the gcipher-only
 * NULL-handle table still runs).
 */
#include <config.h>

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gcrypt.h"
#include "cipher-internal.h"
#include "sysgcrypt.h"
#include "testutil.h"

using testutil::Bytes;

namespace {

/* ---- The two libraries behind one table -------------------------------- */

const sysgcrypt &ours = *sysgcrypt_ours ();

std::string
err_str (gcry_error_t e)
{
  return std::to_string (gcry_err_source (e)) + "/"
         + std::to_string (gcry_err_code (e)) + " (" + gcry_strerror (e)
         + ")";
}

/* ---- Algorithms and modes ------------------------------------------------ */

struct Config
{
  const cipher_spec *spec;
  int mode;
  size_t bs, kl, ivlen;

  std::string
  label () const
  {
    return std::string (spec->name) + " mode " + std::to_string (mode);
  }
};

size_t
key_len_for (const cipher_spec *spec, int mode)
{
  size_t kl = spec->keylen / 8;
  if (mode == GCRY_CIPHER_MODE_GCM_SIV && kl == 24)
    kl = 32;
  if (mode == GCRY_CIPHER_MODE_XTS || mode == GCRY_CIPHER_MODE_SIV)
    kl *= 2;
  return kl;
}

size_t
iv_len_for (const Config &c)
{
  switch (c.mode)
    {
    case GCRY_CIPHER_MODE_ECB: case GCRY_CIPHER_MODE_AESWRAP:
      return 0;
    case GCRY_CIPHER_MODE_CCM: case GCRY_CIPHER_MODE_GCM:
    case GCRY_CIPHER_MODE_OCB: case GCRY_CIPHER_MODE_EAX:
    case GCRY_CIPHER_MODE_SIV: case GCRY_CIPHER_MODE_GCM_SIV:
    case GCRY_CIPHER_MODE_POLY1305:
      return 12;
    case GCRY_CIPHER_MODE_STREAM:
      return c.spec->algo == GCRY_CIPHER_ARCFOUR ? 0
             : c.spec->algo == GCRY_CIPHER_CHACHA20 ? 12 : 8;
    default:
      return c.bs;
    }
}

Bytes
pattern (size_t n, unsigned seed)
{
  Bytes b (n);
  for (size_t i = 0; i < n; i++)
    b[i] = (uint8_t) (seed * 59 + 7 * i + (i * i >> 2) + 3);
  return b;
}

/* Algorithm x mode pairs both libraries open.  */
std::vector<Config>
configs (const sysgcrypt *sys)
{
  std::vector<Config> v;
  for (int i = 0; const cipher_spec *s = _gcry_cipher_spec_nth (i); i++)
    {
      /* libgcrypt 1.11 algorithms, not in the system 1.10 (ARIA): no
       * reference to compare with.  */
      if (testutil::libgcrypt111_only_algo (s->algo)
          || !strcmp (sys->cipher_algo_name (s->algo), "?"))
        continue;
      for (int m = 1; m < 64; m++)
        {
          if (!_gcry_cipher_mode_supported (s, m))
            continue;
          gcry_cipher_hd_t h;
          if (sys->cipher_open (&h, s->algo, m, 0))
            continue;
          sys->cipher_close (h);
          Config c { s, m, s->blocksize, key_len_for (s, m), 0 };
          c.ivlen = iv_len_for (c);
          v.push_back (c);
        }
    }
  return v;
}

/* ---- States ------------------------------------------------------------- */

enum State { FRESH, KEYED, MID, DONE, N_STATES };
const char *const state_names[] = { "fresh", "keyed", "mid-message",
                                    "finished" };

/* Buffers every case uses; large enough for every call below.  The key
 * holds 256 bytes: ARCFOUR cuts a huge key length to its low 32 bits,
 * as libgcrypt does (the "setkey len" rows: SIZE_MAX is a 2^32 - 1 byte
 * key), and its key schedule then reads 256 key bytes.  */
struct Bufs
{
  Bytes key = pattern (256, 1), iv = pattern (48, 2), aad = pattern (64, 3),
        pt = pattern (256, 4), tag = pattern (32, 5);
};
const Bufs bufs;

/* Length of one message (bytes of plaintext) for the mode.  */
size_t
msg_len (const Config &c)
{
  if (c.mode == GCRY_CIPHER_MODE_AESWRAP)
    return 32;
  return 3 * c.bs < 16 ? 48 : 3 * c.bs;
}

void
set_nonce (const sysgcrypt *L, gcry_cipher_hd_t h, const Config &c)
{
  if (!c.ivlen)
    return;
  if (c.mode == GCRY_CIPHER_MODE_CTR)
    L->cipher_setctr (h, bufs.iv.data (), c.ivlen);
  else
    L->cipher_setiv (h, bufs.iv.data (), c.ivlen);
}

void
ccm_lengths (const sysgcrypt *L, gcry_cipher_hd_t h, const Config &c)
{
  if (c.mode != GCRY_CIPHER_MODE_CCM)
    return;
  uint64_t p[3] = { msg_len (c), 16, 16 };
  L->cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS, p, sizeof p);
}

bool
one_shot (int mode)
{
  return mode == GCRY_CIPHER_MODE_SIV || mode == GCRY_CIPHER_MODE_GCM_SIV
         || mode == GCRY_CIPHER_MODE_AESWRAP;
}

/* Bring a fresh handle to state S.  */
void
enter_state (const sysgcrypt *L, gcry_cipher_hd_t h, const Config &c, State s)
{
  if (s == FRESH)
    return;
  L->cipher_setkey (h, bufs.key.data (), c.kl);
  if (s == KEYED)
    return;
  Bytes out (512);
  if (c.mode == GCRY_CIPHER_MODE_SIV)
    {
      L->cipher_authenticate (h, bufs.aad.data (), 16);
      set_nonce (L, h, c);
    }
  else
    {
      set_nonce (L, h, c);
      ccm_lengths (L, h, c);
      if (testutil::is_aead_mode (c.mode))
        L->cipher_authenticate (h, bufs.aad.data (), 16);
    }
  size_t done = 0;
  if (!one_shot (c.mode))
    {
      done = c.mode == GCRY_CIPHER_MODE_XTS ? 16 : c.bs;
      L->cipher_encrypt (h, out.data (), done, bufs.pt.data (), done);
    }
  if (s == MID)
    return;
  size_t rest = msg_len (c) - done;
  if (c.mode == GCRY_CIPHER_MODE_OCB)
    L->cipher_ctl (h, GCRYCTL_FINALIZE, nullptr, 0);
  L->cipher_encrypt (h, out.data (),
                     rest + (c.mode == GCRY_CIPHER_MODE_AESWRAP ? 8 : 0),
                     bufs.pt.data () + done, rest);
  if (testutil::is_aead_mode (c.mode))
    L->cipher_gettag (h, out.data (), 16);
}

/* The continuation: what the handle does next, as text (codes and
 * output bytes).  */
std::string
continuation (const sysgcrypt *L, gcry_cipher_hd_t h, const Config &c)
{
  std::string r;
  auto note = [&] (const char *what, gcry_error_t e, const Bytes &b,
                   size_t n) {
    r += what;
    r += "=" + std::to_string (e) + ":" + testutil::hex_encode (b.data (), n)
         + " ";
  };
  const size_t n = msg_len (c);
  const size_t extra = c.mode == GCRY_CIPHER_MODE_AESWRAP ? 8 : 0;
  for (int round = 0; round < 2; round++)
    {
      if (round)
        {
          /* A whole new message: shows the key (and what a re-key
           * keeps).  */
          if (c.mode != GCRY_CIPHER_MODE_CTR)
            L->cipher_ctl (h, GCRYCTL_RESET, nullptr, 0);
          set_nonce (L, h, c);
          ccm_lengths (L, h, c);
        }
      Bytes out (n + extra + 16, 0x33), tag (16, 0x44);
      if (testutil::is_aead_mode (c.mode))
        note ("auth", L->cipher_authenticate (h, bufs.aad.data (), 16), tag,
              0);
      if (c.mode == GCRY_CIPHER_MODE_OCB)
        L->cipher_ctl (h, GCRYCTL_FINALIZE, nullptr, 0);
      note ("enc", L->cipher_encrypt (h, out.data (), n + extra,
                                      bufs.pt.data (), n), out, out.size ());
      if (testutil::is_aead_mode (c.mode))
        note ("tag", L->cipher_gettag (h, tag.data (), 16), tag, 16);
    }
  return r;
}

/* ---- Rows ------------------------------------------------------------- */

typedef std::function<gcry_error_t (const sysgcrypt *, gcry_cipher_hd_t,
                                    const Config &)> Call;

enum : unsigned
{
  SYS_MAY_CRASH = 1,   /* May crash gcipher too: run it in a child.  */
  KEY_ROW = 2,         /* A setkey: a refusal drops the key.  */
  NULL_ROW = 4,        /* A NULL buffer with a nonzero length.  */
  HUGE_ROW = 8,        /* A length no buffer can have (> PTRDIFF_MAX).  */
};

struct Row
{
  std::string name;
  Call call;
  unsigned flags;
  /* The code gcipher returns where libgcrypt crashes.  */
  gcry_err_code_t own_code;
  /* States to run it in (bit mask of 1 << State).  */
  unsigned states;
};

constexpr unsigned ALL_STATES = (1u << N_STATES) - 1;
constexpr unsigned KEYED_MID = (1u << KEYED) | (1u << MID);

std::vector<Row>
rows (const Config &c)
{
  std::vector<Row> v;
  const uint8_t *K = bufs.key.data (), *IV = bufs.iv.data (),
                *A = bufs.aad.data (), *P = bufs.pt.data ();
  const size_t bs = c.bs, huge = SIZE_MAX, huge2 = SIZE_MAX / 2 + 1;

  /* Keys of every length 0..72 that is not the right one, and huge.  */
  for (size_t kl = 0; kl <= 72; kl++)
    if (kl != c.kl)
      v.push_back ({ "setkey len " + std::to_string (kl),
                     [kl, K] (const sysgcrypt *L, gcry_cipher_hd_t h,
                              const Config &) {
                       return L->cipher_setkey (h, K, kl); },
                     KEY_ROW, GPG_ERR_NO_ERROR,
                     (1u << FRESH) | (1u << MID) });
  for (size_t kl : { huge, huge - 1, huge2 })
    v.push_back ({ "setkey len " + std::to_string (kl),
                   [kl, K] (const sysgcrypt *L, gcry_cipher_hd_t h,
                            const Config &) {
                     return L->cipher_setkey (h, K, kl); },
                   KEY_ROW | SYS_MAY_CRASH | HUGE_ROW, GPG_ERR_INV_KEYLEN, 1u << MID });
  v.push_back ({ "setkey NULL", [] (const sysgcrypt *L, gcry_cipher_hd_t h,
                                    const Config &c) {
                   return L->cipher_setkey (h, nullptr, c.kl); },
                 KEY_ROW | SYS_MAY_CRASH | NULL_ROW, GPG_ERR_INV_ARG, KEYED_MID });

  /* IV / nonce and counter lengths.  */
  for (size_t l : { 0, 1, 4, 7, 8, 11, 12, 13, 15, 16, 17, 24, 32, 33, 48 })
    {
      v.push_back ({ "setiv len " + std::to_string (l),
                     [l, IV] (const sysgcrypt *L, gcry_cipher_hd_t h,
                              const Config &) {
                       return L->cipher_setiv (h, IV, l); },
                     0, GPG_ERR_NO_ERROR, KEYED_MID });
      v.push_back ({ "setctr len " + std::to_string (l),
                     [l, IV] (const sysgcrypt *L, gcry_cipher_hd_t h,
                              const Config &) {
                       return L->cipher_setctr (h, IV, l); },
                     0, GPG_ERR_NO_ERROR, 1u << MID });
    }
  v.push_back ({ "setiv NULL", [] (const sysgcrypt *L, gcry_cipher_hd_t h,
                                   const Config &c) {
                   return L->cipher_setiv (h, nullptr, c.ivlen ? c.ivlen : 16); },
                 SYS_MAY_CRASH | NULL_ROW, GPG_ERR_INV_ARG, KEYED_MID });
  v.push_back ({ "setiv len huge", [IV] (const sysgcrypt *L,
                                         gcry_cipher_hd_t h, const Config &) {
                   return L->cipher_setiv (h, IV, SIZE_MAX); },
                 SYS_MAY_CRASH | HUGE_ROW, GPG_ERR_INV_ARG, 1u << KEYED });
  v.push_back ({ "setctr NULL", [] (const sysgcrypt *L, gcry_cipher_hd_t h,
                                    const Config &c) {
                   return L->cipher_setctr (h, nullptr, c.bs); },
                 SYS_MAY_CRASH | NULL_ROW, GPG_ERR_INV_ARG, 1u << MID });

  /* Tags: every length class, NULL, huge.  */
  for (size_t l : { 0, 1, 3, 4, 8, 12, 14, 15, 16, 17, 32 })
    {
      v.push_back ({ "gettag len " + std::to_string (l),
                     [l] (const sysgcrypt *L, gcry_cipher_hd_t h,
                          const Config &) {
                       Bytes t (32);
                       return L->cipher_gettag (h, t.data (), l); },
                     0, GPG_ERR_NO_ERROR, (1u << MID) | (1u << DONE) });
      v.push_back ({ "checktag len " + std::to_string (l),
                     [l] (const sysgcrypt *L, gcry_cipher_hd_t h,
                          const Config &) {
                       return L->cipher_checktag (h, bufs.tag.data (), l); },
                     0, GPG_ERR_NO_ERROR, (1u << MID) | (1u << DONE) });
    }
  v.push_back ({ "gettag NULL", [] (const sysgcrypt *L, gcry_cipher_hd_t h,
                                    const Config &) {
                   return L->cipher_gettag (h, nullptr, 16); },
                 SYS_MAY_CRASH | NULL_ROW, GPG_ERR_INV_ARG, (1u << MID) | (1u << DONE) });
  v.push_back ({ "checktag NULL", [] (const sysgcrypt *L, gcry_cipher_hd_t h,
                                      const Config &) {
                   return L->cipher_checktag (h, nullptr, 16); },
                 SYS_MAY_CRASH | NULL_ROW, GPG_ERR_INV_ARG, (1u << MID) | (1u << DONE) });
  v.push_back ({ "checktag len huge", [] (const sysgcrypt *L,
                                          gcry_cipher_hd_t h, const Config &) {
                   return L->cipher_checktag (h, bufs.tag.data (), SIZE_MAX); },
                 SYS_MAY_CRASH | HUGE_ROW, GPG_ERR_CHECKSUM, 1u << DONE });

  /* Associated data.  */
  v.push_back ({ "authenticate NULL", [] (const sysgcrypt *L,
                                          gcry_cipher_hd_t h, const Config &) {
                   return L->cipher_authenticate (h, nullptr, 16); },
                 SYS_MAY_CRASH | NULL_ROW, GPG_ERR_INV_ARG, KEYED_MID });
  v.push_back ({ "authenticate len huge", [A] (const sysgcrypt *L,
                                               gcry_cipher_hd_t h,
                                               const Config &) {
                   return L->cipher_authenticate (h, A, SIZE_MAX); },
                 SYS_MAY_CRASH | HUGE_ROW, GPG_ERR_INV_LENGTH, 1u << MID });

  /* Data: short output, NULL output, lengths the mode refuses, huge.  */
  for (int enc = 0; enc < 2; enc++)
    {
      const std::string d = enc ? "encrypt " : "decrypt ";
      auto fn = [enc] (const sysgcrypt *L) {
        return enc ? L->cipher_encrypt : L->cipher_decrypt; };
      v.push_back ({ d + "outsize < inlen", [fn, P, bs] (const sysgcrypt *L,
                                                        gcry_cipher_hd_t h,
                                                        const Config &) {
                       Bytes o (256);
                       return fn (L) (h, o.data (), 2 * bs - 1, P, 2 * bs); },
                     0, GPG_ERR_NO_ERROR, ALL_STATES });
      v.push_back ({ d + "partial block", [fn, P, bs] (const sysgcrypt *L,
                                                      gcry_cipher_hd_t h,
                                                      const Config &) {
                       Bytes o (256);
                       return fn (L) (h, o.data (), 256, P, bs + 1); },
                     0, GPG_ERR_NO_ERROR, KEYED_MID });
      v.push_back ({ d + "out NULL", [fn, P, bs] (const sysgcrypt *L,
                                                 gcry_cipher_hd_t h,
                                                 const Config &) {
                       return fn (L) (h, nullptr, 2 * bs, P, 2 * bs); },
                     SYS_MAY_CRASH | NULL_ROW, GPG_ERR_INV_ARG, KEYED_MID });
      v.push_back ({ d + "inlen huge", [fn, P] (const sysgcrypt *L,
                                               gcry_cipher_hd_t h,
                                               const Config &) {
                       Bytes o (256);
                       return fn (L) (h, o.data (), 256, P, SIZE_MAX); },
                     SYS_MAY_CRASH | HUGE_ROW, GPG_ERR_BUFFER_TOO_SHORT, KEYED_MID });
      v.push_back ({ d + "outsize huge, inlen odd huge",
                     [fn, P] (const sysgcrypt *L, gcry_cipher_hd_t h,
                              const Config &c) {
                       /* Only where the length itself is invalid: ECB and
                        * CBC need whole blocks.  */
                       if (c.mode != GCRY_CIPHER_MODE_ECB
                           && c.mode != GCRY_CIPHER_MODE_CBC)
                         return (gcry_error_t) 0;
                       Bytes o (256);
                       return fn (L) (h, o.data (), SIZE_MAX, P, SIZE_MAX); },
                     SYS_MAY_CRASH | HUGE_ROW, GPG_ERR_INV_LENGTH, 1u << KEYED });
    }

  /* NULL buffers and impossible lengths together, and in place with a
   * NULL buffer: libgcrypt's code wherever its length, state or size
   * rules answer before it would touch the buffer.  */
  for (int enc = 0; enc < 2; enc++)
    {
      const std::string d = enc ? "encrypt " : "decrypt ";
      auto fn = [enc] (const sysgcrypt *L) {
        return enc ? L->cipher_encrypt : L->cipher_decrypt; };
      struct Shape { const char *name; bool out; size_t outsize;
                     bool in; size_t inlen; };
      const Shape shapes[] = {
        { "NULL, SIZE_MAX, NULL, SIZE_MAX - 1", false, huge, false, huge - 1 },
        { "NULL, SIZE_MAX, NULL, SIZE_MAX", false, huge, false, huge },
        { "NULL, 2^63 + 1 in place", false, huge2 + 1, false, 0 },
        { "out, 64, in, 2^63 + 1", true, 64, true, huge2 + 1 },
        { "out, SIZE_MAX, in, SIZE_MAX - 1", true, huge, true, huge - 1 },
        { "NULL, 64, in, 0", false, 64, true, 0 },
      };
      for (const Shape &sh : shapes)
        v.push_back ({ d + sh.name,
                       [fn, P, sh] (const sysgcrypt *L, gcry_cipher_hd_t h,
                                    const Config &) {
                         Bytes o (256);
                         return fn (L) (h, sh.out ? o.data () : nullptr,
                                        sh.outsize, sh.in ? P : nullptr,
                                        sh.inlen); },
                       SYS_MAY_CRASH | NULL_ROW | HUGE_ROW, GPG_ERR_INV_ARG,
                       ALL_STATES });
    }
  /* A huge length with buffers that would overlap: the length rules
   * answer (gcipher used to see a partial overlap first and say
   * GPG_ERR_INV_ARG).  */
  for (int enc = 0; enc < 2; enc++)
    v.push_back ({ std::string (enc ? "encrypt" : "decrypt")
                     + " out = in + 64, 64, in, 2^63 + 1",
                   [enc, huge2] (const sysgcrypt *L, gcry_cipher_hd_t h,
                                 const Config &) {
                     Bytes b (256);
                     auto fn = enc ? L->cipher_encrypt : L->cipher_decrypt;
                     return fn (h, b.data () + 64, 64, b.data (), huge2 + 1); },
                   SYS_MAY_CRASH | HUGE_ROW, GPG_ERR_BUFFER_TOO_SHORT,
                   ALL_STATES });
  v.push_back ({ "authenticate NULL len huge",
                 [] (const sysgcrypt *L, gcry_cipher_hd_t h, const Config &) {
                   return L->cipher_authenticate (h, nullptr, SIZE_MAX); },
                 SYS_MAY_CRASH | NULL_ROW | HUGE_ROW, GPG_ERR_INV_ARG,
                 ALL_STATES });
  v.push_back ({ "authenticate len 2^63 + 1",
                 [A, huge2] (const sysgcrypt *L, gcry_cipher_hd_t h,
                             const Config &) {
                   return L->cipher_authenticate (h, A, huge2 + 1); },
                 SYS_MAY_CRASH | HUGE_ROW, GPG_ERR_INV_LENGTH, ALL_STATES });
  v.push_back ({ "gettag len huge",
                 [] (const sysgcrypt *L, gcry_cipher_hd_t h, const Config &) {
                   Bytes t (32);
                   return L->cipher_gettag (h, t.data (), SIZE_MAX); },
                 SYS_MAY_CRASH | HUGE_ROW, GPG_ERR_INV_LENGTH, ALL_STATES });
  for (size_t l : { 12, 16 })
    v.push_back ({ "setiv len " + std::to_string (l) + " (any state)",
                   [l, IV] (const sysgcrypt *L, gcry_cipher_hd_t h,
                            const Config &) {
                     return L->cipher_setiv (h, IV, l); },
                   /* Only Salsa20's nonce (no key needed) is
                    * gcipher-only here.  */
                   SYS_MAY_CRASH, GPG_ERR_NO_ERROR,
                   (1u << FRESH) | (1u << DONE) });

  /* Every ordinary call in every state: wrong call order.  */
  v.push_back ({ "setiv", [] (const sysgcrypt *L, gcry_cipher_hd_t h,
                              const Config &c) {
                   return L->cipher_setiv (h, bufs.iv.data (), c.ivlen); },
                 0, GPG_ERR_NO_ERROR, ALL_STATES });
  v.push_back ({ "authenticate", [A] (const sysgcrypt *L, gcry_cipher_hd_t h,
                                      const Config &) {
                   return L->cipher_authenticate (h, A, 16); },
                 0, GPG_ERR_NO_ERROR, ALL_STATES });
  v.push_back ({ "encrypt", [P] (const sysgcrypt *L, gcry_cipher_hd_t h,
                                 const Config &c) {
                   Bytes o (256);
                   return L->cipher_encrypt (h, o.data (), 2 * c.bs + 8, P,
                                             2 * c.bs); },
                 0, GPG_ERR_NO_ERROR, ALL_STATES });
  v.push_back ({ "decrypt", [P] (const sysgcrypt *L, gcry_cipher_hd_t h,
                                 const Config &c) {
                   Bytes o (256);
                   return L->cipher_decrypt (h, o.data (), 2 * c.bs, P,
                                             2 * c.bs + (c.mode == GCRY_CIPHER_MODE_AESWRAP ? 8 : 0)); },
                 0, GPG_ERR_NO_ERROR, ALL_STATES });
  v.push_back ({ "gettag", [] (const sysgcrypt *L, gcry_cipher_hd_t h,
                               const Config &) {
                   Bytes t (16);
                   return L->cipher_gettag (h, t.data (), 16); },
                 0, GPG_ERR_NO_ERROR, ALL_STATES });
  v.push_back ({ "checktag", [] (const sysgcrypt *L, gcry_cipher_hd_t h,
                                 const Config &) {
                   return L->cipher_checktag (h, bufs.tag.data (), 16); },
                 0, GPG_ERR_NO_ERROR, ALL_STATES });

  /* ctl / info arguments.  */
  for (uint64_t t : { 0, 3, 4, 6, 16, 17, 18 })
    v.push_back ({ "ctl SET_CCM_LENGTHS taglen " + std::to_string (t),
                   [t] (const sysgcrypt *L, gcry_cipher_hd_t h,
                        const Config &) {
                     uint64_t p[3] = { 48, 16, t };
                     return L->cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS, p,
                                           sizeof p); },
                   0, GPG_ERR_NO_ERROR, KEYED_MID });
  v.push_back ({ "ctl SET_CCM_LENGTHS huge", [] (const sysgcrypt *L,
                                                 gcry_cipher_hd_t h,
                                                 const Config &) {
                   uint64_t p[3] = { UINT64_MAX, UINT64_MAX, 16 };
                   return L->cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS, p,
                                         sizeof p); },
                 0, GPG_ERR_NO_ERROR, KEYED_MID });
  v.push_back ({ "ctl SET_CCM_LENGTHS short buffer",
                 [] (const sysgcrypt *L, gcry_cipher_hd_t h, const Config &) {
                   uint64_t p[3] = { 48, 16, 16 };
                   return L->cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS, p, 16); },
                 0, GPG_ERR_NO_ERROR, KEYED_MID });
  v.push_back ({ "ctl SET_CCM_LENGTHS NULL", [] (const sysgcrypt *L,
                                                 gcry_cipher_hd_t h,
                                                 const Config &) {
                   return L->cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS, nullptr,
                                         24); },
                 SYS_MAY_CRASH | NULL_ROW, GPG_ERR_INV_ARG, KEYED_MID });
  for (size_t l : { 0, 15, 17 })
    v.push_back ({ "ctl SET_DECRYPTION_TAG len " + std::to_string (l),
                   [l] (const sysgcrypt *L, gcry_cipher_hd_t h,
                        const Config &) {
                     Bytes t = bufs.tag;
                     return L->cipher_ctl (h, GCRYCTL_SET_DECRYPTION_TAG,
                                           t.data (), l); },
                   0, GPG_ERR_NO_ERROR, KEYED_MID });
  v.push_back ({ "ctl SET_DECRYPTION_TAG NULL", [] (const sysgcrypt *L,
                                                    gcry_cipher_hd_t h,
                                                    const Config &) {
                   return L->cipher_ctl (h, GCRYCTL_SET_DECRYPTION_TAG,
                                         nullptr, 16); },
                 SYS_MAY_CRASH | NULL_ROW, GPG_ERR_INV_ARG, KEYED_MID });
  for (int t : { 0, 3, 5, 17, -1 })
    v.push_back ({ "ctl SET_TAGLEN " + std::to_string (t),
                   [t] (const sysgcrypt *L, gcry_cipher_hd_t h,
                        const Config &) {
                     int x = t;
                     return L->cipher_ctl (h, GCRYCTL_SET_TAGLEN, &x,
                                           sizeof x); },
                   0, GPG_ERR_NO_ERROR, KEYED_MID });
  v.push_back ({ "ctl FINALIZE with buffer", [] (const sysgcrypt *L,
                                                 gcry_cipher_hd_t h,
                                                 const Config &) {
                   int x = 0;
                   return L->cipher_ctl (h, GCRYCTL_FINALIZE, &x, sizeof x); },
                 0, GPG_ERR_NO_ERROR, 1u << MID });
  v.push_back ({ "ctl unknown command", [] (const sysgcrypt *L,
                                            gcry_cipher_hd_t h,
                                            const Config &) {
                   return L->cipher_ctl (h, 9999, nullptr, 0); },
                 0, GPG_ERR_NO_ERROR, 1u << MID });
  v.push_back ({ "info GET_TAGLEN NULL nbytes", [] (const sysgcrypt *L,
                                                    gcry_cipher_hd_t h,
                                                    const Config &) {
                   return L->cipher_info (h, GCRYCTL_GET_TAGLEN, nullptr,
                                          nullptr); },
                 0, GPG_ERR_NO_ERROR, 1u << MID });
  v.push_back ({ "info GET_KEYLEN NULL buffer", [] (const sysgcrypt *L,
                                                    gcry_cipher_hd_t h,
                                                    const Config &) {
                   size_t n = 0;
                   return L->cipher_info (h, GCRYCTL_GET_KEYLEN, nullptr,
                                          &n); },
                 0, GPG_ERR_NO_ERROR, 1u << MID });
  return v;
}

/* ---- Running a case ------------------------------------------------------ */

struct Outcome
{
  bool crashed = false;   /* The process died (in the call or after).  */
  bool rc_known = true;   /* The bad call returned (before any crash).  */
  gcry_error_t rc = 0;
  std::string after;      /* Continuation.  */
};

typedef std::pair<State, const Row *> Case;

Outcome
run_case (const sysgcrypt *L, const Config &c, State s, const Row *row)
{
  Outcome o;
  gcry_cipher_hd_t h;
  if (L->cipher_open (&h, c.spec->algo, c.mode, 0))
    {
      o.after = "open failed";
      return o;
    }
  enter_state (L, h, c, s);
  if (row)
    o.rc = row->call (L, h, c);
  o.after = continuation (L, h, c);
  L->cipher_close (h);
  return o;
}

/* In a child about to run the system libgcrypt where it may crash: let
 * a crash be the plain signal death it is in a normal build.  Under a
 * sanitizer (make check-sanitizers) the runtime's SIGSEGV/SIGBUS/SIGFPE
 * handler would otherwise turn each expected crash of the uninstrumented
 * library into a full report (symbolised, seconds each, on stderr where
 * it reads like a finding); the child dies either way, so the cases
 * compared are the same.  gcipher's own children keep the handlers: a
 * crash of gcipher is a finding.  */
void
sys_child_default_signals ()
{
  for (int sig : { SIGSEGV, SIGBUS, SIGFPE, SIGILL })
    signal (sig, SIG_DFL);
}

/* CASES on L in child processes: a child runs them in order and reports
 * "<i> rc <rc>" before and "<i> after <text>" after each continuation;
 * when it dies, the case it was in is marked crashed and a new child
 * goes on with the next case.  */
std::vector<Outcome>
run_cases_children (const sysgcrypt *L, const Config &c,
                    const std::vector<Case> &cases)
{
  std::vector<Outcome> res (cases.size ());
  size_t start = 0;
  while (start < cases.size ())
    {
      int fds[2];
      if (pipe (fds))
        abort ();
      fflush (stdout);
      pid_t pid = fork ();
      if (pid < 0)
        abort ();
      if (!pid)
        {
          close (fds[0]);
          if (L != &ours)
            sys_child_default_signals ();
          for (size_t i = start; i < cases.size (); i++)
            {
              gcry_cipher_hd_t h;
              std::string line;
              gcry_error_t rc = 0;
              if (L->cipher_open (&h, c.spec->algo, c.mode, 0))
                line = std::to_string (i) + " after open failed\n";
              else
                {
                  enter_state (L, h, c, cases[i].first);
                  if (cases[i].second)
                    rc = cases[i].second->call (L, h, c);
                  line = std::to_string (i) + " rc " + std::to_string (rc)
                         + "\n";
                  if (write (fds[1], line.data (), line.size ()) < 0)
                    _exit (3);
                  line = std::to_string (i) + " after "
                         + continuation (L, h, c) + "\n";
                  L->cipher_close (h);
                }
              if (write (fds[1], line.data (), line.size ()) < 0)
                _exit (3);
            }
          _exit (0);
        }
      close (fds[1]);
      std::string out;
      char buf[65536];
      ssize_t n;
      while ((n = read (fds[0], buf, sizeof buf)) > 0)
        out.append (buf, (size_t) n);
      close (fds[0]);
      int status = 0;
      waitpid (pid, &status, 0);
      std::vector<bool> have_rc (cases.size ()), have_after (cases.size ());
      size_t pos = 0, next = start;
      while (pos < out.size ())
        {
          size_t nl = out.find ('\n', pos);
          if (nl == std::string::npos)
            break;
          std::string line = out.substr (pos, nl - pos);
          pos = nl + 1;
          size_t sp1 = line.find (' '), sp2 = line.find (' ', sp1 + 1);
          size_t i = strtoul (line.c_str (), nullptr, 10);
          std::string kind = line.substr (sp1 + 1, sp2 - sp1 - 1);
          std::string rest = sp2 == std::string::npos ? ""
                                                      : line.substr (sp2 + 1);
          if (i >= cases.size ())
            continue;
          if (kind == "rc")
            {
              res[i].rc = (gcry_error_t) strtoul (rest.c_str (), nullptr, 10);
              have_rc[i] = true;
            }
          else
            {
              res[i].after = rest;
              have_after[i] = true;
              next = i + 1;
            }
        }
      if (next >= cases.size ())
        break;
      /* The child died in case NEXT.  */
      res[next].crashed = true;
      res[next].rc_known = have_rc[next];
      start = next + 1;
    }
  return res;
}

/* One case on gcipher in a child (rows that may crash it).  Under a
 * sanitizer (GCIPHER_SANITIZER, set by make check-sanitizers) in this
 * process instead: there any crash or bad access of gcipher's is a
 * report that fails the suite anyway, and a fork of the instrumented
 * process per case (thousands) costs minutes.  */
Outcome
run_case_child (const Config &c, State s, const Row *row)
{
  static const bool in_process = getenv ("GCIPHER_SANITIZER") != nullptr;
  if (in_process)
    return run_case (&ours, c, s, row);
  return run_cases_children (&ours, c, { Case (s, row) })[0];
}

class BadInput : public ::testing::Test
{
protected:
  void
  SetUp () override
  {
    sys = sysgcrypt_load ();
    sysgcrypt_quiet_logs (sys);
  }
  const sysgcrypt *sys = nullptr;
};

TEST_F (BadInput, EveryRowEveryModeEveryState)
{
  if (!sys)
    GTEST_SKIP () << "system libgcrypt unavailable: " << sysgcrypt_error ();
  size_t cases = 0, own_rows = 0, rejected = 0;
  std::map<std::string, int> failures;   /* Per configuration.  */
  size_t deviations = 0, no_key_cases = 0, by_design = 0;
  for (const Config &c : configs (sys))
    {
      std::vector<Row> table = rows (c);
      std::vector<Case> list;
      for (int s = 0; s < N_STATES; s++)
        list.push_back (Case ((State) s, nullptr));
      for (const Row &row : table)
        for (int s = 0; s < N_STATES; s++)
          if (row.states & (1u << s))
            list.push_back (Case ((State) s, &row));
      /* libgcrypt crashes in more places than the rows marked (e.g. CCM
       * lengths on a handle without a key): always in children.  */
      std::vector<Outcome> sys_res = run_cases_children (sys, c, list);
      Outcome ref_ours[N_STATES];
      for (int s = 0; s < N_STATES; s++)
        {
          ref_ours[s] = run_case (&ours, c, (State) s, nullptr);
          /* Without a bad call the two libraries agree.  */
          if (!sys_res[s].crashed && !(s == FRESH && testutil::is_aead_mode (c.mode)))
            {
              EXPECT_EQ (ref_ours[s].after, sys_res[s].after)
                << c.label () << " in state " << state_names[s]
                << ": the libraries differ before any bad call";
            }
        }
      for (size_t k = N_STATES; k < list.size (); k++)
        {
          const int s = list[k].first;
          const Row &row = *list[k].second;
          const Outcome &r = sys_res[k];
          cases++;
          auto fail = [&] (const std::string &what) {
            if (failures[c.label ()]++ < 6)
              ADD_FAILURE () << c.label () << ", " << state_names[s] << ", "
                             << row.name << ": " << what;
          };
          Outcome o = (row.flags & SYS_MAY_CRASH)
                      ? run_case_child (c, (State) s, &row)
                      : run_case (&ours, c, (State) s, &row);
          if (o.crashed)
            {
              fail ("gcipher crashed");
              continue;
            }
          /* An AEAD handle that never had a key: libgcrypt's GCM, EAX,
           * SIV and GCM-SIV compute on the unset (zero) key schedule or
           * crash, gcipher answers GPG_ERR_MISSING_KEY in places: not
           * compared with libgcrypt.  */
          if (s == FRESH && testutil::is_aead_mode (c.mode))
            {
              no_key_cases++;
              /* Where libgcrypt refuses without crashing (a state or
               * length rule, not a tag comparison), its code.  */
              if (!r.crashed && r.rc && gcry_err_code (r.rc) != GPG_ERR_CHECKSUM
                  && !(row.flags & HUGE_ROW) && o.rc != r.rc)
                fail ("keyless: gcipher " + err_str (o.rc) + ", libgcrypt "
                      + err_str (r.rc));
              /* Still: a refusal changes nothing (a checktag that ran
               * and found the tag wrong has finished the message, as
               * in libgcrypt).  */
              if (o.rc && gcry_err_code (o.rc) != GPG_ERR_CHECKSUM
                  && o.after != ref_ours[s].after)
                fail ("rejected call changed the keyless handle\n  after: "
                      + o.after + "\n  ref:   " + ref_ours[s].after);
              continue;
            }
          /* GCM-SIV's AAD over the RFC 8452 6 limit ends the message
           * (every later call GPG_ERR_INV_LENGTH until setiv or reset;
           * libgcrypt reads on and crashes): a whole change, by design.
           * So does any GCM, GCM-SIV or ChaCha20-Poly1305 length over
           * the limit, also with a NULL buffer, as libgcrypt's own
           * answer does where it gives one (where it crashes: a count
           * that wraps, or its 0x42 fill of a SIZE_MAX output).  */
          if ((c.mode == GCRY_CIPHER_MODE_GCM_SIV
               && row.name == "authenticate len huge")
              || ((c.mode == GCRY_CIPHER_MODE_GCM
                   || c.mode == GCRY_CIPHER_MODE_GCM_SIV
                   || c.mode == GCRY_CIPHER_MODE_POLY1305)
                  && (row.flags & HUGE_ROW) && r.crashed && !r.rc_known
                  && gcry_err_code (o.rc) == GPG_ERR_INV_LENGTH))
            {
              by_design++;
              if (gcry_err_code (o.rc) != GPG_ERR_INV_LENGTH)
                fail ("expected GPG_ERR_INV_LENGTH, got " + err_str (o.rc));
              continue;
            }
          if (o.rc)
            rejected++;
          const bool key_refused = (row.flags & KEY_ROW) && o.rc;
          if (r.crashed && !r.rc_known)
            {
              /* gcipher-only row: the documented code, handle
               * unchanged.  */
              own_rows++;
              /* An impossible length: any refusal will do.  */
              if ((row.flags & HUGE_ROW) ? !o.rc
                  : gcry_err_code (o.rc) != row.own_code)
                fail ("gcipher-only row: " + err_str (o.rc) + ", manual: "
                      + gpg_strerror (row.own_code));
              if (!key_refused && o.after != ref_ours[s].after)
                fail ("rejected call changed the handle\n  after: "
                      + o.after + "\n  ref:   " + ref_ours[s].after);
              continue;
            }
          bool skip_after = false;
          if (o.rc != r.rc)
            {
              /* libgcrypt accepts some impossible lengths through an
               * overflow (e.g. a 2^63-byte Serpent key); gcipher
               * refuses them.  */
              if ((row.flags & HUGE_ROW) && o.rc && !r.rc)
                {
                  deviations++;
                  skip_after = true;
                }
              /* libgcrypt's STREAM decryption writes INLEN bytes into
               * a shorter output buffer; gcipher refuses.  */
              else if (c.mode == GCRY_CIPHER_MODE_STREAM && !r.rc
                       && gcry_err_code (o.rc) == GPG_ERR_BUFFER_TOO_SHORT)
                {
                  deviations++;
                  skip_after = true;
                }
              else
                fail ("gcipher " + err_str (o.rc) + ", libgcrypt "
                      + err_str (r.rc));
            }
          /* After a refused key libgcrypt's GCM, EAX, SIV and GCM-SIV
           * go on with key material derived from the old key; gcipher
           * has no key then (doc/gcipher.md 2).  Only the code is
           * compared.  */
          if (!r.crashed && !key_refused && !skip_after && o.after != r.after)
            fail ("state after the call differs from libgcrypt's\n"
                  "  gcipher:   " + o.after + "\n  libgcrypt: " + r.after);
          /* A rejected call leaves the handle as it was, unless
           * libgcrypt changes it too.  */
          if (o.rc && !key_refused && o.after != ref_ours[s].after
              && (r.crashed || r.after == sys_res[s].after))
            fail ("rejected call changed the handle\n  after: " + o.after
                  + "\n  ref:   " + ref_ours[s].after);
        }
    }
  EXPECT_GT (cases, 1000u);
  printf ("[ badinput ] %zu cases, %zu rejected calls, %zu gcipher-only "
          "(libgcrypt crashes), %zu refused where libgcrypt overflows a "
          "length or buffer, %zu on keyless AEAD "
          "handles (libgcrypt's code where it refuses without crashing), "
          "%zu GCM/GCM-SIV/Poly1305 messages ended by an impossible "
          "length\n", cases, rejected, own_rows, deviations, no_key_cases,
          by_design);
}

/* Handles without a key: never opened with one, or whose key a failed
 * setkey dropped in the middle of a message.  Every operation that needs
 * the key (data in every mode; nonce, AAD, tag and CCM lengths in the
 * modes that MAC them) is refused with GPG_ERR_MISSING_KEY, except where
 * libgcrypt refuses without crashing and without comparing a tag (a
 * state or length rule; a tag length that cannot match): there its code.
 * libgcrypt crashes on many of these (AES has no functions before
 * setkey), and where it does not (Serpent SIV, 3DES EAX, ChaCha20-
 * Poly1305, a stale key after a failed setkey) it MACs with a zero or
 * stale key, gives that tag and accepts it in checktag; gcipher never
 * produces or verifies a tag without a key.  Operations that need no key
 * (CCM's nonce, SIV's decryption tag, a stream cipher's nonce) get
 * libgcrypt's code where it survives.  One line per algorithm's first
 * mode x operation x state is printed (the report's keyless table).  */
TEST_F (BadInput, KeylessHandlesRefuse)
{
  if (!sys)
    GTEST_SKIP () << "system libgcrypt unavailable: " << sysgcrypt_error ();
  enum Op { SETIV, AUTH, ENC, DEC, GETTAG, CHECK16, CHECK17, CCMLEN, DECTAG,
            N_OPS };
  const char *const op_names[] = { "setiv", "authenticate", "encrypt",
                                   "decrypt", "gettag", "checktag 16",
                                   "checktag 17", "SET_CCM_LENGTHS",
                                   "SET_DECRYPTION_TAG" };
  auto needs_key = [] (const Config &c, Op op) {
    switch (op)
      {
      case ENC: case DEC:
        return true;
      case SETIV:
        return c.mode == GCRY_CIPHER_MODE_EAX || c.mode == GCRY_CIPHER_MODE_SIV
               || c.mode == GCRY_CIPHER_MODE_GCM
               || c.mode == GCRY_CIPHER_MODE_GCM_SIV
               || c.mode == GCRY_CIPHER_MODE_POLY1305;
      case CCMLEN:
        return c.mode == GCRY_CIPHER_MODE_CCM;
      case DECTAG:
        return false;
      default:
        return testutil::is_aead_mode (c.mode);
      }
  };
  /* The op (for CCMLEN: a nonce first, which needs no key).  */
  auto do_op = [] (const sysgcrypt *L, gcry_cipher_hd_t h, const Config &c,
                   Op op) -> gcry_error_t {
    Bytes out (64), zero (32, 0);
    const size_t n = c.mode == GCRY_CIPHER_MODE_AESWRAP ? 24 : 2 * c.bs;
    switch (op)
      {
      case SETIV:
        return L->cipher_setiv (h, bufs.iv.data (), c.ivlen ? c.ivlen : 16);
      case AUTH:
        return L->cipher_authenticate (h, bufs.aad.data (), 16);
      case ENC:
        return L->cipher_encrypt (h, out.data (), out.size (),
                                  bufs.pt.data (), n);
      case DEC:
        return L->cipher_decrypt (h, out.data (), out.size (),
                                  bufs.pt.data (), n);
      case GETTAG:
        return L->cipher_gettag (h, out.data (), 16);
      case CHECK16:
        return L->cipher_checktag (h, zero.data (), 16);
      case CHECK17:
        return L->cipher_checktag (h, zero.data (), 17);
      case CCMLEN:
        {
          L->cipher_setiv (h, bufs.iv.data (), c.ivlen ? c.ivlen : 12);
          uint64_t p[3] = { msg_len (c), 16, 16 };
          return L->cipher_ctl (h, GCRYCTL_SET_CCM_LENGTHS, p, sizeof p);
        }
      case DECTAG:
        return L->cipher_ctl (h, GCRYCTL_SET_DECRYPTION_TAG, zero.data (),
                              16);
      default:
        return 0;
      }
  };
  size_t checked = 0;
  for (const Config &c : configs (sys))
    {
      /* A key length this algorithm refuses (Serpent, Blowfish and
       * ARCFOUR take many): 0, else none (no "dropped" rows).  */
      bool can_drop;
      {
        gcry_cipher_hd_t h;
        ASSERT_EQ (gcry_cipher_open (&h, c.spec->algo, c.mode, 0), 0u);
        can_drop = gcry_cipher_setkey (h, bufs.key.data (), 0) != 0;
        gcry_cipher_close (h);
      }
      std::vector<Row> table;
      for (int dropped = 0; dropped < (can_drop ? 2 : 1); dropped++)
        for (int op = 0; op < N_OPS; op++)
          table.push_back (
            { std::string (dropped ? "key dropped, " : "never keyed, ")
                + op_names[op],
              [dropped, op, do_op] (const sysgcrypt *L, gcry_cipher_hd_t h,
                                    const Config &c) {
                if (dropped)
                  {
                    enter_state (L, h, c, MID);
                    /* A wrong length: refused, the key dropped (both
                     * libraries).  */
                    L->cipher_setkey (h, bufs.key.data (), 0);
                  }
                return do_op (L, h, c, (Op) op); },
              0, GPG_ERR_MISSING_KEY, 1u << FRESH });
      std::vector<Case> list;
      for (const Row &r : table)
        list.push_back (Case (FRESH, &r));
      std::vector<Outcome> sys_res = run_cases_children (sys, c, list);
      const bool first_of_mode = c.spec->algo == GCRY_CIPHER_AES
                                 || c.spec->algo == GCRY_CIPHER_CHACHA20
                                 || c.spec->algo == GCRY_CIPHER_SERPENT128
                                 || c.spec->algo == GCRY_CIPHER_3DES;
      for (size_t k = 0; k < table.size (); k++)
        {
          const Op op = (Op) (k % N_OPS);
          const Outcome &r = sys_res[k];
          Outcome o = run_case (&ours, c, FRESH, &table[k]);
          checked++;
          const gcry_err_code_t sc = gcry_err_code (r.rc);
          gcry_err_code_t want;
          bool any = false;
          if (!needs_key (c, op))
            {
              want = sc;
              any = r.crashed && !r.rc_known;
            }
          /* A tag length that cannot match: GPG_ERR_CHECKSUM whatever
           * the key (where libgcrypt crashes, either code).  */
          else if ((op == CHECK17
                    || (op == CHECK16 && c.mode == GCRY_CIPHER_MODE_EAX
                        && c.bs == 8))
                   && r.crashed && !r.rc_known
                   && gcry_err_code (o.rc) == GPG_ERR_CHECKSUM)
            want = GPG_ERR_CHECKSUM;
          else if ((r.crashed && !r.rc_known) || !r.rc)
            want = GPG_ERR_MISSING_KEY;
          /* A tag comparison (a 16-byte tag where the mode's tag is 16
           * bytes) is no code libgcrypt gives without a key.  */
          else if (sc == GPG_ERR_CHECKSUM && op == CHECK16
                   && !(c.mode == GCRY_CIPHER_MODE_EAX && c.bs == 8))
            want = GPG_ERR_MISSING_KEY;
          else
            want = sc;
          const std::string sys_text
            = r.crashed && !r.rc_known ? "crash" : gpg_strerror (sc);
          if (first_of_mode)
            printf ("[ keyless  ] %-12s %-10s %-40s libgcrypt %-22s "
                    "gcipher %s\n", c.spec->name,
                    std::to_string (c.mode).c_str (), table[k].name.c_str (),
                    sys_text.c_str (), gpg_strerror (gcry_err_code (o.rc)));
          if (!any && gcry_err_code (o.rc) != want)
            ADD_FAILURE () << c.label () << ", " << table[k].name
                           << ": gcipher " << err_str (o.rc)
                           << ", expected " << gpg_strerror (want)
                           << " (libgcrypt " << sys_text << ")";
        }
    }
  EXPECT_GT (checked, 1000u);
}

/* NULL handles to every function taking one: GPG_ERR_INV_ARG (libgcrypt
 * crashes on most; where it returns a code, it is compared).  */
TEST_F (BadInput, NullHandleEveryFunction)
{
  unsigned char b[64] = { 0 };
  size_t n = 16;
  struct NullRow
  {
    const char *name;
    std::function<gcry_error_t (const sysgcrypt *)> call;
  };
  const NullRow table[] = {
    { "open", [&] (const sysgcrypt *L) {
        return L->cipher_open (nullptr, GCRY_CIPHER_AES,
                               GCRY_CIPHER_MODE_CBC, 0); } },
    { "setkey", [&] (const sysgcrypt *L) {
        return L->cipher_setkey (nullptr, b, 16); } },
    { "setiv", [&] (const sysgcrypt *L) {
        return L->cipher_setiv (nullptr, b, 16); } },
    { "setctr", [&] (const sysgcrypt *L) {
        return (gcry_error_t) L->cipher_setctr (nullptr, b, 16); } },
    { "encrypt", [&] (const sysgcrypt *L) {
        return L->cipher_encrypt (nullptr, b, 32, b + 32, 32); } },
    { "decrypt", [&] (const sysgcrypt *L) {
        return L->cipher_decrypt (nullptr, b, 32, nullptr, 0); } },
    { "authenticate", [&] (const sysgcrypt *L) {
        return L->cipher_authenticate (nullptr, b, 16); } },
    { "gettag", [&] (const sysgcrypt *L) {
        return L->cipher_gettag (nullptr, b, 16); } },
    { "checktag", [&] (const sysgcrypt *L) {
        return L->cipher_checktag (nullptr, b, 16); } },
    { "ctl RESET", [&] (const sysgcrypt *L) {
        return L->cipher_ctl (nullptr, GCRYCTL_RESET, nullptr, 0); } },
    { "ctl FINALIZE", [&] (const sysgcrypt *L) {
        return L->cipher_ctl (nullptr, GCRYCTL_FINALIZE, nullptr, 0); } },
    { "ctl CFB_SYNC", [&] (const sysgcrypt *L) {
        return L->cipher_ctl (nullptr, GCRYCTL_CFB_SYNC, nullptr, 0); } },
    { "ctl SET_TAGLEN", [&] (const sysgcrypt *L) {
        int t = 16;
        return L->cipher_ctl (nullptr, GCRYCTL_SET_TAGLEN, &t, sizeof t); } },
    { "info GET_TAGLEN", [&] (const sysgcrypt *L) {
        return L->cipher_info (nullptr, GCRYCTL_GET_TAGLEN, nullptr, &n); } },
    { "info GET_KEYLEN", [&] (const sysgcrypt *L) {
        return L->cipher_info (nullptr, GCRYCTL_GET_KEYLEN, b, &n); } },
  };
  for (const NullRow &r : table)
    {
      gcry_error_t e = r.call (&ours);
      EXPECT_EQ (gcry_err_code (e), GPG_ERR_INV_ARG) << r.name;
      if (!sys)
        continue;
      /* libgcrypt, in a child: compared where it survives.  */
      int fds[2];
      ASSERT_EQ (pipe (fds), 0);
      pid_t pid = fork ();
      ASSERT_GE (pid, 0);
      if (!pid)
        {
          close (fds[0]);
          sys_child_default_signals ();
          gcry_error_t se = r.call (sys);
          if (write (fds[1], &se, sizeof se) < 0)
            _exit (3);
          _exit (0);
        }
      close (fds[1]);
      gcry_error_t se = 0;
      ssize_t got = read (fds[0], &se, sizeof se);
      close (fds[0]);
      int status = 0;
      waitpid (pid, &status, 0);
      if (WIFEXITED (status) && !WEXITSTATUS (status) && got == sizeof se)
        EXPECT_EQ (e, se) << r.name << ": libgcrypt " << err_str (se);
      else
        printf ("[ badinput ] NULL handle to %s: libgcrypt crashes, gcipher "
                "%s\n", r.name, err_str (e).c_str ());
    }
  gcry_cipher_close (nullptr);  /* No-op in both.  */
  if (sys)
    sys->cipher_close (nullptr);
}

}  // namespace

/* GCM after a refused re-key and no IV: no tag (found by the
 * differential fuzzer's keyless calls: gettag returned the tag of the
 * empty message under the dropped key's hash key).  With an IV this was
 * already refused.  */
TEST_F (BadInput, FuzzGcmNoTagAfterRefusedRekey)
{
  const uint8_t k[32] = { 7, 6, 5, 4, 3, 2, 1 };
  const uint8_t iv[12] = { 1 };
  for (bool with_iv : { false, true })
    {
      gcry_cipher_hd_t h;
      ASSERT_EQ (0u, gcry_cipher_open (&h, GCRY_CIPHER_AES,
                                       GCRY_CIPHER_MODE_GCM, 0));
      ASSERT_EQ (0u, gcry_cipher_setkey (h, k, 16));
      EXPECT_EQ (GPG_ERR_INV_KEYLEN,
                 gcry_err_code (gcry_cipher_setkey (h, k, 24 + 1)));
      if (with_iv)
        EXPECT_NE (0u, gcry_cipher_setiv (h, iv, sizeof iv));
      uint8_t tag[16];
      EXPECT_EQ (GPG_ERR_MISSING_KEY,
                 gcry_err_code (gcry_cipher_gettag (h, tag, sizeof tag)));
      EXPECT_EQ (GPG_ERR_MISSING_KEY,
                 gcry_err_code (gcry_cipher_checktag (h, tag, sizeof tag)));
      gcry_cipher_close (h);
    }
}
