#pragma once
// One directory level of a dump tree: its entries in a stable order, each with its kind. Trees are
// walked level by level with this, so a stray or broken entry becomes a warning, never a failure.
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp {

enum class EntryKind { kDirectory, kFile, kDangling /* a symbolic link to nothing */, kOther };

struct TreeEntry {
  std::string name;
  EntryKind kind = EntryKind::kOther;
};

// The entries of dir, names in natural order (all-digit names by value, before other names; the
// rest by code point), symbolic links followed. Throws Error(kInput) naming dir when it cannot be
// listed.
std::vector<TreeEntry> list_tree_level(const std::string& dir);

// Natural order of two directory names: "2" < "10" < "a".
bool natural_less(std::string_view a, std::string_view b);

bool all_digits(std::string_view text);

// The path of an entry of dir: dir/name, without a doubled '/'.
std::string child_path(const std::string& dir, const std::string& name);

}  // namespace dumpcmp
