# Decides, in one place, which device backends are built. thrust-omp needs only CCCL's headers (from
# the CUDA toolkit); cuda needs nvcc too. DUMPCMP_CUDA=OFF builds neither.
set(DUMPCMP_BUILD_DEVICE OFF)
set(DUMPCMP_BUILD_CUDA OFF)
if(NOT DUMPCMP_CUDA STREQUAL "OFF")
  find_path(DUMPCMP_CCCL_INCLUDE_DIR thrust/version.h
            HINTS /usr/local/cuda/targets/x86_64-linux/include/cccl /usr/local/cuda/include/cccl
                  /usr/local/cuda/include)
  include(CheckLanguage)
  check_language(CUDA)
  if(DUMPCMP_CCCL_INCLUDE_DIR)
    set(DUMPCMP_BUILD_DEVICE ON)
  endif()
  if(DUMPCMP_SANITIZE AND NOT DUMPCMP_CUDA STREQUAL "ON")
    # nvcc takes no -fsanitize: a sanitizer build checks the device path through thrust-omp.
    message(STATUS "dumpcmp: sanitizer build, cuda backend skipped")
  elseif(CMAKE_CUDA_COMPILER AND DUMPCMP_BUILD_DEVICE)
    set(DUMPCMP_BUILD_CUDA ON)
  elseif(DUMPCMP_CUDA STREQUAL "ON")
    message(FATAL_ERROR "DUMPCMP_CUDA=ON but no CUDA compiler (or CCCL) was found")
  endif()
  message(STATUS "dumpcmp: thrust-omp backend ${DUMPCMP_BUILD_DEVICE}, cuda backend ${DUMPCMP_BUILD_CUDA}")
  if(DUMPCMP_BUILD_CUDA)
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
  endif()
endif()
