#pragma once
// What the window decides without widgets: the runs the form (or an experiment file) asks for, the configured
// run's preview (its target and ceilings, whether an oracle can run beside it), and the history's runs turned
// back into specs (to draw beside the live ones, or to put in the form). MainWindow wires its widgets to these;
// tests call them directly.
#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

#include "engine/run.h"

namespace milab {

class MethodRegistry;
class RunStore;

class LabController {
 public:
  explicit LabController(const MethodRegistry& registry) : registry_(registry) {}

  // The form's run validated, crossed with the further methods ticked and the lists to vary ("K=8,64; seed=1,2").
  // "" or the error line naming the field.
  QString formRuns(RunSpec spec, const QStringList& moreMethods, const QString& vary, QList<RunSpec>* out) const;
  // Every run of an experiment file (one run, or a grid's cells). "" or the error line.
  QString fileRuns(const QString& path, QList<RunSpec>* out) const;

  struct Preview {
    QString error;           // the form cannot run: why, naming the field
    RunSpec spec;            // validated, defaults filled
    RunResult known;         // what is known before training: the target and ceilings
    bool hasOracle = false;  // the method has a critic to swap and the task an analytic one to give
  };
  // `withKnown`: also build the run (never started) for what is known before training; the window skips that
  // while a set is shown.
  Preview preview(RunSpec spec, bool withKnown = true) const;

  // A stored run drawn beside the live ones: labelled "#id method" and what sets it apart from the others shown.
  struct Overlay {
    QString label;
    RunSpec spec;
    RunResult result;  // its target and ceilings
    QVector<CurvePoint> curve;
  };
  QString overlaysOf(const RunStore& store, const QList<qint64>& ids, QList<Overlay>* out) const;
  // A stored run's spec, as the form takes it. "" or the error (no such run, a setting no plugin takes now).
  QString storedSpec(const RunStore& store, qint64 id, RunSpec* out) const;

  // `spec` on a user's table (CSV, .npy, .npz): every row, x the first column and y the second.
  static RunSpec onData(RunSpec spec, const QString& path);

 private:
  const MethodRegistry& registry_;
};

}  // namespace milab
