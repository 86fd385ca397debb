// The notes on the convolution kernels' memory figures (kernels/catalogue/gpu_counter_notes.h).
#include "convolution_family.h"

namespace cvz {

// Not yet measured against Nsight Compute for every variant: bench/ncu_compare gives the global figures
// of conv_naive and conv_tiled; until a note is written from its output, none is shown.
std::string ConvolutionFamily::counter_note(const std::string&) { return {}; }

}  // namespace cvz
