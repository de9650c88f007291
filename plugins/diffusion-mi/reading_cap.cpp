#include "reading_cap.h"

#include <cmath>

#include "tasks/task.h"

namespace milab {

double softplusOf(double g) { return g > 30 ? g : std::log1p(std::exp(g)); }

QList<Ceiling> readingCapOn(double perDirection, const TaskModel& task, double highestPlausible) {
  const int directions = task.dimX() * (task.hasSubview() ? 2 : 1);
  const double cap = perDirection * directions;
  if (!(cap <= highestPlausible)) return {};
  return {{QStringLiteral("log-SNR range cap (%1 x %2)").arg(directions).arg(perDirection, 0, 'f', 2), cap}};
}

}  // namespace milab
