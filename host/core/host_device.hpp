#pragma once
// Shared element math is compiled by g++ (CPU and thrust-omp backends) and by nvcc (cuda backend).
#if defined(__CUDACC__)
#define DUMPCMP_HD __host__ __device__
#else
#define DUMPCMP_HD
#endif

// Keeps several loads in flight in a GPU thread's strided lane loop (DUMPCMP_LANE_UNROLL
// iterations, set at build time to tune); nothing on the host.
#ifndef DUMPCMP_LANE_UNROLL
#define DUMPCMP_LANE_UNROLL 8
#endif
#define DUMPCMP_PRAGMA(text) _Pragma(#text)
#define DUMPCMP_UNROLL_BY(n) DUMPCMP_PRAGMA(unroll n)
#if defined(__CUDA_ARCH__)
#define DUMPCMP_UNROLL DUMPCMP_UNROLL_BY(DUMPCMP_LANE_UNROLL)
#else
#define DUMPCMP_UNROLL
#endif
