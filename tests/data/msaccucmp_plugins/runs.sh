# Each run: NAME CASE (relative to tests/data) and the compare arguments besides -m/-g/-out, run in
# the case directory; @PLUG@ stands for tests/data/msaccucmp_plugins. Sourced by
# tests/cli/test_msaccucmp_plugins_golden.sh, which defines run().
run nd_restore_npu   msaccucmp/nd_restore          -m left -g right -c @PLUG@/custom -alg MeanDiff,CosineSimilarity,Count,3,Broken,NotStr,NoFunc -a "MeanDiff:scale=2;Count:tag=t"
run ffts_npu         msaccucmp/ffts                -m left -g right -c @PLUG@/custom -alg Count,0,MeanDiff
run shape_override   msaccucmp/original_shape      -m left -g right -c @PLUG@/override -alg 0,1
run basic_fusion     msaccucmp_fusion/basic        -m left -g right -f model.json -c @PLUG@/custom -alg Count,CosineSimilarity,MeanDiff,3
run layouts_fusion   msaccucmp_fusion/layouts      -m left -g right -f model.json -c @PLUG@/custom -alg 1,Count -a "Count:tag=a"
run random3_override msaccucmp_fusion/random3      -m left -g right -f model.json -c @PLUG@/override -alg all
run layouts_conversions msaccucmp_fusion/layouts      -m left -g right -f model.json -c @PLUG@/conversions -alg all
