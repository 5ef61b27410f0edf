// SPDX-License-Identifier: MIT
// `proxima view`: the 3-D viewer page. Being built (issue 6); until it lands the command says so
// and exits with the usage status rather than writing an empty page.
#include "commands.hpp"

#include <cstdio>

namespace proxima::cli {

int view_command(const std::vector<std::string>& /*args*/) {
  std::fprintf(stderr, "proxima: view is not available in this build yet\n");
  return kExitUsage;
}

}  // namespace proxima::cli
