// The optimisation ladder dialog under Xvfb: a row for every catalogue variant of the family, each
// row's cells the figures the trace, occupancy and register modules give for that launch, the
// "modeled" label and hidden time columns without a GPU, the times and the share of the ceiling with
// (fake, deterministic) timers, Cancel, the launch a double-click chooses, and the window opened from
// the Run menu's shortcut. Waits are on signals only.
#include <algorithm>

#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QGuiApplication>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>

#include "app/matmul/matmul_resources.h"
#include "app/grayscale/grayscale_prediction.h"
#include "app/matmul/matmul_prediction.h"
#include "app/grayscale/grayscale_problem.h"
#include "app/jobs/backend_choice.h"
#include "app/matmul/matmul_app_problem.h"
#include "app/models/kernel_resources.h"
#include "app/tuning/ladder.h"
#include "app/tuning/ladder_runner.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/grayscale/grayscale_trace.h"
#include "kernels/matmul/matmul_trace.h"
#include "ui/windows/ladder_dialog.h"

#include "support/window_waits.h"

using namespace cvz;

namespace {

RgbBuffer odd_image() {
    RgbBuffer im;
    im.width = 61;
    im.height = 29;
    im.bytes.assign(3 * 61 * 29, 90);
    return im;
}

Matrix filled(std::uint32_t r, std::uint32_t c) { return Matrix{r, c, std::vector<float>(std::size_t(r) * c, 1.0f)}; }

// The inputs as the pages offer them (ImagePage, MatmulPage).
void set_image(LadderDialog& d, const RgbBuffer& image, PixelLayout layout = PixelLayout::Interleaved) {
    d.setProblem(make_grayscale_problem(image, layout));
}

void set_matrices(LadderDialog& d, const Matrix& a, const Matrix& b) { d.setProblem(make_matmul_problem(a, b)); }

// Variant i takes (10 - i) us; the ceiling 2 us. From row `hold_at` on it waits for the cancel.
LadderTimers fake_timers(std::size_t hold_at = SIZE_MAX) {
    LadderTimers t;
    t.rows = [=](const SweepRequest&, const std::vector<SweepRow>& rows, const TimingOptions& options) {
        TimingSweep s = run_timing_loop(rows.size(), options, [&](std::size_t i, ShapeTiming* out) {
            if (i >= hold_at && options.cancel) options.cancel->wait();
            out->timed = true;
            out->median_ms = (10.0 - double(i)) * 1e-3;
            out->launches = 20;
            return Status::ok();
        });
        s.device = "Fake GPU";
        return s;
    };
    t.reference = [](const SweepRequest&, const TimingOptions&) {
        LadderReference ref;
        ref.label = QStringLiteral("fake ceiling");
        ref.timing.timed = true;
        ref.timing.median_ms = 2e-3;
        ref.throughput = 1000;
        return ref;
    };
    return t;
}

QString cell(QTableWidget* t, int row, int column) {
    QTableWidgetItem* item = t->item(row, column);
    return item ? item->text() : QString();
}

bool run_to_end(LadderDialog& d) {
    QSignalSpy finished(&d, &LadderDialog::ladderFinished);
    d.startLadder();
    return finished.count() > 0 || finished.wait(120000);
}

}  // namespace

