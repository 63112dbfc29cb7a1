// docs/msprobe-compare.md §7.5: FirstDiffAnalyze.check per rank, then DiffAnalyzer's search.
#include "probe/probe_first_diff.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <memory>
#include <set>
#include <unordered_map>

#include "core/error.hpp"
#include "core/text.hpp"
#include "probe/probe_text.hpp"

namespace dumpcmp {
namespace {

constexpr const char* kNotAvailable = "N/A";
constexpr const char* kRelativeErrors[] = {"MaxRelativeErr", "MinRelativeErr", "MeanRelativeErr",
                                           "NormRelativeErr"};
constexpr double kRelativeErrorThreshold = 0.5;  // diff_analyze_threshold.yaml, every metric

// ignore_op_list.yaml: output indices of an API (the key's third component from the end) that do
// not count.
std::vector<int> ignored_outputs(std::string_view api) {
  if (api == "npu_fusion_attention") return {4, 5};
  return {};
}

const char* state_name(ProbeState state) {
  switch (state) {
    case ProbeState::kInput:
      return "input";
    case ProbeState::kParameters:
      return "parameters";
    case ProbeState::kOutput:
      return "output";
    case ProbeState::kParametersGrad:
      return "parameters_grad";
    case ProbeState::kDebug:
      return "debug";
  }
  return "input";
}

// A cell as pandas holds it, for json.dump: text, a number (inf and nan as Python writes them) or
// a bool.
JsonTree cell_value(const std::string& cell, ProbeCellKind kind) {
  if (kind == ProbeCellKind::kBool) return JsonTree::boolean(cell == "True");
  if (kind == ProbeCellKind::kText) return JsonTree::string(cell);
  std::string number = trim(cell);
  if (number == "inf") return JsonTree::number("Infinity");
  if (number == "-inf") return JsonTree::number("-Infinity");
  if (number == "nan") return JsonTree::number("NaN");
  return JsonTree::number(std::move(number));
}

JsonTree p2p_cell(const ProbeRow* row, JsonTree ProbeP2P::*part) {
  if (row == nullptr) return JsonTree::number("NaN");  // past the end of the bench rows
  if (!row->p2p) return JsonTree::string("None");
  return (*row->p2p).*part;
}

// Python's float() of a relative error written "x%", over the threshold.
bool over_threshold(const JsonTree* cell) {
  if (cell == nullptr || cell->kind != JsonTree::Kind::kString) return false;
  const std::string& text = cell->text;
  if (text.empty() || text.back() != '%') return false;
  const std::string number = text.substr(0, text.size() - 1);
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  return end != number.c_str() && value / 100 > kRelativeErrorThreshold;
}

// msprobe's api_batches_update: consecutive rows of one op key, or of a key without
// ".forward."/".backward." that is part of the batch's key.
struct Batch {
  std::string api;
  size_t begin, end;
};

std::vector<Batch> op_batches(const std::vector<ProbeMatch>& matches) {
  std::vector<Batch> batches;
  for (size_t i = 0; i < matches.size(); ++i) {
    const std::string& api = matches[i].op->key;
    if (!batches.empty()) {
      Batch& last = batches.back();
      const bool directed =
          api.find(".forward.") != std::string::npos || api.find(".backward.") != std::string::npos;
      if (last.api == api || (!directed && last.api.find(api) != std::string::npos)) {
        if (matches[i].npu->state == ProbeState::kDebug) {
          throw Error(ExitCode::kInput,
                      "api_batch " + last.api + " with invalid state debug, please check!");
        }
        last.end = i + 1;
        continue;
      }
    }
    batches.push_back({api, i, i + 1});
  }
  return batches;
}

// The NPU rows in msprobe's parse order: the result's row i takes the P2POp cells of row i
// (pandas aligns the columns by index, not by the match).
std::vector<const ProbeRow*> parse_order(const ProbeDump& dump) {
  std::vector<const ProbeRow*> rows;
  for (const ProbeOp& op : dump.ops) {
    for (const ProbeRow& row : op.rows) rows.push_back(&row);
  }
  return rows;
}

// Python's truth value of a JSON value.
bool truthy(const JsonTree* v) {
  if (v == nullptr) return false;
  switch (v->kind) {
    case JsonTree::Kind::kNull:
      return false;
    case JsonTree::Kind::kBool:
      return v->text == "true";
    case JsonTree::Kind::kNumber:
      return std::strtod(v->text.c_str(), nullptr) != 0;
    case JsonTree::Kind::kString:
      return !v->text.empty();
    case JsonTree::Kind::kArray:
      return !v->items.empty();
    case JsonTree::Kind::kObject:
      return !v->members.empty();
  }
  return false;
}

// What the search reads of one op's items (graph.py's DataNode.parse_data): each input and output
// row's NPU statistics (or MD5) and P2POp peer by row name, and the first stack.
void read_items(const std::vector<JsonTree>& items, ProbeOpCheck& op) {
  for (const JsonTree& row : items) {
    JsonTree metrics = JsonTree::object();
    const auto copy = [&](const char* key) {
      const JsonTree* v = row.find(key);
      metrics.set(key, v ? *v : JsonTree::null());
    };
    if (row.find("NPU max") != nullptr) {
      for (const char* key : {"NPU max", "NPU min", "NPU mean", "NPU l2norm"}) copy(key);
    } else if (row.find("NPU MD5") != nullptr) {
      copy("NPU MD5");
    }
    if (row.find("NPU P2POp peer") != nullptr) copy("NPU P2POp peer");
    const JsonTree* stack_cell = row.find("NPU_Stack_Info");
    const bool not_na = stack_cell == nullptr || stack_cell->kind != JsonTree::Kind::kString ||
                        stack_cell->text != kNotAvailable;
    if (not_na && !truthy(&op.stack)) op.stack = stack_cell ? *stack_cell : JsonTree::null();
    const JsonTree* name = row.find("NPU Name");
    const std::string key = name && name->kind == JsonTree::Kind::kString ? name->text : "null";
    const std::string& state = row.find("state")->text;
    if (state == "input") op.inputs.set(key, std::move(metrics));
    if (state == "output") op.outputs.set(key, std::move(metrics));
  }
}

}  // namespace

std::vector<ProbeOpCheck> probe_diff_check(
    const ProbeTable& table, const ProbeDump& npu, const ProbeDump& bench, ProbeMode mode,
    const std::map<std::string, std::vector<std::string>>* stacks,
    const std::function<void(std::string_view)>& write) {
  const auto column = [&](std::string_view name) {
    return static_cast<size_t>(std::find(table.header.begin(), table.header.end(), name) -
                               table.header.begin());
  };
  const size_t bench_name = column("Bench Name"), consistent = column("Requires_grad Consistent");
  const size_t result_column = column("Result"), message_column = column("Err_message");
  const size_t stack_column = column("NPU_Stack_Info");
  const size_t npu_md5 = column("NPU MD5"), bench_md5 = column("BENCH MD5");
  const std::vector<const ProbeRow*> npu_rows = parse_order(npu), bench_rows = parse_order(bench);

  // Row i as the compare stage leaves it: Result and Err_message before the indicators of §6.
  const auto item_of = [&](size_t i) {
    const std::vector<std::string>& cells = table.rows[i];
    const ProbeMatch& m = table.matches[i];
    const bool no_bench = cells[bench_name] == kNotAvailable;
    JsonTree item = JsonTree::object();
    for (size_t c = 0; c < table.header.size(); ++c) {
      JsonTree value = cell_value(cells[c], table.kinds[i][c]);
      if (c == result_column) {
        if (mode == ProbeMode::kMd5) {
          value = JsonTree::string(cells[npu_md5] == cells[bench_md5] ? "pass"
                                   : no_bench                         ? kNotAvailable
                                                                      : "Different");
        } else {
          value = JsonTree::string(no_bench ? kNotAvailable : "");
        }
      } else if (c == message_column) {
        if (mode == ProbeMode::kMd5) {
          value = no_bench ? JsonTree::string("No bench data matched.") : JsonTree::number("NaN");
        } else {
          std::string text = no_bench ? "No bench data matched." : "";
          if (cells[consistent] != "True") text += "Requires_grad inconsistent. ";
          value = JsonTree::string(text);
        }
      } else if (c == stack_column && cells[c] != kNotAvailable && stacks != nullptr) {
        value = JsonTree::array();
        for (const std::string& line : stacks->at(m.op->key))
          value.items.push_back(JsonTree::string(line));
      }
      item.members.emplace_back(table.header[c], std::move(value));
    }
    item.members.emplace_back("state", JsonTree::string(state_name(m.npu->state)));
    item.members.emplace_back("api_origin_name", JsonTree::string(m.op->key));
    const ProbeRow* npu_row = i < npu_rows.size() ? npu_rows[i] : nullptr;
    const ProbeRow* bench_row = i < bench_rows.size() ? bench_rows[i] : nullptr;
    item.members.emplace_back("NPU P2POp op", p2p_cell(npu_row, &ProbeP2P::op));
    item.members.emplace_back("Bench P2POp op", p2p_cell(bench_row, &ProbeP2P::op));
    item.members.emplace_back("NPU P2POp peer", p2p_cell(npu_row, &ProbeP2P::peer));
    item.members.emplace_back("Bench P2POp peer", p2p_cell(bench_row, &ProbeP2P::peer));
    return item;
  };

  // The ops of at least 4 key components; a key met twice keeps its first place and the last
  // op's rows, as a dict assigned twice.
  std::vector<Batch> batches;
  for (Batch& batch : op_batches(table.matches)) {
    if (split(batch.api, '.').size() >= 4) batches.push_back(std::move(batch));
  }
  std::unordered_map<std::string, size_t> last;
  for (size_t b = 0; b < batches.size(); ++b) last[batches[b].api] = b;

  std::vector<ProbeOpCheck> ops;
  write("{");
  for (const Batch& first : batches) {
    const auto at = last.find(first.api);
    if (at == last.end()) continue;  // written at its first place already
    const Batch& batch = batches[at->second];
    last.erase(at);
    const std::vector<std::string_view> parts = split(batch.api, '.');
    const std::vector<int> ignored = ignored_outputs(parts[parts.size() - 3]);
    ProbeOpCheck op;
    op.key = batch.api;
    int output_index = -1;
    JsonTree op_items = JsonTree::array();
    for (size_t i = batch.begin; i < batch.end; ++i) {
      op_items.items.push_back(item_of(i));
      const JsonTree& item = op_items.items.back();
      if (table.matches[i].npu->state != ProbeState::kOutput) continue;
      ++output_index;
      if (std::find(ignored.begin(), ignored.end(), output_index) != ignored.end()) continue;
      if (mode == ProbeMode::kMd5) {
        if (item.find("Result")->text == "Different") op.same = false;
      } else {
        for (const char* metric : kRelativeErrors) {
          if (over_threshold(item.find(metric))) {
            op.same = false;
            break;
          }
        }
      }
    }
    read_items(op_items.items, op);
    JsonTree check = JsonTree::object();
    check.members.emplace_back("is_same", JsonTree::boolean(op.same));
    check.members.emplace_back("op_items", std::move(op_items));
    write(ops.empty() ? "\n    " : ",\n    ");
    write(python_json_string(op.key));
    write(": ");
    write(python_json_dump(check, 4, 1));
    ops.push_back(std::move(op));
  }
  write(ops.empty() ? "}" : "\n}");
  return ops;
}

namespace {

// ---- DiffAnalyzer's search (find_first/analyzer.py, graph.py, utils.py) ----------------------

bool is_communication_op(const std::string& name) {
  static const char* const kPrefixes[] = {"Distributed", "MintDistributed",
                                          "communication.comm_func"};
  // Each of msprobe's COMMUNICATION_KEYWORDS contains one of these.
  static const char* const kKeywords[] = {"send",   "recv",    "broadcast", "reduce",
                                          "gather", "scatter", "all_to_all"};
  const bool prefixed = std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                                    [&](const char* p) { return name.rfind(p, 0) == 0; });
  return prefixed && std::any_of(std::begin(kKeywords), std::end(kKeywords),
                                 [&](const char* k) { return name.find(k) != std::string::npos; });
}

bool is_ignored_op(const std::string& name) {
  for (const char* keyword : {"Torch.empty", "Torch.fill", "Tensor.__setitem__"}) {
    if (name.find(keyword) != std::string::npos) return true;
  }
  return false;
}

// Python's int() of the value, if it has one: an integer string (spaces around allowed), a
// number (truncated) or a bool.
std::optional<long long> py_int(const JsonTree* v) {
  if (v == nullptr) return std::nullopt;
  if (v->kind == JsonTree::Kind::kBool) return v->text == "true" ? 1 : 0;
  if (v->kind == JsonTree::Kind::kNumber) {
    const double d = std::strtod(v->text.c_str(), nullptr);
    if (!std::isfinite(d)) return std::nullopt;
    return static_cast<long long>(d);
  }
  if (v->kind != JsonTree::Kind::kString) return std::nullopt;
  const std::optional<int64_t> number = parse_integer(v->text);
  if (!number) return std::nullopt;
  return *number;
}

// Python's `value == rank` for a JSON value and an int.
bool equals_rank(const JsonTree* v, int rank) {
  if (v == nullptr) return false;
  if (v->kind == JsonTree::Kind::kBool) return (v->text == "true" ? 1 : 0) == rank;
  if (v->kind == JsonTree::Kind::kNumber) return std::strtod(v->text.c_str(), nullptr) == rank;
  return false;
}

const char* const kSrc = "src";
const char* const kDst = "dst";
const char* const kLink = "link";

std::string opposite(const std::string& type) {
  if (type == kSrc) return kDst;
  if (type == kDst) return kSrc;
  return kLink;
}

std::string peer_api(const std::string& api) {
  static const std::map<std::string, std::string> kPeers = {
      {"send", "recv"},
      {"recv", "send"},
      {"isend", "irecv"},
      {"irecv", "isend"},
      {"send_object_list", "recv_object_list"},
      {"recv_object_list", "send_object_list"}};
  const auto found = kPeers.find(api);
  return found == kPeers.end() ? api : found->second;
}

bool is_directed_api(const std::string& api) {
  static const std::set<std::string> kDirected = {"send",
                                                  "recv",
                                                  "isend",
                                                  "irecv",
                                                  "broadcast",
                                                  "scatter",
                                                  "gather",
                                                  "send_object_list",
                                                  "recv_object_list"};
  return kDirected.count(api) != 0;
}

struct DataNode {
  const ProbeOpCheck* op = nullptr;
  int rank = 0;
  int layer = 0, sub_layer = 0;

