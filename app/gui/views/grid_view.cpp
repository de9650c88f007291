#include "gui/views/grid_view.h"

#include <QDir>
#include <QThread>

#include "engine/grid_scheduler.h"
#include "gui/counted.h"
#include "gui/run_details.h"
#include "plot/benchmark_figure.h"
#include "plot/experiment_figure.h"
#include "plot/grid_outputs.h"
#include "plot/plot_export.h"

namespace milab {

GridView::GridView(const MethodRegistry& registry, const QString& historyPath, QWidget* parent)
    : BackgroundView(parent), registry_(registry), historyPath_(historyPath) {
  // A click on a heatmap's cell opens the runs it averages, their reasons whole (issue 79).
  QObject::connect(plot(), &QCustomPlot::mousePress, plot(), [this](QMouseEvent* event) { openCellAt(event->pos()); });
}

void GridView::openCellAt(const QPointF& pixel) {
  if (!grid_) return;
  const QStringList keys = heatmapRunsAt(plot(), pixel);
  QList<RunDetail> runs;
  QString title;
  for (const CellResult& c : grid_->results())
    if (keys.contains(figureRunKey(c.cell.spec))) {
      const RunSpec& spec = c.cell.spec;
      if (title.isEmpty()) title = QObject::tr("%1 on %2").arg(spec.method, spec.task);
      runs << RunDetail{QStringLiteral("%1: %2 on %3, %4").arg(c.cell.name, spec.method, spec.task,
                                                               statusName(c.result.status)),
                        c.result.reason, summaryJson(spec, c.result)};
    }
  if (!runs.isEmpty()) openRunDetails(plot(), title, runs);
}

GridView::~GridView() = default;

QString GridView::prepare(const QString& path) {
  Experiment experiment;
  cells_.clear();
  QString err = readExperiment(path, &experiment);
  if (err.isEmpty()) applyOverrides(overrides_, &experiment);
  if (err.isEmpty()) err = expandExperiment(experiment, registry_, &cells_);
  if (err.isEmpty() && !experiment.isGrid()) err = QStringLiteral("experiment: '%1' is one run, not a grid").arg(path);
  if (err.isEmpty() && mpi_) {
    const QString why = mpiUnavailableReason();
    if (!why.isEmpty()) err = "mpi: " + why;
  }
  path_ = path;
  return err;
}

void GridView::launch(const QString& outDir) {
  if (mpi_)
    grid_ = std::make_unique<MpiGridJob>(cells_, path_, overrides_, outDir, historyPath_, *mpi_);
  else  // one cell per spare core: each run takes one intra-op thread, and the window keeps a core
    grid_ = std::make_unique<GridScheduler>(cells_, outDir, std::max(1, QThread::idealThreadCount() - 1), registry_,
                                            historyPath_);
  outDir_ = outDir;
  ended_.clear();
  drawFigure(plot(), chooseFigure({}), {});
}

bool GridView::update() {
  const QList<int> ended = grid_->poll();
  for (int i : ended) ended_.insert(i, figureRunOf(grid_->results()[i], outDir_));
  // In the grid's order, whatever order the cells end in (issue 79: under mpirun, bars came in completion order,
  // coloured other than the same grid run here).
  const QList<FigureRun> drawn = ended_.values();
  if (!ended.isEmpty()) drawFigure(plot(), chooseFigure(drawn), drawn);
  return grid_->isDone();
}

QStringList GridView::finish(const QString& outDir) {
  // Under MPI, milab-cli writes the closing files; the window writes them only when it could not (stopped, killed).
  return grid_->errors() + (grid_->outputsWritten() ? QStringList() : writeGridOutputs(outDir, grid_->results()));
}

void GridView::cancel() { grid_->cancel(); }  // the cells that ran are still written, then the closing files

QString GridView::progressLine() const {
  return QStringLiteral("grid: %1 of %2 cells ended%3")
      .arg(grid_->endedCount())
      .arg(grid_->results().size())
      .arg(mpi_ ? QStringLiteral(" (MPI, %1 processes)").arg(mpi_->processes) : QString());
}

QString GridView::startedHtml() const {
  return mpi_ ? QStringLiteral(
                    "Running a grid of %1 under mpirun, %2 processes; its output goes to "
                    "mpirun.log in the results folder")
                    .arg(counted(cells_.size(), "cell"))
                    .arg(mpi_->processes)
              : QStringLiteral("Running a grid of %1").arg(counted(cells_.size(), "cell"));
}

QString GridView::summaryHtml() const {
  int failed = 0, unfinished = 0, reused = 0;
  for (const CellResult& c : grid_->results()) {
    failed += c.result.status == RunStatus::Failed;
    unfinished += c.result.status != RunStatus::Finished && c.result.status != RunStatus::Failed;
    reused += c.reused;
  }
  return QStringLiteral("<b>grid %1</b>: %2 cells, %3 failed, %4 not finished, %5 reused from an earlier run")
      .arg(grid_->wasCancelled() ? "cancelled" : "finished")
      .arg(grid_->results().size())
      .arg(failed)
      .arg(unfinished)
      .arg(reused);
}

QString GridView::exportTo(const QString& path) const {
  if (path.endsWith(".csv", Qt::CaseInsensitive)) return writeGridCsv(path, grid_->results());
  if (path.endsWith(".json", Qt::CaseInsensitive))
    return QStringLiteral("export: a grid's summaries are its cells' files, in the results folder's cells/");
  return exportPlot(plot(), path);
}

}  // namespace milab
