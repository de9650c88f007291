#pragma once
// Whether the plugins a program needs are there (issue 47's install): a missing plugins folder or a plugin file
// that does not load is bad input for the runner (exit 2) and a dialog for the window, one line naming the folder or
// the file, instead of a lab that silently lacks its methods.
#include <QString>

namespace milab {

class MethodRegistry;

// "" or the one line. `registry` (already loaded) is checked with the task plugins; nullptr checks the tasks only.
QString pluginInstallProblem(const MethodRegistry* registry);

}  // namespace milab
