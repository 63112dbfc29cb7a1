#include "run/network_run.hpp"

#include <chrono>
#include <optional>

#include "compare/plan_json.hpp"
#include "report/tee_writer.hpp"
#include "run/run_log.hpp"
#include "scale/distributed_plan.hpp"

namespace dumpcmp {

NetworkRunResult run_network(const NetworkRunRequest& request, CompareOptions options,
                             Backend& backend, World& world, std::vector<RecordSink*> extra) {
  const VerdictRules rules(request.thresholds);
  options.rules = &rules;
  NetworkRunResult result;
  result.backend = std::string(backend.name());
  if (world.rank() != 0) {
    result.summary = run_plan_on_world(world, nullptr, options, backend, nullptr);
    return result;
  }
  const auto start = std::chrono::steady_clock::now();
  std::optional<TeeSink> extra_only;
  if (!request.outputs.output_dir.empty()) {
    result.outputs = std::make_unique<RunOutputs>(request.outputs, std::move(extra));
  } else {
    extra_only.emplace(std::move(extra));
  }
  RecordSink& sink = result.outputs ? result.outputs->sink() : *extra_only;
  OpenedDumps opened;
  ComparePlan plan =
      request.plan.empty() ? plan_compare(options, &opened) : read_plan_jsonl(request.plan);
  // The distributions are computed as rows run, so --quantiles applies to a saved plan too.
  plan.columns.quantiles = plan.columns.quantiles || options.quantiles;
  result.summary = run_plan_on_world(world, &plan, options, backend, &sink, &opened);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (request.cancelled && request.cancelled()) {
    result.outputs.reset();  // its files uncommitted: removed
    return result;
  }
  // The log keeps each problem once (a file that failed at planning and again when it ran); it is
  // written only beside the result files.
  RunLog log(request.outputs.output_dir, request.description.command);
  result.problems = log.input_problems(plan.input_problems);
  for (const InputProblem& p : log.input_problems(result.summary.input_problems)) {
    result.problems.push_back(p);
  }
  if (!result.outputs) {
    extra_only->commit();
    return result;
  }
  result.outputs->finish(result.summary, request.description, backend.name(), result.seconds, rules,
                         request.original);
  if (request.warnings) {
    for (const std::string& w : *request.warnings) log.warning(w);
  }
  for (const std::string& w : result.summary.warnings) log.warning(w);
  result.problem_counts = log.problem_counts();
  log.write();
  return result;
}

}  // namespace dumpcmp
