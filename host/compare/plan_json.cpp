#include "compare/plan_json.hpp"

#include <simdjson.h>

#include <fstream>
#include <ostream>
#include <sstream>

#include "core/error.hpp"
#include "core/json_text.hpp"

namespace dumpcmp {
namespace {

constexpr int kPlanVersion = 1;
constexpr TensorGroup kGroups[] = {TensorGroup::kInput, TensorGroup::kOutput, TensorGroup::kBuffer,
                                   TensorGroup::kWorkspace};

const char* boolean(bool b) { return b ? "true" : "false"; }

template <typename T>
std::string numbers(const T* values, int n) {
  std::string out = "[";
  for (int i = 0; i < n; ++i) out += (i ? "," : "") + std::to_string(values[i]);
  return out + "]";
}

std::string strings(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + json_string(values[i]);
  return out + "]";
}

std::string source_json(const TensorSource& s) {
  return "{\"file\":" + std::to_string(s.file) +
         ",\"group\":" + json_string(tensor_group_name(s.group)) +
         ",\"index\":" + std::to_string(s.index) +
         ",\"dtype\":" + std::to_string(static_cast<int32_t>(s.dtype)) +
         ",\"offset\":" + std::to_string(s.offset) + ",\"size\":" + std::to_string(s.size) +
         ",\"count\":" + std::to_string(s.count) +
         ",\"source_count\":" + std::to_string(s.source_count) +
         ",\"layout\":" + std::to_string(s.layout) + "}";
}

// Reads one line's object; every accessor throws Error naming the file, line and key.
class Line {
 public:
  Line(simdjson::dom::object object, const std::string& where) : object_(object), where_(where) {}

  bool has(const char* key) const { return object_[key].error() == simdjson::SUCCESS; }
  simdjson::dom::element at(const char* key) const {
    simdjson::dom::element e;
    if (object_[key].get(e) != simdjson::SUCCESS) fail(std::string("missing \"") + key + "\"");
    return e;
  }
  int64_t integer(const char* key) const { return as_int(at(key), key); }
  uint64_t unsigned_integer(const char* key) const {
    uint64_t v = 0;
    if (at(key).get(v) != simdjson::SUCCESS) fail(std::string("\"") + key + "\" is not a count");
    return v;
  }
  bool flag(const char* key) const {
    bool v = false;
    if (at(key).get(v) != simdjson::SUCCESS) fail(std::string("\"") + key + "\" is not a bool");
    return v;
  }
  std::string text(const char* key) const {
    std::string_view v;
    if (at(key).get(v) != simdjson::SUCCESS) fail(std::string("\"") + key + "\" is not a string");
    return std::string(v);
  }
  std::vector<std::string> texts(const char* key) const {
    simdjson::dom::array a;
    if (at(key).get(a) != simdjson::SUCCESS) fail(std::string("\"") + key + "\" is not a list");
    std::vector<std::string> out;
    for (simdjson::dom::element e : a) {
      std::string_view v;
      if (e.get(v) != simdjson::SUCCESS) fail(std::string("\"") + key + "\" holds a non-string");
      out.emplace_back(v);
    }
    return out;
  }
  // Up to n integers of a list into out; returns how many.
  int integers(const char* key, int64_t* out, int n) const {
    simdjson::dom::array a;
    if (at(key).get(a) != simdjson::SUCCESS) fail(std::string("\"") + key + "\" is not a list");
    int k = 0;
    for (simdjson::dom::element e : a) {
      if (k == n) fail(std::string("\"") + key + "\" is too long");
      out[k++] = as_int(e, key);
    }
    return k;
  }
  std::vector<Line> objects(const char* key) const {
    simdjson::dom::array a;
    if (at(key).get(a) != simdjson::SUCCESS) fail(std::string("\"") + key + "\" is not a list");
    std::vector<Line> out;
    for (simdjson::dom::element e : a) {
      simdjson::dom::object o;
      if (e.get(o) != simdjson::SUCCESS) fail(std::string("\"") + key + "\" holds a non-object");
      out.emplace_back(o, where_);
    }
    return out;
  }
  Line object(const char* key) const {
    simdjson::dom::object o;
    if (at(key).get(o) != simdjson::SUCCESS) fail(std::string("\"") + key + "\" is not an object");
    return Line(o, where_);
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ExitCode::kInput, where_ + ": " + what);
  }

