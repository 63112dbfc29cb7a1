#include "extract_command.hpp"

#include <iostream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "extract/graph_html.hpp"
#include "extract/model_export.hpp"
#include "extract/submodel_extract.hpp"

namespace dumpcmp::cli {

void setup_extract(CLI::App& app, ExtractCommandOptions& o) {
  app.add_option("--model", o.model,
                 "The original model (.onnx, TensorFlow .pb, Caffe .prototxt): export the "
                 "sub-model between --start and --end as a model");
  app.add_option("--weights", o.weights,
                 "The Caffe weights (.caffemodel; default: the model's name with .caffemodel)");
  app.add_option("--graph", o.graph,
                 "The offline model JSON (atc --mode=1) or GE graph text (ge_proto_*.txt)");
  app.add_option("--dump", o.dump_dir, "The model's dump directory");
  app.add_option("--start", o.start,
                 "First op or layer of the sub-model (its inputs are exported)");
  app.add_option("--end", o.end, "Last op or layer of the sub-model");
  app.add_option("--output", o.output_dir, "Output directory (-out)");
  app.add_flag("--list", o.list, "With --model: print the layers with their output shapes");
  app.add_option("--html", o.html,
                 "With --model: draw the layers (the chosen sub-model marked) into this HTML file");
}

namespace {

int run_model_export(const ExtractCommandOptions& o) {
  // --graph alone still gives shapes and the model-name check; the dumps need their model.
  if (!o.dump_dir.empty() && o.graph.empty()) {
    throw Error(ExitCode::kUsage, "extract --model: --dump needs --graph (the offline model)");
  }
  const bool export_wanted = !o.start.empty() || !o.end.empty();
  if (export_wanted && (o.start.empty() || o.end.empty())) {
    throw Error(ExitCode::kUsage, "extract --model: give both --start and --end");
  }
  if (!export_wanted && !o.list && o.html.empty()) {
    throw Error(ExitCode::kUsage, "extract --model: give --start and --end, --list or --html");
  }
  if (o.list || !o.html.empty()) {
    const std::unique_ptr<SourceModel> model = read_source_model(o.model, o.weights);
    std::optional<FusionRule> rule;
    if (!o.graph.empty()) {
      rule = FusionRule::parse_file(o.graph);
      const std::string warning = model_name_warning(*model, o.graph);
      if (!warning.empty()) std::cerr << "dumpcmp: warning: " << warning << '\n';
    }
    const std::vector<int> chosen =
        export_wanted ? select_submodel(model->graph(), o.start, o.end).layers : std::vector<int>{};
    if (o.list) std::cout << list_layers(*model, rule ? &*rule : nullptr, chosen);
    if (!o.html.empty()) {
      write_file_atomically(o.html, graph_html(model->graph(), chosen, o.start, o.end));
      std::cout << "dumpcmp: graph of " << o.model << " in " << o.html << '\n';
    }
  }
  if (!export_wanted) return 0;
  const ModelExportSummary s =
      export_submodel({o.model, o.weights, o.graph, o.dump_dir, o.start, o.end, o.output_dir});
  for (const std::string& w : s.warnings) std::cerr << "dumpcmp: warning: " << w << '\n';
  std::cout << "dumpcmp: " << s.layers.size() << " layers from " << o.start << " to " << o.end
            << " exported to " << s.result_dir;
  if (!o.graph.empty()) {
    std::cout << "; " << s.npu_ops << " offline-model ops, " << s.copied << " dump files copied, "
              << s.missing << " without dump, " << s.exported << " inputs exported";
  }
  std::cout << "; log in " << s.log_path << '\n';
  return 0;
}

}  // namespace

int run_extract(const ExtractCommandOptions& o) {
  if (!o.model.empty()) return run_model_export(o);
  if (o.graph.empty() || o.dump_dir.empty() || o.start.empty() || o.end.empty()) {
    throw Error(ExitCode::kUsage,
                "extract needs --graph, --dump, --start and --end (or --model to export a "
                "sub-model)");
  }
  const ExtractSummary s = extract_submodel({o.graph, o.dump_dir, o.start, o.end, o.output_dir});
  std::cout << "dumpcmp: " << s.ops.size() << " ops from " << o.start << " to " << o.end << ": "
            << s.copied << " dump files copied, " << s.missing << " without dump, " << s.exported
            << " inputs exported; log in " << s.log_path << '\n';
  return 0;
}

}  // namespace dumpcmp::cli
