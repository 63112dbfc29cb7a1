// torch.save's files read without torch (docs/formats.md §11): what convert writes reads back,
// hand-made archives (ZIP64 fields, a strided view, an UntypedStorage with its dtype) read as torch
// would, and each kind of damage is refused naming the file. Files torch itself wrote are read by
// tests/cli/test_probe_compare.sh and fuzz/torch_pt's seeds.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "convert/torch_file.hpp"
#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "io/torch_pt.hpp"
#include "support.hpp"

namespace dumpcmp {
namespace {

using testing::ScratchDir;

void put(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>(v >> (8 * i) & 0xFF);
}

struct Entry {
  std::string name, data;
  uint16_t method = 0;
};

// A zip archive as torch.save lays it out; with zip64, every size and offset in the central
// directory is saturated and given in a ZIP64 extra field, and the end record points to a ZIP64
// one.
std::string zip(const std::vector<Entry>& entries, bool zip64) {
  std::string out, directory;
  for (const Entry& e : entries) {
    const uint64_t offset = out.size();
    put(out, 0x04034b50, 4);
    put(out, 20, 2), put(out, 0, 2), put(out, e.method, 2), put(out, 0, 4), put(out, 0, 4);
    put(out, e.data.size(), 4), put(out, e.data.size(), 4);
    put(out, e.name.size(), 2), put(out, 0, 2);
    out += e.name + e.data;
    const uint32_t saturated = 0xFFFFFFFF;
    put(directory, 0x02014b50, 4);
    put(directory, 45, 2), put(directory, 45, 2), put(directory, 0, 2), put(directory, e.method, 2);
    put(directory, 0, 4), put(directory, 0, 4);
    put(directory, zip64 ? saturated : e.data.size(), 4);
    put(directory, zip64 ? saturated : e.data.size(), 4);
    put(directory, e.name.size(), 2), put(directory, zip64 ? 28 : 0, 2), put(directory, 0, 2);
    put(directory, 0, 2), put(directory, 0, 2), put(directory, 0, 4);
    put(directory, zip64 ? saturated : offset, 4);
    directory += e.name;
    if (zip64) {
      put(directory, 0x0001, 2), put(directory, 24, 2);
      put(directory, e.data.size(), 8), put(directory, e.data.size(), 8), put(directory, offset, 8);
    }
  }
  const uint64_t directory_at = out.size();
  out += directory;
  if (zip64) {
    const uint64_t end64 = out.size();
    put(out, 0x06064b50, 4), put(out, 44, 8), put(out, 45, 2), put(out, 45, 2);
    put(out, 0, 4), put(out, 0, 4), put(out, entries.size(), 8), put(out, entries.size(), 8);
    put(out, directory.size(), 8), put(out, directory_at, 8);
    put(out, 0x07064b50, 4), put(out, 0, 4), put(out, end64, 8), put(out, 1, 4);
  }
  put(out, 0x06054b50, 4), put(out, 0, 2), put(out, 0, 2);
  put(out, zip64 ? 0xFFFF : entries.size(), 2), put(out, zip64 ? 0xFFFF : entries.size(), 2);
  put(out, zip64 ? 0xFFFFFFFF : directory.size(), 4);
  put(out, zip64 ? 0xFFFFFFFF : directory_at, 4), put(out, 0, 2);
  return out;
}

// torch._utils._rebuild_tensor_v2(('storage', torch.FloatStorage, '0', 'cpu', n), offset, size,
// stride, False, OrderedDict()) as protocol 2 writes it, with BININT1 fields (all below 256).
std::string tensor_pickle(const std::string& storage, int numel, int offset,
                          const std::vector<int>& size, const std::vector<int>& stride) {
  std::string p =
      "\x80\x02"
      "ctorch._utils\n_rebuild_tensor_v2\n((X";
  p += std::string("\x07\x00\x00\x00", 4) + "storage" + "ctorch\n" + storage + "\nX";
  p += std::string("\x01\x00\x00\x00", 4) + "0X" + std::string("\x03\x00\x00\x00", 4) + "cpuK";
  p += static_cast<char>(numel);
  p += "tQK";
  p += static_cast<char>(offset);
  for (const std::vector<int>* list : {&size, &stride}) {
    p += '(';
    for (const int v : *list) p += 'K', p += static_cast<char>(v);
    p += 't';
  }
  p += "\x89"
       "ccollections\nOrderedDict\n)RtR.";
  return p;
}

std::string floats(const std::vector<float>& values) {
  std::string out(values.size() * 4, '\0');
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

TorchTensor read(const std::string& bytes) {
  return parse_torch_tensor(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "t.pt");
}

std::string refusal(const std::string& bytes) {
  try {
    read(bytes);
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(TorchPt, ReadsWhatConvertWrites) {
  const ScratchDir dir;
  const std::vector<float> values = {1.5f, -2.0f, 0.25f, 8.0f, 3.0f, -0.5f};
  const std::string path = dir.file("x.pt");
  write_torch_tensor(path, DType::kFloat, Shape{{2, 3}},
                     reinterpret_cast<const uint8_t*>(values.data()), values.size() * 4);
  const MappedFile file = MappedFile::open(path);
  const TorchTensor t = parse_torch_tensor(file.data(), file.size(), path);
  EXPECT_EQ(t.dtype, DType::kFloat);
  EXPECT_EQ(t.dtype_name, "float32");
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.strides, (std::vector<int64_t>{3, 1}));
  EXPECT_TRUE(t.contiguous());
  EXPECT_EQ(t.numel(), 6);
  ASSERT_EQ(t.storage_bytes, 24u);
  EXPECT_EQ(std::memcmp(t.storage, values.data(), 24), 0);
}

TEST(TorchPt, Zip64FieldsStridedViewsAndUntypedStorages) {
  const std::string data = floats({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  // x.reshape(3, 4)[1:, ::2]: offset 4, size (2, 2), stride (4, 2).
  for (const bool zip64 : {false, true}) {
    const TorchTensor t =
        read(zip({{"v/data.pkl", tensor_pickle("FloatStorage", 12, 4, {2, 2}, {4, 2})},
                  {"v/byteorder", "little"},
                  {"v/data/0", data}},
                 zip64));
    EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(t.strides, (std::vector<int64_t>{4, 2}));
    EXPECT_EQ(t.storage_offset, 4);
    EXPECT_FALSE(t.contiguous());
    EXPECT_EQ(t.storage_bytes, 48u);
  }
  // uint16 has no typed storage: _rebuild_tensor_v3 names the dtype after the hooks.
  std::string v3 = tensor_pickle("FloatStorage", 12, 0, {3}, {1});
  v3.replace(v3.find("_v2"), 3, "_v3");
  v3.replace(v3.find("torch\nFloatStorage"), 18, "torch.storage\nUntypedStorage");
  v3.insert(v3.rfind(")Rt") + 2, "ctorch\nuint16\n");
  const TorchTensor u = read(zip({{"u/data.pkl", v3}, {"u/data/0", "abcdef"}}, false));
  EXPECT_EQ(u.dtype, DType::kUInt16);
  EXPECT_EQ(u.dtype_name, "uint16");
  EXPECT_EQ(u.numel(), 3);
}

TEST(TorchPt, RefusesDamageNamingTheFile) {
  const std::string good = zip({{"a/data.pkl", tensor_pickle("FloatStorage", 3, 0, {3}, {1})},
                                {"a/data/0", floats({1, 2, 3})}},
                               false);
  ASSERT_EQ(read(good).numel(), 3);
  EXPECT_EQ(refusal(good.substr(0, 40)),
            "t.pt: not a torch.save file (no zip end-of-directory record)");
  EXPECT_EQ(refusal("PK"), "t.pt: not a torch.save file (too short for a zip archive)");
  EXPECT_NE(refusal(zip({{"a/data.pkl", tensor_pickle("FloatStorage", 3, 0, {3}, {1})},
                         {"a/data/0", floats({1, 2, 3}), 8}},
                        false))
                .find("entry a/data/0 is compressed (method 8)"),
            std::string::npos);
  EXPECT_EQ(refusal(zip({{"a/data.pkl", "\x80\x02}."}}, false)),
            "t.pt: holds no tensor (torch.save of another object)");
  EXPECT_EQ(refusal(zip({{"a/data.pkl", tensor_pickle("FloatStorage", 3, 0, {4}, {1})},
                         {"a/data/0", floats({1, 2, 3})}},
                        false)),
            "t.pt: data.pkl reaches element 3 of a storage of 3");
  EXPECT_EQ(refusal(zip({{"a/data.pkl", tensor_pickle("FloatStorage", 3, 0, {3}, {1})}}, false)),
            "t.pt: the archive has no entry a/data/0");
  EXPECT_EQ(refusal(zip({{"a/data.pkl", tensor_pickle("QInt8Storage", 3, 0, {3}, {1})},
                         {"a/data/0", "abc"}},
                        false)),
            "t.pt: data.pkl stores a torch.QInt8Storage, which has no element type here");
  EXPECT_EQ(refusal(zip({{"a/data.pkl", tensor_pickle("FloatStorage", 3, 0, {3}, {1})},
                         {"a/byteorder", "big"},
                         {"a/data/0", floats({1, 2, 3})}},
                        false)),
            "t.pt: was saved on a big-endian machine; only little-endian archives are read");
  std::string deep = "\x80\x02";
  for (int i = 0; i < 200; ++i) deep += "(";
  deep += "N";
  for (int i = 0; i < 200; ++i) deep += "t";
  EXPECT_EQ(refusal(zip({{"a/data.pkl", deep + "."}}, false)),
            "t.pt: data.pkl nests tuples deeper than 100");
  EXPECT_EQ(refusal(zip({{"a/data.pkl", "\x80\x02N"}}, false)),
            "t.pt: data.pkl ends before its STOP");
}

}  // namespace
}  // namespace dumpcmp
