// Compiled instead of occupancy_api.cu when the CUDA toolkit was not found at build time: there is no
// runtime to ask, and the app computes occupancy from its device-profile model.
#include "occupancy_api.h"

namespace cvz {

namespace {
Status absent() {
    return Status::error(ErrorKind::Unavailable,
                         "cudaviz was built without the CUDA toolkit; occupancy comes from the device-profile model");
}
}  // namespace

Status cuda_kernel_occupancy(KernelRef, unsigned, std::size_t, int*, int*) { return absent(); }
Status cuda_kernel_resources(KernelRef, KernelResources*) { return absent(); }

}  // namespace cvz
