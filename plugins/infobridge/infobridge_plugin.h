#pragma once
// infobridge: MI through Brownian-bridge drifts (infobridge_estimator.h).
#include <QObject>

#include "infobridge_method.h"

namespace milab {

class InfoBridgeQtPlugin : public QObject, public InfoBridgePlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "infobridge.json")
  Q_INTERFACES(milab::MethodPlugin)
};

}  // namespace milab
