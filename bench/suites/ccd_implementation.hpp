// SPDX-License-Identifier: MIT
// What one row of the ccd suite is: an implementation that answers "first contact time of this
// motion" for the motions of a case (proxima's exact, first-contact-only and raster modes and its
// convex time of impact in suites/ccd_proxima.cpp; FCL's continuous collision in
// peers/fcl_ccd.cpp).
#pragma once

#include "suites/ccd_cases.hpp"

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace proxima::bench {

/// Answer to one motion.
struct CcdAnswer {
  bool contact = false;
  /// First contact time in [0, 1]; NaN without contact.
  double toi = std::numeric_limits<double>::quiet_NaN();
};

/// How an implementation's contact times are judged against the reference (the row's
/// documented accuracy).
struct CcdTolerance {
  /// Accepted |toi - reference| for methods that converge on the contact time.
  double time = 0;
  /// Sampling methods report the first sample past the contact: accept 0 <= toi - reference <=
  /// `late` (their time resolution) and nothing earlier. 0 = not a sampling method.
  double late = 0;
};

class CcdImplementation {
 public:
  virtual ~CcdImplementation() = default;
  virtual std::string name() const = 0;
  virtual bool supports(const CcdCase& c) const = 0;
  /// Builds the implementation's own objects for the case (untimed).
  virtual void prepare(const CcdCase& c) = 0;
  /// First contact of motion i of the prepared case: what is timed.
  virtual CcdAnswer answer(std::size_t i) = 0;
  virtual CcdTolerance tolerance() const = 0;
  /// False when the method is not available in this build (answer() would throw): the row is
  /// printed as "not implemented" and is neither judged nor timed.
  virtual bool available() const { return true; }
  /// One line on how the row is set up, for the table's legend.
  virtual std::string description() const = 0;
};

/// proxima's rows (suites/ccd_proxima.cpp).
std::vector<std::unique_ptr<CcdImplementation>> make_proxima_ccd();
/// FCL 0.7's continuous collision rows (peers/fcl_ccd.cpp); empty without FCL.
std::vector<std::unique_ptr<CcdImplementation>> make_fcl_ccd();

}  // namespace proxima::bench
