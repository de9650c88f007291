#pragma once
// demi-text-bo: the sequence family's DemiBo objective (sequence_plugin.h, sequence_options.h).
#include <QObject>

#include "sequence_plugin.h"

namespace milab {

class DemiTextBoPlugin : public QObject, public SequencePlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "demi-text-bo.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  DemiTextBoPlugin() : SequencePlugin(SequenceObjective::DemiBo) {}
};

}  // namespace milab
