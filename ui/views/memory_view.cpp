#include "ui/views/memory_view.h"

#include <algorithm>
#include <map>
#include <set>

#include <QComboBox>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTabBar>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include "app/jobs/counted.h"
#include "ui/views/block_colors.h"

namespace cvz {

namespace {

constexpr std::uint64_t kSector = 32;  // bytes: the unit global memory moves
constexpr int kBanks = 32;              // shared memory: 32 banks of 4-byte words
constexpr int kLabelWidth = 64;

QString bytes_text(std::uint64_t v) { return QLocale().toString(qulonglong(v)); }

// The figures line under a request's title.
QString figures_text(const DrawnRequest& r) {
    if (r.constant) {
        QString s = QObject::tr("%1 · %2, ideal %3")
                        .arg(counted(qulonglong(r.lanes.size()), QObject::tr("lane"), QObject::tr("lanes")),
                             counted(qulonglong(r.wavefronts), QObject::tr("pass"), QObject::tr("passes")))
                        .arg(r.ideal_wavefronts);
        if (r.wavefronts > r.ideal_wavefronts)
            s += QStringLiteral(" · ") + counted(qulonglong(r.wavefronts - r.ideal_wavefronts), QObject::tr("serialised replay"),
                                                 QObject::tr("serialised replays"));
        else if (r.lanes.size() > 1)
            s += QObject::tr(" · a broadcast");
        return s;
    }
    if (r.shared) {
        QString s = QObject::tr("%1 · %2, ideal %3")
                        .arg(counted(qulonglong(r.lanes.size()), QObject::tr("lane"), QObject::tr("lanes")),
                             counted(qulonglong(r.wavefronts), QObject::tr("wavefront"), QObject::tr("wavefronts")))
                        .arg(r.ideal_wavefronts);
        if (r.wavefronts > r.ideal_wavefronts)
            s += QStringLiteral(" · ") + counted(qulonglong(r.wavefronts - r.ideal_wavefronts), QObject::tr("bank conflict"), QObject::tr("bank conflicts"));
        return s;
    }
    std::uint64_t used = 0;
    std::set<std::uint64_t> bytes;
    for (const DrawnLane& l : r.lanes)
        for (int b = 0; b < l.bytes; ++b) bytes.insert(l.offset + std::uint64_t(b));
    used = bytes.size();
    QString s = QObject::tr("%1 · %2, ideal %3 · %4 of %5 bytes used")
                    .arg(counted(qulonglong(r.lanes.size()), QObject::tr("lane"), QObject::tr("lanes")),
                         counted(qulonglong(r.sectors), QObject::tr("sector"), QObject::tr("sectors")))
                    .arg(r.ideal_sectors).arg(bytes_text(used)).arg(bytes_text(std::uint64_t(r.sectors) * kSector));
    return s;
}

}  // namespace

// A canvas of the view (either mode's): it follows the mouse, paints every pixel, and its tooltip is
// tipAt()'s text at the pointer (none where that is empty).
class ViewCanvas : public QWidget {
public:
    explicit ViewCanvas(MemoryView* view) : QWidget(view), view_(view) {
        setMouseTracking(true);
        setAttribute(Qt::WA_OpaquePaintEvent);
    }

protected:
    virtual QString tipAt(QPoint pos) const = 0;

    bool event(QEvent* e) override {
        if (e->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(e);
            const QString tip = tipAt(help->pos());
            if (tip.isEmpty()) QToolTip::hideText();
            else QToolTip::showText(help->globalPos(), tip, this);
            return true;
        }
        return QWidget::event(e);
    }

    MemoryView* view_;
};

// The painted requests, stacked; MemoryView lays them out for the canvas's width.
class MemoryCanvas : public ViewCanvas {
public:
    explicit MemoryCanvas(MemoryView* view) : ViewCanvas(view) {}

    struct Row {
        std::uint64_t sector = 0;  // byte offset of the sector's start
        QRect rect;                // its 32 cells
    };
    struct Layout {
        QRect whole;
        QRect title;
        std::vector<Row> rows;                                // global: one per touched sector
        std::vector<QRect> gaps;                              // global: elided stretches between sectors
        using GroupWord = std::pair<int, std::uint64_t>;       // shared: (group of lanes, word index)
        std::map<GroupWord, QRect> words;                     // shared: -> cell
        std::map<GroupWord, std::vector<int>> word_lanes;     // shared: -> lanes that touch it
        std::set<GroupWord> conflicts;                        // shared: a bank's second and later words
        std::vector<std::pair<QRect, QString>> group_labels;  // shared, 8- and 16-byte accesses: "lanes 0–7"
        QRect banks;                                          // shared: the bank header
        std::vector<std::pair<std::uint64_t, QRect>> passes;  // constant: (word's byte offset, its row of 32 lanes)
        int cell = 0;
    };
    std::vector<Layout> layouts;

