// pluginInstallProblem (method/plugin_install_check.h).
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
    const PluginLoadError& first = errors.first();
    // Qt's reasons name the file again, whole, and end with a period ("The file '/p/x.so' is not a valid Qt
    // plugin."): the line names it once and goes on after the reason.
    QString reason = first.reason.trimmed();
    reason.replace(QStringLiteral(" '%1'").arg(first.file), QString()).replace(first.file, QStringLiteral("it"));
    while (reason.endsWith('.')) reason.chop(1);
    const QString more = errors.size() > 1 ? QStringLiteral(" (and %1 more)").arg(errors.size() - 1) : QString();
    return QStringLiteral("plugins: cannot load '%1': %2%3; remove the file or reinstall milab")
        .arg(first.file, reason, more);
  }
  if (registry && registry->methods().isEmpty())
    return QStringLiteral("plugins: no method plugin in %1; reinstall milab or set MILAB_PLUGIN_PATH")
        .arg(shown.join(", "));
  return {};
}

}  // namespace milab
