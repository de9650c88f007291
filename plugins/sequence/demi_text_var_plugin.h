#pragma once
// demi-text-var: the sequence family's DemiVar objective (sequence_plugin.h, sequence_options.h).
#include <QObject>

#include "sequence_plugin.h"

namespace milab {

class DemiTextVarPlugin : public QObject, public SequencePlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "demi-text-var.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  DemiTextVarPlugin() : SequencePlugin(SequenceObjective::DemiVar) {}
};

}  // namespace milab
