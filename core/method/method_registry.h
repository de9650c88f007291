#pragma once
// Finds method plugins at run time. A file that fails to load is recorded with its reason, never fatal.
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class QPluginLoader;

namespace milab {

class MethodPlugin;

struct PluginLoadError {
  QString file;
  QString reason;
};

class MethodRegistry {
 public:
  MethodRegistry();
  ~MethodRegistry();
  MethodRegistry(const MethodRegistry&) = delete;
  MethodRegistry& operator=(const MethodRegistry&) = delete;

  // $MILAB_PLUGIN_PATH (colon separated) if set, else <exe dir>/../plugins and <exe dir>/plugins (a build
  // tree) and <exe dir>/../lib/milab/plugins (an install).
  static QStringList defaultPluginDirs();

  // Loads every shared library in `dir`. Returns how many methods were added.
  int loadDirectory(const QString& dir);
  void loadDefault();
  // In-process methods (tests, built-ins); the registry does not own them.
  void addStatic(const MethodPlugin* method);

  QList<const MethodPlugin*> methods() const;  // sorted by id
  const MethodPlugin* find(const QString& id) const;
  QStringList ids() const;
  const QList<PluginLoadError>& errors() const { return errors_; }

 private:
  bool add(const MethodPlugin* method, const QString& origin);

  std::vector<std::unique_ptr<QPluginLoader>> loaders_;  // kept loaded for the registry's life
  QList<const MethodPlugin*> methods_;
  // find() by id without building every plugin's MethodInfo (the fuzzer found a 75,000-cell grid slow to validate
  // when each lookup did: docs/speed.md, "Speed").
  QHash<QString, const MethodPlugin*> byId_;
  QList<PluginLoadError> errors_;
};

}  // namespace milab
