#include "io/torch_pt.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "core/error.hpp"
#include "io/byte_cursor.hpp"

namespace dumpcmp {
namespace {

using io_detail::ByteCursor;
using io_detail::load_le;

struct DTypeName {
  std::string_view torch_name;
  std::string_view storage_class;  // empty: pickled as UntypedStorage with the dtype
  DType dtype;
};

constexpr DTypeName kDTypes[] = {
    {"float32", "FloatStorage", DType::kFloat},
    {"float64", "DoubleStorage", DType::kDouble},
    {"float16", "HalfStorage", DType::kFloat16},
    {"bfloat16", "BFloat16Storage", DType::kBFloat16},
    {"int8", "CharStorage", DType::kInt8},
    {"uint8", "ByteStorage", DType::kUInt8},
    {"int16", "ShortStorage", DType::kInt16},
    {"int32", "IntStorage", DType::kInt32},
    {"int64", "LongStorage", DType::kInt64},
    {"bool", "BoolStorage", DType::kBool},
    {"complex64", "ComplexFloatStorage", DType::kComplex64},
    {"complex128", "ComplexDoubleStorage", DType::kComplex128},
    {"uint16", "", DType::kUInt16},
    {"uint32", "", DType::kUInt32},
    {"uint64", "", DType::kUInt64},
    {"float8_e4m3fn", "", DType::kFloat8E4M3FN},
    {"float8_e5m2", "", DType::kFloat8E5M2},
};

const DTypeName* dtype_by_storage(std::string_view storage_class) {
  for (const DTypeName& d : kDTypes)
    if (!d.storage_class.empty() && d.storage_class == storage_class) return &d;
  return nullptr;
}

const DTypeName* dtype_by_torch_name(std::string_view name) {
  for (const DTypeName& d : kDTypes)
    if (d.torch_name == name) return &d;
  return nullptr;
}

// ---- The zip archive: the central directory's entries, ZIP64 fields applied.

struct ZipEntry {
  uint64_t local_offset = 0;
  uint64_t size = 0;
  uint16_t method = 0;
};

class ZipArchive {
 public:
  ZipArchive(const uint8_t* data, std::size_t size, const std::string& path)
      : data_(data), size_(size), path_(path) {
    read_directory();
  }

  const std::map<std::string, ZipEntry, std::less<>>& entries() const { return entries_; }

  // The bytes of a stored (uncompressed) entry.
  std::pair<const uint8_t*, uint64_t> payload(const std::string& name) const {
    const auto it = entries_.find(name);
    if (it == entries_.end()) fail("the archive has no entry " + name);
    const ZipEntry& e = it->second;
    if (e.method != 0)
      fail("entry " + name + " is compressed (method " + std::to_string(e.method) +
           "); torch.save stores its entries uncompressed");
    if (e.local_offset > size_ || size_ - e.local_offset < 30 ||
        load_le<uint32_t>(data_ + e.local_offset) != 0x04034b50)
      fail("entry " + name + " has no local header");
    const uint64_t start = e.local_offset + 30 + load_le<uint16_t>(data_ + e.local_offset + 26) +
                           load_le<uint16_t>(data_ + e.local_offset + 28);
    if (start > size_ || size_ - start < e.size)
      fail("entry " + name + " runs past the file's end");
    return {data_ + start, e.size};
  }

  [[noreturn]] void fail(const std::string& problem) const { throw format_error(path_, problem); }

 private:
  void read_directory() {
    constexpr std::size_t kEocd = 22;
    if (size_ < kEocd) fail("not a torch.save file (too short for a zip archive)");
    std::size_t eocd = size_ - kEocd;
    const std::size_t lowest = size_ > kEocd + 0xFFFF ? size_ - kEocd - 0xFFFF : 0;
    while (load_le<uint32_t>(data_ + eocd) != 0x06054b50) {
      if (eocd == lowest) fail("not a torch.save file (no zip end-of-directory record)");
      --eocd;
    }
    uint64_t count = load_le<uint16_t>(data_ + eocd + 10);
    uint64_t dir_size = load_le<uint32_t>(data_ + eocd + 12);
    uint64_t dir_offset = load_le<uint32_t>(data_ + eocd + 16);
    if (count == 0xFFFF || dir_size == 0xFFFFFFFF || dir_offset == 0xFFFFFFFF)
      read_zip64_end(eocd, count, dir_size, dir_offset);
    if (dir_offset > size_ || size_ - dir_offset < dir_size)
      fail("the zip directory lies outside the file");
    ByteCursor cursor(data_ + dir_offset, static_cast<std::size_t>(dir_size));
    for (uint64_t i = 0; i < count; ++i) read_entry(cursor);
  }

