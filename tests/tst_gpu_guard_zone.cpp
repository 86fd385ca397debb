// The guard zones around a user kernel's buffers on the GPU (kernels/user/guard_zone.h), checked on
// host memory: no GPU needed. The runner calls the same functions on the zones it copies back, and
// places each buffer in its mapped memory as guarded_layout() says (checked here for the H200's 2 MiB
// granules and others).
#include <QtTest>

#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/user/guard_zone.h"

using namespace cvz::user;

namespace {

// A guarded buffer in host memory, laid out as the runner lays it out on the GPU.
struct HostGuarded {
    std::size_t bytes, zone;
    std::vector<std::uint8_t> memory;
    explicit HostGuarded(std::size_t b) : bytes(b), zone(guard_zone_bytes(b)), memory(b + 2 * guard_zone_bytes(b), 0x11) {
        fill_canary(memory.data(), zone);
        fill_canary(memory.data() + zone + bytes, zone);
    }
    std::uint8_t* data() { return memory.data() + zone; }
    std::string check(const std::string& name, std::size_t element_bytes) const {
        return guard_zone_message(name, bytes, element_bytes, zone, find_zone_change(memory.data(), zone),
                                  find_zone_change(memory.data() + zone + bytes, zone));
    }
};

}  // namespace

class TestGpuGuardZone : public QObject {
    Q_OBJECT
private slots:
    void zone_sizes_keep_alignment() {
        QCOMPARE(guard_zone_bytes(0), std::size_t(64 * 1024));
        QCOMPARE(guard_zone_bytes(1), std::size_t(64 * 1024));
        QCOMPARE(guard_zone_bytes(512 * 1024), std::size_t(64 * 1024));
        QCOMPARE(guard_zone_bytes(512 * 1024 + 8), std::size_t(128 * 1024));
        QCOMPARE(guard_zone_bytes(std::size_t(1) << 32), std::size_t(8 * 1024 * 1024));  // at most 8 MiB
        for (std::size_t b : {std::size_t(0), std::size_t(7), std::size_t(1572864), std::size_t(3) << 26})
            QCOMPARE(guard_zone_bytes(b) % 65536, std::size_t(0));
    }

    void canary_is_not_one_value() {
        // A store of any single byte value leaves most of a 64-byte run changed.
        for (int v = 0; v < 256; ++v) {
            int same = 0;
            for (std::size_t k = 0; k < 64; ++k) same += canary_byte(k) == v;
            QVERIFY2(same <= 4, qPrintable(QString::number(v)));
        }
    }

    void untouched_zones_are_no_message() {
        HostGuarded g(1572864);
        std::memset(g.data(), 0xFF, g.bytes);  // the whole buffer written, nothing outside
        QVERIFY(!find_zone_change(g.memory.data(), g.zone));
        QCOMPARE(g.check("out", 1), std::string());
    }

    void stores_past_the_end_are_named() {
        HostGuarded g(1572864);
        // The lecture's 1-D kernel without its guard, 256-thread blocks: three pixels past the end.
        for (std::size_t i = 1572864; i < 1572867; ++i) g.data()[i] = 0;
        QCOMPARE(g.check("out", 1), std::string("out[1572864..1572866] were written, past the end of out (1572864 elements)"));
    }

    void one_element_and_wider_elements() {
        HostGuarded g(4 * 97);  // 97 floats
        std::memset(g.data() + 4 * 97, 0, 4);  // c[97]
        QCOMPARE(g.check("c", 4), std::string("c[97] was written, past the end of c (97 elements)"));
        // One byte of c[99] changed is c[99] (a float store that matched the canary in three bytes).
        g.data()[4 * 99 + 2] = std::uint8_t(canary_byte(4 * 2 + 2) ^ 1);
        QCOMPARE(g.check("c", 4), std::string("c[97..99] were written, past the end of c (97 elements)"));
    }

    void stores_before_the_start_are_named() {
        HostGuarded g(61);
        g.data()[-1] = std::uint8_t(canary_byte(g.zone - 1) ^ 0x80);
        QCOMPARE(g.check("gray", 1), std::string("gray[-1] was written, before the start of gray (61 elements)"));
        HostGuarded f(4 * 13);
        std::memset(f.data() - 12, 0x42, 8);  // f[-3] and f[-2]
        QCOMPARE(f.check("m", 4), std::string("m[-3..-2] were written, before the start of m (13 elements)"));
    }

    void both_sides_at_once() {
        HostGuarded g(127);
        g.data()[-5] = std::uint8_t(canary_byte(g.zone - 5) + 1);
        g.data()[127 + 1000] = std::uint8_t(canary_byte(1000) + 1);
        QCOMPARE(g.check("x", 1), std::string("x[-5] was written, before the start of x (127 elements); "
                                              "x[1127] was written, past the end of x (127 elements)"));
    }

