// The probe's readings and where each goes: the curve's probe column, and summary.json's probe_accuracy fields.
#include "engine/probe_schedule.h"

#include <QJsonObject>
#include <cmath>
#include <optional>

#include "engine/reference_cache.h"
#include "engine/run.h"
#include "method/representation_probe.h"

namespace milab {

namespace {

// A named reading of the result, replaced when it is there already; a non-finite value (none taken) is left out.
void setNamedReading(RunResult* result, const char* name, double value) {
  if (!std::isfinite(value)) return;
  for (NamedValue& r : result->readings)
    if (r.name == name) return void(r.value = value);
  result->readings << NamedValue{name, value};
}

}  // namespace

ProbeSchedule::ProbeSchedule(RepresentationProbe& probe, const RunSpec& spec,
                             std::function<void(int, double)> putOnCurve)
    : probe_(probe), spec_(spec), putOnCurve_(std::move(putOnCurve)) {}

void ProbeSchedule::trainingStarts(RunResult* result) {
  setNamedReading(result, "probe_accuracy_untrained", probe_.probeAccuracy());
}

void ProbeSchedule::read(int step) {
  last_ = probe_.probeAccuracy();
  putOnCurve_(step, last_);
}

bool ProbeSchedule::beforeStep(int step) {
  const int every = probe_.probeEvery();
  if (every > 0 && step > 1 && (step - 1) % every == 0) read(step - 1);
  return true;
}

int ProbeSchedule::syncEvery() const { return probe_.probeEvery(); }

void ProbeSchedule::trainingEnded(int stepsDone, RunResult* result) {
  read(stepsDone);
  setNamedReading(result, "probe_accuracy", last_);
  result->embedding = probe_.embeddingMap();
  if (!probe_.wantsSupervisedReference()) return;
  // The supervised ceiling depends on the setting and the seed, not on the objective: once per setting.
  QJsonObject setting = QJsonObject::fromVariantMap(runSpecToFlat(spec_));
  setting.remove("method");
  setting.insert("device_used", result->device);
  const std::optional<double> ceiling = cachedOrComputed(
      "supervised-reference", setting, [&] { return probe_.supervisedAccuracy(spec_.steps, spec_.seed); });
  if (ceiling) setNamedReading(result, "probe_accuracy_supervised", *ceiling);
}

void ProbeSchedule::runCancelled(RunResult* result) { setNamedReading(result, "probe_accuracy", last_); }

}  // namespace milab
