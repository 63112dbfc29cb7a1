#pragma once
// AMCT quantization rule (`-q`, docs/formats.md §5): merging it into the offline-model rule, and
// msaccucmp's QuantFilter.
#include "fusion/fusion_rule.hpp"

namespace dumpcmp {

// msaccucmp's merge_fusion_rule: each OM op's original names become the union of the original
// names of the quant groups they hit; each output_desc whose origin_name is a quant op is replaced
// by that op's output_desc(s), taking the OM origin_format/shape when the OM format is non-empty.
// Groups are re-keyed (without the L1 number) and re-numbered in iteration order. Ops keep the
// quant_filter flags of the OM parse.
FusionRule merge_quant_rule(const FusionRule& om, const FusionRule& quant);

// QuantFilter (quant_filter.py): classifies ops in op_sequence order by name regex and output
// dtype, and sets quant_filter on ops fed by a quant/middle output whose outputs are not all
// dequant. FusionRule::parse already runs it; running it again gives the same flags.
void apply_quant_filter(FusionRule& rule);

}  // namespace dumpcmp
