#pragma once
// `--task data`: a user's own table (CSV with or without a header, NumPy .npy/.npz), its x, y (and x') columns
// chosen by index. Every cell is checked before anything runs; a bad file is refused naming its line and column.
#include <QMutex>
#include <QObject>
#include <memory>

#include "data_table.h"
#include "tasks/task.h"

namespace milab {

class DataTaskPlugin : public QObject, public TaskPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_TASK_PLUGIN_IID FILE "data.json")
  Q_INTERFACES(milab::TaskPlugin)

 public:
  QList<TaskInfo> tasks() const override;
  QString validate(const TaskInfo& task, ParamMap* params) const override;
  std::unique_ptr<TaskModel> build(const TaskInfo& task, const ParamMap& params, std::uint64_t seed) const override;

 private:
  // The table of `path`, read once while the file keeps its size and time (validation, then every run of a grid), or
  // the one a "memory:" name holds.
  QString table(const QString& path, HeaderMode header, std::shared_ptr<const DataTable>* out) const;

  mutable QMutex mutex_;
  mutable QString cachedKey_;
  mutable std::shared_ptr<const DataTable> cached_;
};

}  // namespace milab
