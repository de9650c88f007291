#include "data_task_plugin.h"

#include <QDateTime>
#include <QFileInfo>
#include <QSet>
#include <cmath>

#include "data_task_model.h"

namespace milab {

namespace {

HeaderMode headerOf(const ParamMap& params) {
  const QString h = params.value("header").toString();
  return h == "yes" ? HeaderMode::Yes : h == "no" ? HeaderMode::No : HeaderMode::Auto;
}

QList<int> columnsOf(const ParamMap& params, const QString& key) {
  QList<int> out;
  for (double v : numberListValues(params.value(key))) out << int(v);
  return out;
}

QVector<double> pick(const DataTable& t, const QList<int>& columns) {
  QVector<double> out;
  out.reserve(t.rows * columns.size());
  for (int64_t r = 0; r < t.rows; ++r)
    for (int c : columns) out << t.at(r, c);
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
  t.params = {
      ParamSpec::text("file", "", "the table: CSV (',', ';', tab or spaces; a header line is detected), .npy or .npz"),
      ParamSpec::numberList("x_columns", 0, 1e6, "the columns of x, counted from 0, e.g. 0,1"),
      ParamSpec::numberList("y_columns", 0, 1e6, "the columns of y, counted from 0, e.g. 2,3"),
      ParamSpec::numberList("xp_columns", 0, 1e6, "the columns of a subview x' (optional)"),
      ParamSpec::choice("header", {"auto", "yes", "no"}, "auto",
                        "whether a CSV's first line names its columns (auto: when a cell of it is not a number)"),
  };
  return {t};
}

QString DataTaskPlugin::table(const QString& path, HeaderMode header, std::shared_ptr<const DataTable>* out) const {
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
  const QString path = params->value("file").toString();
  if (path.isEmpty()) return QStringLiteral("file: task data needs a file (--file PATH: CSV, .npy or .npz)");
  QSet<int> used;
  QString usedBy;
  for (const QString& key : {QStringLiteral("x_columns"), QStringLiteral("y_columns"), QStringLiteral("xp_columns")}) {
    const QList<double> values = numberListValues(params->value(key));
    if (values.isEmpty() && key != "xp_columns")
      return QStringLiteral("%1: task data needs at least one column, e.g. --%2 0")
          .arg(key, QString(key).replace('_', '-'));
    for (double v : values) {
      if (v != std::floor(v)) return QStringLiteral("%1: column indices are integers from 0, got %2").arg(key).arg(v);
      if (used.contains(int(v)))
        return QStringLiteral("%1: column %2 is also one of the other variable's").arg(key).arg(v);
    }
    for (double v : values) used.insert(int(v));
  }
  std::shared_ptr<const DataTable> t;
  if (const QString err = table(path, headerOf(*params), &t); !err.isEmpty()) return err;
  for (const QString& key : {QStringLiteral("x_columns"), QStringLiteral("y_columns"), QStringLiteral("xp_columns")})
    for (int c : columnsOf(*params, key))
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
  if (!table(params.value("file").toString(), headerOf(params), &t).isEmpty()) return nullptr;
  DataColumns d;
  d.rows = t->rows;
  const QList<int> xs = columnsOf(params, "x_columns"), xps = columnsOf(params, "xp_columns"),
                   ys = columnsOf(params, "y_columns");
  d.dimX = xs.size();
  d.dimXp = xps.size();
  d.dimY = ys.size();
  d.x = pick(*t, xs);
  d.xp = pick(*t, xps);
  d.y = pick(*t, ys);
  return std::make_unique<DataTaskModel>(std::move(d));
}

}  // namespace milab
