#include "tasks/task_catalog.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QJsonObject>
#include <QLibrary>
#include <QPluginLoader>
#include <algorithm>
#include <deque>
#include <mutex>
#include <numeric>
#include <vector>

#include "method/method_plugin.h"
#include "method/plugin_loader_warnings.h"
#include "tasks/shared_task_options.h"

namespace milab {

namespace {

// Every task plugin of the process, loaded once (on first use, from whichever thread asks first).
class TaskRegistry {
 public:
  static TaskRegistry& instance() {
    static TaskRegistry registry;
    return registry;
  }

  const QList<TaskInfo>& listed() const { return listed_; }
  QString defaultId() const {
    return !defaultId_.isEmpty() ? defaultId_ : listed_.isEmpty() ? QString() : listed_[0].id;
  }
  const QList<PluginLoadError>& errors() const { return errors_; }
  const TaskPlugin* pluginOf(const QString& id) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return pluginOf_.value(id, nullptr);
  }

  const TaskInfo* find(const QString& id, QString* variantError) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (const TaskInfo* t = byId_.value(id, nullptr)) return t;
    for (const TaskPlugin* plugin : plugins_) {
      QString error;
      if (std::optional<TaskInfo> v = plugin->variant(id, &error)) {
        variants_.push_back(*v);  // a deque: pointers handed out stay valid as it grows
        byId_.insert(id, &variants_.back());
        pluginOf_.insert(id, plugin);
        return &variants_.back();
      }
      if (!error.isEmpty() && variantError) *variantError = error;
    }
    return nullptr;
  }

 private:
  TaskRegistry() {
    struct Found {
      int order;
      QString path;
      const TaskPlugin* plugin;
      QString defaultId;
    };
    std::vector<Found> found;
    muteQtPluginLoaderWarnings();
    for (const QString& dir : MethodRegistry::defaultPluginDirs()) {
      const QFileInfoList files = QDir(QDir(dir).filePath("tasks")).entryInfoList(QDir::Files, QDir::Name);
      for (const QFileInfo& file : files) {
        const QString path = file.absoluteFilePath();
        if (!QLibrary::isLibrary(path)) continue;
        auto loader = std::make_unique<QPluginLoader>(path);
        // The IID is read from the metadata before any code of the plugin runs.
        const QJsonObject meta = loader->metaData();
        const QString iid = meta.value("IID").toString();
        if (iid != QStringLiteral(MILAB_TASK_PLUGIN_IID)) {
          errors_ << PluginLoadError{path, iid.isEmpty() ? QStringLiteral("no Qt plugin metadata")
                                                         : QStringLiteral("interface %1, expected %2")
                                                               .arg(iid, QStringLiteral(MILAB_TASK_PLUGIN_IID))};
          continue;
        }
        auto* plugin = qobject_cast<TaskPlugin*>(loader->instance());
        if (!plugin) {
          errors_ << PluginLoadError{path, loader->errorString()};
          continue;
        }
        const QJsonObject own = meta.value("MetaData").toObject();
        found.push_back({own.value("order").toInt(1000), path, plugin, own.value("default").toString()});
        loaders_.push_back(std::move(loader));
      }
    }
    std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.order < b.order; });
    for (const Found& f : found) {
      plugins_.push_back(f.plugin);
      if (defaultId_.isEmpty()) defaultId_ = f.defaultId;
      for (const TaskInfo& t : f.plugin->tasks()) {
        if (byId_.contains(t.id) || pluginOf_.contains(t.id)) {
          errors_ << PluginLoadError{f.path, QStringLiteral("task id '%1' already loaded").arg(t.id)};
          continue;
        }
        listed_ << t;
        pluginOf_.insert(t.id, f.plugin);
      }
    }
    for (const TaskInfo& t : listed_) byId_.insert(t.id, &t);  // listed_ is complete: its elements stay put
  }

  std::vector<std::unique_ptr<QPluginLoader>> loaders_;  // kept loaded for the process's life
  std::vector<const TaskPlugin*> plugins_;
  QList<TaskInfo> listed_;
  QString defaultId_;
  QList<PluginLoadError> errors_;
  mutable std::mutex mutex_;  // guards the variants and the maps they extend
  std::deque<TaskInfo> variants_;
  QHash<QString, const TaskInfo*> byId_;
  QHash<QString, const TaskPlugin*> pluginOf_;
};

}  // namespace

QStringList nearestIds(const QString& id, const QStringList& candidates, int count) {
  const auto distance = [](const QString& a, const QString& b) {  // Levenshtein, one row at a time
    std::vector<int> row(b.size() + 1);
    std::iota(row.begin(), row.end(), 0);
    for (int i = 1; i <= a.size(); ++i) {
      int diagonal = row[0];
      row[0] = i;
      for (int j = 1; j <= b.size(); ++j) {
        const int up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diagonal = up;
      }
    }
    return row[b.size()];
  };
  QList<std::pair<int, QString>> scored;
  for (const QString& candidate : candidates) scored << std::pair{distance(id, candidate), candidate};
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  QStringList out;
  for (int i = 0; i < std::min<int>(count, int(scored.size())); ++i) out << scored[i].second;
  return out;
}

