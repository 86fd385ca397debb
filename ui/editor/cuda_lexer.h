#pragma once
#include <Qsci/qscilexercpp.h>

namespace cvz {

// C++ highlighting with CUDA's words: the qualifiers and types (__global__, __shared__, dim3, ...)
// coloured as keywords, the built-in variables and intrinsics (threadIdx, blockIdx, blockDim,
// gridDim, __syncthreads, atomicAdd, ...) in a colour of their own, so that the lecture's index
// arithmetic stands out from plain C++.
class CudaLexer : public QsciLexerCPP {
    Q_OBJECT
public:
    explicit CudaLexer(QObject* parent = nullptr);

    const char* language() const override { return "CUDA"; }
    // Set 1: C++'s keywords and CUDA's qualifiers and types; set 2: CUDA's built-ins and intrinsics.
    const char* keywords(int set) const override;

    static QStringList cudaQualifiers();
    static QStringList cudaBuiltins();
};

}  // namespace cvz
