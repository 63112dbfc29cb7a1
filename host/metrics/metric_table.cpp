#include "metrics/metric_table.hpp"

#include <cfloat>
#include <cmath>

#include "metrics/metric_messages.hpp"

namespace dumpcmp {
namespace {

// A float32 reduction of the same numbers overflows where the double one does not.
double saturate_f32(double v) {
  if (v > FLT_MAX) return INFINITY;
  if (v < -FLT_MAX) return -INFINITY;
  return v;
}

// msaccucmp's mean of float32 data: the float32 sum divided by the count.
double mean_f32(double sum, uint64_t n) { return saturate_f32(sum) / static_cast<double>(n); }

// ||v|| as numpy computes it in float32.
double norm_f32(double sum_squares) {
  return static_cast<double>(std::sqrt(static_cast<float>(saturate_f32(sum_squares))));
}

std::string failed_in(Metric m, const std::string& what) {
  return msg::compare_failed(metric_name(m), what);
}

// A computed value (NaN and inf included).
MetricCell value_cell(double v) {
  MetricCell cell;
  cell.status = CellStatus::kValue;
  cell.value = v;
  return cell;
}
MetricCell not_computed(std::string reason) {
  MetricCell cell;
  cell.reason = std::move(reason);
  return cell;
}

MetricCell cosine_from_norms(double nx, double ny, double cosine, const PairContext& ctx) {
  if (nx <= kEps64 && ny < kEps64) {
    MetricCell one;
    one.status = CellStatus::kLiteralOne;
    return one;
  }
  if (std::sqrt(nx) <= kEps64) {
    return not_computed(msg::cosine_all_zero(ctx.my_file));
  }
  if (std::sqrt(ny) <= kEps64) {
    return not_computed(msg::cosine_all_zero(ctx.golden_file));
  }
  return value_cell(cosine > 1.0 ? 1.0 : cosine);
}

MetricCell cosine(const PairStats& s, const PairContext& ctx) {
  if (ctx.scalar_shape) {
    MetricCell cell = value_cell(1.0);
    cell.reason = msg::scalar_tensor();
    return cell;
  }
  if (s.both_bool) {
    const double nx = std::sqrt(static_cast<double>(s.boolean.x_true));
    const double ny = std::sqrt(static_cast<double>(s.boolean.y_true));
    return cosine_from_norms(nx, ny, static_cast<double>(s.boolean.both_true) / (nx * ny), ctx);
  }
  const PairAccumulator& a = s.pair;
  const double nx = norm_f32(a.sum_xx), ny = norm_f32(a.sum_yy);
  double r;
  if (has_nonfinite(a.x) || has_nonfinite(a.y)) {
    r = NAN;  // x/||x|| meets inf/inf or NaN
  } else if (std::isinf(nx) || std::isinf(ny)) {
    r = 0.0;  // float32 squares overflowed: every normalised element is 0
  } else {
    r = a.sum_xy / std::sqrt(a.sum_xx * a.sum_yy);
  }
  return cosine_from_norms(nx, ny, r, ctx);
}

MetricCell relative_euclidean(const PairStats& s) {
  if (s.both_bool) {
    if (s.boolean.y_true == 0) return value_cell(0.0);
    return not_computed(failed_in(Metric::kRelativeEuclideanDistance, msg::bool_subtract()));
  }
  const double g = saturate_f32(s.pair.sum_yy);
  if (std::sqrt(g) <= kEps64) return value_cell(0.0);
  const double q = static_cast<double>(static_cast<float>(saturate_f32(s.pair.sum_d2) / g));
  return value_cell(std::sqrt(q));
}

MetricCell kl_divergence(const PairStats& s, const PairContext& ctx) {
  const PairAccumulator& a = s.pair;
  if (a.n == 0)
    return not_computed(failed_in(Metric::kKullbackLeiblerDivergence, msg::empty_max_reduction()));
  if (!kld_pass_possible(a) || !s.kld) return value_cell(NAN);
  const KldAccumulator& k = *s.kld;
  double r;
  if (saturate_f32(k.sum_p) == INFINITY) {
    r = NAN;  // float32 P = p / inf is 0 everywhere: 0 * log(0) is NaN
  } else if (saturate_f32(k.sum_q) == INFINITY) {
    r = INFINITY;  // float32 Q = q / inf is 0 everywhere: P / Q is inf
  } else {
    r = k.sum_plogpq / k.sum_p + std::log(k.sum_q / k.sum_p);
  }
  if (std::fabs(r) < kEps64) r = 0.0;
  MetricCell cell = value_cell(r);
  if (r == INFINITY) {
    cell.reason = msg::kld_contains_zero(ctx.golden_file);
  }
  return cell;
}

// (mean; population std) of one side, as numpy's float64 mean/std of the float32 data.
void side_mean_std(const SideStats& s, uint64_t n, double& mean, double& std_dev) {
  if (n == 0 || s.nan > 0 || (s.pos_inf > 0 && s.neg_inf > 0)) {
    mean = std_dev = NAN;
  } else if (s.pos_inf > 0 || s.neg_inf > 0) {
    mean = s.pos_inf > 0 ? INFINITY : -INFINITY;
    std_dev = NAN;
  } else {
    mean = s.mean;
    std_dev = std::sqrt(s.m2 / static_cast<double>(s.finite));
  }
}

MetricCell standard_deviation(const PairStats& s) {
  MetricCell cell;
  cell.status = CellStatus::kValue;
  side_mean_std(s.pair.x, s.pair.n, cell.parts[0], cell.parts[1]);
  side_mean_std(s.pair.y, s.pair.n, cell.parts[2], cell.parts[3]);
  return cell;
}

MetricCell max_of(Metric m, uint64_t n, uint64_t nan_count, float max_value) {
  if (n == 0) return not_computed(failed_in(m, msg::empty_max_reduction()));
  return value_cell(nan_count > 0 ? NAN : static_cast<double>(max_value));
}

}  // namespace

MetricCell derive_metric(Metric m, const PairStats& s, const PairContext& ctx) {
  if (m == Metric::kCosineSimilarity) return cosine(s, ctx);
  if (m == Metric::kRelativeEuclideanDistance) return relative_euclidean(s);
  if (s.both_bool) {
    return not_computed(msg::boolean_not_supported(metric_name(m)));
  }
  const PairAccumulator& a = s.pair;
  switch (m) {
    case Metric::kMaxAbsoluteError:
      return max_of(m, a.n, a.nan_abs_d, a.max_abs_d);
    case Metric::kAccumulatedRelativeError:
      return value_cell(saturate_f32(a.sum_rel));
    case Metric::kKullbackLeiblerDivergence:
      return kl_divergence(s, ctx);
    case Metric::kStandardDeviation:
      return standard_deviation(s);
    case Metric::kMeanAbsoluteError:
      return value_cell(a.n ? mean_f32(a.sum_abs_d, a.n) : NAN);
    case Metric::kRootMeanSquareError:
      return value_cell(a.n ? std::sqrt(mean_f32(a.sum_d2, a.n)) : NAN);
    case Metric::kMaxRelativeError:
      return max_of(m, a.n, a.nan_rel, a.max_rel);
    case Metric::kMeanRelativeError:
      return value_cell(a.n ? mean_f32(a.sum_rel, a.n) : NAN);
    default:
      return not_computed("unknown algorithm");
  }
}

}  // namespace dumpcmp
