#pragma once
// Shared element math is compiled by g++ (CPU and thrust-omp backends) and by nvcc (cuda backend).
#if defined(__CUDACC__)
#define DUMPCMP_HD __host__ __device__
#else
#define DUMPCMP_HD
#endif
