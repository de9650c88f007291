#pragma once
// AMMI (Stratos & Wiseman 2020): H+(Z) - H+(Z|X) over Markov-order codes z in {0,1}^m, H+(Z) against an
// adversarially fitted prior of order r (Algorithm 2). Neither an upper nor a lower bound.
#include <QObject>

#include "ammi/markov_mi_plugin.h"

namespace milab {

class AmmiPlugin : public QObject, public MarkovMiPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "ammi.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  AmmiPlugin();
};

}  // namespace milab
