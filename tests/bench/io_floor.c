// The I/O floor of `scripts/bench --sections patch`: what any tool that edits a file in place
// pays — read the whole file, write it back whole, fsync — as one tiny process (compiled by
// tests/bench/patch_vs_codex.mjs). Usage: io_floor FILE. Exit 0 ok, 1 an I/O error.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 2) return 1;
  int fd = open(argv[1], O_RDONLY);
  struct stat info;
  if (fd < 0 || fstat(fd, &info) != 0) return 1;
  size_t size = (size_t)info.st_size, got = 0;
  char* bytes = malloc(size ? size : 1);
  while (got < size) {
    ssize_t n = read(fd, bytes + got, size - got);
    if (n <= 0) return 1;
    got += (size_t)n;
  }
  close(fd);
  fd = open(argv[1], O_WRONLY | O_TRUNC);
  if (fd < 0) return 1;
  for (size_t put = 0; put < size;) {
    ssize_t n = write(fd, bytes + put, size - put);
    if (n <= 0) return 1;
    put += (size_t)n;
  }
  if (fsync(fd) != 0 || close(fd) != 0) return 1;
  free(bytes);
  return 0;
}