  const std::string& op_name() const { return op->key; }
  bool is_diff() const { return !op->same; }
  const JsonTree& inputs() const { return op->inputs; }

  JsonTree info() const {
    JsonTree data = JsonTree::object();
    data.members.emplace_back("input", op->inputs);
    data.members.emplace_back("output", op->outputs);
    JsonTree out = JsonTree::object();
    out.members.emplace_back("op_name", JsonTree::string(op->key));
    out.members.emplace_back("data_info", std::move(data));
    out.members.emplace_back("stack_info", op->stack);
    return out;
  }
};

struct CommNode {
  std::string id;  // "<rank>.<op key>"
  int rank = 0;
  DataNode* data = nullptr;
  bool is_diff = false;
  int layer = 0;
  std::string api;  // the key's second component: "all_reduce"
  std::string type;
  CommNode* pre = nullptr;
  std::map<std::string, CommNode*> links, dsts, srcs, nexts;
  std::vector<DataNode*> compute_ops;  // differing compute ops since the previous one
  bool connected = false;

  // Connected ranks, the peer API and the type a peer must have (find_connected_nodes).
  struct Wanted {
    std::set<long long> ranks;
    std::string api, type;
  };

  // The value msprobe reads a rank from: the MD5 cell in md5 mode, else NPU max.
  static const JsonTree* rank_cell(const JsonTree& metrics) {
    const JsonTree* md5 = metrics.find("NPU MD5");
    return md5 ? md5 : metrics.find("NPU max");
  }

