#pragma once
// The window only wires: the experiment panel builds runs (its form, crossed with the methods ticked and the
// lists to vary) into the comparison set, which trains them and overlays them live; a 30 Hz timer drives it
// (or follows a background view: a grid, the prior-order sweep, hashing); the File menu exports whatever is
// shown through the same pure functions the CLI uses, and saves the set as an experiment file; the Experiments
// menu opens experiment files (into the form, as a grid, or as a comparison set) and the bundled presets.
#include <QMainWindow>
#include <functional>
#include <memory>
#include <optional>

#include "engine/background_job.h"
#include "engine/prior_order_sweep.h"
#include "engine/run.h"
#include "gui/lab_controller.h"
#include "gui/views/mpi_grid_job.h"
#include "gui/workspace.h"
#include "hashing/hashing_experiment.h"
#include "results/display_units.h"

class QCheckBox;
class QCustomPlot;
class QLabel;
class QTimer;

namespace milab {

class BackgroundView;
class ComparisonView;
class DocsViewer;
class ExperimentPanel;
class GridProgress;
class GridView;
class HashingView;
class EmbeddingView;
class HistoryPanel;
class MethodRegistry;
class PriorOrderView;
class RunPlot;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // Runs that end are recorded in the run history at `historyPath` (results/run_store.h; "" keeps none).
  MainWindow(const MethodRegistry& registry, const QString& historyPath, QWidget* parent = nullptr);
  explicit MainWindow(const MethodRegistry& registry, QWidget* parent = nullptr);  // the default history
  ~MainWindow() override;

  ExperimentPanel* panel() const { return panel_; }
  ComparisonView* comparison() const { return comparison_; }
  HistoryPanel* history() const { return history_; }
  // The units readings are shown in: the plot's axis and legend, the results table, the result line and the
  // history (View > Units; the files stay in nats).
  void setUnits(Units units);
  Units units() const { return units_; }
  // Draws these runs of the history beside the live ones; "" or the error.
  QString overlayHistory(const QList<qint64>& ids);
  // Puts a recorded run's experiment in the form; "" or the error naming the field.
  QString reopenHistory(qint64 id);
  RunPlot* plot() const;
  // The run added last to the comparison set (null before the first).
  const Run* currentRun() const;
  // The same bound with the task's analytic critic, run beside the last learned one (null when not shown).
  const Run* oracleRun() const;

  void setSpec(const RunSpec& spec);
  // A user's table (CSV, .npy, .npz) in the form as task data, x the first column and y the second until the
  // form's column fields say otherwise; the task chart previews the chosen pair. The method stays.
  void openData(const QString& path);
  // Adds the form's runs to the comparison set (the form's run, once per ticked method, crossed with the lists
  // to vary) and starts them; false (and the error shown on its field) when the form is invalid.
  bool startRun();
  const QString& refusal() const { return refusal_; }  // why the last startRun refused, "" once the form is valid
  bool busy() const;  // a run of the set, or a background experiment (a grid, a sweep, hashing), is running
  void stopRun();  // every run of the set, or the background experiment: what ended is kept

  // Each returns "" or the error line, also shown on the status bar; a background experiment starts at once.
  // An experiment file: one run fills the form; a grid runs its cells one per spare core into `gridOutDir`
  // (cells already finished there are reused), then grid.csv and the figure its shape calls for.
  // `gridOverrides` reshape a grid first (axis -> "v1,v2", steps -> N), as the grid dialog does; with `gridMpi`
  // the grid runs under mpirun instead (gui/views/mpi_grid_job.h).
  QString openExperiment(const QString& path, const QString& gridOutDir = {}, const QVariantMap& gridOverrides = {},
                         const std::optional<MpiLaunch>& gridMpi = std::nullopt);
  // A prior-order sweep file (AMMI Figure 1(a), as `milab-cli prior-orders` takes) into `outDir`.
  QString startPriorOrderSweep(const QString& path, const QString& outDir);
  // A hashing file (Fashion-MNIST, AMMI against LSH, as `milab-cli hashing` takes) into `outDir`.
  QString startHashing(const QString& path, const QString& outDir, const QVariantMap& overrides = {});

