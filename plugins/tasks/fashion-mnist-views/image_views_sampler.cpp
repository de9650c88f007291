#include "image_views_sampler.h"

#include <ATen/ATen.h>

namespace milab {

ImageViewsSampler::ImageViewsSampler(const LabelledImages& images, ViewOptions options, c10::Device device)
    : TaskSampler(device), options_(options), side_(images.trainImages.size(-1)) {
  images_ = {images.trainImages.to(device),
             images.testImages.to(device),
             images.trainLabels.to(device),
             images.testLabels.to(device),
             images.classes,
             images.classNames};
}

Batch ImageViewsSampler::sampleLabelledJoint(int64_t n, at::Generator& gen, at::Tensor* labels) const {
  const at::Tensor index =
      at::randint(images_.trainImages.size(0), {n}, gen, at::TensorOptions().dtype(at::kLong).device(device()));
  if (labels) *labels = images_.trainLabels.index_select(0, index);
  const at::Tensor images = images_.trainImages.index_select(0, index);
  const at::Tensor x = augmentView(images, options_, gen);
  const at::Tensor y = augmentView(images, options_, gen);
  const at::Tensor xp = subviewOf(x, options_, gen);
  return {x.reshape({n, -1}), xp.reshape({n, -1}), y.reshape({n, -1})};
}

}  // namespace milab
