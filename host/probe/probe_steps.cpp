#include "probe/probe_steps.hpp"

#include <simdjson.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/directory_lock.hpp"
#include "core/error.hpp"
#include "core/json_text.hpp"
#include "core/step_set.hpp"
#include "probe/probe_steps_report.hpp"
#include "run/run_log.hpp"
#include "scale/world.hpp"
#include "tree/jsonl_journal.hpp"
#include "tree/run_journal.hpp"
#include "tree/tree_listing.hpp"

namespace dumpcmp {
namespace fs = std::filesystem;
namespace {

constexpr const char* kJournal = "dumpcmp_steps_journal.jsonl";

// The step<digits> directories of a dump path: step number -> directory name.
std::map<std::string, std::string, bool (*)(std::string_view, std::string_view)> step_dirs(
    const std::string& root) {
  std::map<std::string, std::string, bool (*)(std::string_view, std::string_view)> steps(
      natural_less);
  std::error_code error;
  for (const fs::directory_entry& e : fs::directory_iterator(root, error)) {
    const std::string name = e.path().filename().string();
    if (name.size() > 4 && name.rfind("step", 0) == 0 && all_digits(name.substr(4)) &&
        e.is_directory()) {
      steps.emplace(name.substr(4), name);
    }
  }
  if (error)
    throw Error(ExitCode::kInput, root + ": cannot list the dump path: " + error.message());
  return steps;
}

// The result file a pair wrote, relative to OUT: OUT/step<N>/compare_result_<pair>_<ts>.csv (the
// first part of a split one).
std::string result_of(const ProbeRunResult& run, const std::string& step_dir,
                      const std::string& pair) {
  for (const std::string& file : run.written) {
    const std::string name = fs::path(file).filename().string();
    for (const char* prefix : {"compare_result_", "debug_compare_result_"}) {
      if (name.rfind(prefix + pair + "_", 0) == 0) return step_dir + "/" + name;
    }
  }
  return "";
}

// ---- the journal: a header naming the run, then one line per finished step --------------------

std::string pair_json(const ProbeStepPair& p) {
  std::ostringstream line;
  line << "{\"pair\":" << json_string(p.pair) << ",\"status\":" << json_string(p.status)
       << ",\"result\":" << json_string(p.result_file) << ",\"rows\":" << p.rows
       << ",\"matched\":" << p.matched << ",\"warnings\":" << p.warnings
       << ",\"errors\":" << p.errors << ",\"first_error\":" << json_string(p.first_error)
       << ",\"message\":" << json_string(p.message) << "}";
  return line.str();
}

// One finished step as a JSON line: {"step": N, "pairs": [...]} (the journal's, and what a rank
// sends rank 0).
std::string step_line(const std::string& step, const std::vector<ProbeStepPair>& pairs) {
  std::string line = "{\"step\":" + json_string(step) + ",\"pairs\":[";
  for (size_t i = 0; i < pairs.size(); ++i) line += (i ? "," : "") + pair_json(pairs[i]);
  return line + "]}";
}

// The step and pairs of a step line; false when it is not a complete one.
bool read_step_line(simdjson::dom::element e, std::string& step_out,
                    std::vector<ProbeStepPair>& out) {
  std::string_view step;
  simdjson::dom::array pairs;
  if (e["step"].get(step) || e["pairs"].get(pairs)) return false;
  out.clear();
  for (simdjson::dom::element p : pairs) {
    ProbeStepPair q;
    std::string_view pair, status, result, first_error, message;
    int64_t rows = 0, matched = 0, warnings = 0, errors = 0;
    if (p["pair"].get(pair) || p["status"].get(status) || p["result"].get(result) ||
        p["rows"].get(rows) || p["matched"].get(matched) || p["warnings"].get(warnings) ||
        p["errors"].get(errors) || p["first_error"].get(first_error) || p["message"].get(message)) {
      return false;
    }
    q.step = std::string(step);
    q.pair = std::string(pair);
    q.status = std::string(status);
    q.result_file = std::string(result);
    q.rows = rows, q.matched = matched, q.warnings = warnings, q.errors = errors;
    q.first_error = std::string(first_error);
    q.message = std::string(message);
    out.push_back(std::move(q));
  }
  step_out = std::string(step);
  return true;
}

// The journal of a --steps run (tree/jsonl_journal): a header naming the run, then one step line
// per finished step.
class StepsJournal {
 public:
  // A new journal for the run `key`, or with resume the same run's journal and its finished
  // steps; throws Error(kInput) naming the file when it cannot be written, or resume finds the
  // journal of another run.
  StepsJournal(const std::string& out_dir, const std::string& key, bool resume)
      : journal_(
            out_dir + "/" + kJournal, "{\"journal\":\"steps\",\"run\":" + json_string(key) + "}",
            resume,
            [&](simdjson::dom::element e) {
              std::string_view run;
              if (e["run"].get(run) != simdjson::SUCCESS) return false;
              if (run != key) {
                throw Error(ExitCode::kInput, out_dir + "/" + kJournal +
                                                  ": the journal is of another run (other inputs "
                                                  "or options); run without --resume to start "
                                                  "again");
              }
              return true;
            },
            [this](simdjson::dom::element e) {
              std::string step;
              std::vector<ProbeStepPair> list;
              if (!read_step_line(e, step, list)) return;
              for (ProbeStepPair& q : list) q.resumed = true;
              done_[step] = std::move(list);
            }) {}

