#pragma once
// The pieces the series figures (estimate against K, against the truth, bars, the staircase) are drawn with: a
// run's series label, the mean and spread over seeds, panels and lines, tick placement, and the shared y range
// with its off-scale notes. plot/experiment_figure.h says which figure an experiment gets; each figure's layout
// has its own file (plot/series_figures.h).
#include <QColor>
#include <QFont>
#include <QList>
#include <QMap>
#include <QPen>
#include <QString>
#include <QStringList>
#include <QVector>

#include "plot/experiment_figure.h"
#include "plot/palette.h"

class QCPAxis;
class QCPAxisRect;
class QCPGraph;
class QCPLegend;

namespace milab::figure {

inline const QFont kTitleFont("sans", 10, QFont::Bold);
inline const QColor kCeilingGrey(110, 110, 110);
inline const Qt::PenStyle kCeilingStyles[] = {Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};

bool isFinished(const FigureRun& r);
double numberOf(const RunSpec& spec, const QString& key);
double kOf(const FigureRun& r);       // the run's K, 0 for a method without one
double targetOf(const FigureRun& r);  // the true value of what the run estimates

// Each method's runs are labelled by their own keys (labelKeysByMethod): the settings they differ in, and the task's.
using LabelKeys = QMap<QString, QStringList>;
// The label a run's series carries: the method and whatever else differs between the runs, except the keys the
// figure puts on its axes or panels (and the seed, over which series are averaged).
QString seriesLabel(const FigureRun& r, const LabelKeys& keys, const QStringList& axisKeys);

struct Stats {
  double mean = 0, spread = 0;
};
// Mean over seeds; the spread is their standard deviation, or the run's own standard error for a single seed.
Stats statsOf(const QList<double>& values, const QList<double>& stderrs);
double meanOf(const QList<double>& v);

// One line of a figure: a series at several x, each point a mean over seeds.
struct Series {
  QString label;
  QMap<double, QList<const FigureRun*>> byX;
};
QList<Series> groupSeries(const QList<const FigureRun*>& runs, const LabelKeys& differing, const QStringList& axisKeys,
                          double (*x)(const FigureRun&));
// The ceilings of the runs of a panel, by name: (x, mean value) points, so that a ceiling that is a function
// of K is drawn as one, and a method without ceilings adds none.
QMap<QString, QMap<double, QList<double>>> ceilingsOf(const QList<const FigureRun*>& runs,
                                                      double (*x)(const FigureRun&));

QCPLegend* legendBeside(QCustomPlot* plot, int row, int column);
QCPAxisRect* addPanel(QCustomPlot* plot, int row, int column, const QString& title);
QCPGraph* addLine(QCustomPlot* plot, QCPAxisRect* rect, const QVector<double>& x, const QVector<double>& y,
                  const QPen& pen, const QString& name = {}, QCPLegend* legend = nullptr);
// Ticks at exactly the given values (e.g. the K of the grid), thinned so that their labels never touch.
void setValueTicks(QCPAxis* axis, const QList<double>& values, int panelWidthPx);
// A red line in a panel's top left corner naming what the shared y range leaves out.
void addOffScaleNote(QCustomPlot* plot, QCPAxisRect* rect, const QString& text);

// The y range every panel of a figure shares.
struct Range {
  double lo = 0, hi = 1;
  void include(double v);
  // `headroom` above the highest value, as a share of the span: room for an off-scale note above every line.
  void apply(QCPAxis* axis, double headroom = 0.08) const;

  // Figures of final readings against targets and ceilings (the references): the references set the reach R,
  // as readableRange does for curves, and a reading more than 2R above (or R below zero) is left off scale and
  // named in a note on its panel instead of squashing every other series (CLUB reads tens of times the truth on a
  // 2-dimensional task: its bound is that loose; docs/methods.md).
  void reference(double v);
  void reading(double v, double spread, const QString& label, QCPAxisRect* rect);
  // Once every reference and reading is in: the shared y range on every panel, and the notes.
  void applyToPanels(QCustomPlot* plot, const QList<QCPAxisRect*>& rects);

 private:
  struct Reading {
    double value, spread;
    QString label;
    QCPAxisRect* rect;
  };
  double reach = 1;
  QList<Reading> readings;
};

// A series' means over seeds as a line with markers, each point with its spread as an error bar.
void drawSeriesWithBars(QCustomPlot* plot, QCPAxisRect* rect, const Series& s, const SeriesStyle& style,
                        QCPLegend* legend, Range* range);
// The figure that says why there is none.
FigureSize drawNothing(QCustomPlot* plot, const QString& why);

}  // namespace milab::figure
