#include "ui/panels/launch_panel.h"

#include "app/user/user_variants.h"

#include <algorithm>

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

#include "kernels/catalogue/kernel_catalogue.h"
#include "ui/panels/launch_shape_box.h"

namespace cvz {

namespace {

constexpr int kMaxThreads = 1024;

struct Preset {
    const char* label;
    Dim3 block;
    bool one_d;
};

const Preset kPresets[] = {
    {"1-D 256 (lecture)", {256, 1, 1}, true},   {"2-D 16×16 (lecture)", {16, 16, 1}, false},
    {"2-D 32×32", {32, 32, 1}, false},          {"2-D 32×8", {32, 8, 1}, false},
    {"2-D 8×32", {8, 32, 1}, false},            {"1-D 1024", {1024, 1, 1}, true},
    {"1-D 33 (partial warps)", {33, 1, 1}, true},
};

// A slider and a spin box kept equal, in one row.
QWidget* slider_row(QSlider** slider, QSpinBox** spin, int max, QWidget* parent) {
    auto* row = new QWidget(parent);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    *slider = new QSlider(Qt::Horizontal, row);
    (*slider)->setRange(1, max);
    (*slider)->setPageStep(32);
    *spin = new QSpinBox(row);
    (*spin)->setRange(1, max);
    (*spin)->setAccelerated(true);
    h->addWidget(*slider, 1);
    h->addWidget(*spin);
    QObject::connect(*slider, &QSlider::valueChanged, *spin, &QSpinBox::setValue);
    QObject::connect(*spin, qOverload<int>(&QSpinBox::valueChanged), *slider, &QSlider::setValue);
    return row;
}

// The TILE kept when switching to a variant that takes one: the last one chosen if it has it, else
// its middle one (16 of {8, 16, 32}).
unsigned pick_tile(const KernelInfo& info, unsigned last) {
    if (info.tiles.empty()) return 0;
    // A fixed block's list is its own parameter, with no chooser here: its first (split-K: 0, the slices
    // chosen from the shape).
    if (info.block == BlockRule::Fixed) return info.tiles.front();
    for (unsigned t : info.tiles)
        if (t == last) return t;
    return info.tiles[info.tiles.size() / 2];
}

// The block a variant starts from when chosen, by its rule, keeping what it can of the current one:
// the thread count for a 1-D block (256 <-> 16x16), a 2-D block as it was.
Dim3 block_for(const KernelInfo& info, Dim3 from, unsigned tile) {
    switch (info.block) {
    case BlockRule::OneD:
        return Dim3{std::clamp<unsigned>(from.x * from.y * from.z, 1u, unsigned(kMaxThreads)), 1, 1};
    case BlockRule::TwoD:
        return from.y > 1 ? Dim3{from.x, from.y, 1} : Dim3{16, 16, 1};
    case BlockRule::Tile:
        return Dim3{tile, tile, 1};
    case BlockRule::Fixed:
        return info.fixed_block;
    }
    return from;
}

// A family's first variant with the lecture's 1-D launch (256 threads), or its 16x16 block.
LaunchChoice first_choice(KernelFamily family) {
    const std::vector<KernelInfo>& kernels = family_catalogue(family);
    if (kernels.empty()) return LaunchChoice{KernelRef{family, 0, 0}, Dim3{256, 1, 1}};
    const KernelInfo& info = kernels.front();
    const unsigned tile = pick_tile(info, 0);
    return LaunchChoice{info.ref(tile), block_for(info, Dim3{256, 1, 1}, tile)};
}

bool takes(const KernelInfo& info, bool one_d) { return info.block == (one_d ? BlockRule::OneD : BlockRule::TwoD); }

// Enables the items of a combo box's list.
void enable_item(QComboBox* box, int index, bool enabled) {
    if (auto* model = qobject_cast<QStandardItemModel*>(box->model()))
        if (QStandardItem* item = model->item(index)) item->setEnabled(enabled);
}

}  // namespace

LaunchPanel::LaunchPanel(QWidget* parent) : QWidget(parent) {
    family_ = kernel_catalogue().empty() ? KernelFamily{} : kernel_catalogue().front().family;
    state().choice = first_choice(family_);
    buildUi();
    syncControls();
}

// The extras are the page's: back to it, so that it deletes them (and not this panel, first).
LaunchPanel::~LaunchPanel() { setExtraControls(nullptr); }

void LaunchPanel::syncNow() {
    if (sync_pending_) syncControls();
}

void LaunchPanel::buildUi() {
    auto* v = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    // The family's variants, from the catalogue: name in the list, title as tooltip.
    kernel_box_ = new QComboBox(this);
    kernel_box_->setObjectName(QStringLiteral("kernelBox"));
    kernel_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    top->addWidget(new QLabel(tr("Kernel"), this));
    top->addWidget(kernel_box_, 1);
    v->addLayout(top);
    // The page's own controls (setExtraControls).
    extras_slot_ = new QVBoxLayout;
    extras_slot_->setContentsMargins(0, 0, 0, 0);
    v->addLayout(extras_slot_);

    pages_ = new QStackedWidget(this);
    auto* page1 = new QWidget(pages_);
    auto* f1 = new QFormLayout(page1);
    f1->addRow(tr("Threads per block"), slider_row(&threads_slider_, &threads_spin_, kMaxThreads, page1));
    threads_slider_->setToolTip(tr("Threads per block (blockDim.x of a 1-D launch): the grid has cdiv(n, this) blocks"));
    auto* page2 = new QWidget(pages_);
    auto* f2 = new QFormLayout(page2);
    f2->addRow(tr("blockDim.x"), slider_row(&x_slider_, &x_spin_, kMaxThreads, page2));
    f2->addRow(tr("blockDim.y"), slider_row(&y_slider_, &y_spin_, kMaxThreads, page2));
    x_slider_->setToolTip(tr("blockDim.x: threads across a block (columns); x × y may be at most 1024"));
    y_slider_->setToolTip(tr("blockDim.y: threads down a block (rows); x × y may be at most 1024"));
    pages_->addWidget(page1);
    pages_->addWidget(page2);
    pages_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);  // spare height goes below, not between rows
    v->addWidget(pages_);

