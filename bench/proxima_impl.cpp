// SPDX-License-Identifier: MIT
// proxima under test. Wired in once the gjk layer provides gjk::distance / intersect / penetration.
#include "common.hpp"

namespace proxima::bench {

std::vector<std::unique_ptr<Implementation>> make_proxima() { return {}; }

}  // namespace proxima::bench
