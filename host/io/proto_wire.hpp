#pragma once
// The protobuf wire format read and written by hand, the project's one varint codec: for the model
// files `extract --model` cuts (ONNX, TensorFlow GraphDef, Caffe NetParameter), where fields are
// kept as the byte spans they came in, so whatever the tool does not interpret is written back
// unchanged and no framework's .proto is compiled in; and for the dump header's field 7, which the
// project's schema keeps as opaque bytes (io/protobuf_header reads it, io/dump_writer writes it).
// Reading is bounds-checked: malformed bytes give an Error naming the file.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dumpcmp::pb {

enum WireType : int {
  kVarint = 0,
  kFixed64 = 1,
  kLength = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5
};

struct Field {
  uint32_t number = 0;
  int wire = kVarint;
  uint64_t varint = 0;    // the value of a varint field
  std::string_view data;  // the payload of a length-delimited, fixed or group field
  std::string_view raw;   // the whole field as written, tag included
};

// A message's fields in the order written, one at a time, so a caller can stop early. `where`
// names the file and the message in errors and must outlive the reader; next() throws
// Error(kInput) on truncated or malformed bytes.
class FieldReader {
 public:
  FieldReader(std::string_view message, const std::string& where)
      : bytes_(message), where_(where) {}
  bool done() const { return pos_ >= bytes_.size(); }
  Field next() { return field(0); }  // a group is taken whole (up to its matching end tag)
  uint64_t varint();

 private:
  Field field(int depth);
  std::string_view take(uint64_t n);
  [[noreturn]] void fail(const std::string& problem) const;

  std::string_view bytes_;
  const std::string& where_;
  size_t pos_ = 0;
};

// The fields of one message in the order written. `where` names the file and the message in
// errors ("m.onnx: graph.node[3]"); throws Error(kInput) on truncated or malformed bytes.
std::vector<Field> parse_fields(std::string_view message, const std::string& where);

// The payload of the first field `number` of wire type kLength, or nullopt. A view into the
// message's bytes, so it outlives `fields` (often a temporary).
std::optional<std::string_view> find_bytes(const std::vector<Field>& fields, uint32_t number);
// The payloads of every length-delimited field `number`, in order.
std::vector<std::string_view> strings_of(const std::vector<Field>& fields, uint32_t number);
// Varint values of field `number`, packed or not (proto3 packs repeated ints).
std::vector<int64_t> ints_of(const std::vector<Field>& fields, uint32_t number,
                             const std::string& where);

void put_varint(std::string& out, uint64_t value);
void put_tag(std::string& out, uint32_t number, int wire);
void put_bytes(std::string& out, uint32_t number, std::string_view bytes);
void put_int(std::string& out, uint32_t number, int64_t value);  // a varint field

}  // namespace dumpcmp::pb