    void relayout() {
        layouts.clear();
        const QFontMetrics fm(font());
        const int line = fm.height();
        const int cell = std::max(6, (width() - kLabelWidth - 12) / 32);
        const int row_h = std::max(line, std::min(cell, 18));
        int y = 4;
        for (const DrawnRequest& r : view_->requests_) {
            Layout lay;
            lay.cell = cell;
            const int top = y;
            lay.title = QRect(4, y, width() - 8, 2 * line + 2);
            y += 2 * line + 4;
            const int left = kLabelWidth + 4;
            if (r.constant) {
                std::set<std::uint64_t> words;  // one pass of the constant cache each, in address order
                for (const DrawnLane& l : r.lanes) words.insert(l.offset / 4 * 4);
                for (std::uint64_t w : words) {
                    lay.passes.push_back({w, QRect(left, y, cell * 32, row_h)});
                    y += row_h;
                }
            } else if (!r.shared) {
                std::set<std::uint64_t> sectors;
                for (const DrawnLane& l : r.lanes)
                    for (std::uint64_t s = l.offset / kSector; s <= (l.offset + std::uint64_t(std::max(l.bytes, 1)) - 1) / kSector; ++s)
                        sectors.insert(s * kSector);
                bool first = true;
                std::uint64_t previous = 0;
                for (std::uint64_t s : sectors) {
                    if (!first && s != previous + kSector) {
                        lay.gaps.push_back(QRect(left, y, cell * 32, line));
                        y += line;
                    }
                    lay.rows.push_back({s, QRect(left, y, cell * 32, row_h)});
                    y += row_h;
                    previous = s;
                    first = false;
                }
            } else {
                lay.banks = QRect(left, y, cell * kBanks, line);
                y += line;
                // Lanes served together: the warp for accesses of up to 4 bytes, half-warps for 8,
                // quarter-warps for 16 (as the hardware, and the trace's wavefronts, count them).
                int widest = 4;
                for (const DrawnLane& l : r.lanes) widest = std::max(widest, l.bytes);
                const int group_lanes = 32 / std::min(4, widest / 4);
                std::map<int, std::map<int, std::set<std::uint64_t>>> groups;  // group -> bank -> words
                for (const DrawnLane& l : r.lanes)
                    for (std::uint64_t w = l.offset / 4; w <= (l.offset + std::uint64_t(std::max(l.bytes, 1)) - 1) / 4; ++w) {
                        groups[l.lane / group_lanes][int(w % kBanks)].insert(w);
                        lay.word_lanes[{l.lane / group_lanes, w}].push_back(l.lane);
                    }
                for (const auto& [group, banks] : groups) {
                    int rows = 0;
                    for (const auto& [bank, words] : banks) {
                        int row = 0;
                        for (std::uint64_t w : words) {
                            lay.words[{group, w}] = QRect(left + bank * cell, y + row * row_h, cell, row_h);
                            if (row > 0) lay.conflicts.insert({group, w});
                            ++row;
                        }
                        rows = std::max(rows, row);
                    }
                    if (group_lanes < 32)
                        lay.group_labels.push_back({QRect(4, y, kLabelWidth - 4, row_h),
                                                    QStringLiteral("%1–%2").arg(group * group_lanes).arg(group * group_lanes + group_lanes - 1)});
                    y += rows * row_h + (group_lanes < 32 ? 3 : 0);
                }
            }
            y += 10;
            lay.whole = QRect(0, top, width(), y - top - 4);
            layouts.push_back(std::move(lay));
        }
        setMinimumHeight(y);
        update();
    }

protected:
    void resizeEvent(QResizeEvent* e) override {
        QWidget::resizeEvent(e);
        relayout();
    }

    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), palette().color(QPalette::Base));
        const QFontMetrics fm(font());
        for (std::size_t i = 0; i < layouts.size() && i < std::size_t(view_->requests_.size()); ++i) {
            const DrawnRequest& r = view_->requests_[int(i)];
            const Layout& lay = layouts[i];
            if (r.current) {
                p.setPen(QPen(QColor(230, 170, 0), 2));
                p.drawRect(lay.whole.adjusted(1, 1, -1, -1));
            }
            const bool excess = r.shared || r.constant ? r.wavefronts > r.ideal_wavefronts : r.sectors > r.ideal_sectors;
            p.setPen(palette().color(QPalette::Text));
            QFont bold = font();
            bold.setBold(true);
            p.setFont(bold);
            p.drawText(lay.title.left(), lay.title.top() + fm.ascent(), fm.elidedText(r.title, Qt::ElideRight, lay.title.width()));
            p.setFont(font());
            p.setPen(excess ? MemoryView::conflictColor() : palette().color(QPalette::Text));
            p.drawText(lay.title.left(), lay.title.top() + fm.height() + fm.ascent(),
                       fm.elidedText(figures_text(r), Qt::ElideRight, lay.title.width()));
            if (r.constant) paintConstant(p, r, lay);
            else if (r.shared) paintShared(p, r, lay);
            else paintGlobal(p, r, lay);
        }
    }

    void paintGlobal(QPainter& p, const DrawnRequest& r, const Layout& lay) {
        const QFontMetrics fm(font());
        std::map<std::uint64_t, int> owner;  // byte -> lane
        for (const DrawnLane& l : r.lanes)
            for (int b = 0; b < l.bytes; ++b) owner.emplace(l.offset + std::uint64_t(b), l.lane);
        for (const Row& row : lay.rows) {
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(QRect(2, row.rect.top(), kLabelWidth - 2, row.rect.height()), Qt::AlignRight | Qt::AlignVCenter,
                       QStringLiteral("+%1").arg(bytes_text(row.sector)));
            for (int b = 0; b < 32; ++b) {
                const QRect c(row.rect.left() + b * lay.cell, row.rect.top(), lay.cell, row.rect.height());
                const auto it = owner.find(row.sector + std::uint64_t(b));
                p.fillRect(c.adjusted(0, 1, -1, -1), it == owner.end() ? MemoryView::unusedByteColor() : MemoryView::laneColor(it->second));
            }
            p.setPen(QPen(palette().color(QPalette::Text), 1));
            p.drawRect(row.rect.adjusted(0, 0, -1, -1));
        }
        p.setPen(palette().color(QPalette::PlaceholderText));
        for (const QRect& g : lay.gaps) p.drawText(g, Qt::AlignCenter, QStringLiteral("⋯"));
        (void)fm;
    }

    // A row per pass: its word's offset, then the 32 lanes, coloured where the pass serves them. The
    // second and later passes are the replays: their offsets in red.
    void paintConstant(QPainter& p, const DrawnRequest& r, const Layout& lay) {
        for (std::size_t i = 0; i < lay.passes.size(); ++i) {
            const auto& [word, rect] = lay.passes[i];
            p.setPen(i > 0 ? MemoryView::conflictColor() : palette().color(QPalette::PlaceholderText));
            p.drawText(QRect(2, rect.top(), kLabelWidth - 2, rect.height()), Qt::AlignRight | Qt::AlignVCenter,
                       QStringLiteral("+%1").arg(bytes_text(word)));
            for (const DrawnLane& l : r.lanes)
                if (l.offset / 4 * 4 == word)
                    p.fillRect(QRect(rect.left() + l.lane * lay.cell, rect.top(), lay.cell, rect.height()).adjusted(0, 1, -1, -1),
                               MemoryView::laneColor(l.lane));
            p.setPen(QPen(palette().color(QPalette::Text), 1));
            p.drawRect(rect.adjusted(0, 0, -1, -1));
        }
    }

    void paintShared(QPainter& p, const DrawnRequest& r, const Layout& lay) {
        (void)r;
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(2, lay.banks.top(), kLabelWidth - 2, lay.banks.height()), Qt::AlignRight | Qt::AlignVCenter, tr("bank"));
        for (int b = 0; b < kBanks; b += 4)
            p.drawText(QRect(lay.banks.left() + b * lay.cell, lay.banks.top(), lay.cell * 4, lay.banks.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, QString::number(b));
        const int first_row_top = lay.banks.bottom() + 1;
        for (const auto& [label_rect, label] : lay.group_labels) p.drawText(label_rect, Qt::AlignRight | Qt::AlignVCenter, label);
        for (const auto& [word, rect] : lay.words) {
            const std::vector<int>& lanes = lay.word_lanes.at(word);
            const bool conflict = lay.conflicts.count(word) > 0;
            p.fillRect(rect.adjusted(0, 1, -1, -1), conflict ? MemoryView::conflictColor() : MemoryView::laneColor(lanes.front()));
            if (lanes.size() > 1) {  // a broadcast: one word, several lanes — a white dot
                p.setBrush(Qt::white);
                p.setPen(Qt::black);
                const int d = std::max(3, rect.width() / 3);
                p.drawEllipse(rect.center(), d / 2, d / 2);
                p.setBrush(Qt::NoBrush);
            }
        }
        // The bank columns.
        p.setPen(QPen(palette().color(QPalette::Mid), 1));
        int bottom = first_row_top;
        for (const auto& [word, rect] : lay.words) bottom = std::max(bottom, rect.bottom());
        for (int b = 0; b <= kBanks; ++b)
            p.drawLine(lay.banks.left() + b * lay.cell, first_row_top, lay.banks.left() + b * lay.cell, bottom);
    }

    void mousePressEvent(QMouseEvent* e) override {
        for (std::size_t i = 0; i < layouts.size(); ++i)
            if (layouts[i].whole.contains(e->position().toPoint())) emit view_->requestClicked(int(i));
    }

