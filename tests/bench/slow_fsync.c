// slow_fsync: an LD_PRELOAD shim for the patch benchmark that makes every fsync and fdatasync
// take HASHLINE_FSYNC_DELAY_MS longer, as on a disk whose cache flush is slow (a cloud volume,
// a laptop SSD with a write barrier). It shows what a tool's fsyncs cost on such a machine, on
// any machine: `patch_vs_codex.mjs --fsync-delay-ms N` preloads it into hashline and the floor
// (codex's apply_patch is statically linked and does not fsync).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void delay(void) {
  const char* value = getenv("HASHLINE_FSYNC_DELAY_MS");
  long ms = value ? atol(value) : 0;
  if (ms <= 0) return;
  struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&pause, &pause) != 0) {
  }
}

int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  int result = real(fd);
  delay();
  return result;
}

int fdatasync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  int result = real(fd);
  delay();
  return result;
}
