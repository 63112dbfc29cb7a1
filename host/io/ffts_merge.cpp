#include "io/ffts_merge.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>

#include "core/error.hpp"
#include "core/shape.hpp"
#include "io/byte_sources.hpp"

namespace dumpcmp {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// What msaccucmp reads from a slice's attr JSON (dump_data_object.py).
struct SliceAttr {
  bool automatic = false;                  // threadMode is true
  std::optional<int64_t> slice_count;      // slice_instance_num
  std::vector<std::vector<int>> cut_axes;  // per output: the dims whose outputCutList entry != 1
  // input_/output_tensor_slice[thread][tensor]: higher - lower per dim; nullopt when absent or
  // malformed.
  std::optional<std::vector<std::vector<Shape>>> input_slices, output_slices;
};

// Python's truth value of a JSON value, as `if attr:` reads it.
bool truthy(element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::NULL_VALUE:
      return false;
    case simdjson::dom::element_type::BOOL:
      return e.get_bool().value_unsafe();
    case simdjson::dom::element_type::INT64:
      return e.get_int64().value_unsafe() != 0;
    case simdjson::dom::element_type::UINT64:
      return e.get_uint64().value_unsafe() != 0;
    case simdjson::dom::element_type::DOUBLE:
      return e.get_double().value_unsafe() != 0.0;
    case simdjson::dom::element_type::STRING:
      return !e.get_string().value_unsafe().empty();
    case simdjson::dom::element_type::ARRAY:
      return array(e.get_array().value_unsafe()).size() != 0;
    case simdjson::dom::element_type::OBJECT:
      return object(e.get_object().value_unsafe()).size() != 0;
  }
  return false;
}

// An integral JSON number (Python ints; bools count as 0 and 1 there too).
std::optional<int64_t> integer(element e) {
  int64_t i = 0;
  if (e.get(i) == simdjson::SUCCESS) return i;
  bool b = false;
  if (e.get(b) == simdjson::SUCCESS) return b ? 1 : 0;
  return std::nullopt;
}

// Whether `value != 1` in Python: numbers compare by value, anything else is unequal.
bool not_one(element e) {
  double d = 0;
  if (e.get(d) == simdjson::SUCCESS) return d != 1.0;
  const std::optional<int64_t> i = integer(e);
  return !i || *i != 1;
}

std::optional<std::vector<std::vector<Shape>>> read_slices(element e) {
  array threads;
  if (e.get(threads) != simdjson::SUCCESS) return std::nullopt;
  std::vector<std::vector<Shape>> out;
  for (element thread : threads) {
    array tensors;
    if (thread.get(tensors) != simdjson::SUCCESS) return std::nullopt;
    std::vector<Shape>& shapes = out.emplace_back();
    for (element tensor : tensors) {
      array dims;
      if (tensor.get(dims) != simdjson::SUCCESS) return std::nullopt;
      Shape& shape = shapes.emplace_back();
      for (element dim : dims) {
        element lower, higher;
        std::optional<int64_t> lo, hi;
        if (dim["lower"].get(lower) == simdjson::SUCCESS) lo = integer(lower);
        if (dim["higher"].get(higher) == simdjson::SUCCESS) hi = integer(higher);
        int64_t dim_size = 0;
        if (!lo || !hi || __builtin_sub_overflow(*hi, *lo, &dim_size)) return std::nullopt;
        shape.push_back(dim_size);
      }
    }
  }
  return out;
}

// The slice's attr, or nullopt when it has none that parses to an object.
std::optional<SliceAttr> read_attr(const DumpFile& file) {
  if (file.attrs.empty()) return std::nullopt;
  simdjson::dom::parser parser;
  object top;
  if (parser.parse(file.attrs.front().second).get(top) != simdjson::SUCCESS) return std::nullopt;
  SliceAttr attr;
  element e;
  if (top["threadMode"].get(e) == simdjson::SUCCESS) attr.automatic = truthy(e);
  if (top["slice_instance_num"].get(e) == simdjson::SUCCESS) attr.slice_count = integer(e);
  array cuts;
  if (top["outputCutList"].get(cuts) == simdjson::SUCCESS) {
    for (element output : cuts) {
      std::vector<int>& axes = attr.cut_axes.emplace_back();
      array values;
      if (output.get(values) != simdjson::SUCCESS) continue;
      int d = 0;
      for (element v : values) {
        if (not_one(v)) axes.push_back(d);
        ++d;
      }
    }
  }
  if (top["input_tensor_slice"].get(e) == simdjson::SUCCESS) attr.input_slices = read_slices(e);
  if (top["output_tensor_slice"].get(e) == simdjson::SUCCESS) attr.output_slices = read_slices(e);
  return attr;
}

