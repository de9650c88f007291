#include "class_channel_options.h"

#include <cmath>

#include "class_channel.h"
#include "data/fashion_mnist.h"
#include "engine/staircase.h"

namespace milab {

namespace {

const double kLog2 = std::log(2.0);

// "0" or "trouser" (any case) as a Fashion-MNIST label; -1 when neither.
int fashionLabelOf(const QString& name) {
  bool isNumber = false;
  const int index = name.toInt(&isNumber);
  if (isNumber) return index >= 0 && index <= 9 ? index : -1;
  const QStringList names = fashionMnistClassNames();
  for (int i = 0; i < names.size(); ++i)
    if (names[i].compare(name, Qt::CaseInsensitive) == 0) return i;
  return -1;
}

QString maxMiError(const char* key, int sources, double value) {
  return QStringLiteral("%1: must be in (0, %2] nats (log 2 per source, sources=%3), got %4")
      .arg(key)
      .arg(sources * kLog2)
      .arg(sources)
      .arg(value);
}

}  // namespace

ParamSpecs classChannelSpecs(ClassChannelData data) {
  const ClassChannelOptions d;
  ParamSpecs specs{
      ParamSpec::integer("sources", d.sources, 1, ClassChannelOptions::kMaxSources,
                         "independent fair bits, each naming one item's class in x and, through the channel, in y"),
      withoutDefault(ParamSpec::real("mi", d.mi, 0.0, ClassChannelOptions::kMaxSources * kLog2,
                                     "target I(x;y) in nats, from which the crossover follows (at most log 2 per "
                                     "source); unset: the crossover's, or 2 nats when neither is set",
                                     true)),
      withoutDefault(ParamSpec::real("crossover", 0.1, 0.0, 0.5,
                                     "the binary symmetric channel's crossover p: I(x;y) = sources (log 2 - H_b(p)) "
                                     "nats; unset: the one that carries mi")),
  };
  if (data == ClassChannelData::Images) {
    specs << ParamSpec::text("classes", ClassChannelOptions::kImageClasses,
                             "two Fashion-MNIST labels (0-9 or names: 0 T-shirt/top, 1 Trouser, ...) for bits 0 and 1")
          << ParamSpec::choice("side", {"28", "14", "7"}, QString::number(d.side),
                               "pixels a side of each item after average pooling");
  } else {
    specs << ParamSpec::text("topics", ClassChannelOptions::kTextTopics,
                             "two topics of Debian's fortunes corpus (file names) for bits 0 and 1")
          << ParamSpec::integer("features", d.features, 8, 4096, "hashed TF-IDF columns per text");
  }
  return specs << staircaseSpecs(ClassChannelOptions::kMaxSources * kLog2);
}

QString checkClassChannelParams(ParamMap* params) {
  const int sources = params->value("sources").toInt();
  const QList<double> levels = numberListValues(params->value("mi_schedule"));
  const bool hasCrossover = !params->value("crossover").isNull();
  if (!levels.isEmpty()) {
    if (hasCrossover)
      return QStringLiteral("crossover: an MI staircase (mi_schedule) sets each level's crossover; leave it unset");
    for (double level : levels)
      if (level > sources * kLog2) return maxMiError("mi_schedule", sources, level);
    params->insert("mi", levels.last());  // the final evaluation reads the last level
  }
  const QVariant mi = params->value("mi");
  if (!mi.isNull() && hasCrossover && levels.isEmpty())
    return QStringLiteral("crossover: give crossover or mi, not both (crossover %1, mi %2)")
        .arg(params->value("crossover").toDouble())
        .arg(mi.toDouble());
  if (!mi.isNull() && mi.toDouble() > sources * kLog2) return maxMiError("mi", sources, mi.toDouble());
  if (mi.isNull() && !hasCrossover && ClassChannelOptions::kDefaultMi > sources * kLog2)
    return maxMiError("mi", sources, ClassChannelOptions::kDefaultMi) + " (its default; set mi or crossover)";
  return {};
}

QString classChannelOptionsFrom(const ParamMap& p, ClassChannelData data, const QStringList& topics,
                                ClassChannelOptions* out) {
  ClassChannelOptions o;
  o.sources = p.value("sources").toInt();
  if (!p.value("crossover").isNull()) {
    o.crossover = p.value("crossover").toDouble();
    o.mi = classChannelMi(o.sources, o.crossover);
  } else {
    o.mi = p.value("mi").isNull() ? ClassChannelOptions::kDefaultMi : p.value("mi").toDouble();
    o.crossover = crossoverFor(o.sources, o.mi);
  }
  // Images name their classes by `classes`, texts by `topics`: two keys, so the window never carries one's value
  // to the other task.
  const QString key = data == ClassChannelData::Images ? QStringLiteral("classes") : QStringLiteral("topics");
  const QStringList classes = p.value(key).toString().split(',', Qt::SkipEmptyParts);
  if (classes.size() != 2)
    return QStringLiteral("%1: must name two, comma-separated, got '%2'").arg(key, p.value(key).toString());
  for (const QString& raw : classes) {
    const QString name = raw.trimmed();
    if (data == ClassChannelData::Images) {
      const int label = fashionLabelOf(name);
      if (label < 0)
        return QStringLiteral("classes: '%1' is not a Fashion-MNIST label (0-9 or one of %2)")
            .arg(name, fashionMnistClassNames().join(", "));
      o.classes << QString::number(label);
    } else {
      if (!topics.contains(name))
        return QStringLiteral("topics: '%1' is not a topic of the fortunes corpus (one of %2)")
            .arg(name, topics.join(", "));
      o.classes << name;
    }
  }
  if (o.classes[0] == o.classes[1])
    return QStringLiteral("%1: the two must differ, got '%2' twice").arg(key, o.classes[0]);
  if (data == ClassChannelData::Images)
    o.side = p.value("side").toInt();
  else
    o.features = p.value("features").toInt();
  *out = o;
  return {};
}

}  // namespace milab
