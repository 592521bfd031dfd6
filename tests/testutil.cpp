/* testutil.cpp - see testutil.h.  */
#include "testutil.h"

#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#ifndef TESTVECTORS_DIR
#error "TESTVECTORS_DIR is set by tests/Makefile.am"
#endif

namespace testutil {

/* ---- Hex ------------------------------------------------------------ */

static int
hexval (int c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

Bytes
hex_decode (const std::string &hex, bool *ok)
{
  Bytes out;
  int hi = -1;
  bool good = true;

  for (char ch : hex)
    {
      if (std::isspace ((unsigned char)ch))
        continue;
      int v = hexval ((unsigned char)ch);
      if (v < 0)
        {
          good = false;
          continue;
        }
      if (hi < 0)
        hi = v;
      else
        {
          out.push_back ((uint8_t)(hi << 4 | v));
          hi = -1;
        }
    }
  if (hi >= 0)
    good = false;
  if (ok)
    *ok = good;
  return out;
}

std::string
hex_encode (const void *p, size_t len)
{
  static const char digits[] = "0123456789abcdef";
  const uint8_t *b = (const uint8_t *)p;
  std::string s;
  s.reserve (2 * len);
  for (size_t i = 0; i < len; i++)
    {
      s += digits[b[i] >> 4];
      s += digits[b[i] & 15];
    }
  return s;
}

/* ---- Files ---------------------------------------------------------- */

bool
read_file (const std::string &path, std::string *out)
{
  std::ifstream f (path, std::ios::binary);
  if (!f)
    return false;
  std::ostringstream ss;
  ss << f.rdbuf ();
  *out = ss.str ();
  return true;
}

std::string
testvector_path (const std::string &rel)
{
  return std::string (TESTVECTORS_DIR) + "/" + rel;
}

/* ---- Modes ---------------------------------------------------------- */

bool
is_aead_mode (int mode)
{
  switch (mode)
    {
    case GCRY_CIPHER_MODE_CCM: case GCRY_CIPHER_MODE_GCM:
    case GCRY_CIPHER_MODE_POLY1305: case GCRY_CIPHER_MODE_OCB:
    case GCRY_CIPHER_MODE_EAX: case GCRY_CIPHER_MODE_SIV:
    case GCRY_CIPHER_MODE_GCM_SIV:
      return true;
    default:
      return false;
    }
}

/* ---- Botan .vec ----------------------------------------------------- */

std::string
VecRecord::str (const std::string &k) const
{
  auto it = fields.find (k);
  return it == fields.end () ? std::string () : it->second;
}

Bytes
VecRecord::bytes (const std::string &k) const
{
  return hex_decode (str (k));
}

static std::string
trim (const std::string &s)
{
  size_t a = 0, b = s.size ();
  while (a < b && std::isspace ((unsigned char)s[a]))
    a++;
  while (b > a && std::isspace ((unsigned char)s[b - 1]))
    b--;
  return s.substr (a, b - a);
}

bool
parse_vec_file (const std::string &path, std::vector<VecSection> *out,
                std::string *err)
{
  std::string text;
  if (!read_file (path, &text))
    {
      if (err)
        *err = "cannot read " + path;
      return false;
    }
  out->clear ();

  VecRecord cur;
  bool in_record = false;
  auto flush = [&] () {
    if (in_record && !out->empty ())
      out->back ().records.push_back (cur);
    cur = VecRecord ();
    in_record = false;
  };

  std::istringstream in (text);
  std::string raw;
  int lineno = 0;
  while (std::getline (in, raw))
    {
      lineno++;
      std::string line = trim (raw);
      if (line.empty ())
        {
          flush ();
          continue;
        }
      if (line[0] == '#')
        continue;
      if (line[0] == '[' && line.back () == ']')
        {
          flush ();
          VecSection s;
          s.name = line.substr (1, line.size () - 2);
          out->push_back (s);
          continue;
        }
      size_t eq = line.find ('=');
      if (eq == std::string::npos)
        continue;
      if (!in_record)
        {
          cur.line = lineno;
          in_record = true;
        }
      cur.fields[trim (line.substr (0, eq))] = trim (line.substr (eq + 1));
    }
  flush ();
  return true;
}

const VecSection *
find_section (const std::vector<VecSection> &sections, const std::string &name)
{
  for (const auto &s : sections)
    if (s.name == name)
      return &s;
  return nullptr;
}

/* ---- JSON ----------------------------------------------------------- */

static const Json json_null;

const Json &
Json::operator[] (const std::string &key) const
{
  if (type == Object)
    for (const auto &kv : obj)
      if (kv.first == key)
        return kv.second;
  return json_null;
}

const Json &
Json::operator[] (size_t idx) const
{
  if (type == Array && idx < arr.size ())
    return arr[idx];
  return json_null;
}

const std::string &
Json::s () const
{
  static const std::string empty;
  return type == String ? str : empty;
}

namespace {

struct JsonParser
{
  const std::string &t;
  size_t p = 0;
  std::string err;
  int depth = 0;

  explicit JsonParser (const std::string &text) : t (text) {}

  bool fail (const char *what)
  {
    if (err.empty ())
      err = std::string (what) + " at offset " + std::to_string (p);
    return false;
  }

  void ws ()
  {
    while (p < t.size () && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n'
                             || t[p] == '\r'))
      p++;
  }

  bool lit (const char *word)
  {
    size_t n = std::strlen (word);
    if (t.compare (p, n, word) != 0)
      return fail ("bad literal");
    p += n;
    return true;
  }

  static void put_utf8 (std::string &s, unsigned long cp)
  {
    if (cp < 0x80)
      s += (char)cp;
    else if (cp < 0x800)
      {
        s += (char)(0xc0 | (cp >> 6));
        s += (char)(0x80 | (cp & 0x3f));
      }
    else if (cp < 0x10000)
      {
        s += (char)(0xe0 | (cp >> 12));
        s += (char)(0x80 | ((cp >> 6) & 0x3f));
        s += (char)(0x80 | (cp & 0x3f));
      }
    else
      {
        s += (char)(0xf0 | (cp >> 18));
        s += (char)(0x80 | ((cp >> 12) & 0x3f));
        s += (char)(0x80 | ((cp >> 6) & 0x3f));
        s += (char)(0x80 | (cp & 0x3f));
      }
  }

  bool hex4 (unsigned long *v)
  {
    if (p + 4 > t.size ())
      return fail ("short \\u escape");
    *v = 0;
    for (int i = 0; i < 4; i++)
      {
        int h = hexval ((unsigned char)t[p++]);
        if (h < 0)
          return fail ("bad \\u escape");
        *v = *v << 4 | (unsigned long)h;
      }
    return true;
  }

  bool string (std::string *out)
  {
    if (p >= t.size () || t[p] != '"')
      return fail ("expected string");
    p++;
    out->clear ();
    while (p < t.size ())
      {
        char c = t[p++];
        if (c == '"')
          return true;
        if (c != '\\')
          {
            *out += c;
            continue;
          }
        if (p >= t.size ())
          break;
        char e = t[p++];
        switch (e)
          {
          case '"': *out += '"'; break;
          case '\\': *out += '\\'; break;
          case '/': *out += '/'; break;
          case 'b': *out += '\b'; break;
          case 'f': *out += '\f'; break;
          case 'n': *out += '\n'; break;
          case 'r': *out += '\r'; break;
          case 't': *out += '\t'; break;
          case 'u':
            {
              unsigned long cp = 0;
              if (!hex4 (&cp))
                return false;
              if (cp >= 0xd800 && cp < 0xdc00 && p + 6 <= t.size ()
                  && t[p] == '\\' && t[p + 1] == 'u')
                {
                  unsigned long lo = 0;
                  p += 2;
                  if (!hex4 (&lo))
                    return false;
                  cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                }
              put_utf8 (*out, cp);
              break;
            }
          default:
            return fail ("bad escape");
          }
      }
    return fail ("unterminated string");
  }

  bool number (Json *v)
  {
    size_t start = p;
    if (p < t.size () && t[p] == '-')
      p++;
    while (p < t.size () && (std::isdigit ((unsigned char)t[p]) || t[p] == '.'
                             || t[p] == 'e' || t[p] == 'E' || t[p] == '+'
                             || t[p] == '-'))
      p++;
    if (p == start)
      return fail ("bad value");
    v->type = Json::Number;
    v->str = t.substr (start, p - start);
    v->num = std::strtod (v->str.c_str (), nullptr);
    return true;
  }

  bool value (Json *v)
  {
    if (++depth > 64)
      return fail ("nesting too deep");
    ws ();
    if (p >= t.size ())
      return fail ("unexpected end");
    bool ok;
    char c = t[p];
    if (c == '{')
      ok = object (v);
    else if (c == '[')
      ok = array (v);
    else if (c == '"')
      {
        v->type = Json::String;
        ok = string (&v->str);
      }
    else if (c == 't')
      {
        v->type = Json::Bool;
        v->b = true;
        ok = lit ("true");
      }
    else if (c == 'f')
      {
        v->type = Json::Bool;
        v->b = false;
        ok = lit ("false");
      }
    else if (c == 'n')
      {
        v->type = Json::Null;
        ok = lit ("null");
      }
    else
      ok = number (v);
    depth--;
    return ok;
  }

  bool array (Json *v)
  {
    v->type = Json::Array;
    p++;                                   /* '[' */
    ws ();
    if (p < t.size () && t[p] == ']')
      {
        p++;
        return true;
      }
    for (;;)
      {
        v->arr.emplace_back ();
        if (!value (&v->arr.back ()))
          return false;
        ws ();
        if (p < t.size () && t[p] == ',')
          {
            p++;
            continue;
          }
        if (p < t.size () && t[p] == ']')
          {
            p++;
            return true;
          }
        return fail ("expected ',' or ']'");
      }
  }

  bool object (Json *v)
  {
    v->type = Json::Object;
    p++;                                   /* '{' */
    ws ();
    if (p < t.size () && t[p] == '}')
      {
        p++;
        return true;
      }
    for (;;)
      {
        std::string key;
        ws ();
        if (!string (&key))
          return false;
        ws ();
        if (p >= t.size () || t[p] != ':')
          return fail ("expected ':'");
        p++;
        v->obj.emplace_back (key, Json ());
        if (!value (&v->obj.back ().second))
          return false;
        ws ();
        if (p < t.size () && t[p] == ',')
          {
            p++;
            continue;
          }
        if (p < t.size () && t[p] == '}')
          {
            p++;
            return true;
          }
        return fail ("expected ',' or '}'");
      }
  }
};

}  // namespace

bool
parse_json (const std::string &text, Json *out, std::string *err)
{
  JsonParser ps (text);
  *out = Json ();
  bool ok = ps.value (out);
  if (ok)
    {
      ps.ws ();
      if (ps.p != text.size ())
        ok = ps.fail ("trailing data");
    }
  if (!ok && err)
    *err = ps.err;
  return ok;
}

bool
load_json_file (const std::string &path, Json *out, std::string *err)
{
  std::string text;
  if (!read_file (path, &text))
    {
      if (err)
        *err = "cannot read " + path;
      return false;
    }
  return parse_json (text, out, err);
}

/* ---- Implementation paths ------------------------------------------- */

std::vector<const cipher_impl_info *>
available_paths (const cipher_spec *spec)
{
  std::vector<const cipher_impl_info *> v;
  unsigned int hwf = _gcry_get_hw_features ();
  for (size_t i = 0; i < spec->n_impls; i++)
    if ((spec->impls[i].hwf & hwf) == spec->impls[i].hwf)
      v.push_back (&spec->impls[i]);
  return v;
}

std::vector<const cipher_impl_info *>
unavailable_paths (const cipher_spec *spec)
{
  std::vector<const cipher_impl_info *> v;
  unsigned int hwf = _gcry_get_hw_features ();
  for (size_t i = 0; i < spec->n_impls; i++)
    if ((spec->impls[i].hwf & hwf) != spec->impls[i].hwf)
      v.push_back (&spec->impls[i]);
  return v;
}

void
force_path (const cipher_impl_info &impl)
{
  _gcry_hwf_set_test_mask (impl.hwf);
}

void
restore_paths ()
{
  _gcry_hwf_set_test_mask (~0u);
}

std::string
path_names (const std::vector<const cipher_impl_info *> &impls)
{
  std::string s;
  for (const auto *i : impls)
    {
      if (!s.empty ())
        s += ' ';
      s += i->name;
    }
  return s.empty () ? std::string ("(none)") : s;
}

/* ---- PRNG ------------------------------------------------------------ */

static uint64_t
splitmix64 (uint64_t *x)
{
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

Prng::Prng (uint64_t seed)
{
  for (auto &s : s_)
    s = splitmix64 (&seed);
}

static inline uint64_t
rotl (uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

uint64_t
Prng::next ()
{
  const uint64_t result = rotl (s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl (s_[3], 45);
  return result;
}

void
Prng::fill (void *p, size_t len)
{
  uint8_t *b = (uint8_t *)p;
  while (len)
    {
      uint64_t v = next ();
      size_t n = len < 8 ? len : 8;
      std::memcpy (b, &v, n);
      b += n;
      len -= n;
    }
}

}  // namespace testutil

/* ---- Spec-level reference modes --------------------------------------- */

namespace testutil {

int
gcry_mode_of (BlockMode m)
{
  switch (m)
    {
    case BlockMode::ECB: return GCRY_CIPHER_MODE_ECB;
    case BlockMode::CBC: return GCRY_CIPHER_MODE_CBC;
    case BlockMode::CFB: return GCRY_CIPHER_MODE_CFB;
    case BlockMode::CFB8: return GCRY_CIPHER_MODE_CFB8;
    case BlockMode::OFB: return GCRY_CIPHER_MODE_OFB;
    case BlockMode::CTR: return GCRY_CIPHER_MODE_CTR;
    }
  return 0;
}

const char *
mode_name (BlockMode m)
{
  switch (m)
    {
    case BlockMode::ECB: return "ECB";
    case BlockMode::CBC: return "CBC";
    case BlockMode::CFB: return "CFB";
    case BlockMode::CFB8: return "CFB8";
    case BlockMode::OFB: return "OFB";
    case BlockMode::CTR: return "CTR";
    }
  return "?";
}

SpecCipher::SpecCipher (const cipher_spec *s) : spec (s)
{
  size_t size = (s->contextsize + CONTEXT_ALIGN - 1) / CONTEXT_ALIGN
                * CONTEXT_ALIGN;
  mem_ = std::aligned_alloc (CONTEXT_ALIGN, size);
  std::memset (mem_, 0, size);
  ctx = mem_;
  iv_.assign (s->blocksize, 0);
}

SpecCipher::~SpecCipher ()
{
  std::free (mem_);
}

gcry_err_code_t
SpecCipher::setkey (const Bytes &key)
{
  impl_ = nullptr;
  /* As _gcry_cipher_setkey: the self-test first (the spec's setkey
   * leaves it to its caller).  */
  if (gcry_err_code_t ec = _gcry_cipher_selftest_once (spec))
    return ec;
  return spec->setkey (ctx, key.data (), key.size (), &bulk, &impl_);
}

void
SpecCipher::setiv (const Bytes &iv)
{
  iv_ = iv;
  iv_.resize (spec->blocksize, 0);
}

static void
inc_be (uint8_t *c, size_t n)
{
  for (size_t i = n; i-- > 0;)
    if (++c[i])
      break;
}

void
SpecCipher::crypt (BlockMode m, uint8_t *out, const uint8_t *in, size_t len,
                   bool encrypt, bool use_bulk)
{
  const size_t bs = spec->blocksize;
  const size_t nblocks = len / bs;
  const size_t tail = len % bs;
  uint8_t *iv = iv_.data ();
  uint8_t ks[MAX_BLOCKSIZE], tmp[MAX_BLOCKSIZE];

  switch (m)
    {
    case BlockMode::ECB:
      if (use_bulk && bulk.ecb_crypt)
        bulk.ecb_crypt (ctx, out, in, nblocks, encrypt);
      else
        for (size_t b = 0; b < nblocks; b++)
          (encrypt ? spec->encrypt : spec->decrypt) (ctx, out + b * bs,
                                                     in + b * bs);
      break;

    case BlockMode::CBC:
      if (encrypt && use_bulk && bulk.cbc_enc)
        bulk.cbc_enc (ctx, iv, out, in, nblocks, 0);
      else if (!encrypt && use_bulk && bulk.cbc_dec)
        bulk.cbc_dec (ctx, iv, out, in, nblocks);
      else if (encrypt)
        for (size_t b = 0; b < nblocks; b++)
          {
            cipher_block_xor (tmp, in + b * bs, iv, bs);
            spec->encrypt (ctx, out + b * bs, tmp);
            std::memcpy (iv, out + b * bs, bs);
          }
      else
        for (size_t b = 0; b < nblocks; b++)
          {
            std::memcpy (tmp, in + b * bs, bs);
            spec->decrypt (ctx, ks, tmp);
            cipher_block_xor (out + b * bs, ks, iv, bs);
            std::memcpy (iv, tmp, bs);
          }
      break;

    case BlockMode::CFB:
      if (encrypt && use_bulk && bulk.cfb_enc)
        bulk.cfb_enc (ctx, iv, out, in, nblocks);
      else if (!encrypt && use_bulk && bulk.cfb_dec)
        bulk.cfb_dec (ctx, iv, out, in, nblocks);
      else
        for (size_t b = 0; b < nblocks; b++)
          {
            std::memcpy (tmp, in + b * bs, bs);
            spec->encrypt (ctx, ks, iv);
            cipher_block_xor (out + b * bs, ks, tmp, bs);
            std::memcpy (iv, encrypt ? out + b * bs : tmp, bs);
          }
      if (tail)
        {
          spec->encrypt (ctx, ks, iv);
          cipher_block_xor (out + nblocks * bs, ks, in + nblocks * bs, tail);
        }
      break;

    case BlockMode::CFB8:
      for (size_t i = 0; i < len; i++)
        {
          spec->encrypt (ctx, ks, iv);
          uint8_t c_in = in[i];
          uint8_t o = (uint8_t)(c_in ^ ks[0]);
          out[i] = o;
          std::memmove (iv, iv + 1, bs - 1);
          iv[bs - 1] = encrypt ? o : c_in;
        }
      break;

    case BlockMode::OFB:
      if (use_bulk && bulk.ofb_enc)
        bulk.ofb_enc (ctx, iv, out, in, nblocks);
      else
        for (size_t b = 0; b < nblocks; b++)
          {
            spec->encrypt (ctx, iv, iv);
            cipher_block_xor (out + b * bs, in + b * bs, iv, bs);
          }
      if (tail)
        {
          spec->encrypt (ctx, ks, iv);
          cipher_block_xor (out + nblocks * bs, ks, in + nblocks * bs, tail);
        }
      break;

    case BlockMode::CTR:
      if (use_bulk && bulk.ctr16be_enc)
        bulk.ctr16be_enc (ctx, iv, out, in, nblocks);
      else
        for (size_t b = 0; b < nblocks; b++)
          {
            spec->encrypt (ctx, ks, iv);
            cipher_block_xor (out + b * bs, in + b * bs, ks, bs);
            inc_be (iv, bs);
          }
      if (tail)
        {
          spec->encrypt (ctx, ks, iv);
          cipher_block_xor (out + nblocks * bs, ks, in + nblocks * bs, tail);
          inc_be (iv, bs);
        }
      break;
    }
}

Bytes
SpecCipher::crypt (BlockMode m, const Bytes &in, bool encrypt, bool use_bulk)
{
  Bytes out (in.size ());
  crypt (m, out.data (), in.data (), in.size (), encrypt, use_bulk);
  return out;
}

gcry_error_t
api_crypt (int algo, BlockMode m, const Bytes &key, const Bytes &iv,
           const Bytes &in, bool encrypt, Bytes *out, std::string *impl)
{
  ApiHandle a;
  gcry_error_t err = gcry_cipher_open (&a.h, algo, gcry_mode_of (m), 0);
  if (err)
    return err;
  err = gcry_cipher_setkey (a.h, key.data (), key.size ());
  if (err)
    return err;
  if (impl)
    *impl = a.h->impl_name ? a.h->impl_name : "";
  if (!iv.empty ())
    {
      err = m == BlockMode::CTR ? gcry_cipher_setctr (a.h, iv.data (), iv.size ())
                                : gcry_cipher_setiv (a.h, iv.data (), iv.size ());
      if (err)
        return err;
    }
  out->assign (in.size (), 0);
  /* A non-null buffer even for empty input.  */
  uint8_t dummy[1];
  uint8_t *o = out->empty () ? dummy : out->data ();
  const uint8_t *i = in.empty () ? dummy : in.data ();
  return encrypt ? gcry_cipher_encrypt (a.h, o, out->size (), i, in.size ())
                 : gcry_cipher_decrypt (a.h, o, out->size (), i, in.size ());
}

const cipher_spec *
aes_spec_for_keylen (size_t keylen)
{
  switch (keylen)
    {
    case 16: return &_gcry_cipher_spec_aes;
    case 24: return &_gcry_cipher_spec_aes192;
    case 32: return &_gcry_cipher_spec_aes256;
    }
  return nullptr;
}

Bytes
ctr32le_reference (const cipher_spec *spec, void *ctx, Bytes &ctr,
                   const uint8_t *in, size_t nblocks)
{
  Bytes out (16 * nblocks);
  for (size_t b = 0; b < nblocks; b++)
    {
      uint8_t ks[16];
      spec->encrypt (ctx, ks, ctr.data ());
      for (int i = 0; i < 16; i++)
        out[16 * b + i] = in[16 * b + i] ^ ks[i];
      uint32_t v = (uint32_t) ctr[0] | ((uint32_t) ctr[1] << 8)
                   | ((uint32_t) ctr[2] << 16) | ((uint32_t) ctr[3] << 24);
      v++;
      for (int i = 0; i < 4; i++)
        ctr[i] = (uint8_t) (v >> (8 * i));
    }
  return out;
}

std::string
check_ctr32le_slot (unsigned int (*slot) (void *, unsigned char *, void *,
                                          const void *, size_t),
                    void *ctx, const cipher_spec *ref_spec, void *ref_ctx,
                    const Bytes &ctr, const Bytes &data, size_t nblocks,
                    bool inplace, size_t off)
{
  Bytes cb = ctr;
  const Bytes want = ctr32le_reference (ref_spec, ref_ctx, cb, data.data (),
                                        nblocks);
  Bytes buf (data.size () + 16), src (data.size () + 16);
  if (!data.empty ())
    {
      std::memcpy (src.data () + off, data.data (), data.size ());
      std::memcpy (buf.data () + off, data.data (), data.size ());
    }
  Bytes c = ctr;
  slot (ctx, c.data (), buf.data () + off,
        inplace ? buf.data () + off : src.data () + off, nblocks);
  const std::string got = hex_encode (Bytes (buf.begin () + off,
                                             buf.begin () + off
                                               + data.size ()));
  if (got != hex_encode (want))
    return "output " + got + ", want " + hex_encode (want);
  if (c != cb)
    return "counter after " + hex_encode (c) + ", want " + hex_encode (cb);
  return "";
}

uint64_t
suite_seed (uint64_t default_seed)
{
  static const uint64_t seed = [default_seed] {
    const char *s = std::getenv ("GCIPHER_TEST_SEED");
    uint64_t v = s ? std::strtoull (s, nullptr, 0) : default_seed;
    std::printf ("[ seed     ] GCIPHER_TEST_SEED=0x%016" PRIx64 "\n", v);
    return v;
  } ();
  return seed;
}

}  // namespace testutil
