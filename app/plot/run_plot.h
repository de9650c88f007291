#pragma once
// Training curves of one or many runs on one plot, live: per run a faint raw curve and a moving average in its
// own style (plot/palette), its ceilings dashed in its colour, its oracle dotted; each distinct target (the true
// MI, I(x;y|x') for cnce, 0 for nce-density; a step line for a staircase) in black. Runs that differ only by
// seed can be drawn as their mean with a min-max band. A vision objective's terms are thin lines in its colour
// and its probe accuracy diamonds on a right axis. The user zooms and pans with the mouse; resetView() fits
// the data again. Used live by the window (appended on a timer) and once by the CLI (showRun).
#include <QList>
#include <QMap>
#include <QString>
#include <QVector>
#include <functional>

#include "engine/run.h"
#include "plot/palette.h"
#include "results/display_units.h"

class QCustomPlot;
class QCPAbstractPlottable;
class QCPGraph;
class QCPErrorBars;
class QCPLegend;
class QCPTextElement;

namespace milab {

class RunPlot {
 public:
  explicit RunPlot(QCustomPlot* plot);

  // Removes every run; `title` heads the plot.
  void clear(const QString& title);
  // A run's series, drawn at once with its target and ceilings (known before its first step). Returns its id.
  int addRun(const QString& label, const SeriesStyle& style, const RunSpec& spec, const RunResult& known);
  void append(int id, const QVector<CurvePoint>& points);  // addData; the caller replots (refresh) once per tick
  // The readings a run attaches to a step after it (Run::takeNewHeldOut): the finite-sample protocol's held-out
  // readings (CurvePoint::heldOut) as discs in the run's colour, and a learned representation's probe accuracy
  // (CurvePoint::probe) as diamonds on the right axis, from 0 to 1.
  void appendHeldOut(int id, const QVector<CurvePoint>& points);
  void setOracle(int id, double value, double stderror);   // the bound with the task's analytic critic
  // A staircase's oracle follows its levels: a dotted step line at each level's mean reading, over the run's own
  // level spans (`stepsPerLevel` of the run, not of the oracle, which reads fewer steps per level).
  void setOracleLevels(int id, const QList<LevelResult>& levels, int stepsPerLevel);
  // The run is over: the view fits the steps it did, not the ones it planned. A run that ended with an estimate
  // but no training curve (KSG trains nothing) is drawn as one point with its standard error as an error bar,
  // at the right of the steps shown, where the trained runs' final readings are.
  void markEnded(int id, const RunResult& result);
  void setRunVisible(int id, bool visible);
  void setRunLabel(int id, const QString& label);  // labels change as a set grows (what differs between runs)
  // Draws the runs of each group (more than one member) as their mean with a min-max band, instead of each.
  // `seeds`, when given, holds each group's number of distinct seeds: a group that repeats a seed says "mean of 7
  // runs, 4 seeds" rather than counting its runs as seeds.
  void setSeedGroups(const QList<QPair<QString, QList<int>>>& groups, const QList<int>& seeds = {});

  // The moving average's window in steps (the window's spin box); recomputes every smoothed curve.
  void setSmoothingWindow(int steps);
  int smoothingWindow() const { return window_; }
  // Fits the axes to what is shown (the planned steps while runs train, the steps done once they ended) and
  // goes back to following the data after the user zoomed or panned.
  void resetView();
  void setFollowData(bool follow) { follow_ = follow; }
  bool followsData() const { return follow_; }
  // Rescales when following the data, then queues a replot: call once per refresh tick.
  void refresh();

  // The units the y axis and the legend's numbers are shown in (the data stay in nats): switched at any time.
  void setUnits(Units units);
  Units units() const { return units_; }

  // The CLI's plot of one finished run.
  void showRun(const RunSpec& spec, const RunResult& result, const QVector<CurvePoint>& curve);

  int runCount() const { return int(runs_.size()); }
  int pointCount(int id) const;
  int pointCount() const { return runs_.isEmpty() ? 0 : pointCount(int(runs_.size()) - 1); }
  QCustomPlot* widget() const { return plot_; }

