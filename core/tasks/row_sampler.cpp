#include "tasks/row_sampler.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <string>

#include "tasks/distinct_rows.h"
#include "tasks/on_device.h"

namespace milab {

RowSampler::RowSampler(Batch rows) : TaskSampler(rows.x.device()), rows_(std::move(rows)) {}

Batch RowSampler::sampleJoint(int64_t n, at::Generator& gen) const {
  const int64_t available = rows_.x.size(0);
  if (n > available)
    throw std::invalid_argument("samples: " + std::to_string(n) + " distinct rows asked of a set of " +
                                std::to_string(available));
  const at::Tensor index = onDevice(distinctRows(available, n, gen), device());
  return {rows_.x.index_select(0, index), rows_.xp.defined() ? rows_.xp.index_select(0, index) : at::Tensor(),
          rows_.y.index_select(0, index)};
}

}  // namespace milab
