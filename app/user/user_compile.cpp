#include "app/user/user_compile.h"

#include <optional>

#include "app/user/user_run.h"
#include "kernels/user/source_scan.h"
#include "kernels/user/user_call.h"
#include "kernels/user/user_gpu.h"

namespace cvz {

UserCompileOutcome compile_user_variant(KernelFamily family, const user::FamilyForms& forms,
                                        const user::SourceFile& source, const std::string& kernel_name) {
    UserCompileOutcome out;
    user::KernelSignature signature;
    if (const Status s = user::select_kernel(source, user::find_kernels(source), kernel_name, &signature); !s) {
        out.error = QString::fromStdString(s.message());
        return out;
    }
    const user::FormChoice form = user::pick_form(signature, forms.forms);
    if (!form.form) {
        out.error = QString::fromStdString(form.error);
        return out;
    }
    const EmulatedCompile compiled = compile_emulated(source, signature);
    out.diagnostics = compiled.diagnostics;
    out.seconds = compiled.seconds;
    if (!compiled.ok) {
        out.error = QStringLiteral("%1 did not compile").arg(QString::fromStdString(signature.name));
        for (const user::Diagnostic& d : compiled.diagnostics)
            if (d.error) {
                out.error = QString::fromStdString(user::format(d));
                break;
            }
        return out;
    }
    // NVRTC too (no GPU needed): registers and static shared memory for the occupancy model and the
    // prediction, and its messages where it refuses what the host compiler took.
    std::optional<KernelResources> resources;
    const user::GpuCompileOutput gpu = user::compile_for_gpu(source, signature, 0);
    if (gpu.compiled())
        resources = KernelResources{gpu.registers, int(gpu.static_shared_bytes)};
    else if (gpu.status)
        for (const user::Diagnostic& d : gpu.diagnostics)
            if (d.error) out.diagnostics.push_back(d);

    UserVariant v;
    v.resources = resources;
    v.name = signature.name;
    v.source = source;
    v.signature = signature;
    v.form = form.form->id;
    v.one_d = forms.is_one_d(*form.form);
    v.barriers = compiled.barriers;
    out.variant = register_user_variant(family, std::move(v));
    if (!out.variant)
        out.error = QStringLiteral("you have %1 kernels of yours in this family: remove one first").arg(kMostUserVariants);
    return out;
}

}  // namespace cvz
