#pragma once
// lmi: latent mutual information (lmi_estimator.h).
#include <QObject>

#include "lmi_estimator.h"

namespace milab {

class LmiQtPlugin : public QObject, public LmiPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "lmi.json")
  Q_INTERFACES(milab::MethodPlugin)
};

}  // namespace milab