  const std::vector<ProbeStepPair>* finished(const std::string& step) const {
    const auto found = done_.find(step);
    return found == done_.end() ? nullptr : &found->second;
  }

  void record(const std::string& step, const std::vector<ProbeStepPair>& pairs) {
    journal_.append(step_line(step, pairs));
  }

 private:
  std::map<std::string, std::vector<ProbeStepPair>> done_;  // filled as journal_ opens
  JsonlJournal journal_;
};

// What makes two runs the same run: the inputs, the steps and every option that changes a file.
std::string run_settings(const ProbeStepsOptions& o) {
  const ProbeRunOptions& c = o.compare;
  std::ostringstream text;
  text << fs::absolute(c.target_path).string() << '\n'
       << fs::absolute(c.golden_path).string() << '\n'
       << o.steps << '\n'
       << c.data_mapping << '\n'
       << (c.cell_mapping ? "cm:" + *c.cell_mapping : "") << '\n'
       << (c.api_mapping ? "am:" + *c.api_mapping : "") << '\n'
       << (c.layer_mapping ? "lm:" + *c.layer_mapping : "") << '\n'
       << c.fuzzy_match << c.xlsx << c.pandas << c.numpy
       << (c.quantiles ? "q" : "")  // absent without, as journals before the flag wrote
       << (c.config.empty() ? "" : "\nconfig:" + fs::absolute(c.config).string())
       << (c.consistent_check ? "\nverl:" + c.verl_backend : "");
  return text.str();
}

// One step compared: its pairs in pair order.
std::vector<ProbeStepPair> compare_step(const ProbeStepsOptions& options, const std::string& step,
                                        const std::string& npu_dir, const std::string& bench_dir,
                                        std::vector<std::string>& warnings) {
  ProbeRunOptions run = options.compare;
  run.target_path = npu_dir;
  run.golden_path = bench_dir;
  run.output_dir = options.compare.output_dir + "/step" + step;
  std::vector<ProbeStepPair> pairs;
  try {
    const ProbeRunResult result = run_probe_compare(run);
    for (const std::string& w : result.warnings) warnings.push_back("step " + step + ": " + w);
    for (const ProbePairCounts& c : result.counts) {
      ProbeStepPair p;
      p.step = step;
      p.pair = c.pair;
      p.status = "compared";
      p.rows = c.rows, p.matched = c.matched, p.warnings = c.warnings, p.errors = c.errors;
      p.first_error = c.first_error;
      p.result_file = result_of(result, "step" + step, c.pair);
      pairs.push_back(std::move(p));
    }
    for (const ProbeUnwritten& u : result.unwritten) {
      ProbeStepPair p;
      p.step = step;
      p.pair = u.pair;
      p.status = u.failed ? "failed" : "no result";
      p.message = u.message;
      pairs.push_back(std::move(p));
    }
  } catch (const std::exception& e) {  // the step fails alone (Error, or a directory unreadable)
    if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) throw;
    warnings.push_back("step " + step + ": " + e.what());
    ProbeStepPair p;
    p.step = step;
    p.status = "failed";
    p.message = e.what();
    pairs.push_back(std::move(p));
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const ProbeStepPair& a, const ProbeStepPair& b) {
    return natural_less(a.pair, b.pair);
  });
  return pairs;
}

// ---- over the ranks of an MPI world (docs/scale-out.md): rank 0 deals the steps to compare in
// turn; every other rank compares its steps into a directory of its own and sends rank 0 each
// step's line and files, which rank 0 writes into OUT, so the files are those of one process.