private:
    QString tipAt(QPoint pos) const override {
        for (std::size_t i = 0; i < layouts.size(); ++i) {
            const Layout& lay = layouts[i];
            const DrawnRequest& r = view_->requests_[int(i)];
            for (const Row& row : lay.rows)
                if (row.rect.contains(pos)) {
                    const std::uint64_t byte = row.sector + std::uint64_t((pos.x() - row.rect.left()) / lay.cell);
                    for (const DrawnLane& l : r.lanes)
                        if (byte >= l.offset && byte < l.offset + std::uint64_t(l.bytes))
                            return tr("%1 byte %2: lane %3 (%4 byte access at %5)").arg(r.buffer, bytes_text(byte)).arg(l.lane).arg(l.bytes).arg(bytes_text(l.offset));
                    return tr("%1 byte %2: moved with the sector, used by no lane").arg(r.buffer, bytes_text(byte));
                }
            for (std::size_t k = 0; k < lay.passes.size(); ++k)
                if (lay.passes[k].second.contains(pos)) {
                    const std::uint64_t word = lay.passes[k].first;
                    QStringList lanes;
                    for (const DrawnLane& l : r.lanes)
                        if (l.offset / 4 * 4 == word) lanes << QString::number(l.lane);
                    return tr("%1 byte %2, pass %3 of %4: lane(s) %5%6")
                        .arg(r.buffer, bytes_text(word))
                        .arg(k + 1)
                        .arg(lay.passes.size())
                        .arg(lanes.join(QStringLiteral(", ")),
                             lay.passes.size() > 1 ? tr(" — the constant cache serves one word a pass: the lanes wait in turn")
                                                   : tr(" — a broadcast, one pass for all"));
                }
            for (const auto& [word, rect] : lay.words)
                if (rect.contains(pos)) {
                    QStringList lanes;
                    for (int l : lay.word_lanes.at(word)) lanes << QString::number(l);
                    return tr("word %1, bank %2: lane(s) %3%4").arg(word.second).arg(word.second % kBanks).arg(lanes.join(QStringLiteral(", ")),
                        lanes.size() > 1 ? tr(" — a broadcast, one wavefront for all") : QString());
                }
        }
        return {};
    }

};


