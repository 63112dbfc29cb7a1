#pragma once
// Single-operator detail mode's selections: the N largest errors of a stream (TopN) and the range
// of the errors (MinMax), each kept per file block and merged.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dumpcmp::single_op {

struct Ranked {
  double key;
  int64_t index;
};
// Larger error first; ties by the larger index, as msaccucmp's sort of (error, Index) in reverse.
// (Which of several equal errors make the cut is left to numpy's argpartition there; here the
// same rule decides, so the result is deterministic.)
inline bool ranks_before(const Ranked& a, const Ranked& b) {
  return a.key > b.key || (a.key == b.key && a.index > b.index);
}

// The N best of a stream, kept as a heap whose top is the worst kept.
class TopN {
 public:
  explicit TopN(size_t n) : n_(n) {}
  void offer(double key, int64_t index) {
    if (n_ == 0) return;
    const Ranked r{key, index};
    if (heap_.size() < n_) {
      heap_.push_back(r);
      std::push_heap(heap_.begin(), heap_.end(), ranks_before);
    } else if (ranks_before(r, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), ranks_before);
      heap_.back() = r;
      std::push_heap(heap_.begin(), heap_.end(), ranks_before);
    }
  }
  void merge(const TopN& other) {
    for (const Ranked& r : other.heap_) offer(r.key, r.index);
  }
  std::vector<Ranked> sorted() const {
    std::vector<Ranked> out = heap_;
    std::sort(out.begin(), out.end(), ranks_before);
    return out;
  }

 private:
  size_t n_;
  std::vector<Ranked> heap_;
};

struct MinMax {
  double min_abs = INFINITY, max_abs = -INFINITY, min_rel = INFINITY, max_rel = -INFINITY;
  void add(double a, double r) {
    min_abs = std::min(min_abs, a);
    max_abs = std::max(max_abs, a);
    min_rel = std::min(min_rel, r);
    max_rel = std::max(max_rel, r);
  }
  void merge(const MinMax& o) {
    min_abs = std::min(min_abs, o.min_abs);
    max_abs = std::max(max_abs, o.max_abs);
    min_rel = std::min(min_rel, o.min_rel);
    max_rel = std::max(max_rel, o.max_rel);
  }
};

}  // namespace dumpcmp::single_op
