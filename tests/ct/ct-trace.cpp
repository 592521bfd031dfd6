/* ct-trace.cpp - trace-equivalence constant-time check (x86-64 Linux).
 *
 * Valgrind cannot execute VAES, VPCLMULQDQ, AVX-512 or GFNI, so the
 * paths that use them get no memcheck evidence (tests/ct/ct-check.cpp).
 * This program gives them evidence of another kind, natively:
 *
 *   It starts N (default 2) copies of the driver (ct-check --trace-salt=K, K = 0..N-1,
 *   same argv length, same environment, address space randomisation off
 *   with personality(ADDR_NO_RANDOMIZE)), which run the same paths with
 *   the same public inputs (lengths, IVs, associated data, call splits)
 *   and different secrets (key, plaintext, hence ciphertext and tag).
 *   The driver brackets every library call with a marker (an int3 in
 *   ct_trace_mark; rdi says what, rsi points to a name).  Between the
 *   markers of a call this program single-steps all copies in lock step
 *   (PTRACE_SINGLESTEP) and, before every instruction, compares
 *     - the instruction address (so every branch went the same way),
 *     - the stack pointer (push, pop, call, ret, alloca),
 *     - the effective address of every explicit memory operand,
 *       base + index * scale + displacement from the general registers,
 *       with the operand layout read from `objdump -d` of the mapped
 *       file (the driver, with the library linked in statically, and
 *       libc); lea and the nop forms are not accesses and are skipped;
 *       an operand indexed by a vector register (gather / scatter,
 *       VSIB) cannot be compared this way and fails the path.
 *   Any difference fails the path and names the instruction.  Equal
 *   traces for different secrets are what "no branch and no memory
 *   address derived from key, data or tag" means at the instruction
 *   level, for the instructions this CPU executed.  (Data-dependent
 *   instruction latency, e.g. of division, is not seen by a trace; the
 *   static scan tests/ct/ct-scan.sh looks for such instructions.)
 *
 * Usage: ct-trace [--salts=N] [--log=FILE] [--budget=SECONDS]
 *                 [--verified=FILE] -- PROGRAM ARGS...
 *   (PROGRAM gets --trace-salt=K appended, K = 0..N-1, N = 2 by default;
 *   copy 0's output goes to FILE, default /dev/null; with
 *   CT_TRACE_LOG_ALL=1 copy K's to FILE.K.  After SECONDS the
 *   copies run on untraced and each further path is a NOTRUN line.)
 *
 * Output (tests/ct/check-ct.sh collects it):
 *   ct-trace: PASS <path>
 *   ct-trace: FAIL <path>: <why>
 *   ct-trace: NOTRUN <path> (time budget of <s> s used up)
 *   ct-trace: summary <n> paths traced, <m> failed, <s> steps, ...
 */
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if !defined(__x86_64__) || !defined(__linux__)
int
main ()
{
  std::printf ("ct-trace: summary 0 paths traced, 0 failed, 0 steps "
               "(x86-64 Linux only)\n");
  return 0;
}
#else