    // A variant that takes a TILE: the tiles it is compiled for.
    tile_row_ = new QWidget(this);
    auto* tr_layout = new QFormLayout(tile_row_);
    tr_layout->setContentsMargins(0, 0, 0, 0);
    tile_box_ = new QComboBox(tile_row_);
    tile_box_->setObjectName(QStringLiteral("tileBox"));
    tr_layout->addRow(tr("TILE"), tile_box_);
    v->addWidget(tile_row_);
    // Why the block cannot be edited (a TILE or a fixed-block variant).
    block_note_ = new QLabel(this);
    block_note_->setObjectName(QStringLiteral("blockNote"));
    block_note_->setWordWrap(true);
    v->addWidget(block_note_);
    limit_note_ = new QLabel(this);
    limit_note_->setObjectName(QStringLiteral("blockLimitNote"));
    limit_note_->setWordWrap(true);
    limit_note_->setStyleSheet(QStringLiteral("color: #8a5a00;"));
    limit_note_->hide();
    v->addWidget(limit_note_);

    // The block as text ("256", "16x16") beside the lecture's presets: either goes to a variant of the
    // family that takes a block of its kind.
    auto* shape_row = new QHBoxLayout;
    shape_box_ = new LaunchShapeBox(this);
    shape_box_->setObjectName(QStringLiteral("launchShapeBox"));
    shape_box_->setToolTip(tr("A preset, or type N for a 1-D block of N threads, XxY for a 2-D block"));
    presets_ = new QComboBox(this);
    presets_->setObjectName(QStringLiteral("launchPresets"));
    presets_->addItem(tr("Presets…"));
    for (const Preset& p : kPresets) presets_->addItem(QString::fromUtf8(p.label));
    shape_row->addWidget(new QLabel(tr("Block"), this));
    shape_row->addWidget(shape_box_, 1);
    shape_row->addWidget(presets_);
    v->addLayout(shape_row);

    stats_ = new QLabel(this);
    stats_->setObjectName(QStringLiteral("launchStats"));
    stats_->setToolTip(tr("The launch this block gives: the grid, every thread, the idle ones the guard switches off, "
                          "and warps of 32 threads (partial: fewer than 32 threads; divergent: some idle)"));
    stats_->setTextFormat(Qt::RichText);
    stats_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stats_->setWordWrap(true);
    v->addWidget(stats_);
    times_ = new QLabel(this);
    times_->setObjectName(QStringLiteral("launchTimes"));
    times_->setTextFormat(Qt::RichText);
    times_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    times_->setWordWrap(true);
    v->addWidget(times_);
    v->addStretch();

    fillKernels();

