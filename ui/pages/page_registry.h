#pragma once
// The window's pages, one per kernel family, in tab order. A family adds its page's factory to the
// list in page_registry.cpp (one line); the window creates them all and never names one.
#include <vector>

#include "ui/views/display_path.h"

class QWidget;

namespace cvz {

class JobRunner;
class KernelPage;

// What every page is made with: the window's worker and the display path it chose.
struct PageContext {
    JobRunner* jobs = nullptr;
    DisplayPathChoice display;
};

using PageFactory = KernelPage* (*)(const PageContext& context, QWidget* parent);

const std::vector<PageFactory>& page_factories();

}  // namespace cvz
