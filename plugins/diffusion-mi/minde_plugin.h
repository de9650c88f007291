#pragma once
// minde-c: MI as the gap between two diffusion scores (minde_method.h).
#include <QObject>

#include "minde_method.h"

namespace milab {

class MindeQtPlugin : public QObject, public MindePlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "minde-c.json")
  Q_INTERFACES(milab::MethodPlugin)
};

}  // namespace milab
