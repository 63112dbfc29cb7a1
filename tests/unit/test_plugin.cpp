// Custom plug-ins (-c): which files are algorithms, and -a's parameters, as msaccucmp takes them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "plugin/custom_algorithms.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

TEST(CustomAlgorithms, FilesNamedAlgNameAreFoundOthersWarned) {
  const testing::ScratchDir dir;
  std::filesystem::create_directories(dir.file("algorithm/__pycache__"));
  for (const char* name : {"alg_B.py", "alg_A_1.py", "alg_C.pyc", "alg-D.py", "notes.txt"}) {
    std::ofstream(dir.file(std::string("algorithm/") + name)) << "\n";
  }
  std::vector<std::string> warnings;
  EXPECT_EQ(find_custom_algorithms(dir.path(), warnings),
            (std::vector<std::string>{"A_1", "B", "C"}));
  ASSERT_EQ(warnings.size(), 2u);  // the folder is skipped silently, as msaccucmp does
  EXPECT_EQ(warnings[0], "The file ''alg-D.py'' does not match 'alg_{algorithm_name}.py' in '" +
                             std::string("'") + dir.file("algorithm") +
                             "'', please check the file.");

  const testing::ScratchDir empty;
  warnings.clear();
  EXPECT_TRUE(find_custom_algorithms(empty.path(), warnings).empty());
  EXPECT_EQ(warnings, (std::vector<std::string>{"There is no 'algorithm' in ''" + empty.path() +
                                                "'', please check the custom path."}));
  EXPECT_THROW(find_custom_algorithms(empty.file("missing"), warnings), Error);
}

TEST(CustomAlgorithms, ParametersParsedAsMsaccucmpParsesThem) {
  const AlgorithmParams p =
      parse_algorithm_params(" Mine : scale = 2 , tag=x;;0:max=1;Mine:scale=3;Other:");
  EXPECT_EQ(p.at("Mine"), (std::map<std::string, std::string>{{"scale", "3"}, {"tag", "x"}}));
  EXPECT_EQ(p.at("CosineSimilarity"), (std::map<std::string, std::string>{{"max", "1"}}));
  EXPECT_TRUE(p.at("Other").empty());
  EXPECT_TRUE(parse_algorithm_params("").empty());
  for (const std::string bad :
       {"Mine", "Mine:a", "Mine:a=", "Mine:=1", ":a=1", "A:b:c=1", "Mine:a=1=2"}) {
    try {
      parse_algorithm_params(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::kUsage);
      EXPECT_NE(std::string(e.what()).find(") is invalid, just supports "
                                           "\"algorithm_name:name1=value1,name2=value2;\"."),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace dumpcmp
