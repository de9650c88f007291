#pragma once
// gan-dime: f-DIME with the GAN (Jensen-Shannon) divergence (dime_plugin.h, dime_objectives.h).
#include <QObject>

#include "dime_plugin.h"

namespace milab {

class GanDimePlugin : public QObject, public DimePlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "gan-dime.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  GanDimePlugin() : DimePlugin(FDivergence::Gan) {}
};

}  // namespace milab