  void resolve_type() {
    for (const char* prefix : {kSrc, kDst}) {
      for (const auto& [name, metrics] : data->inputs().members) {
        if (name.find(prefix) == std::string::npos) continue;
        type = equals_rank(rank_cell(metrics), rank) ? prefix : opposite(prefix);
        return;
      }
    }
    type = kLink;
  }

  Wanted wanted() const {
    Wanted w;
    w.api = "Distributed." + peer_api(api);
    w.type = opposite(type);
    for (const auto& [name, metrics] : data->inputs().members) {
      const JsonTree* cell = rank_cell(metrics);
      const bool rank_argument =
          name.find("dst") != std::string::npos || name.find("src") != std::string::npos;
      if (rank_argument) {
        const JsonTree zero = JsonTree::number("0");
        const std::optional<long long> r = py_int(cell ? cell : &zero);
        if (!r) {
          throw Error(ExitCode::kInput, "-da: the " + name + " argument of " + data->op_name() +
                                            " (rank " + std::to_string(rank) +
                                            ") is not a rank number");
        }
        if (*r != 0) w.ranks.insert(*r);
      } else if (ends_with(name, ".group")) {
        if (!truthy(cell) || cell->kind != JsonTree::Kind::kString) continue;
        const std::string& text = cell->text;
        if (text.front() != '[' || text.back() != ']') continue;
        const std::string inner = strip_brackets(text);
        for (const std::string_view part : split(inner, ',')) {
          const JsonTree piece = JsonTree::string(std::string(part));
          const std::optional<long long> r = py_int(&piece);
          if (!r) {
            throw Error(ExitCode::kInput, "-da: the group " + text + " of " + data->op_name() +
                                              " (rank " + std::to_string(rank) +
                                              ") is not a list of ranks");
          }
          w.ranks.insert(*r);
        }
      } else if (const JsonTree* peer = metrics.find("NPU P2POp peer");
                 !(peer != nullptr && peer->kind == JsonTree::Kind::kString &&
                   peer->text == "None")) {
        // A peer that is not a number names no rank msprobe could look up.
        if (peer != nullptr && peer->kind == JsonTree::Kind::kNumber) {
          if (const std::optional<long long> r = py_int(peer)) w.ranks.insert(*r);
        }
      }
    }
    return w;
  }

