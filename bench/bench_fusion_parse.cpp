// bench_fusion_parse [MB] [repeats] [keep_path]: writes an atc-style offline-model JSON of about MB
// megabytes (default 200) to a temp file, or to keep_path (then kept, for profiling), and times
// FusionRule::parse_file on it.
// The ops copy the structure of real atc output (the fused Conv2D / Const / TransData ops of
// Ascend/samples resnet-101_quantized.json: attr lists, input_desc, output_desc with the
// _datadump attrs), renamed per op so that every group key is distinct.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "fusion/fusion_rule.hpp"

namespace {

// @N@ = this op's number, @P@ = the previous op's name. About 4.6 KB once filled in.
const char* const kConvTemplate = R"(
{"attr":[{"key":"_datadump_original_op_names","value":{"list":{"s":["BatchNormalization_@N@",
"Conv_@N@","Relu_@N@"],"val_type":"VT_LIST_STRING"}}},{"key":"Conv_@N@Relu_@N@_kernelname",
"value":{"s":"te_fused_op_conv2d_relu_837b884ca47a13d2_0c64f1766900e47c_0__kernel0"}},
{"key":"_session_graph_id","value":{"s":"-1_0"}},{"key":"_output_name_value",
"value":{"list":{"i":[0]}}},{"key":"OUTPUT_IS_VAR","value":{"list":{"b":[false],
"val_type":"VT_LIST_BOOL"}}},{"key":"_tbeKernelSize","value":{"i":6816}},
{"key":"_fusion_op_slice_info",
"value":{"s":"{\\\"l1FusionEnable\\\":2,\\\"minTbeL1Space\\\":0}"}},{"key":"pass_name",
"value":{"s":"TbeCommonRules0FusionPass"}},{"key":"tbe_op_atomic_workspace_flag","value":{"i":0}},
{"key":"tvm_blockdim","value":{"i":2}},{"key":"op_para_size","value":{"i":0}},
{"key":"OwnerGraphIsUnknown","value":{"b":false}},{"key":"fusion_scope","value":{"i":4}},
{"key":"_is_compiled_fusion_op","value":{"b":true}},{"key":"_tbe_kernel_name",
"value":{"s":"Conv_@N@Relu_@N@"}},{"key":"_lxfusion_engine_name","value":{"s":"AIcoreEngine"}},
{"key":"_ge_attr_op_kernel_lib_name","value":{"s":"AIcoreEngine"}},{"key":"_tbe_kernel_buffer",
"value":null},{"key":"_input_name_key","value":{"list":{"s":["__input0","__input1","__input2"]}}},
{"key":"_input_name_value","value":{"list":{"i":[0,1,2]}}},{"key":"imply_type","value":{"i":1}},
{"key":"_op_infer_depends","value":{"list":{"val_type":"VT_LIST_STRING"}}},
{"key":"is_input_const","value":{"list":{"b":[false,true,true],"val_type":"VT_LIST_BOOL"}}},
{"key":"tvm_magic","value":{"s":"RT_DEV_BINARY_MAGIC_ELF"}}],"dst_index":[0],
"dst_name":["Next_@N@"],"has_out_attr":true,"id":@N@,"input":["@P@:0","weight_@N@:0","bias_@N@:0",
"@P@:-1"],"input_desc":[{"attr":[{"key":"origin_shape_range","value":null},
{"key":"origin_data_type","value":{"s":"DT_FLOAT"}},{"key":"infer_format","value":{"i":3}},
{"key":"origin_shape","value":{"list":{"i":[1,64,56,56],"val_type":"VT_LIST_INT"}}},
{"key":"_data_visit_distance","value":{"list":{"i":[0,-1],"val_type":"VT_LIST_INT"}}},
{"key":"origin_format","value":{"s":"NCHW"}}],"device_type":"NPU","dtype":"DT_FLOAT16",
"has_out_attr":true,"layout":"NC1HWC0","real_dim_cnt":4,"shape":{"dim":[1,4,56,56,16]}},
{"attr":[{"key":"origin_format","value":{"s":"NCHW"}},{"key":"infer_format","value":{"i":4}},
{"key":"origin_shape","value":{"list":{"i":[64,64,3,3],"val_type":"VT_LIST_INT"}}},
{"key":"origin_data_type","value":{"s":"DT_FLOAT"}}],"device_type":"NPU","dtype":"DT_FLOAT16",
"has_out_attr":true,"layout":"FRACTAL_Z","real_dim_cnt":4,"shape":{"dim":[36,4,16,16]}},
{"attr":[{"key":"origin_data_type","value":{"s":"DT_FLOAT"}},{"key":"origin_format",
"value":{"s":"NCHW"}},{"key":"origin_shape","value":{"list":{"i":[64],
"val_type":"VT_LIST_INT"}}}],"device_type":"NPU","dtype":"DT_FLOAT16","has_out_attr":true,
"layout":"NCHW","shape":{"dim":[64]}}],"input_i":[402432,84771328,89110016],
"is_input_const":[false,true,true],"name":"Conv_@N@Relu_@N@",
"output_desc":[{"attr":[{"key":"_datadump_origin_data_type","value":{"s":"DT_FLOAT"}},
{"key":"_datadump_origin_name","value":{"s":"Relu_@N@"}},{"key":"_datadump_origin_format",
"value":{"s":"NCHW"}},{"key":"infer_format","value":{"i":3}},{"key":"origin_shape",
"value":{"list":{"i":[1,64,56,56],"val_type":"VT_LIST_INT"}}},
{"key":"_datadump_origin_output_index","value":{"i":0}},{"key":"origin_data_type",
"value":{"s":"DT_FLOAT"}},{"key":"origin_format","value":{"s":"NCHW"}},
{"key":"origin_shape_range","value":null}],"device_type":"NPU","dtype":"DT_FLOAT16",
"has_out_attr":true,"layout":"NC1HWC0","real_dim_cnt":4,"shape":{"dim":[1,4,56,56,16]}}],
"output_i":[2008576],"src_index":[0,0,0],"src_name":["@P@","weight_@N@","bias_@N@"],"stream_id":0,
"type":"Conv2D"})";

