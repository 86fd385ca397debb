#include "dim3_text.h"

namespace cvz {

std::string to_string(Dim3 d) {
    return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

}  // namespace cvz
