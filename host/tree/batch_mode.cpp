#include "tree/batch_mode.hpp"

#include <simdjson.h>

#include <algorithm>
#include <map>
#include <utility>

#include "core/error.hpp"
#include "core/paths.hpp"
#include "core/text.hpp"
#include "tree/batch_messages.hpp"
#include "tree/tree_listing.hpp"

namespace dumpcmp {
namespace {

std::vector<std::string> digit_runs(const std::string& text) {
  std::vector<std::string> runs;
  for (size_t i = 0; i < text.size();) {
    if (text[i] < '0' || text[i] > '9') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    runs.push_back(text.substr(i, end - i));
    i = end;
  }
  return runs;
}

// The subdirectories of dir; other entries become warnings.
std::vector<std::string> subdirectories(const std::string& dir, std::vector<std::string>& warnings,
                                        const char* level) {
  std::vector<std::string> names;
  for (const TreeEntry& e : list_tree_level(dir)) {
    if (e.kind == EntryKind::kDirectory) {
      names.push_back(e.name);
    } else {
      warnings.push_back(child_path(dir, e.name) + ": not a " + level + " directory; skipped");
    }
  }
  return names;
}

// model_name -> its leaves on every device, in device then model_id order (msaccucmp pools the
// devices under the bare directory name). Names in the order the walk first meets them (devices,
// then model_names), which decides the graph-id fallback's last match as in msaccucmp.
using LeavesByModel = std::vector<std::pair<std::string, std::vector<TreeLeaf>>>;

std::vector<TreeLeaf>& leaves_of(LeavesByModel& leaves, const std::string& model) {
  for (auto& [name, list] : leaves) {
    if (name == model) return list;
  }
  return leaves.emplace_back(model, std::vector<TreeLeaf>()).second;
}

LeavesByModel walk_time_dir(const std::string& time_dir, std::vector<std::string>& warnings) {
  LeavesByModel leaves;
  const std::string time = time_dir.substr(time_dir.rfind('/') + 1);
  for (const std::string& device : subdirectories(time_dir, warnings, "device")) {
    const std::string device_dir = child_path(time_dir, device);
    for (const std::string& model : subdirectories(device_dir, warnings, "model_name")) {
      const std::string model_dir = child_path(device_dir, model);
      for (const std::string& id : subdirectories(model_dir, warnings, "model_id")) {
        const std::string id_dir = child_path(model_dir, id);
        std::vector<std::string> steps = subdirectories(id_dir, warnings, "step");
        if (steps.empty()) continue;
        // msaccucmp's max() over the names as strings: "9" beats "10".
        const std::string step = *std::max_element(steps.begin(), steps.end());
        if (steps.size() > 1) {
          std::string others;
          for (const std::string& s : steps) {
            if (s != step) others += (others.empty() ? "" : ", ") + s;
          }
          warnings.push_back(id_dir + ": batch mode compares step " + step +
                             " (the string-largest) only; not compared: " + others +
                             " (compare --tree compares every step)");
        }
        TreeLeaf leaf;
        leaf.path = child_path(id_dir, step);
        leaf.relative = device + "/" + model + "/" + id + "/" + step;
        leaf.time = time;
        leaf.device = device;
        leaf.model_name = model;
        leaf.model_id = id;
        leaf.step = step;
        leaves_of(leaves, model).push_back(std::move(leaf));
      }
    }
  }
  return leaves;
}

struct GraphEntry {
  std::string name;
  std::string rule_file;
};

// A .json of the rule directory: its graph names, or why it cannot be used.
struct RuleFile {
  std::string path;
  std::vector<std::string> graphs;
  std::string problem;
};

// Every .json of rule_dir in file order, and every graph name in file then graph order; a name
// seen again points to the later file but keeps its place (msaccucmp's dict). Unreadable JSONs
// are warnings.
std::vector<GraphEntry> read_graph_names(const std::string& rule_dir, std::vector<RuleFile>& files,
                                         std::vector<std::string>& warnings) {
  std::vector<GraphEntry> graphs;
  for (const TreeEntry& e : list_tree_level(rule_dir)) {
    if (!ends_with(e.name, ".json")) continue;
    RuleFile& file = files.emplace_back();
    file.path = child_path(rule_dir, e.name);
    const std::string& path = file.path;
    try {
      if (e.kind != EntryKind::kFile) throw format_error(path, "not a file");
      file.graphs = graph_names_in_json(path);
    } catch (const Error& error) {
      warnings.push_back(std::string(error.what()) + "; skipped");
      file.problem = std::string(error.what()).substr(path.size() + 2);
      continue;
    }
    for (const std::string& name : file.graphs) {
      auto seen = std::find_if(graphs.begin(), graphs.end(),
                               [&](const GraphEntry& g) { return g.name == name; });
      if (seen == graphs.end()) {
        graphs.push_back(GraphEntry{name, path});
      } else if (seen->rule_file != path) {
        warnings.push_back(path + ": graph " + name + " is also in " + seen->rule_file +
                           "; this file is used (as msaccucmp does)");
        seen->rule_file = path;
      }
    }
  }
  return graphs;
}

// Why a readable rule file's graphs pair with no leaf.
std::string unused_reason(const RuleFile& file, const std::vector<GraphEntry>& graphs,
                          const std::string& time_dir) {
  if (file.graphs.empty()) return "it holds no graph";
  std::string reason;
  for (const std::string& name : file.graphs) {
    const auto g = std::find_if(graphs.begin(), graphs.end(),
                                [&](const GraphEntry& e) { return e.name == name; });
    std::string why;
    if (g != graphs.end() && g->rule_file != file.path) {
      why = "graph " + name + " is taken from " + g->rule_file;
    } else if (graph_id_of(name).empty()) {
      why = "graph " + name + " names no model_name directory of " + time_dir +
            " and has no graph id to match one by";
    } else {
      why = "graph " + name + " names no model_name directory of " + time_dir +
            " and no directory has its graph id " + graph_id_of(name);
    }
    reason += (reason.empty() ? "" : "; ") + why;
  }
  return reason;
}

std::string joined_paths(const std::vector<TreeLeaf>& leaves) {
  std::string text;
  for (const TreeLeaf& l : leaves) text += (text.empty() ? "" : ",") + l.path;
  return text;
}

}  // namespace

std::vector<std::string> graph_names_in_json(const std::string& path) {
  simdjson::dom::parser parser;
  simdjson::padded_string text;
  simdjson::dom::element root;
  simdjson::dom::array list;
  if (simdjson::padded_string::load(path).get(text) != simdjson::SUCCESS) {
    throw format_error(path, "cannot be read");
  }
  if (parser.parse(text).get(root) != simdjson::SUCCESS) throw format_error(path, "not valid JSON");
  if (root["graph"].get(list) != simdjson::SUCCESS) {
    throw format_error(path, "no \"graph\" array (not an offline-model JSON)");
  }
  std::vector<std::string> names;
  for (simdjson::dom::element graph : list) {
    std::string_view name;
    if (graph["name"].get(name) != simdjson::SUCCESS) {
      throw format_error(path, "a graph without a string \"name\"");
    }
    names.emplace_back(name);
  }
  return names;
}

std::string graph_id_of(const std::string& name) {
  const std::vector<std::string> runs = digit_runs(name);
  return runs.size() == 2 ? runs[1] : std::string();
}

std::string batch_result_stem(const TreeLeaf& leaf) {
  return leaf.device + "_" + leaf.model_name + "_" + leaf.step;
}

BatchPlan plan_batch_mode(const std::string& time_dir, const std::string& rule_dir) {
  BatchPlan plan;
  plan.time_dir = real_path(time_dir);
  const std::string last = plan.time_dir.substr(plan.time_dir.rfind('/') + 1);
  if (!all_digits(last)) {
    throw Error(ExitCode::kInput, msg::batch_path_not_timestamp(plan.time_dir));
  }
  const std::string rules = real_path(rule_dir);
  std::vector<RuleFile> files;
  const std::vector<GraphEntry> graphs = read_graph_names(rules, files, plan.warnings);
  if (graphs.empty()) throw Error(ExitCode::kInput, msg::batch_no_rule_json(rules));
  const LeavesByModel leaves = walk_time_dir(plan.time_dir, plan.warnings);
  if (leaves.empty()) throw Error(ExitCode::kInput, msg::batch_path_format(plan.time_dir));

  // rule file -> (graph, leaves), in first-match order; a later match of the same file replaces
  // the earlier one, as in msaccucmp (docs/batch-mode.md §2.4).
  std::vector<std::pair<std::string, std::pair<std::string, std::vector<TreeLeaf>>>> pairing;
  auto pair_with = [&](const GraphEntry& g, const std::vector<TreeLeaf>& list) {
    auto it = std::find_if(pairing.begin(), pairing.end(),
                           [&](const auto& p) { return p.first == g.rule_file; });
    if (it == pairing.end()) {
      pairing.push_back({g.rule_file, {g.name, list}});
      return;
    }
    const std::string dropped = joined_paths(it->second.second);
    if (it->second.first == g.name) {
      plan.warnings.push_back("graph " + g.name + ": the leaves " + dropped +
                              " are not compared: a later directory matched its graph id too, "
                              "and batch mode keeps the last match (as msaccucmp; compare "
                              "--tree compares every leaf)");
    } else {
      plan.warnings.push_back(g.rule_file + ": graph " + g.name + " replaces graph " +
                              it->second.first + ", whose leaves " + dropped +
                              " are not compared (batch mode compares one matched graph per "
                              "rule file, as msaccucmp; compare --tree compares every graph)");
    }
    it->second = {g.name, list};
  };
  for (const GraphEntry& g : graphs) {
    const auto exact = std::find_if(leaves.begin(), leaves.end(),
                                    [&g](const auto& entry) { return entry.first == g.name; });
    if (exact != leaves.end()) {
      pair_with(g, exact->second);
      continue;
    }
    const std::string id = graph_id_of(g.name);
    if (id.empty()) continue;  // msaccucmp aborts the run here; nothing can match it
    for (const auto& [model, list] : leaves) {
      if (graph_id_of(model) != id) continue;
      plan.warnings.push_back(msg::batch_time_stamps_differ(g.name, joined_paths(list)));
      pair_with(g, list);
    }
  }
  if (pairing.empty()) throw Error(ExitCode::kInput, msg::batch_no_graph_match(plan.time_dir));
  // msaccucmp aborts the batch on a graph it cannot match; here the other graphs are compared and
  // each rule file left out is named.
  for (const RuleFile& file : files) {
    const bool used = std::any_of(pairing.begin(), pairing.end(),
                                  [&](const auto& p) { return p.first == file.path; });
    if (used) continue;
    std::string graphs_text;
    for (const std::string& name : file.graphs) {
      graphs_text += (graphs_text.empty() ? "" : ",") + name;
    }
    UnusedRule& unused = plan.unused_rules.emplace_back();
    unused.rule_file = file.path;
    unused.graphs = graphs_text;
    unused.reason =
        file.problem.empty() ? unused_reason(file, graphs, plan.time_dir) : file.problem;
    if (file.problem.empty()) {
      plan.warnings.push_back(file.path + ": not used: " + unused.reason);
    }
  }
  for (const auto& [rule_file, matched] : pairing) {
    for (const TreeLeaf& leaf : matched.second) {
      plan.leaves.push_back(BatchLeaf{leaf, rule_file, matched.first});
    }
  }
  return plan;
}

}  // namespace dumpcmp
