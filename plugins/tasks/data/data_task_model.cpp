#include "data_task_model.h"

#include <ATen/ATen.h>

#include "tasks/row_sampler.h"

namespace milab {

namespace {

at::Tensor matrix(const QVector<double>& v, int64_t rows, int columns, c10::Device device) {
  if (columns == 0) return {};
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
