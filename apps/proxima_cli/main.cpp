// SPDX-License-Identifier: MIT
// The proxima command line tool (scene runner and demo are added by the io/cli work).
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    std::puts("proxima 0.1.0");
    return 0;
  }
  std::fprintf(stderr, "usage: proxima --version\n");
  return 2;
}
