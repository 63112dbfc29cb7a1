#include "quantiles/quantile_columns.hpp"

namespace dumpcmp {

void append_quantile_header(std::vector<std::string>& header) {
  for (const char* measure : kErrorMeasureNames) {
    for (const char* level : kQuantileLevelNames) header.push_back(std::string(measure) + level);
    header.push_back(std::string(measure) + "Histogram");
  }
}

std::string histogram_text(const ErrorDistribution& d) {
  std::string bins;
  for (const int64_t n : d.histogram) bins += (bins.empty() ? "" : ";") + std::to_string(n);
  return bins;
}

}  // namespace dumpcmp
