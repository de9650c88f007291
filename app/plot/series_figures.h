#pragma once
// The layouts of the series figures plot/experiment_figure.h chooses among, one file each:
//   estimate_vs_k_figure.cpp      several K: one panel per MI, estimate against K (the DEMI paper's Figure 2);
//   estimate_vs_truth_figure.cpp  several MI values: estimate against the true value, with the diagonal;
//   bars_figure.cpp               only the method varies: a bar per series, its target and ceilings over it;
//   staircase_figure.cpp          an MI schedule: one panel per run, the true value as a step line.
// Each takes the finished (or, for the staircase, drawable) runs and the keys that label each method's series.
#include "plot/figure_parts.h"

namespace milab::figure {

FigureSize drawVsK(QCustomPlot* plot, const QList<const FigureRun*>& runs, const LabelKeys& differing);
FigureSize drawVsTruth(QCustomPlot* plot, const QList<const FigureRun*>& runs, const LabelKeys& differing);
FigureSize drawBars(QCustomPlot* plot, const QList<const FigureRun*>& runs, const LabelKeys& differing);
FigureSize drawStaircase(QCustomPlot* plot, const QList<const FigureRun*>& runs, const LabelKeys& differing);

}  // namespace milab::figure