  void read_zip64_end(std::size_t eocd, uint64_t& count, uint64_t& dir_size,
                      uint64_t& dir_offset) const {
    if (eocd < 20 || load_le<uint32_t>(data_ + eocd - 20) != 0x07064b50)
      fail("a ZIP64 archive without its end-of-directory locator");
    const uint64_t end64 = load_le<uint64_t>(data_ + eocd - 20 + 8);
    if (end64 > size_ || size_ - end64 < 56 || load_le<uint32_t>(data_ + end64) != 0x06064b50)
      fail("the ZIP64 end-of-directory record is missing");
    count = load_le<uint64_t>(data_ + end64 + 32);
    dir_size = load_le<uint64_t>(data_ + end64 + 40);
    dir_offset = load_le<uint64_t>(data_ + end64 + 48);
  }

  void read_entry(ByteCursor& c) {
    uint32_t signature = 0, compressed = 0, size32 = 0, offset32 = 0, crc = 0, attributes = 0;
    uint16_t made = 0, needed = 0, flags = 0, method = 0, time = 0, date = 0, name_len = 0,
             extra_len = 0, comment_len = 0, disk = 0, internal = 0;
    if (!c.read(signature) || signature != 0x02014b50 || !c.read(made) || !c.read(needed) ||
        !c.read(flags) || !c.read(method) || !c.read(time) || !c.read(date) || !c.read(crc) ||
        !c.read(compressed) || !c.read(size32) || !c.read(name_len) || !c.read(extra_len) ||
        !c.read(comment_len) || !c.read(disk) || !c.read(internal) || !c.read(attributes) ||
        !c.read(offset32) || c.remaining() < std::size_t{name_len} + extra_len + comment_len)
      fail("the zip directory is damaged");
    std::string name(reinterpret_cast<const char*>(c.here()), name_len);
    c.skip(name_len);
    ZipEntry entry{offset32, size32, method};
    ByteCursor extra(c.here(), extra_len);
    c.skip(std::size_t{extra_len} + comment_len);
    uint16_t id = 0, length = 0;
    while (extra.read(id) && extra.read(length) && extra.remaining() >= length) {
      ByteCursor field(extra.here(), length);
      extra.skip(length);
      if (id != 0x0001) continue;  // ZIP64: the fields saturated above, in this order
      uint64_t compressed64 = 0;
      if (size32 == 0xFFFFFFFF && !field.read(entry.size)) fail("a damaged ZIP64 field");
      if (compressed == 0xFFFFFFFF && !field.read(compressed64)) fail("a damaged ZIP64 field");
      if (offset32 == 0xFFFFFFFF && !field.read(entry.local_offset)) fail("a damaged ZIP64 field");
    }
    entries_.emplace(std::move(name), entry);
  }

  const uint8_t* data_;
  std::size_t size_;
  const std::string& path_;
  std::map<std::string, ZipEntry, std::less<>> entries_;
};

// ---- The pickle: a stack machine for the opcodes torch.save's tensors use (protocols 2-5).

struct PickleValue;
using Value = std::shared_ptr<const PickleValue>;

struct PickleValue {
  enum class Kind { kNone, kBool, kInt, kFloat, kText, kTuple, kGlobal, kStorage, kTensor, kOther };
  Kind kind = Kind::kNone;
  int64_t integer = 0;                  // kBool, kInt
  std::string text;                     // kText; kGlobal "module.name"; kStorage its key
  std::vector<Value> items;             // kTuple (lists too)
  int depth = 0;                        // of nested tuples: bounded, as freeing them recurses
  const DTypeName* dtype = nullptr;     // kStorage (null: untyped bytes); kGlobal naming a dtype
  std::shared_ptr<TorchTensor> tensor;  // kTensor
};

Value make(PickleValue v) { return std::make_shared<const PickleValue>(std::move(v)); }

class Unpickler {
 public:
  static constexpr int kMaxDepth = 100;  // a tensor's pickle nests three deep

  Unpickler(const uint8_t* data, std::size_t size, const ZipArchive& zip, std::string prefix)
      : cursor_(data, size), zip_(zip), prefix_(std::move(prefix)) {}