bool has_cut_axis(const std::optional<SliceAttr>& attr) {
  return attr && std::any_of(attr->cut_axes.begin(), attr->cut_axes.end(),
                             [](const std::vector<int>& axes) { return !axes.empty(); });
}

constexpr uint64_t kAlign = 64;

// Appends bytes to the merged payload at an aligned offset; returns the offset.
uint64_t append_aligned(std::vector<uint8_t>& payload, uint64_t size) {
  const uint64_t at = (payload.size() + kAlign - 1) / kAlign * kAlign;
  payload.resize(at + size);
  return at;
}

// One slice's output as msaccucmp reshapes it: automatic mode takes the shape from the slice's
// output_tensor_slice entry for its thread, manual mode the tensor's own shape.
Shape slice_shape(const DumpFile& slice, const std::optional<SliceAttr>& attr, bool automatic,
                  std::size_t thread, std::size_t k, const TensorInfo& t) {
  if (!automatic) return t.shape;
  if (!attr || !attr->output_slices || thread >= attr->output_slices->size() ||
      k >= (*attr->output_slices)[thread].size()) {
    throw format_error(slice.path,
                       "FFTS+ slice: its attr has no output_tensor_slice entry for "
                       "thread " +
                           std::to_string(thread) + " output " + std::to_string(k));
  }
  return (*attr->output_slices)[thread][k];
}

// Concatenates output k of every slice along `axis` (or takes the first slice's when axis < 0).
TensorInfo merge_output(const std::vector<DumpFile>& slices,
                        const std::vector<std::optional<SliceAttr>>& attrs, bool automatic,
                        std::size_t k, int axis, std::vector<uint8_t>& payload) {
  const TensorInfo& base = slices.front().outputs[k];
  const std::size_t element_size = dtype_storage_size(base.dtype);
  if (element_size == 0 || base.dtype == DType::kUInt1) {
    throw format_error(slices.front().path,
                       "FFTS+ slice output " + std::to_string(k) + " of type " +
                           std::string(dtype_wire_name(base.dtype)) + " cannot be merged");
  }
  std::vector<Shape> shapes;
  for (std::size_t s = 0; s < slices.size(); ++s) {
    const TensorInfo& t = slices[s].outputs[k];
    if (t.dtype != base.dtype) {
      throw format_error(slices[s].path, "FFTS+ slice output " + std::to_string(k) +
                                             " differs in type from the first slice's");
    }
    Shape shape = slice_shape(slices[s], attrs[s], automatic, s, k, t);
    const std::optional<int64_t> want = shape_element_count(shape);
    const std::optional<int64_t> own = shape_element_count(t.shape);
    const uint64_t held =
        own ? std::min<uint64_t>(static_cast<uint64_t>(*own), t.size / element_size) : 0;
    if (t.offset > slices[s].bytes->size() || t.size > slices[s].bytes->size() - t.offset) {
      throw format_error(slices[s].path, "FFTS+ slice output " + std::to_string(k) +
                                             " runs past the end of the file");
    }
    if (!want || !own || held != static_cast<uint64_t>(*want)) {
      throw format_error(slices[s].path, "FFTS+ slice output " + std::to_string(k) + " holds " +
                                             std::to_string(held) + " elements, its slice shape " +
                                             shape_to_string(shape) + " needs " +
                                             (want ? std::to_string(*want) : "an invalid count"));
    }
    shapes.push_back(std::move(shape));
    if (axis < 0) break;  // the first slice's output stands for all
  }

  Shape merged = shapes.front();
  if (axis >= 0) {
    const auto rank = static_cast<int>(merged.size());
    if (axis >= rank) {
      throw format_error(slices.front().path, "FFTS+ cut axis " + std::to_string(axis) +
                                                  " of output " + std::to_string(k) +
                                                  " is past its rank " + std::to_string(rank));
    }
    merged[axis] = 0;
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      bool fits = static_cast<int>(shapes[s].size()) == rank;
      for (int d = 0; fits && d < rank; ++d) fits = d == axis || shapes[s][d] == shapes[0][d];
      if (!fits) {
        throw format_error(slices[s].path,
                           "FFTS+ slice output " + std::to_string(k) + " shape " +
                               shape_to_string(shapes[s]) + " does not join the first slice's " +
                               shape_to_string(shapes[0]) + " along axis " + std::to_string(axis));
      }
      if (__builtin_add_overflow(merged[axis], shapes[s][axis], &merged[axis])) {
        throw format_error(slices[s].path, "FFTS+ slices join to a dim that overflows");
      }
    }
  }
  const std::optional<int64_t> count = shape_element_count(merged);
  if (!count) throw format_error(slices.front().path, "FFTS+ slices join to an invalid shape");

  TensorInfo out = base;
  out.shape = merged;
  out.sub_format = 0;
  out.origin_name.clear();
  out.size = static_cast<uint64_t>(*count) * element_size;
  out.offset = append_aligned(payload, out.size);
  if (out.size == 0) return out;  // nothing to copy, however many empty blocks
  uint8_t* dst = payload.data() + out.offset;
  // outer blocks (dims before the axis) x slices x inner block (the axis and the dims after it)
  int64_t outer = 1, inner = 1;
  if (axis >= 0) {
    for (int d = 0; d < axis; ++d) outer *= merged[d];
    for (std::size_t d = axis + 1; d < merged.size(); ++d) inner *= merged[d];
  }
  for (int64_t o = 0; o < outer; ++o) {
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      const uint64_t block =
          axis < 0 ? out.size : static_cast<uint64_t>(shapes[s][axis] * inner) * element_size;
      const uint8_t* src = slices[s].tensor_data(slices[s].outputs[k]) + o * block;
      std::memcpy(dst, src, block);
      dst += block;
    }
  }
  return out;
}

