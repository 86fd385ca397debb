#pragma once
#include <QList>
#include <QWidget>

#include "app/models/device_profile.h"
#include "app/models/occupancy_model.h"

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QScatterSeries;

namespace cvz {

// Occupancy for the chosen block: the real GPU's properties when there is one, else a device profile
// picked from a list; blocks per SM, active warps, occupancy and the limiting resource; and a chart of
// occupancy against block size with the current choice marked.
class OccupancyPanel : public QWidget {
    Q_OBJECT
public:
    explicit OccupancyPanel(QWidget* parent = nullptr);

    void setBlock(const BlockResources& block);
    DeviceProfile profile() const;
    Occupancy occupancy() const { return occupancy_; }
    QString summaryText() const;
    QComboBox* deviceBox() const { return devices_; }

    // The occupancy curve as plotted: (threads per block, occupancy in %).
    QList<QPointF> curve() const;

signals:
    void profileChanged(const cvz::DeviceProfile& profile);

private:
    void refresh();

    QList<DeviceProfile> profiles_;
    BlockResources block_;
    Occupancy occupancy_;
    QComboBox* devices_ = nullptr;
    QLabel* summary_ = nullptr;
    QChart* chart_ = nullptr;
    QChartView* view_ = nullptr;
    QLineSeries* series_ = nullptr;
    QScatterSeries* current_ = nullptr;
};

}  // namespace cvz