// The shared-layout mode's drawing: each section as rows of 32 words (one per bank), the words in the
// page's colours (padding hatched) with their text where it fits; the selected load's words in their
// lane's colour with the lane's number, a bank's second and later distinct words red.
class LayoutCanvas : public ViewCanvas {
public:
    explicit LayoutCanvas(MemoryView* view) : ViewCanvas(view) {}

    struct Section {
        QRect title, banks;
        int first_row = 0, rows = 0;  // rows of 32 words, from word first_row * 32
        int top = 0;                  // of the first row
    };
    std::vector<Section> sections;
    int cell = 0, row_h = 0;

    void relayout() {
        sections.clear();
        const QFontMetrics fm(font());
        const int line = fm.height();
        cell = std::max(6, (width() - kLabelWidth - 12) / kBanks);
        row_h = std::max(10, std::min(cell, line + 2));
        int y = 4;
        QFont bold = font();
        bold.setBold(true);
        const QFontMetrics bfm(bold);
        for (const SharedLayoutSection& s : view_->layout_.sections) {
            Section sec;
            const int title_h = bfm.boundingRect(QRect(0, 0, std::max(40, width() - 8), 10000), Qt::TextWordWrap, s.title).height();
            sec.title = QRect(4, y, width() - 8, title_h);
            y += title_h + 2;
            sec.banks = QRect(kLabelWidth + 4, y, cell * kBanks, line);
            y += line;
            sec.first_row = s.first_word / kBanks;
            sec.rows = (s.first_word + s.words + kBanks - 1) / kBanks - sec.first_row;
            sec.top = y;
            y += sec.rows * row_h + 10;
            sections.push_back(sec);
        }
        setMinimumHeight(y);
        update();
    }

