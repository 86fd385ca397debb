#pragma once

namespace cvz {

// Where the time of one GPU run went, measured with CUDA events on the stream.
struct GpuTimings {
    double upload_ms = 0;
    double kernel_ms = 0;
    double download_ms = 0;
    double total_ms = 0;  // wall time of the whole call, allocation and launch overhead included
};

}  // namespace cvz
