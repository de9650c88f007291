#include "data_task_model.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <string>

#include "tasks/task_sampler.h"

namespace milab {

namespace {

at::Tensor matrix(const QVector<double>& v, int64_t rows, int columns, c10::Device device) {
  if (columns == 0) return {};
  return at::tensor(at::ArrayRef<double>(v.constData(), v.size()), at::kDouble)
      .reshape({rows, columns})
      .to(device, at::kFloat);
}

// Joint samples are distinct rows of the table, chosen with the caller's generator.
class DataSampler final : public TaskSampler {
 public:
  DataSampler(const DataColumns& d, c10::Device device)
      : TaskSampler(device),
        rows_(d.rows),
        dimX_(d.dimX),
        dimY_(d.dimY),
        x_(matrix(d.x, d.rows, d.dimX, device)),
        xp_(matrix(d.xp, d.rows, d.dimXp, device)),
        y_(matrix(d.y, d.rows, d.dimY, device)) {}

  int dimX() const override { return dimX_; }
  int dimY() const override { return dimY_; }
  bool hasSubview() const override { return xp_.defined(); }

  Batch sampleJoint(int64_t n, at::Generator& gen) const override {
    if (n > rows_)
      throw std::invalid_argument("samples: " + std::to_string(n) + " rows asked of a table of " +
                                  std::to_string(rows_));
    const at::Tensor index = at::randperm(rows_, gen, at::TensorOptions().dtype(at::kLong).device(gen.device()))
                                 .narrow(0, 0, n)
                                 .to(device());
    return {x_.index_select(0, index), xp_.defined() ? xp_.index_select(0, index) : at::Tensor(),
            y_.index_select(0, index)};
  }

 private:
  int64_t rows_;
  int dimX_, dimY_;
  at::Tensor x_, xp_, y_;
};

}  // namespace

std::unique_ptr<TaskSampler> DataTaskModel::sampler(c10::Device device) const {
  return std::make_unique<DataSampler>(data_, device);
}

}  // namespace milab
