/* A stand-in for Windows' bcryptprimitives.dll, for the Wine smoke only (scripts/windows-smoke); never shipped.
 * Go 1.22+ and Bun draw random bytes through bcryptprimitives!ProcessPrng, which Windows 10 and 11 have and Wine 8.0
 * (Debian 12) lacks, so without this nothing of Baton's starts under that Wine. It answers from BCryptGenRandom,
 * which Wine does have. Built with mingw-w64 into the test prefix's system32 only when Wine has no such DLL. */
#include <windows.h>
#include <bcrypt.h>

/* ProcessPrng never fails on Windows; callers do not check for a partial fill. BCryptGenRandom takes a ULONG
 * length, so larger requests go in pieces. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len > 0) {
    ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
    if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, data, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG))) return FALSE;
    data += chunk;
    len -= chunk;
  }
  return TRUE;
}
