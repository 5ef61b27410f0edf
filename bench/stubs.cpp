// SPDX-License-Identifier: MIT
// Empty factories for the peers this build did not find (CMakeLists.txt defines
// PROXIMA_BENCH_HAVE_<PEER> and compiles peers/<peer>.cpp only when the library is present), and
// for proxima's query and lp layers when they are absent.
#include "common.hpp"

namespace proxima::bench {

#ifndef PROXIMA_BENCH_HAVE_QUERY
std::vector<std::unique_ptr<Implementation>> make_proxima_query() { return {}; }
#endif
#ifndef PROXIMA_BENCH_HAVE_LP
std::vector<std::unique_ptr<Implementation>> make_proxima_lp() { return {}; }
#endif
#ifndef PROXIMA_BENCH_HAVE_LIBCCD
std::vector<std::unique_ptr<Implementation>> make_libccd() { return {}; }
#endif
#ifndef PROXIMA_BENCH_HAVE_FCL
std::vector<std::unique_ptr<Implementation>> make_fcl() { return {}; }
#endif
#ifndef PROXIMA_BENCH_HAVE_BULLET
std::vector<std::unique_ptr<Implementation>> make_bullet() { return {}; }
#endif

}  // namespace proxima::bench
