#pragma once
// The comparison set's view: the runs the user started on one task (gui/comparison_set.h, training as many at
// once as there are spare cores, the rest queued), overlaid live on one plot (RunPlot) beside a sortable results
// table, and drawn as the figure the set's shape calls for (plot/experiment_figure.h). Stop one run or all; what
// ended is kept. The set saves as the experiment file the runner reads (engine/run_set.h), so `milab-cli run`
// reproduces it.
#include <QWidget>
#include <memory>
#include <vector>

#include "engine/run.h"
#include "results/display_units.h"

class QCheckBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;

namespace milab {

class ComparisonSet;
class MethodRegistry;
class RunPlot;

class ComparisonView : public QWidget {
  Q_OBJECT
 public:
  explicit ComparisonView(const MethodRegistry& registry, QWidget* parent = nullptr);
  ~ComparisonView() override;

  // Adds validated runs to the set; they start as slots free. A set is on one task: runs of another task
  // configuration (task or its parameters) start a new set once the current one has ended. With `withOracle`, each
  // learned run also gets the same bound with the task's analytic critic, drawn dotted in its colour once known.
  void addRuns(const QList<RunSpec>& specs, bool withOracle);
  // Drains every live run into the plot, starts queued runs, updates the table: the window's timer calls it.
  // Returns true once nothing is pending or running.
  bool tick();
  bool running() const;
  // Whether `spec` joins this set: any run while the set is idle (another task starts a new set), one on the set's
  // task configuration while it trains.
  bool takesTaskOf(const RunSpec& spec) const;
  void stop(int index);  // index into the set
  void stopAll();
  void clear();
  // With an empty set: the configured run's target and ceilings, before anything trains.
  void preview(const RunSpec& spec, const RunResult& known);
  void previewRefused();  // the form cannot run: no stale preview of what it held before

  int size() const;
  const Run* run(int index) const;
  const Run* oracle(int index) const;
  RunStatus status(int index) const;
  QList<RunSpec> specs() const;
  QString label(int index) const;  // the method and what differs from the other runs

  RunPlot* plot() const { return plot_.get(); }
  const ComparisonSet& set() const { return *set_; }
  QCustomPlot* plotWidget() const { return plotWidget_; }
  QCustomPlot* figureWidget() const { return figure_; }
  QTableWidget* table() const { return table_; }
  void showFigure(bool figure);  // the Figure tab instead of the live curves
  // The units the plot and the table show readings in (the files and the history stay in nats).
  void setUnits(Units units);
  Units units() const { return units_; }

  // Each run that ends is recorded there from its own worker thread ("" keeps no history).
  void setHistoryPath(const QString& path);
  QString historyWarning() const;  // why the history could not be written, "" when it could
  // A run from the history, drawn beside the live ones (not part of the set).
  void overlayStored(const QString& label, const RunSpec& spec, const RunResult& result,
                     const QVector<CurvePoint>& curve);
  int overlayCount() const { return overlays_; }
  // A further tab beside Curves and Figure (the History panel, a background experiment's plot); adding a page
  // already there does nothing. showPage brings one forward.
  void addPage(QWidget* page, const QString& title);
  void showPage(QWidget* page);
  void removePage(QWidget* page);  // takes the tab away (the page itself stays its owner's)
  QWidget* shownPage() const;

  QString saveSet(const QString& path) const;      // the set as an experiment file: "" or an error line
  QString exportTable(const QString& path) const;  // the results table as CSV
  QString exportFigure(const QString& path);       // the set's figure (png/pdf/svg), drawn afresh

 Q_SIGNALS:
  void cleared();  // the set was emptied: what described its runs describes nothing now
  void runSelected(int index);  // one row of an ended run was selected: its result is to be shown

 private:
  // The table's columns, and the role that holds the entry a row shows, whatever the sort order.
  enum Column { kShow, kMethod, kDiffers, kEstimate, kTarget, kCeiling, kError, kSpeed, kStatus, kColumns };
  static constexpr int kIndexRole = Qt::UserRole + 1;
  void relabel();
  void updateRow(int index, const QMap<QString, QStringList>& labelKeys);  // ComparisonSet::LabelKeys
  void redrawFigure();
  QList<int> selectedIndices() const;
  void refreshTable();
  QString cellNumber(double nats) const;  // three decimals, in units_
  static QStringList headerLabels(Units units);  // the estimate's names the units shown

  std::unique_ptr<ComparisonSet> set_;
  Units units_ = Units::Nats;
  QList<int> series_;   // each run's series on the plot
  QStringList labels_;  // each run's label (ComparisonSet::labels)
  QCustomPlot* plotWidget_;
  std::unique_ptr<RunPlot> plot_;
  QCustomPlot* figure_;
  QTabWidget* tabs_;
  QTableWidget* table_;
  QSpinBox* smoothing_;
  QSpinBox* jobs_;
  QPushButton* resetView_;
  QPushButton* stopSelected_;
  QPushButton* clear_;
  int overlays_ = 0;
  QString overlayTask_;  // the overlays' task (ComparisonSet::taskKey): a run on another starts afresh
  bool figureStale_ = false;
  qint64 lastFigureMs_ = 0;
  qint64 lastTableMs_ = 0;
};

}  // namespace milab
