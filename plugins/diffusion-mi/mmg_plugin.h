#pragma once
// mmg: MI as the area between two denoising errors (mmg_method.h).
#include <QObject>

#include "mmg_method.h"

namespace milab {

class MmgQtPlugin : public QObject, public MmgPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "mmg.json")
  Q_INTERFACES(milab::MethodPlugin)
};

}  // namespace milab
