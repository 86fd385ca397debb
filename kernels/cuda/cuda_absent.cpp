// Compiled instead of the .cu sources when the CUDA toolkit was not found at build time: every CUDA
// entry point answers "unavailable", and the app runs on the emulator (ARCHITECTURE.md, invariant 3).
#include "../grayscale/grayscale_cuda.h"
#include "cuda_devices.h"
#include "gl_interop.h"

namespace cvz {

namespace {
const char* kNoToolkit = "cudaviz was built without the CUDA toolkit; only the CPU emulator is available";
}

CudaInventory query_cuda_devices() {
    CudaInventory inv;
    inv.status = Status::error(ErrorKind::Unavailable, kNoToolkit);
    return inv;
}

Status grayscale_cuda(const GrayscaleImage&, const LaunchShape&, GpuTimings*, int) {
    return Status::error(ErrorKind::Unavailable, kNoToolkit);
}

// Never constructed: open() refuses every path, so the view draws host results itself.
struct GlInterop::Impl {};
GlInterop::GlInterop(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GlInterop::~GlInterop() = default;
Status GlInterop::open(const GlFunctions&, GLuint, std::uint32_t, std::uint32_t, InteropPath,
                       std::unique_ptr<GlInterop>*) {
    return Status::error(ErrorKind::Unavailable, kNoToolkit);
}
InteropPath GlInterop::path() const { return InteropPath::HostCopy; }
int GlInterop::cuda_device() const { return -1; }
GLuint GlInterop::buffer_texture() const { return 0; }
void GlInterop::frame_drawn() {}
Status GlInterop::read_back(std::uint8_t*) const { return Status::error(ErrorKind::Unavailable, kNoToolkit); }
Status GlInterop::render(const FrameWriter&) { return Status::error(ErrorKind::Unavailable, kNoToolkit); }

}  // namespace cvz