struct StepWork {
  std::string step, npu_dir, bench_dir;
};

void put(std::string& out, std::string_view text) {
  const uint64_t n = text.size();
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
  out.append(text);
}

std::string take(std::string_view& in) {
  uint64_t n = 0;
  if (in.size() < sizeof n) throw Error(ExitCode::kInternal, "a rank's message is cut short");
  std::memcpy(&n, in.data(), sizeof n);
  in.remove_prefix(sizeof n);
  if (in.size() < n) throw Error(ExitCode::kInternal, "a rank's message is cut short");
  std::string text(in.substr(0, n));
  in.remove_prefix(n);
  return text;
}

std::string encode_work(const std::vector<StepWork>& work) {
  std::string out;
  for (const StepWork& w : work) {
    put(out, w.step);
    put(out, w.npu_dir);
    put(out, w.bench_dir);
  }
  return out;
}

std::vector<StepWork> decode_work(std::string_view in) {
  std::vector<StepWork> work;
  while (!in.empty()) {
    StepWork w;
    w.step = take(in);
    w.npu_dir = take(in);
    w.bench_dir = take(in);
    work.push_back(std::move(w));
  }
  return work;
}

std::string read_whole(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in) throw Error(ExitCode::kInput, file.string() + ": cannot read a result to send");
  return bytes.str();
}

// A finished step as a message: its step line, its warnings, then its files (name and bytes).
std::string encode_step(const std::string& line, const std::vector<std::string>& warnings,
                        const fs::path& dir) {
  std::string out;
  put(out, line);
  put(out, std::to_string(warnings.size()));
  for (const std::string& w : warnings) put(out, w);
  std::error_code error;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, error)) {
    if (!e.is_regular_file()) continue;
    put(out, e.path().filename().string());
    put(out, read_whole(e.path()));
  }
  return out;
}

// A rank other than 0: its share of the steps rank 0 deals.
void run_step_share(const ProbeStepsOptions& options, World& world) {
  std::string bytes;
  world.broadcast(bytes);
  const std::vector<StepWork> work = decode_work(bytes);
  const char* tmp = std::getenv("TMPDIR");
  std::string dir =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/dumpcmp-steps-XXXXXX";
  if (::mkdtemp(dir.data()) == nullptr) {
    throw Error(ExitCode::kInput, dir + ": cannot make a directory for this rank's results (" +
                                      std::strerror(errno) + ")");
  }
  ProbeStepsOptions local = options;
  local.compare.output_dir = dir;
  for (size_t k = static_cast<size_t>(world.rank()); k < work.size();
       k += static_cast<size_t>(world.size())) {
    const StepWork& w = work[k];
    std::vector<std::string> warnings;
    const std::vector<ProbeStepPair> pairs =
        compare_step(local, w.step, w.npu_dir, w.bench_dir, warnings);
    const fs::path step_dir = fs::path(dir) / ("step" + w.step);
    world.send(0, encode_step(step_line(w.step, pairs), warnings, step_dir));
    fs::remove_all(step_dir);
  }
  world.send(0, std::string());  // this rank is done
  world.finish_sends();
  fs::remove_all(dir);
}

}  // namespace

ProbeStepsResult run_probe_steps(
    const ProbeStepsOptions& options,
    const std::function<void(const std::vector<ProbeStepPair>&)>& step_done) {
  const std::unique_ptr<World> solo = make_solo_world();
  return run_probe_steps(options, *solo, step_done);
}

