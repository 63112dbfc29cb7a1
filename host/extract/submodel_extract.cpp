#include "extract/submodel_extract.hpp"

#include <cstring>
#include <filesystem>
#include <unordered_map>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "extract/layer_graph.hpp"
#include "io/dump_file.hpp"
#include "io/dump_writer.hpp"
#include "io/inventory.hpp"
#include "layout/layout_plan.hpp"
#include "math/element_source.hpp"
#include "tensor/array_export.hpp"

namespace dumpcmp {
namespace fs = std::filesystem;

namespace {

// "P:k" -> P (control edges and empty inputs were dropped by the parser).
std::string producer_name(const std::string& input) {
  const size_t colon = input.rfind(':');
  return colon == std::string::npos ? input : input.substr(0, colon);
}

}  // namespace

std::vector<std::string> ops_between(const FusionRule& graph, const std::string& start,
                                     const std::string& end) {
  const std::vector<FusionOp>& ops = graph.ops();
  std::unordered_map<std::string, int> index;
  for (size_t i = 0; i < ops.size(); ++i) index.emplace(ops[i].name, static_cast<int>(i));
  auto find = [&](const std::string& name, const char* which) {
    const auto it = index.find(name);
    if (it == index.end()) {
      throw Error(ExitCode::kUsage, std::string("the ") + which + " op \"" + name +
                                        "\" is not in the graph " + graph.source());
    }
    return it->second;
  };
  const int from = find(start, "start"), to = find(end, "end");
  std::vector<std::vector<int>> next(ops.size()), prev(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    for (const std::string& input : ops[i].inputs) {
      const auto p = index.find(producer_name(input));
      if (p == index.end()) continue;  // a graph input or an op of another graph
      next[static_cast<size_t>(p->second)].push_back(static_cast<int>(i));
      prev[i].push_back(p->second);
    }
  }
  const std::vector<char> after = reachable(next, from), before = reachable(prev, to);
  std::vector<std::string> selected;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (after[i] && before[i]) selected.push_back(ops[i].name);
  }
  if (selected.empty()) {
    const bool reversed = reachable(next, to)[static_cast<size_t>(from)];
    throw Error(ExitCode::kUsage, "no data path leads from \"" + start + "\" to \"" + end + "\"" +
                                      (reversed ? ": the end op comes before the start op"
                                                : ": they are not connected"));
  }
  return selected;
}

std::vector<ExportedInput> export_dump_inputs(const std::string& dump_path,
                                              const std::string& stem_prefix) {
  std::vector<ExportedInput> out;
  const DumpFile file = read_dump_file(dump_path);
  for (const TensorInfo& t : file.inputs) {
    ExportedInput e;
    e.index = t.index;
    e.dtype = t.dtype;
    const int64_t n = shape_element_count(t.shape).value_or(-1);
    const std::size_t width = dtype_storage_size(t.dtype);
    if (width == 0 || n < 0 || static_cast<uint64_t>(n) * width > t.size) {
      out.push_back(e);
      continue;
    }
    // The tensor in its original format (device layouts restored and cropped).
    LayoutOptions layout;
    const LayoutPlan plan = plan_npu_restore(t, n, layout);
    const ExportedArray array = export_array(file.tensor_data(t), t.dtype, plan.map);
    std::vector<uint16_t> halves(static_cast<size_t>(plan.map.count));
    ElementSource src{file.tensor_data(t), t.dtype, plan.map.count, &plan.map, n};
    for (int64_t i = 0; i < plan.map.count; ++i) {
      halves[static_cast<size_t>(i)] =
          encode_fp16(load_element(src.data, src.dtype, src.layout, i));
    }
    // Both arrays are read before anything is written: a file that shrank meanwhile gave
    // zeros, and nothing made from it may appear as the op's input data.
    if (const std::string problem = damaged_problem(file); !problem.empty()) {
      throw Error(ExitCode::kInput, problem);
    }
    e.stem = stem_prefix + ".input." + std::to_string(t.index);
    write_npy(e.stem + ".npy", array.dtype, plan.result_shape, array.data, array.bytes);
    write_file_atomically(
        e.stem + ".float16.bin",
        std::string(reinterpret_cast<const char*>(halves.data()), halves.size() * 2));
    e.format = std::string(format_name(plan.result_format));
    e.shape = plan.result_shape;
    out.push_back(std::move(e));
  }
  return out;
}

ExtractSummary extract_submodel(const ExtractOptions& o) {
  const FusionRule graph = FusionRule::parse_file(o.graph_json);
  ExtractSummary summary;
  summary.ops = ops_between(graph, o.start, o.end);
  const Inventory dumps = Inventory::scan(o.dump_dir);
  const std::string data_dir = o.output_dir + "/dump_data";
  std::error_code ec;
  fs::create_directories(data_dir, ec);
  if (!fs::is_directory(data_dir)) throw Error(ExitCode::kInput, data_dir + ": cannot create");

  std::string log = "Dump Layer: " + std::to_string(summary.ops.size()) + " ops from " + o.start +
                    " to " + o.end + "\n";
  for (const std::string& op : summary.ops) {
    const OpDumps* d = dumps.find(op);
    if (!d) {
      log += "  " + op + "  (no dump file)\n";
      ++summary.missing;
      continue;
    }
    const fs::path src = d->chosen().path;
    fs::copy_file(src, fs::path(data_dir) / src.filename(), fs::copy_options::overwrite_existing,
                  ec);
    if (ec) throw Error(ExitCode::kInput, src.string() + ": cannot copy: " + ec.message());
    log += "  " + op + "  " + src.filename().string() + "\n";
    ++summary.copied;
  }
  log += "Output File: " + data_dir + "\n";

  const OpDumps* start = dumps.find(o.start);
  if (!start) {
    log += "Input File: none (the start op \"" + o.start + "\" has no dump file)\n";
  } else {
    const std::string base = fs::path(start->chosen().path).filename().string();
    for (const ExportedInput& e :
         export_dump_inputs(start->chosen().path, o.output_dir + "/" + base)) {
      if (e.stem.empty()) {
        log += "Input File: input " + std::to_string(e.index) + " cannot be decoded\n";
        continue;
      }
      log += "Input File: " + e.stem + ".npy " + e.stem + ".float16.bin (" + e.format + " " +
             shape_to_string(e.shape) + ")\n";
      ++summary.exported;
    }
  }
  log += "Export Layer: " + o.start + " (its inputs feed the sub-model)\n";
  summary.log_path = o.output_dir + "/extract_log.txt";
  write_file_atomically(summary.log_path, log);
  return summary;
}

}  // namespace dumpcmp
