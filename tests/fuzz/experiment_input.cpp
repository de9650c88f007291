#include "experiment_input.h"

#include "engine/experiment.h"
#include "engine/prior_order_sweep.h"
#include "hashing/hashing_experiment.h"
#include "method/method_registry.h"

namespace milab {

namespace {
// Error lines reach a terminal and a field's tooltip: one line each (control characters are refused upstream).
QString oneLine(const char* stage, const QString& error) {
  return error.contains('\n') || error.contains(QChar(0)) ? QStringLiteral("%1: a multi-line error: %2").arg(stage, error)
                                                          : QString();
}
}  // namespace

QString checkExperimentBytes(const QByteArray& bytes, const MethodRegistry& registry) {
  Experiment experiment;
  QString err = parseExperiment(bytes, "fuzz.json", &experiment);
  if (!err.isEmpty()) return oneLine("parse", err);
  QList<GridCell> cells;
  err = expandExperiment(experiment, registry, &cells);
  if (!err.isEmpty()) return oneLine("expand", err);
  if (cells.isEmpty() || cells.size() > kMaxCells)
    return QStringLiteral("expand: %1 cells for an experiment it accepted").arg(cells.size());
  for (const GridCell& cell : cells)
    if (cell.name.isEmpty() || cell.name.toUtf8().size() > 255 || cell.name.contains('/'))
      return QStringLiteral("expand: cell name '%1' is not a folder name").arg(cell.name);
  PriorOrderSweepSpec sweep;
  if (const QString e = oneLine("prior-orders", priorOrderSweepFromExperiment(experiment, registry, &sweep));
      !e.isEmpty())
    return e;
  HashingSpec hashing;
  return oneLine("hashing", hashingSpecFromExperiment(experiment, registry, &hashing));
}

}  // namespace milab