DumpFile merge(const std::string& path, std::vector<DumpFile> slices) {
  std::vector<std::optional<SliceAttr>> attrs;
  for (const DumpFile& s : slices) attrs.push_back(read_attr(s));
  const std::optional<SliceAttr>& base_attr = attrs.front();
  if (!has_cut_axis(base_attr))
    throw format_error(slices.front().path, "FFTS+ slice has no cut axis");
  const DumpFile& base = slices.front();
  for (const DumpFile& s : slices) {
    if (s.outputs.size() != base.outputs.size()) {
      throw format_error(s.path, "FFTS+ slice has " + std::to_string(s.outputs.size()) +
                                     " outputs, the first slice " +
                                     std::to_string(base.outputs.size()));
    }
  }
  if (base_attr->cut_axes.size() > base.outputs.size()) {
    throw format_error(base.path,
                       "FFTS+ outputCutList names " + std::to_string(base_attr->cut_axes.size()) +
                           " outputs, the slice has " + std::to_string(base.outputs.size()));
  }

  std::vector<uint8_t> payload;
  DumpFile merged;
  merged.path = path;
  merged.encoding = base.encoding;
  merged.version = base.version;
  merged.dump_time = base.dump_time;
  merged.op_name = base.op_name;
  for (const TensorInfo& t : base.inputs) {
    TensorInfo in = t;
    const uint64_t available = t.offset < base.bytes->size()
                                   ? std::min<uint64_t>(t.size, base.bytes->size() - t.offset)
                                   : 0;
    in.offset = append_aligned(payload, available);
    in.size = available;
    if (available) std::memcpy(payload.data() + in.offset, base.tensor_data(t), available);
    merged.inputs.push_back(std::move(in));
  }
  for (std::size_t k = 0; k < base_attr->cut_axes.size(); ++k) {
    const std::vector<int>& axes = base_attr->cut_axes[k];
    merged.outputs.push_back(merge_output(slices, attrs, base_attr->automatic, k,
                                          axes.empty() ? -1 : axes.front(), payload));
  }
  for (const DumpFile& s : slices) {
    const std::string damage = damaged_problem(s);
    if (!damage.empty()) throw Error(ExitCode::kInput, damage);
    merged.ffts_slices.push_back(s.path);
  }
  merged.bytes = std::make_shared<io_detail::OwnedByteSource>(std::move(payload));
  return merged;
}

