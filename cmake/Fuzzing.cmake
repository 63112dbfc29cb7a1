# -DDUMPCMP_FUZZ=ON: every object is built for libFuzzer's coverage feedback, with ASan and UBSan
# (scripts/fuzz.sh configures it with clang, no device backends and no MPI).
if(DUMPCMP_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "DUMPCMP_FUZZ needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined
                      -Wno-pass-failed)  # instrumented loops do not vectorise: not an error here
  add_link_options(-fsanitize=address,undefined)
endif()
