// acl.json dump configuration rules (docs/formats.md §7), one document per rule, and the
// starter files of `config new`.
#include <gtest/gtest.h>

#include <string>

#include "config/acl_json.hpp"

namespace dumpcmp {
namespace {

ConfigCheck check(const std::string& dump_body) {
  return check_acl_json("{\"dump\": {" + dump_body + "}}", /*check_paths=*/false);
}

// The check finds exactly one problem, at `path`, whose rule mentions `words`.
void expect_problem(const std::string& dump_body, const std::string& path,
                    const std::string& words) {
  const ConfigCheck c = check(dump_body);
  ASSERT_EQ(c.problems.size(), 1u) << dump_body;
  EXPECT_EQ(c.problems[0].path, path) << dump_body;
  EXPECT_NE(c.problems[0].rule.find(words), std::string::npos) << c.problems[0].rule;
}

const std::string kPath = "\"dump_path\": \"/tmp\", ";
const std::string kModel = "\"dump_list\": [{\"model_name\": \"resnet\"}]";

TEST(AclJson, ValidModelDump) {
  const ConfigCheck c = check(kPath + "\"dump_mode\": \"all\", \"dump_step\": \"0|3-5|10\", " +
                              "\"dump_list\": [{\"model_name\": \"a\", \"layer\": [\"conv1\"]}, "
                              "{\"model_name\": \"b\"}]");
  EXPECT_TRUE(c.ok()) << c.problems[0].path << " " << c.problems[0].rule;
}

TEST(AclJson, ValuesOutsideTheirSets) {
  expect_problem(kPath + "\"dump_mode\": \"everything\", " + kModel, "dump.dump_mode",
                 "input, output, all");
  expect_problem(kPath + "\"dump_level\": 3, " + kModel, "dump.dump_level", "must be a string");
  expect_problem(kPath + "\"dump_data\": \"numbers\", " + kModel, "dump.dump_data",
                 "tensor, stats");
  expect_problem(kPath + "\"dump_kernel_data\": \"all,noise\", " + kModel, "dump.dump_kernel_data",
                 "noise");
  expect_problem(kPath + "\"dump_scene\": \"panic\"", "dump.dump_scene", "lite_exception");
}

TEST(AclJson, StepSyntax) {
  expect_problem(kPath + "\"dump_step\": \"5-3\", " + kModel, "dump.dump_step", "N <= M");
  expect_problem(kPath + "\"dump_step\": \"1-2-3\", " + kModel, "dump.dump_step", "range N-M");
  expect_problem(kPath + "\"dump_step\": \"a\", " + kModel, "dump.dump_step", "digits");
  std::string many = "0";
  for (int i = 1; i <= 100; ++i) many += "|" + std::to_string(i);
  expect_problem(kPath + "\"dump_step\": \"" + many + "\", " + kModel, "dump.dump_step",
                 "at most 100");
}

TEST(AclJson, Conflicts) {
  expect_problem(kPath + "\"dump_op_switch\": \"on\", \"dump_debug\": \"on\"",
                 "dump.dump_op_switch", "dump_debug");
  expect_problem(kPath + "\"dump_debug\": \"on\", " + kModel, "dump.dump_list", "must be empty");
  expect_problem("\"dump_scene\": \"lite_exception\", " + kModel, "dump.dump_scene", "alone");
  expect_problem(kPath + "\"dump_stats\": [\"Max\"], " + kModel, "dump.dump_stats",
                 "dump_data \"stats\"");
  expect_problem(kPath + "\"dump_data\": \"stats\", \"dump_stats\": [\"Median\"], " + kModel,
                 "dump.dump_stats[0]", "Max, Min");
}

TEST(AclJson, DumpList) {
  expect_problem(kPath + "\"dump_list\": [{\"model_name\": \"a\"}, {\"model_name\": \"a\"}]",
                 "dump.dump_list[1].model_name", "twice");
  expect_problem(kPath + "\"dump_list\": [{\"model_name\": \"a\", \"layer\": []}]",
                 "dump.dump_list[0].layer", "non-empty");
  // A string where the list belongs (found by fuzz_acl_json: iterating it crashed).
  expect_problem(kPath + "\"dump_list\": [{\"model_name\": \"a\", \"layer\": \"conv1\"}]",
                 "dump.dump_list[0].layer", "non-empty list");
  expect_problem(kPath + "\"dump_list\": [{\"model_name\": \"\"}]", "dump.dump_list[0].model_name",
                 "non-empty");
  expect_problem(kPath +
                     "\"dump_list\": [{\"opname_range\": [{\"begin\": \"a\", \"end\": \"b\"}]}], "
                     "\"dump_level\": \"op\"",
                 "dump.dump_list[0].opname_range", "needs model_name");
  expect_problem(kPath +
                     "\"dump_list\": [{\"model_name\": \"m\", \"opname_blacklist\": [{\"name\": "
                     "\"x\", \"pos\": [0]}]}]",
                 "dump.dump_list[0].opname_blacklist", "dump_level \"op\"");
  expect_problem(kPath + "\"dump_list\": [{\"model_name\": \"m\", \"watcher_nodes\": [\"x\"]}]",
                 "dump.dump_list[0].watcher_nodes", "only allowed in the watcher");
}

TEST(AclJson, Watcher) {
  const std::string scene = kPath + "\"dump_scene\": \"watcher\", ";
  EXPECT_TRUE(
      check(scene + "\"dump_list\": [{\"layer\": [\"a\"], \"watcher_nodes\": [\"b\"]}]").ok());
  expect_problem(scene + "\"dump_list\": [{\"layer\": [\"a\"]}]", "dump.dump_list[0].watcher_nodes",
                 "required");
  expect_problem(scene + "\"dump_list\": [{\"model_name\": \"m\", \"watcher_nodes\": [\"b\"]}]",
                 "dump.dump_list[0].model_name", "not allowed in the watcher");
  expect_problem(scene + "\"dump_mode\": \"all\", \"dump_list\": [{\"watcher_nodes\": [\"b\"]}]",
                 "dump.dump_mode", "watcher");
}

TEST(AclJson, DumpPath) {
  expect_problem(kModel, "dump.dump_path", "required");
  expect_problem("\"dump_path\": \"300.1.1.1:/x\", " + kModel, "dump.dump_path", "IPv4");
  EXPECT_TRUE(check("\"dump_path\": \"10.0.0.7:/data/dump\", " + kModel).ok());
  expect_problem("\"dump_path\": \"" + std::string(513, 'a') + "\", " + kModel, "dump.dump_path",
                 "at most 512");
  const ConfigCheck missing =
      check_acl_json("{\"dump\": {\"dump_path\": \"/no/such/dir/at/all\", " + kModel + "}}", true);
  ASSERT_EQ(missing.problems.size(), 1u);
  EXPECT_NE(missing.problems[0].rule.find("not an existing directory"), std::string::npos);
}

TEST(AclJson, NothingToDumpAndMalformed) {
  EXPECT_TRUE(check_acl_json("{}", false).ok());
  EXPECT_FALSE(check_acl_json("{}", false).notes.empty());
  const ConfigCheck bad = check_acl_json("{\"dump\": {\"dump_path\": ", false);
  ASSERT_EQ(bad.problems.size(), 1u);
  EXPECT_EQ(bad.problems[0].path, "$");
  EXPECT_NE(bad.problems[0].rule.find("not valid JSON"), std::string::npos);
}

TEST(AclJson, EveryStarterPassesTheCheck) {
  for (const char* name : {"model", "single-op", "overflow", "exception", "watcher"}) {
    ConfigKind kind;
    ASSERT_TRUE(parse_config_kind(name, kind));
    const ConfigCheck c = check_acl_json(starter_acl_json(kind, "/tmp", "resnet50"), true);
    EXPECT_TRUE(c.ok()) << name << ": "
                        << (c.ok() ? "" : c.problems[0].path + " " + c.problems[0].rule);
  }
  ConfigKind kind;
  EXPECT_FALSE(parse_config_kind("everything", kind));
}

}  // namespace
}  // namespace dumpcmp
