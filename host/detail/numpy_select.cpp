// numpy's introselect (numpy/core/src/npysort/selection.cpp, 1.24, the generic path) and CPython's
// list.sort for short lists (count_run + binary insertion), re-implemented from their published
// algorithms for the one use described in numpy_select.hpp.
#include "detail/numpy_select.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace dumpcmp {
namespace {

class Select {
 public:
  Select(const std::vector<double>& v, std::vector<int64_t>& order) : v_(v), t_(order) {}

  void introselect(int64_t begin, int64_t num, int64_t kth) {
    int64_t low = 0, high = num - 1;
    if (kth - low < 3) return dumb_select(begin + low, high - low + 1, kth - low);
    if (kth == num - 1) {  // the maximum: the last of equal maxima wins
      int64_t max_at = low;
      for (int64_t k = low + 1; k < num; ++k) {
        if (!less(at(begin + k), at(begin + max_at))) max_at = k;
      }
      return std::swap(t_[static_cast<size_t>(begin + kth)],
                       t_[static_cast<size_t>(begin + max_at)]);
    }
    int depth_limit = 2 * msb(num);
    while (low + 1 < high) {
      int64_t ll = low + 1, hh = high;
      if (depth_limit > 0 || hh - ll < 5) {
        median3_swap(begin, low, low + (high - low) / 2, high);
      } else {
        const int64_t mid = ll + median_of_median5(begin + ll, hh - ll);
        swap(begin + mid, begin + low);
        --ll;
        ++hh;
      }
      --depth_limit;
      const double pivot = at(begin + low);
      for (;;) {
        do ++ll;
        while (less(at(begin + ll), pivot));
        do --hh;
        while (less(pivot, at(begin + hh)));
        if (hh < ll) break;
        swap(begin + ll, begin + hh);
      }
      swap(begin + low, begin + hh);
      if (hh >= kth) high = hh - 1;
      if (hh <= kth) low = ll;
    }
    if (high == low + 1 && less(at(begin + high), at(begin + low))) swap(begin + high, begin + low);
  }

 private:
  static bool less(double a, double b) { return a < b; }  // the sanitised values hold no NaN
  double at(int64_t i) const { return v_[static_cast<size_t>(t_[static_cast<size_t>(i)])]; }
  void swap(int64_t a, int64_t b) {
    std::swap(t_[static_cast<size_t>(a)], t_[static_cast<size_t>(b)]);
  }
  static int msb(int64_t n) {
    int depth = 0;
    while (n >>= 1) ++depth;
    return depth;
  }

  void dumb_select(int64_t begin, int64_t num, int64_t kth) {
    for (int64_t i = 0; i <= kth; ++i) {
      int64_t min_at = i;
      double min_value = at(begin + i);
      for (int64_t k = i + 1; k < num; ++k) {
        if (less(at(begin + k), min_value)) {
          min_at = k;
          min_value = at(begin + k);
        }
      }
      swap(begin + i, begin + min_at);
    }
  }

  void median3_swap(int64_t b, int64_t low, int64_t mid, int64_t high) {
    if (less(at(b + high), at(b + mid))) swap(b + high, b + mid);
    if (less(at(b + high), at(b + low))) swap(b + high, b + low);
    if (less(at(b + low), at(b + mid))) swap(b + low, b + mid);
    swap(b + mid, b + low + 1);
  }

  int64_t median5(int64_t b) {
    if (less(at(b + 1), at(b + 0))) swap(b + 1, b + 0);
    if (less(at(b + 4), at(b + 3))) swap(b + 4, b + 3);
    if (less(at(b + 3), at(b + 0))) swap(b + 3, b + 0);
    if (less(at(b + 4), at(b + 1))) swap(b + 4, b + 1);
    if (less(at(b + 2), at(b + 1))) swap(b + 2, b + 1);
    if (less(at(b + 3), at(b + 2))) return less(at(b + 3), at(b + 1)) ? 1 : 3;
    return 2;
  }

  int64_t median_of_median5(int64_t b, int64_t num) {
    const int64_t nmed = num / 5;
    for (int64_t i = 0, sub = 0; i < nmed; ++i, sub += 5) swap(b + sub + median5(b + sub), b + i);
    if (nmed > 2) introselect(b, nmed, nmed / 2);
    return nmed / 2;
  }

  const std::vector<double>& v_;
  std::vector<int64_t>& t_;
};

// Python's `<` on (value, index) tuples.
bool tuple_less(const SortKey& a, const SortKey& b) {
  if (a.value == b.value) return a.index < b.index;
  return a.value < b.value;
}

}  // namespace

std::vector<int64_t> numpy_argpartition_top(const std::vector<double>& values, int64_t n) {
  const auto num = static_cast<int64_t>(values.size());
  std::vector<int64_t> order(values.size());
  for (int64_t i = 0; i < num; ++i) order[static_cast<size_t>(i)] = i;
  Select(values, order).introselect(0, num, num - n);
  return {order.end() - n, order.end()};
}

void python_sort_descending(std::vector<SortKey>& keys) {
  // reverse=True: reverse, sort stably ascending, reverse again.
  std::reverse(keys.begin(), keys.end());
  const size_t n = keys.size();
  if (n >= 2) {
    // count_run: a strictly descending run is reversed, an ascending one kept.
    size_t run = 2;
    if (tuple_less(keys[1], keys[0])) {
      while (run < n && tuple_less(keys[run], keys[run - 1])) ++run;
      std::reverse(keys.begin(), keys.begin() + static_cast<long>(run));
    } else {
      while (run < n && !tuple_less(keys[run], keys[run - 1])) ++run;
    }
    // binary insertion of the rest (CPython's binarysort; lists here are short).
    for (size_t start = run; start < n; ++start) {
      const SortKey pivot = keys[start];
      size_t l = 0, r = start;
      while (l < r) {
        const size_t p = l + ((r - l) >> 1);
        if (tuple_less(pivot, keys[p]))
          r = p;
        else
          l = p + 1;
      }
      std::move_backward(keys.begin() + static_cast<long>(l),
                         keys.begin() + static_cast<long>(start),
                         keys.begin() + static_cast<long>(start) + 1);
      keys[l] = pivot;
    }
  }
  std::reverse(keys.begin(), keys.end());
}

}  // namespace dumpcmp
