#include "beyond_normal_task_plugin.h"

#include <QLocale>

#include "beyond_normal.h"
#include "beyond_normal_task_model.h"

namespace milab {

namespace {

TaskInfo infoOf(const beyond_normal::TaskDefinition& d) {
  TaskInfo t;
  t.id = d.id;
  t.displayName = d.name;
  t.family = "beyond-normal";
  t.summary = QStringLiteral("Beyond Normal (bmi): %1; exact I(x;y) = %2 nats; samples only, unstandardised")
                  .arg(d.name)
                  .arg(beyond_normal::exactMutualInformation(d), 0, 'f', 4);
  t.dimX = d.sampledDimX();
  t.dimY = d.sampledDimY();
  return t;  // no parameters: the id names every one; no x', PMI or densities
}

}  // namespace

QList<TaskInfo> BeyondNormalTaskPlugin::tasks() const {
  QList<TaskInfo> out;
  for (const QString& id : beyond_normal::benchmarkTaskIds()) {
    beyond_normal::TaskDefinition d;
    if (beyond_normal::parseTaskId(id, &d).isEmpty()) out << infoOf(d);
  }
  return out;
}

std::optional<TaskInfo> BeyondNormalTaskPlugin::variant(const QString& id, QString* error) const {
  beyond_normal::TaskDefinition d;
  const QString err = beyond_normal::parseTaskId(id, &d);
  if (err.isEmpty()) return infoOf(d);
  // An id of no family of this benchmark is another plugin's (or nobody's): only a malformed one of ours is an error.
  if (!err.startsWith(QStringLiteral("task: unknown task"))) *error = err;
  return std::nullopt;
}

std::unique_ptr<TaskModel> BeyondNormalTaskPlugin::build(const TaskInfo& task, const ParamMap&, std::uint64_t) const {
  beyond_normal::TaskDefinition d;
  if (!beyond_normal::parseTaskId(task.id, &d).isEmpty()) return nullptr;
  return std::make_unique<BeyondNormalTaskModel>(std::move(d));
}

}  // namespace milab