 private:
  int64_t as_int(simdjson::dom::element e, const char* key) const {
    int64_t v = 0;
    if (e.get(v) != simdjson::SUCCESS) fail(std::string("\"") + key + "\" is not an integer");
    return v;
  }
  simdjson::dom::object object_;
  std::string where_;
};

TensorSource read_source(const Line& l, const ComparePlan& plan) {
  TensorSource s;
  s.file = static_cast<int32_t>(l.integer("file"));
  if (s.file < -1 || s.file >= static_cast<int32_t>(plan.files.size())) l.fail("unknown file");
  const std::string group = l.text("group");
  bool known = false;
  for (TensorGroup g : kGroups) {
    if (group == tensor_group_name(g)) {
      s.group = g;
      known = true;
    }
  }
  if (!known) l.fail("unknown tensor group \"" + group + "\"");
  s.index = static_cast<int>(l.integer("index"));
  s.dtype = static_cast<DType>(l.integer("dtype"));
  s.offset = l.unsigned_integer("offset");
  s.size = l.unsigned_integer("size");
  s.count = l.integer("count");
  s.source_count = l.integer("source_count");
  s.layout = static_cast<int32_t>(l.integer("layout"));
  if (s.layout < -1 || s.layout >= static_cast<int32_t>(plan.layouts.size())) {
    l.fail("unknown layout");
  }
  return s;
}

// The strided stage of a map read from a file must not point before its buffer; a row using it
// is checked against its payload when it runs (the largest index is the sum of each axis' largest
// offset).
void check_layout(const Line& l, const LayoutMap& m) {
  if (m.count < 0) l.fail("negative layout count");
  for (int k = 0; k < m.rank; ++k) {
    if (m.dim[k] <= 0 || m.split[k] < 0 || m.stride_hi[k] < 0 || m.stride_lo[k] < 0) {
      l.fail("layout axes need positive sizes and non-negative strides");
    }
  }
  for (int64_t p : m.tail_param) {
    if (p < 0) l.fail("negative layout tail parameter");
  }
  if (static_cast<int32_t>(m.tail) < 0 || static_cast<int32_t>(m.tail) > 2)
    l.fail("unknown layout tail");
}

struct PlanCounts {
  uint64_t files = 0, layouts = 0, rows = 0;
};

// The header line: the plan's settings into `plan`, and how many lines of each kind follow.
PlanCounts read_header(const Line& h, ComparePlan& plan) {
  if (!h.has("dumpcmp_plan") || h.integer("dumpcmp_plan") != kPlanVersion) {
    h.fail("not a dumpcmp plan of version " + std::to_string(kPlanVersion));
  }
  for (const std::string& name : h.texts("metrics")) {
    bool known = false;
    for (Metric m : all_metrics()) {
      if (name == metric_name(m)) {
        plan.metrics.push_back(m);
        known = true;
      }
    }
    if (!known) h.fail("unknown metric \"" + name + "\"");
  }
  const Line c = h.object("columns");
  plan.columns = {c.flag("my_address"),
                  c.flag("golden_address"),
                  c.flag("op_sequence"),
                  c.flag("overflow"),
                  c.has("quantiles") && c.flag("quantiles"),
                  {}};
  if (c.has("custom")) {
    int last = 0;
    for (const Line& column : c.objects("custom")) {
      const int64_t after = column.integer("after");
      if (after < last || after > static_cast<int64_t>(plan.metrics.size())) {
        column.fail("custom column out of place");
      }
      last = static_cast<int>(after);
      plan.columns.custom.push_back({column.text("name"), last});
    }
  }
  plan.ops = h.integer("ops");
  plan.dump_match = h.flag("dump_match");
  plan.warnings = h.texts("warnings");
  plan.input_op_names = h.texts("input_op_names");
  return {h.unsigned_integer("files"), h.unsigned_integer("layouts"), h.unsigned_integer("rows")};
}

LayoutMap read_layout(const Line& l) {
  LayoutMap m;
  m.count = l.integer("count");
  m.identity = l.flag("identity");
  m.zero_fill = l.flag("zero_fill");
  m.rank = l.integers("dim", m.dim, kLayoutMaxAxes);
  if (l.integers("split", m.split, kLayoutMaxAxes) != m.rank ||
      l.integers("stride_hi", m.stride_hi, kLayoutMaxAxes) != m.rank ||
      l.integers("stride_lo", m.stride_lo, kLayoutMaxAxes) != m.rank) {
    l.fail("the layout's axes disagree in number");
  }
  m.tail = static_cast<LayoutTail>(l.integer("tail"));
  if (l.integers("tail_param", m.tail_param, kLayoutTailParams) != kLayoutTailParams) {
    l.fail("\"tail_param\" needs " + std::to_string(kLayoutTailParams) + " numbers");
  }
  check_layout(l, m);
  return m;
}

PlanRow read_row(const Line& l, const ComparePlan& plan) {
  PlanRow r;
  r.id = l.integer("row");
  RowIdentity& id = r.identity;
  id.index = l.integer("index");
  id.op_sequence = l.integer("op_sequence");
  id.op_type = l.text("op_type");
  id.my_op = l.text("my_op");
  id.my_dtype = l.text("my_dtype");
  id.my_address = l.text("my_address");
  id.golden_op = l.text("golden_op");
  id.golden_dtype = l.text("golden_dtype");
  id.golden_address = l.text("golden_address");
  id.tensor_index = l.text("tensor_index");
  id.shape = l.text("shape");
  id.overflow = l.text("overflow");
  r.reasons = l.texts("reasons");
  r.compared = l.flag("compared");
  r.x = read_source(l.object("x"), plan);
  r.y = read_source(l.object("y"), plan);
  if (r.compared && (r.x.file < 0 || r.y.file < 0)) l.fail("a compared row needs both files");
  r.context.scalar_shape = l.flag("scalar");
  r.context.my_file = l.text("my_file");
  r.context.golden_file = l.text("golden_file");
  r.both_bool = l.flag("both_bool");
  r.need_kld = l.flag("need_kld");
  r.overflow_from_x = l.flag("overflow_from_x");
  return r;
}

}  // namespace

