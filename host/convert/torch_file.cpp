#include "convert/torch_file.hpp"

#include <string_view>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "io/torch_pt.hpp"
#include "io/zip_writer.hpp"

namespace dumpcmp {
namespace {

// ---- A protocol-2 pickle of torch._utils._rebuild_tensor_v2(storage, 0, size, stride, False,
// OrderedDict()), the storage given as torch's persistent id ('storage', type, key, 'cpu', numel).

class Pickle {
 public:
  Pickle() { out_ += "\x80\x02"; }
  void global(std::string_view module, std::string_view name) {
    out_ += 'c';
    out_ += module;
    out_ += '\n';
    out_ += name;
    out_ += '\n';
  }
  void mark() { out_ += '('; }
  void tuple() { out_ += 't'; }
  void text(std::string_view s) {
    out_ += 'X';
    put_u32(static_cast<uint32_t>(s.size()));
    out_ += s;
  }
  void integer(int64_t v) {
    if (v >= INT32_MIN && v <= INT32_MAX) {
      out_ += 'J';
      put_u32(static_cast<uint32_t>(static_cast<int32_t>(v)));
      return;
    }
    out_ += "\x8a\x08";  // LONG1, 8 bytes little-endian two's complement
    for (int i = 0; i < 8; ++i)
      out_ += static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xFF);
  }
  void integers(const std::vector<int64_t>& values) {
    mark();
    for (const int64_t v : values) integer(v);
    tuple();
  }
  void op(char c) { out_ += c; }
  std::string finish() {
    out_ += '.';
    return std::move(out_);
  }

 private:
  void put_u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out_ += static_cast<char>((v >> (8 * i)) & 0xFF);
  }
  std::string out_;
};

std::string tensor_pickle(std::string_view storage, int64_t numel, const Shape& shape) {
  std::vector<int64_t> stride(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) stride[i - 1] = stride[i] * shape[i];
  Pickle p;
  p.global("torch._utils", "_rebuild_tensor_v2");
  p.mark();
  p.mark();  // the persistent id
  p.text("storage");
  p.global("torch", storage);
  p.text("0");
  p.text("cpu");
  p.integer(numel);
  p.tuple();
  p.op('Q');  // BINPERSID
  p.integer(0);
  p.integers(shape);
  p.integers(stride);
  p.op('\x89');  // NEWFALSE: requires_grad
  p.global("collections", "OrderedDict");
  p.op(')');  // EMPTY_TUPLE
  p.op('R');  // REDUCE: OrderedDict()
  p.tuple();
  p.op('R');  // REDUCE: _rebuild_tensor_v2(...)
  return p.finish();
}

}  // namespace

void write_torch_tensor(const std::string& path, DType dtype, const Shape& shape,
                        const uint8_t* data, std::size_t nbytes) {
  const std::string_view storage = torch_storage_class(dtype);
  if (storage.empty()) {
    throw format_error(path, "torch has no storage type for " +
                                 std::string(dtype_wire_name(dtype)) + " tensors; not written");
  }
  // The archive's offsets and sizes are 32-bit (no zip64 here).
  if (nbytes >= (1ull << 32) - (1ull << 20)) {
    throw format_error(path, "tensors of 4 GiB or more are not written as .pt");
  }
  const std::size_t element = dtype_storage_size(dtype);
  const auto numel = static_cast<int64_t>(element ? nbytes / element : 0);
  const std::string pickle = tensor_pickle(storage, numel, shape);
  AtomicFile file(path);
  ZipWriter zip(file, 64);  // torch aligns each record's data to 64 bytes
  zip.add("archive/data.pkl", pickle.data(), pickle.size());
  zip.add("archive/byteorder", "little", 6);
  zip.add("archive/data/0", data, nbytes);
  zip.add("archive/version", "3\n", 2);
  zip.finish();
  file.commit();
}

}  // namespace dumpcmp
