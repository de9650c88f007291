#pragma once
// DoE: H+(Y) - H+(Y|X) with q(y), q(y|x) of the family the key `family` picks (Gaussian by default).
#include <QObject>

#include "doe/doe_family.h"

namespace milab {

class DoeGaussianPlugin : public QObject, public DoePlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "doe.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  DoeGaussianPlugin() : DoePlugin("doe", "DoE (difference of entropies)", "") {}
};

}  // namespace milab
