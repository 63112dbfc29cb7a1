#include "tree/tree_listing.hpp"

#include <algorithm>
#include <filesystem>

#include "core/error.hpp"

namespace fs = std::filesystem;

namespace dumpcmp {

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool natural_less(std::string_view a, std::string_view b) {
  const bool da = all_digits(a), db = all_digits(b);
  if (da != db) return da;
  if (da) {
    // Compare by value without overflow: strip leading zeros, then the longer is larger.
    const std::string_view ta = a.substr(std::min(a.find_first_not_of('0'), a.size()));
    const std::string_view tb = b.substr(std::min(b.find_first_not_of('0'), b.size()));
    if (ta.size() != tb.size()) return ta.size() < tb.size();
    if (ta != tb) return ta < tb;
  }
  return a < b;
}

std::string child_path(const std::string& dir, const std::string& name) {
  return (fs::path(dir) / name).string();
}

std::vector<TreeEntry> list_tree_level(const std::string& dir) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) throw format_error(dir, "cannot list the directory (" + ec.message() + ")");
  std::vector<TreeEntry> entries;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    TreeEntry entry{it->path().filename().string(), EntryKind::kOther};
    std::error_code type_ec;
    const fs::file_status status = it->status(type_ec);
    if (type_ec || !fs::exists(status)) {
      std::error_code link_ec;
      if (it->is_symlink(link_ec)) entry.kind = EntryKind::kDangling;
    } else if (fs::is_directory(status)) {
      entry.kind = EntryKind::kDirectory;
    } else if (fs::is_regular_file(status)) {
      entry.kind = EntryKind::kFile;
    }
    entries.push_back(std::move(entry));
  }
  if (ec) throw format_error(dir, "cannot list the directory (" + ec.message() + ")");
  std::sort(entries.begin(), entries.end(),
            [](const TreeEntry& a, const TreeEntry& b) { return natural_less(a.name, b.name); });
  return entries;
}

}  // namespace dumpcmp
