/* t-hwf.c - report the CPU features gcipher detected, and check them
 * against what the test runner says the CPU has.
 *
 * Prints one line
 *   [ hwf      ] hwflist:NAME:NAME:...:
 * (gcry_get_config (0, "hwflist"), the names of README.md's "Hardware
 * features" table), so every test log set says which features the paths
 * could use.  The cross checks (tests/cross/check-cross.sh) run it on
 * each emulated CPU with
 *   GCIPHER_EXPECT_HWF=name,name,...     each must be listed
 *   GCIPHER_EXPECT_NO_HWF=name,name,...  none may be listed
 * which is how the RISC-V detection (riscv_hwprobe(2), src/hwfeatures.cpp)
 * is checked against the extensions QEMU's -cpu option enables.  With
 * neither variable set it only reports and passes.
 *
 * Exit: 0 pass, 1 fail (a missing or unexpected feature, no hwflist).  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcrypt.h>

/* Whether the ":"-separated LIST (starting after "hwflist:") holds NAME
 * as a whole entry.  */
static int
listed (const char *list, const char *name, size_t len)
{
  const char *p = list;
  while ((p = strstr (p, name)) != NULL)
    {
      if ((p == list || p[-1] == ':') && (p[len] == ':' || p[len] == '\n'
                                          || p[len] == '\0'))
        return 1;
      p += len;
    }
  return 0;
}

/* Check each ","-separated name of SPEC: listed when WANT is 1, absent
 * when WANT is 0.  Returns the number of mismatches.  */
static int
check (const char *list, const char *spec, int want)
{
  int bad = 0;
  const char *p = spec;
  while (p && *p)
    {
      size_t len = strcspn (p, ", ");
      if (len)
        {
          char name[64];
          if (len >= sizeof name)
            len = sizeof name - 1;
          memcpy (name, p, len);
          name[len] = '\0';
          if (listed (list, name, len) != want)
            {
              printf ("FAIL: %s %s\n", name,
                      want ? "expected but not detected"
                           : "detected but not expected");
              bad++;
            }
        }
      p += len;
      p += strspn (p, ", ");
    }
  return bad;
}

int
main (void)
{
  if (!gcry_check_version (NULL))
    {
      printf ("FAIL: gcry_check_version\n");
      return 1;
    }
  char *text = gcry_get_config (0, "hwflist");
  if (!text || strncmp (text, "hwflist:", 8) != 0)
    {
      printf ("FAIL: no hwflist in gcry_get_config (0, \"hwflist\")\n");
      return 1;
    }
  text[strcspn (text, "\n")] = '\0';
  printf ("[ hwf      ] %s\n", text);
  const char *list = text + 8;
  int bad = check (list, getenv ("GCIPHER_EXPECT_HWF"), 1)
            + check (list, getenv ("GCIPHER_EXPECT_NO_HWF"), 0);
  gcry_free (text);
  printf ("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
