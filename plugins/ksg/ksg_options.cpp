#include "ksg/ksg_options.h"

namespace milab {

KsgOptions KsgOptions::from(const ParamMap& params) {
  KsgOptions o;
  o.k = params.value("k").toInt();
  o.setSize = params.value("set_size").toInt();
  return o;
}

}  // namespace milab