ProbeStepsResult run_probe_steps(
    const ProbeStepsOptions& options, World& world,
    const std::function<void(const std::vector<ProbeStepPair>&)>& step_done) {
  if (world.rank() != 0) {
    run_step_share(options, world);
    return {};
  }
  const ProbeRunOptions& base = options.compare;
  if (base.diff_analyze) {
    throw Error(ExitCode::kUsage, "-da runs on one step directory; it is not taken with --steps");
  }
  for (const std::string& path : {base.target_path, base.golden_path}) {
    if (!fs::is_directory(path)) {
      throw Error(ExitCode::kInput,
                  path + ": --steps takes dump paths, directories holding step<N> directories");
    }
  }
  std::optional<StepSet> wanted;
  if (!options.steps.empty()) {
    std::string problem;
    wanted = StepSet::parse(options.steps, &problem);
    if (!wanted) throw Error(ExitCode::kUsage, "--steps " + options.steps + ": " + problem);
  }
  const auto npu_steps = step_dirs(base.target_path);
  const auto bench_steps = step_dirs(base.golden_path);
  if (npu_steps.empty()) {
    throw Error(ExitCode::kInput, base.target_path + ": no step<N> directory to compare");
  }
  std::vector<std::pair<std::string, std::string>> selected;  // step number, directory
  for (const auto& [step, name] : npu_steps) {
    if (!wanted || wanted->contains(step)) selected.emplace_back(step, name);
  }
  if (selected.empty()) {
    throw Error(ExitCode::kUsage,
                "--steps " + options.steps + ": no step of " + base.target_path + " is selected");
  }
  fs::create_directories(base.output_dir);
  const DirectoryLock lock(base.output_dir);  // one run per output directory
  StepsJournal journal(base.output_dir, run_key(run_settings(options)), options.resume);

  ProbeStepsResult result;
  std::map<std::string, std::vector<ProbeStepPair>> finished;  // by step
  const auto finish = [&](const std::string& step, std::vector<ProbeStepPair> pairs, bool record) {
    if (record) journal.record(step, pairs);
    if (step_done) step_done(pairs);
    finished[step] = std::move(pairs);
  };
  std::vector<StepWork> work;
  for (const auto& [step, name] : selected) {
    if (const std::vector<ProbeStepPair>* done = journal.finished(step)) {
      finish(step, *done, false);
    } else if (bench_steps.count(step) == 0) {
      ProbeStepPair p;
      p.step = step;
      p.status = "no bench step";
      p.message = base.golden_path + " has no " + name;
      finish(step, {p}, true);
    } else {
      work.push_back(
          {step, base.target_path + "/" + name, base.golden_path + "/" + bench_steps.at(step)});
    }
  }
  // Every rank takes every size-th step; rank 0 writes the others' files as they arrive.
  if (world.size() > 1) {
    std::string list = encode_work(work);
    world.broadcast(list);
  }
  int ranks_left = world.size() - 1;
  const auto handle = [&](const std::string& bytes) {
    if (bytes.empty()) {
      --ranks_left;
      return;
    }
    std::string_view in(bytes);
    const std::string line = take(in);
    const size_t warnings = std::stoul(take(in));
    for (size_t i = 0; i < warnings; ++i) result.warnings.push_back(take(in));
    simdjson::dom::parser parser;
    simdjson::dom::element e;
    std::string step;
    std::vector<ProbeStepPair> pairs;
    if (parser.parse(line).get(e) != simdjson::SUCCESS || !read_step_line(e, step, pairs))
      throw Error(ExitCode::kInternal, "a rank sent a step that cannot be read");
    const fs::path dir = fs::path(base.output_dir) / ("step" + step);
    fs::create_directories(dir);
    while (!in.empty()) {
      const std::string name = take(in);
      write_file_atomically((dir / name).string(), take(in));
    }
    finish(step, std::move(pairs), true);
  };
  for (size_t k = 0; k < work.size(); k += static_cast<size_t>(world.size())) {
    finish(work[k].step,
           compare_step(options, work[k].step, work[k].npu_dir, work[k].bench_dir, result.warnings),
           true);
    int from = 0;
    std::string bytes;
    while (ranks_left > 0 && world.receive_any(from, bytes, false)) handle(bytes);
  }
  while (ranks_left > 0) {
    int from = 0;
    std::string bytes;
    world.receive_any(from, bytes, true);
    handle(bytes);
  }
  for (const auto& [step, name] : selected) {
    const std::vector<ProbeStepPair>& pairs = finished.at(step);
    result.pairs.insert(result.pairs.end(), pairs.begin(), pairs.end());
  }
  for (const auto& [step, name] : bench_steps) {
    if (npu_steps.count(step) == 0 && (!wanted || wanted->contains(step)))
      result.warnings.push_back(base.golden_path + "/" + name + ": no NPU step of that number");
  }
  result.summary = base.output_dir + "/summary.csv";
  write_probe_steps_summary(result.summary, result.pairs);
  result.index = base.output_dir + "/index.html";
  write_probe_steps_index(result.index, base.target_path, base.golden_path, result.pairs);
  RunLog log(base.output_dir, base.command);
  for (const std::string& warning : result.warnings) log.warning(warning);
  result.log = log.write();
  return result;
}

}  // namespace dumpcmp