  void add_next(CommNode* node) {
    nexts[node->id] = node;
    node->pre = this;
    node->layer = layer + 1;
    node->data->layer = node->layer;
  }
  void add_link(CommNode* node) {
    links[node->id] = node;
    node->links[id] = this;
    node->layer = layer;
    node->data->layer = node->layer;
    connected = node->connected = true;
  }
  void add_dst(CommNode* node) {
    dsts[node->id] = node;
    node->srcs[id] = this;
    node->layer = layer;
    node->data->layer = node->layer;
    connected = node->connected = true;
  }
  void unlink() {
    for (auto& [_, n] : nexts) n->pre = nullptr;
    for (auto& [_, n] : dsts) n->srcs.erase(id);
    for (auto& [_, n] : srcs) n->dsts.erase(id);
    for (auto& [_, n] : links) n->links.erase(id);
    if (pre != nullptr) pre->nexts.erase(id);
  }
};

class DiffSearch {
 public:
  DiffSearch(const std::vector<ProbeRankCheck>& ranks, std::vector<std::string>& warnings)
      : warnings_(warnings) {
    for (const ProbeRankCheck& check : ranks)
      ranks_[check.rank] = &check.ops;  // the last of a rank
  }

  std::vector<DataNode*> run() {
    before_communication();
    if (diffs_.empty()) across_communication();
    if (diffs_.empty()) after_communication();
    return diffs_;
  }

