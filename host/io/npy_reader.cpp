// §3.1 .npy (numpy.lib.format v1.0/2.0/3.0): magic, version, header length, a Python dict literal
// header, then the array bytes at any alignment.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "io/byte_cursor.hpp"
#include "io/dump_readers.hpp"

namespace dumpcmp::io_detail {
namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);

// The subset of Python literals numpy headers use: strings, True/False/None, ints, and tuples,
// lists and dicts of them (structured descrs are lists of tuples; they are parsed, then rejected).
struct PyValue {
  enum class Kind { kString, kBool, kNone, kInt, kSequence, kDict };
  Kind kind = Kind::kNone;
  std::string text;            // kString
  bool flag = false;           // kBool
  int64_t number = 0;          // kInt
  std::vector<PyValue> items;  // kSequence; kDict holds key, value, key, value...
};

class LiteralParser {
 public:
  explicit LiteralParser(std::string_view text) : text_(text) {}

  // Returns "" or the problem.
  std::string parse_dict(PyValue& out) {
    skip_space();
    if (!parse_value(out, 0) || out.kind != PyValue::Kind::kDict) {
      return error_.empty() ? "npy header is not a dict literal" : error_;
    }
    skip_space();
    if (pos_ != text_.size()) return "npy header has text after the dict";
    return {};
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::strchr(" \t\r\n", text_[pos_]) != nullptr) ++pos_;
  }
  bool at(char ch) {
    skip_space();
    return pos_ < text_.size() && text_[pos_] == ch;
  }
  bool fail(const std::string& problem) {
    if (error_.empty()) error_ = "npy header: " + problem;
    return false;
  }

  bool parse_value(PyValue& out, int depth) {
    if (depth > 32) return fail("nested too deeply");
    skip_space();
    if (pos_ >= text_.size()) return fail("ends early");
    const char ch = text_[pos_];
    if (ch == '\'' || ch == '"') return parse_string(out);
    if (ch == '(' || ch == '[') return parse_sequence(out, ch == '(' ? ')' : ']', depth);
    if (ch == '{') return parse_dict_body(out, depth);
    if (ch == '-' || (ch >= '0' && ch <= '9')) return parse_int(out);
    for (std::string_view word : {"True", "False", "None"}) {
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        out.kind = word == "None" ? PyValue::Kind::kNone : PyValue::Kind::kBool;
        out.flag = word == "True";
        return true;
      }
    }
    return fail(std::string("unexpected character '") + ch + "'");
  }

  bool parse_string(PyValue& out) {
    const char quote = text_[pos_++];
    out.kind = PyValue::Kind::kString;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      out.text += text_[pos_++];
    }
    if (pos_ >= text_.size()) return fail("unterminated string");
    ++pos_;
    return true;
  }

  bool parse_int(PyValue& out) {
    const bool negative = text_[pos_] == '-';
    if (negative) ++pos_;
    if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9') return fail("bad number");
    uint64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const auto digit = static_cast<uint64_t>(text_[pos_++] - '0');
      if (value > (static_cast<uint64_t>(INT64_MAX) - digit) / 10) return fail("number too large");
      value = value * 10 + digit;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'L' || text_[pos_] == 'l')) ++pos_;  // Python 2
    out.kind = PyValue::Kind::kInt;
    out.number = negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
    return true;
  }

  bool parse_sequence(PyValue& out, char close, int depth) {
    ++pos_;
    out.kind = PyValue::Kind::kSequence;
    while (!at(close)) {
      PyValue item;
      if (!parse_value(item, depth + 1)) return false;
      out.items.push_back(std::move(item));
      if (at(',')) {
        ++pos_;
      } else if (!at(close)) {
        return fail(std::string("expected ',' or '") + close + "'");
      }
    }
    ++pos_;
    return true;
  }

  bool parse_dict_body(PyValue& out, int depth) {
    ++pos_;
    out.kind = PyValue::Kind::kDict;
    while (!at('}')) {
      PyValue key;
      PyValue value;
      if (!parse_value(key, depth + 1)) return false;
      if (!at(':')) return fail("expected ':' after a key");
      ++pos_;
      if (!parse_value(value, depth + 1)) return false;
      out.items.push_back(std::move(key));
      out.items.push_back(std::move(value));
      if (at(',')) {
        ++pos_;
      } else if (!at('}')) {
        return fail("expected ',' or '}'");
      }
    }
    ++pos_;
    return true;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string error_;
};

