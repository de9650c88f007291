#include "tasks/shared_task_options.h"

namespace milab {

SharedTaskOptions SharedTaskOptions::from(const ParamMap& taskParams) {
  SharedTaskOptions o;
  if (taskParams.contains("dim")) o.dim = taskParams.value("dim").toInt();
  if (taskParams.contains("mi")) o.mi = taskParams.value("mi").toDouble();
  if (taskParams.contains("train_images")) o.trainImages = taskParams.value("train_images").toLongLong();
  return o;
}

}  // namespace milab