 private:
  DataNode* make_data(const ProbeOpCheck& op, int rank, int sub_layer) {
    data_nodes_.push_back(std::make_unique<DataNode>(DataNode{&op, rank, 0, sub_layer}));
    return data_nodes_.back().get();
  }

  void before_communication() {
    for (const auto& [rank, check] : ranks_) {
      if (check->empty()) {
        warnings_.push_back("Rank " + std::to_string(rank) + " has no dump data!");
        continue;
      }
      for (const ProbeOpCheck& op : *check) {
        if (is_ignored_op(op.key)) continue;
        if (is_communication_op(op.key)) {
          first_comm_[rank] = op.key;
          break;
        }
        DataNode* node = make_data(op, rank, 0);
        if (node->is_diff()) {
          diffs_.push_back(node);
          break;
        }
      }
    }
  }

  void across_communication() {
    for (const auto& [rank, check] : ranks_) comm_nodes(rank, *check);
    connect();
    prune();
    search();
  }

  void after_communication() {
    for (const auto& [rank, ops] : after_comm_) {
      if (!ops.empty()) diffs_.push_back(ops.front());
    }
  }

  // _analyze_comm_nodes: the rank's communication ops from its first, each with the differing
  // compute ops before it.
  void comm_nodes(int rank, const std::vector<ProbeOpCheck>& check) {
    std::vector<CommNode*>& order = order_[rank];
    const auto first = first_comm_.find(rank);
    if (first == first_comm_.end()) return;
    CommNode* last = nullptr;
    std::vector<DataNode*> compute;
    int sub_layer = 0;
    bool started = false;
    for (const ProbeOpCheck& op : check) {
      if (!started && op.key != first->second) continue;
      started = true;
      if (is_communication_op(op.key)) {
        auto node = std::make_unique<CommNode>();
        node->id = std::to_string(rank) + "." + op.key;
        node->rank = rank;
        node->data = make_data(op, rank, sub_layer);
        node->is_diff = node->data->is_diff();
        node->api = std::string(split(op.key, '.')[1]);
        node->compute_ops = std::move(compute);
        node->resolve_type();
        if (last != nullptr) last->add_next(node.get());
        last = node.get();
        by_id_[node->id] = node.get();
        order.push_back(node.get());
        comm_.push_back(std::move(node));
        compute.clear();
        sub_layer = 0;
      } else if (!is_ignored_op(op.key)) {
        DataNode* node = make_data(op, rank, sub_layer);
        if (node->is_diff()) compute.push_back(node);
        ++sub_layer;
      }
    }
    if (!compute.empty()) after_comm_[rank] = compute;
  }

