#pragma once
// A whole-network compare (two dump directories or files, a fusion rule, a saved plan), the same
// for the CLI and Python: the plan made (or read), its rows run over the world's ranks into the
// result files (run/run_outputs) and any extra sinks, and the run's log. Silent: the result holds
// what to print.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compare/compare_engine.hpp"
#include "report/record.hpp"
#include "run/run_outputs.hpp"
#include "scale/world.hpp"

namespace dumpcmp {

struct NetworkRunRequest {
  OutputOptions outputs;  // without an output directory no file is written (Python's in-memory)
  std::string plan;       // --plan FILE: run this plan (written by --plan-only) instead of planning
  std::vector<std::string> thresholds;  // --threshold: the verdicts' tolerances
  RunDescription description;           // the run as the reports and the log name it
  // What the options and plug-ins warned of, kept in the log; read once the rows have run (a
  // plug-in warns as they run). May be null.
  const std::vector<std::string>* warnings = nullptr;
  const LayerGraph* original = nullptr;  // --original-model's layers for Model Explorer, or null
  // Asked once the rows have run: true when the caller gave up on the run (Python's progress
  // callback raised), which then commits no file.
  std::function<bool()> cancelled;
};

struct NetworkRunResult {
  CompareSummary summary;
  std::unique_ptr<RunOutputs> outputs;  // the files written; null without an output directory
  // Planning's and the run's input problems, each once; with an output directory, also logged.
  std::vector<InputProblem> problems;
  std::string problem_counts;  // the log's summary of them, or ""
  double seconds = 0;
  std::string backend;  // the backend's name
};

// Rank 0 plans (or reads the plan), runs it with the other ranks and writes the files; another
// rank runs the share rank 0 sends it and returns an empty result. `extra` sinks (a Python
// collector) receive the records too. The options' verdict rules come from request.thresholds.
NetworkRunResult run_network(const NetworkRunRequest& request, CompareOptions options,
                             Backend& backend, World& world, std::vector<RecordSink*> extra = {});

}  // namespace dumpcmp
