// RunPlot's runs: their series, targets, ceilings, oracles and held-out readings, added and appended live.
#include "plot/run_plot.h"

#include <qcustomplot.h>

#include <algorithm>
#include <limits>

#include "method/shared_method_options.h"
#include "plot/side_legend.h"
#include "results/reading_words.h"
#include "plot/smoothing.h"
#include "plot/unit_ticker.h"

namespace milab {

namespace {
const QFont kTitleFont("sans", 10, QFont::Bold);
const Qt::PenStyle kCeilingStyles[] = {Qt::DashLine, Qt::DashDotLine, Qt::DashDotDotLine};

// A number in a series key: two decimals of nats, so equal truths share one line.
QString keyNumber(double v) { return QString::number(v, 'f', 2); }
}  // namespace

RunPlot::RunPlot(QCustomPlot* plot) : plot_(plot) {
  plot_->setAutoAddPlottableToLegend(false);
  plot_->xAxis->setLabel("training step");
  plot_->yAxis->setTicker(QSharedPointer<UnitTicker>::create(units_));
  showYLabel();
  // The legend sits beside the data, never over it.
  legend_ = plot_->legend;
  legend_->setVisible(true);
  plot_->axisRect()->insetLayout()->take(legend_);
  plot_->plotLayout()->insertRow(0);
  plot_->plotLayout()->addElement(0, 0, new QCPTextElement(plot_, "", kTitleFont));
  placeSideLegend(plot_, 1, 1, legend_);
  plot_->setNoAntialiasingOnDrag(true);
  // Mouse: drag pans, the wheel zooms (both axes); a double click fits the data again. Once the user moves the
  // view, the plot stops following the data until the view is reset.
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  QObject::connect(plot_, &QCustomPlot::mousePress, plot_, [this](QMouseEvent*) { follow_ = false; });
  QObject::connect(plot_, &QCustomPlot::mouseWheel, plot_, [this](QWheelEvent*) { follow_ = false; });
  QObject::connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), plot_,
                   [this](const QCPRange&) { clipFlatLines(); });
  QObject::connect(plot_, &QCustomPlot::mouseDoubleClick, plot_, [this](QMouseEvent*) {
    resetView();
    plot_->replot(QCustomPlot::rpQueuedReplot);
  });
}

QCPGraph* RunPlot::addGraph(const QPen& pen, const QString& name, bool inLegend) {
  QCPGraph* g = plot_->addGraph();
  g->setPen(pen);
  g->setName(name);
  if (inLegend) g->addToLegend(legend_);
  return g;
}

QString RunPlot::legendName(const Series& s) { return s.upperBound ? s.label + " (upper bound)" : s.label; }

QCPGraph* RunPlot::addFlatLine(const QPen& pen, const QString& name, double value, int series, bool ceiling) {
  QCPGraph* g = addGraph(pen, name, false);
  flatLines_ << FlatLine{g, value, series, ceiling, value};  // its data comes from clipFlatLines(), once added
  return g;
}

double RunPlot::spanOf(int series) const {
  if (series >= 0) {
    const Series& s = runs_[series];
    return s.ended && !s.steps.isEmpty() ? s.steps.last() : double(s.plannedSteps);
  }
  double span = 1;
  for (int i = 0; i < runs_.size(); ++i) span = std::max(span, spanOf(i));
  return span;
}

void RunPlot::clipFlatLines() {
  const QCPRange shown = plot_->xAxis->range();
  for (const FlatLine& line : flatLines_) {
    const double x0 = std::max(0.0, shown.lower), x1 = std::min(spanOf(line.series), shown.upper);
    if (x1 > x0)
      line.graph->setData({x0, x1}, {line.drawnAt, line.drawnAt}, true);
    else
      line.graph->data()->clear();
  }
}

void RunPlot::clear(const QString& title) {
  plot_->clearPlottables();
  flatLines_.clear();
  ceilingKey_ = oracleKey_ = heldOutKey_ = intervalKey_ = moreKey_ = nullptr;
  spanEveryReading_ = false;
  if (failedNote_) {  // the failed run's line goes with it
    plot_->plotLayout()->remove(failedNote_);
    plot_->plotLayout()->simplify();
    failedNote_ = nullptr;
  }
  plot_->clearItems();
  edgeLabels_.clear();
  legend_->clearItems();
  legend_->setVisible(false);  // until something is drawn (refresh)
  runs_.clear();
  groups_.clear();
  targets_.clear();
  numberedNames_.clear();
  follow_ = true;
  if (auto* t = qobject_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0))) t->setText(title);
  yLabel_ = QStringLiteral("estimate");
  showYLabel();
  plot_->yAxis2->setVisible(false);  // until a run brings a probe reading
  resetView();
  plot_->replot();
}