    connect(kernel_box_, qOverload<int>(&QComboBox::activated), this, &LaunchPanel::onKernelChosen);
    connect(threads_slider_, &QSlider::valueChanged, this, &LaunchPanel::onThreadsChanged);
    connect(x_slider_, &QSlider::valueChanged, this, &LaunchPanel::onXChanged);
    connect(y_slider_, &QSlider::valueChanged, this, &LaunchPanel::onYChanged);
    connect(presets_, qOverload<int>(&QComboBox::activated), this, &LaunchPanel::onPreset);
    connect(tile_box_, qOverload<int>(&QComboBox::activated), this, &LaunchPanel::onTileChosen);
    connect(shape_box_, &LaunchShapeBox::blockChosen, this, &LaunchPanel::onBlockTyped);
    connect(shape_box_, &LaunchShapeBox::invalidShape, this, &LaunchPanel::invalidShape);
}

// The family's variants, and which presets apply to it: a block of a rule none of its variants
// takes (a 1-D preset for a family of 2-D kernels) is disabled in both lists.
void LaunchPanel::fillKernels() {
    const QSignalBlocker block(kernel_box_);
    kernel_box_->clear();
    bool one_d = false, two_d = false;
    for (const KernelInfo& k : family_catalogue(family_)) {
        kernel_box_->addItem(QString::fromStdString(k.name), int(k.variant));
        kernel_box_->setItemData(kernel_box_->count() - 1, QString::fromStdString(k.title), Qt::ToolTipRole);
        one_d = one_d || takes(k, true);
        two_d = two_d || takes(k, false);
    }
    // The user's compiled kernels (issue 27), after the built-ins.
    for (const UserVariantPtr& u : user_variants(family_)) {
        kernel_box_->addItem(QString::fromStdString(u->title()), int(u->ref.variant));
        kernel_box_->setItemData(kernel_box_->count() - 1, QString::fromStdString(u->info.title), Qt::ToolTipRole);
    }
    for (int i = 0; i < int(std::size(kPresets)); ++i) enable_item(presets_, i + 1, kPresets[i].one_d ? one_d : two_d);
    for (int i = 0; i < shape_box_->count(); ++i) {
        const bool item_one_d = !shape_box_->itemData(i).toString().contains(QLatin1Char('x'));
        enable_item(shape_box_, i, item_one_d ? one_d : two_d);
    }
}

const KernelInfo* LaunchPanel::variantInfo() const { return any_kernel_info(choice().ref); }

void LaunchPanel::refreshKernels() {
    fillKernels();
    syncControls();
}

bool LaunchPanel::blockEditable() const {
    const KernelInfo* info = variantInfo();
    return info && (info->block == BlockRule::OneD || info->block == BlockRule::TwoD);
}

bool LaunchPanel::chooseKernel(const QString& name) {
    const KernelInfo* info = find_kernel(family_, name.toStdString());
    if (!info) {
        for (const UserVariantPtr& u : user_variants(family_))
            if (QString::fromStdString(u->title()) == name) info = &u->info;
    }
    if (!info) return false;
    const int index = kernel_box_->findData(int(info->variant));
    if (index < 0) return false;
    kernel_box_->setCurrentIndex(index);
    onKernelChosen(index);
    return true;
}

Dim3 LaunchPanel::blockWhenChosen(bool one_d) const {
    KernelInfo rule;
    rule.block = one_d ? BlockRule::OneD : BlockRule::TwoD;
    return block_for(rule, launched_block(choice()), 0);
}

void LaunchPanel::onKernelChosen(int index) {
    if (syncing_ || index < 0) return;
    const KernelInfo* info = any_kernel_info(KernelRef{family_, std::uint8_t(kernel_box_->itemData(index).toInt()), 0});
    if (!info) return;
    forgetWantedBlock();
    const unsigned tile = pick_tile(*info, state().tile);
    commit(LaunchChoice{info->ref(tile), block_for(*info, launched_block(choice()), tile)});
}

void LaunchPanel::onTileChosen() {
    if (syncing_) return;
    const KernelInfo* info = variantInfo();
    if (!info || info->block != BlockRule::Tile) return;
    const unsigned tile = unsigned(tile_box_->currentData().toInt());
    commit(LaunchChoice{info->ref(tile), Dim3{tile, tile, 1}});
}

void LaunchPanel::setFamily(KernelFamily family) {
    if (family == family_) return;
    family_ = family;
    if (!states_.contains(int(family))) state().choice = first_choice(family);
    forgetWantedBlock();
    fillKernels();
    const FamilyState& s = state();
    stats_->setText(s.stats);
    times_->setText(s.times_html);
    times_->setToolTip(s.times_details);
    const QSignalBlocker block(shape_box_);
    const LaunchChoice c = s.choice;
    const KernelInfo* info = any_kernel_info(c.ref);
    shape_box_->showBlock(launched_block(c), info && info->block == BlockRule::OneD);
    syncControls();
}

