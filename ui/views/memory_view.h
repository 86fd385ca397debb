#pragma once
#include <QColor>
#include <QList>
#include <QRect>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

class QComboBox;
class QLabel;
class QScrollArea;
class QStackedWidget;
class QTabBar;

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

// A block's shared memory as the memory view's second mode draws it: what each 4-byte word holds (the
// page says, in words and a colour; an invalid colour is padding), in sections (a tile of A, of B),
// and loads of one warp whose words are marked by lane over the 32 banks.
struct SharedLayoutWord {
    QString text;  // in the cell where it fits: "5"
    QString tip;   // "A[3, 5] (row 3, column 5 of the tile)"
    QColor color;  // invalid: padding, drawn hatched
};
struct SharedLayoutSection {
    QString title;  // "A's tile: 128 rows of 16 floats + 4 padding"
    int first_word = 0, words = 0;
};
struct SharedLayoutLoad {
    QString title;    // "A, MMA row 0 · a0"
    QString figures;  // "32 lanes · 32 banks · 1 wavefront: conflict-free"
    QList<DrawnLane> lanes;  // byte offsets from word 0 of the layout
    int wavefronts = 0, ideal_wavefronts = 0;
};
struct SharedLayoutDrawing {
    QString title;  // one line
    QString tip;    // the title's tooltip: what the drawing is
    std::vector<SharedLayoutWord> words;
    QList<SharedLayoutSection> sections;
    QList<SharedLayoutLoad> loads;
    int selected_load = 0;
    bool empty() const { return words.empty(); }
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

    // ---- the shared-layout mode (issue 29): a tab beside the requests while a page gives a layout ----
    void setSharedLayout(const SharedLayoutDrawing& layout);  // an empty one: the mode goes away
    const SharedLayoutDrawing& sharedLayout() const { return layout_; }
    void showSharedLayout(bool shown);
    bool sharedLayoutShown() const;
    void selectLoad(int load);
    int selectedLoad() const { return layout_.selected_load; }
    QWidget* layoutCanvas() const;
    // The cell of word `word` in the layout's canvas (its bank's column, its row of 32 words); null
    // when no section holds it.
    QRect layoutWordRect(int word) const;
    // The words of the selected load that share a bank with an earlier distinct word (drawn red).
    QList<int> conflictWords() const;

    static QColor laneColor(int lane);
    static QColor unusedByteColor();  // bytes of a sector no lane asked for
    static QColor conflictColor();    // a bank's second and later words

signals:
    void visibilityChanged(bool visible);  // shown or hidden (e.g. its dock's tab raised or left)
    void requestClicked(int request);
    void loadSelected(int load);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    friend class MemoryCanvas;
    friend class LayoutCanvas;
    void relayout();
    void showLoadFigures();
    void scrollToLoad();

    QLabel* title_ = nullptr;
    QLabel* message_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    class MemoryCanvas* canvas_ = nullptr;
    QList<DrawnRequest> requests_;

    QTabBar* modes_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QLabel* layout_title_ = nullptr;
    QComboBox* loads_ = nullptr;
    QLabel* load_figures_ = nullptr;
    QScrollArea* layout_scroll_ = nullptr;
    class LayoutCanvas* layout_canvas_ = nullptr;
    SharedLayoutDrawing layout_;
};

}  // namespace cvz