    QRect wordRect(int word) const {
        for (std::size_t i = 0; i < sections.size(); ++i) {
            const SharedLayoutSection& s = view_->layout_.sections[int(i)];
            if (word < s.first_word || word >= s.first_word + s.words) continue;
            const Section& sec = sections[i];
            return QRect(sec.banks.left() + (word % kBanks) * cell, sec.top + (word / kBanks - sec.first_row) * row_h, cell, row_h);
        }
        return {};
    }

    // The selected load: word -> lanes that read it.
    std::map<int, std::vector<int>> loadWords() const {
        std::map<int, std::vector<int>> out;
        const SharedLayoutDrawing& l = view_->layout_;
        if (l.selected_load < 0 || l.selected_load >= l.loads.size()) return out;
        for (const DrawnLane& lane : l.loads[l.selected_load].lanes)
            for (int w = int(lane.offset / 4); w <= int((lane.offset + std::uint64_t(std::max(lane.bytes, 1)) - 1) / 4); ++w)
                out[w].push_back(lane.lane);
        return out;
    }

protected:
    void resizeEvent(QResizeEvent* e) override {
        QWidget::resizeEvent(e);
        relayout();
    }

    void paintEvent(QPaintEvent* e) override {
        QPainter p(this);
        p.fillRect(rect(), palette().color(QPalette::Base));
        const QFontMetrics fm(font());
        const SharedLayoutDrawing& l = view_->layout_;
        const std::map<int, std::vector<int>> loaded = loadWords();
        const QList<int> conflicts = view_->conflictWords();
        QFont small = font();  // the words' text: a column number, a lane
        small.setPointSizeF(font().pointSizeF() * 0.85);
        const QFontMetrics sm(small);
        QFont bold = font();
        bold.setBold(true);
        for (std::size_t i = 0; i < sections.size(); ++i) {
            const SharedLayoutSection& s = l.sections[int(i)];
            const Section& sec = sections[i];
            if (!e->rect().intersects(QRect(0, sec.title.top(), width(), sec.top + sec.rows * row_h - sec.title.top()))) continue;
            p.setFont(bold);
            p.setPen(palette().color(QPalette::Text));
            p.drawText(sec.title, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, s.title);
            p.setFont(font());
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(QRect(2, sec.banks.top(), kLabelWidth - 2, sec.banks.height()), Qt::AlignRight | Qt::AlignVCenter, tr("bank"));
            const int step = cell * 4 >= fm.horizontalAdvance(QStringLiteral("28")) + 2 ? 4 : 8;
            for (int b = 0; b < kBanks; b += step)
                p.drawText(QRect(sec.banks.left() + b * cell, sec.banks.top(), cell * step, sec.banks.height()),
                           Qt::AlignLeft | Qt::AlignVCenter, QString::number(b));
            // Byte offsets on the left, on every row where they fit, else every few rows.
            const int label_every = std::max(1, (fm.height() + row_h - 1) / row_h);
            for (int r = 0; r < sec.rows; ++r) {
                const int y = sec.top + r * row_h;
                if (y > e->rect().bottom() || y + row_h * label_every < e->rect().top()) continue;
                p.setPen(palette().color(QPalette::PlaceholderText));
                if (r % label_every == 0)
                    p.drawText(QRect(2, y, kLabelWidth - 2, std::max(row_h, fm.height())), Qt::AlignRight | Qt::AlignTop,
                               QStringLiteral("+%1").arg(bytes_text(std::uint64_t(sec.first_row + r) * kBanks * 4)));
                for (int b = 0; b < kBanks; ++b) {
                    const int word = (sec.first_row + r) * kBanks + b;
                    if (word < s.first_word || word >= s.first_word + s.words || std::size_t(word) >= l.words.size()) continue;
                    const QRect c(sec.banks.left() + b * cell, y, cell, row_h);
                    const SharedLayoutWord& w = l.words[std::size_t(word)];
                    const auto hit = loaded.find(word);
                    QString text = w.text;
                    QColor fill = w.color;
                    if (hit != loaded.end()) {
                        fill = conflicts.contains(word) ? MemoryView::conflictColor() : MemoryView::laneColor(hit->second.front());
                        text = QString::number(hit->second.front());
                    }
                    if (fill.isValid()) {
                        p.fillRect(c.adjusted(0, 0, -1, -1), fill);
                    } else {  // padding
                        p.fillRect(c.adjusted(0, 0, -1, -1), QColor(235, 235, 235));
                        p.fillRect(c.adjusted(0, 0, -1, -1), QBrush(QColor(150, 150, 150), Qt::BDiagPattern));
                    }
                    if (!text.isEmpty() && sm.horizontalAdvance(text) + 2 <= cell && sm.height() - 2 <= row_h) {
                        const double luma = fill.isValid() ? 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF() : 1.0;
                        p.setPen(luma > 0.55 ? Qt::black : Qt::white);
                        p.setFont(small);
                        p.drawText(c, Qt::AlignCenter, text);
                        p.setFont(font());
                    }
                    if (hit != loaded.end()) {
                        p.setPen(QPen(palette().color(QPalette::Text), 1));
                        p.drawRect(c.adjusted(0, 0, -1, -1));
                    }
                }
            }
            // Every fourth bank's column a little heavier, to count by.
            p.setPen(QPen(palette().color(QPalette::Mid), 1));
            for (int b = 0; b <= kBanks; b += 4)
                p.drawLine(sec.banks.left() + b * cell, sec.top, sec.banks.left() + b * cell, sec.top + sec.rows * row_h);
        }
    }

private:
    QString tipAt(QPoint pos) const override {
        const SharedLayoutDrawing& l = view_->layout_;
        for (std::size_t i = 0; i < sections.size(); ++i) {
            const Section& sec = sections[i];
            if (pos.x() < sec.banks.left() || pos.x() >= sec.banks.left() + kBanks * cell || pos.y() < sec.top ||
                pos.y() >= sec.top + sec.rows * row_h)
                continue;
            const int word = (sec.first_row + (pos.y() - sec.top) / row_h) * kBanks + (pos.x() - sec.banks.left()) / cell;
            const SharedLayoutSection& s = l.sections[int(i)];
            if (word < s.first_word || word >= s.first_word + s.words || std::size_t(word) >= l.words.size()) return {};
            const SharedLayoutWord& w = l.words[std::size_t(word)];
            QString tip = tr("word %1 (byte %2), bank %3: %4")
                              .arg(word).arg(bytes_text(std::uint64_t(word) * 4)).arg(word % kBanks)
                              .arg(w.tip.isEmpty() ? tr("padding, never written or read") : w.tip);
            const std::map<int, std::vector<int>> loaded = loadWords();
            if (const auto it = loaded.find(word); it != loaded.end()) {
                QStringList lanes;
                for (int lane : it->second) lanes << QString::number(lane);
                tip += tr("\nread by lane(s) %1 in %2").arg(lanes.join(QStringLiteral(", ")), l.loads[l.selected_load].title);
                if (view_->conflictWords().contains(word)) tip += tr(" — a second word in its bank: another wavefront");
            }
            return tip;
        }
        return {};
    }

};

