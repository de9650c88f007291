#include "data_task_model.h"

#include <ATen/ATen.h>

#include "tasks/row_sampler.h"

namespace milab {

namespace {

at::Tensor matrix(const DataPart& part, int64_t rows, int columns, c10::Device device) {
  if (columns == 0) return {};
  if (const FloatBlock& b = part.block; b.data) {
    // In place: the tensor keeps the block's owner alive, and on the CPU .to() is this very tensor. The sampler only
    // reads it (index_select), so the caller's memory is never written.
    const std::shared_ptr<const void> owner = b.owner;
    return at::from_blob(const_cast<float*>(b.data), {rows, columns}, [owner](void*) {}, at::kFloat).to(device);
  }
  const QVector<double>& v = part.picked;
  return at::tensor(at::ArrayRef<double>(v.constData(), v.size()), at::kDouble)
      .reshape({rows, columns})
      .to(device, at::kFloat);
}

}  // namespace

std::unique_ptr<TaskSampler> DataTaskModel::sampler(c10::Device device) const {
  // Joint samples are distinct rows of the table, chosen with the caller's generator.
  return std::make_unique<RowSampler>(Batch{matrix(data_.x, data_.rows, data_.dimX, device),
                                            matrix(data_.xp, data_.rows, data_.dimXp, device),
                                            matrix(data_.y, data_.rows, data_.dimY, device)});
}

}  // namespace milab