void write_plan_jsonl(const ComparePlan& plan, std::ostream& out) {
  const TableColumns& c = plan.columns;
  std::vector<std::string> metrics;
  for (Metric m : plan.metrics) metrics.emplace_back(metric_name(m));
  out << "{\"dumpcmp_plan\":" << kPlanVersion << ",\"metrics\":" << strings(metrics)
      << ",\"columns\":{\"my_address\":" << boolean(c.my_address)
      << ",\"golden_address\":" << boolean(c.golden_address)
      << ",\"op_sequence\":" << boolean(c.op_sequence) << ",\"overflow\":" << boolean(c.overflow);
  // --quantiles, only when set: plans without it read as before.
  if (c.quantiles) out << ",\"quantiles\":true";
  if (!c.custom.empty()) {  // custom algorithms' columns (-c)
    out << ",\"custom\":[";
    for (std::size_t i = 0; i < c.custom.size(); ++i) {
      out << (i ? "," : "") << "{\"name\":" << json_string(c.custom[i].name)
          << ",\"after\":" << c.custom[i].after << "}";
    }
    out << "]";
  }
  out << "},\"ops\":" << plan.ops << ",\"dump_match\":" << boolean(plan.dump_match)
      << ",\"warnings\":" << strings(plan.warnings)
      << ",\"input_op_names\":" << strings(plan.input_op_names)
      << ",\"files\":" << plan.files.size() << ",\"layouts\":" << plan.layouts.size()
      << ",\"rows\":" << plan.rows.size() << "}\n";
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    out << "{\"file\":" << i << ",\"path\":" << json_string(plan.files[i]);
    const auto slices = plan.ffts_slices.find(static_cast<int32_t>(i));
    if (slices != plan.ffts_slices.end()) out << ",\"slices\":" << strings(slices->second);
    out << "}\n";
  }
  for (std::size_t i = 0; i < plan.layouts.size(); ++i) {
    const LayoutMap& m = plan.layouts[i];
    out << "{\"layout\":" << i << ",\"count\":" << m.count
        << ",\"identity\":" << boolean(m.identity) << ",\"zero_fill\":" << boolean(m.zero_fill)
        << ",\"dim\":" << numbers(m.dim, m.rank) << ",\"split\":" << numbers(m.split, m.rank)
        << ",\"stride_hi\":" << numbers(m.stride_hi, m.rank)
        << ",\"stride_lo\":" << numbers(m.stride_lo, m.rank)
        << ",\"tail\":" << static_cast<int32_t>(m.tail)
        << ",\"tail_param\":" << numbers(m.tail_param, kLayoutTailParams) << "}\n";
  }
  for (const PlanRow& r : plan.rows) {
    const RowIdentity& id = r.identity;
    out << "{\"row\":" << r.id << ",\"index\":" << id.index << ",\"op_sequence\":" << id.op_sequence
        << ",\"op_type\":" << json_string(id.op_type) << ",\"my_op\":" << json_string(id.my_op)
        << ",\"my_dtype\":" << json_string(id.my_dtype)
        << ",\"my_address\":" << json_string(id.my_address)
        << ",\"golden_op\":" << json_string(id.golden_op)
        << ",\"golden_dtype\":" << json_string(id.golden_dtype)
        << ",\"golden_address\":" << json_string(id.golden_address)
        << ",\"tensor_index\":" << json_string(id.tensor_index)
        << ",\"shape\":" << json_string(id.shape) << ",\"overflow\":" << json_string(id.overflow)
        << ",\"reasons\":" << strings(r.reasons) << ",\"compared\":" << boolean(r.compared)
        << ",\"x\":" << source_json(r.x) << ",\"y\":" << source_json(r.y)
        << ",\"scalar\":" << boolean(r.context.scalar_shape)
        << ",\"my_file\":" << json_string(r.context.my_file)
        << ",\"golden_file\":" << json_string(r.context.golden_file)
        << ",\"both_bool\":" << boolean(r.both_bool) << ",\"need_kld\":" << boolean(r.need_kld)
        << ",\"overflow_from_x\":" << boolean(r.overflow_from_x) << "}\n";
  }
}

