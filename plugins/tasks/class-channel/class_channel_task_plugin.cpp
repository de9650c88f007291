#include "class_channel_task_plugin.h"

#include <cmath>

#include "class_channel.h"
#include "class_channel_task_model.h"
#include "class_pools.h"
#include "data/fashion_mnist.h"
#include "data/fortune_corpus.h"

namespace milab {

namespace {

const QString kImagesId = QStringLiteral("class-channel-images"), kTextId = QStringLiteral("class-channel-text");

ClassChannelData dataOf(const TaskInfo& task) {
  return task.id == kTextId ? ClassChannelData::Text : ClassChannelData::Images;
}

}  // namespace

QList<TaskInfo> ClassChannelTaskPlugin::tasks() const {
  TaskInfo images;
  images.id = kImagesId;
  images.displayName = "Class channel: Fashion-MNIST images";
  images.family = "class-channel";
  images.summary =
      "Lee and Rhee's real images with an exact MI: fair bits pick each of x's Fashion-MNIST images from one of two "
      "classes, a binary symmetric channel flips them for y's; I(x;y) = sources (log 2 - H_b(p)) nats (sources (1 - "
      "H_b(p)) bits); held-out rows from the test split";
  images.params = classChannelSpecs(ClassChannelData::Images);
  TaskInfo text = images;
  text.id = kTextId;
  text.displayName = "Class channel: fortunes texts";
  text.summary =
      "Lee and Rhee's class channel on real texts: fair bits pick each of x's texts from one of two topics of Debian's "
      "fortunes corpus (hashed TF-IDF), a binary symmetric channel flips them for y's; I(x;y) = sources (log 2 - "
      "H_b(p)) nats; held-out rows from a fifth of each topic's texts";
  text.params = classChannelSpecs(ClassChannelData::Text);
  return {images, text};
}

QString ClassChannelTaskPlugin::resolve(const TaskInfo& task, const ParamMap& params, ClassChannelOptions* options,
                                        std::shared_ptr<const ClassPools>* pools) const {
  const ClassChannelData data = dataOf(task);
  const QString dir = data == ClassChannelData::Images ? fashionMnistDir() : fortunesDir();
  // A missing data set names its Debian package before any key is read against it.
  if (QString err = data == ClassChannelData::Images ? checkFashionMnist(dir) : checkFortunes(dir); !err.isEmpty())
    return err;
  const QStringList topics = data == ClassChannelData::Text ? fortuneTopics(dir) : QStringList();
  if (QString err = classChannelOptionsFrom(params, data, topics, options); !err.isEmpty()) return err;
  const QString key = QStringLiteral("%1|%2|%3|%4|%5")
                          .arg(task.id, dir, options->classes.join(','))
                          .arg(options->side)
                          .arg(options->features);
  QMutexLocker lock(&mutex_);
  if (!cached_.contains(key)) {
    auto loaded = std::make_shared<ClassPools>();
    const QString err = data == ClassChannelData::Images
                            ? loadImagePools(dir, {options->classes[0].toInt(), options->classes[1].toInt()},
                                             options->side, loaded.get())
                            : loadTextPools(dir, options->classes, options->features, loaded.get());
    if (!err.isEmpty()) return err;
    cached_.insert(key, loaded);
  }
  *pools = cached_.value(key);
  return {};
}

QString ClassChannelTaskPlugin::validate(const TaskInfo& task, ParamMap* params) const {
  if (QString err = TaskPlugin::validate(task, params); !err.isEmpty()) return err;
  if (QString err = checkClassChannelParams(params); !err.isEmpty()) return err;
  ClassChannelOptions options;
  std::shared_ptr<const ClassPools> pools;
  return resolve(task, *params, &options, &pools);
}

std::unique_ptr<TaskModel> ClassChannelTaskPlugin::build(const TaskInfo& task, const ParamMap& params,
                                                         std::uint64_t) const {
  ClassChannelOptions options;
  std::shared_ptr<const ClassPools> pools;
  if (!resolve(task, params, &options, &pools).isEmpty()) return nullptr;
  return std::make_unique<ClassChannelTaskModel>(std::move(pools), options.sources, options.crossover);
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_class_channel_task_plugin.cpp"
