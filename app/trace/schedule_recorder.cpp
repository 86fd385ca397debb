#include "app/trace/schedule_recorder.h"

namespace cvz {

BackendChoice schedule_backend(BackendChoice requested, bool cuda_suits, Status* status) {
    BackendChoice backend = requested;
    if (backend == BackendChoice::Auto)
        backend = cuda_device_available() && cuda_suits ? BackendChoice::Cuda : BackendChoice::Cpu;
    if (backend == BackendChoice::Cuda) *status = cuda_backend_status();
    return backend;
}

}  // namespace cvz
