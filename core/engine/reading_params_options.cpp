#include "engine/reading_params_options.h"

#include <cmath>

#include "engine/run_spec.h"
#include "method/method_plugin.h"

namespace milab {

ParamMap readingParams(const MethodInfo& method, const RunSpec& spec) {
  ParamMap params = spec.methodParams;
  if (spec.finiteSamples() && spec.heldOutWhole && method.trains && method.readsWholeHeldOut && params.contains("K"))
    params.insert("K", qint64(std::llround(double(spec.samples) * spec.testFraction)));
  return params;
}

}  // namespace milab
