// SPDX-License-Identifier: MIT
// detail::CacheLineAllocator: every block a CacheLineVector holds starts on a 64-byte boundary,
// through growth, insertion and copies (the polytope's scan block and climb records rely on it).
#include <proxima/core/aligned_allocator.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace proxima::detail {
namespace {

bool on_cache_line(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 64 == 0; }

TEST(CacheLineAllocator, EveryBlockStartsOnACacheLine) {
  // Many sizes, allocated while other blocks are alive, so the heap is in varied states (the
  // default allocator gives 16-byte alignment only: several of these would start mid-line).
  std::vector<CacheLineVector<double>> alive;
  for (std::size_t n = 1; n <= 200; ++n) {
    alive.emplace_back(n, 1.0);
    ASSERT_TRUE(on_cache_line(alive.back().data())) << "size " << n;
    std::vector<char> filler(n * 8 + 24);  // a default-aligned block of another size in between
    ASSERT_EQ(filler.size(), n * 8 + 24);
  }
}

TEST(CacheLineAllocator, GrowthInsertionAndCopiesStayAligned) {
  CacheLineVector<double> v;
  for (int i = 0; i < 1000; ++i) {
    v.push_back(static_cast<double>(i));
    ASSERT_TRUE(on_cache_line(v.data())) << "after push_back " << i;
  }
  const std::vector<double> more(333, 2.5);
  v.insert(v.end(), more.begin(), more.end());
  EXPECT_TRUE(on_cache_line(v.data()));
  EXPECT_EQ(v.size(), 1333u);
  EXPECT_EQ(v[999], 999.0);
  EXPECT_EQ(v[1332], 2.5);
  const CacheLineVector<double> copy = v;
  EXPECT_TRUE(on_cache_line(copy.data()));
  EXPECT_EQ(copy, v);
  struct Record {
    double x, y, z;
    int a, b;
  };
  CacheLineVector<Record> records(7, Record{1, 2, 3, 4, 5});
  EXPECT_TRUE(on_cache_line(records.data()));
  EXPECT_EQ(records[6].b, 5);
}

}  // namespace
}  // namespace proxima::detail
