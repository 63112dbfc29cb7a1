#include "compare/compare_scenario.hpp"

#include "core/error.hpp"

namespace dumpcmp {
namespace {

// msaccucmp's DumpInfo.get_data_info.
std::string side_text(const Inventory& side) {
  switch (side.kind()) {
    case DumpNameKind::kOffline:
      return std::string("side is dump data of the ") +
             (side.is_quant() ? "quantized" : "unquantized") +
             " model executed on the AI processor";
    case DumpNameKind::kQuant:
      return "side is dump data of the quantized original model";
    default:
      return "side is dump data of the unquantized original model";
  }
}

[[noreturn]] void reject(const std::string& info, const std::string& what) {
  throw Error(ExitCode::kUsage, info + " " + what);
}

}  // namespace

CompareScenario check_compare_scenario(const Inventory& left, const Inventory& right,
                                       const CompareOptions& o) {
  const std::string info =
      "When the left " + side_text(left) + " and the right " + side_text(right) + ",";
  const bool f = !o.fusion_rule_path.empty(), q = !o.quant_rule_path.empty(),
             cf = !o.close_fusion_rule_path.empty();
  const DumpNameKind l = left.kind(), r = right.kind();
  if (l == DumpNameKind::kOffline) {
    if (r == DumpNameKind::kOffline) {
      if (left.is_quant() != right.is_quant()) reject(info, "this scenario cannot be compared.");
      if (f && !cf) reject(info, "the -cf parameter is required.");
      if (!f && cf) reject(info, "the -f parameter is required.");
      if (q) reject(info, "there is no need to enter the -q parameter.");
      return f ? CompareScenario::kFusedVsUnfused : CompareScenario::kNpuVsNpu;
    }
    if (r == DumpNameKind::kQuant) {
      if (!left.is_quant()) reject(info, "this scenario cannot be compared.");
      if (!f) reject(info, "the -f parameter is required.");
      if (q || cf) reject(info, "there is no need to enter the -q or -cf parameter.");
      return CompareScenario::kOfflineVsGolden;
    }
    if (!f) reject(info, "the -f parameter is required.");
    if (cf) reject(info, "there is no need to enter the -cf parameter.");
    if (left.is_quant() && !q) reject(info, "the -q parameter is required.");
    if (!left.is_quant() && q) reject(info, "there is no need to enter the -q parameter.");
    return CompareScenario::kOfflineVsGolden;
  }
  if (l == DumpNameKind::kQuant) {
    if (cf) reject(info, "there is no need to enter the -cf parameter.");
    if (r == DumpNameKind::kOffline || r == DumpNameKind::kQuant) {
      reject(info, "this scenario cannot be compared.");
    }
    if (!q) reject(info, "the -q parameter is required.");
    if (f) reject(info, "there is no need to enter the -f parameter.");
    return CompareScenario::kQuantVsOrigin;
  }
  reject(info, "this scenario cannot be compared.");
}

}  // namespace dumpcmp
