#include "gui/lab_controller.h"

#include "engine/experiment.h"
#include "engine/run_set.h"
#include "method/method_registry.h"
#include "method/shared_method_options.h"
#include "results/run_store.h"
#include "results/summary_result.h"

namespace milab {

namespace {

// A run stored before recipes existed (no "recipe" key) ran the lab's own defaults; read as auto, a finite-sample
// run would take bmi's values for the keys it never had (report, held_out).
QVariantMap storedFlat(const StoredRun& stored) {
  QVariantMap flat = stored.spec.toVariantMap();
  if (!flat.contains("recipe")) flat.insert("recipe", "none");
  return flat;
}

}  // namespace

QString LabController::formRuns(RunSpec spec, const QStringList& moreMethods, const QString& vary,
                                QList<RunSpec>* out) const {
  QString err = validateRunSpec(&spec, registry_);
  if (err.isEmpty()) err = expandRunSet(spec, moreMethods, vary, registry_, out);
  return err;
}

QString LabController::fileRuns(const QString& path, QList<RunSpec>* out) const {
  Experiment experiment;
  QList<GridCell> cells;
  QString err = readExperiment(path, &experiment);
  if (err.isEmpty()) err = expandExperiment(experiment, registry_, &cells);
  if (!err.isEmpty()) return err;
  for (const GridCell& c : cells) *out << c.spec;
  return {};
}

LabController::Preview LabController::preview(RunSpec spec, bool withKnown) const {
  Preview p;
  p.error = validateRunSpec(&spec, registry_);
  if (!p.error.isEmpty()) return p;
  p.spec = spec;
  // The oracle is the same bound with the task's analytic critic: offered only where the method has a critic to
  // swap and the task an exact one to give (not a table, not image views).
  RunSpec oracle = spec;
  oracle.methodParams.insert("critic", "oracle");
  p.hasOracle = SharedMethodOptions::from(spec.methodParams).critic && validateRunSpec(&oracle, registry_).isEmpty();
  if (!withKnown) return p;
  const Run configured(spec, registry_.find(spec.method));  // built, never started: its target and ceilings
  p.known = configured.result();
  return p;
}

QString LabController::overlaysOf(const RunStore& store, const QList<qint64>& ids, QList<Overlay>* out) const {
  QList<StoredRun> runs;
  QList<QVariantMap> flats;
  for (qint64 id : ids) {
    const std::optional<StoredRun> stored = store.find(id);
    if (!stored) return QStringLiteral("history: no run %1").arg(id);
    runs << *stored;
    flats << stored->spec.toVariantMap();
  }
  const QStringList differing = differingKeys(flats);  // each overlay is named by what sets it apart
  for (const StoredRun& stored : runs) {
    Overlay o;
    runSpecFromFlat(storedFlat(stored), registry_, &o.spec);  // a spec a plugin no longer takes still draws
    o.spec.steps = stored.spec.value("steps").toInt();
    resultFromSummary(stored.summary, &o.result);  // a run of schema 2: its baseline, warning, readings, levels
    o.result.targetName = stored.targetName;
    o.result.trueMi = stored.trueValue;
    o.result.ceilings = stored.ceilings;
    QStringList label{QStringLiteral("#%1 %2").arg(stored.id).arg(stored.method)};
    for (const QString& k : differing)
      if (stored.spec.contains(k)) label << keyValueText(k, stored.spec.value(k).toVariant());
    o.label = label.join(' ');
    o.curve = store.curve(stored.id);
    *out << o;
  }
  return {};
}

QString LabController::storedSpec(const RunStore& store, qint64 id, RunSpec* out) const {
  const std::optional<StoredRun> stored = store.find(id);
  if (!stored) return QStringLiteral("history: no run %1").arg(id);
  return runSpecFromFlat(storedFlat(*stored), registry_, out);
}

RunSpec LabController::onData(RunSpec spec, const QString& path) {
  spec.task = "data";
  spec.taskParams = {{"file", path}, {"x_columns", "0"}, {"y_columns", "1"}};
  spec.samples = 0;  // every row
  return spec;
}

}  // namespace milab
