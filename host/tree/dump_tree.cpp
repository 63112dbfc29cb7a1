#include "tree/dump_tree.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "core/text.hpp"
#include "io/dump_file_name.hpp"
#include "tree/tree_listing.hpp"

namespace dumpcmp {
namespace {

// Deep enough for {time}/{device}/{model_name}/{model_id}/{step} plus a stray level.
constexpr int kMaxDepth = 7;

// A time directory of GE: YYYYmmddHHMMSS.
bool is_time_name(const std::string& name) { return name.size() == 14 && all_digits(name); }

std::vector<std::string> split_path(const std::string& relative) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start < relative.size()) {
    const size_t slash = relative.find('/', start);
    const size_t end = slash == std::string::npos ? relative.size() : slash;
    parts.push_back(relative.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

std::string base_name(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

class Walker {
 public:
  Walker(const std::string& root, DumpTree& tree) : root_(root), tree_(tree) {}

  void walk(const std::string& dir, const std::string& relative, int depth) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0 && !visited_.insert({st.st_dev, st.st_ino}).second) {
      tree_.warnings.push_back(dir + ": a directory seen before (a symbolic link loop?); skipped");
      return;
    }
    std::vector<TreeEntry> entries;
    try {
      entries = list_tree_level(dir);
    } catch (const std::exception& e) {
      if (depth == 0) throw;
      tree_.warnings.push_back(std::string(e.what()) + "; skipped");
      return;
    }
    const bool leaf = std::any_of(entries.begin(), entries.end(), [](const TreeEntry& e) {
      return e.kind == EntryKind::kFile && is_dump_or_stats_file(e.name);
    });
    const bool has_subdirectories =
        std::any_of(entries.begin(), entries.end(),
                    [](const TreeEntry& e) { return e.kind == EntryKind::kDirectory; });
    if (!leaf && !has_subdirectories && depth > 0) {
      // A step directory without dumps (a lost step) is a leaf that fails in the summary; any
      // other empty end of the tree is a warning.
      const std::optional<TreeLeaf> position = leaf_at(dir, relative);
      if (position && !position->model_name.empty()) {
        tree_.leaves.push_back(*position);
        return;
      }
      if (entries.empty()) {
        tree_.warnings.push_back(dir + ": an empty directory; skipped");
        return;
      }
    }
    if (leaf) {
      add_leaf(dir, relative);
      for (const TreeEntry& e : entries) {
        if (e.kind == EntryKind::kDirectory) {
          tree_.warnings.push_back(child_path(dir, e.name) +
                                   ": a directory inside a dump directory; skipped");
        }
      }
      return;
    }
    for (const TreeEntry& e : entries) {
      const std::string path = child_path(dir, e.name);
      switch (e.kind) {
        case EntryKind::kDirectory:
          if (depth + 1 > kMaxDepth) {
            tree_.warnings.push_back(path + ": deeper than a dump tree goes; skipped");
          } else {
            walk(path, relative.empty() ? e.name : relative + "/" + e.name, depth + 1);
          }
          break;
        case EntryKind::kFile:
          tree_.warnings.push_back(path + ": a file outside any dump directory; skipped");
          break;
        case EntryKind::kDangling:
          tree_.warnings.push_back(path + ": a symbolic link to nothing; skipped");
          break;
        case EntryKind::kOther:
          tree_.warnings.push_back(path + ": not a file or directory; skipped");
          break;
      }
    }
  }

 private:
  // The leaf a directory at this position is, or nullopt when the position names no leaf.
  std::optional<TreeLeaf> leaf_at(const std::string& dir, const std::string& relative) const {
    TreeLeaf leaf;
    leaf.path = dir;
    leaf.relative = relative;
    std::vector<std::string> parts = split_path(relative);
    const std::string root_name = base_name(root_);
    if (!parts.empty() && is_time_name(parts.front())) {
      leaf.time = parts.front();
      parts.erase(parts.begin());
    } else if (all_digits(root_name) && !parts.empty()) {
      leaf.time = root_name;  // the root is a {time} directory
    }
    if (parts.size() == 4) {
      leaf.device = parts[0];
      leaf.model_name = parts[1];
      leaf.model_id = parts[2];
      leaf.step = parts[3];
    } else if (parts.size() == 2) {
      leaf.device = parts[0];
      leaf.op_name = parts[1];
    } else if (parts.size() == 1) {
      leaf.device = parts[0];
    } else if (!parts.empty()) {
      return std::nullopt;
    }
    return leaf;
  }

  void add_leaf(const std::string& dir, const std::string& relative) {
    if (std::optional<TreeLeaf> leaf = leaf_at(dir, relative)) {
      tree_.leaves.push_back(std::move(*leaf));
      return;
    }
    tree_.warnings.push_back(dir +
                             ": dump files where the tree has no leaf (expected "
                             "{time}/{device}/{model_name}/{model_id}/{step} or "
                             "{device}/{op_name}); skipped");
  }

  const std::string& root_;
  DumpTree& tree_;
  std::set<std::pair<dev_t, ino_t>> visited_;
};

// By device, model_name, model_id, step, op, time: each in natural order.
bool leaf_less(const TreeLeaf& a, const TreeLeaf& b) {
  for (const std::string TreeLeaf::*field :
       {&TreeLeaf::device, &TreeLeaf::model_name, &TreeLeaf::model_id, &TreeLeaf::step,
        &TreeLeaf::op_name, &TreeLeaf::time}) {
    if (a.*field != b.*field) return natural_less(a.*field, b.*field);
  }
  return false;
}

}  // namespace

std::string TreeLeaf::label() const {
  std::string text = "device " + (device.empty() ? std::string("-") : device);
  if (!model_name.empty()) {
    text += ", " + model_name + " (model " + model_id + "), step " + step;
  } else if (!op_name.empty()) {
    text += ", op " + op_name;
  }
  return text;
}

bool is_dump_or_stats_file(const std::string& name) {
  if (name == "statistic.csv") return true;
  if (ends_with(name, ".csv")) {
    return parse_dump_file_name(name.substr(0, name.size() - 4)).has_value();
  }
  return parse_dump_file_name(name).has_value();
}

DumpTree discover_dump_tree(const std::string& root) {
  DumpTree tree;
  tree.root = root;
  Walker(root, tree).walk(root, "", 0);
  std::stable_sort(tree.leaves.begin(), tree.leaves.end(), leaf_less);
  return tree;
}

}  // namespace dumpcmp
