#include "ui/pages/page_registry.h"

#include "ui/pages/convolution/convolution_page.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/pages/matmul/matmul_page.h"

namespace cvz {

namespace {

template <class Page>
KernelPage* make_with_display(const PageContext& context, QWidget* parent) {
    return new Page(context.jobs, context.display, parent);
}

template <class Page>
KernelPage* make(const PageContext& context, QWidget* parent) {
    return new Page(context.jobs, parent);
}

}  // namespace

const std::vector<PageFactory>& page_factories() {
    static const std::vector<PageFactory> all = {
        &make_with_display<ImagePage>,
        &make<MatmulPage>,
        &make_with_display<ConvolutionPage>,
    };
    return all;
}

}  // namespace cvz