// A block set from outside (a page, the sweep, settings) is what the user has set from then on.
void LaunchPanel::setChoice(const LaunchChoice& c) {
    setFamily(c.ref.family);
    if (!(c.block == choice().block)) forgetWantedBlock();
    commit(c);
}

void LaunchPanel::forgetWantedBlock() {
    wanted_x_ = 0;
    wanted_y_ = 0;
}

void LaunchPanel::scheduleSync() {
    // The controls follow on the next turn of the event loop, once for any number of changes:
    // switching the 1-D/2-D page costs milliseconds, and choices may arrive in bursts.
    if (sync_pending_) return;
    sync_pending_ = true;
    QTimer::singleShot(0, this, &LaunchPanel::syncControls);
}

void LaunchPanel::commit(const LaunchChoice& c) {
    FamilyState& s = state();
    const bool changed = c != s.choice;
    s.choice = c;
    if (c.ref.tile) s.tile = c.ref.tile;
    {
        // The text field shows the block at once (it is what settings and tests read back).
        const QSignalBlocker block(shape_box_);
        const KernelInfo* info = any_kernel_info(c.ref);
        shape_box_->showBlock(launched_block(c), info && info->block == BlockRule::OneD);
    }
    scheduleSync();
    if (changed) emit choiceChanged(c);
}

void LaunchPanel::syncControls() {
    sync_pending_ = false;
    syncing_ = true;
    const QSignalBlocker b1(kernel_box_), b2(tile_box_);
    const LaunchChoice c = choice();
    const KernelInfo* info = any_kernel_info(c.ref);
    const int index = info ? kernel_box_->findData(int(info->variant)) : -1;
    kernel_box_->setCurrentIndex(index);
    kernel_box_->setToolTip(info ? QString::fromStdString(info->title) : QString());
    const BlockRule rule = info ? info->block : BlockRule::OneD;
    const Dim3 b = launched_block(c);

    pages_->setCurrentIndex(rule == BlockRule::OneD ? 0 : 1);
    // The stack is as tall as the page shown (one slider row or two), not as its tallest page.
    for (int i = 0; i < pages_->count(); ++i) {
        const QSizePolicy::Policy policy = i == pages_->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored;
        pages_->widget(i)->setSizePolicy(policy, policy);
    }
    pages_->updateGeometry();
    if (rule == BlockRule::OneD) {
        threads_slider_->setValue(int(b.x));
    } else {
        x_slider_->setValue(int(b.x));
        y_slider_->setValue(int(b.y));
    }
    const bool editable = rule == BlockRule::OneD || rule == BlockRule::TwoD;
    for (QWidget* w : {static_cast<QWidget*>(threads_slider_), static_cast<QWidget*>(threads_spin_),
                       static_cast<QWidget*>(x_slider_), static_cast<QWidget*>(y_slider_),
                       static_cast<QWidget*>(x_spin_), static_cast<QWidget*>(y_spin_)})
        w->setEnabled(editable);

    tile_row_->setVisible(rule == BlockRule::Tile);
    tile_box_->clear();
    if (info)
        for (unsigned t : info->tiles) tile_box_->addItem(QStringLiteral("%1 × %1").arg(t), int(t));
    tile_box_->setCurrentIndex(std::max(0, tile_box_->findData(int(c.ref.tile ? c.ref.tile : b.x))));

    QString note;
    if (info && rule == BlockRule::Tile)
        note = tr("The block is TILE × TILE (%1 threads): the TILE chooses it.").arg(b.x * b.y);
    else if (info && rule == BlockRule::Fixed)
        note = tr("%1 runs with a fixed %2 × %3 block: its body is written for exactly these %4 threads, "
                  "so the block cannot be edited.")
                   .arg(QString::fromStdString(info->name))
                   .arg(info->fixed_block.x)
                   .arg(info->fixed_block.y)
                   .arg(info->fixed_block.volume());
    block_note_->setText(note);
    block_note_->setVisible(!note.isEmpty());
    const QString limit = rule == BlockRule::TwoD ? limitText() : QString();
    limit_note_->setText(limit);
    limit_note_->setVisible(!limit.isEmpty());
    syncing_ = false;
}

void LaunchPanel::onThreadsChanged(int value) {
    if (syncing_) return;
    commit(LaunchChoice{choice().ref, Dim3{unsigned(value), 1, 1}});
}