  Value run() {
    for (;;) {
      uint8_t op = 0;
      if (!cursor_.read(op)) fail("ends before its STOP");
      if (op == '.') break;
      step(op);
    }
    if (stack_.size() != 1) fail("leaves " + std::to_string(stack_.size()) + " values");
    return stack_.back();
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const { zip_.fail("data.pkl " + problem); }

  template <typename T>
  T read() {
    T v{};
    if (!cursor_.read(v)) fail("is cut short");
    return v;
  }
  std::string read_bytes(uint64_t n) {
    if (cursor_.remaining() < n) fail("is cut short");
    std::string s(reinterpret_cast<const char*>(cursor_.here()), static_cast<std::size_t>(n));
    cursor_.skip(static_cast<std::size_t>(n));
    return s;
  }
  std::string read_line() {
    std::string s;
    char ch = 0;
    while ((ch = static_cast<char>(read<uint8_t>())) != '\n') s += ch;
    return s;
  }

  Value pop() {
    if (stack_.size() <= floor()) fail("pops an empty stack");
    Value v = stack_.back();
    stack_.pop_back();
    return v;
  }
  std::size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
  std::vector<Value> pop_to_mark() {
    if (marks_.empty()) fail("has no MARK");
    std::vector<Value> items(stack_.begin() + static_cast<std::ptrdiff_t>(marks_.back()),
                             stack_.end());
    stack_.resize(marks_.back());
    marks_.pop_back();
    return items;
  }
  void push(Value v) { stack_.push_back(std::move(v)); }
  void push_int(int64_t v, PickleValue::Kind kind = PickleValue::Kind::kInt) {
    PickleValue p;
    p.kind = kind;
    p.integer = v;
    push(make(std::move(p)));
  }
  void push_text(std::string s) {
    PickleValue p;
    p.kind = PickleValue::Kind::kText;
    p.text = std::move(s);
    push(make(std::move(p)));
  }
  void push_tuple(std::vector<Value> items) {
    PickleValue p;
    p.kind = PickleValue::Kind::kTuple;
    for (const Value& item : items) p.depth = std::max(p.depth, item->depth + 1);
    if (p.depth > kMaxDepth) fail("nests tuples deeper than " + std::to_string(kMaxDepth));
    p.items = std::move(items);
    push(make(std::move(p)));
  }
  void push_global(std::string module, std::string name) {
    PickleValue p;
    p.kind = PickleValue::Kind::kGlobal;
    if (module == "torch") p.dtype = dtype_by_torch_name(name);
    p.text = module + "." + name;
    push(make(std::move(p)));
  }
  void memo_put(uint64_t index) {
    if (stack_.empty()) fail("memoizes an empty stack");
    memo_[index] = stack_.back();
  }
  void memo_get(uint64_t index) {
    const auto it = memo_.find(index);
    if (it == memo_.end()) fail("reads memo " + std::to_string(index) + " before it is set");
    push(it->second);
  }
  void push_other() {
    PickleValue p;
    p.kind = PickleValue::Kind::kOther;
    push(make(std::move(p)));
  }

  void step(uint8_t op) {
    switch (op) {
      case 0x80:  // PROTO
        read<uint8_t>();
        return;
      case 0x95:  // FRAME
        read<uint64_t>();
        return;
      case '(':
        marks_.push_back(stack_.size());
        return;
      case 'N':
        push(make({}));
        return;
      case 0x88:
        push_int(1, PickleValue::Kind::kBool);
        return;
      case 0x89:
        push_int(0, PickleValue::Kind::kBool);
        return;
      case 'K':
        push_int(read<uint8_t>());
        return;
      case 'M':
        push_int(read<uint16_t>());
        return;
      case 'J':
        push_int(read<int32_t>());
        return;
      case 0x8a:  // LONG1
        push_int(read_long(read<uint8_t>()));
        return;
      case 'G': {  // BINFLOAT: no tensor field is a float; its value is not kept
        read<uint64_t>();
        PickleValue p;
        p.kind = PickleValue::Kind::kFloat;
        push(make(std::move(p)));
        return;
      }
      case 'X':  // BINUNICODE
        push_text(read_bytes(read<uint32_t>()));
        return;
      case 0x8c:  // SHORT_BINUNICODE
        push_text(read_bytes(read<uint8_t>()));
        return;
      case 0x8d:  // BINUNICODE8
        push_text(read_bytes(read<uint64_t>()));
        return;
      case 'U':  // SHORT_BINSTRING
        push_text(read_bytes(read<uint8_t>()));
        return;
      case 'T':  // BINSTRING
        push_text(read_bytes(read<uint32_t>()));
        return;
      case 'C':  // SHORT_BINBYTES
        push_text(read_bytes(read<uint8_t>()));
        return;
      case 'B':  // BINBYTES
        push_text(read_bytes(read<uint32_t>()));
        return;
      case 'c': {
        std::string module = read_line();
        push_global(std::move(module), read_line());
        return;
      }
      case 0x93: {  // STACK_GLOBAL
        const Value name = pop();
        const Value module = pop();
        push_global(module->text, name->text);
        return;
      }
      case ')':
        push_tuple({});
        return;
      case ']':
        push_tuple({});
        return;  // EMPTY_LIST: kept as a tuple of its items
      case '}':  // EMPTY_DICT
        push_other();
        return;
      case 't':
        push_tuple(pop_to_mark());
        return;
      case 'l':
        push_tuple(pop_to_mark());
        return;
      case 'd':
        pop_to_mark();
        push_other();
        return;
      case 0x85: {
        Value a = pop();
        push_tuple({a});
        return;
      }
      case 0x86: {
        Value b = pop();
        Value a = pop();
        push_tuple({a, b});
        return;
      }
      case 0x87: {
        Value c = pop();
        Value b = pop();
        Value a = pop();
        push_tuple({a, b, c});
        return;
      }
      case 'a':
        pop();
        return;  // APPEND: list contents are not needed
      case 'e':  // APPENDS
        pop_to_mark();
        return;
      case 's':
        pop();
        pop();
        return;  // SETITEM on a dict kept opaque
      case 'u':  // SETITEMS
        pop_to_mark();
        return;
      case 'b':
        pop();
        return;  // BUILD: the state of an opaque object
      case 'q':
        memo_put(read<uint8_t>());
        return;
      case 'r':
        memo_put(read<uint32_t>());
        return;
      case 0x94:  // MEMOIZE
        memo_put(memo_.size());
        return;
      case 'h':
        memo_get(read<uint8_t>());
        return;
      case 'j':
        memo_get(read<uint32_t>());
        return;
      case 'Q':
        push(persistent(pop()));
        return;
      case 'R': {
        const Value args = pop();
        push(reduce(pop(), args));
        return;
      }
      default: {
        static const char kHex[] = "0123456789abcdef";
        fail(std::string("uses pickle opcode 0x") + kHex[op >> 4] + kHex[op & 15] +
             ", which a saved tensor does not");
      }
    }
  }

  int64_t read_long(uint8_t n) {
    if (n > 8) fail("holds an integer wider than 64 bits");
    uint64_t v = 0;
    for (uint8_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(read<uint8_t>()) << (8 * i);
    if (n > 0 && n < 8 && (v >> (8 * n - 1) & 1)) v |= ~uint64_t{0} << (8 * n);  // sign
    return static_cast<int64_t>(v);
  }

  // ('storage', <storage class>, key, location, numel): one record of the archive's data/.
  Value persistent(const Value& id) {
    const auto& t = id->items;
    if (id->kind != PickleValue::Kind::kTuple || t.size() < 3 || t[0]->text != "storage" ||
        t[1]->kind != PickleValue::Kind::kGlobal || t[2]->kind != PickleValue::Kind::kText)
      fail("has a persistent id that is not a storage");
    PickleValue s;
    s.kind = PickleValue::Kind::kStorage;
    s.text = t[2]->text;
    const std::string& cls = t[1]->text;
    const std::string_view name = std::string_view(cls).substr(cls.rfind('.') + 1);
    if (cls != "torch.storage.UntypedStorage") {
      s.dtype = dtype_by_storage(name);
      if (s.dtype == nullptr) fail("stores a " + cls + ", which has no element type here");
    }
    return make(std::move(s));
  }

  Value reduce(const Value& callable, const Value& args) {
    if (callable->kind != PickleValue::Kind::kGlobal || args->kind != PickleValue::Kind::kTuple) {
      push_other();
      return pop();
    }
    const std::string& f = callable->text;
    const auto& a = args->items;
    if (f == "torch._utils._rebuild_tensor_v2" || f == "torch._utils._rebuild_tensor_v3")
      return rebuild_tensor(f.back() == '3', a);
    if ((f == "torch._utils._rebuild_parameter" ||
         f == "torch._utils._rebuild_parameter_with_state") &&
        !a.empty() && a[0]->kind == PickleValue::Kind::kTensor)
      return a[0];
    if (f.rfind("torch._utils._rebuild", 0) == 0)
      fail("rebuilds with " + f + ", not a plain tensor");
    PickleValue other;
    other.kind = PickleValue::Kind::kOther;
    return make(std::move(other));
  }

  std::vector<int64_t> integers(const Value& v, const char* what) {
    if (v->kind != PickleValue::Kind::kTuple)
      fail(std::string("has a tensor ") + what + " that is not a tuple");
    std::vector<int64_t> out;
    for (const Value& item : v->items) {
      if (item->kind != PickleValue::Kind::kInt)
        fail(std::string("has a tensor ") + what + " that is not integers");
      out.push_back(item->integer);
    }
    return out;
  }

  Value rebuild_tensor(bool v3, const std::vector<Value>& a) {
    if (a.size() < (v3 ? 7u : 5u) || a[0]->kind != PickleValue::Kind::kStorage ||
        a[1]->kind != PickleValue::Kind::kInt)
      fail("rebuilds a tensor from arguments of an unknown form");
    const DTypeName* dtype = a[0]->dtype;
    if (v3) {
      if (a[6]->kind != PickleValue::Kind::kGlobal) fail("names no dtype for its tensor");
      dtype = a[6]->dtype;
      if (dtype == nullptr)
        fail("holds a " + a[6]->text + " tensor, which has no element type here");
    }
    if (dtype == nullptr) fail("holds an untyped storage without a dtype");
    auto t = std::make_shared<TorchTensor>();
    t->dtype = dtype->dtype;
    t->dtype_name = std::string(dtype->torch_name);
    t->storage_offset = a[1]->integer;
    t->shape = integers(a[2], "size");
    t->strides = integers(a[3], "stride");
    t->requires_grad = a[4]->kind == PickleValue::Kind::kBool && a[4]->integer != 0;
    if (t->shape.size() != t->strides.size())
      fail("gives its tensor's size and stride different ranks");
    const auto [bytes, size] = zip_.payload(prefix_ + "data/" + a[0]->text);
    t->storage = bytes;
    t->storage_bytes = size;
    check_extent(*t);
    PickleValue v;
    v.kind = PickleValue::Kind::kTensor;
    v.tensor = std::move(t);
    return make(std::move(v));
  }

  // Every element the size and stride reach lies inside the storage.
  void check_extent(const TorchTensor& t) const {
    const uint64_t item = dtype_storage_size(t.dtype);
    if (t.storage_offset < 0) fail("gives its tensor a negative storage offset");
    uint64_t last = static_cast<uint64_t>(t.storage_offset);
    for (std::size_t i = 0; i < t.shape.size(); ++i) {
      if (t.shape[i] < 0 || t.strides[i] < 0) fail("gives its tensor a negative size or stride");
      if (t.shape[i] == 0) return;  // no elements
      const uint64_t reach = static_cast<uint64_t>(t.shape[i] - 1);
      const uint64_t stride = static_cast<uint64_t>(t.strides[i]);
      if (stride != 0 && reach > (std::numeric_limits<uint64_t>::max() / 2 - last) / stride)
        fail("gives its tensor sizes that overflow");
      last += reach * stride;
    }
    if (last >= t.storage_bytes / item)
      fail("reaches element " + std::to_string(last) + " of a storage of " +
           std::to_string(t.storage_bytes / item));
  }

  ByteCursor cursor_;
  const ZipArchive& zip_;
  std::string prefix_;
  std::vector<Value> stack_;
  std::vector<std::size_t> marks_;
  std::map<uint64_t, Value> memo_;
};

}  // namespace

int64_t TorchTensor::numel() const {
  int64_t n = 1;
  for (const int64_t d : shape) n *= d;
  return n;
}

bool TorchTensor::contiguous() const {
  int64_t expected = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

TorchTensor parse_torch_tensor(const uint8_t* data, std::size_t size, const std::string& path) {
  const ZipArchive zip(data, size, path);
  std::string prefix;  // the archive's one top folder: "<name>/"
  for (const auto& entry : zip.entries()) {
    const std::string& name = entry.first;
    const std::size_t slash = name.find('/');
    if (slash != std::string::npos && name.compare(slash, std::string::npos, "/data.pkl") == 0) {
      prefix = name.substr(0, slash + 1);
      break;
    }
  }
  if (prefix.empty()) zip.fail("not a torch.save file (the archive has no data.pkl)");
  const auto byteorder = zip.entries().find(prefix + "byteorder");
  if (byteorder != zip.entries().end()) {
    const auto [bytes, n] = zip.payload(prefix + "byteorder");
    if (std::string_view(reinterpret_cast<const char*>(bytes), n) != "little")
      zip.fail("was saved on a big-endian machine; only little-endian archives are read");
  }
  const auto [pickle, pickle_size] = zip.payload(prefix + "data.pkl");
  Unpickler unpickler(pickle, pickle_size, zip, prefix);
  const Value root = unpickler.run();
  if (root->kind != PickleValue::Kind::kTensor)
    zip.fail("holds no tensor (torch.save of another object)");
  return *root->tensor;
}

std::string_view torch_storage_class(DType dtype) {
  for (const DTypeName& d : kDTypes)
    if (d.dtype == dtype) return d.storage_class;
  return {};
}

}  // namespace dumpcmp
