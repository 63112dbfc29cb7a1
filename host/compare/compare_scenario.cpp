#include "compare/compare_scenario.hpp"

#include "compare/compare_messages.hpp"
#include "core/error.hpp"

namespace dumpcmp {
namespace {

// msaccucmp's DumpInfo.get_data_info.
std::string side_text(const Inventory& side) {
  switch (side.kind()) {
    case DumpNameKind::kOffline:
      return msg::scenario_side_offline(side.is_quant());
    case DumpNameKind::kQuant:
      return msg::scenario_side_quantized_original();
    default:
      return msg::scenario_side_original();
  }
}

[[noreturn]] void reject(const Inventory& left, const Inventory& right, const std::string& reason) {
  throw Error(ExitCode::kUsage, msg::scenario_rejected(side_text(left), side_text(right), reason));
}

}  // namespace

CompareScenario check_compare_scenario(const Inventory& left, const Inventory& right,
                                       const CompareOptions& o) {
  const bool f = !o.fusion_rule_path.empty(), q = !o.quant_rule_path.empty(),
             cf = !o.close_fusion_rule_path.empty();
  const DumpNameKind l = left.kind(), r = right.kind();
  if (l == DumpNameKind::kOffline) {
    if (r == DumpNameKind::kOffline) {
      if (left.is_quant() != right.is_quant()) reject(left, right, msg::scenario_not_comparable());
      if (f && !cf) reject(left, right, msg::scenario_parameter_required("-cf"));
      if (!f && cf) reject(left, right, msg::scenario_parameter_required("-f"));
      if (q) reject(left, right, msg::scenario_parameter_not_needed("-q"));
      return f ? CompareScenario::kFusedVsUnfused : CompareScenario::kNpuVsNpu;
    }
    if (r == DumpNameKind::kQuant) {
      if (!left.is_quant()) reject(left, right, msg::scenario_not_comparable());
      if (!f) reject(left, right, msg::scenario_parameter_required("-f"));
      if (q || cf) reject(left, right, msg::scenario_parameter_not_needed("-q or -cf"));
      return CompareScenario::kOfflineVsGolden;
    }
    if (!f) reject(left, right, msg::scenario_parameter_required("-f"));
    if (cf) reject(left, right, msg::scenario_parameter_not_needed("-cf"));
    if (left.is_quant() && !q) reject(left, right, msg::scenario_parameter_required("-q"));
    if (!left.is_quant() && q) reject(left, right, msg::scenario_parameter_not_needed("-q"));
    return CompareScenario::kOfflineVsGolden;
  }
  if (l == DumpNameKind::kQuant) {
    if (cf) reject(left, right, msg::scenario_parameter_not_needed("-cf"));
    if (r == DumpNameKind::kOffline || r == DumpNameKind::kQuant) {
      reject(left, right, msg::scenario_not_comparable());
    }
    if (!q) reject(left, right, msg::scenario_parameter_required("-q"));
    if (f) reject(left, right, msg::scenario_parameter_not_needed("-f"));
    return CompareScenario::kQuantVsOrigin;
  }
  reject(left, right, msg::scenario_not_comparable());
}

}  // namespace dumpcmp
