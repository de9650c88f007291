#include "class_channel_task_model.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
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

ItemsPreview ClassChannelTaskModel::previewItems(int rows, int items, std::uint64_t seed) const {
  ItemsPreview p;
  p.rows = rows;
  p.items = std::min(items, sources_);
  p.classNames = pools_->classNames;
  const ClassChannelSampler sampler(pools_, sources_, crossover_, c10::Device(c10::kCPU));
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  const ClassChannelRows drawn = sampler.draw(rows, PoolPart::Training, gen);
  const bool images = pools_->texts[0].isEmpty();
  if (images) p.side = int(std::lround(std::sqrt(double(pools_->width()))));
  const at::Tensor pool = pools_->items[int(PoolPart::Training)];
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < p.items; ++i) {
      p.xBits << int(drawn.xBits[r][i].item<int64_t>());
      p.yBits << int(drawn.yBits[r][i].item<int64_t>());
      const int64_t xItem = drawn.xItems[r][i].item<int64_t>(), yItem = drawn.yItems[r][i].item<int64_t>();
      if (!images) {
        p.xTexts << pools_->texts[int(PoolPart::Training)][int(xItem)];
        p.yTexts << pools_->texts[int(PoolPart::Training)][int(yItem)];
        continue;
      }
      for (const auto& [item, out] : {std::pair{xItem, &p.xPixels}, std::pair{yItem, &p.yPixels}}) {
        const at::Tensor pixels = pool[item].contiguous();
        out->append(QVector<float>(pixels.data_ptr<float>(), pixels.data_ptr<float>() + pixels.numel()));
      }
    }
  return p;
}

std::unique_ptr<TaskSampler> ClassChannelTaskModel::sampler(c10::Device device) const {
  return std::make_unique<ClassChannelSampler>(pools_, sources_, crossover_, device);
}

}  // namespace milab
