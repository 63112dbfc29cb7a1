#pragma once
// Offline-model fusion rule (`-f`): the atc `--mode=1` JSON read as msaccucmp's FusionRuleParser
// reads it (docs/formats.md §4.2), plus the tensor-matching helpers of §4.3.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/shape.hpp"

namespace dumpcmp {

// An output_desc entry that carried an `attr` array (§4.2 rule 3), or one synthesised (rule 5/8).
struct OutputDesc {
  std::string origin_name;
  int origin_output_index = 0;
  std::string origin_format;
  Shape origin_shape;
  std::string data_type;  // the entry's "dtype" string, e.g. "DT_FLOAT16"; "" when synthesised
  // False for the descs msaccucmp synthesises with index None: origin_tensor(j) then uses j.
  bool has_origin_output_index = true;
};

struct FusionOp {
  std::string name;  // _lxsliceN removed
  std::string type;
  int64_t op_sequence = 0;          // json "id" (0 when absent)
  std::vector<std::string> inputs;  // filtered per §4.2 rule 2; "P:k" entries
  std::vector<OutputDesc> output_desc;
  std::vector<std::string> original_op_names;
  bool have_origin = false;  // the op had _datadump_original_op_names
  bool is_multiop = false;
  std::string l1_fusion_no;
  bool quant_filter = false;  // QuantFilter: skip this op (no result row)
  int64_t group_id = 0;       // FusionGroup::id, the CSV "Index"
};

enum class FusionRelation { kOneToOne, kMultiToOne, kOneToMulti, kMultiToMulti, kL1Fusion };
std::string_view fusion_relation_name(FusionRelation relation);  // "OneToOne", ...

struct FusionGroup {
  int64_t id = 0;
  std::string key;           // l1 number, op name, single original name, or uuid3 text
  bool key_is_uuid = false;  // msaccucmp keys these by a UUID object: never equal to a name
  std::vector<int> ops;      // indexes into FusionRule::ops(), in msaccucmp's list order
  FusionRelation relation = FusionRelation::kOneToOne;
};

class FusionRuleBuilder;
class FusionRule;
FusionRule merge_quant_rule(const FusionRule& om, const FusionRule& quant);
FusionRule merge_close_fusion_rule(const FusionRule& open, const FusionRule& close);
void apply_quant_filter(FusionRule& rule);

class FusionRule {
 public:
  // Reads and parses a JSON file, or a GE graph text file (ge_proto_*.txt) as the atc JSON of the
  // same model (fusion/ge_graph_text.hpp); throws Error(kInput) naming the file and the JSON path
  // or text line. Parsing includes msaccucmp's QuantFilter pass (§4.2 step 10).
  static FusionRule parse_file(const std::string& path);
  static FusionRule parse(std::string_view json, const std::string& name_for_errors);

  const std::string& source() const { return source_; }
  // The kept ops (a duplicate name inside one group is dropped), in file order.
  const std::vector<FusionOp>& ops() const { return ops_; }
  // By id: first-creation order across all graphs.
  const std::vector<FusionGroup>& groups() const { return groups_; }
  const FusionGroup& group_of(const FusionOp& op) const;
  // msaccucmp's get_fusion_op_list: the group the name was last keyed to, then the op of that
  // name in it. nullptr when absent.
  const FusionOp* find_op(std::string_view name) const;
  // The group the name was last keyed to, or nullptr.
  const FusionGroup* group_named(std::string_view name) const;
  // Raw names of the Data ops (the advisor's input nodes), in file order.
  const std::vector<std::string>& input_op_names() const { return input_nodes_; }
  // Indexes into ops() sorted by op_sequence (stable): msaccucmp's op_list, used by -r/-s.
  const std::vector<int>& ops_by_sequence() const { return sequence_order_; }

 private:
  friend class FusionRuleBuilder;
  friend FusionRule merge_quant_rule(const FusionRule& om, const FusionRule& quant);
  friend FusionRule merge_close_fusion_rule(const FusionRule& open, const FusionRule& close);
  friend void apply_quant_filter(FusionRule& rule);

  void finish_groups();  // relations and the op_sequence order
  // The group of a tagged key (fusion_group_key), made empty when the key is new.
  int group_for_key(std::string key);

  std::string source_;
  std::vector<FusionOp> ops_;
  std::vector<FusionGroup> groups_;
  std::vector<std::string> group_keys_;  // tagged: 's'+text or 'u'+uuid, parallel to groups_
  std::unordered_map<std::string, int> key_to_group_;
  std::unordered_map<std::string, int> name_to_group_;
  std::vector<std::string> input_nodes_;
  std::vector<int> sequence_order_;
};

// ---- Group keys (§4.2 rule 6) ----------------------------------------------------------------

// RFC 1321 digest; exposed for its test vectors.
std::array<uint8_t, 16> md5_digest(std::string_view data);
std::string md5_hex(std::string_view data);
// Python's str(uuid.uuid3(uuid.NAMESPACE_DNS, name)) (RFC 4122 §4.3, MD5 name-based).
std::string uuid3_dns(std::string_view name);
// Removes every "_lxslice<digits>" (msaccucmp's LXSLICE_PATTERN substitution).
std::string strip_lxslice(std::string_view name);

// ---- Tensor matching (§4.3) ------------------------------------------------------------------

struct OriginTensor {
  std::string name;
  int index = 0;
  std::string format;
  Shape shape;
};

// get_origin_tensor(j): j past the end uses desc[0] (msaccucmp quirk); an empty origin name or no
// descs gives nullopt and a message in `error`.
std::optional<OriginTensor> origin_tensor(const FusionOp& op, int j, std::string& error);

// The op whose output feeds `op`'s input `input_index` ("P:k"), following Cast and TransData
// producers through their input k. nullptr and a message when the input is malformed, the
// producer is not in the rule, or the Cast/TransData chain loops.
const FusionOp* resolve_input_producer(const FusionRule& rule, const FusionOp& op, int input_index,
                                       int& producer_output, std::string& error);
// The op whose origin describes `op`'s output `output_index`: `op` itself, unless it is a Cast
// or TransData, which msaccucmp also follows back through its input.
const FusionOp* resolve_output_source(const FusionRule& rule, const FusionOp& op, int output_index,
                                      int& source_output, std::string& error);

// Inputs are not compared for dequant ops: type AscendDequant, or the name ends with
// _dequant_layer, AscendDequant or _dequant.
bool skips_input_compare(const FusionOp& op);
// Outputs are not compared for type AscendQuant.
bool skips_output_compare(const FusionOp& op);
// Multi-to-multi "inner node": _datadump_is_multiop and every output origin name empty.
bool is_inner_node(const FusionOp& op);

}  // namespace dumpcmp
