#include "engine/reading_params_options.h"

#include <cmath>

#include "engine/run_spec.h"
#include "method/method_plugin.h"

namespace milab {

qint64 heldOutRowsOf(const RunSpec& spec) { return std::llround(double(spec.samples) * spec.testFraction); }

ParamMap readingParams(const MethodInfo& method, const RunSpec& spec) {
  ParamMap params = spec.methodParams;
  if (spec.finiteSamples() && spec.heldOutWhole && method.trains && method.readsWholeHeldOut && params.contains("K"))
    params.insert("K", heldOutRowsOf(spec));
  return params;
}

}  // namespace milab
