#include "hashing/image_rows_task.h"

#include <ATen/ATen.h>

namespace milab {

namespace {

class ImageRowsSampler final : public TaskSampler {
 public:
  ImageRowsSampler(const at::Tensor& images, c10::Device device) : TaskSampler(device), images_(images.to(device)) {}
  int dimX() const override { return int(images_.size(1)); }
  int dimY() const override { return int(images_.size(1)); }
  Batch sampleJoint(int64_t n, at::Generator& gen) const override {
    // The indices are drawn where the images are (a GPU draws them itself instead of receiving a copy each step).
    const at::Tensor index =
        at::randint(images_.size(0), {n}, gen, at::TensorOptions().dtype(at::kLong).device(images_.device()));
    const at::Tensor rows = images_.index_select(0, index);
    return {rows, {}, rows};
  }

 private:
  at::Tensor images_;
};

}  // namespace

std::unique_ptr<TaskSampler> ImageRowsTask::sampler(c10::Device device) const {
  return std::make_unique<ImageRowsSampler>(images_, device);
}

}  // namespace milab
