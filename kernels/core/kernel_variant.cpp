#include "kernel_variant.h"

namespace cvz {

const char* to_string(BlockRule rule) {
    switch (rule) {
        case BlockRule::OneD: return "1d";
        case BlockRule::TwoD: return "2d";
        case BlockRule::Tile: return "tile";
        case BlockRule::Fixed: return "fixed";
    }
    return "unknown";
}

}  // namespace cvz
