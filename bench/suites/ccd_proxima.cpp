// SPDX-License-Identifier: MIT
// proxima's rows of the ccd suite:
//  - proxima_exact:        ccd::screw_collisions, exact mode, every collision of the step;
//  - proxima_exact_first:  the same with first_contact_only (stops after the earliest time slab
//                          that holds a collision);
//  - proxima_raster:       ScrewMethod::raster with its default (medium) resolution (seed 004's
//                          collision screen); proxima_raster_low / _high: the low and high
//                          presets; proxima_raster_first: medium with first_contact_only;
//  - proxima_toi_box, proxima_toi_polytope: ccd::toi_screw (conservative advancement on GJK
//                          distances under the same screw), convex cases only, the bodies as Box
//                          (cube) or as the Polytope of the mesh's vertices.
// All get the world poses of both bodies; the library takes the relative screw itself.
#include "suites/ccd_implementation.hpp"

#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/ccd/toi.hpp>
#include <proxima/core/error.hpp>
#include <proxima/mesh/generators.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/polytope.hpp>

#include <optional>

namespace proxima::bench {
namespace {

/// The exact mode's contract (issue 5): contact times agree with the reference to 1e-9.
constexpr double kExactTimeTolerance = 1e-9;
/// Conservative advancement stops short of the contact (proxima: distance below 1e-9 of the
/// scale; FCL: a step below its toc_err, 1e-4 by default). Both families are judged by FCL's
/// documented time error, 1e-4 of the step.
constexpr double kAdvancementTimeTolerance = 1e-4;
/// Raster mode: the screen only selects the candidate feature pairs; every reported time is a
/// root of the exact mode's contact functions (ccd/screw_collisions.hpp), so its first contact is
/// judged by the exact mode's tolerance, not by its time resolution.
constexpr double kRasterTimeTolerance = kExactTimeTolerance;

/// Raster options at a resolution preset (core/tolerance.hpp).
ccd::ScrewOptions raster_options(double pixel_size, double time_resolution, bool first_contact_only = false) {
  ccd::ScrewOptions o;
  o.method = ccd::ScrewMethod::raster;
  o.pixel_size = pixel_size;
  o.time_resolution = time_resolution;
  o.first_contact_only = first_contact_only;
  return o;
}

class ScrewRow final : public CcdImplementation {
 public:
  ScrewRow(std::string name, ccd::ScrewOptions options, double tolerance, std::string description)
      : name_(std::move(name)), options_(options), tolerance_(tolerance), description_(std::move(description)) {
    // Ask once, on two boxes, whether the library takes this method at all.
    const mesh::Mesh box = mesh::make_box(Vec3(0.5, 0.5, 0.5));
    try {
      ccd::screw_collisions(box, Pose(), Pose(), box, Pose::from_translation(Vec3(3, 0, 0)), Pose(), options_);
    } catch (const InvalidInput& e) {
      if (e.field() != "method") throw;
      available_ = false;
    }
  }
  std::string name() const override { return name_; }
  bool supports(const CcdCase&) const override { return true; }
  void prepare(const CcdCase& c) override { case_ = &c; }
  CcdAnswer answer(std::size_t i) override {
    const CcdMotion& m = case_->motions[i];
    const ccd::ScrewResult r = ccd::screw_collisions(case_->a, m.a_start, m.a_end, case_->b, m.b_start, m.b_end, options_);
    return {r.contact, r.toi};
  }
  CcdTolerance tolerance() const override { return {tolerance_, 0}; }
  bool available() const override { return available_; }
  std::string description() const override { return description_; }

 private:
  std::string name_;
  ccd::ScrewOptions options_;
  double tolerance_;
  std::string description_;
  bool available_ = true;
  const CcdCase* case_ = nullptr;
};

/// toi_screw on the convex views of a convex case: Box (cube case only) or Polytope.
template <class Shape>
class ToiRow final : public CcdImplementation {
 public:
  ToiRow(std::string name, std::string description) : name_(std::move(name)), description_(std::move(description)) {}
  std::string name() const override { return name_; }
  bool supports(const CcdCase& c) const override {
    if constexpr (std::is_same_v<Shape, Box>) return c.box_a && c.box_b;
    return c.convex;
  }
  void prepare(const CcdCase& c) override {
    case_ = &c;
    if constexpr (std::is_same_v<Shape, Box>) {
      a_.emplace(*c.box_a);
      b_.emplace(*c.box_b);
    } else {
      a_.emplace(c.a.vertices());
      b_.emplace(c.b.vertices());
    }
  }
  CcdAnswer answer(std::size_t i) override {
    const CcdMotion& m = case_->motions[i];
    const ToiResult r = ccd::toi_screw(*a_, m.a_start, m.a_end, *b_, m.b_start, m.b_end);
    return {r.contact, r.toi};
  }
  CcdTolerance tolerance() const override { return {kAdvancementTimeTolerance, 0}; }
  std::string description() const override { return description_; }

 private:
  std::string name_;
  std::string description_;
  const CcdCase* case_ = nullptr;
  std::optional<Shape> a_, b_;
};

}  // namespace

std::vector<std::unique_ptr<CcdImplementation>> make_proxima_ccd() {
  std::vector<std::unique_ptr<CcdImplementation>> rows;
  rows.push_back(std::make_unique<ScrewRow>("proxima_exact", ccd::ScrewOptions{}, kExactTimeTolerance,
                                            "screw_collisions, exact mode, all collisions of the step"));
  rows.push_back(std::make_unique<ScrewRow>("proxima_exact_first", ccd::ScrewOptions{.first_contact_only = true},
                                            kExactTimeTolerance, "screw_collisions, exact mode, first_contact_only"));
  rows.push_back(std::make_unique<ScrewRow>(
      "proxima_raster", raster_options(kCcdRasterPixelSizeMedium, kCcdRasterTimeResolutionMedium), kRasterTimeTolerance,
      "screw_collisions, ScrewMethod::raster, medium resolution (the default)"));
  rows.push_back(std::make_unique<ScrewRow>(
      "proxima_raster_first", raster_options(kCcdRasterPixelSizeMedium, kCcdRasterTimeResolutionMedium, true),
      kRasterTimeTolerance, "screw_collisions, ScrewMethod::raster, medium resolution, first_contact_only"));
  rows.push_back(std::make_unique<ScrewRow>(
      "proxima_raster_low", raster_options(kCcdRasterPixelSizeLow, kCcdRasterTimeResolutionLow), kRasterTimeTolerance,
      "screw_collisions, ScrewMethod::raster, low resolution"));
  rows.push_back(std::make_unique<ScrewRow>(
      "proxima_raster_high", raster_options(kCcdRasterPixelSizeHigh, kCcdRasterTimeResolutionHigh), kRasterTimeTolerance,
      "screw_collisions, ScrewMethod::raster, high resolution"));
  rows.push_back(std::make_unique<ToiRow<Box>>("proxima_toi_box", "ccd::toi_screw on Box shapes (cube case)"));
  rows.push_back(std::make_unique<ToiRow<Polytope>>("proxima_toi_polytope",
                                                    "ccd::toi_screw on the Polytope of the mesh vertices (convex cases)"));
  return rows;
}

}  // namespace proxima::bench
