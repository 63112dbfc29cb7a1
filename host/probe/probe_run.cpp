#include "probe/probe_run.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iterator>
#include <optional>
#include <thread>
#include <utility>

#include "backend/cpu_backend.hpp"
#include "core/atomic_file.hpp"
#include "core/directory_lock.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "core/timestamp.hpp"
#include "probe/probe_compare.hpp"
#include "probe/probe_dump.hpp"
#include "probe/probe_first_diff.hpp"
#include "probe/probe_hdf5.hpp"
#include "probe/probe_html.hpp"
#include "probe/probe_layer_mapping.hpp"
#include "probe/probe_mapping.hpp"
#include "probe/probe_text.hpp"
#include "probe/probe_verl_match.hpp"
#include "probe/probe_xlsx.hpp"
#include "probe/probe_yaml.hpp"
#include "report/csv_writer.hpp"
#include "run/run_log.hpp"
#include "stats/stats_number.hpp"

namespace dumpcmp {
namespace fs = std::filesystem;
namespace {

constexpr size_t kMaxRowsPerCsv = 1000000;  // msprobe's MAX_ROWS_PER_CSV_FILE

// get_compare_framework: PyTorch's compare for two PyTorch dumps, MindSpore's for a MindSpore NPU
// side; a dump without "framework" counts as PyTorch. Returns whether the run is cross-framework:
// a MindSpore run against a bench that check_cross_framework finds to be PyTorch.
bool check_frameworks(const ProbeDump& npu, const ProbeDump& bench) {
  const std::string target = npu.framework.empty() ? "pytorch" : npu.framework;
  const std::string golden = bench.framework.empty() ? "pytorch" : bench.framework;
  const bool ms_target = is_mindspore(npu);
  if (!(target == "pytorch" && golden == "pytorch") &&
      !(ms_target && (golden == "pytorch" || golden == "mindspore"))) {
    throw format_error(npu.path, "Unrecognized framework, target now is " + target +
                                     ", golden now is " + golden + ", please check dump.json.");
  }
  if (!ms_target) return false;
  if (bench.detected_framework.empty())
    throw format_error(bench.path, "must be based on the MindSpore or PyTorch framework.");
  return bench.detected_framework == "pytorch";
}

// --consistent_check: its backend, which msprobe's setup_comparison requires of every compare
// (-da's search over ranks takes none); PyTorch's compare runs it, MindSpore's passes it over.
// With -fm or -dm PyTorch's compare fails (they read a key it does not make). Null where the pair
// is compared without it.
std::optional<ProbeConsistentCheck> consistent_check(const ProbeRunOptions& options,
                                                     const ProbeDump& npu) {
  if (!options.consistent_check) return std::nullopt;
  if (options.verl_backend != "fsdp" && options.verl_backend != "megatron") {
    throw Error(ExitCode::kUsage,
                "If the 'consistent_check' parameter is specified, the 'backend' parameter must "
                "be set to 'fsdp' or 'megatron'. Current 'backend' parameter is " +
                    options.verl_backend + ".");
  }
  if (is_mindspore(npu)) return std::nullopt;
  if (options.fuzzy_match || !options.data_mapping.empty()) {
    throw Error(ExitCode::kUsage,
                "--consistent_check pairs rows by its own keys: msprobe's compare fails with it "
                "and -fm or -dm (no compare key); give it alone");
  }
  ProbeConsistentCheck check;
  check.backend = options.verl_backend == "fsdp" ? VerlBackend::kFsdp : VerlBackend::kMegatron;
  check.xlsx = options.xlsx;
  return check;
}

// The pair's two dump.json files and the NPU side's stack.json, if there is one.
struct PairFiles {
  std::string npu, bench, stack, suffix;
};

ProbePairCounts count_rows(const std::string& pair, const ProbeTable& table) {
  ProbePairCounts c;
  c.pair = pair;
  const auto column = [&](const char* name) {
    return static_cast<size_t>(std::find(table.header.begin(), table.header.end(), name) -
                               table.header.begin());
  };
  const size_t npu_name = column("NPU Name"), bench_name = column("Bench Name");
  const size_t result = column("Result");
  for (const std::vector<std::string>& row : table.rows) {
    ++c.rows;
    if (row[bench_name] != "N/A") ++c.matched;
    if (row[result] == "warning") ++c.warnings;
    if (row[result] == "error" && c.errors++ == 0) c.first_error = row[npu_name];
  }
  return c;
}

// -da's checks of the ranks compared so far: the rank's number and its check.
using RankChecks = std::vector<ProbeRankCheck>;

// The number msprobe reads from a rank directory's name ("rank" alone is 0).
int rank_number(const std::string& rank_dir) {
  const std::optional<int64_t> n = parse_natural(std::string_view(rank_dir).substr(4), 9);
  return n ? static_cast<int>(*n) : 0;
}

// -da on one pair: its op checks, written as compare_result_<rank dir>_<ts>.json and kept for the
// search over the ranks.
void check_pair(const ProbeTable& table, const ProbeDump& npu, const ProbeDump& bench,
                ProbeMode mode, const std::map<std::string, std::vector<std::string>>* stacks,
                const std::string& path, const std::string& rank_dir, ProbeRunResult& result,
                RankChecks& checks) {
  AtomicFile out(path + ".json");
  ProbeRankCheck check{rank_number(rank_dir), {}};
  check.ops = probe_diff_check(table, npu, bench, mode, stacks,
                               [&](std::string_view text) { out.write(text); });
  out.commit();
  result.written.push_back(path + ".json");
  checks.push_back(std::move(check));
}

void compare_pair(const PairFiles& files, const ProbeRunOptions& options,
                  const ProbeMatching& matching, const ProbeLayerMapping* layer_mapping,
                  ProbeRunResult& result, RankChecks* checks = nullptr) {
  const std::string stamp = local_timestamp();
  const ProbeDump npu = read_probe_dump(files.npu);
  const ProbeDump bench = options.golden_text != nullptr
                              ? parse_probe_dump(*options.golden_text, files.bench)
                              : read_probe_dump(files.bench);
  const std::optional<ProbeConsistentCheck> verl = consistent_check(options, npu);
  // MindSpore's compare takes no -da: its pairs are compared as without it.
  if (is_mindspore(npu)) checks = nullptr;
  ProbeMatching how = matching;
  if (verl) how.consistent = &*verl;
  how.cross_framework = check_frameworks(npu, bench);
  if (!is_mindspore(npu)) {
    // pt_compare takes no API mapping: refused for two files, left out for directories.
    if (how.api_mapping != nullptr && files.suffix.empty())
      throw Error(ExitCode::kUsage, "Argument -am is not supported in PyTorch framework");
    how.api_mapping = nullptr;
  }
  // -lm (MindSpore's compare only): the data mapping msprobe derives and writes, in place of -dm;
  // none derived leaves exact matching.
  ProbeDataMapping derived;
  if (layer_mapping != nullptr && is_mindspore(npu)) {
    const std::vector<std::pair<std::string, std::string>> rows =
        probe_layer_data_mapping(npu, bench, *layer_mapping);
    AtomicFile yaml(options.output_dir + "/data_mapping_" + stamp + ".yaml");
    yaml.write(pyyaml_flat_dict(rows));
    yaml.commit();
    derived.insert(rows.begin(), rows.end());
    how.data_mapping = derived.empty() ? nullptr : &derived;
  }
  ProbeMode mode = probe_mode(npu, bench);
  if (checks != nullptr && mode == ProbeMode::kTensor) mode = ProbeMode::kStatistics;
  const std::string pair = files.suffix.empty() ? "" : files.suffix.substr(1);
  if (npu.ops.empty() || bench.ops.empty()) {
    result.warnings.push_back(
        "No valid data found. No compare result file generated. Please check input json.");
    result.unwritten.push_back({pair, result.warnings.back(), false});
    return;
  }
  std::optional<std::map<std::string, std::vector<std::string>>> stacks;
  if (!files.stack.empty()) {
    stacks = read_probe_stack(files.stack);
    // msprobe checks the stack lines of every op either side has.
    for (const ProbeDump* dump : {&npu, &bench}) {
      for (const ProbeOp& op : dump->ops) {
        const auto stack = stacks->find(op.key);
        if (stack == stacks->end()) continue;
        for (const std::string& line : stack->second) {
          if (is_formula_like(line)) {
            throw format_error(files.stack, "stack info of " + op.key +
                                                " contains special characters, please check!");
          }
        }
      }
    }
  }
  // --config is read where msprobe reads it: for a tensor-mode pair of PyTorch's compare
  // (MindSpore's, ms_compare, does not pass it on).
  std::optional<ProbePostprocess> postprocess;
  if (mode == ProbeMode::kTensor && !options.config.empty() && !is_mindspore(npu)) {
    postprocess = read_probe_postprocess(options.config);
    result.warnings.insert(result.warnings.end(), postprocess->warnings.begin(),
                           postprocess->warnings.end());
  }
  ProbeTable table = compare_probe_dumps(
      npu, bench, mode, stacks ? &*stacks : nullptr, how, {options.pandas, options.numpy},
      *options.backend,
      {postprocess ? &*postprocess : nullptr, options.quantiles, options.threads, options.live});
  result.warnings.insert(result.warnings.end(), table.warnings.begin(), table.warnings.end());
  if (table.rows.empty()) {
    result.warnings.push_back("Can`t match any op. No compare result file generated.");
    result.unwritten.push_back({pair, result.warnings.back(), false});
    return;
  }
  const std::string prefix =
      npu.debug_file && checks == nullptr ? "/debug_compare_result" : "/compare_result";
  const std::string path = options.output_dir + prefix + files.suffix + "_" + stamp;
  if (checks != nullptr) {
    check_pair(table, npu, bench, mode, stacks ? &*stacks : nullptr, path, files.suffix.substr(1),
               result, *checks);
  } else if (options.xlsx) {
    write_probe_xlsx(path + ".xlsx", table);
    result.written.push_back(path + ".xlsx");
  } else {
    for (std::string& file : write_probe_csv(path + ".csv", table.header, table.rows)) {
      result.written.push_back(std::move(file));
    }
  }
  if (checks == nullptr) result.counts.push_back(count_rows(pair, table));
  if (options.keep_tables) result.tables.push_back({pair, table.header, std::move(table.rows)});
}

std::string stack_beside(const std::string& dump_json) {
  const fs::path stack = fs::path(dump_json).parent_path() / "stack.json";
  return fs::is_regular_file(stack) ? stack.string() : "";
}

// rank directories (^rank(?:0|[1-9][0-9]*)?$) by number, "rank" alone first.
std::vector<std::string> rank_dirs(const std::string& dir) {
  std::vector<std::pair<long long, std::string>> found;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("rank", 0) != 0 || !e.is_directory()) continue;
    const std::string digits = name.substr(4);
    if (!digits.empty() && (digits.find_first_not_of("0123456789") != std::string::npos ||
                            (digits.size() > 1 && digits[0] == '0'))) {
      continue;
    }
    found.emplace_back(digits.empty() ? -1 : std::stoll(digits), name);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

// The one proc<digits> directory, or "".
std::string proc_dir(const std::string& dir) {
  std::vector<std::string> found;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && name.size() > 4 && name.rfind("proc", 0) == 0 &&
        name.find_first_not_of("0123456789", 4) == std::string::npos) {
      found.push_back(name);
    }
  }
  return found.size() == 1 ? found.front() : "";
}

