#pragma once
// A grid experiment in the window: its cells run one per spare core through GridScheduler, each written as
// it ends (a folder with finished cells resumes), the figure its shape calls for filling in; at the end grid.csv
// and that figure's files (plot/grid_outputs.h).
#include <QList>
#include <memory>

#include "engine/experiment.h"
#include "gui/views/background_view.h"
#include "plot/experiment_figure.h"

namespace milab {

class GridScheduler;
class MethodRegistry;

class GridView : public BackgroundView {
 public:
  GridView(const MethodRegistry& registry, QWidget* parent);
  ~GridView() override;
  const GridScheduler* scheduler() const { return grid_.get(); }

  void cancel() override;
  QString progressLine() const override;
  QString startedHtml() const override;
  QString exportTo(const QString& path) const override;

 protected:
  QString what() const override { return "a grid"; }
  QString prepare(const QString& path) override;
  void launch(const QString& outDir) override;
  bool update() override;
  QStringList finish(const QString& outDir) override;
  QString summaryHtml() const override;

 private:
  const MethodRegistry& registry_;
  QList<GridCell> cells_;
  std::unique_ptr<GridScheduler> grid_;
  QString outDir_;
  QList<FigureRun> ended_;  // the cells drawn so far, in the order they ended
};

}  // namespace milab