void RunPlot::addTarget(const RunSpec& spec, const RunResult& known) {
  QVector<double> x, y;
  QString key = known.targetName, name;
  if (!known.levels.isEmpty()) {  // a staircase: the true value steps through the levels
    for (int l = 0; l < known.levels.size(); ++l) {
      x << double(l) * known.stepsPerLevel << double(l + 1) * known.stepsPerLevel;
      y << known.levels[l].target << known.levels[l].target;
      key += "|" + keyNumber(known.levels[l].target);
    }
    name = QStringLiteral("true %1 (staircase)").arg(known.targetName);
  } else {
    if (std::isnan(known.trueMi)) return;  // a dataset: no truth to draw
    x << 0 << std::max(1, spec.steps);
    y << known.trueMi << known.trueMi;
    key += "|" + keyNumber(known.trueMi);
  }
  if (targets_.contains(key)) {  // the same target again: the line spans the longest run
    if (!known.levels.isEmpty() &&
        x.last() > targets_.value(key)->data()->at(targets_.value(key)->dataCount() - 1)->key)
      targets_.value(key)->setData(x, y, true);
    return;
  }
  // The total MI solid, any other target (I(x;y|x'), log Z) dashed, all in black.
  const bool total = known.targetName.startsWith("I(x,x';y)") || known.targetName == "I(x;y)";
  const QPen pen(Qt::black, 2, total ? Qt::SolidLine : Qt::DashLine);
  QCPGraph* g = known.levels.isEmpty() ? addFlatLine(pen, name, known.trueMi, -1) : addGraph(pen, name, false);
  if (!known.levels.isEmpty()) g->setData(x, y, true);
  if (known.levels.isEmpty())
    nameInUnits(g, [this, target = known.targetName, value = known.trueMi, se = known.trueMiStderr] {
      return QStringLiteral("true %1 = %2")
          // Three decimals beside a Monte Carlo error, so that it never reads "± 0.00".
          .arg(target, truthInWords(value, se, [this, se](double v) { return number(v, se > 0); }, QStringLiteral("±")));
    });
  g->addToLegend(legend_);
  targets_.insert(key, g);
}

int RunPlot::addRun(const QString& label, const SeriesStyle& style, const RunSpec& spec, const RunResult& known) {
  Series s;
  s.label = label;
  s.upperBound = known.upperBound;
  s.own = s.style = style;
  s.plannedSteps = std::max(1, spec.steps);
  QColor faint = style.color;
  faint.setAlpha(70);
  s.raw = addGraph(QPen(faint, 1), label + " (per step)", false);
  s.smooth = addGraph(style.pen(2), legendName(s), true);
  addTarget(spec, known);
  s.levels << known.trueMi;
  for (const LevelResult& l : known.levels) s.levels << l.target;
  for (int i = 0; i < known.ceilings.size(); ++i) {
    const Ceiling& c = known.ceilings[i];
    s.references << addFlatLine(QPen(style.color, 1.5, kCeilingStyles[i % 3]), QString(), c.value, int(runs_.size()),
                                true);
    nameInUnits(s.references.last(),
                [this, c] { return QStringLiteral("ceiling %1 = %2").arg(c.name, number(c.value)); });
    s.ceilings << c.value;
  }
  runs_ << s;
  clipFlatLines();
  updateReferenceLegend();
  return int(runs_.size()) - 1;
}

void RunPlot::updateReferenceLegend() {
  bool anyCeiling = false, anyOracle = false, anyHeldOut = false, anyInterval = false;
  // With a few runs the legend names each ceiling, oracle, held-out reading and interval, with its value.
  const auto listed = [this](QCPGraph* g) {
    if (legendListsReferences())
      g->addToLegend(legend_);
    else
      g->removeFromLegend(legend_);
  };
  for (const Series& r : runs_) {
    for (QCPGraph* g : r.references) {
      listed(g);
      (g->pen().style() == Qt::DotLine ? anyOracle : anyCeiling) = true;
    }
    if (r.heldOut) listed(r.heldOut), anyHeldOut = true;
    if (r.interval) listed(r.interval), anyInterval = true;
  }
  const QColor grey(90, 90, 90);
  const auto key = [&](QCPGraph*& graph, bool wanted, Qt::PenStyle style, QCPScatterStyle::ScatterShape mark,
                       const QString& name) {
    if (!graph && wanted && !legendListsReferences()) {
      graph = addGraph(QPen(grey, 1.5, style), name, false);
      if (mark != QCPScatterStyle::ssNone) {
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(mark, QPen(grey, 1.5), Qt::white, 8));
      }
    }
    if (!graph) return;
    graph->removeFromLegend(legend_);  // (re)added last, below the runs
    if (wanted && !legendListsReferences()) graph->addToLegend(legend_);
  };
  key(ceilingKey_, anyCeiling, Qt::DashLine, QCPScatterStyle::ssNone,
      QStringLiteral("ceilings (dashed, run's colour; table)"));
  key(oracleKey_, anyOracle, Qt::DotLine, QCPScatterStyle::ssNone, QStringLiteral("oracle critics (dotted, run's colour)"));
  key(heldOutKey_, anyHeldOut, Qt::SolidLine, QCPScatterStyle::ssCircle,
      QStringLiteral("held-out readings (circles, run's colour)"));
  key(intervalKey_, anyInterval, Qt::SolidLine, QCPScatterStyle::ssDiamond,
      QStringLiteral("final readings and their intervals (diamonds; table)"));
}