// descr -> DType, or a problem. numpy writes '|' for one-byte types and '<' for the others on
// little-endian hosts; '=' (native) and '|' mean the same here. Byte order is moot for one byte.
std::string dtype_from_descr(const std::string& descr, DType& out, std::size_t& item_size) {
  std::string_view body(descr);
  char order = '=';
  if (!body.empty() && std::strchr("<>|=", body.front()) != nullptr) {
    order = body.front();
    body.remove_prefix(1);
  }
  if (body == "O") return "object arrays (descr '" + descr + "') are not supported";
  if (!body.empty() && body.front() == 'V') {
    return "void/record descr '" + descr +
           "' is not supported (ml_dtypes bfloat16 and float8 "
           "arrays load as void)";
  }
  struct Entry {
    std::string_view code;
    DType type;
    std::size_t size;
  };
  static constexpr Entry kTable[] = {
      {"f2", DType::kFloat16, 2},   {"f4", DType::kFloat, 4},        {"f8", DType::kDouble, 8},
      {"i1", DType::kInt8, 1},      {"i2", DType::kInt16, 2},        {"i4", DType::kInt32, 4},
      {"i8", DType::kInt64, 8},     {"u1", DType::kUInt8, 1},        {"u2", DType::kUInt16, 2},
      {"u4", DType::kUInt32, 4},    {"u8", DType::kUInt64, 8},       {"b1", DType::kBool, 1},
      {"c8", DType::kComplex64, 8}, {"c16", DType::kComplex128, 16},
  };
  for (const Entry& e : kTable) {
    if (body != e.code) continue;
    if (order == '>' && e.size > 1) return "big-endian descr '" + descr + "' is not supported";
    out = e.type;
    item_size = e.size;
    return {};
  }
  return "unsupported descr '" + descr + "'";
}

struct NpyHeader {
  DType dtype = DType::kUndefined;
  std::size_t item_size = 0;
  bool fortran_order = false;
  Shape shape;
};

std::string interpret_header(const PyValue& dict, NpyHeader& out) {
  bool seen_descr = false;
  bool seen_order = false;
  bool seen_shape = false;
  for (std::size_t i = 0; i + 1 < dict.items.size(); i += 2) {
    const PyValue& key = dict.items[i];
    const PyValue& value = dict.items[i + 1];
    if (key.kind != PyValue::Kind::kString) return "npy header has a key that is not a string";
    if (key.text == "descr") {
      if (value.kind == PyValue::Kind::kSequence) {
        return "structured (record) dtypes are not supported";
      }
      if (value.kind != PyValue::Kind::kString) return "npy header 'descr' is not a string";
      std::string problem = dtype_from_descr(value.text, out.dtype, out.item_size);
      if (!problem.empty()) return problem;
      seen_descr = true;
    } else if (key.text == "fortran_order") {
      if (value.kind != PyValue::Kind::kBool) return "npy header 'fortran_order' is not a bool";
      out.fortran_order = value.flag;
      seen_order = true;
    } else if (key.text == "shape") {
      if (value.kind != PyValue::Kind::kSequence) return "npy header 'shape' is not a tuple";
      out.shape.clear();
      for (const PyValue& dim : value.items) {
        if (dim.kind != PyValue::Kind::kInt || dim.number < 0) {
          return "npy header 'shape' holds something other than non-negative ints";
        }
        out.shape.push_back(dim.number);
      }
      seen_shape = true;
    } else {
      // np.load rejects any key beyond the three, so msaccucmp cannot read such a file either.
      return "npy header has unexpected key '" + key.text + "'";
    }
  }
  if (!seen_descr || !seen_order || !seen_shape) {
    return "npy header lacks one of 'descr', 'fortran_order', 'shape'";
  }
  return {};
}

