#include "stats/stats_tree.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/error.hpp"
#include "core/text.hpp"

namespace dumpcmp {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxDepth = 400;

// Python's int() on a path component, or -1 (msprobe's convert_to_int).
int64_t to_int(const std::string& text) { return parse_integer(text).value_or(-1); }

std::vector<std::string> split_slash(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = path.find('/', start);
    parts.push_back(path.substr(start, slash - start));
    if (slash == std::string::npos) return parts;
    start = slash + 1;
  }
}

bool has_subdirectory(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec)) return true;
  }
  return false;
}

void collect_lowest(const fs::path& dir, int depth, const std::string& root,
                    std::vector<std::string>& out) {
  if (depth > kMaxDepth) {
    throw format_error(
        root, "the directory tree is more than " + std::to_string(kMaxDepth) + " levels deep");
  }
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_directory(type_ec)) continue;
    if (has_subdirectory(it->path())) {
      collect_lowest(it->path(), depth + 1, root, out);
    } else {
      out.push_back(it->path().string());
    }
  }
  if (ec) throw format_error(dir.string(), "cannot list the directory: " + ec.message());
}

}  // namespace

RankStep rank_step_of(const std::string& absolute_dir) {
  const std::vector<std::string> parts = split_slash(absolute_dir);
  const std::size_t n = parts.size();
  RankStep id;
  if (absolute_dir.find("rank_") != std::string::npos) {
    if (n > 4) {
      const std::string& c = parts[n - 4];
      const std::size_t underscore = c.rfind('_');
      id.rank = to_int(underscore == std::string::npos ? c : c.substr(underscore + 1));
    }
  } else {
    if (n > 4) id.rank = to_int(parts[n - 4]);
    if (id.rank == -1 && n > 3) id.rank = to_int(parts[n - 3]);
  }
  id.step = to_int(parts[n - 1]);
  return id;
}

std::vector<RankStepDirs> find_rank_step_dirs(const std::string& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) throw format_error(root, "not a directory");
  const std::string base = fs::absolute(root).lexically_normal().string();
  std::string trimmed = base;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  std::vector<std::string> lowest;
  collect_lowest(trimmed, 0, root, lowest);
  std::map<RankStep, std::vector<std::string>> groups;
  for (const std::string& dir : lowest) {
    const RankStep id = rank_step_of(dir);
    if (id.rank == -1 || id.step == -1) continue;
    groups[id].push_back(dir);
  }
  std::vector<RankStepDirs> out;
  for (auto& [id, dirs] : groups) {
    std::sort(dirs.begin(), dirs.end());
    out.push_back(RankStepDirs{id, std::move(dirs)});
  }
  return out;
}

std::vector<RankStepPair> pair_rank_steps(const std::vector<RankStepDirs>& npu,
                                          const std::vector<RankStepDirs>& bench) {
  std::vector<RankStepPair> pairs;
  for (const RankStepDirs& n : npu) {
    const auto b = std::find_if(bench.begin(), bench.end(),
                                [&](const RankStepDirs& x) { return x.id == n.id; });
    if (b != bench.end()) pairs.push_back(RankStepPair{n.id, n.dirs, b->dirs});
  }
  std::sort(pairs.begin(), pairs.end(),
            [](const RankStepPair& a, const RankStepPair& b) { return a.id < b.id; });
  return pairs;
}

}  // namespace dumpcmp
