// SPDX-License-Identifier: MIT
// Private: the stable sorts of the ccd queries, which allocate nothing of their own. A warm query
// allocates only its result (tests/noalloc); std::stable_sort takes a temporary buffer from the
// heap on every call, even for one element, so the queries sort with these instead.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace proxima::ccd::detail {

/// Sorts [lo, hi) by `less`, stable (equal elements keep their order). Cost only: for short runs,
/// or runs that are sorted but for a few elements, where it moves little and its comparisons
/// rarely mispredict.
template <class T, class Less>
void insertion_sort(T* lo, T* hi, Less less) {
  // Callers hand empty ranges (an empty row, a null data() of an empty vector): lo + 1 would then
  // point past the end, or be null plus one, which C++ leaves undefined even unread.
  if (hi - lo < 2) return;
  for (T* it = lo + 1; it < hi; ++it) {
    if (!less(*it, *(it - 1))) continue;
    T moving = std::move(*it);
    T* to = it;
    do {
      *to = std::move(*(to - 1));
      --to;
    } while (to > lo && less(moving, *(to - 1)));
    *to = std::move(moving);
  }
}

/// Runs of at most this many elements are sorted by insertion (std::sort too sorts up to 16
/// elements by insertion).
inline constexpr std::size_t kInsertionRun = 16;

/// Sorts `items` by `less`, stable: the same order as std::stable_sort (a stable order is unique).
/// Up to kInsertionRun elements by insertion; longer ones by insertion-sorted runs of
/// kInsertionRun merged bottom-up through `buffer`, the caller's storage kept across calls (resized
/// to items.size(): once grown, nothing is allocated). O(n log n) comparisons.
template <class T, class Less>
void stable_sort_with_buffer(std::vector<T>& items, std::vector<T>& buffer, Less less) {
  const std::size_t n = items.size();
  if (n <= kInsertionRun) {
    if (n > 1) insertion_sort(items.data(), items.data() + n, less);
    return;
  }
  for (std::size_t start = 0; start < n; start += kInsertionRun)
    insertion_sort(items.data() + start, items.data() + std::min(start + kInsertionRun, n), less);
  buffer.resize(n);
  T* from = items.data();
  T* to = buffer.data();
  for (std::size_t width = kInsertionRun; width < n; width *= 2) {
    for (std::size_t start = 0; start < n; start += 2 * width) {
      const std::size_t mid = std::min(start + width, n), end = std::min(start + 2 * width, n);
      // std::merge takes from the first range on ties: stable.
      std::merge(std::make_move_iterator(from + start), std::make_move_iterator(from + mid),
                 std::make_move_iterator(from + mid), std::make_move_iterator(from + end), to + start, less);
    }
    std::swap(from, to);
  }
  if (from != items.data()) std::move(from, from + n, items.data());
}

}  // namespace proxima::ccd::detail
