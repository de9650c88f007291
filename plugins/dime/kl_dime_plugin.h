#pragma once
// kl-dime: f-DIME with the KL divergence (dime_plugin.h, dime_objectives.h).
#include <QObject>

#include "dime_plugin.h"

namespace milab {

class KlDimePlugin : public QObject, public DimePlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "kl-dime.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  KlDimePlugin() : DimePlugin(FDivergence::Kl) {}
};

}  // namespace milab