const char* const kConstTemplate = R"(
{"attr":[{"key":"_datadump_original_op_names","value":{"list":{"s":["Constant_@N@"],
"val_type":"VT_LIST_STRING"}}},{"key":"_session_graph_id","value":{"s":"-1_0"}},
{"key":"OwnerGraphIsUnknown","value":{"b":false}},{"key":"_output_name_key",
"value":{"list":{"s":["y"]}}},{"key":"_output_name_value","value":{"list":{"i":[0]}}}],
"dst_index":[1],"dst_name":["Conv_@N@Relu_@N@"],"has_out_attr":true,"id":@N@,"name":"weight_@N@",
"output_desc":[{"attr":[{"key":"_datadump_origin_name","value":{"s":"Constant_@N@"}},
{"key":"_datadump_origin_output_index","value":{"i":0}},{"key":"_datadump_origin_format",
"value":{"s":"NCHW"}},{"key":"origin_shape","value":{"list":{"i":[64,64,3,3],
"val_type":"VT_LIST_INT"}}},{"key":"origin_format","value":{"s":"NCHW"}}],"device_type":"NPU",
"dtype":"DT_FLOAT16","has_out_attr":true,"layout":"FRACTAL_Z","real_dim_cnt":4,"shape":{"dim":[36,
4,16,16]}}],"output_i":[84771328],"stream_id":0,"type":"Const"})";

