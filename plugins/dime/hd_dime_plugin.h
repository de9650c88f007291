#pragma once
// hd-dime: f-DIME with the squared Hellinger distance (dime_plugin.h, dime_objectives.h).
#include <QObject>

#include "dime_plugin.h"

namespace milab {

class HdDimePlugin : public QObject, public DimePlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "hd-dime.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  HdDimePlugin() : DimePlugin(FDivergence::Hellinger) {}
};

}  // namespace milab
