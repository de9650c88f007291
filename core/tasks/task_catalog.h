#pragma once
// The tasks the lab knows: every task plugin found in <plugin dir>/tasks (the method plugins' folders, see
// MethodRegistry::defaultPluginDirs), loaded once per process on first use. Core names no task: what a task is,
// its parameters, truths and sampler, all come from its plugin (plugins/tasks/<family>/).
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>

#include "method/method_registry.h"
#include "tasks/task.h"

namespace milab {

struct MethodInfo;

// The listed tasks of every plugin, plugins in their metadata's "order", each plugin's tasks in its own order.
const QList<TaskInfo>& availableTasks();
// A listed id, or a variant one plugin reads (its TaskInfo kept for the process's life); nullptr when none does.
const TaskInfo* findTask(const QString& id);
// The `count` candidates nearest to `id` in edit distance, nearest first (for the error of an unknown id).
QStringList nearestIds(const QString& id, const QStringList& candidates, int count);
// "task: unknown task 'x' (the nearest ids: a, b, c; milab-cli tasks lists them all)".
QString unknownTaskError(const QString& id);
// The task of a spec or an experiment that names none: the "default" of the task plugins' metadata (the lowest
// "order" that gives one: gaussian3), else the first listed task.
QString defaultTaskId();
// Task plugin files that could not be loaded, with the reason (never fatal).
QList<PluginLoadError> taskLoadErrors();

// Checks and normalises `params` in place (defaults filled, types canonical, the family's cross-field limits such
// as mi <= 5 * dim). Returns "" or one line naming the field and the allowed range.
QString validateTaskParams(const TaskInfo& task, ParamMap* params);

// The model of validated params (null for an unknown id). The seed draws what the family draws at random.
std::unique_ptr<TaskModel> buildTask(const QString& id, const ParamMap& params, std::uint64_t seed);

// The widths of x and y a run of `task` with these (validated) keys reads: the id's when it fixes them, else its
// model's (a Beyond-Normal variant's dim_x and dim_y through its transforms, a table's columns), else the `dim` key.
// The memory guards size their estimates with these (issue 80: KSG sized a 500 x 500 variant by --dim).
struct TaskWidths {
  int x = 0, y = 0;
  int widest() const { return x > y ? x : y; }
};
TaskWidths taskWidths(const TaskInfo& task, const ParamMap& taskParams);
// The widths of what a method reads: x, or [x, x'] on a task with a subview (TaskSampler::criticInputDim), and y.
TaskWidths criticInputWidths(const TaskInfo& task, const ParamMap& taskParams);

// Why `method` (with these params) cannot run on `task`, naming both, or "": it needs x' and p(y|x') and the task has
// no subview; its oracle critic needs the task's exact PMI or densities and the task has none.
QString methodTaskMismatch(const MethodInfo& method, const ParamMap& methodParams, const TaskInfo& task);

}  // namespace milab