void compare_directories(const ProbeRunOptions& options, const ProbeMatching& matching,
                         const ProbeLayerMapping* layer_mapping, ProbeRunResult& result,
                         RankChecks* checks) {
  std::vector<std::string> npu_ranks = rank_dirs(options.target_path);
  std::vector<std::string> bench_ranks = rank_dirs(options.golden_path);
  if (npu_ranks.size() != bench_ranks.size()) {
    throw Error(ExitCode::kInput,
                "The number of ranks in the two runs are different. Unable to match the ranks.");
  }
  if (npu_ranks.empty() && checks != nullptr) {  // -da reads rank directories only
    result.warnings.push_back("no rank directories in " + options.target_path +
                              ": nothing compared");
    return;
  }
  if (npu_ranks.empty()) {
    const std::string npu = proc_dir(options.target_path);
    const std::string bench = proc_dir(options.golden_path);
    if (npu.empty() || bench.empty()) {
      throw Error(ExitCode::kInput, "No dir found to compare, please check! (" +
                                        options.target_path + ", " + options.golden_path +
                                        " need rank* or exactly one proc* directory)");
    }
    npu_ranks = {npu};
    bench_ranks = {bench};
  }
  // The first NPU rank's dump.json (else debug.json) tells which files the run compares: a
  // "debug" level means debug.json; neither file means nothing to compare.
  const fs::path first = fs::path(options.target_path) / npu_ranks.front();
  std::string pre_check;
  for (const char* name : {"dump.json", "debug.json"}) {
    if (pre_check.empty() && fs::exists(first / name)) pre_check = (first / name).string();
  }
  if (pre_check.empty()) {
    result.warnings.push_back("no dump.json or debug.json in " + first.string() +
                              ": nothing compared");
    return;
  }
  const ProbeDump first_dump = read_probe_dump(pre_check);
  consistent_check(options, first_dump);  // a usage error stops the run before any rank
  const std::string json_name = first_dump.level == "debug" ? "debug.json" : "dump.json";
  const size_t n = npu_ranks.size();
  std::vector<ProbeRunResult> parts(n);
  std::vector<RankChecks> part_checks(n);
  const auto compare_rank = [&](size_t i) {
    ProbeRunResult& part = parts[i];
    PairFiles files;
    files.npu = options.target_path + "/" + npu_ranks[i] + "/" + json_name;
    files.bench = options.golden_path + "/" + bench_ranks[i] + "/" + json_name;
    if (!fs::is_regular_file(files.npu) || !fs::is_regular_file(files.bench)) {
      const std::string& missing = fs::is_regular_file(files.npu) ? files.bench : files.npu;
      part.warnings.push_back(json_name + " is not found in dump dir " +
                              fs::path(missing).parent_path().string() + ".");
      part.unwritten.push_back({npu_ranks[i], part.warnings.back(), true});
      return;
    }
    files.stack = stack_beside(files.npu);
    files.suffix = "_" + npu_ranks[i];
    try {
      compare_pair(files, options, matching, layer_mapping, part,
                   checks != nullptr ? &part_checks[i] : nullptr);
    } catch (const Error& e) {  // one pair fails alone, as msprobe's compare_entry lets it
      part.warnings.push_back(std::string(e.what()) + ". Skipping " + npu_ranks[i] +
                              " comparison.");
      part.unwritten.push_back({npu_ranks[i], e.what(), true});
    }
  };
  // Statistics pairs run side by side, as msprobe's process pool runs them. Tensor pairs, whose
  // tensors take the cores themselves, and -lm's, whose derived mapping files are named by the
  // second, run one after another.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t workers =
      first_dump.task == "statistics" && layer_mapping == nullptr ? std::min<size_t>(n, cores) : 1;
  if (workers <= 1) {
    for (size_t i = 0; i < n; ++i) compare_rank(i);
  } else {
    std::atomic<size_t> next{0};
    std::vector<std::exception_ptr> failures(n);
    std::vector<std::thread> pool;
    for (size_t w = 0; w < workers; ++w) {
      pool.emplace_back([&] {
        for (size_t i = next++; i < n; i = next++) {
          try {
            compare_rank(i);
          } catch (...) {
            failures[i] = std::current_exception();
          }
        }
      });
    }
    for (std::thread& t : pool) t.join();
    for (const std::exception_ptr& failure : failures) {
      if (failure) std::rethrow_exception(failure);
    }
  }
  for (size_t i = 0; i < n; ++i) {  // in rank order, whatever order they finished in
    ProbeRunResult& part = parts[i];
    const auto append = [](auto& into, auto& from) {
      into.insert(into.end(), std::make_move_iterator(from.begin()),
                  std::make_move_iterator(from.end()));
    };
    append(result.written, part.written);
    append(result.warnings, part.warnings);
    append(result.tables, part.tables);
    append(result.counts, part.counts);
    append(result.unwritten, part.unwritten);
    if (checks != nullptr) append(*checks, part_checks[i]);
  }
}

