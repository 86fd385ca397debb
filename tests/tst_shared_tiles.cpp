// static_shared_arrays / square_tile_side (kernels/user/shared_tiles.h): the sides of a user kernel's
// static __shared__ arrays read from its text, as the lessons' tile note needs them.
#include <QtTest>

#include "kernels/user/shared_tiles.h"

using namespace cvz::user;

class TestSharedTiles : public QObject {
    Q_OBJECT
private slots:
    void sides_from_defines_constants_and_literals() {
        const SourceFile f{"k.cu",
                           "#define TW 16 // the tile\n"
                           "const int PAD = 17;\n"
                           "constexpr unsigned BK = 8u;\n"
                           "__global__ void k(float* m) {\n"
                           "    __shared__ float ms[TW][TW];\n"
                           "    __shared__ float pad[TW][PAD], strip[BK];\n"
                           "    __shared__ int odd[3][TW + 1];\n"
                           "    extern __shared__ float dyn[];\n"
                           "    // __shared__ float not_code[99][99];\n"
                           "}\n"};
        const std::vector<SharedArray> a = static_shared_arrays(f);
        QCOMPARE(a.size(), std::size_t(3));  // the extern array and the comment are not counted
        QCOMPARE(a[0].name, std::string("ms"));
        QCOMPARE(a[0].line, 5u);
        QCOMPARE(a[0].dims, (std::vector<unsigned>{16, 16}));
        QCOMPARE(a[1].name, std::string("pad"));
        QCOMPARE(a[1].dims, (std::vector<unsigned>{16, 17}));
        QCOMPARE(a[2].name, std::string("odd"));
        QCOMPARE(a[2].dims, (std::vector<unsigned>{3, 0}));  // an expression: not read
        QCOMPARE(square_tile_side(a), 0u);                     // pad is not square
    }

    void square_side_needs_every_2d_tile_square_and_alike() {
        auto side = [](const char* text) { return square_tile_side(static_shared_arrays(SourceFile{"k.cu", text})); };
        QCOMPARE(side("#define T 32\n__global__ void k(){ __shared__ float a[T][T]; __shared__ float b[T][T]; }"), 32u);
        QCOMPARE(side("__global__ void k(){ __shared__ float a[8][8]; __shared__ float s[64]; }"), 8u);  // 1-D ignored
        QCOMPARE(side("__global__ void k(){ __shared__ float a[8][8]; __shared__ float b[16][16]; }"), 0u);
        QCOMPARE(side("__global__ void k(){ __shared__ float a[N][N]; }"), 0u);  // N unknown
        QCOMPARE(side("__global__ void k(float* p){ p[0] = 1; }"), 0u);
        QCOMPARE(side(""), 0u);
        QCOMPARE(side("__shared__ float a[0x10][0x10];"), 0u);  // only decimal literals are read
    }
};

QTEST_APPLESS_MAIN(TestSharedTiles)
#include "tst_shared_tiles.moc"