  const GridProgress* currentGrid() const;
  const BackgroundJob<PriorOrderSweep>* currentSweep() const;
  const BackgroundJob<HashingResult>* currentHashing() const;
  QCustomPlot* gridPlot() const;
  QCustomPlot* sweepPlot() const;
  QCustomPlot* hashingPlot() const;

  // An experiment file (one run or a grid) as a comparison set in the window: its runs train here, one per
  // spare core, overlaid on one plot. "" or the error line.
  QString openRunSet(const QString& path);

  // A line for the user (e.g. why the file given on the command line was not opened): the status bar and, in red,
  // the result label.
  void showMessage(const QString& line);
  // Help's pages (Getting started, Concepts, ...): `page` of the docs folder in a window of its own, or on the
  // status bar why the docs are not there. Returns the page's window, or nullptr.
  DocsViewer* openHelpPage(const QString& page);

  // Writes what is shown, by suffix: .png/.pdf/.svg (the plot), .csv (the set's curves, every run, or a background
  // view's table), .json (the set's summaries). "" or an error; `*written`, when given, says what was written.
  QString exportTo(const QString& path, QString* written = nullptr);
  // The file name a save dialog suggests for `what` ("curve", "plot", "summary"): named after the set shown
  // ("gaussian2-infonce-curve.csv"; "-set" for several methods) or the background experiment.
  QString suggestedName(const QString& what, const QString& suffix) const;

 protected:
  // Stops every run and experiment first, so that they end while the window tears down, not after.
  void closeEvent(QCloseEvent* event) override;

 private:
  QString startBackground(BackgroundView* view, const QString& path, const QString& outDir);
  // `shape`, when given, is asked after the file is chosen (a dialog that may shorten it): false cancels.
  void startWithDialogs(BackgroundView* view, QString path, const std::function<bool(const QString&)>& shape = {});
  void openExperimentWithDialogs(const QString& path);
  QList<BackgroundView*> backgroundViews() const;  // grid, sweep, hashing: each a tab once it has run
  bool shapeHashing(const QString& path);  // the hashing file's lengths and steps, editable: false if cancelled
  void buildMenus();                       // gui/main_window_menus.cpp
  void tick();
  void previewConfiguredRun();
  void showResult();             // of the set's last run
  void showResultOf(int index);  // of one run of the set (a row clicked in its table)
  // Asks where to save, in a dialog titled `caption` that starts in the last folder used with `name` (a missing
  // suffix is taken from it), writes with `write`, and says how it went: `done` (%1 the path, default "Wrote %1",
  // or what `write` says it wrote) on the status bar, or the error in a warning.
  void saveWithDialog(const QString& caption, const QString& name, const QString& filter,
                      const std::function<QString(const QString&, QString*)>& write, const QString& done = {});

  const MethodRegistry& registry_;
  LabController controller_;
  ExperimentPanel* panel_;
  ComparisonView* comparison_;
  HistoryPanel* history_;
  Units units_ = Units::Nats;
  int shownResult_ = -1;  // the run of the set whose result the line shows
  EmbeddingView* embedding_;  // a tab of the set's only while a run of it has a learned representation's picture
  QLabel* resultLabel_;
  QCheckBox* oracleCheck_;
  QTimer* timer_;
  QTimer* previewTimer_;
  Workspace workspace_;  // geometry, last folder, recent files (QSettings)  // the configured run's target and
                         // ceilings, once the form settles
  std::unique_ptr<GridView> grid_;
  std::unique_ptr<PriorOrderView> sweep_;
  std::unique_ptr<HashingView> hashing_;
  BackgroundView* active_ = nullptr;  // the background view last started
  // The form as the user left it before a background experiment showed its first cell there; given back at its end.
  std::optional<RunSpec> formBeforeBackground_;
  QString refusal_;  // the status bar's line from the last refused Run, cleared once the form is valid
};

}  // namespace milab
