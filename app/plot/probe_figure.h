#pragma once
// The figure of runs that learn a representation (their results carry probe_accuracy: DEMI's vision experiment),
// a pure function of the runs: left, linear-probe accuracy against training step per series (mean over seeds, a
// band of +- one standard deviation, step 0 the untrained encoder); right, the final accuracy per series as bars
// with their spread over seeds, the untrained encoder's accuracy (the floor) dashed and, where the runs read it, the
// supervised encoder's (the ceiling) dotted.
#include <QList>

#include "plot/experiment_figure.h"

class QCustomPlot;

namespace milab {

// True when any run reports a probe accuracy: the experiment's figure is this one.
bool hasProbeReadings(const QList<FigureRun>& runs);

// Draws it on the cleared `plot` from `runs` (finished or stopped runs with a probe reading; each run's curve
// brings its readings during training).
FigureSize drawProbeFigure(QCustomPlot* plot, const QList<const FigureRun*>& runs,
                           const QMap<QString, QStringList>& differing);

}  // namespace milab