const char* const kTransTemplate = R"(
{"attr":[{"key":"_datadump_original_op_names","value":{"list":{"val_type":"VT_LIST_STRING"}}},
{"key":"_session_graph_id","value":{"s":"-1_0"}},{"key":"src_format","value":{"s":"NCHW"}},
{"key":"dst_format","value":{"s":"NC1HWC0"}},{"key":"_tbe_kernel_name",
"value":{"s":"trans_TransData_@N@"}}],"id":@N@,"input":["@P@:0"],"name":"trans_TransData_@N@",
"output_desc":[{"attr":[{"key":"_datadump_origin_name","value":{"s":"Relu_@N@"}},
{"key":"_datadump_origin_output_index","value":{"i":0}},{"key":"origin_format",
"value":{"s":"NCHW"}}],"dtype":"DT_FLOAT16","layout":"NC1HWC0","shape":{"dim":[1,4,56,56,16]}}],
"type":"TransData"})";

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

std::string fill(const char* pattern, size_t n, const std::string& previous) {
  std::string op = pattern;
  replace_all(op, "@N@", std::to_string(n));
  replace_all(op, "@P@", previous);
  return op;
}

// Writes ops until the file reaches `target` bytes; returns the op count.
size_t write_model(std::FILE* out, size_t target) {
  std::string chunk = R"({"name":"bench","version":1,"graph":[{"name":"bench_0","op":[)";
  size_t written = 0;
  size_t ops = 0;
  std::string previous = "input_0";
  chunk += R"({"name":"input_0","type":"Data","id":0,
      "output_desc":[{"dtype":"DT_FLOAT","attr":[]}]})";
  ++ops;
  for (size_t n = 1; written + chunk.size() < target; ++n) {
    chunk += ",";
    chunk += fill(kConstTemplate, n, previous);
    chunk += ",";
    chunk += fill(kConvTemplate, n, previous);
    previous = "Conv_" + std::to_string(n) + "Relu_" + std::to_string(n);
    ops += 2;
    if (n % 4 == 0) {
      chunk += ",";
      chunk += fill(kTransTemplate, n, previous);
      previous = "trans_TransData_" + std::to_string(n);
      ++ops;
    }
    if (chunk.size() > (1U << 20)) {
      written += std::fwrite(chunk.data(), 1, chunk.size(), out);
      chunk.clear();
    }
  }
  chunk += "]}]}\n";
  written += std::fwrite(chunk.data(), 1, chunk.size(), out);
  return ops;
}

}  // namespace

int main(int argc, char** argv) {
  const double megabytes = argc > 1 ? std::atof(argv[1]) : 200.0;
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  const bool keep = argc > 3;
  std::string path = (std::filesystem::temp_directory_path() / "bench_fusion_XXXXXX").string();
  std::FILE* out = nullptr;
  if (keep) {
    path = argv[3];
    out = std::fopen(path.c_str(), "wb");
  } else {
    const int fd = ::mkstemp(path.data());
    out = fd < 0 ? nullptr : ::fdopen(fd, "wb");
  }
  if (out == nullptr) {
    std::perror(path.c_str());
    return 1;
  }
  const size_t ops = write_model(out, static_cast<size_t>(megabytes * 1e6));
  std::fclose(out);
  const double size_mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  std::cout << "synthetic atc JSON: " << path << ", " << size_mb << " MB, " << ops << " ops\n";

  std::vector<double> seconds;
  int status = 0;
  try {
    for (int r = 0; r < repeats; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const dumpcmp::FusionRule rule = dumpcmp::FusionRule::parse_file(path);
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      seconds.push_back(took.count());
      std::cout << "parse_file: " << took.count() << " s, " << size_mb / took.count() << " MB/s ("
                << rule.ops().size() << " ops, " << rule.groups().size() << " groups)\n";
    }
    std::sort(seconds.begin(), seconds.end());
    std::cout << "best " << seconds.front() << " s = " << size_mb / seconds.front() << " MB/s\n";
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    status = 1;
  }
  if (!keep) std::filesystem::remove(path);
  return status;
}