 private:
  struct Series {
    QString label;  // as the caller gave it; the legend adds " (upper bound)" for CLUB
    bool upperBound = false;
    SeriesStyle own;    // the style the run was added with
    SeriesStyle style;  // what its lines are drawn in: its own, or its seed group's (the first member's)
    int plannedSteps = 1;
    QVector<double> steps, values;
    double sum = 0;  // of the last `window_` values: the moving average, incrementally
    QCPGraph* raw = nullptr;
    QCPGraph* smooth = nullptr;
    QList<QCPGraph*> references;  // ceilings and oracle
    QList<double> levels;         // target, oracle and final reading, for the y range
    QList<double> ceilings;       // in the y range only when near it (resetView)
    QCPGraph* heldOut = nullptr;  // its held-out readings (finite-sample protocol), made at the first
    QMap<QString, QCPGraph*> terms;  // the objective's terms per step (CurvePoint::terms), thin, in its colour
    QCPGraph* probe = nullptr;       // its linear-probe accuracy (CurvePoint::probe), on the right axis
    QCPGraph* point = nullptr;    // a run without a training curve: its reading as one point
    QCPErrorBars* bars = nullptr;
    QCPGraph* interval = nullptr;  // a finite-sample run's final reading with its interval over the data
    QCPErrorBars* intervalBars = nullptr;
    double pointValue = 0, pointError = 0;  // a run without a training curve: its reading, and its standard error
    bool pointSpread = false;                // (false: one reading, none)
    double ciLow = 0, ciHigh = 0, ciLevel = 0, ciValue = 0;  // the interval's reading, in nats
    double ciStep = 0;                                       // where it is drawn: the reported reading's step
    bool visible = true;
    bool ended = false;
    int group = -1;
  };
  struct Group {
    QString label;
    QList<int> members;
    int done = 0;  // the members' points when the group was last drawn
    QCPGraph *mean = nullptr, *low = nullptr, *high = nullptr;
  };
  QCPGraph* addGraph(const QPen& pen, const QString& name, bool inLegend);
  static QString legendName(const Series& s);
  // A number of nats as the legend shows it, in units_ (two decimals, three with `fine`).
  QString number(double nats, bool fine = false) const;
  QString pointName(const Series& s) const;     // e.g. "ksg: 1.00 ± 0.01 (no training; error bar 1 stderr)"
  QString intervalName(const Series& s) const;  // e.g. "infonce: 0.950 [0.911, 0.989], its 95% interval ..."
  // A legend name with numbers in it, made again when the units change.
  void nameInUnits(QCPAbstractPlottable* graph, std::function<QString()> name);
  void showYLabel();
  // A horizontal line (a ceiling, an oracle, a flat target) of run `series` (-1: every run's). Its data is clipped
  // to the visible x range: Qt drops the dash pattern of a line millions of pixels long (a 10^6-step run zoomed
  // to its first hundred steps).
  QCPGraph* addFlatLine(const QPen& pen, const QString& name, double value, int series, bool ceiling = false);
  void clipFlatLines();
  double spanOf(int series) const;
  void addTarget(const RunSpec& spec, const RunResult& known);
  void extendGroup(Group& g);
  void recolorReferences(Series& s);  // its ceilings, oracle and held-out readings in s.style
  void updateVisibility();
  // The final reading of a trained finite-sample run at its last step, its interval (ci_low, ci_high) as bars.
  void markInterval(Series& s, const RunResult& result);
  // The readings without a curve: side by side at the right of the data, or spread over the axis when the view
  // holds nothing else.
  void placePoints(double xMax, bool readingsOnly);
  // Only readings of methods that train nothing (KSG alone, or from the history) are shown: a training-step axis
  // would place them at a step that means nothing, so the axis says what they are instead.
  bool showsReadingsOnly() const;
  bool legendListsReferences() const { return runs_.size() <= 3; }
  // With more runs than legendListsReferences() allows, each ceiling, oracle, held-out reading and interval leaves the
  // legend and one key entry per kind (grey, in its dash or mark) says what those marks in a run's colour are: the
  // legend of a four-method set then sits beside the data at 1280 x 720 (issue 79).
  void updateReferenceLegend();

  QCustomPlot* plot_;
  QCPLegend* legend_ = nullptr;
  QList<Series> runs_;
  QList<Group> groups_;
  QMap<QString, QCPGraph*> targets_;  // one black line per distinct target
  struct FlatLine {
    QCPGraph* graph;
    double value;
    int series;
    bool ceiling = false;
    double drawnAt = value;  // a ceiling above the view: at its top edge, labelled (markCeilingsAbove)
  };
  QList<FlatLine> flatLines_;
  QList<QCPItemText*> edgeLabels_;  // "ceiling log K = 7.82 above" for each ceiling drawn at the edge
  // Ceilings above the view `top` are drawn at its edge with their value, in their run's colour (issue 79: a
  // 0.18-nat task was drawn on 0 to 8 because log N_test = 7.82).
  void markCeilingsAbove(double top, double span);
  QCPGraph* ceilingKey_ = nullptr;  // the legend's key entries (no data), made when first needed
  QCPGraph* oracleKey_ = nullptr;
  QCPGraph* heldOutKey_ = nullptr;   // and for the held-out circles and the final readings' diamonds
  QCPGraph* intervalKey_ = nullptr;
  QCPGraph* moreKey_ = nullptr;  // "and 16 more" once a set has more runs than the legend names
  void capRunEntries();
  int window_ = 50;
  bool follow_ = true;
  Units units_ = Units::Nats;
  QString yLabel_ = QStringLiteral("estimate");  // the y axis's quantity; its unit follows units_
  struct NumberedName {
    QCPAbstractPlottable* graph;
    std::function<QString()> name;
  };
  QList<NumberedName> numberedNames_;
  // A failed run's plot (showRun) spans every reading: its wild steps are what it has to show, not noise to leave
  // off scale, and a line under the title says that it failed and why.
  bool spanEveryReading_ = false;
  QCPTextElement* failedNote_ = nullptr;
};

}  // namespace milab
