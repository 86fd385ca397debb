#pragma once
// A Dim3 as text, for error messages.
#include <string>

#include "dim3.h"

namespace cvz {

// "64x32x1".
std::string to_string(Dim3 d);

}  // namespace cvz