void RunPlot::append(int id, const QVector<CurvePoint>& points) {
  if (points.isEmpty() || id < 0 || id >= runs_.size()) return;
  Series& s = runs_[id];
  QVector<double> steps, values, smoothed;
  for (const CurvePoint& p : points) {
    s.steps << p.step;
    s.values << p.estimate;
    s.sum += p.estimate;
    const int n = int(s.values.size());
    if (n > window_) s.sum -= s.values[n - 1 - window_];
    steps << p.step;
    values << p.estimate;
    smoothed << s.sum / std::min(n, window_);
  }
  s.raw->addData(steps, values, true);
  s.smooth->addData(steps, smoothed, true);
  static const Qt::PenStyle kTermStyles[] = {Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};
  for (const CurvePoint& p : points)
    for (const NamedValue& t : p.terms) {
      QCPGraph*& g = s.terms[t.name];
      if (!g) {
        QColor faint = s.style.color;
        faint.setAlpha(160);
        g = addGraph(QPen(faint, 1, kTermStyles[(s.terms.size() - 1) % 4]), s.label + ": " + t.name, true);
        g->setVisible(s.visible);
      }
      g->addData(p.step, t.value);
    }
  if (s.group >= 0) extendGroup(groups_[s.group]);
}

void RunPlot::appendHeldOut(int id, const QVector<CurvePoint>& points) {
  if (id < 0 || id >= runs_.size()) return;
  Series& s = runs_[id];
  for (const CurvePoint& p : points) {
    if (std::isnan(p.heldOut)) continue;
    if (!s.heldOut) {
      s.heldOut = addGraph(QPen(s.style.color, 1.5), s.label + " (held-out reading)", true);
      s.heldOut->setLineStyle(QCPGraph::lsNone);
      s.heldOut->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(s.style.color, 1.5), Qt::white, 8));
      updateReferenceLegend();
    }
    s.heldOut->addData(p.step, p.heldOut);
  }
  for (const CurvePoint& p : points) {
    if (std::isnan(p.probe)) continue;
    if (!s.probe) {
      plot_->yAxis2->setVisible(true);
      plot_->yAxis2->setRange(0, 1);
      plot_->yAxis2->setLabel("linear-probe accuracy");
      s.probe = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
      s.probe->setPen(QPen(s.style.color, 1.5));
      s.probe->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(s.style.color, 1.5), s.style.color, 9));
      s.probe->setName(s.label + ": probe accuracy (right axis)");
      s.probe->addToLegend(legend_);
      s.probe->setVisible(s.visible);
    }
    s.probe->addData(p.step, p.probe);
  }
}

void RunPlot::setOracle(int id, double value, double stderror) {
  if (id < 0 || id >= runs_.size()) return;
  Series& s = runs_[id];
  // Its standard error is named: a few evaluation batches of small K are noisy, and a line looks exact.
  QCPGraph* g = addFlatLine(QPen(s.style.color, 1.5, Qt::DotLine), QString(), value, id);
  nameInUnits(g, [this, label = s.label, value, stderror] {
    return QStringLiteral("oracle critic (%1) = %2 ± %3").arg(label, number(value), number(stderror));
  });
  s.references << g;
  updateReferenceLegend();
  clipFlatLines();
  s.levels << value;
  updateVisibility();
}

