#include "bend_and_mix_task_plugin.h"

#include "bend_and_mix.h"
#include "bend_and_mix_task_model.h"

namespace milab {

namespace {

TaskInfo infoOf(const bend_and_mix::TaskDefinition& d) {
  TaskInfo t;
  t.id = d.id;
  t.displayName = d.name;
  t.family = "bend-and-mix";
  // The truth is not computed for a listing: `milab-cli tasks --long` builds the task and shows it with its error.
  t.summary = QStringLiteral("bmi's second suite (Bend and Mix): %1; I(x;y) by Monte Carlo over %L2 samples, with its "
                             "standard error; samples only, unstandardised")
                  .arg(d.name)
                  .arg(qlonglong(bend_and_mix::kTruthSamples));
  t.dimX = d.mixture->dimX();
  t.dimY = d.mixture->dimY();
  return t;
}

}  // namespace

QList<TaskInfo> BendAndMixTaskPlugin::tasks() const {
  QList<TaskInfo> out;
  for (const QString& id : bend_and_mix::bendAndMixTaskIds()) {
    bend_and_mix::TaskDefinition d;
    if (bend_and_mix::parseTaskId(id, &d).isEmpty()) out << infoOf(d);
  }
  return out;
}

std::optional<TaskInfo> BendAndMixTaskPlugin::variant(const QString& id, QString* error) const {
  bend_and_mix::TaskDefinition d;
  const QString err = bend_and_mix::parseTaskId(id, &d);
  if (err.isEmpty()) return infoOf(d);
  // An id of no family here is another plugin's (or nobody's): only a malformed one of ours is an error.
  if (!err.startsWith(QStringLiteral("task: unknown task"))) *error = err;
  return std::nullopt;
}

std::unique_ptr<TaskModel> BendAndMixTaskPlugin::build(const TaskInfo& task, const ParamMap&, std::uint64_t) const {
  bend_and_mix::TaskDefinition d;
  if (!bend_and_mix::parseTaskId(task.id, &d).isEmpty()) return nullptr;
  return std::make_unique<BendAndMixTaskModel>(std::move(d));
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_bend_and_mix_task_plugin.cpp"
