#pragma once
// flow-mi: MI through normalizing flows (flow_mi_estimator.h).
#include <QObject>

#include "flow_mi_estimator.h"

namespace milab {

class FlowMiQtPlugin : public QObject, public FlowMiPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "flow-mi.json")
  Q_INTERFACES(milab::MethodPlugin)
};

}  // namespace milab
