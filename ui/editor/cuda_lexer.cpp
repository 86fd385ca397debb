#include "ui/editor/cuda_lexer.h"

#include <QColor>
#include <QFont>
#include <QFontDatabase>
#include <QStringList>

#include <string>

namespace cvz {

QStringList CudaLexer::cudaQualifiers() {
    return {QStringLiteral("__global__"),   QStringLiteral("__device__"),      QStringLiteral("__host__"),
            QStringLiteral("__shared__"),   QStringLiteral("__constant__"),    QStringLiteral("__managed__"),
            QStringLiteral("__restrict__"), QStringLiteral("__forceinline__"), QStringLiteral("__noinline__"),
            QStringLiteral("__launch_bounds__"), QStringLiteral("dim3"),      QStringLiteral("uint3"),
            QStringLiteral("int2"),         QStringLiteral("int3"),            QStringLiteral("int4"),
            QStringLiteral("float2"),       QStringLiteral("float3"),          QStringLiteral("float4"),
            QStringLiteral("uchar4"),       QStringLiteral("half"),            QStringLiteral("size_t")};
}

QStringList CudaLexer::cudaBuiltins() {
    return {QStringLiteral("threadIdx"),  QStringLiteral("blockIdx"),   QStringLiteral("blockDim"),
            QStringLiteral("gridDim"),    QStringLiteral("warpSize"),   QStringLiteral("__syncthreads"),
            QStringLiteral("__syncwarp"), QStringLiteral("__shfl_sync"), QStringLiteral("__shfl_down_sync"),
            QStringLiteral("__shfl_xor_sync"), QStringLiteral("__ldg"), QStringLiteral("atomicAdd"),
            QStringLiteral("atomicSub"),  QStringLiteral("atomicMax"),  QStringLiteral("atomicMin"),
            QStringLiteral("atomicExch"), QStringLiteral("atomicCAS"),  QStringLiteral("fmaf"),
            QStringLiteral("fma"),        QStringLiteral("sqrtf"),      QStringLiteral("rsqrtf"),
            QStringLiteral("expf"),       QStringLiteral("logf"),       QStringLiteral("fabsf"),
            QStringLiteral("fminf"),      QStringLiteral("fmaxf"),      QStringLiteral("min"),
            QStringLiteral("max"),        QStringLiteral("__fdividef"), QStringLiteral("__expf")};
}

CudaLexer::CudaLexer(QObject* parent) : QsciLexerCPP(parent) {
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setDefaultFont(mono);
    setFont(mono);  // every style: the margin's digits and the code line up
    setColor(QColor(0x00, 0x00, 0x9f), Keyword);
    setColor(QColor(0x8e, 0x24, 0xaa), KeywordSet2);  // CUDA's built-ins: the lecture's index words
    QFont bold = mono;
    bold.setBold(true);
    setFont(bold, KeywordSet2);
    setColor(QColor(0x5f, 0x63, 0x68), Comment);
    setColor(QColor(0x5f, 0x63, 0x68), CommentLine);
    setColor(QColor(0x9a, 0x60, 0x00), PreProcessor);
    setColor(QColor(0x0b, 0x7a, 0x3e), Number);
    setColor(QColor(0xa3, 0x15, 0x15), DoubleQuotedString);
}

const char* CudaLexer::keywords(int set) const {
    // Built once: QScintilla keeps the pointer while the lexer lives.
    static const std::string cpp = [this] {
        std::string words = QsciLexerCPP::keywords(1);
        for (const QString& w : cudaQualifiers()) words += ' ' + w.toStdString();
        return words;
    }();
    static const std::string builtins = [] {
        std::string words;
        for (const QString& w : cudaBuiltins()) words += (words.empty() ? "" : " ") + w.toStdString();
        return words;
    }();
    if (set == 1) return cpp.c_str();
    if (set == 2) return builtins.c_str();
    return QsciLexerCPP::keywords(set);
}

}  // namespace cvz
