#pragma once
// msaccucmp's batch mode, `compare -m {dump_path}/{time} -f JSON_DIR` (docs/batch-mode.md): the
// graphs of a folder of offline-model JSONs matched to the model_name directories of one time
// directory, one leaf (the string-largest step) per model_id. Where msaccucmp aborts on a stray
// entry or an unreadable JSON, this skips it with a warning (docs/compatibility.md).
#include <string>
#include <vector>

#include "tree/dump_tree.hpp"

namespace dumpcmp {

struct BatchLeaf {
  TreeLeaf leaf;
  std::string rule_file;  // the whole JSON file of the matched graph
  std::string graph;      // the graph name that matched
};

// A .json of the rule directory that no leaf is compared with, and why.
struct UnusedRule {
  std::string rule_file;
  std::string graphs;  // its graph names, comma-separated ("" when it could not be read)
  std::string reason;
};

struct BatchPlan {
  std::string time_dir;           // real path of -m
  std::vector<BatchLeaf> leaves;  // in msaccucmp's order: by rule file, then model_name's leaves
  std::vector<UnusedRule> unused_rules;  // in file order
  std::vector<std::string> warnings;     // the unused rules' included ("RULE_FILE: not used: why")
};

// Walks time_dir and reads every .json of rule_dir. Throws Error with msaccucmp's message when
// time_dir does not end in digits, rule_dir names no graph, no leaf is found or no graph matches.
BatchPlan plan_batch_mode(const std::string& time_dir, const std::string& rule_dir);

// "{device}_{model_name}_{step}": msaccucmp's result name without "_result_{ts}.csv".
std::string batch_result_stem(const TreeLeaf& leaf);

// The graph names of an offline-model JSON, in file order. Throws Error(kInput) naming the file
// when it is not one.
std::vector<std::string> graph_names_in_json(const std::string& path);

// The graph id of a GE graph name: the second of exactly two digit runs
// ("ge_default_20240101115959_1" -> "1"); "" otherwise.
std::string graph_id_of(const std::string& name);

}  // namespace dumpcmp
