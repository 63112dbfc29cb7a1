#include "io/proto_wire.hpp"

#include "core/error.hpp"

namespace dumpcmp::pb {
namespace {

// Groups (deprecated, but legal in proto2 files) nest; deeper than this is not a real model.
constexpr int kMaxGroupDepth = 64;

}  // namespace

uint64_t FieldReader::varint() {
  uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= bytes_.size()) fail("truncated varint");
    const auto byte = static_cast<uint8_t>(bytes_[pos_++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return value;
  }
  fail("varint longer than 10 bytes");
}

std::string_view FieldReader::take(uint64_t n) {
  if (n > bytes_.size() - pos_) fail("field runs past the end of its message");
  const std::string_view out = bytes_.substr(pos_, static_cast<size_t>(n));
  pos_ += static_cast<size_t>(n);
  return out;
}

Field FieldReader::field(int depth) {
  Field f;
  const size_t begin = pos_;
  const uint64_t tag = varint();
  f.number = static_cast<uint32_t>(tag >> 3);
  f.wire = static_cast<int>(tag & 7);
  if (f.number == 0 || (tag >> 3) > 0x1fffffff) fail("invalid field number");
  switch (f.wire) {
    case kVarint:
      f.varint = varint();
      break;
    case kFixed64:
      f.data = take(8);
      break;
    case kFixed32:
      f.data = take(4);
      break;
    case kLength:
      f.data = take(varint());
      break;
    case kStartGroup: {
      if (depth >= kMaxGroupDepth) fail("groups nested too deeply");
      const size_t inner = pos_;
      for (;;) {
        if (done()) fail("unterminated group");
        const size_t at = pos_;
        const uint64_t t = varint();
        if ((t & 7) == kEndGroup) {
          if ((t >> 3) != f.number) fail("mismatched end of group");
          f.data = bytes_.substr(inner, at - inner);
          break;
        }
        pos_ = at;
        field(depth + 1);
      }
      break;
    }
    default:
      fail("invalid wire type " + std::to_string(f.wire));
  }
  f.raw = bytes_.substr(begin, pos_ - begin);
  return f;
}

void FieldReader::fail(const std::string& problem) const {
  throw format_error(where_, problem + " at byte " + std::to_string(pos_));
}

std::vector<Field> parse_fields(std::string_view message, const std::string& where) {
  FieldReader reader(message, where);
  std::vector<Field> fields;
  while (!reader.done()) fields.push_back(reader.next());
  return fields;
}

std::optional<std::string_view> find_bytes(const std::vector<Field>& fields, uint32_t number) {
  for (const Field& f : fields) {
    if (f.number == number && f.wire == kLength) return f.data;
  }
  return std::nullopt;
}

std::vector<std::string_view> strings_of(const std::vector<Field>& fields, uint32_t number) {
  std::vector<std::string_view> out;
  for (const Field& f : fields) {
    if (f.number == number && f.wire == kLength) out.push_back(f.data);
  }
  return out;
}

std::vector<int64_t> ints_of(const std::vector<Field>& fields, uint32_t number,
                             const std::string& where) {
  std::vector<int64_t> out;
  for (const Field& f : fields) {
    if (f.number != number) continue;
    if (f.wire == kVarint) {
      out.push_back(static_cast<int64_t>(f.varint));
    } else if (f.wire == kLength) {
      FieldReader packed(f.data, where);
      while (!packed.done()) out.push_back(static_cast<int64_t>(packed.varint()));
    }
  }
  return out;
}

void put_varint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void put_tag(std::string& out, uint32_t number, int wire) {
  put_varint(out, (static_cast<uint64_t>(number) << 3) | static_cast<uint64_t>(wire));
}

void put_bytes(std::string& out, uint32_t number, std::string_view bytes) {
  put_tag(out, number, kLength);
  put_varint(out, bytes.size());
  out.append(bytes.data(), bytes.size());
}

void put_int(std::string& out, uint32_t number, int64_t value) {
  put_tag(out, number, kVarint);
  put_varint(out, static_cast<uint64_t>(value));
}

}  // namespace dumpcmp::pb
