// Entry point of the `hashline` binary: parses the subcommand and hands over (placeholder until
// the lsp/ layer lands).
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    std::printf("hashline %s\n", HASHLINE_VERSION);
    return 0;
  }
  std::fprintf(stderr, "usage: hashline lsp|read|edit|...\n");
  return 2;
}
