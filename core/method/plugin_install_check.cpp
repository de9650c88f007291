#include "method/plugin_install_check.h"

#include <QDir>
#include <QFileInfo>

#include "method/method_registry.h"
#include "tasks/task_catalog.h"

namespace milab {

QString pluginInstallProblem(const MethodRegistry* registry) {
  const QStringList dirs = MethodRegistry::defaultPluginDirs();
  bool anyFolder = false;
  QStringList shown;  // where it looked, as a person reads a path
  for (const QString& dir : dirs) {
    anyFolder = anyFolder || QFileInfo(dir).isDir();
    shown << QDir::cleanPath(dir);
  }
  if (!anyFolder)
    return QStringLiteral("plugins: no plugin folder (looked in %1); reinstall milab or set MILAB_PLUGIN_PATH")
        .arg(shown.join(", "));
  QList<PluginLoadError> errors = taskLoadErrors();
  if (registry) errors = registry->errors() + errors;
  if (!errors.isEmpty()) {
    const QString more = errors.size() > 1 ? QStringLiteral(" (and %1 more)").arg(errors.size() - 1) : QString();
    return QStringLiteral("plugins: cannot load '%1': %2%3; remove the file or reinstall milab")
        .arg(errors.first().file, errors.first().reason, more);
  }
  if (registry && registry->methods().isEmpty())
    return QStringLiteral("plugins: no method plugin in %1; reinstall milab or set MILAB_PLUGIN_PATH")
        .arg(shown.join(", "));
  return {};
}

}  // namespace milab