void RunPlot::setOracleLevels(int id, const QList<LevelResult>& levels, int stepsPerLevel) {
  if (id < 0 || id >= runs_.size()) return;
  Series& s = runs_[id];
  QVector<double> x, y;
  for (int l = 0; l < levels.size(); ++l) {
    if (levels[l].steps == 0) continue;  // a level the oracle did not reach
    x << double(l) * stepsPerLevel << double(l + 1) * stepsPerLevel;
    y << levels[l].mean << levels[l].mean;
    s.levels << levels[l].mean;
  }
  if (x.isEmpty()) return;
  QCPGraph* g = addGraph(QPen(s.style.color, 1.5, Qt::DotLine),
                         QStringLiteral("oracle critic (%1), per level").arg(s.label), false);
  g->setData(x, y, true);
  s.references << g;
  updateReferenceLegend();
  updateVisibility();
}

void RunPlot::setRunVisible(int id, bool visible) {
  if (id < 0 || id >= runs_.size()) return;
  runs_[id].visible = visible;
  updateVisibility();
}

void RunPlot::setRunLabel(int id, const QString& label) {
  if (id < 0 || id >= runs_.size()) return;
  Series& s = runs_[id];
  s.label = label;
  s.raw->setName(label + " (per step)");
  s.smooth->setName(legendName(s));
  if (s.point) s.point->setName(pointName(s));
  if (s.interval) s.interval->setName(intervalName(s));
}

void RunPlot::showRun(const RunSpec& spec, const RunResult& result, const QVector<CurvePoint>& curve) {
  QString title = QStringLiteral("%1 on %2").arg(spec.method, spec.task);
  const SharedMethodOptions shared = SharedMethodOptions::from(spec.methodParams);
  if (shared.K) title += QStringLiteral(" (K = %1)").arg(int(*shared.K));
  if (shared.bits) title += QStringLiteral(" (m = %1 bits)").arg(*shared.bits);
  clear(title);
  spanEveryReading_ = result.status == RunStatus::Failed;
  if (spanEveryReading_) {
    // The reason in lines of at most ~100 characters, broken between words (the plot's width), three at most
    // (the summary and stderr have it whole).
    QStringList lines{QStringLiteral("failed:")};
    for (const QString& word : result.reason.section(": training did not diverge", 0, 0).split(' ')) {
      if (lines.last().size() + 1 + word.size() > 100) lines << QString();
      lines.last() += (lines.last().isEmpty() ? "" : " ") + word;
    }
    if (lines.size() > 3) lines = lines.mid(0, 3), lines.last() += " ...";
    failedNote_ = new QCPTextElement(plot_, lines.join('\n'), QFont("sans", 9));
    failedNote_->setTextColor(QColor(0xc0, 0x39, 0x2b));
    plot_->plotLayout()->insertRow(1);
    plot_->plotLayout()->addElement(1, 0, failedNote_);
  }
  if (result.targetName == "log Z") {
    yLabel_ = QStringLiteral("log Z, the model's log total mass");
    showYLabel();
  }
  const int id = addRun(spec.method, seriesStyle(0), spec, result);
  append(id, curve);
  appendHeldOut(id, curve);
  markEnded(id, result);
  legend_->setVisible(true);
  resetView();
  plot_->replot();
}

void RunPlot::markEnded(int id, const RunResult& result) {
  if (id < 0 || id >= runs_.size()) return;
  Series& s = runs_[id];
  s.ended = true;
  if (s.steps.isEmpty() && hasEstimate(result) && !s.point) {
    const bool spread = hasStandardError(result);  // one reading has none: no bar, no "± 0.000"
    s.pointValue = result.estimate;
    s.pointError = result.stderror;
    s.pointSpread = spread;
    s.point = addGraph(QPen(s.style.color, 2), pointName(s), true);
    s.point->setLineStyle(QCPGraph::lsNone);
    s.point->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, s.style.color, s.style.color, 9));
    s.point->setData({0.0}, {result.estimate});
    if (spread) {
      s.bars = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
      s.bars->removeFromLegend();
      s.bars->setDataPlottable(s.point);
      s.bars->setPen(QPen(s.style.color, 2));
      s.bars->setWhiskerWidth(12);
      s.bars->setData(QVector<double>{result.stderror});
    }
    s.smooth->removeFromLegend(legend_);
    s.levels << result.estimate - result.stderror << result.estimate + result.stderror;
    const bool readingsOnly = showsReadingsOnly();
    placePoints(readingsOnly ? 1 : spanOf(-1), readingsOnly);  // a readings-only view spans 0..1 (resetView)
    updateVisibility();
  }
  if (!s.steps.isEmpty() && !s.interval) markInterval(s, result);
  clipFlatLines();
}

int RunPlot::pointCount(int id) const { return id >= 0 && id < runs_.size() ? runs_[id].raw->dataCount() : 0; }

}  // namespace milab
