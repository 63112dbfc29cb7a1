// §1.3 nano TLV dump:
//   u64 tlv_head_len | u32 magic 0x5A5A5A5A | u32 version | TLV(4 inputs) TLV(5 outputs) | data
// TLV tag and length are u32 LE. Payloads follow the header: inputs, then outputs.
#include <cctype>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/byte_cursor.hpp"
#include "io/dump_readers.hpp"

namespace dumpcmp::io_detail {
namespace {

constexpr uint32_t kInputDescTag = 4;
constexpr uint32_t kOutputDescTag = 5;
constexpr uint32_t kShapeTag = 0;
constexpr uint32_t kOriginalShapeTag = 1;
constexpr uint32_t kOriginNameTag = 2;

// Nano dtype codes differ from the proto codes (msaccucmp's NANO_DATA_TYPE_TO_PROTO_DATA_TYPE;
// nano RESOURCE 23 maps to INT64). Codes msaccucmp leaves unmapped cannot be decoded there either:
// they become 1000 + code, which no DType names, so the tensor fails like msaccucmp's does while
// inspect still shows the original code.
DType nano_dtype(int32_t code) {
  switch (code) {
    case 0:
      return DType::kFloat;
    case 1:
      return DType::kFloat16;
    case 2:
      return DType::kInt8;
    case 3:
      return DType::kInt32;
    case 4:
      return DType::kUInt8;
    case 6:
      return DType::kInt16;
    case 7:
      return DType::kUInt16;
    case 8:
      return DType::kUInt32;
    case 9:
      return DType::kInt64;
    case 10:
      return DType::kUInt64;
    case 11:
      return DType::kDouble;
    case 12:
      return DType::kBool;
    case 16:
      return DType::kComplex64;
    case 17:
      return DType::kComplex128;
    case 23:
      return DType::kInt64;
    case 27:
      return DType::kBFloat16;
    case 30:
      return DType::kUInt1;
    default:
      break;
  }
  constexpr int32_t kUnmappedBase = 1000;
  return static_cast<DType>(code >= 0 && code < kUnmappedBase ? kUnmappedBase + code : -1);
}

class NanoParser {
 public:
  NanoParser(const std::string& path, const uint8_t* data, std::size_t size)
      : path_(path), cursor_(data, size) {}

  // Reads the TLVs after magic and version; tags other than 4 and 5 are skipped.
  void parse(DumpFile& out) {
    while (cursor_.remaining() >= 8) {
      uint32_t tag = 0;
      uint32_t len = 0;
      cursor_.read(tag);
      cursor_.read(len);
      if (len > cursor_.remaining()) {
        fail("TLV tag " + std::to_string(tag) + " length " + std::to_string(len) +
             " overruns the header");
      }
      ByteCursor value(cursor_.here(), len);
      cursor_.skip(len);
      if (tag == kInputDescTag) parse_list(value, TensorGroup::kInput, out.inputs);
      if (tag == kOutputDescTag) parse_list(value, TensorGroup::kOutput, out.outputs);
    }
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw format_error(path_, "nano dump: " + problem);
  }

  template <typename T>
  T need(ByteCursor& c, const char* what) const {
    T v{};
    if (!c.read(v)) fail(std::string("header ends inside ") + what);
    return v;
  }

  void parse_list(ByteCursor& c, TensorGroup group, std::vector<TensorInfo>& list) const {
    const bool output = group == TensorGroup::kOutput;
    const uint32_t count = need<uint32_t>(c, output ? "the output count" : "the input count");
    for (uint32_t i = 0; i < count; ++i) {
      TensorInfo t;
      t.group = group;
      t.index = static_cast<int>(list.size());
      const std::string what =
          std::string(tensor_group_name(group)) + " record " + std::to_string(i);
      t.dtype = nano_dtype(need<int32_t>(c, what.c_str()));
      t.format = static_cast<Format>(need<int32_t>(c, what.c_str()));
      need<int32_t>(c, what.c_str());  // address_type
      if (output) {
        t.origin_output_index = static_cast<uint32_t>(need<int32_t>(c, what.c_str()));
        need<int32_t>(c, what.c_str());  // original_data_type
        need<int32_t>(c, what.c_str());  // original_format
      }
      t.address = need<uint64_t>(c, what.c_str());
      need<uint64_t>(c, what.c_str());  // device-side offset; payloads are packed back to back
      t.size = need<uint64_t>(c, what.c_str());
      const uint32_t sub_len = need<uint32_t>(c, what.c_str());
      if (sub_len > c.remaining()) fail(what + " sub-TLV list overruns its TLV");
      ByteCursor sub(c.here(), sub_len);
      c.skip(sub_len);
      parse_sub_tlvs(sub, what, output, t);
      list.push_back(std::move(t));
    }
  }

