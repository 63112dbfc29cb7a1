#pragma once
// A msprobe dump.json (PyTorch or MindSpore, docs/msprobe-compare.md §2.2) as the rows msprobe's
// compare reads from it: every op record flattened into one row per tensor or argument, in
// msprobe's order, with the op's name parts that matching needs (§4.1).
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "probe/py_json_dump.hpp"

namespace dumpcmp {

// One statistic (Max, Min, Mean, Norm) as msprobe holds it: a Python number, a bool or a string
// (msprobe's summary holds None as the string "None").
struct ProbeStat {
  enum class Kind : uint8_t { kBool, kInt, kFloat, kText };
  Kind kind = Kind::kText;
  double number = 0;  // kInt, kFloat (kInt also keeps its digits in text)
  std::string text;   // Python's str() of the value; "Nan" for a float NaN (msprobe's spelling)
};

// kDebug: a debug.json variable (msprobe's debug level), the whole record under its key.
enum class ProbeState : uint8_t { kInput, kParameters, kOutput, kParametersGrad, kDebug };

// A torch.distributed.P2POp argument's "op" and "peer" as dump.json gives them; -da keeps them
// (§7.5).
struct ProbeP2P {
  JsonTree op, peer;
};

struct ProbeRow {
  std::string name;                  // msprobe's full_op_name
  std::optional<std::string> dtype;  // none: None in msprobe (a null argument)
  std::optional<std::string> shape;  // str() of the shape: "[32, 3, 224, 224]", "[]", "(3,)"
  std::optional<std::string> requires_grad;  // "True" / "False"
  std::array<ProbeStat, 4> stats;            // Max, Min, Mean, Norm
  ProbeState state = ProbeState::kInput;
  std::string data_name = "-1";
  std::string md5;
  std::string suffix;                   // the name without the op's key: ".input.0"
  std::shared_ptr<const ProbeP2P> p2p;  // nullptr: not a P2POp (msprobe's "None")
};

struct ProbeOp {
  std::string key;           // the dump.json key: "Functional.conv2d.0.forward"
  std::string op_no_number;  // the key without call number and direction
  std::string call_direction;
  std::string direction;        // "forward", "backward" or "parameters_grad"
  int backward_call_order = 0;  // how many backward calls of op_no_number came before
  std::vector<ProbeRow> rows;   // inputs, parameters, outputs, parameter gradients
  std::optional<std::vector<std::string>> stack;  // from stack.json, when it has the op
};

struct ProbeDump {
  std::string path;
  std::string task, level, framework;
  bool debug_file = false;  // a debug.json (named so): no call numbers, no backward renumbering
  // "pytorch", "mindspore" or "": the framework key when it names one, else the first tensor
  // "type" that does (detect_framework_by_dump_json)
  std::string detected_framework;
  std::vector<ProbeOp> ops;          // in dump order; ops msprobe skips are left out
  std::vector<std::string> op_keys;  // every key of "data", in dump order (-lm reads them all)
  bool has_md5 = false;              // some record carries an "md5" key (§3)
};

// Whether msprobe runs MindSpore's compare for this NPU dump (get_compare_framework: "mindspore" or
// "mindtorch"), which reads .npy data files.
inline bool is_mindspore(const ProbeDump& npu) {
  return npu.framework == "mindspore" || npu.framework == "mindtorch";
}

// split_data_name_components: sets op's op_no_number, call_direction and direction from its key;
// false where msprobe skips the key (neither forward, backward nor parameters_grad).
bool probe_name_parts(const std::string& key, bool debug_file, ProbeOp& op);

// ProcessDf.update_forward_call / update_backward_call: the call number in a call direction
// ("forward.3" or "3.backward"; both parts where both are digits) replaced by `order`; the text as
// it is when it has none.
std::string renumbered_call(const std::string& call_direction, int order);

// Reads a dump.json; throws Error(kInput) naming the file for what msprobe refuses (no "data",
// an op name or argument string starting with a formula character, nesting deeper than 400).
ProbeDump read_probe_dump(const std::string& path);

// Where msprobe reads a dump's data files: dump_tensor_data beside its dump.json, with its '/'.
std::string probe_data_dir(const ProbeDump& dump);
// The same from the text of one, named `path` in errors.
ProbeDump parse_probe_dump(std::string_view text, const std::string& path);

// stack.json in either form (§2.4): op key -> its stack lines; `indexed_form`, if given, says
// whether it was the new {"0": [[op keys], [lines]]} form. Throws Error(kInput) naming the file.
std::map<std::string, std::vector<std::string>> read_probe_stack(const std::string& path,
                                                                 bool* indexed_form = nullptr);
std::map<std::string, std::vector<std::string>> parse_probe_stack(std::string_view text,
                                                                  const std::string& path,
                                                                  bool* indexed_form = nullptr);

}  // namespace dumpcmp
