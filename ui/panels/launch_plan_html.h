#pragma once
#include <QString>

#include "app/models/launch_plan.h"

namespace cvz {

// The plan's numbers as the launch panel shows them (a table: grid, threads, idle threads, warps,
// partial and divergent warps; items per thread and grid-stride passes when there are several), for
// any page whose session has a LaunchPlan. Numbers in the current locale.
QString launch_plan_html(const LaunchPlan& plan);

}  // namespace cvz
