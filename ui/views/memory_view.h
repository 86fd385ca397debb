#pragma once
#include <QList>
#include <QRect>
#include <QString>
#include <QWidget>

#include <cstdint>

class QLabel;
class QScrollArea;

namespace cvz {

// One lane's part of a request: the bytes [offset, offset + bytes) of the buffer (global) or of the
// block's shared memory.
struct DrawnLane {
    int lane = 0;
    std::uint64_t offset = 0;
    int bytes = 0;
};

// One warp request as the memory view draws it, with the figures the trace computed for it.
struct DrawnRequest {
    QString title;   // "line 31 · load rgb" — where and what
    QString buffer;  // "rgb", "A", "shared", "mask"
    bool shared = false;
    bool constant = false;  // a read of constant memory (a __constant__ mask): served one word a pass
    bool store = false;
    QList<DrawnLane> lanes;
    int sectors = 0;        // global: distinct 32-byte sectors
    int ideal_sectors = 0;  // global: the fewest sectors these bytes could take
    int wavefronts = 0;     // shared: passes through the banks; constant: the distinct words, one pass each
    int ideal_wavefronts = 0;
    bool current = false;   // part of the animation's current step: outlined
};

// A warp's requests drawn over the memory they touch (issue 10, item 4). Global: one row per 32-byte
// sector touched, its 32 bytes as cells coloured by the lane that reads or writes them, grey where
// the sector carries bytes nobody asked for; gaps between sectors elided. Shared: the 32 banks as
// columns, one row per wavefront, each word with the lanes that touch it; a second word in a bank (a
// conflict) red, a word read by several lanes marked as a broadcast. Constant: one row per pass of the
// constant cache (a distinct word the lanes read, serialised), the lanes it serves coloured: one row
// for a broadcast, a row per word when the lanes read different ones (the replays in red).
class MemoryView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryView(QWidget* parent = nullptr);

    void setTitle(const QString& text);  // which warp, of which block
    QString title() const;
    void setRequests(const QList<DrawnRequest>& requests);
    const QList<DrawnRequest>& requests() const { return requests_; }
    void setMessage(const QString& text);  // shown instead of requests (nothing picked, tracing…)
    QString message() const;

    // ---- geometry of the drawing (canvas coordinates), for tests and tooltips ----
    QWidget* canvas() const;
    // Global: the sectors drawn for a request, by byte offset of their start, in order.
    QList<std::uint64_t> drawnSectors(int request) const;
    // Global: the cell of byte `offset`; null when the byte's sector is not drawn.
    QRect byteRect(int request, std::uint64_t offset) const;
    // Shared: the cell of the word at byte `offset` (its bank's column, its wavefront's row); null
    // when no lane touches it.
    QRect wordRect(int request, std::uint64_t offset) const;
    // Constant: the row of the pass that serves the word at byte `offset`; null when no lane reads it.
    QRect passRect(int request, std::uint64_t offset) const;
    QRect requestRect(int request) const;  // the request's whole drawing, title included

    static QColor laneColor(int lane);
    static QColor unusedByteColor();  // bytes of a sector no lane asked for
    static QColor conflictColor();    // a bank's second and later words

signals:
    void visibilityChanged(bool visible);  // shown or hidden (e.g. its dock's tab raised or left)
    void requestClicked(int request);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    friend class MemoryCanvas;
    void relayout();

    QLabel* title_ = nullptr;
    QLabel* message_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    class MemoryCanvas* canvas_ = nullptr;
    QList<DrawnRequest> requests_;
};

}  // namespace cvz