// Fortran-order arrays are rare in dumps; rather than teach every consumer a second element order,
// the reader hands out a C-order copy (msaccucmp flattens in C order too).
std::vector<uint8_t> to_c_order(const uint8_t* src, const Shape& shape, std::size_t item_size,
                                std::size_t count) {
  std::vector<uint8_t> dst(count * item_size);
  const std::size_t rank = shape.size();
  std::vector<std::size_t> f_stride(rank, 1);  // elements; the first axis varies fastest
  for (std::size_t k = 1; k < rank; ++k) {
    f_stride[k] = f_stride[k - 1] * static_cast<std::size_t>(shape[k - 1]);
  }
  std::vector<std::size_t> index(rank, 0);
  std::size_t f_offset = 0;
  for (std::size_t c = 0; c < count; ++c) {
    std::memcpy(dst.data() + c * item_size, src + f_offset * item_size, item_size);
    // Advance the C-order index (last axis fastest) and keep the Fortran offset in step.
    for (std::size_t k = rank; k-- > 0;) {
      ++index[k];
      f_offset += f_stride[k];
      if (index[k] < static_cast<std::size_t>(shape[k])) break;
      f_offset -= index[k] * f_stride[k];
      index[k] = 0;
    }
  }
  return dst;
}

}  // namespace

DumpFile read_npy(const std::string& path, const SharedBytes& bytes) {
  const uint8_t* const base = bytes->data();
  const std::size_t file_size = bytes->size();
  if (file_size < kMagic.size() || std::memcmp(base, kMagic.data(), kMagic.size()) != 0) {
    throw format_error(path, file_size == 0 ? "empty file" : "not an npy file (bad magic)");
  }
  ByteCursor cursor(base, file_size);
  cursor.skip(kMagic.size());
  uint8_t major = 0;
  uint8_t minor = 0;
  if (!cursor.read(major) || !cursor.read(minor)) {
    throw format_error(path, "truncated npy preamble");
  }
  if (major < 1 || major > 3 || minor != 0) {
    throw format_error(path, "unsupported npy format version " + std::to_string(major) + "." +
                                 std::to_string(minor));
  }
  uint32_t header_len = 0;
  uint16_t short_len = 0;
  const bool ok = major == 1 ? cursor.read(short_len) : cursor.read(header_len);
  if (!ok) throw format_error(path, "truncated npy preamble");
  if (major == 1) header_len = short_len;
  if (header_len > cursor.remaining()) {
    throw format_error(path, "npy header length " + std::to_string(header_len) +
                                 " exceeds file size " + std::to_string(file_size));
  }
  const std::string_view header_text(reinterpret_cast<const char*>(cursor.here()), header_len);
  cursor.skip(header_len);

  PyValue dict;
  NpyHeader header;
  std::string problem = LiteralParser(header_text).parse_dict(dict);
  if (problem.empty()) problem = interpret_header(dict, header);
  if (!problem.empty()) throw format_error(path, problem);

  const std::optional<int64_t> count = shape_element_count(header.shape);
  uint64_t needed = 0;
  if (!count || __builtin_mul_overflow(static_cast<uint64_t>(*count), header.item_size, &needed)) {
    throw format_error(path, "npy shape " + shape_to_string(header.shape) + " is too large");
  }
  const std::size_t data_offset = cursor.position();
  const std::size_t available = cursor.remaining();
  if (needed > available) {
    throw format_error(path, "npy data is truncated: shape " + shape_to_string(header.shape) +
                                 " needs " + std::to_string(needed) + " bytes but only " +
                                 std::to_string(available) + " follow the header");
  }

  DumpFile file;
  file.path = path;
  file.encoding = DumpEncoding::kNpy;
  file.version = std::to_string(major) + ".0";  // the npy format version
  TensorInfo t;
  t.group = TensorGroup::kOutput;
  t.index = 0;
  t.dtype = header.dtype;
  // msaccucmp tags npy tensors RESERVED (40); ND says the same thing (plain row-major) to the
  // layout code without a special case.
  t.format = Format::kND;
  t.shape = header.shape;
  t.size = needed;
  if (header.fortran_order && header.shape.size() > 1) {
    file.bytes = std::make_shared<OwnedByteSource>(to_c_order(
        base + data_offset, header.shape, header.item_size, static_cast<std::size_t>(*count)));
    t.offset = 0;
  } else {
    file.bytes = bytes;
    t.offset = data_offset;
  }
  file.outputs.push_back(std::move(t));
  return file;
}

}  // namespace dumpcmp::io_detail