// The search over the ranks' checks, written as diff_analyze_<time in ns>.json when it finds a
// node.
void analyze_first_diff(const RankChecks& checks, const std::string& output_dir,
                        ProbeRunResult& result) {
  result.diff_analyzed = true;
  const std::optional<JsonTree> found = probe_first_diff(checks, result.warnings);
  if (!found) return;
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  result.diff_analysis = output_dir + "/diff_analyze_" + std::to_string(ns) + ".json";
  AtomicFile out(result.diff_analysis);
  out.write(python_json_dump(*found, 2));
  out.commit();
  result.written.push_back(result.diff_analysis);
}

}  // namespace

std::vector<std::string> write_probe_csv(const std::string& path,
                                         const std::vector<std::string>& header,
                                         const std::vector<std::vector<std::string>>& rows) {
  for (const std::vector<std::string>& row : rows) {
    for (const std::string& cell : row) {
      if (is_malicious_cell(cell)) {
        throw Error(
            ExitCode::kInput,
            "Malicious value [" + cell + "] not allowed to be written into the csv: " + path + ".");
      }
    }
  }
  const size_t parts = std::max<size_t>(1, (rows.size() + kMaxRowsPerCsv - 1) / kMaxRowsPerCsv);
  const fs::path base(path);
  std::vector<std::string> files;
  for (size_t p = 0; p < parts; ++p) {
    std::string file = path;
    if (parts > 1) {
      file = (base.parent_path() /
              (base.stem().string() + "_part_" + std::to_string(p + 1) + base.extension().string()))
                 .string();
    }
    AtomicFile out(file);
    out.write(csv_row(header));
    const size_t end = std::min(rows.size(), (p + 1) * kMaxRowsPerCsv);
    for (size_t r = p * kMaxRowsPerCsv; r < end; ++r) out.write(csv_row(rows[r]));
    out.commit();
    files.push_back(std::move(file));
  }
  return files;
}

