#pragma once
// CVZ_HD marks code that runs both on the host (emulator, references) and on the device.
// Under nvcc it is __host__ __device__; elsewhere plain inline, so kernels/ compiles with any C++ compiler.
#if defined(__CUDACC__)
#define CVZ_HD __host__ __device__ __forceinline__
#define CVZ_DEVICE_CODE 1
#else
#define CVZ_HD inline
#endif
