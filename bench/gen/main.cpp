// dumpcmp_gen: writes a synthetic pair of NPU dump directories (left = "my output", right = ground
// truth) of one made-up network, for the demo, the end-to-end tests and the benchmarks. The right
// side holds the clean values; the left side the same values with relative noise, in the op's
// dtype.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "fusion_set.hpp"
#include "io/dump_writer.hpp"
#include "synthetic_values.hpp"

namespace {

using namespace dumpcmp;

struct GenOptions {
  std::string out;
  int ops = 20;
  int64_t min_elements = 1;
  int64_t max_elements = 4096;
  std::vector<std::string> dtypes = {"float16", "float32", "bfloat16"};
  int inputs = 1;
  double noise = 1e-3;
  uint64_t seed = 1;
  bool specials = false;
  bool fusion = false;
};

std::string timestamp16(uint64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llu",
                static_cast<unsigned long long>(1700000000000000ull + i * 100));
  return buf;
}

TensorSpec make_tensor(DType dtype, int64_t n, SyntheticValues& values, bool noisy) {
  TensorSpec t;
  t.dtype = dtype;
  t.format = Format::kND;
  t.shape = {n};
  t.original_shape = {n};
  t.bytes = values.encode(dtype, n, noisy);
  return t;
}

void write_op(const GenOptions& o, const std::string& dir, const std::string& op_type,
              const std::string& op_name, uint64_t ts, const DumpSpec& spec) {
  write_binary_dump(dir + "/" + op_type + "." + op_name + ".1.1." + timestamp16(ts), spec);
  (void)o;
}

int run(const GenOptions& o) {
  std::vector<DType> dtypes;
  for (const std::string& name : o.dtypes) {
    DType t;
    if (!parse_dtype(name, t)) {
      std::cerr << "dumpcmp_gen: unknown dtype " << name << '\n';
      return 1;
    }
    dtypes.push_back(t);
  }
  const std::string left = o.out + "/left", right = o.out + "/right";
  std::filesystem::create_directories(left);
  std::filesystem::create_directories(right);
  Rng size_rng(o.seed * 7919 + 1);
  static const char* kTypes[] = {"Conv2D", "Add", "Mul", "MatMul", "Relu", "Cast", "Softmax"};
  uint64_t bytes = 0;
  for (int op = 0; op < o.ops; ++op) {
    const DType dtype = dtypes[static_cast<std::size_t>(op) % dtypes.size()];
    // Log-uniform sizes between min and max elements.
    const double lo = std::log(static_cast<double>(o.min_elements));
    const double hi = std::log(static_cast<double>(o.max_elements));
    const auto n =
        static_cast<int64_t>(std::llround(std::exp(lo + (hi - lo) * size_rng.uniform())));
    const std::string op_name = "layer" + std::to_string(op);
    const std::string op_type = kTypes[op % 7];
    DumpSpec truth, mine;
    truth.op_name = mine.op_name = op_name;
    for (int k = 0; k <= o.inputs; ++k) {
      SyntheticValues values(
          o.seed * 1000003ull + static_cast<uint64_t>(op) * 31 + static_cast<uint64_t>(k), o.noise);
      TensorSpec t = make_tensor(dtype, n, values, false);
      SyntheticValues same(
          o.seed * 1000003ull + static_cast<uint64_t>(op) * 31 + static_cast<uint64_t>(k), o.noise);
      TensorSpec m = make_tensor(dtype, n, same, true);
      bytes += t.bytes.size() + m.bytes.size();
      (k < o.inputs ? truth.inputs : truth.outputs).push_back(std::move(t));
      (k < o.inputs ? mine.inputs : mine.outputs).push_back(std::move(m));
    }
    if (o.specials && op % 5 == 1) special_values(mine.outputs.front());
    write_op(o, left, op_type, op_name, static_cast<uint64_t>(op), mine);
    write_op(o, right, op_type, op_name, static_cast<uint64_t>(op), truth);
  }
  if (o.specials) {
    // One op only the left side has, one only the right side has.
    SyntheticValues values(o.seed, o.noise);
    DumpSpec only;
    only.op_name = "left_only";
    only.outputs.push_back(make_tensor(DType::kFloat, 16, values, false));
    write_op(o, left, "Identity", "left_only", static_cast<uint64_t>(o.ops), only);
    only.op_name = "right_only";
    write_op(o, right, "Identity", "right_only", static_cast<uint64_t>(o.ops + 1), only);
  }
  std::cout << "dumpcmp_gen: wrote " << o.ops << " ops (" << static_cast<double>(bytes) / 1e6
            << " MB) to " << left << " and " << right << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  GenOptions o;
  CLI::App app{"dumpcmp_gen: synthetic NPU dump directories for demos, tests and benchmarks"};
  app.add_option("--out", o.out, "Output directory (gets left/ and right/)")->required();
  app.add_option("--ops", o.ops, "Number of ops")->check(CLI::PositiveNumber);
  app.add_option("--min-elements", o.min_elements, "Smallest tensor (elements)")
      ->check(CLI::PositiveNumber);
  app.add_option("--max-elements", o.max_elements, "Largest tensor (elements)")
      ->check(CLI::PositiveNumber);
  app.add_option("--dtypes", o.dtypes, "Dtypes used round-robin (float16 float32 bfloat16 ...)");
  app.add_option("--inputs", o.inputs, "Inputs per op (each op also has one output)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--noise", o.noise, "Relative noise on the left side");
  app.add_option("--seed", o.seed, "Random seed");
  app.add_flag("--specials", o.specials, "Add NaN/inf/zero tensors and one-sided ops");
  app.add_flag("--fusion", o.fusion,
               "An offline model instead: fp16 NC1HWC0 NPU outputs of --max-elements each, fp32 "
               "NCHW .npy goldens and model.json (compare with -f)");
  CLI11_PARSE(app, argc, argv);
  if (o.fusion) {
    const uint64_t bytes = write_fusion_set({o.out, o.ops, o.max_elements, o.noise, o.seed});
    std::cout << "dumpcmp_gen: wrote an offline model of " << o.ops << " ops ("
              << static_cast<double>(bytes) / 1e6 << " MB) to " << o.out << '\n';
    return 0;
  }
  if (o.min_elements > o.max_elements) {
    std::cerr << "dumpcmp_gen: --min-elements must not exceed --max-elements\n";
    return 1;
  }
  return run(o);
}
