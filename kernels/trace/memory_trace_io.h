#pragma once
// A binary form of a MemoryTrace (and of a launch's block schedule), so that a trace recorded in
// another process (the user kernel's isolated runner, kernels/user/) reaches the caller whole:
// figures, lines, warps and kept requests. Little-endian fixed-width fields behind a magic word and a
// version; reading checks every count against what is left of the bytes, so a damaged file is a
// message naming it, never a crash or a huge allocation.
#include <string>
#include <vector>

#include "../core/block_schedule.h"
#include "memory_trace.h"

namespace cvz {

std::string serialize_memory_trace(const MemoryTrace& trace);
// Fills *out from bytes made by serialize_memory_trace; on failure returns a message naming `source`
// (the file the bytes came from) and leaves *out empty.
std::string deserialize_memory_trace(const std::string& bytes, const std::string& source, MemoryTrace* out);

std::string serialize_block_schedule(const std::vector<BlockTiming>& schedule);
std::string deserialize_block_schedule(const std::string& bytes, const std::string& source,
                                       std::vector<BlockTiming>* out);

}  // namespace cvz