// A label that wraps its text, named for tests.
static QLabel* wrapping_label(QWidget* parent, const QString& name) {
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    return label;
}

// `content` in a frameless area that scrolls vertically and gives it its width.
static QScrollArea* vertical_scroll(QWidget* parent, QWidget* content) {
    auto* scroll = new QScrollArea(parent);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    return scroll;
}

MemoryView::MemoryView(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);
    modes_ = new QTabBar(this);
    modes_->setObjectName(QStringLiteral("memoryModes"));
    modes_->addTab(tr("Warp's requests"));
    modes_->addTab(tr("Shared layout"));
    modes_->setDocumentMode(true);
    modes_->setExpanding(false);
    modes_->hide();
    stack_ = new QStackedWidget(this);
    outer->addWidget(modes_);
    outer->addWidget(stack_, 1);
    auto* requests_page = new QWidget(stack_);
    auto* v = new QVBoxLayout(requests_page);
    v->setContentsMargins(4, 4, 4, 4);
    title_ = wrapping_label(this, QStringLiteral("memoryTitle"));
    message_ = wrapping_label(this, QStringLiteral("memoryMessage"));
    canvas_ = new MemoryCanvas(this);
    canvas_->setObjectName(QStringLiteral("memoryCanvas"));
    scroll_ = vertical_scroll(this, canvas_);
    v->addWidget(title_);
    v->addWidget(message_);
    v->addWidget(scroll_, 1);
    stack_->addWidget(requests_page);
    setMessage(tr("Pick a warp: click a pixel or an element of C, or step the animation."));

    auto* layout_page = new QWidget(stack_);
    auto* lv = new QVBoxLayout(layout_page);
    lv->setContentsMargins(4, 4, 4, 4);
    layout_title_ = wrapping_label(layout_page, QStringLiteral("layoutTitle"));
    loads_ = new QComboBox(layout_page);
    loads_->setObjectName(QStringLiteral("layoutLoads"));
    loads_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    loads_->setMinimumContentsLength(12);
    loads_->setToolTip(tr("Which fragment load of the warp to mark over the banks"));
    load_figures_ = wrapping_label(layout_page, QStringLiteral("layoutFigures"));
    layout_canvas_ = new LayoutCanvas(this);
    layout_canvas_->setObjectName(QStringLiteral("layoutCanvas"));
    layout_scroll_ = vertical_scroll(layout_page, layout_canvas_);
    lv->addWidget(layout_title_);
    lv->addWidget(loads_);
    lv->addWidget(load_figures_);
    lv->addWidget(layout_scroll_, 1);
    stack_->addWidget(layout_page);
    connect(modes_, &QTabBar::currentChanged, stack_, &QStackedWidget::setCurrentIndex);
    connect(loads_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0) selectLoad(i);
    });
}