// Keep x*y <= 1024: the dimension being moved wins, the other gives way, but only as far as it must:
// it returns to the value the user set for it as soon as that fits again (and limitText says why).
void LaunchPanel::onXChanged(int x) {
    if (syncing_) return;
    wanted_x_ = unsigned(x);
    if (!wanted_y_) wanted_y_ = choice().block.y;
    commitBlock(Dim3{unsigned(x), std::max(1u, std::min<unsigned>(wanted_y_, unsigned(kMaxThreads / x))), 1});
}

void LaunchPanel::onYChanged(int y) {
    if (syncing_) return;
    wanted_y_ = unsigned(y);
    if (!wanted_x_) wanted_x_ = choice().block.x;
    commitBlock(Dim3{std::max(1u, std::min<unsigned>(wanted_x_, unsigned(kMaxThreads / y))), unsigned(y), 1});
}

void LaunchPanel::commitBlock(Dim3 block) {
    commit(LaunchChoice{choice().ref, block});
    scheduleSync();  // the note may change with the block even when the sliders already show it
}

QString LaunchPanel::limitText() const {
    const Dim3 b = choice().block;
    auto why = [](const char* dim, unsigned shown, unsigned wanted, const char* other, unsigned other_value) {
        return tr("blockDim.%1 is %2, not the %3 you set: %4 × %3 would be %5 threads, and a block may have at most "
                  "%6. It goes back to %3 when blockDim.%7 is %8 or less.")
            .arg(QLatin1String(dim)).arg(shown).arg(wanted).arg(other_value).arg(other_value * wanted).arg(kMaxThreads)
            .arg(QLatin1String(other)).arg(unsigned(kMaxThreads) / wanted);
    };
    if (wanted_y_ && b.y < wanted_y_ && b.x == wanted_x_) return why("y", b.y, wanted_y_, "x", b.x);
    if (wanted_x_ && b.x < wanted_x_ && b.y == wanted_y_) return why("x", b.x, wanted_x_, "y", b.y);
    return {};
}

const KernelInfo* LaunchPanel::variantFor(bool one_d) const {
    const KernelInfo* info = variantInfo();
    if (info && takes(*info, one_d)) return info;
    for (const KernelInfo& k : family_catalogue(family_))
        if (takes(k, one_d)) return &k;
    return nullptr;
}

void LaunchPanel::applyBlock(Dim3 block, bool one_d) {
    const KernelInfo* info = variantFor(one_d);
    if (!info) {
        const QSignalBlocker quiet(shape_box_);  // the field shows the launch again
        const LaunchChoice c = choice();
        const KernelInfo* now = any_kernel_info(c.ref);
        shape_box_->showBlock(launched_block(c), now && now->block == BlockRule::OneD);
        emit invalidShape(tr("no %1 kernel takes a %2 block").arg(QLatin1String(to_string(family_)),
                                                                  one_d ? tr("1-D") : tr("2-D")));
        return;
    }
    forgetWantedBlock();
    commit(LaunchChoice{info->ref(), block});
}

void LaunchPanel::onBlockTyped(Dim3 block, bool one_d) { applyBlock(block, one_d); }

void LaunchPanel::onPreset(int index) {
    if (index <= 0 || index > int(std::size(kPresets))) return;
    const Preset& preset = kPresets[index - 1];
    presets_->setCurrentIndex(0);
    applyBlock(preset.block, preset.one_d);
}

void LaunchPanel::setExtraControls(QWidget* extras) {
    if (extras == extras_) return;
    if (extras_) {
        extras_slot_->removeWidget(extras_);
        extras_->hide();
        if (extras_had_home_ && !extras_home_)
            delete extras_;  // the page that lent them is gone (a window closing): nobody else would
        else
            extras_->setParent(extras_home_);
    }
    extras_ = extras;
    extras_home_ = extras ? extras->parentWidget() : nullptr;
    extras_had_home_ = extras_home_ != nullptr;
    if (extras) {
        extras_slot_->addWidget(extras);
        extras->show();
    }
}

void LaunchPanel::showStats(const QString& html) {
    state().stats = html;
    stats_->setText(html);
}

void LaunchPanel::showTimes(const QString& html, const QString& details) {
    FamilyState& s = state();
    s.times_html = html;
    s.times_details = details;
    times_->setText(html);
    times_->setToolTip(details);
}

QString LaunchPanel::planText() const { return stats_->text(); }

}  // namespace cvz
