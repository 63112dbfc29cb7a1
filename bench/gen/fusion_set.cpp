#include "fusion_set.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "io/dump_writer.hpp"
#include "synthetic_values.hpp"

namespace dumpcmp {
namespace {

constexpr int64_t kChannels = 24;  // two C1 blocks, the second half padding
constexpr int64_t kC0 = 16;

std::string timestamp16(uint64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llu",
                static_cast<unsigned long long>(1700000000000000ull + i * 100));
  return buf;
}

// NCHW float32 -> NC1HWC0 float16 bytes (zero padding), through the generator's fp16 rounding.
std::vector<uint8_t> to_nc1hwc0_fp16(const std::vector<float>& nchw, int64_t h, int64_t w) {
  const int64_t c1 = (kChannels + kC0 - 1) / kC0;
  std::vector<float> padded(static_cast<size_t>(c1 * h * w * kC0), 0.0f);
  for (int64_t c = 0; c < kChannels; ++c) {
    for (int64_t y = 0; y < h; ++y) {
      for (int64_t x = 0; x < w; ++x) {
        padded[static_cast<size_t>((((c / kC0) * h + y) * w + x) * kC0 + c % kC0)] =
            nchw[static_cast<size_t>((c * h + y) * w + x)];
      }
    }
  }
  return SyntheticValues::encode_floats(DType::kFloat16, padded);
}

std::string origin_desc(const std::string& name, int64_t h, int64_t w) {
  const std::string dims =
      "[1," + std::to_string(kChannels) + "," + std::to_string(h) + "," + std::to_string(w) + "]";
  return R"({"dtype":"DT_FLOAT16","layout":"NC1HWC0","attr":[)"
         R"({"key":"_datadump_origin_name","value":{"s":")" +
         name +
         R"("}},)"
         R"({"key":"_datadump_origin_output_index","value":{"i":0}},)"
         R"({"key":"_datadump_origin_format","value":{"s":"NCHW"}},)"
         R"({"key":"origin_shape","value":{"list":{"i":)" +
         dims + "}}}]}";
}

}  // namespace

uint64_t write_fusion_set(const FusionSetOptions& o) {
  const std::string left = o.out + "/left", right = o.out + "/right";
  std::filesystem::create_directories(left);
  std::filesystem::create_directories(right);
  const auto side = static_cast<int64_t>(
      std::max(1.0, std::floor(std::sqrt(static_cast<double>(o.elements) / kChannels))));
  const int64_t h = side, w = side, n = kChannels * h * w;
  const int64_t c1 = (kChannels + kC0 - 1) / kC0;
  std::string ops_json;
  uint64_t bytes = 0;
  for (int op = 0; op < o.ops; ++op) {
    const std::string name = "conv" + std::to_string(op);
    SyntheticValues clean(o.seed * 1000003ull + static_cast<uint64_t>(op), o.noise);
    SyntheticValues noisy(o.seed * 1000003ull + static_cast<uint64_t>(op), o.noise);
    const std::vector<float> truth = clean.floats(n, false);
    const std::vector<float> mine = noisy.floats(n, true);

    DumpSpec spec;
    spec.op_name = name;
    TensorSpec out;
    out.dtype = DType::kFloat16;
    out.format = Format::kNC1HWC0;
    out.shape = {1, c1, h, w, kC0};
    out.original_shape = {1, kChannels, h, w};
    out.bytes = to_nc1hwc0_fp16(mine, h, w);
    bytes += out.bytes.size();
    spec.outputs.push_back(std::move(out));
    write_binary_dump(left + "/Conv2D." + name + ".1.1." + timestamp16(static_cast<uint64_t>(op)),
                      spec);
    write_npy(right + "/" + name + ".0." + timestamp16(0) + ".npy", DType::kFloat,
              {1, kChannels, h, w}, reinterpret_cast<const uint8_t*>(truth.data()),
              truth.size() * sizeof(float));
    bytes += truth.size() * sizeof(float);

    if (op) ops_json += ",";
    ops_json += R"({"name":")" + name + R"(","type":"Conv2D","id":)" + std::to_string(op + 1) +
                R"(,"input":[)" + (op ? "\"conv" + std::to_string(op - 1) + ":0\"" : "") +
                R"(],"attr":[{"key":"_datadump_original_op_names","value":{"list":{"s":[")" + name +
                R"("]}}}],"output_desc":[)" + origin_desc(name, h, w) + "]}";
  }
  std::ofstream(o.out + "/model.json")
      << R"({"name":"fusion_bench","graph":[{"name":"fusion_bench_0","op":[)" << ops_json
      << "]}]}\n";
  return bytes;
}

}  // namespace dumpcmp
