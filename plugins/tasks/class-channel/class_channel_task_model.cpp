#include "class_channel_task_model.h"

#include <cmath>

#include "class_channel.h"
#include "class_channel_sampler.h"

namespace milab {

double ClassChannelTaskModel::totalMi() const { return classChannelMi(sources_, crossover_); }

double ClassChannelTaskModel::largestMi() const { return sources_ * std::log(2.0); }

TaskBreakdown ClassChannelTaskModel::breakdown() const {
  TaskBreakdown b;
  const double mi = totalMi();
  b.title = QStringLiteral("I(x;y) = %1 nats = %2 bits, %3 sources\ncrossover p = %4; %5 is bit 0, %6 bit 1")
                .arg(mi, 0, 'f', 3)
                .arg(mi / std::log(2.0), 0, 'f', 3)
                .arg(sources_)
                .arg(crossover_, 0, 'f', 3)
                .arg(pools_->classNames[0], pools_->classNames[1]);
  b.axis = QStringLiteral("source (one item of x, one of y)");
  b.stacked = {{QStringLiteral("I(bit; flipped bit)"), QVector<double>(sources_, mi / sources_)}};
  return b;
}

std::unique_ptr<TaskSampler> ClassChannelTaskModel::sampler(c10::Device device) const {
  return std::make_unique<ClassChannelSampler>(pools_, sources_, crossover_, device);
}

}  // namespace milab