  // _connect_comm_nodes: every rank but the last, node by node, looks for its peers on the ranks
  // not searched yet.
  void connect() {
    std::set<int> searched;
    size_t visited = 0;
    for (auto& [rank, nodes] : order_) {
      if (++visited == order_.size()) break;
      searched.insert(rank);
      std::set<std::string> seen;
      CommNode* last = nullptr;
      for (CommNode* node : nodes) {
        if (last != nullptr && last->layer >= node->layer) node->layer = last->layer + 1;
        CommNode::Wanted wanted = node->wanted();
        if (wanted.ranks.empty()) {
          for (const auto& [r, _] : order_) wanted.ranks.insert(r);
        }
        last = node;
        find_peer(wanted, node, searched, seen);
      }
    }
  }

  void find_peer(const CommNode::Wanted& wanted, CommNode* node, const std::set<int>& searched,
                 std::set<std::string>& seen) {
    for (const long long peer_rank : wanted.ranks) {
      if (searched.count(static_cast<int>(peer_rank)) != 0) continue;
      const auto peers = order_.find(static_cast<int>(peer_rank));
      if (peers == order_.end()) continue;  // msprobe stops on a rank it has no result for
      const std::string prefix = std::to_string(peer_rank) + "." + wanted.api;
      for (CommNode* candidate : peers->second) {
        if (seen.count(candidate->id) != 0) continue;
        if (candidate->id.rfind(prefix, 0) != 0 || candidate->type != wanted.type) continue;
        const std::set<long long> their = candidate->wanted().ranks;
        if ((their.empty() && !is_directed_api(candidate->api)) || their.count(node->rank) != 0) {
          seen.insert(candidate->id);
          if (candidate->type == kDst) {
            node->add_dst(candidate);
          } else if (candidate->type == kSrc) {
            candidate->layer = node->layer;
            candidate->add_dst(node);
          } else {
            node->add_link(candidate);
          }
          break;
        }
      }
    }
  }

  // _pruning: communication ops that neither differ nor follow differing compute ops.
  void prune() {
    for (auto& [rank, nodes] : order_) {
      std::vector<CommNode*> kept;
      for (CommNode* node : nodes) {
        if (node->is_diff || !node->compute_ops.empty()) {
          kept.push_back(node);
        } else {
          node->unlink();
          by_id_.erase(node->id);
        }
      }
      nodes = std::move(kept);
    }
  }

  CommNode* node_by_id(const std::string& id) const {
    const auto found = by_id_.find(id);
    return found == by_id_.end() ? nullptr : found->second;
  }

  static std::set<std::string> relatives(const CommNode* node) {
    std::set<std::string> ids;
    if (node == nullptr) return ids;
    ids.insert(node->id);
    for (const auto* peers : {&node->links, &node->srcs, &node->dsts}) {
      for (const auto& [id, _] : *peers) ids.insert(id);
    }
    return ids;
  }

  // Every node reachable through links, sources and destinations.
  std::set<std::string> group_of(const CommNode* node) const {
    std::set<std::string> ids = relatives(node);
    std::vector<std::string> queue(ids.begin(), ids.end());
    while (!queue.empty()) {
      const std::string id = queue.back();
      queue.pop_back();
      for (const std::string& next : relatives(node_by_id(id))) {
        if (ids.insert(next).second) queue.push_back(next);
      }
    }
    return ids;
  }

