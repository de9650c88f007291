#include "plot/benchmark_figure.h"

#include <qcustomplot.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTextStream>
#include <cmath>

#include "engine/run_set.h"
#include "results/reading_words.h"

namespace milab {

namespace {

bool counts(const FigureRun& r) { return r.result.status == RunStatus::Finished && std::isfinite(r.result.trueMi); }

double tolerance(double truth) { return std::max(0.1, 0.1 * std::abs(truth)); }

// A Monte Carlo truth (bmi's mixtures) stands for the band of two standard errors about it: a reading counts as
// solved, or its interval as holding the truth, when it does so for some value in the band. 0 for an exact truth.
constexpr double kTruthBand = 2;

// bmi's "solved": the mean estimate within a factor 1.5 of a positive truth (of its band).
bool solved(double estimate, double truth, double truthSe) {
  const double low = truth - kTruthBand * truthSe, high = truth + kTruthBand * truthSe;
  return high > 0 && estimate >= low / 1.5 && estimate <= 1.5 * high;
}

// Mean over seeds of estimate - truth, per (task, column); tasks and columns in order of appearance.
struct Table {
  QStringList tasks, methods;
  QMap<QString, double> truth;                          // per task
  QMap<QString, double> truthSe;                        // per task: a Monte Carlo truth's standard error, else 0
  QMap<QPair<QString, QString>, QList<double>> errors;  // per (task, method)
  QMap<QPair<QString, QString>, int> failed;            // runs that failed, per (task, method)
  // The seeds' interval ends (ci_low, ci_high), per (task, method): a finite set's readings have them.
  QMap<QPair<QString, QString>, QList<double>> lows, highs;
  QMap<QPair<QString, QString>, QStringList> members;  // every run of the cell, failed ones too (figureRunKey)
};

Table tableOf(const QList<const FigureRun*>& runs) {
  Table t;
  // A column is a method and the settings its runs differ in (smile at tau 1 and 5, gan-dime with a derangement and
  // a permutation, 5,000 and 10,000 samples, recipe bmi and none: two columns, never one mean over both); the task is
  // the row, and the seeds are what a cell averages.
  // Only what differs within the method's own runs: "ksg" rather than "ksg report=last" beside infonce's best.
  QMap<QString, QList<RunSpec>> byMethod;
  for (const FigureRun* r : runs) byMethod[r->spec.method] << r->spec;
  QMap<QString, QStringList> keys;
  for (auto it = byMethod.cbegin(); it != byMethod.cend(); ++it) {
    QStringList& k = keys[it.key()] = differingKeys(it.value());
    k.removeAll("task");
    k.removeAll("seed");
    for (const RunSpec& s : it.value())
      for (auto p = s.taskParams.cbegin(); p != s.taskParams.cend(); ++p) k.removeAll(p.key());
  }
  for (const FigureRun* r : runs) {
    const QString column = runLabel(r->spec, keys.value(r->spec.method));
    if (!t.tasks.contains(r->spec.task)) t.tasks << r->spec.task;
    if (!t.methods.contains(column)) t.methods << column;
    t.members[{r->spec.task, column}] << figureRunKey(r->spec);
    if (r->result.status == RunStatus::Failed) ++t.failed[{r->spec.task, column}];
    if (!counts(*r)) continue;
    t.truth[r->spec.task] = r->result.trueMi;
    t.truthSe[r->spec.task] = r->result.trueMiStderr;
    t.errors[{r->spec.task, column}] << r->result.estimate - r->result.trueMi;
    const double low = readingValue(r->result.readings, "ci_low"), high = readingValue(r->result.readings, "ci_high");
    if (std::isfinite(low) && std::isfinite(high)) {
      t.lows[{r->spec.task, column}] << low;
      t.highs[{r->spec.task, column}] << high;
    }
  }
  return t;
}

double mean(const QList<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.isEmpty() ? std::nan("") : s / v.size();
}

// A cell's interval, the mean of its seeds' ends, leaves out the truth (false where its runs have none).
bool intervalMissesTruth(const Table& t, const QString& task, const QString& column) {
  const double low = mean(t.lows.value({task, column})), high = mean(t.highs.value({task, column}));
  const double truth = t.truth.value(task, std::nan("")), band = kTruthBand * t.truthSe.value(task);
  return std::isfinite(low) && std::isfinite(truth) && (truth + band < low || truth - band > high);
}

}  // namespace

QList<BenchmarkRow> benchmarkSummary(const QList<FigureRun>& runs) {
  QList<const FigureRun*> all;
  for (const FigureRun& r : runs) all << &r;
  const Table t = tableOf(all);
  QList<BenchmarkRow> rows;
  for (const QString& m : t.methods) {
    BenchmarkRow row;
    row.method = m;
    double sum = 0;
    for (const QString& task : t.tasks) {
      const QList<double> e = t.errors.value({task, m});
      const int failed = t.failed.value({task, m});
      row.failedRuns += failed;
      row.tasksWithoutReading += e.isEmpty() && failed > 0;
      if (e.isEmpty()) continue;
      const double err = mean(e), truth = t.truth.value(task);
      ++row.tasks;
      sum += std::abs(err);
      row.withinTolerance += std::abs(err) <= tolerance(truth);
      row.solved += solved(truth + err, truth, t.truthSe.value(task));
    }
    row.meanAbsError = row.tasks ? sum / row.tasks : std::nan("");
    rows << row;
  }
  return rows;
}

QString benchmarkCsv(const QList<BenchmarkRow>& rows) {
  QString s;
  QTextStream out(&s);
  out << "method,tasks,mean_abs_error,within_10pct_or_0.1,solved_within_factor_1.5,failed_runs,tasks_without_reading\n";
  for (const BenchmarkRow& r : rows)
    out << r.method << ',' << r.tasks << ',' << QString::number(r.meanAbsError, 'g', 6) << ',' << r.withinTolerance
        << ',' << r.solved << ',' << r.failedRuns << ',' << r.tasksWithoutReading << '\n';
  return s;
}

FigureSize drawBenchmarkHeatmap(QCustomPlot* plot, const QList<const FigureRun*>& runs) {
  const Table t = tableOf(runs);
  const int nTasks = t.tasks.size(), nMethods = t.methods.size();
  plot->plotLayout()->addElement(
      0, 0,
      new QCPTextElement(
          plot,
          QStringLiteral("estimate - truth (nats, mean over seeds)\nblue reads low, red high (full "
                         "colour from %1 nats); grey: no reading\n*: a seed failed; x: the truth outside "
                         "the interval over the data")
              .arg(kHeatmapReachNats),
          QFont("sans", 10, QFont::Bold)));
  auto* rect = new QCPAxisRect(plot);
  plot->plotLayout()->addElement(1, 0, rect);
  QCPAxis* x = rect->axis(QCPAxis::atTop);
  QCPAxis* y = rect->axis(QCPAxis::atLeft);
  rect->axis(QCPAxis::atBottom)->setVisible(false);
  x->setVisible(true);
  QSharedPointer<QCPAxisTickerText> xTicks(new QCPAxisTickerText), yTicks(new QCPAxisTickerText);
  // One setting per line ("mmg", "samples=5000"): on one line, columns that differ in a setting ran into each other.
  for (int m = 0; m < nMethods; ++m) xTicks->addTick(m, QString(t.methods[m]).replace(' ', '\n'));
  for (int k = 0; k < nTasks; ++k)
    yTicks->addTick(k, t.truth.contains(t.tasks[k])
                           ? QStringLiteral("%1 (%2)").arg(t.tasks[k]).arg(t.truth.value(t.tasks[k]), 0, 'f', 2)
                           : t.tasks[k]);
  x->setTicker(xTicks);
  y->setTicker(yTicks);
  for (QCPAxis* a : {x, y}) {
    a->setTickLabelFont(QFont("sans", 8));
    a->setSubTicks(false);
    a->setTickLength(0, 0);
    a->grid()->setVisible(false);
  }
  x->setRange(-0.5, nMethods - 0.5);
  y->setRange(-0.5, nTasks - 0.5);
  y->setRangeReversed(true);  // the first task on top, in the grid's order

  auto* map = new QCPColorMap(x, y);
  map->data()->setSize(nMethods, nTasks);
  map->data()->setRange(QCPRange(0, nMethods - 1), QCPRange(0, nTasks - 1));
  // The colour scale spans +-2 nats whatever the data, as the title says, so that two heatmaps read alike and a
  // cell's colour means the same error in each; beyond 2 nats it saturates (the number in the cell says how far).
  // Scaled to the data, one -1.47 turned full blue while the title promised full colour only from 2 nats.
  constexpr double reach = kHeatmapReachNats;
  QVariantList cellRuns(nMethods * nTasks);  // heatmapRunsAt: cell (m, k) at k * nMethods + m
  for (int m = 0; m < nMethods; ++m)
    for (int k = 0; k < nTasks; ++k) {
      cellRuns[k * nMethods + m] = t.members.value({t.tasks[k], t.methods[m]});
      const QList<double> e = t.errors.value({t.tasks[k], t.methods[m]});
      const double v = mean(e);
      map->data()->setCell(m, k, std::isfinite(v) ? v : std::nan(""));
      auto* label = new QCPItemText(plot);
      label->setClipToAxisRect(true);
      label->setClipAxisRect(rect);
      label->position->setAxes(x, y);
      label->position->setCoords(m, k);
      label->setFont(QFont("sans", 7));
      // A failed run is drawn, not dropped: "failed" where no seed read, a star beside a mean that lost a seed.
      const bool someFailed = t.failed.value({t.tasks[k], t.methods[m]}) > 0;
      const QString missed = intervalMissesTruth(t, t.tasks[k], t.methods[m]) ? QStringLiteral(" x") : QString();
      label->setText(std::isfinite(v) ? QString::number(v, 'f', 2) + (someFailed ? "*" : "") + missed
                                      : (someFailed ? QStringLiteral("failed") : QStringLiteral("-")));
    }
  QCPColorGradient gradient;
  gradient.setColorStopAt(0.0, QColor(33, 102, 172));
  gradient.setColorStopAt(0.5, QColor(247, 247, 247));
  gradient.setColorStopAt(1.0, QColor(178, 24, 43));
  gradient.setNanHandling(QCPColorGradient::nhNanColor);
  gradient.setNanColor(QColor(200, 200, 200));
  map->setGradient(gradient);
  map->setDataRange(QCPRange(-reach, reach));
  map->setInterpolate(false);
  // Thin lines between the cells: a grid whose errors are all small is near white, and read as a blank figure
  // without them (a new user's trial).
  const auto separator = [&](double x0, double y0, double x1, double y1) {
    auto* line = new QCPItemLine(plot);
    line->setClipAxisRect(rect);
    for (QCPItemPosition* p : {line->start, line->end}) p->setAxes(x, y);
    line->start->setCoords(x0, y0);
    line->end->setCoords(x1, y1);
    line->setPen(QPen(QColor(210, 210, 210), 1));
  };
  for (int m = 0; m <= nMethods; ++m) separator(m - 0.5, -0.5, m - 0.5, nTasks - 0.5);
  for (int k = 0; k <= nTasks; ++k) separator(-0.5, k - 0.5, nMethods - 0.5, k - 0.5);
  map->setProperty("cellRuns", cellRuns);
  map->setProperty("columns", nMethods);
  auto* scale = new QCPColorScale(plot);
  plot->plotLayout()->addElement(1, 1, scale);
  map->setColorScale(scale);
  scale->setGradient(gradient);
  scale->setDataRange(QCPRange(-reach, reach));
  scale->axis()->setLabel("nats");
  auto* margins = new QCPMarginGroup(plot);
  rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
  scale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
  // The task labels take about 320 pixels and the colour scale 80: each column keeps about 110 for its labels
  // ("samples=10000" is about 90 at 8 points; test_figures heatmapColumnLabelsFitTheirColumns measures them).
  return {1, std::max(700, 400 + 110 * nMethods), std::max(420, 90 + 19 * nTasks)};
}

QString figureRunKey(const RunSpec& spec) {
  const QJsonObject flat = QJsonObject::fromVariantMap(runSpecToFlat(spec));
  return QString::fromUtf8(QJsonDocument(flat).toJson(QJsonDocument::Compact));
}

QStringList heatmapRunsAt(QCustomPlot* plot, const QPointF& pixel) {
  for (int i = 0; i < plot->plottableCount(); ++i) {
    const auto* map = qobject_cast<const QCPColorMap*>(plot->plottable(i));
    if (!map || !map->property("cellRuns").isValid() || !map->keyAxis()->axisRect()->rect().contains(pixel.toPoint()))
      continue;
    const int columns = map->property("columns").toInt();
    const int m = int(std::lround(map->keyAxis()->pixelToCoord(pixel.x())));
    const int k = int(std::lround(map->valueAxis()->pixelToCoord(pixel.y())));
    const QVariantList cells = map->property("cellRuns").toList();
    if (m < 0 || m >= columns || k < 0 || k * columns + m >= cells.size()) return {};
    return cells[k * columns + m].toStringList();
  }
  return {};
}

}  // namespace milab
