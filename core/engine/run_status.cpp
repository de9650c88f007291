// The names and small judgements of a run's status (engine/run.h): its word in files, the status an outcome
// maps to, whether a result carries an estimate, and an exception as one error line.
#include <cmath>
#include <exception>

#include "engine/run.h"

namespace milab {

QString statusName(RunStatus status) {
  switch (status) {
    case RunStatus::Pending:
      return "pending";
    case RunStatus::Running:
      return "running";
    case RunStatus::Finished:
      return "finished";
    case RunStatus::Cancelled:
      return "cancelled";
    case RunStatus::Failed:
      return "failed";
  }
  return {};
}

RunStatus outcomeOf(const QString& error, bool cancelled) {
  return !error.isEmpty() ? RunStatus::Failed : cancelled ? RunStatus::Cancelled : RunStatus::Finished;
}

bool hasEstimate(const RunResult& r) {
  const bool ended = r.status == RunStatus::Finished || r.status == RunStatus::Cancelled;
  return ended && (r.fromEvaluation || r.stepsDone > 0) && std::isfinite(r.estimate);
}

bool hasStandardError(const RunResult& r) { return hasEstimate(r) && std::isfinite(r.stderror) && r.stderror > 0; }

QString errorLine(const std::exception& e) {
  return QStringLiteral("error: %1").arg(QString::fromUtf8(e.what()).section('\n', 0, 0));
}

}  // namespace milab
