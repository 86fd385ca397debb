#pragma once
// Compile and register (issue 27): the editor's "Compile and Run" before the run. The user's text
// becomes a variant of the current family ("yours: NAME", user_variants.h) when one of its kernels fits
// one of the family's forms and compiles for the emulator; the compiler's messages come back either
// way, for the editor's markers. Family-free: the caller passes its family and its forms
// (<family>_user_forms(), kernels/<family>/<family>_user_call.h). Safe on a worker thread (a compile takes a fraction of a
// second: not on the GUI thread).
#include <QString>

#include <string>
#include <vector>

#include "app/user/user_variants.h"
#include "kernels/user/user_call.h"
#include "kernels/user/user_kernel.h"

namespace cvz {

struct UserCompileOutcome {
    UserVariantPtr variant;                     // null on failure
    QString error;                              // why not: no kernel, several without a name, no form fits, a compile error
    // The host compiler's, errors and warnings, on the user's lines; when it took the file, NVRTC's
    // errors follow (the kernel then runs on the emulator only).
    std::vector<user::Diagnostic> diagnostics;
    double seconds = 0;                         // the compile's
    bool ok() const { return variant != nullptr; }
};

UserCompileOutcome compile_user_variant(KernelFamily family, const user::FamilyForms& forms,
                                        const user::SourceFile& source, const std::string& kernel_name = {});

}  // namespace cvz