void MemoryView::setSharedLayout(const SharedLayoutDrawing& layout) {
    layout_ = layout;
    if (layout_.selected_load >= layout_.loads.size()) layout_.selected_load = 0;
    modes_->setVisible(!layout_.empty());
    if (layout_.empty()) {
        modes_->setCurrentIndex(0);
        stack_->setCurrentIndex(0);
    }
    layout_title_->setText(layout_.title);
    layout_title_->setToolTip(layout_.tip);
    {
        const QSignalBlocker block(loads_);
        loads_->clear();
        for (const SharedLayoutLoad& l : layout_.loads) loads_->addItem(l.title);
        loads_->setCurrentIndex(layout_.selected_load);
        loads_->setVisible(!layout_.loads.isEmpty());
    }
    showLoadFigures();
    layout_canvas_->relayout();
}

void MemoryView::showSharedLayout(bool shown) {
    if (shown && layout_.empty()) return;
    modes_->setCurrentIndex(shown ? 1 : 0);
    if (shown) QTimer::singleShot(0, this, &MemoryView::scrollToLoad);  // once the page is laid out at its size
}

// The selected load's first word in view, a third of the way down.
void MemoryView::scrollToLoad() {
    if (layout_.selected_load < 0 || layout_.selected_load >= layout_.loads.size()) return;
    int first = -1;
    for (const DrawnLane& l : layout_.loads[layout_.selected_load].lanes)
        first = first < 0 ? int(l.offset / 4) : std::min(first, int(l.offset / 4));
    const QRect r = layoutWordRect(first);
    if (!r.isNull()) layout_scroll_->ensureVisible(r.center().x(), r.center().y(), 0, layout_scroll_->viewport()->height() / 3);
}

bool MemoryView::sharedLayoutShown() const { return !layout_.empty() && stack_->currentIndex() == 1; }

void MemoryView::selectLoad(int load) {
    if (load < 0 || load >= layout_.loads.size()) return;
    const bool changed = load != layout_.selected_load;
    layout_.selected_load = load;
    if (loads_->currentIndex() != load) {
        const QSignalBlocker block(loads_);
        loads_->setCurrentIndex(load);
    }
    showLoadFigures();
    layout_canvas_->update();
    scrollToLoad();
    if (changed) emit loadSelected(load);
}

void MemoryView::showLoadFigures() {
    if (layout_.selected_load < 0 || layout_.selected_load >= layout_.loads.size()) {
        load_figures_->clear();
        return;
    }
    const SharedLayoutLoad& l = layout_.loads[layout_.selected_load];
    load_figures_->setText(l.figures);
    QPalette pal = load_figures_->palette();
    pal.setColor(QPalette::WindowText, l.wavefronts > l.ideal_wavefronts ? conflictColor() : palette().color(QPalette::WindowText));
    load_figures_->setPalette(pal);
}