    void layout_ends_at_unmapped_memory_data() {
        QTest::addColumn<qulonglong>("bytes");
        QTest::addColumn<qulonglong>("granularity");
        const qulonglong g2 = 2ull << 20;
        for (qulonglong b : {0ull, 1ull, 31ull, 32ull, 33ull, 1000ull, 3000ull, 4097ull, 20564ull, 6220800ull, 1572867ull, g2 - 1, g2, g2 + 1,
                             (64ull << 20) + 96, 3ull << 26})
            QTest::newRow(qPrintable(QString("%1 bytes, 2 MiB").arg(b))) << b << g2;
        QTest::newRow("97 floats, 64 KiB granules") << 388ull << 65536ull;
        QTest::newRow("511 KiB, 64 KiB granules") << 523264ull + 7 << 65536ull;
    }
    void layout_ends_at_unmapped_memory() {
        QFETCH(qulonglong, bytes);
        QFETCH(qulonglong, granularity);
        const GuardedLayout l = guarded_layout(bytes, granularity);
        const std::size_t zone = guard_zone_bytes(bytes);
        // Whole granules: the range, the mapping's start and size.
        QCOMPARE(l.reserved % granularity, 0ull);
        QCOMPARE(l.map_offset % granularity, 0ull);
        QCOMPARE(l.mapped % granularity, 0ull);
        QVERIFY(l.mapped > 0);
        // Unmapped memory before and after the mapping: at least a granule and a guard zone each.
        QVERIFY(l.map_offset >= granularity && l.map_offset >= zone);
        const std::size_t after = l.reserved - l.map_offset - l.mapped;
        QVERIFY(after >= granularity && after >= zone);
        // The buffer: aligned, between its zones, its end rounded to the alignment and no further.
        QCOMPARE(l.data_offset % kBufferAlignment, 0ull);
        QCOMPARE(l.front_zone, l.data_offset - l.map_offset);
        QVERIFY(l.front_zone >= zone);
        QVERIFY(l.front_zone < zone + granularity);  // no more than the rounding to a granule
        QCOMPARE(l.data_offset + bytes + l.back_zone, l.map_offset + l.mapped);  // then unmapped memory
        QVERIFY(l.back_zone < kBufferAlignment);
        QCOMPARE((bytes + l.back_zone) % kBufferAlignment, 0ull);
        if (bytes % kBufferAlignment == 0) QCOMPARE(l.back_zone, 0ull);  // x[n] is the first unmapped byte
    }

    void back_zone_of_the_layout_names_stores() {
        // The lecture's 1-D kernel without its guard over 1000 pixels in blocks of 256: out[1000..1023]
        // land in the 24 bytes of rounding (seen as stores), out[1024] would be unmapped (a fault).
        const GuardedLayout l = guarded_layout(1000, 2u << 20);
        QCOMPARE(l.back_zone, std::size_t(24));
        std::vector<std::uint8_t> front(l.front_zone), back(l.back_zone);
        fill_canary(front.data(), front.size());
        fill_canary(back.data(), back.size());
        for (std::size_t k = 0; k < back.size(); ++k) back[k] = std::uint8_t(~canary_byte(k));
        QCOMPARE(guard_zone_message("out", 1000, 1, l.front_zone, find_zone_change(front.data(), front.size()),
                                    find_zone_change(back.data(), back.size())),
                 std::string("out[1000..1023] were written, past the end of out (1000 elements)"));
        front[l.front_zone - 4] ^= 1;  // out[-4]
        fill_canary(back.data(), back.size());
        QCOMPARE(guard_zone_message("out", 1000, 1, l.front_zone, find_zone_change(front.data(), front.size()),
                                    find_zone_change(back.data(), back.size())),
                 std::string("out[-4] was written, before the start of out (1000 elements)"));
        // A buffer whose size is a multiple of the alignment has no back zone: nothing to name there.
        QCOMPARE(guarded_layout(4096, 2u << 20).back_zone, std::size_t(0));
        QVERIFY(!find_zone_change(back.data(), 0));
    }

    void far_end_of_a_zone() {
        // The last byte of the back zone, and the first of the front one: the zone's whole reach.
        HostGuarded g(1);
        g.memory.back() ^= 0xFF;
        g.memory.front() ^= 0xFF;
        const long long reach = (long long)g.zone;
        QCOMPARE(g.check("o", 1), "o[" + std::to_string(-reach) + "] was written, before the start of o (1 element); o[" +
                                      std::to_string(reach) + "] was written, past the end of o (1 element)");
    }
};

QTEST_APPLESS_MAIN(TestGpuGuardZone)
#include "tst_gpu_guard_zone.moc"
