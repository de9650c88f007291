#include "method/shared_method_options.h"

namespace milab {

SharedMethodOptions SharedMethodOptions::from(const ParamMap& params) {
  SharedMethodOptions o;
  if (params.contains("critic")) o.critic = params.value("critic").toString();
  if (params.contains("K")) o.K = params.value("K").toLongLong();
  if (params.contains("batch")) o.batch = params.value("batch").toLongLong();
  if (params.contains("bits")) o.bits = params.value("bits").toInt();
  return o;
}

bool usesOracleCritic(const ParamMap& params) { return SharedMethodOptions::from(params).oracleCritic(); }

}  // namespace milab
