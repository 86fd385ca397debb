#pragma once
// A problem's size written as its family's CLI writes it: "37x23" (an image), "17x9x13" (M x K x N),
// for the registry's sized inputs (AppFamily::sized_user_call, sized_problem). Family-free.
#include <QString>

#include <cstdint>
#include <vector>

namespace cvz {

// The `parts` positive numbers of `text` ("37x23" with parts 2), each at most `most`; empty with
// *error saying why when it is not such a size.
std::vector<std::uint32_t> parse_problem_size(const QString& text, int parts, std::uint32_t most, QString* error);

}  // namespace cvz
