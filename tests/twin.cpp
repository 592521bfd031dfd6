/* twin.cpp - a pair of cipher handles driven call for call (twin.h).  */
#include <config.h>

#include <string.h>

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "twin.h"

namespace testutil {

void
Twin::note (const std::string &s)
{
  trace += s;
  trace += '\n';
  if (trace.size () > 8000)
    trace.erase (0, trace.find ('\n', trace.size () - 6000) + 1);
}

void
Twin::fail (const std::string &what)
{
  if (ok)
    ADD_FAILURE () << (where.empty () ? "" : where + ": ") << what
                   << "\nsequence (last calls):\n" << trace;
  ok = false;
}

std::string
Twin::err_str (gcry_error_t e)
{
  return std::to_string (gcry_err_source (e)) + "/"
         + std::to_string (gcry_err_code (e)) + " (" + gcry_strerror (e)
         + ")";
}

void
Twin::same (gcry_error_t ea, gcry_error_t eb, const char *what)
{
  if (ea != eb)
    fail (std::string (what) + ": gcipher " + err_str (ea) + ", libgcrypt "
          + err_str (eb));
}

void
Twin::same_bytes (const Bytes &a, const Bytes &b, const std::string &what)
{
  if (a == b)
    return;
  size_t i = 0;
  while (i < a.size () && i < b.size () && a[i] == b[i])
    i++;
  std::string msg = what + " differs from byte " + std::to_string (i);
  if (a.size () != b.size ())
    msg += " (" + std::to_string (a.size ()) + " bytes against "
           + std::to_string (b.size ()) + ")";
  /* Short buffers whole, long ones from the first difference.  */
  size_t from = a.size () <= 96 && b.size () <= 96 ? 0 : i;
  auto window = [&] (const Bytes &x) {
    size_t start = std::min (from, x.size ());
    size_t n = from ? std::min ((size_t) 48, x.size () - start)
                    : x.size ();
    return hex_encode (x.data () + start, n);
  };
  fail (msg + "\n gcipher   " + window (a) + "\n libgcrypt " + window (b));
}

bool
Twin::open (int algo, int mode, unsigned int flags)
{
  close ();
  note ("open algo=" + std::to_string (algo) + " mode="
        + std::to_string (mode) + " flags=" + std::to_string (flags));
  gcry_cipher_hd_t x = reinterpret_cast<gcry_cipher_hd_t> (1);
  gcry_cipher_hd_t y = reinterpret_cast<gcry_cipher_hd_t> (1);
  gcry_error_t ea = A->cipher_open (&x, algo, mode, flags);
  gcry_error_t eb = B->cipher_open (&y, algo, mode, flags);
  same (ea, eb, "open");
  if ((x == nullptr) != (y == nullptr))
    fail ("open: handle NULL-ness differs");
  ha = ea ? nullptr : x;
  hb = eb ? nullptr : y;
  return ha && hb;
}

void
Twin::close ()
{
  if (ha)
    A->cipher_close (ha);
  if (hb)
    B->cipher_close (hb);
  ha = hb = nullptr;
}

gcry_error_t
Twin::setkey (const void *key, size_t len)
{
  note ("setkey len=" + std::to_string (len));
  gcry_error_t ea = call (&sysgcrypt::cipher_setkey, "setkey", key, len);
  if (strip_bulk)
    memset (&ha->bulk, 0, sizeof ha->bulk);
  return ea;
}

gcry_error_t
Twin::setiv (const void *iv, size_t len)
{
  note (std::string ("setiv ") + (iv ? "" : "NULL ") + "len="
        + std::to_string (len));
  return call (&sysgcrypt::cipher_setiv, "setiv", iv, len);
}

gcry_error_t
Twin::setctr (const void *ctr, size_t len)
{
  note (std::string ("setctr ") + (ctr ? "" : "NULL ") + "len="
        + std::to_string (len));
  return call (&sysgcrypt::cipher_setctr, "setctr", ctr, len);
}

gcry_error_t
Twin::authenticate (const void *p, size_t len)
{
  note (std::string ("authenticate ") + (p ? "" : "NULL ") + "len="
        + std::to_string (len));
  return call (&sysgcrypt::cipher_authenticate, "authenticate", p, len);
}

gcry_error_t
Twin::ctl (int cmd, const void *buf, size_t buflen, size_t bufsize)
{
  size_t n = bufsize ? bufsize : buflen;
  Bytes ba (n + 1);   /* Never NULL when BUF is not.  */
  if (buf)
    std::copy_n (static_cast<const uint8_t *> (buf), n, ba.begin ());
  Bytes bb = ba;
  note ("ctl cmd=" + std::to_string (cmd) + " buflen="
        + std::to_string (buflen)
        + (buf ? " buf " + hex_encode (ba.data (), std::min (n, (size_t) 8))
               : " NULL"));
  gcry_error_t ea = A->cipher_ctl (ha, cmd, buf ? ba.data () : nullptr,
                                   buflen);
  gcry_error_t eb = B->cipher_ctl (hb, cmd, buf ? bb.data () : nullptr,
                                   buflen);
  same (ea, eb, "ctl");
  same_bytes (ba, bb, "ctl: buffer");
  return ea;
}

gcry_error_t
Twin::info (int what, bool with_buffer, bool with_nbytes)
{
  note ("info what=" + std::to_string (what));
  Bytes ba (32, 0x11), bb (32, 0x11);
  size_t na = 77, nb = 77;
  gcry_error_t ea = A->cipher_info (ha, what,
                                    with_buffer ? ba.data () : nullptr,
                                    with_nbytes ? &na : nullptr);
  gcry_error_t eb = B->cipher_info (hb, what,
                                    with_buffer ? bb.data () : nullptr,
                                    with_nbytes ? &nb : nullptr);
  same (ea, eb, "info");
  if (na != nb || ba != bb)
    fail ("info: outputs differ: gcipher " + std::to_string (na) + " "
          + hex_encode (ba) + ", libgcrypt " + std::to_string (nb) + " "
          + hex_encode (bb));
  return ea;
}

gcry_error_t
Twin::gettag (size_t len)
{
  note ("gettag len=" + std::to_string (len));
  /* At least 8 bytes of guard and 24 in all, as the suites had.  */
  size_t size = std::max (len + 8, (size_t) 24);
  Bytes ta (size, 0xee), tb (size, 0xee);
  gcry_error_t ea = A->cipher_gettag (ha, ta.data (), len);
  same (ea, B->cipher_gettag (hb, tb.data (), len), "gettag");
  same_bytes (ta, tb, "gettag: tag");
  last_tag.assign (ta.begin (), ta.begin () + len);
  return ea;
}

gcry_error_t
Twin::checktag (const Bytes &tag, size_t len)
{
  note ("checktag len=" + std::to_string (len) + " "
        + hex_encode (tag.data (), std::min (len, tag.size ())));
  Bytes t = tag;
  t.resize (std::max (len, tag.size ()) + 16, 0);  /* Never read past.  */
  return call (&sysgcrypt::cipher_checktag, "checktag",
               (const void *) t.data (), len);
}

gcry_error_t
Twin::crypt (bool enc, const uint8_t *data, size_t inlen, size_t outsize,
             InMode inmode)
{
  const char *what = enc ? "encrypt" : "decrypt";
  note (std::string (what) + " inlen=" + std::to_string (inlen)
        + " outsize=" + std::to_string (outsize)
        + (inmode == SEPARATE ? "" : inmode == IN_NULL ? " in=NULL"
                                                        : " in=out"));
  const size_t guard = 17;
  size_t bufsize = outsize + guard;
  if (inmode == IN_EQ_OUT && inlen > outsize)
    bufsize = inlen + guard;
  Bytes oa (bufsize), ob (bufsize);
  for (size_t i = 0; i < bufsize; i++)
    oa[i] = ob[i] = (uint8_t) (0xc3 ^ (i * 7));
  if (inmode != SEPARATE && inlen)   /* DATA may be NULL then */
    {
      /* DATA holds INLEN bytes; in place over OUTSIZE bytes the rest
       * of the buffer keeps its pattern.  */
      size_t n = inmode == IN_NULL ? std::min (outsize, inlen) : inlen;
      memcpy (oa.data (), data, n);
      memcpy (ob.data (), data, n);
    }
  auto fa = enc ? A->cipher_encrypt : A->cipher_decrypt;
  auto fb = enc ? B->cipher_encrypt : B->cipher_decrypt;
  const void *ina = inmode == SEPARATE ? data
                    : inmode == IN_NULL ? nullptr : oa.data ();
  const void *inb = inmode == SEPARATE ? data
                    : inmode == IN_NULL ? nullptr : ob.data ();
  gcry_error_t ea = fa (ha, oa.data (), outsize, ina, inlen);
  gcry_error_t eb = fb (hb, ob.data (), outsize, inb, inlen);
  same (ea, eb, what);
  same_bytes (oa, ob, std::string (what) + ": output");
  last_out.assign (oa.begin (), oa.begin () + std::min (inlen, outsize));
  return ea;
}

}  // namespace testutil
