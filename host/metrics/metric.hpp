#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

// msaccucmp's ten built-in algorithms, in its `-alg all` order (indexes 0-9 select them).
enum class Metric {
  kCosineSimilarity,
  kMaxAbsoluteError,
  kAccumulatedRelativeError,
  kRelativeEuclideanDistance,
  kKullbackLeiblerDivergence,
  kStandardDeviation,
  kMeanAbsoluteError,
  kRootMeanSquareError,
  kMaxRelativeError,
  kMeanRelativeError,
};

constexpr int kMetricCount = 10;

std::string_view metric_name(Metric m);
const std::vector<Metric>& all_metrics();

// `-alg` values as msaccucmp's argparse and AlgorithmManager take them: one token of "all" (any
// case) or comma-separated names and indexes 0-9, where an unknown name is skipped with a warning;
// or several tokens when the second is an index, each then an index 0-9. Order kept, duplicates
// dropped. Throws Error(kUsage) with msaccucmp's message when nothing valid is selected, for a
// bad index list, and for several tokens whose second is not an index.
std::vector<Metric> parse_metric_selection(const std::vector<std::string>& tokens,
                                           std::vector<std::string>* warnings = nullptr);

// A custom algorithm's column (-c DIR/algorithm/alg_<name>.py): its name, and how many built-in
// metric columns come before it (msaccucmp orders columns as -alg names them).
struct CustomColumn {
  std::string name;
  int after = 0;
  bool operator==(const CustomColumn& o) const { return name == o.name && after == o.after; }
};

struct AlgorithmSelection {
  std::vector<Metric> metrics;
  std::vector<CustomColumn> custom;
};

// msaccucmp's error when nothing selected can run: `selected` as it quotes the selection ('a,b'
// for the -alg text, ['A', 'B'] for a list), then every built-in name and the `custom` ones.
std::string unsupported_algorithms_message(const std::string& selected,
                                           const std::vector<std::string>& custom);

// parse_metric_selection where `custom` names the custom algorithms found: a name among them
// selects the custom one (msaccucmp looks there first), indexes stay built-in, and "all" selects
// the built-in ten only (as msaccucmp does).
AlgorithmSelection parse_algorithm_selection(const std::vector<std::string>& tokens,
                                             const std::vector<std::string>& custom,
                                             std::vector<std::string>* warnings = nullptr);

}  // namespace dumpcmp
