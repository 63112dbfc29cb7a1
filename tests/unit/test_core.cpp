// The one-of-each helpers in core/: comma lists, natural numbers, real paths, atomic files, and a
// mapped file that shrinks while it is read.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/json_text.hpp"
#include "core/mapped_file.hpp"
#include "core/paths.hpp"
#include "core/scratch_buffer.hpp"
#include "core/text.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

TEST(Text, SplitCommasKeepsPiecesAsWritten) {
  EXPECT_EQ(split_commas("a, b,,c"), (std::vector<std::string>{"a", " b", "", "c"}));
  EXPECT_EQ(split_commas(""), (std::vector<std::string>{""}));
  EXPECT_EQ(trim(" \t x y \r\n"), "x y");
  EXPECT_EQ(trim("  "), "");
}

TEST(Text, NaturalNumbersOnly) {
  EXPECT_EQ(parse_natural("0"), 0);
  EXPECT_EQ(parse_natural("007"), 7);
  EXPECT_EQ(parse_natural("123456789", 9), 123456789);
  EXPECT_FALSE(parse_natural("1234567890", 9));
  EXPECT_FALSE(parse_natural(""));
  EXPECT_FALSE(parse_natural("-1"));
  EXPECT_FALSE(parse_natural("1.0"));
  EXPECT_FALSE(parse_natural(" 1"));
  EXPECT_EQ(parse_natural("999999999999999999"), 999999999999999999);
}

TEST(Json, StringsAreEscapedAndAlwaysValid) {
  EXPECT_EQ(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
  EXPECT_EQ(json_string("\x01"), "\"\\u0001\"");
  EXPECT_EQ(json_string("\xff"), "\"\\u00ff\"");  // not UTF-8: escaped, never copied
  EXPECT_EQ(json_string("\xc3\xa9"), "\"\xc3\xa9\"");
}

TEST(Paths, RealPathsResolveLinksAndDots) {
  testing::ScratchDir dir;
  std::filesystem::create_directories(dir.file("real"));
  std::filesystem::create_directory_symlink(dir.file("real"), dir.file("link"));
  const std::string expected = real_path(dir.file("real")) + "/f";
  EXPECT_EQ(real_path(dir.file("link/../real/f")), expected);
  RealPaths paths;
  EXPECT_EQ(paths(dir.file("link/f")), expected);
  EXPECT_EQ(paths(dir.file("link/f")), expected);
}

TEST(AtomicFile, AppearsOnlyWhenCommitted) {
  testing::ScratchDir dir;
  const std::string path = dir.file("out.txt");
  {
    AtomicFile f(path);
    f.write("abc");
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_TRUE(std::filesystem::exists(path + ".partial"));
    f.commit();
  }
  EXPECT_EQ(testing::read_text(path), "abc");
  {
    AtomicFile abandoned(dir.file("gone.txt"));
    abandoned.write("x");
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("gone.txt")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("gone.txt.partial")));
  EXPECT_THROW(write_file_atomically(dir.file("no/such/dir/f"), "x"), Error);
}

// Truncating a mapped file used to kill the process with SIGBUS on the next read past the new
// end; now the lost bytes read as zeros and the mapping says it is damaged.
TEST(MappedFile, ShrinkingUnderTheMappingReadsZerosAndIsReported) {
  testing::ScratchDir dir;
  const std::string path = dir.file("big"), other_path = dir.file("other");
  const std::size_t size = 4 * MappedFile::kReadThreshold;
  testing::write_bytes(path, std::vector<uint8_t>(size, 7));
  testing::write_bytes(other_path, std::vector<uint8_t>(size, 9));
  const MappedFile file = MappedFile::open(path);
  const MappedFile other = MappedFile::open(other_path);
  ASSERT_EQ(file.size(), size);
  EXPECT_FALSE(file.damaged());
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(size / 4)), 0);
  uint64_t sum = 0;
  for (std::size_t i = 0; i < size; i += 4096) sum += file.data()[i];
  EXPECT_EQ(sum, 7u * (size / 4 / 4096));  // the kept quarter, then zeros
  EXPECT_TRUE(file.damaged());
  EXPECT_EQ(other.data()[size - 1], 9);
  EXPECT_FALSE(other.damaged());
}

// Reused while big enough (its contents are the caller's to keep or overwrite), replaced when not,
// aligned to 2 MiB, moved without a copy.
TEST(ScratchBuffer, ReusedUntilTooSmall) {
  ScratchBuffer buffer;
  auto* first = static_cast<uint8_t*>(buffer.reserve(3 << 20));
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % (2u << 20), 0u);
  first[(3 << 20) - 1] = 7;  // the whole request is usable
  EXPECT_EQ(buffer.reserve(1000), first);
  EXPECT_EQ(buffer.reserve(4 << 20), first);  // rounded up to whole 2 MiB pages
  auto* bigger = static_cast<uint8_t*>(buffer.reserve(5 << 20));
  ASSERT_NE(bigger, nullptr);
  bigger[(5 << 20) - 1] = 1;
  ScratchBuffer moved(std::move(buffer));
  EXPECT_EQ(moved.reserve(1), bigger);
  EXPECT_NE(buffer.reserve(1), bigger);  // NOLINT(bugprone-use-after-move): a fresh buffer
}

}  // namespace
}  // namespace dumpcmp
