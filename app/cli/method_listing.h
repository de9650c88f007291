#pragma once
// milab-cli methods [--long]: the method plugins, and with --long what each estimates, promises and takes.
class QString;

namespace milab {

class MethodRegistry;

int listMethods(const MethodRegistry& registry, bool longForm);

}  // namespace milab
