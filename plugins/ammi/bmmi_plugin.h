#pragma once
// BMMI: as AMMI with H(Z) computed exactly over the 2^m codes of a pooled aggregate posterior (m <= 16):
// a lower bound on I(X;Z) <= I(X;Y).
#include <QObject>

#include "ammi/markov_mi_plugin.h"

namespace milab {

class BmmiPlugin : public QObject, public MarkovMiPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "bmmi.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  BmmiPlugin();
};

}  // namespace milab