namespace {

/* Marker kinds: must match ct-check.cpp.  */
enum { MARK_HELLO = 1, MARK_CALL = 2, MARK_CALL_END = 3, MARK_PATH = 4,
       MARK_PUBLIC = 5 };

/* One memory operand: register numbers index Regs::r (-1: none).  */
struct MemOp
{
  int8_t base = -1, index = -1, scale = 1;
  bool vsib = false;
  int64_t disp = 0;
};

struct Insn
{
  uint8_t nmem = 0;
  uint8_t len = 0;     /* Bytes, from the next instruction's address.  */
  bool rep = false;    /* rep / repe / repne string instruction.  */
  MemOp mem[2];
  uint32_t func = 0;   /* Index into Module::funcs.  */
  bool entry = false;  /* The first instruction of its function.  */
};

struct Module
{
  std::string path;
  uint64_t bias = 0;
  std::unordered_map<uint64_t, Insn> insns;   /* By file address.  */
  std::vector<std::string> funcs;
  std::vector<bool> verified;   /* By function: --verified lists it.  */
  bool loaded = false;
};

/* General registers in a fixed order, from user_regs_struct.  */
struct Regs
{
  uint64_t r[17];   /* rax rcx rdx rbx rsp rbp rsi rdi r8..r15 rip */
};

const char *const reg64[] = { "rax", "rcx", "rdx", "rbx", "rsp", "rbp",
                              "rsi", "rdi", "r8",  "r9",  "r10", "r11",
                              "r12", "r13", "r14", "r15", "rip" };
const char *const reg32[] = { "eax", "ecx", "edx", "ebx", "esp", "ebp",
                              "esi", "edi", "r8d", "r9d", "r10d", "r11d",
                              "r12d", "r13d", "r14d", "r15d", "eip" };
enum { R_RSP = 4, R_RIP = 16, R_RIZ = 17, R32 = 32 };

int
reg_number (const std::string &n)
{
  for (int i = 0; i < 17; i++)
    if (n == reg64[i])
      return i;
  for (int i = 0; i < 17; i++)
    if (n == reg32[i])
      return i | R32;
  if (n == "riz" || n == "eiz")
    return R_RIZ;
  return -1;
}

Regs
get_regs (pid_t pid)
{
  user_regs_struct u;
  if (ptrace (PTRACE_GETREGS, pid, nullptr, &u) != 0)
    {
      std::perror ("ct-trace: PTRACE_GETREGS");
      std::exit (2);
    }
  Regs g;
  const uint64_t v[17] = { u.rax, u.rcx, u.rdx, u.rbx, u.rsp, u.rbp,
                           u.rsi, u.rdi, u.r8,  u.r9,  u.r10, u.r11,
                           u.r12, u.r13, u.r14, u.r15, u.rip };
  std::memcpy (g.r, v, sizeof v);
  return g;
}

/* Parse AT&T memory operands "[seg:][disp](base[,index[,scale]])".  */
void
parse_operands (const std::string &ops, Insn &in)
{
  size_t pos = 0;
  while (in.nmem < 2)
    {
      size_t p = ops.find ('(', pos);
      if (p == std::string::npos)
        break;
      size_t q = ops.find (')', p);
      if (q == std::string::npos)
        break;
      pos = q + 1;
      std::string inside = ops.substr (p + 1, q - p - 1);
      if (inside.empty () || (inside[0] != '%' && inside[0] != ','))
        continue;   /* Not an address, e.g. "{1to16}" handled elsewhere. */
      MemOp m;
      size_t s = p;
      while (s > 0 && (std::isxdigit ((unsigned char) ops[s - 1])
                       || ops[s - 1] == 'x' || ops[s - 1] == '-'))
        s--;
      if (s < p)
        m.disp = std::strtoll (ops.substr (s, p - s).c_str (), nullptr, 0);
      std::vector<std::string> f;
      size_t a = 0;
      for (;;)
        {
          size_t c = inside.find (',', a);
          f.push_back (inside.substr (a, c == std::string::npos
                                            ? std::string::npos : c - a));
          if (c == std::string::npos)
            break;
          a = c + 1;
        }
      auto reg = [&] (const std::string &t, bool index) -> int {
        if (t.empty ())
          return -1;
        std::string n = t[0] == '%' ? t.substr (1) : t;
        int r = reg_number (n);
        if (r < 0 && index)
          m.vsib = true;   /* %xmm / %ymm / %zmm index.  */
        return r == R_RIZ ? -1 : r;
      };
      int b = reg (f[0], false);
      int x = f.size () > 1 ? reg (f[1], true) : -1;
      m.base = (int8_t) b;
      m.index = (int8_t) x;
      m.scale = f.size () > 2 ? (int8_t) std::atoi (f[2].c_str ()) : 1;
      in.mem[in.nmem++] = m;
    }
}

/* --verified=FILE: identifiers of functions that memcheck checks on
 * the generic paths (tests/ct/trace-verified.txt), one per line, '#'
 * comments.  A function whose (mangled) name contains one, reached from
 * a traced call, is run through in one go instead of single-stepped;
 * see run_through.  */
std::vector<std::string> verified_ids;

bool
is_verified (const std::string &fn)
{
  for (const std::string &id : verified_ids)
    {
      /* The identifier as a whole name component: "9cam_crypt" in
       * _ZN12_GLOBAL__N_19cam_cryptILb1EEEjPvPhPKh, or the whole name
       * of a C function.  */
      size_t at = fn.find (id);
      while (at != std::string::npos)
        {
          const size_t e = at + id.size ();
          const bool left = at == 0 || std::isdigit ((unsigned char) fn[at - 1]);
          const bool right = e == fn.size () || !(std::islower ((unsigned char) fn[e])
                                                  || fn[e] == '_'
                                                  || std::isdigit ((unsigned char) fn[e]));
          if (left && right)
            return true;
          at = fn.find (id, at + 1);
        }
    }
  return false;
}

void
load_module (Module &m)
{
  m.loaded = true;
  std::string cmd = "objdump -d --no-show-raw-insn -w '" + m.path
                    + "' 2>/dev/null";
  FILE *f = popen (cmd.c_str (), "r");
  if (!f)
    return;
  char *line = nullptr;
  size_t cap = 0;
  uint32_t func = 0;
  Insn *prev = nullptr;
  uint64_t prev_addr = 0;
  m.funcs.push_back ("?");
  m.verified.push_back (false);
  bool first = false;
  while (getline (&line, &cap, f) > 0)
    {
      std::string l = line;
      if (!l.empty () && l.back () == '\n')
        l.pop_back ();
      /* "0000000000401000 <name>:" starts a function.  */
      size_t lt = l.find (" <");
      if (lt != std::string::npos && l.size () > 2 && l.back () == ':'
          && l[0] != ' ')
        {
          m.funcs.push_back (l.substr (lt + 2, l.size () - lt - 4));
          m.verified.push_back (is_verified (m.funcs.back ()));
          func = (uint32_t) m.funcs.size () - 1;
          first = true;
          continue;
        }
      size_t colon = l.find (":\t");
      if (colon == std::string::npos)
        continue;
      char *end;
      uint64_t addr = std::strtoull (l.c_str (), &end, 16);
      if (end != l.c_str () + colon)
        continue;
      std::string text = l.substr (colon + 2);
      size_t hash = text.find ('#');   /* "# 4040 <sym>" comment.  */
      if (hash != std::string::npos)
        text.resize (hash);
      Insn in;
      in.func = func;
      in.entry = first;
      first = false;
      in.rep = text.compare (0, 3, "rep") == 0;
      /* Mnemonic (after prefixes such as rep, lock, notrack, data16).  */
      size_t sp = text.find_first_of (" \t");
      std::string mn = text.substr (0, sp);
      const bool skip = mn == "lea" || mn.compare (0, 3, "nop") == 0
                        || mn == "endbr64" || mn == "cs" || mn == "data16"
                        || mn == "ds";
      if (!skip && sp != std::string::npos)
        parse_operands (text.substr (sp), in);
      Insn &slot = m.insns[addr];
      slot = in;
      if (prev && addr > prev_addr && addr - prev_addr < 16)
        prev->len = (uint8_t) (addr - prev_addr);
      prev = &slot;
      prev_addr = addr;
    }
  free (line);
  pclose (f);
}

struct Tracee
{
  pid_t pid;
  int salt;
};

std::vector<Module> modules;
struct Map
{
  uint64_t lo, hi;
  int module;
};
std::vector<Map> maps;

bool
elf_is_exec (const std::string &path)
{
  unsigned char h[18] = {};
  FILE *f = std::fopen (path.c_str (), "rb");
  if (!f)
    return false;
  size_t n = std::fread (h, 1, sizeof h, f);
  std::fclose (f);
  return n == sizeof h && h[16] == 2;   /* e_type ET_EXEC.  */
}

void
read_maps (pid_t pid)
{
  maps.clear ();
  char fn[64];
  std::snprintf (fn, sizeof fn, "/proc/%d/maps", (int) pid);
  FILE *f = std::fopen (fn, "r");
  if (!f)
    return;
  char line[4096];
  std::map<std::string, uint64_t> base;
  while (std::fgets (line, sizeof line, f))
    {
      unsigned long long lo, hi, off;
      char perm[8];
      int n = 0;
      if (std::sscanf (line, "%llx-%llx %7s %llx %*s %*s%n", &lo, &hi, perm,
                       &off, &n) < 4)
        continue;
      std::string path = line + n;
      while (!path.empty () && (path[0] == ' ' || path[0] == '\t'))
        path.erase (0, 1);
      while (!path.empty () && (path.back () == '\n'))
        path.pop_back ();
      if (path.empty () || path[0] != '/')
        continue;
      if (off == 0 && !base.count (path))
        base[path] = lo;
      if (perm[2] != 'x')
        continue;
      int mi = -1;
      for (size_t i = 0; i < modules.size (); i++)
        if (modules[i].path == path)
          mi = (int) i;
      if (mi < 0)
        {
          modules.push_back ({});
          modules.back ().path = path;
          modules.back ().bias = elf_is_exec (path) ? 0 : base[path];
          mi = (int) modules.size () - 1;
        }
      maps.push_back ({ lo, hi, mi });
    }
  std::fclose (f);
}

/* The decoded instruction at absolute address A (nullptr: unknown).  */
const Insn *
lookup (uint64_t a, Module **mod)
{
  for (const Map &m : maps)
    if (a >= m.lo && a < m.hi)
      {
        Module &md = modules[m.module];
        if (!md.loaded)
          load_module (md);
        *mod = &md;
        auto it = md.insns.find (a - md.bias);
        return it == md.insns.end () ? nullptr : &it->second;
      }
  *mod = nullptr;
  return nullptr;
}

uint64_t
reg_value (const Regs &g, int r, uint64_t next_rip)
{
  if (r < 0)
    return 0;
  const int n = r & 31;
  uint64_t v = n == R_RIP ? next_rip : g.r[n];
  return (r & R32) ? (uint32_t) v : v;
}

std::string
where (uint64_t rip)
{
  Module *m;
  const Insn *in = lookup (rip, &m);
  char buf[64];
  std::snprintf (buf, sizeof buf, "%#" PRIx64, rip);
  if (!m)
    return buf;
  std::string s = buf;
  if (in)
    s += " <" + m->funcs[in->func] + ">";
  s += " in " + m->path.substr (m->path.rfind ('/') + 1);
  return s;
}

void
wait_stop (pid_t pid, bool *exited)
{
  int st;
  *exited = false;
  for (;;)
    {
      if (waitpid (pid, &st, 0) < 0)
        {
          std::perror ("ct-trace: waitpid");
          std::exit (2);
        }
      if (WIFEXITED (st) || WIFSIGNALED (st))
        {
          *exited = true;
          return;
        }
      if (WIFSTOPPED (st))
        {
          if (WSTOPSIG (st) == SIGTRAP)
            return;
          /* Another signal: deliver it and go on.  */
          ptrace (PTRACE_CONT, pid, nullptr,
                  (void *) (uintptr_t) WSTOPSIG (st));
        }
    }
}

std::string
read_string (pid_t pid, uint64_t addr)
{
  char buf[256] = {};
  iovec local = { buf, sizeof buf - 1 };
  iovec remote = { (void *) addr, sizeof buf - 1 };
  if (process_vm_readv (pid, &local, 1, &remote, 1, 0) <= 0)
    return "?";
  return buf;
}

/* MARK_PUBLIC (ct-check.cpp public_hook): the library declassified the
 * rdx bytes at rsi (a synthetic IV that is output anyway, used as a
 * CTR start).  Every copy continues with copy 0's bytes, so a kernel
 * may branch on that public value and the traces must still be equal
 * ("equal public values give equal traces").  Returns "" or why the
 * copies could not be made to agree.  */
std::string
share_public (const std::vector<Tracee> &t, const std::vector<Regs> &g)
{
  const uint64_t addr = g[0].r[6], len = g[0].r[2];
  for (size_t k = 1; k < t.size (); k++)
    if (g[k].r[6] != addr || g[k].r[2] != len)
      return "declassified bytes at different addresses or lengths";
  if (len == 0 || len > 4096)
    return len ? "declassified length out of range" : "";
  unsigned char buf[4096];
  iovec local = { buf, (size_t) len };
  iovec remote = { (void *) addr, (size_t) len };
  if (process_vm_readv (t[0].pid, &local, 1, &remote, 1, 0) != (ssize_t) len)
    return "cannot read the declassified bytes";
  for (size_t k = 1; k < t.size (); k++)
    if (process_vm_writev (t[k].pid, &local, 1, &remote, 1, 0)
        != (ssize_t) len)
      return "cannot write the declassified bytes";
  return "";
}

/* Whether BUDGET seconds (0: no budget) have passed since T0.  */
bool
budget_used (const timespec &t0, double budget)
{
  timespec t1;
  clock_gettime (CLOCK_MONOTONIC, &t1);
  return budget > 0
         && (double) (t1.tv_sec - t0.tv_sec)
                + (double) (t1.tv_nsec - t0.tv_nsec) / 1e9
              > budget;
}

/* Run the rep-prefixed string instruction at the current rip of PID to
 * its end in one go (a breakpoint after it): single-stepping stops after
 * every iteration (a 64 KiB stack burn would be 65,536 steps).  Its
 * addresses and count were compared before.  */
void
run_rep (pid_t pid, uint64_t next)
{
  errno = 0;
  long word = ptrace (PTRACE_PEEKTEXT, pid, (void *) next, nullptr);
  if (errno)
    {
      std::perror ("ct-trace: PTRACE_PEEKTEXT");
      std::exit (2);
    }
  long trap = (long) (((unsigned long) word & ~0xfful) | 0xcc);
  ptrace (PTRACE_POKETEXT, pid, (void *) next, (void *) trap);
  ptrace (PTRACE_CONT, pid, nullptr, nullptr);
  bool exited;
  wait_stop (pid, &exited);
  if (exited)
    {
      std::printf ("ct-trace: FAIL driver: exited in a string instruction\n");
      std::exit (1);
    }
  ptrace (PTRACE_POKETEXT, pid, (void *) next, (void *) word);
  user_regs_struct u;
  ptrace (PTRACE_GETREGS, pid, nullptr, &u);
  u.rip = next;
  ptrace (PTRACE_SETREGS, pid, nullptr, &u);
}

/* Every copy is at the first instruction of a function --verified
 * lists (memcheck checks it on the generic paths, for every key size).
 * Run each copy to the function's return in one go: a breakpoint at the
 * return address, which must be the same in every copy, and the copy
 * must come back there with the stack pointer just above it (no early
 * stop: no marker, no recursion through that address).  The call itself
 * (where, with which stack pointer) and everything after it are still
 * compared step by step.  Returns "" or why it failed.  */
std::string
run_through (const std::vector<Tracee> &t, std::vector<Regs> &g)
{
  const uint64_t sp = g[0].r[R_RSP];
  uint64_t ret = 0;
  iovec local = { &ret, sizeof ret };
  iovec remote = { (void *) sp, sizeof ret };
  if (process_vm_readv (t[0].pid, &local, 1, &remote, 1, 0) != sizeof ret)
    return "cannot read a return address";
  for (size_t k = 1; k < t.size (); k++)
    {
      uint64_t r = 0;
      iovec l2 = { &r, sizeof r };
      if (process_vm_readv (t[k].pid, &l2, 1, &remote, 1, 0) != sizeof r
          || r != ret)
        return "return addresses differ";
    }
  for (size_t k = 0; k < t.size (); k++)
    {
      const pid_t pid = t[k].pid;
      errno = 0;
      long word = ptrace (PTRACE_PEEKTEXT, pid, (void *) ret, nullptr);
      if (errno)
        return "cannot read the return site";
      long trap = (long) (((unsigned long) word & ~0xfful) | 0xcc);
      ptrace (PTRACE_POKETEXT, pid, (void *) ret, (void *) trap);
      ptrace (PTRACE_CONT, pid, nullptr, nullptr);
      bool exited;
      wait_stop (pid, &exited);
      if (exited)
        {
          std::printf ("ct-trace: FAIL driver: exited in a verified "
                       "function\n");
          std::exit (1);
        }
      ptrace (PTRACE_POKETEXT, pid, (void *) ret, (void *) word);
      user_regs_struct u;
      ptrace (PTRACE_GETREGS, pid, nullptr, &u);
      const bool at_ret = u.rip == ret + 1;
      if (at_ret)
        {
          /* Back before the restored instruction.  */
          u.rip = ret;
          ptrace (PTRACE_SETREGS, pid, nullptr, &u);
        }
      if (!at_ret || u.rsp != sp + 8)
        return "a verified function stopped before its return";
      g[k] = get_regs (pid);
    }
  return "";
}

} // namespace

