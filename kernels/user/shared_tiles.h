#pragma once
// The sides of the user's static `__shared__` arrays, read from their text (a token pass, no parser):
// `__shared__ float ms[TW][TW];` with `#define TW 16`, `const int TW = 16;` or a literal gives 16 x 16.
// What a lesson needs to say "your tiles are 32 x 32 but the step launches 16 x 16 blocks"; the
// compiler, not this, judges the code.
#include <string>
#include <vector>

#include "user_kernel.h"

namespace cvz::user {

struct SharedArray {
    std::string name;
    unsigned line = 0;
    std::vector<unsigned> dims;  // each dimension's size; 0 where the text gives no integer for it
};

// Every static `__shared__` array of the file in order (extern ones, which have no size, are left out).
std::vector<SharedArray> static_shared_arrays(const SourceFile& file);

// The side of the file's square 2-D shared tiles: N when every static 2-D shared array is N x N with
// N known, and there is at least one; 0 otherwise.
unsigned square_tile_side(const std::vector<SharedArray>& arrays);

}  // namespace cvz::user