ProbeRunResult run_probe_compare(const ProbeRunOptions& given) {
  ProbeRunOptions options = given;
  CpuBackend cpu(0);
  if (options.backend == nullptr) options.backend = &cpu;
  if ((!options.html.empty() || !options.hdf5.empty()) && options.diff_analyze)
    throw Error(ExitCode::kUsage, "--html and --hdf5 go with result files, not with -da");
  options.keep_tables = options.keep_tables || !options.html.empty() || !options.hdf5.empty();
  for (const std::string& path : {options.target_path, options.golden_path}) {
    if (!fs::exists(path) && (path != options.golden_path || options.golden_text == nullptr))
      throw Error(ExitCode::kInput, path + ": path does not exist, please check!");
  }
  const bool npu_dir = fs::is_directory(options.target_path);
  if (npu_dir && options.golden_text != nullptr) {
    throw Error(ExitCode::kUsage, options.target_path +
                                      ": a run compared as it runs is compared against one "
                                      "dump.json, not a directory");
  }
  if (npu_dir != fs::is_directory(options.golden_path)) {
    throw Error(ExitCode::kUsage, "The target_path and golden_path need to be of the same type (" +
                                      options.target_path + ", " + options.golden_path + ").");
  }
  if (!npu_dir) {
    const fs::path npu_name = fs::path(options.target_path).filename();
    if ((npu_name != "dump.json" && npu_name != "debug.json") ||
        fs::path(options.golden_path).filename() != npu_name) {
      throw Error(ExitCode::kUsage, options.target_path + ", " + options.golden_path +
                                        ": npu_path and bench_path must both end with "
                                        "dump.json or debug.json");
    }
  }
  ProbeMatching matching;
  matching.fuzzy = options.fuzzy_match;
  std::optional<ProbeDataMapping> data_mapping;
  if (!options.data_mapping.empty()) {
    data_mapping = read_probe_data_mapping(options.data_mapping);
    matching.data_mapping = &*data_mapping;
  }
  std::optional<ProbeCellMapping> cell_mapping;
  if (options.cell_mapping) {
    cell_mapping = options.cell_mapping->empty() ? ProbeCellMapping{}
                                                 : read_probe_cell_mapping(*options.cell_mapping);
    matching.cell_mapping = &*cell_mapping;
  }
  std::optional<ProbeApiMapping> api_mapping;
  if (options.api_mapping) {
    api_mapping = options.api_mapping->empty() ? ProbeApiMapping{}
                                               : read_probe_api_mapping(*options.api_mapping);
    matching.api_mapping = &*api_mapping;
  }
  std::optional<ProbeLayerMapping> layer_mapping;
  if (options.layer_mapping) {
    layer_mapping = options.layer_mapping->empty()
                        ? ProbeLayerMapping{}
                        : read_probe_layer_mapping(*options.layer_mapping);
  }
  fs::create_directories(options.output_dir);
  const DirectoryLock lock(options.output_dir);  // one run per output directory
  ProbeRunResult result;
  if (api_mapping) result.warnings = api_mapping->warnings;
  if (npu_dir && options.diff_analyze) {
    // msprobe's DiffAnalyzer compares with none of the mappings.
    ProbeRunOptions plain = options;
    plain.xlsx = false;
    plain.consistent_check = false;
    RankChecks checks;
    compare_directories(plain, ProbeMatching{}, nullptr, result, &checks);
    analyze_first_diff(checks, options.output_dir, result);
  } else if (npu_dir) {
    compare_directories(options, matching, layer_mapping ? &*layer_mapping : nullptr, result,
                        nullptr);
  } else {
    compare_pair({options.target_path, options.golden_path, stack_beside(options.target_path), ""},
                 options, matching, layer_mapping ? &*layer_mapping : nullptr, result);
  }
  if (!options.html.empty()) write_probe_html(options.html, options, result);
  if (!options.hdf5.empty()) write_probe_hdf5(options.hdf5, options, result);
  if (!given.keep_tables) result.tables.clear();
  RunLog log(options.output_dir, options.command);
  for (const std::string& warning : result.warnings) log.warning(warning);
  result.log = log.write();
  return result;
}

}  // namespace dumpcmp