class TestLadderView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);  // settings go to a test location, not the user's
        QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
        QCoreApplication::setApplicationName(QStringLiteral("cudaviz-ladder-view-test"));
        QSettings().clear();
    }

    // The window's size comes back the next time it is opened.
    void size_is_remembered() {
        // A size the screen has room for (Qt's offscreen platform, used on the GPU machine, is 800x600)
        // and the dialog can take (its minimum depends on the fonts).
        const QRect room = QGuiApplication::primaryScreen()->availableGeometry();
        QSize remembered(std::min(930, room.width() - 60), std::min(470, room.height() - 60));
        {
            LadderDialog d;
            d.setTimers({});
            d.show();
            QVERIFY(cvz::test::wait_exposed(&d));
            remembered = remembered.expandedTo(d.minimumSizeHint().expandedTo(d.minimumSize()));
            if (remembered.width() > room.width() || remembered.height() > room.height())
                QSKIP("this screen is smaller than the dialog's minimum size");
            d.resize(remembered);
            QTRY_COMPARE_WITH_TIMEOUT(d.size(), remembered, 120000);
            d.reject();  // Close
        }
        LadderDialog again;
        again.setTimers({});
        again.show();
        QVERIFY(cvz::test::wait_exposed(&again));
        QCOMPARE(again.size(), remembered);
    }

    void without_a_gpu_every_variant_is_listed_and_modeled() {
        LadderDialog d;
        d.setTimers({});
        set_matrices(d, filled(37, 45), filled(45, 29));
        d.setFamily(KernelFamily::Matmul);
        QVERIFY(d.selectProfile(QStringLiteral("H200")));
        d.show();
        QVERIFY(cvz::test::wait_exposed(&d));
        const auto& catalogue = family_catalogue(KernelFamily::Matmul);
        QCOMPARE(d.table()->rowCount(), int(catalogue.size()));
        for (int r = 0; r < d.table()->rowCount(); ++r)
            QCOMPARE(cell(d.table(), r, LadderDialog::kVariant), QString::fromStdString(catalogue[std::size_t(r)].name));
        QVERIFY(d.table()->isColumnHidden(LadderDialog::kGpuUs));
        QVERIFY(d.table()->isColumnHidden(LadderDialog::kOfReference));
        QCOMPARE(d.table()->horizontalHeaderItem(LadderDialog::kThroughput)->text(), QStringLiteral("TFLOP/s"));
        QCOMPARE(d.table()->horizontalHeaderItem(LadderDialog::kOfReference)->text(), QStringLiteral("% of cuBLAS"));
        QVERIFY2(d.noteText().contains(QStringLiteral("modeled")), qPrintable(d.noteText()));

        QVERIFY(run_to_end(d));
        QVERIFY(d.result().modeled);
        QVERIFY2(d.noteText().contains(QStringLiteral("modeled")), qPrintable(d.noteText()));
        // Issue 30, item 10: the footer names no ceiling as if there were one here.
        if (!cuda_device_available())
            QVERIFY2(d.referenceText().startsWith(QStringLiteral("Ceiling: none on this machine")), qPrintable(d.referenceText()));
        QCOMPARE(d.progressBar()->value(), 100);
        // Each row's cells are the modules' own figures for that launch.
        for (int r = 0; r < d.table()->rowCount(); ++r) {
            const LadderRow& row = d.result().rows[std::size_t(r)];
            const TraceResult t = trace_matmul(nullptr, nullptr, 37, 45, 29, matmul_launch_of(row.launch.choice));
            QVERIFY(t.status.is_ok());
            const MemoryMetrics& m = t.trace.totals;
            const double sectors = double(m.global_ld.sectors + m.global_st.sectors) /
                                   double(m.global_ld.requests + m.global_st.requests);
            QVERIFY2(cell(d.table(), r, LadderDialog::kSectors).startsWith(QString::number(sectors, 'f', 2)),
                     qPrintable(cell(d.table(), r, LadderDialog::kSectors)));
            const bool shared = m.shared_ld.requests + m.shared_st.requests > 0;
            QCOMPARE(cell(d.table(), r, LadderDialog::kConflicts),
                     shared ? QString::number(m.shared_ld.bank_conflicts() + m.shared_st.bank_conflicts())
                            : QStringLiteral("—"));
            const Occupancy occ = compute_occupancy(d.profile(), matmul_block_resources(matmul_launch_of(row.launch.choice)));
            QVERIFY2(cell(d.table(), r, LadderDialog::kOccupancy).startsWith(QStringLiteral("%1%").arg(qRound(100 * occ.occupancy))),
                     qPrintable(cell(d.table(), r, LadderDialog::kOccupancy)));
            QCOMPARE(cell(d.table(), r, LadderDialog::kRegisters),
                     QString::number(kernel_resources(row.launch.ref()).registers));
            // The predicted GPU time, without a GPU too, with the model's terms in the tooltip.
            const GpuPrediction p = predict_matmul(d.profile(), matmul_launch_of(row.launch.choice), 37, 45, 29);
            const double us = p.total_us;
            QCOMPARE(cell(d.table(), r, LadderDialog::kPredictedUs), QString::number(us, 'f', us < 100 ? 1 : 0));
            QVERIFY(d.table()->item(r, LadderDialog::kPredictedUs)->toolTip().contains(p.bound));
        }
    }

    void grayscale_rows_match_the_trace() {
        LadderDialog d;
        d.setTimers({});
        set_image(d, odd_image(), PixelLayout::Planar);
        d.setFamily(KernelFamily::Grayscale);
        QCOMPARE(d.table()->rowCount(), int(family_catalogue(KernelFamily::Grayscale).size()));
        QVERIFY(run_to_end(d));
        for (int r = 0; r < d.table()->rowCount(); ++r) {
            const LadderRow& row = d.result().rows[std::size_t(r)];
            const TraceResult t = trace_grayscale(nullptr, 61, 29, PixelLayout::Planar, grayscale_shape(row.launch.choice));
            const MemoryMetrics& m = t.trace.totals;
            QCOMPARE(row.figures.metrics.nsight(), m.nsight());
            QCOMPARE(cell(d.table(), r, LadderDialog::kLoadBytes).toDouble(),
                     QString::number(double(m.global_ld.sectors * 32) / (3.0 * 61 * 29), 'f',
                                     double(m.global_ld.sectors * 32) / (3.0 * 61 * 29) < 1 ? 3 : 2)
                         .toDouble());
            QCOMPARE(cell(d.table(), r, LadderDialog::kWavefronts), QStringLiteral("—"));  // no shared memory
        }
    }

    void with_a_gpu_the_times_and_the_ceiling_fill_in() {
        LadderDialog d;
        d.setTimers(fake_timers());
        set_image(d, odd_image());
        d.setFamily(KernelFamily::Grayscale);
        d.show();
        QVERIFY(cvz::test::wait_exposed(&d));
        QVERIFY(!d.table()->isColumnHidden(LadderDialog::kGpuUs));
        QCOMPARE(d.table()->horizontalHeaderItem(LadderDialog::kOfReference)->text(), QStringLiteral("% of copy"));
        QVERIFY(run_to_end(d));
        QVERIFY(!d.result().modeled);
        for (int r = 0; r < d.table()->rowCount(); ++r) {
            const double ms = (10.0 - r) * 1e-3;
            QCOMPARE(cell(d.table(), r, LadderDialog::kGpuUs), QString::number(ms * 1e3, 'f', 1));
            QCOMPARE(cell(d.table(), r, LadderDialog::kOfReference),
                     QStringLiteral("%1%").arg(100 * grayscale_gb_per_s(61 * 29, ms) / 1000, 0, 'f', 1));
        }
        QVERIFY2(d.referenceText().contains(QStringLiteral("fake ceiling")), qPrintable(d.referenceText()));
        QVERIFY2(d.noteText().contains(QStringLiteral("Fake GPU")), qPrintable(d.noteText()));
        // Every line of the note is shown (two here: the times, then what was traced), at any width.
        QVERIFY(d.noteText().contains(QStringLiteral("traced on the emulator")));
        const int room = QGuiApplication::primaryScreen()->availableGeometry().width();
        const int least = d.minimumSizeHint().expandedTo(d.minimumSize()).width();
        for (int width : {std::max(least, std::min(1200, room - 40)), std::max(least, 700)}) {
            d.resize(width, d.height());
            QTRY_VERIFY_WITH_TIMEOUT(d.width() == width, 120000);
            QTRY_VERIFY_WITH_TIMEOUT(d.noteLabel()->width() < width && d.noteLabel()->width() > width / 2, 120000);
            // At least two lines (the times, then what was traced), and as tall as its text needs at
            // its width: no line cut, whatever the font and the wrap.
            QTRY_VERIFY_WITH_TIMEOUT(d.noteLabel()->height() >= 2 * d.noteLabel()->fontMetrics().lineSpacing(), 120000);
            QTRY_VERIFY_WITH_TIMEOUT(d.noteLabel()->height() >= d.noteLabel()->heightForWidth(d.noteLabel()->width()), 120000);
            QTRY_VERIFY_WITH_TIMEOUT(d.table()->geometry().top() >= d.noteLabel()->geometry().bottom(), 120000);  // nothing covers it
        }
        if (!qEnvironmentVariableIsEmpty("LADDER_GRAB_DIR"))
            d.grab().save(QString::fromLocal8Bit(qgetenv("LADDER_GRAB_DIR")) + QStringLiteral("/ladder_fake.png"));
    }

    void cancel_stops_and_says_so() {
        LadderDialog d;
        d.setTimers(fake_timers(1));
        set_matrices(d, filled(20, 30), filled(30, 17));
        d.setFamily(KernelFamily::Matmul);
        QSignalSpy rows(d.runner(), &LadderRunner::rowUpdated);
        QSignalSpy finished(&d, &LadderDialog::ladderFinished);
        d.startLadder();
        QVERIFY(d.cancelButton()->isEnabled());
        QVERIFY(!d.runButton()->isEnabled());
        QVERIFY(!d.familyBox()->isEnabled());
        const int n = d.table()->rowCount();
        QTRY_VERIFY_WITH_TIMEOUT(rows.count() >= n + 1, 120000);
        d.cancelButton()->click();
        QVERIFY(finished.wait(120000));
        QVERIFY(d.result().cancelled);
        QVERIFY(d.progressBar()->format().contains(QStringLiteral("cancelled")));
        QVERIFY(d.runButton()->isEnabled());
    }

    // On a GPU (the lent H200): the dialog's own timers fill the measured columns and the ceiling.
    void on_a_gpu_the_measured_columns_fill() {
        if (!cuda_device_available()) QSKIP("no CUDA device: the ladder is modeled (tested above)");
        LadderDialog d;
        RgbBuffer im;
        im.width = 3840;
        im.height = 2160;
        im.bytes.assign(3 * std::size_t(im.width) * im.height, 77);
        set_image(d, im);
        d.setFamily(KernelFamily::Grayscale);
        d.show();
        QVERIFY(cvz::test::wait_exposed(&d));
        QVERIFY(!d.table()->isColumnHidden(LadderDialog::kGpuUs));
        QVERIFY(run_to_end(d));
        QVERIFY2(!d.result().modeled, qPrintable(d.noteText()));
        for (int r = 0; r < d.table()->rowCount(); ++r) {
            QVERIFY2(cell(d.table(), r, LadderDialog::kGpuUs) != QStringLiteral("—"), qPrintable(cell(d.table(), r, 0)));
            QVERIFY(cell(d.table(), r, LadderDialog::kOfReference).endsWith(QLatin1Char('%')));
            QStringList cells;
            for (int c : {int(LadderDialog::kVariant), int(LadderDialog::kPredictedUs), int(LadderDialog::kGpuUs),
                          int(LadderDialog::kThroughput), int(LadderDialog::kOfReference)})
                cells << cell(d.table(), r, c);
            qInfo("%s", qPrintable(cells.join(QStringLiteral(" | "))));
        }
        qInfo("%s", qPrintable(d.referenceText()));
        d.grab().save(QString::fromLocal8Bit(qgetenv("LADDER_GRAB_DIR")) + QStringLiteral("/ladder_gpu.png"));
    }

    void double_click_chooses_the_variant() {
        LadderDialog d;
        d.setTimers({});
        set_matrices(d, filled(20, 30), filled(30, 17));
        d.setFamily(KernelFamily::Matmul);
        QSignalSpy chosen(&d, &LadderDialog::launchChosen);
        emit d.table()->cellDoubleClicked(1, 0);
        QCOMPARE(chosen.count(), 1);
        const auto launch = matmul_launch_of(chosen.first().at(0).value<LaunchChoice>());
        QCOMPARE(launch.kernel, MatmulVariant(family_catalogue(KernelFamily::Matmul)[1].variant));
    }
};

QTEST_MAIN(TestLadderView)
#include "tst_ladder_view.moc"
