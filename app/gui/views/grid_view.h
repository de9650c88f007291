#pragma once
// A grid experiment in the window: its cells run one per spare core through GridScheduler, or over MPI through
// mpirun and milab-cli (MpiGridJob), each written as it ends (a folder with finished cells resumes), the figure its
// shape calls for filling in; at the end grid.csv and that figure's files (plot/grid_outputs.h).
#include <QList>
#include <QMap>
#include <QObject>
#include <memory>
#include <optional>

#include "engine/experiment.h"
#include "gui/views/background_view.h"
#include "gui/views/mpi_grid_job.h"
#include "plot/experiment_figure.h"

namespace milab {

class MethodRegistry;

class GridView : public BackgroundView {
 public:
  // Each cell that ends is recorded in the run history at `historyPath` (here or by milab-cli under MPI).
  GridView(const MethodRegistry& registry, const QString& historyPath, QWidget* parent);
  ~GridView() override;
  const GridProgress* progress() const { return grid_.get(); }
  // Command-line style values applied on top of the next file started (the grid dialog's edits).
  void setOverrides(const QVariantMap& overrides) { overrides_ = overrides; }
  // How the next file started runs: on this machine (nullopt), or under mpirun.
  void setMpiLaunch(const std::optional<MpiLaunch>& mpi) { mpi_ = mpi; }
  const QList<GridCell>& cells() const { return cells_; }

  void cancel() override;
  QString progressLine() const override;
  QString startedHtml() const override;
  QString runningLine() const override {
    return QStringLiteral("A grid of %1 cells runs; the form shows its first cell").arg(cells_.size());
  }
  const RunSpec* formSpec() const override { return cells_.isEmpty() ? nullptr : &cells_.first().spec; }
  QString exportTo(const QString& path) const override;
  QString pageTitle() const override { return QObject::tr("Grid"); }

 protected:
  QString what() const override { return "a grid"; }
  bool claimsOutFolder() const override { return !mpi_; }  // under MPI, milab-cli takes the folder's lock
  QString prepare(const QString& path) override;
  void launch(const QString& outDir) override;
  bool update() override;
  QStringList finish(const QString& outDir) override;
  QString summaryHtml() const override;

 private:
  const MethodRegistry& registry_;
  QList<GridCell> cells_;
  std::unique_ptr<GridProgress> grid_;
  QString historyPath_, outDir_, path_;
  QVariantMap overrides_;
  std::optional<MpiLaunch> mpi_;
  QMap<int, FigureRun> ended_;  // the cells drawn so far, by their index in the grid
  void openCellAt(const QPointF& pixel);  // the runs of the heatmap's cell there, in a window of their own
};

}  // namespace milab
