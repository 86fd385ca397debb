#pragma once
// How a catalogue kernel's compiled code changes the memory figures that the emulator's trace counts
// per source access (kernels/trace/): what Nsight Compute measured for the same launches on the H200
// (bench/ncu_compare, 2026-12-01: the ten metrics on 97x33 and 1537x1023 images, both layouts, and
// on 97x33@33x61, 257x129@129x255 and 256x128@128x256 matrices). The source view shows it beside
// the per-line figures, so that a learner knows which differences are the compiler's.
#include <string>

namespace cvz {

// One or two sentences for the variant named `name` (each family keeps its own notes, in
// kernels/<family>/<family>_counter_notes.cpp): that the figures equal the hardware's, or how and why
// they differ. Empty for a name that was not measured.
std::string gpu_counter_note(const std::string& name);

}  // namespace cvz
