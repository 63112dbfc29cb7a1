// Model Explorer's files (explorer/model_explorer): the rule's ops as nodes with their edges, and
// node data from the rows: outputs before inputs, the first divergent op marked, no infinity in
// the JSON. tests/python/test_model_explorer.py reads the same files with Model Explorer itself.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "explorer/model_explorer.hpp"
#include "report/result_table.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

using testing::read_text;
using testing::ScratchDir;

MetricCell value(double v) {
  MetricCell cell;
  cell.status = CellStatus::kValue;
  cell.value = v;
  return cell;
}

FusionRule three_ops() {
  auto op = [](const char* name, const char* type, int id, const char* inputs) {
    return std::string("{\"name\":\"") + name + "\",\"type\":\"" + type +
           "\",\"id\":" + std::to_string(id) + ",\"input\":[" + inputs + "]}";
  };
  const std::string json = "{\"graph\":[{\"op\":[" + op("x", "Data", 1, "") + "," +
                           op("conv", "Conv2D", 2, "\"x:0\"") + "," +
                           op("act", "Relu", 3, "\"conv:0\",\"elsewhere:0\"") + "]}]}";
  return FusionRule::parse(json, "three.json");
}

CompareRecord row(const std::string& tensor, double cosine, double max_relative, Verdict v) {
  CompareRecord r;
  r.id.my_op = tensor.substr(0, tensor.find(':'));
  r.id.tensor_index = tensor;
  r.metrics = {value(cosine), value(max_relative)};
  r.verdict = v;
  r.verdict_why = v == Verdict::kFail ? "CosineSimilarity below the limit" : "";
  return r;
}

TEST(ModelExplorer, NodesEdgesAndNodeDataFromTheRows) {
  const FusionRule rule = three_ops();
  ResultAnalysis analysis;
  analysis.begin(ResultTable({Metric::kCosineSimilarity, Metric::kMaxRelativeError}, {}));
  int64_t index = 0;
  for (CompareRecord r :
       {row("x:output:0", 0.5, 0.1, Verdict::kFail), row("conv:input:0", 0.5, 0.1, Verdict::kFail),
        row("conv:output:0", 0.999, 0.001, Verdict::kPass),
        row("act:output:0", 0.9999, INFINITY, Verdict::kPass)}) {
    r.id.index = index++;
    analysis.write(r);
  }
  ScratchDir dir;
  const std::vector<std::string> files = write_model_explorer(dir.file("view"), rule, analysis);
  ASSERT_EQ(files.size(), 4u);

  const std::string graph = read_text(dir.file("view/graph.json"));
  EXPECT_NE(graph.find("{\"label\":\"three.json\",\"graphs\":[{\"id\":\"model\""),
            std::string::npos);
  EXPECT_NE(graph.find("\"id\":\"act\",\"label\":\"Relu\""), std::string::npos);
  EXPECT_NE(graph.find("{\"sourceNodeId\":\"conv\",\"sourceNodeOutputId\":\"0\","
                       "\"targetNodeInputId\":\"0\"}"),
            std::string::npos);
  EXPECT_EQ(graph.find("elsewhere"), std::string::npos);  // not an op of the graph: no edge

  // x fails first with inputs that pass (it has none): the first divergent op, dark red. conv's
  // failing input does not count where its output passes.
  const std::string verdict = read_text(dir.file("view/verdict.json"));
  EXPECT_NE(verdict.find("\"x\":{\"value\":0,\"bgColor\":\"#b71c1c\"}"), std::string::npos);
  EXPECT_NE(verdict.find("\"conv\":{\"value\":1}"), std::string::npos);
  EXPECT_NE(verdict.find("\"act\":{\"value\":1}"), std::string::npos);

  const std::string cosine = read_text(dir.file("view/cosine.json"));
  EXPECT_NE(cosine.find("\"conv\":{\"value\":0.999}"), std::string::npos);
  const std::string relative = read_text(dir.file("view/max_relative_error.json"));
  EXPECT_NE(relative.find("\"act\":{\"value\":1e+300}"), std::string::npos);
  EXPECT_EQ(relative.find("inf"), std::string::npos);
}

TEST(ModelExplorer, MetricFilesOnlyForSelectedMetrics) {
  ResultAnalysis analysis;
  analysis.begin(ResultTable({Metric::kMaxAbsoluteError}, {}));
  ScratchDir dir;
  const std::vector<std::string> files =
      write_model_explorer(dir.file("view"), three_ops(), analysis);
  EXPECT_EQ(files.size(), 2u);  // graph.json and verdict.json
  EXPECT_NE(read_text(dir.file("view/verdict.json")).find("\"results\":{\n}"), std::string::npos);
}

}  // namespace
}  // namespace dumpcmp
