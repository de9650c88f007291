#include "image_views_task_plugin.h"

#include <ATen/ATen.h>

#include "data/fashion_mnist.h"
#include "image_views.h"
#include "image_views_task_model.h"
#include "tasks/shared_task_options.h"

namespace milab {

namespace {

constexpr int kTrainImages = 60000;  // Fashion-MNIST's training split
constexpr int kSide = 28;

}  // namespace

QList<TaskInfo> ImageViewsTaskPlugin::tasks() const {
  TaskInfo t;
  t.id = "fashion-mnist-views";
  t.displayName = "Fashion-MNIST views (x, x', y)";
  t.family = "images";
  t.summary =
      "two augmented views x, y of a Fashion-MNIST training image and a subview x' of x (crop or cutout): no "
      "truth; an encoder trained on them is read by a linear probe of the test images";
  t.capabilities.images = true;
  t.dimX = t.dimY = kSide * kSide;
  t.params = viewOptionSpecs();
  t.params << ParamSpec::integer("train_images", kTrainImages, 100, kTrainImages,
                                 "the views are drawn from the first this many training images");
  return {t};
}

QString ImageViewsTaskPlugin::images(int64_t trainImages, std::shared_ptr<const LabelledImages>* out) const {
  QMutexLocker lock(&mutex_);
  if (!cached_ || cachedSize_ != trainImages) {
    const QString dir = fashionMnistDir();
    ImageSet train, test;
    if (QString err = loadFashionMnist(dir, "train", trainImages, &train); !err.isEmpty()) return err;
    if (QString err = loadFashionMnist(dir, "t10k", 0, &test); !err.isEmpty()) return err;
    auto images = std::make_shared<LabelledImages>();
    images->trainImages = train.images.reshape({-1, 1, kSide, kSide});
    images->testImages = test.images.reshape({-1, 1, kSide, kSide});
    images->trainLabels = train.labels;
    images->testLabels = test.labels;
    images->classes = 10;
    images->classNames = fashionMnistClassNames();
    cached_ = images;
    cachedSize_ = trainImages;
  }
  *out = cached_;
  return {};
}

QString ImageViewsTaskPlugin::validate(const TaskInfo& task, ParamMap* params) const {
  if (QString err = TaskPlugin::validate(task, params); !err.isEmpty()) return err;
  ViewOptions options;
  if (QString err = viewOptionsFrom(*params, &options); !err.isEmpty()) return err;
  // A missing data set names the Debian package (data/fashion_mnist.h) before any run starts.
  return checkFashionMnist(fashionMnistDir());
}

std::unique_ptr<TaskModel> ImageViewsTaskPlugin::build(const TaskInfo&, const ParamMap& params, std::uint64_t) const {
  ViewOptions options;
  std::shared_ptr<const LabelledImages> data;
  if (!viewOptionsFrom(params, &options).isEmpty() ||
      !images(int(SharedTaskOptions::from(params).trainImages.value_or(0)), &data).isEmpty())
    return nullptr;
  return std::make_unique<ImageViewsTaskModel>(std::move(data), options);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_image_views_task_plugin.cpp"
