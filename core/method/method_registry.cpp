#include "method/method_registry.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QLibrary>
#include <QPluginLoader>
#include <algorithm>

#include "method/method_plugin.h"
#include "method/plugin_loader_warnings.h"

namespace milab {

MethodRegistry::MethodRegistry() = default;
MethodRegistry::~MethodRegistry() = default;

QStringList MethodRegistry::defaultPluginDirs() {
  const QString env = qEnvironmentVariable("MILAB_PLUGIN_PATH");
  if (!env.isEmpty()) return env.split(':', Qt::SkipEmptyParts);
  const QString appDir = QCoreApplication::applicationDirPath();
  // The build tree's layout, then an install's (cmake/install.cmake: P/bin and P/lib/milab/plugins).
  return {QDir(appDir).filePath("../plugins"), QDir(appDir).filePath("plugins"),
          QDir(appDir).filePath("../lib/milab/plugins")};
}

void MethodRegistry::loadDefault() {
  for (const QString& dir : defaultPluginDirs())
    if (QFileInfo(dir).isDir()) loadDirectory(dir);
}

int MethodRegistry::loadDirectory(const QString& dir) {
  muteQtPluginLoaderWarnings();
  int added = 0;
  const QFileInfoList files = QDir(dir).entryInfoList(QDir::Files, QDir::Name);
  for (const QFileInfo& file : files) {
    const QString path = file.absoluteFilePath();
    if (!QLibrary::isLibrary(path)) continue;
    auto loader = std::make_unique<QPluginLoader>(path);
    // The IID is read from the metadata before any code of the plugin runs.
    const QString iid = loader->metaData().value("IID").toString();
    if (iid.isEmpty()) {
      errors_ << PluginLoadError{path, loader->errorString().isEmpty() ? "no Qt plugin metadata"
                                                                       : loader->errorString()};
      continue;
    }
    if (iid != QStringLiteral(MILAB_METHOD_PLUGIN_IID)) {
      errors_ << PluginLoadError{path, QStringLiteral("interface %1, expected %2")
                                           .arg(iid, QStringLiteral(MILAB_METHOD_PLUGIN_IID))};
      continue;
    }
    QObject* instance = loader->instance();
    auto* method = qobject_cast<MethodPlugin*>(instance);
    if (!method) {
      errors_ << PluginLoadError{path, instance ? "does not implement MethodPlugin" : loader->errorString()};
      continue;
    }
    if (add(method, path)) {
      ++added;
      loaders_.push_back(std::move(loader));
    }
  }
  return added;
}

void MethodRegistry::addStatic(const MethodPlugin* method) { add(method, "(built in)"); }

bool MethodRegistry::add(const MethodPlugin* method, const QString& origin) {
  const QString id = method->info().id;
  if (find(id)) {
    errors_ << PluginLoadError{origin, QStringLiteral("method id '%1' already loaded").arg(id)};
    return false;
  }
  methods_ << method;
  byId_.insert(id, method);
  std::sort(methods_.begin(), methods_.end(),
            [](const MethodPlugin* a, const MethodPlugin* b) { return a->info().id < b->info().id; });
  return true;
}

QList<const MethodPlugin*> MethodRegistry::methods() const { return methods_; }

const MethodPlugin* MethodRegistry::find(const QString& id) const { return byId_.value(id, nullptr); }

QStringList MethodRegistry::ids() const {
  QStringList out;
  for (const MethodPlugin* m : methods_) out << m->info().id;
  return out;
}

}  // namespace milab