  void parse_sub_tlvs(ByteCursor& c, const std::string& what, bool output, TensorInfo& t) const {
    while (c.remaining() >= 8) {
      uint32_t tag = 0;
      uint32_t len = 0;
      c.read(tag);
      c.read(len);
      if (len > c.remaining()) fail(what + " sub-TLV " + std::to_string(tag) + " overruns");
      const uint8_t* value = c.here();
      c.skip(len);
      if (tag == kShapeTag || tag == kOriginalShapeTag) {
        if (len % 8 != 0) {
          fail(what + " shape length " + std::to_string(len) + " is not whole u64s");
        }
        Shape& shape = tag == kShapeTag ? t.shape : t.original_shape;
        shape.clear();
        for (uint32_t off = 0; off < len; off += 8) {
          const uint64_t dim = load_le<uint64_t>(value + off);
          if (dim > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
            fail(what + " dim " + std::to_string(dim) + " does not fit in int64");
          }
          shape.push_back(static_cast<int64_t>(dim));
        }
      } else if (tag == kOriginNameTag && output) {
        t.origin_name.assign(reinterpret_cast<const char*>(value), len);
      }
    }
  }

  const std::string& path_;
  ByteCursor cursor_;
};

std::vector<std::string> split_dots(const std::string& name) {
  std::vector<std::string> fields(1);
  for (char ch : name) {
    if (ch == '.') {
      fields.emplace_back();
    } else {
      fields.back() += ch;
    }
  }
  return fields;
}

uint64_t sum_sizes(const std::vector<TensorInfo>& list, bool& overflow) {
  uint64_t total = 0;
  for (const TensorInfo& t : list) {
    if (__builtin_add_overflow(total, t.size, &total)) overflow = true;
  }
  return total;
}

}  // namespace

DumpFile read_nano_dump(const std::string& path, const SharedBytes& bytes) {
  // {op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}: msaccucmp takes the op name from field
  // 1 and needs the timestamp field to exist.
  const std::size_t slash = path.find_last_of('/');
  const std::string base_name = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::vector<std::string> fields = split_dots(base_name);
  if (fields.size() < 5) {
    throw format_error(path,
                       "nano dump file name needs at least 5 dot-separated fields "
                       "(op_type.op_name.task_id.stream_id.timestamp)");
  }

  const uint8_t* const base = bytes->data();
  const std::size_t file_size = bytes->size();
  // The length field, the magic and the version need 16 bytes.
  if (file_size < 16) {
    throw format_error(path, "nano dump: " + std::to_string(file_size) +
                                 " bytes, too short for the header length, magic and version");
  }
  const uint64_t head_len = load_le<uint64_t>(base);
  if (head_len > file_size - 8) {
    throw format_error(path, "nano dump: TLV header length " + std::to_string(head_len) +
                                 " exceeds file size " + std::to_string(file_size) +
                                 " minus the 8-byte length field");
  }
  if (head_len < 8) {
    throw format_error(path, "nano dump: TLV header too short for magic and version");
  }

  DumpFile file;
  file.path = path;
  file.encoding = DumpEncoding::kNano;
  file.op_name = fields[1];
  file.version = std::to_string(load_le<uint32_t>(base + 12));
  const std::string& stamp = fields[4];
  if (!stamp.empty() && stamp.size() <= 19 &&
      stamp.find_first_not_of("0123456789") == std::string::npos) {
    file.dump_time = std::stoull(stamp);
  }
  NanoParser(path, base + 16, static_cast<std::size_t>(head_len - 8)).parse(file);

  bool overflow = false;
  const uint64_t in_bytes = sum_sizes(file.inputs, overflow);
  const uint64_t out_bytes = sum_sizes(file.outputs, overflow);
  uint64_t expected = 0;
  overflow = overflow || __builtin_add_overflow(head_len + 8, in_bytes, &expected) ||
             __builtin_add_overflow(expected, out_bytes, &expected);
  // msaccucmp demands an exact match for this form.
  if (overflow || expected != file_size) {
    throw format_error(path, "nano dump: file size " + std::to_string(file_size) +
                                 " does not match 8 + TLV header " + std::to_string(head_len) +
                                 " + input bytes " + std::to_string(in_bytes) + " + output bytes " +
                                 std::to_string(out_bytes));
  }
  uint64_t offset = 8 + head_len;
  for (auto* list : {&file.inputs, &file.outputs}) {
    for (TensorInfo& t : *list) {
      t.offset = offset;
      offset += t.size;
    }
  }
  file.bytes = bytes;
  return file;
}

}  // namespace dumpcmp::io_detail