ComparePlan read_plan_jsonl(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(ExitCode::kInput, path + ": cannot read the plan");
  return read_plan_jsonl(in, path);
}

ComparePlan read_plan_jsonl(std::istream& in, const std::string& path) {
  ComparePlan plan;
  simdjson::dom::parser parser;
  std::string text;
  int64_t line_number = 0;
  auto next = [&](const char* what) -> Line {
    ++line_number;
    const std::string where = path + ":" + std::to_string(line_number);
    if (!std::getline(in, text)) {
      throw Error(ExitCode::kInput, where + ": the plan ends before its " + what);
    }
    simdjson::dom::object o;
    if (parser.parse(text).get(o) != simdjson::SUCCESS) {
      throw Error(ExitCode::kInput, where + ": not a JSON object");
    }
    return Line(o, where);
  };
  const PlanCounts counts = read_header(next("header"), plan);
  for (uint64_t i = 0; i < counts.files; ++i) {
    const Line l = next("files");
    if (l.integer("file") != static_cast<int64_t>(i)) l.fail("files out of order");
    plan.files.push_back(l.text("path"));
    if (l.has("slices")) plan.ffts_slices[static_cast<int32_t>(i)] = l.texts("slices");
  }
  for (uint64_t i = 0; i < counts.layouts; ++i) {
    const Line l = next("layout maps");
    if (l.integer("layout") != static_cast<int64_t>(i)) l.fail("layout maps out of order");
    plan.layouts.push_back(read_layout(l));
  }
  for (uint64_t i = 0; i < counts.rows; ++i) plan.rows.push_back(read_row(next("rows"), plan));
  return plan;
}

}  // namespace dumpcmp
