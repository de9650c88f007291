#pragma once
// demi-text: the sequence family's DemiCnce objective (sequence_plugin.h, sequence_options.h).
#include <QObject>

#include "sequence_plugin.h"

namespace milab {

class DemiTextPlugin : public QObject, public SequencePlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "demi-text.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  DemiTextPlugin() : SequencePlugin(SequenceObjective::DemiCnce) {}
};

}  // namespace milab