// msaccucmp's name for the merged file: the first slice's first four name fields and "*".
std::string merged_path(const DumpEntry& first) {
  const std::vector<std::string>& f = first.name.fields;
  std::string name;
  for (std::size_t i = 0; i < 4 && i < f.size(); ++i) name += f[i] + ".";
  return (std::filesystem::path(first.path).parent_path() / (name + "*")).string();
}

}  // namespace

OpDump read_op_dump(const OpDumps& op) {
  OpDump out;
  if (!op.is_ffts() || op.files.size() == 1) {
    out.file = std::make_shared<const DumpFile>(read_dump_file(op.chosen().path));
    return out;
  }
  std::vector<DumpFile> slices;
  for (const DumpEntry& e : op.files) slices.push_back(read_dump_file(e.path));
  const std::optional<SliceAttr> base = read_attr(slices.front());
  const bool mismatch =
      !base || !base->slice_count || *base->slice_count != static_cast<int64_t>(slices.size());
  if (!has_cut_axis(base)) {
    // No cut axis: msaccucmp compares the slice with the largest timestamp field.
    const std::size_t at = static_cast<std::size_t>(&op.chosen() - op.files.data());
    out.slice_count_mismatch = mismatch && at == 0;
    out.file = std::make_shared<const DumpFile>(std::move(slices[at]));
    return out;
  }
  out.slice_count_mismatch = mismatch;
  out.file =
      std::make_shared<const DumpFile>(merge(merged_path(op.files.front()), std::move(slices)));
  return out;
}

DumpFile merge_ffts_slices(const std::string& path, const std::vector<std::string>& slices) {
  std::vector<DumpFile> files;
  for (const std::string& s : slices) files.push_back(read_dump_file(s));
  return merge_ffts_dumps(path, std::move(files));
}

DumpFile merge_ffts_dumps(const std::string& path, std::vector<DumpFile> slices) {
  if (slices.empty()) throw format_error(path, "no FFTS+ slice files to merge");
  return merge(path, std::move(slices));
}

std::string attr_op_name(const DumpFile& file) {
  if (file.attrs.empty() || file.op_name.empty()) return "";
  simdjson::dom::parser parser;
  element root;
  if (parser.parse(file.attrs.front().second).get(root) != simdjson::SUCCESS) return "";
  return truthy(root) ? file.op_name : "";
}

std::optional<std::vector<Shape>> ffts_thread_shapes(const DumpFile& file, TensorGroup group) {
  const std::optional<SliceAttr> attr = read_attr(file);
  if (!attr || !attr->automatic) return std::nullopt;
  const std::string name = std::filesystem::path(file.path).filename().string();
  const std::size_t last = name.rfind('.');
  const std::size_t before =
      last == std::string::npos || last == 0 ? std::string::npos : name.rfind('.', last - 1);
  const std::string field =
      before == std::string::npos ? "" : name.substr(before + 1, last - before - 1);
  if (field.empty() || field.find_first_not_of("0123456789") != std::string::npos ||
      field.size() > 9) {
    throw format_error(file.path,
                       "FFTS+ slice: its name has no thread id in the second-last field");
  }
  const auto thread = static_cast<std::size_t>(std::stoul(field));
  const bool input = group == TensorGroup::kInput;
  const auto& slices = input ? attr->input_slices : attr->output_slices;
  const char* key = input ? "input_tensor_slice" : "output_tensor_slice";
  if (!slices) throw format_error(file.path, std::string("FFTS+ slice: its attr has no ") + key);
  if (slices->empty()) return std::vector<Shape>{};
  if (thread >= slices->size()) {
    throw format_error(file.path, std::string("FFTS+ slice: its attr's ") + key +
                                      " has no entry for thread " + std::to_string(thread));
  }
  return (*slices)[thread];
}

bool is_ffts_dump(const DumpFile& file) {
  if (!file.ffts_slices.empty()) return true;
  if (file.attrs.empty()) return false;
  simdjson::dom::parser parser;
  object top;
  element mode;
  return parser.parse(file.attrs.front().second).get(top) == simdjson::SUCCESS &&
         top["threadMode"].get(mode) == simdjson::SUCCESS && !mode.is_null();
}

}  // namespace dumpcmp