  // analyze_diff_in_group: the differing compute ops before the group's nodes, then the group's
  // differing communication ops. msprobe walks the group as a set of strings, in an order that
  // changes from run to run; here the members go by rank, then by their place in the rank.
  void diffs_in_group(const std::set<std::string>& ids) {
    std::vector<CommNode*> members;
    for (const std::string& id : ids) {
      if (CommNode* node = node_by_id(id)) members.push_back(node);
    }
    std::stable_sort(members.begin(), members.end(), [&](const CommNode* a, const CommNode* b) {
      if (a->rank != b->rank) return a->rank < b->rank;
      const std::vector<CommNode*>& nodes = order_.at(a->rank);
      return std::find(nodes.begin(), nodes.end(), a) < std::find(nodes.begin(), nodes.end(), b);
    });
    for (CommNode* node : members) {
      for (DataNode* op : node->compute_ops) {
        op->layer = node->layer;
        diffs_.push_back(op);
      }
    }
    for (CommNode* node : members) {
      if (!node->data->is_diff()) continue;
      node->data->layer = node->layer;
      diffs_.push_back(node->data);
    }
  }

  // _search_first_diff: the ranks' nodes by layer, group by group, until one differs; then the
  // differing nodes of the lowest (layer, sub_layer).
  void search() {
    std::vector<std::vector<CommNode*>> queues;
    for (const auto& [rank, nodes] : order_) {
      std::vector<CommNode*> queue = nodes;
      std::stable_sort(queue.begin(), queue.end(),
                       [](const CommNode* a, const CommNode* b) { return a->layer < b->layer; });
      queues.push_back(std::move(queue));
    }
    std::vector<size_t> heads(queues.size(), 0);
    std::set<std::string> seen;
    const auto any_left = [&] {
      for (size_t q = 0; q < queues.size(); ++q) {
        if (heads[q] < queues[q].size()) return true;
      }
      return false;
    };
    while (any_left()) {
      std::vector<std::set<std::string>> groups;
      std::set<std::string> grouped;
      for (size_t q = 0; q < queues.size(); ++q) {
        CommNode* node = nullptr;
        while (heads[q] < queues[q].size() && node == nullptr) {
          CommNode* next = queues[q][heads[q]++];
          if (seen.count(next->id) == 0) node = next;
        }
        if (node == nullptr) continue;
        if (groups.empty() || grouped.count(node->id) == 0) {
          groups.push_back(group_of(node));
          grouped.insert(groups.back().begin(), groups.back().end());
        }
      }
      for (const std::set<std::string>& group : groups) {
        seen.insert(group.begin(), group.end());
        diffs_in_group(group);
      }
      if (!diffs_.empty()) {
        std::pair<int, int> lowest{diffs_.front()->layer, diffs_.front()->sub_layer};
        for (const DataNode* d : diffs_) lowest = std::min(lowest, {d->layer, d->sub_layer});
        std::vector<DataNode*> first;
        for (DataNode* d : diffs_) {
          if (std::pair<int, int>{d->layer, d->sub_layer} == lowest) first.push_back(d);
        }
        diffs_ = std::move(first);
        return;
      }
    }
  }

  std::vector<std::string>& warnings_;
  std::map<int, const std::vector<ProbeOpCheck>*> ranks_;
  std::map<int, std::string> first_comm_;
  std::map<int, std::vector<CommNode*>> order_;  // each rank's communication nodes, in order
  std::map<int, std::vector<DataNode*>> after_comm_;
  std::map<std::string, CommNode*> by_id_;
  std::vector<std::unique_ptr<DataNode>> data_nodes_;
  std::vector<std::unique_ptr<CommNode>> comm_;
  std::vector<DataNode*> diffs_;
};

}  // namespace

std::optional<JsonTree> probe_first_diff(const std::vector<ProbeRankCheck>& ranks,
                                         std::vector<std::string>& warnings) {
  DiffSearch search(ranks, warnings);
  const std::vector<DataNode*> diffs = search.run();
  if (diffs.empty()) return std::nullopt;
  JsonTree out = JsonTree::object();
  for (const DataNode* node : diffs) {
    const std::string key = "rank_" + std::to_string(node->rank);
    JsonTree* list = nullptr;
    for (auto& [name, value] : out.members) {
      if (name == key) list = &value;
    }
    if (list == nullptr) {
      out.members.emplace_back(key, JsonTree::array());
      list = &out.members.back().second;
    }
    list->items.push_back(node->info());
  }
  return out;
}

}  // namespace dumpcmp
