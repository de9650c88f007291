#pragma once
// DoE with logistic q(y) and q(y|x), the DoE paper's second family; the same as doe with family = logistic.
#include <QObject>

#include "doe/doe_family.h"

namespace milab {

class DoeLogisticPlugin : public QObject, public DoePlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "doe-logistic.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  DoeLogisticPlugin() : DoePlugin("doe-logistic", "DoE, logistic family", "logistic") {}
};

}  // namespace milab
