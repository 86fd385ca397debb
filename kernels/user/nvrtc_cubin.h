#pragma once
// A kernel's resources read from its CUBIN (an ELF file), for when NVRTC's log has no ptxas lines:
// with a driver present NVRTC may take the machine code from the CUDA compute cache, and ptxas, not
// run, prints nothing (CUDA_CACHE_DISABLE=1 would stop that, for the whole process). Where they are,
// as CUDA 13's sm_90 CUBINs hold them (checked against ptxas's figures in tst_user_kernel_gpu):
//   registers  section ".nv.info", attribute EIATTR_REGCOUNT (0x2f): {function's symbol index, count}
//   barriers   section ".nv.info.NAME", attribute 0x4c (one-byte value); absent: none
//   shared     the size of ".nv.shared.NAME", less the 1 KB that sm_80 and later reserve per block
// Pure C++, bounds-checked: a foreign or cut file gives found = false.
#include <cstddef>
#include <string>

namespace cvz::user {

struct CubinResources {
    bool found = false;  // the ELF is readable and has the function's code section
    int registers = 0;
    int barriers = 0;
    std::size_t shared_bytes = 0;
};

// `sm`: the architecture compiled for (90), which decides the reserved shared memory.
CubinResources cubin_resources(const std::string& cubin, const std::string& function, int sm);

}  // namespace cvz::user
