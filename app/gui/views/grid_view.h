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
  // Command-line style values applied on top of the next file started (the grid dialog's edits).
  void setOverrides(const QVariantMap& overrides) { overrides_ = overrides; }
  const QList<GridCell>& cells() const { return cells_; }

  void cancel() override;
  QString progressLine() const override;
  QString startedHtml() const override;
  QString runningLine() const override {
    return QStringLiteral("A grid of %1 cells runs; the form shows its first cell").arg(cells_.size());
  }
  const RunSpec* formSpec() const override { return cells_.isEmpty() ? nullptr : &cells_.first().spec; }
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
  QVariantMap overrides_;
  QList<FigureRun> ended_;  // the cells drawn so far, in the order they ended
};

}  // namespace milab
