#pragma once
// milab-cli methods [--long]: the method plugins, and with --long what each estimates, promises and takes.
#include "params/param_spec.h"

namespace milab {

class MethodRegistry;

int listMethods(const MethodRegistry& registry, bool longForm);
// Each parameter as a flag, with its label, unit, default, range and meaning (methods and tasks --long).
void printParams(const ParamSpecs& params);

}  // namespace milab