QWidget* MemoryView::layoutCanvas() const { return layout_canvas_; }

QRect MemoryView::layoutWordRect(int word) const { return layout_canvas_->wordRect(word); }

QList<int> MemoryView::conflictWords() const {
    QList<int> out;
    if (layout_.selected_load < 0 || layout_.selected_load >= layout_.loads.size()) return out;
    // Per group of lanes served together (the warp for 4-byte accesses, half-warps for 8, quarter-warps
    // for 16, as the trace counts wavefronts): a bank's distinct words after its first.
    const QList<DrawnLane>& lanes = layout_.loads[layout_.selected_load].lanes;
    int widest = 4;
    for (const DrawnLane& l : lanes) widest = std::max(widest, l.bytes);
    const int group_lanes = 32 / std::min(4, widest / 4);
    std::map<std::pair<int, int>, std::set<int>> banks;  // (group, bank) -> distinct words, in address order
    for (const DrawnLane& l : lanes)
        for (int w = int(l.offset / 4); w <= int((l.offset + std::uint64_t(std::max(l.bytes, 1)) - 1) / 4); ++w)
            banks[{l.lane / group_lanes, w % kBanks}].insert(w);
    for (const auto& [bank, words] : banks)
        for (auto it = std::next(words.begin()); it != words.end(); ++it)
            if (!out.contains(*it)) out << *it;
    return out;
}

void MemoryView::setTitle(const QString& text) { title_->setText(text); }

QString MemoryView::title() const { return title_->text(); }

void MemoryView::setRequests(const QList<DrawnRequest>& requests) {
    requests_ = requests;
    message_->setVisible(!message_->text().isEmpty());
    relayout();
    // The animation's step: its first request scrolled into view.
    for (int i = 0; i < requests_.size(); ++i)
        if (requests_[i].current) {
            scroll_->verticalScrollBar()->setValue(requestRect(i).top());
            break;
        }
}

void MemoryView::setMessage(const QString& text) {
    message_->setText(text);
    message_->setVisible(!text.isEmpty());
}

QString MemoryView::message() const { return message_->text(); }

void MemoryView::relayout() { canvas_->relayout(); }

QWidget* MemoryView::canvas() const { return canvas_; }

QList<std::uint64_t> MemoryView::drawnSectors(int request) const {
    QList<std::uint64_t> out;
    if (request < 0 || std::size_t(request) >= canvas_->layouts.size()) return out;
    for (const MemoryCanvas::Row& row : canvas_->layouts[std::size_t(request)].rows) out << row.sector;
    return out;
}

QRect MemoryView::byteRect(int request, std::uint64_t offset) const {
    if (request < 0 || std::size_t(request) >= canvas_->layouts.size()) return {};
    const MemoryCanvas::Layout& lay = canvas_->layouts[std::size_t(request)];
    for (const MemoryCanvas::Row& row : lay.rows)
        if (offset >= row.sector && offset < row.sector + kSector)
            return QRect(row.rect.left() + int(offset - row.sector) * lay.cell, row.rect.top(), lay.cell, row.rect.height());
    return {};
}

QRect MemoryView::wordRect(int request, std::uint64_t offset) const {
    if (request < 0 || std::size_t(request) >= canvas_->layouts.size()) return {};
    const MemoryCanvas::Layout& lay = canvas_->layouts[std::size_t(request)];
    for (const auto& [word, rect] : lay.words)
        if (word.second == offset / 4) return rect;
    return {};
}

QRect MemoryView::passRect(int request, std::uint64_t offset) const {
    if (request < 0 || std::size_t(request) >= canvas_->layouts.size()) return {};
    for (const auto& [word, rect] : canvas_->layouts[std::size_t(request)].passes)
        if (word == offset / 4 * 4) return rect;
    return {};
}

QRect MemoryView::requestRect(int request) const {
    if (request < 0 || std::size_t(request) >= canvas_->layouts.size()) return {};
    return canvas_->layouts[std::size_t(request)].whole;
}

QColor MemoryView::laneColor(int lane) { return color_for_thread(std::uint64_t(lane), 32); }

QColor MemoryView::unusedByteColor() { return QColor(200, 200, 200); }

QColor MemoryView::conflictColor() { return QColor(210, 30, 30); }

void MemoryView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    emit visibilityChanged(true);
}

void MemoryView::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    emit visibilityChanged(false);
}

}  // namespace cvz