int
main (int argc, char **argv)
{
  int nsalts = 2;
  double budget = 0;   /* Seconds; 0: none.  */
  std::string log = "/dev/null";
  int i = 1;
  for (; i < argc; i++)
    {
      if (!std::strncmp (argv[i], "--salts=", 8))
        nsalts = std::atoi (argv[i] + 8);
      else if (!std::strncmp (argv[i], "--log=", 6))
        log = argv[i] + 6;
      else if (!std::strncmp (argv[i], "--budget=", 9))
        budget = std::atof (argv[i] + 9);
      else if (!std::strncmp (argv[i], "--verified=", 11))
        {
          FILE *vf = std::fopen (argv[i] + 11, "r");
          if (!vf)
            {
              std::perror (argv[i] + 11);
              return 2;
            }
          char buf[256];
          while (std::fgets (buf, sizeof buf, vf))
            {
              std::string id = buf;
              id.erase (0, id.find_first_not_of (" \t"));
              id.erase (std::min (id.find_first_of (" \t\n#"), id.size ()));
              if (!id.empty ())
                verified_ids.push_back (id);
            }
          std::fclose (vf);
        }
      else if (!std::strcmp (argv[i], "--"))
        {
          i++;
          break;
        }
      else
        break;
    }
  if (i >= argc || nsalts < 2 || nsalts > 9)
    {
      std::fprintf (stderr, "usage: ct-trace [--salts=N (2-9)] [--log=FILE]"
                            " [--budget=SECONDS] [--verified=FILE]\n"
                            "       -- PROGRAM ARGS...\n");
      return 2;
    }

  std::vector<Tracee> t;
  for (int k = 0; k < nsalts; k++)
    {
      pid_t pid = fork ();
      if (pid < 0)
        {
          std::perror ("ct-trace: fork");
          return 2;
        }
      if (pid == 0)
        {
          std::vector<char *> av (argv + i, argv + argc);
          char saltarg[32];
          std::snprintf (saltarg, sizeof saltarg, "--trace-salt=%d", k);
          av.push_back (saltarg);
          av.push_back (nullptr);
          /* CT_TRACE_LOG_ALL=1: copy K > 0 writes to FILE.K.  */
          std::string lk = log + (k ? "." + std::to_string (k) : "");
          int fd = open (k == 0 || getenv ("CT_TRACE_LOG_ALL")
                           ? lk.c_str () : "/dev/null",
                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
          if (fd >= 0)
            {
              dup2 (fd, 1);
              close (fd);
            }
          personality (ADDR_NO_RANDOMIZE);
          ptrace (PTRACE_TRACEME, 0, nullptr, nullptr);
          execv (av[0], av.data ());
          _exit (127);
        }
      t.push_back ({ pid, k });
    }

  bool exited;
  for (Tracee &c : t)
    {
      wait_stop (c.pid, &exited);   /* The exec stop.  */
      if (exited)
        {
          std::printf ("ct-trace: FAIL driver: did not start\n");
          return 1;
        }
      ptrace (PTRACE_SETOPTIONS, c.pid, nullptr,
              (void *) (uintptr_t) PTRACE_O_EXITKILL);
    }

  uint64_t mark_insn = 0;   /* Address of the int3 in ct_trace_mark.  */
  unsigned long npaths = 0, nfail = 0, nnotrun = 0;
  bool over_budget = false;
  timespec t0;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  unsigned long long steps = 0, undecoded = 0;
  std::string path_fail;   /* First difference in the current path.  */
  const size_t n = t.size ();
  std::vector<Regs> g (n);
  int status = 0;
  /* CT_TRACE_STATS=1: steps per kind of call and per function, on
   * stderr.  */
  std::unique_ptr<std::map<std::string, unsigned long long>> stats;
  std::unique_ptr<std::map<std::string, unsigned long long>> profile;
  if (getenv ("CT_TRACE_STATS"))
    {
      stats.reset (new std::map<std::string, unsigned long long>);
      profile.reset (new std::map<std::string, unsigned long long>);
    }

  for (;;)
    {
      /* Run every copy to its next marker.  */
      size_t gone = 0;
      for (Tracee &c : t)
        ptrace (PTRACE_CONT, c.pid, nullptr, nullptr);
      for (size_t k = 0; k < n; k++)
        {
          wait_stop (t[k].pid, &exited);
          gone += exited;
        }
      if (gone == n)
        break;
      if (gone)
        {
          std::printf ("ct-trace: FAIL driver: copies ended at different "
                       "points (a public result depended on a secret?)\n");
          nfail++;
          status = 1;
          break;
        }
      for (size_t k = 0; k < n; k++)
        g[k] = get_regs (t[k].pid);
      const uint64_t what = g[0].r[7];   /* rdi */
      bool same = true;
      for (size_t k = 1; k < n; k++)
        same &= g[k].r[7] == what && g[k].r[R_RIP] == g[0].r[R_RIP];
      if (same && what == MARK_PUBLIC)
        {
          /* Outside a compared call (a failed path, the budget used
           * up): the copies still continue with equal public bytes, so
           * they stay in step with each other.  */
          std::string why = share_public (t, g);
          if (!why.empty () && path_fail.empty ())
            path_fail = why;
          continue;
        }
      std::string name = read_string (t[0].pid, g[0].r[6]);   /* rsi */
      for (size_t k = 1; k < n && same; k++)
        same &= read_string (t[k].pid, g[k].r[6]) == name;
      if (!same)
        {
          std::printf ("ct-trace: FAIL driver: the copies reached different "
                       "markers (last call: %s)\n", name.c_str ());
          for (size_t k = 0; k < n; k++)
            std::printf ("ct-trace:   copy %zu: marker %llu at %s\n", k,
                         (unsigned long long) g[k].r[7],
                         where (g[k].r[R_RIP] - 1).c_str ());
          nfail++;
          status = 1;
          break;
        }
      if (what == MARK_HELLO)
        {
          mark_insn = g[0].r[R_RIP] - 1;
          read_maps (t[0].pid);
          continue;
        }
      if (what == MARK_PATH)
        {
          const bool functional_ok = g[0].r[2] != 0;   /* rdx */
          if (over_budget)
            {
              /* Not traced: said per path, never silently dropped.  */
              nnotrun++;
              std::printf ("ct-trace: NOTRUN %s (time budget of %g s "
                           "used up)\n", name.c_str (), budget);
              continue;
            }
          npaths++;
          if (!functional_ok && path_fail.empty ())
            path_fail = "functional failure (see the driver's log)";
          if (path_fail.empty ())
            std::printf ("ct-trace: PASS %s\n", name.c_str ());
          else
            {
              nfail++;
              status = 1;
              std::printf ("ct-trace: FAIL %s: %s\n", name.c_str (),
                           path_fail.c_str ());
            }
          std::fflush (stdout);
          path_fail.clear ();
          over_budget = budget_used (t0, budget);
          if (stats)
            {
              for (auto &kv : *stats)
                std::fprintf (stderr, "ct-trace: %llu steps in %s\n",
                              kv.second, kv.first.c_str ());
              stats->clear ();
            }
          continue;
        }
      if (what != MARK_CALL || !path_fail.empty () || !mark_insn
          || over_budget)
        continue;   /* MARK_CALL_END, or a path already failed.  */

      /* Lock step from after the call marker to the next marker.  */
      const std::string call = name;
      unsigned long long s = 0;
      /* A rep instruction, or a verified function, just ran to its end:
       * the copies are already at the next instruction.  */
      bool stepped = false;
      for (;;)
        {
          for (size_t k = 0; k < n && !stepped; k++)
            ptrace (PTRACE_SINGLESTEP, t[k].pid, nullptr, nullptr);
          for (size_t k = 0; k < n; k++)
            {
              if (stepped)
                {
                  g[k] = get_regs (t[k].pid);
                  continue;
                }
              wait_stop (t[k].pid, &exited);
              if (exited)
                {
                  std::printf ("ct-trace: FAIL driver: exited while "
                               "traced (%s)\n", call.c_str ());
                  return 1;
                }
              g[k] = get_regs (t[k].pid);
            }
          s++;
          if ((s & 0xffff) == 0 && budget_used (t0, budget))
            {
              /* Mid-path: the path becomes NOTRUN at its end marker.  */
              over_budget = true;
              break;
            }
          const uint64_t rip = g[0].r[R_RIP];
          std::string diff;
          const Insn *in_rep = nullptr;
          bool through = false;   /* A verified function was run through. */
          for (size_t k = 1; k < n && diff.empty (); k++)
            if (g[k].r[R_RIP] != rip)
              diff = "branch: next instruction " + where (rip) + " vs "
                     + where (g[k].r[R_RIP]);
            else if (g[k].r[R_RSP] != g[0].r[R_RSP])
              diff = "stack pointer at " + where (rip);
          if (rip == mark_insn && diff.empty ()
              && g[0].r[7] == MARK_PUBLIC)
            {
              for (size_t k = 1; k < n && diff.empty (); k++)
                if (g[k].r[7] != MARK_PUBLIC)
                  diff = "declassification in one copy only";
              if (diff.empty ())
                diff = share_public (t, g);
              if (diff.empty ())
                {
                  stepped = false;
                  continue;   /* Step over the int3 and on.  */
                }
            }
          if (rip == mark_insn)
            {
              if (!diff.empty () && path_fail.empty ())
                path_fail = call + ": " + diff;
              break;
            }
          if (diff.empty ())
            {
              Module *m;
              const Insn *in = lookup (rip, &m);
              if (!in)
                undecoded++;
              else
                {
                  if (in->rep)
                    in_rep = in;
                  if (profile)
                    (*profile)[m->funcs[in->func]]++;
                  if (in->entry && m->verified[in->func])
                    {
                      diff = run_through (t, g);
                      if (!diff.empty ())
                        diff += " (" + where (rip) + ")";
                      through = true;
                      in = in_rep = nullptr;   /* Already run.  */
                    }
                }
              for (int j = 0; in && j < in->nmem && diff.empty (); j++)
                {
                  const MemOp &mo = in->mem[j];
                  if (mo.vsib)
                    {
                      diff = "vector-indexed memory operand (gather/"
                             "scatter) at " + where (rip);
                      break;
                    }
                  /* rip-relative: the same for all (rip is).  */
                  uint64_t ea[9];
                  for (size_t k = 0; k < n; k++)
                    ea[k] = reg_value (g[k], mo.base, 0)
                            + reg_value (g[k], mo.index, 0)
                                * (uint64_t) mo.scale
                            + (uint64_t) mo.disp;
                  for (size_t k = 1; k < n; k++)
                    if ((mo.base & 31) != R_RIP && ea[k] != ea[0])
                      {
                        char v[80];
                        std::snprintf (v, sizeof v, " (%#" PRIx64 " vs %#"
                                       PRIx64 ")", ea[0], ea[k]);
                        diff = "memory address at " + where (rip) + v;
                        break;
                      }
                }
            }
          if (diff.empty () && in_rep && in_rep->len)
            {
              /* The count: the same in every copy, then one go.  */
              for (size_t k = 1; k < n; k++)
                if (g[k].r[1] != g[0].r[1])
                  diff = "string instruction count at " + where (rip);
              if (diff.empty ())
                for (size_t k = 0; k < n; k++)
                  run_rep (t[k].pid, rip + in_rep->len);
            }
          stepped = diff.empty ()
                    && ((in_rep && in_rep->len) || through);
          if (!diff.empty ())
            {
              path_fail = call + ": " + diff;
              break;   /* The rest of the path is not compared.  */
            }
        }
      /* After a difference each copy runs on to its next marker (the
       * CONT at the top of the loop).  */
      steps += s;
      if (stats)
        (*stats)[call] += s;
    }
  if (profile)
    for (auto &kv : *profile)
      std::fprintf (stderr, "ct-trace: profile %llu %s\n", kv.second,
                    kv.first.c_str ());
  std::printf ("ct-trace: summary %lu paths traced, %lu failed, %llu steps"
               ", %llu undecoded, %lu not run\n", npaths, nfail, steps,
               undecoded, nnotrun);
  for (Tracee &c : t)
    kill (c.pid, SIGKILL);
  return status;
}
#endif
