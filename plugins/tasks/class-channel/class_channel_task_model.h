#pragma once
// A configured class-channel task: the pools, the number of sources and the crossover; its truth is exact
// (class_channel.h).
#include <memory>

#include "class_pools.h"
#include "tasks/task.h"

namespace milab {

class ClassChannelTaskModel final : public TaskModel {
 public:
  ClassChannelTaskModel(std::shared_ptr<const ClassPools> pools, int sources, double crossover)
      : pools_(std::move(pools)), sources_(sources), crossover_(crossover) {}

  int dimX() const override { return int(sources_ * pools_->width()); }
  int dimY() const override { return dimX(); }
  double totalMi() const override;
  double largestMi() const override;
  // The sources are independent: one bar each, of log 2 - H_b(p) nats.
  TaskBreakdown breakdown() const override;
  // Training rows: each item's image (pooled) or text and its bit.
  ItemsPreview previewItems(int rows, int items, std::uint64_t seed) const override;
  std::unique_ptr<TaskSampler> sampler(c10::Device device) const override;

 private:
  std::shared_ptr<const ClassPools> pools_;
  int sources_;
  double crossover_;
};

}  // namespace milab
