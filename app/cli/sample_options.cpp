#include "cli/sample_options.h"

#include "params/plain_number.h"
#include "tasks/task_catalog.h"

namespace milab {

QString SampleOptions::from(const CommandLine& cl, SampleOptions* o) {
  if (!cl.positional.isEmpty()) return QStringLiteral("sample: takes no file, got '%1'").arg(cl.positional);
  ParamMap params = cl.overrides;
  o->task = params.take("task").toString();
  if (o->task.isEmpty()) return "task: required, the task whose rows to write (milab-cli tasks lists them)";
  const TaskInfo* info = findTask(o->task);
  if (!info) return unknownTaskError(o->task);
  const QString samples = params.take("samples").toString();
  if (samples.isEmpty()) return "samples: required, the number of rows (an integer in [2, 100000000])";
  o->samples = plainInteger(samples).value_or(-1);
  if (o->samples < 2 || o->samples > 100000000)
    return QStringLiteral("samples: must be an integer in [2, 100000000], got '%1'").arg(samples);
  const QString seed = params.contains("seed") ? params.take("seed").toString() : QStringLiteral("1");
  const qint64 seedValue = plainInteger(seed).value_or(-1);
  o->seed = int(seedValue);
  if (seedValue < 0 || seedValue > 2147483647) return QStringLiteral("seed: must be an integer in [0, 2147483647], got '%1'").arg(seed);
  if (cl.outDir.isEmpty()) return "out: required, the file to write (FILE.csv or FILE.npy)";
  o->out = cl.outDir;
  for (auto it = params.cbegin(); it != params.cend(); ++it)
    if (!findSpec(info->params, it.key()))
      return QStringLiteral("%1: not a parameter of task %2 (sample takes the task's keys, samples, seed, out)")
          .arg(it.key(), o->task);
  o->taskParams = params;
  return validateTaskParams(*info, &o->taskParams);
}

}  // namespace milab