const QList<TaskInfo>& availableTasks() { return TaskRegistry::instance().listed(); }

const TaskInfo* findTask(const QString& id) { return TaskRegistry::instance().find(id, nullptr); }

QString unknownTaskError(const QString& id) {
  QString variantError;
  if (TaskRegistry::instance().find(id, &variantError)) return {};
  if (!variantError.isEmpty()) return variantError;
  QStringList ids;
  for (const TaskInfo& t : availableTasks()) ids << t.id;
  if (ids.isEmpty()) return QStringLiteral("task: no task plugin was found (plugins/tasks beside milab's plugins)");
  return QStringLiteral("task: unknown task '%1' (the nearest ids: %2; milab-cli tasks lists them all)")
      .arg(id, nearestIds(id, ids, 3).join(", "));
}

QString defaultTaskId() { return TaskRegistry::instance().defaultId(); }

QList<PluginLoadError> taskLoadErrors() { return TaskRegistry::instance().errors(); }

QString validateTaskParams(const TaskInfo& task, ParamMap* params) {
  const TaskPlugin* plugin = TaskRegistry::instance().pluginOf(task.id);
  return plugin ? plugin->validate(task, params) : unknownTaskError(task.id);
}

std::unique_ptr<TaskModel> buildTask(const QString& id, const ParamMap& params, std::uint64_t seed) {
  const TaskInfo* task = findTask(id);
  const TaskPlugin* plugin = task ? TaskRegistry::instance().pluginOf(id) : nullptr;
  if (!plugin) return nullptr;
  return plugin->build(*task, params, seed);
}

TaskWidths taskWidths(const TaskInfo& task, const ParamMap& taskParams) {
  if (task.dimX > 0 && task.dimY > 0) return {task.dimX, task.dimY};
  if (const std::unique_ptr<TaskModel> model = buildTask(task.id, taskParams, 1)) return {model->dimX(), model->dimY()};
  const int dim = SharedTaskOptions::from(taskParams).dim.value_or(0);
  return {dim, dim};
}

TaskWidths criticInputWidths(const TaskInfo& task, const ParamMap& taskParams) {
  const TaskWidths w = taskWidths(task, taskParams);
  return {(task.capabilities.subview ? 2 : 1) * w.x, w.y};
}

QString methodTaskMismatch(const MethodInfo& method, const ParamMap& methodParams, const TaskInfo& task) {
  if (task.capabilities.images && !method.readsImages)
    return QStringLiteral(
               "task: method %1 reads vectors, and task '%2' yields images: choose a method that reads "
               "images (`milab-cli methods --long` marks them)")
        .arg(method.id, task.id);
  if (method.readsImages && !task.capabilities.images)
    return QStringLiteral("task: method %1 reads images with a convolutional encoder, and task '%2' yields vectors")
        .arg(method.id, task.id);
  if (task.capabilities.tokens && !method.readsTokens)
    return QStringLiteral(
               "task: method %1 reads vectors, and task '%2' yields token sequences: choose a method that reads "
               "tokens (`milab-cli methods --long` marks them)")
        .arg(method.id, task.id);
  if (method.readsTokens && !task.capabilities.tokens)
    return QStringLiteral("task: method %1 reads token sequences with a sequence encoder, and task '%2' yields %3")
        .arg(method.id, task.id, task.capabilities.images ? QStringLiteral("images") : QStringLiteral("vectors"));
  if (method.needsSubview && !task.capabilities.subview)
    return QStringLiteral("task: method %1 needs x' and samples of the true p(y|x'), which task '%2' does not offer")
        .arg(method.id, task.id);
  // A table's x' columns are its xp_columns: checked against the table itself (validateRunSpec).
  if (method.readsSubviewRows && !task.capabilities.subview && !task.capabilities.subviewRows && !task.dataset)
    return QStringLiteral("task: method %1 reads x' beside x and y, which task '%2' does not offer")
        .arg(method.id, task.id);
  if (usesOracleCritic(methodParams)) {
    if (!task.capabilities.pmi)
      return QStringLiteral("critic: oracle reads the exact PMI, which task '%1' does not offer (method %2)")
          .arg(task.id, method.id);
    if (method.oracleNeedsDensities && !task.capabilities.densities)
      return QStringLiteral("critic: %1's oracle reads the exact log p(y), which task '%2' does not offer")
          .arg(method.id, task.id);
  }
  return {};
}

}  // namespace milab
