#include "data_task_plugin.h"

#include <QDateTime>
#include <QFileInfo>
#include <QSet>
#include <cmath>

#include "data/held_tables.h"
#include "data_task_model.h"
#include "data_task_options.h"

namespace milab {

namespace {

QList<int> indices(const QList<double>& columns) {
  QList<int> out;
  for (double v : columns) out << int(v);
  return out;
}

DataPart pick(const DataTable& t, const QList<int>& columns) {
  DataPart out;
  if (const FloatBlock* b = columns.isEmpty() ? nullptr : t.blockOf(columns)) {  // a held array of exactly these columns: read in place
    out.block = *b;
    return out;
  }
  out.picked.reserve(t.rows * columns.size());
  for (int64_t r = 0; r < t.rows; ++r)
    for (int c : columns) out.picked << t.at(r, c);
  return out;
}

}  // namespace

QList<TaskInfo> DataTaskPlugin::tasks() const {
  TaskInfo t;
  t.id = "data";
  t.displayName = "Your data (CSV, .npy, .npz)";
  t.family = "data";
  t.summary =
      "the chosen columns of a table as x, (x',) y: no truth; read by the finite-sample protocol, each "
      "estimate beside its permutation baseline (y shuffled)";
  t.dataset = true;
  t.params = dataTaskSpecs();
  return {t};
}

QString DataTaskPlugin::table(const QString& path, HeaderMode header, std::shared_ptr<const DataTable>* out) const {
  if (namesHeldTable(path)) {  // arrays handed over in memory (data/held_tables.h), their cells checked there
    *out = heldTable(path);
    return *out ? QString() : QStringLiteral("file: '%1' names no table held in memory (released)").arg(path);
  }
  const QFileInfo info(path);
  const QString key = QStringLiteral("%1|%2|%3|%4")
                          .arg(info.absoluteFilePath())
                          .arg(info.size())
                          .arg(info.lastModified().toMSecsSinceEpoch())
                          .arg(int(header));
  QMutexLocker lock(&mutex_);
  if (key != cachedKey_ || !cached_) {
    auto table = std::make_shared<DataTable>();
    if (const QString err = readDataTable(path, header, table.get()); !err.isEmpty()) return err;
    cached_ = table;
    cachedKey_ = key;
  }
  *out = cached_;
  return {};
}

QString DataTaskPlugin::validate(const TaskInfo& task, ParamMap* params) const {
  if (const QString err = TaskPlugin::validate(task, params); !err.isEmpty()) return err;
  const DataTaskOptions o = DataTaskOptions::from(*params);
  const QString& path = o.file;
  if (path.isEmpty()) return QStringLiteral("file: task data needs a file (--file PATH: CSV, .npy or .npz)");
  QSet<int> used;
  QString usedBy;
  for (const auto& [key, values] : o.columnLists()) {
    if (values.isEmpty() && key != "xp_columns")
      return QStringLiteral("%1: task data needs at least one column, e.g. --%2 0")
          .arg(key, QString(key).replace('_', '-'));
    QSet<int> own;
    for (double v : values) {
      if (v != std::floor(v)) return QStringLiteral("%1: column indices are integers from 0, got %2").arg(key).arg(v);
      if (used.contains(int(v)))
        return QStringLiteral("%1: column %2 is also one of the other variable's").arg(key).arg(v);
      if (own.contains(int(v)))  // a repeated column is a copy of itself: MI that is not in the data
        return QStringLiteral("%1: column %2 is named twice; each column once").arg(key).arg(v);
      own.insert(int(v));
    }
    used.unite(own);
  }
  // The methods that read x' (CNCE, the DEMI family) take it as a second view of x, of x's width (task.h).
  if (!o.xpColumns.isEmpty() && o.xpColumns.size() != o.xColumns.size())
    return QStringLiteral("xp_columns: x' has as many columns as x (%1), got %2")
        .arg(o.xColumns.size())
        .arg(o.xpColumns.size());
  std::shared_ptr<const DataTable> t;
  if (const QString err = table(path, o.header, &t); !err.isEmpty()) return err;
  for (const auto& [key, values] : o.columnLists())
    for (int c : indices(values))
      if (c >= t->columns)
        return QStringLiteral("%1: column %2 is out of range: '%3' has %4 columns (0 to %5)")
            .arg(key)
            .arg(c)
            .arg(path)
            .arg(t->columns)
            .arg(t->columns - 1);
  return {};
}

std::unique_ptr<TaskModel> DataTaskPlugin::build(const TaskInfo&, const ParamMap& params, std::uint64_t) const {
  std::shared_ptr<const DataTable> t;
  const DataTaskOptions o = DataTaskOptions::from(params);
  if (!table(o.file, o.header, &t).isEmpty()) return nullptr;
  DataColumns d;
  d.rows = t->rows;
  const QList<int> xs = indices(o.xColumns), xps = indices(o.xpColumns), ys = indices(o.yColumns);
  d.dimX = xs.size();
  d.dimXp = xps.size();
  d.dimY = ys.size();
  d.x = pick(*t, xs);
  d.xp = pick(*t, xps);
  d.y = pick(*t, ys);
  return std::make_unique<DataTaskModel>(std::move(d));
}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_data_task_plugin.cpp"
