#include "engine/experiment.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "tasks/task_catalog.h"

namespace milab {

namespace {

bool isScalar(const QJsonValue& v) { return !v.isObject() && !v.isArray() && !v.isUndefined(); }

QString readScalars(const QJsonObject& obj, const QString& where, QVariantMap* out) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (!isScalar(it.value()))
      return QStringLiteral("%1: must be a number, string, boolean or null in %2").arg(it.key(), where);
    out->insert(it.key(), it.value().toVariant());
  }
  return {};
}

// A key whose one value is itself a list (mi_schedule "2,4,6"): its commas never make a sweep.
bool isListValued(const QString& key) {
  for (const TaskInfo& t : availableTasks())
    if (const ParamSpec* s = findSpec(t.params, key); s && s->type == ParamSpec::Type::NumberList) return true;
  return false;
}

QString folderSafe(const QVariant& v) {
  QString s = v.toString();
  s.replace(QRegularExpression("[^A-Za-z0-9.+-]"), "_");
  return s;
}

}  // namespace

QString readExperiment(const QString& path, Experiment* out) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return QStringLiteral("experiment: cannot read '%1'").arg(path);
  QJsonParseError perr;
  const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &perr);
  if (perr.error != QJsonParseError::NoError)
    return QStringLiteral("experiment: '%1' is not valid JSON (%2 at offset %3)")
        .arg(path, perr.errorString())
        .arg(perr.offset);
  if (!doc.isObject()) return QStringLiteral("experiment: '%1' must hold a JSON object").arg(path);
  Experiment e;
  QJsonObject top = doc.object();
  const QString where = QStringLiteral("'%1'").arg(path);

  if (top.contains("grid")) {
    const QJsonValue grid = top.take("grid");
    if (!grid.isObject())
      return QStringLiteral("grid: must be an object of lists, e.g. {\"K\": [8, 64]}, in %1").arg(where);
    const QJsonObject axes = grid.toObject();
    for (auto it = axes.begin(); it != axes.end(); ++it) {
      const QJsonArray values = it.value().toArray();
      if (!it.value().isArray() || values.isEmpty())
        return QStringLiteral("grid.%1: must be a non-empty list of values in %2").arg(it.key(), where);
      QVariantList list;
      for (const QJsonValue& v : values) {
        if (!isScalar(v)) return QStringLiteral("grid.%1: values must be scalars in %2").arg(it.key(), where);
        list << v.toVariant();
      }
      e.axes << qMakePair(it.key(), list);
    }
  }
  if (top.contains("methods")) {
    const QJsonValue methods = top.take("methods");
    if (!methods.isArray() || methods.toArray().isEmpty())
      return QStringLiteral("methods: must be a non-empty list of objects, e.g. [{\"method\": \"infonce\"}], in %1")
          .arg(where);
    for (const QJsonValue& m : methods.toArray()) {
      if (!m.isObject()) return QStringLiteral("methods: each entry must be an object in %1").arg(where);
      QVariantMap row;
      const QString err = readScalars(m.toObject(), where, &row);
      if (!err.isEmpty()) return err;
      if (!row.contains("method")) return QStringLiteral("methods: each entry needs a \"method\" key in %1").arg(where);
      e.methods << row;
    }
  }
  const QString err = readScalars(top, where, &e.base);
  if (!err.isEmpty()) return err;
  *out = e;
  return {};
}

void applyOverrides(const QVariantMap& overrides, Experiment* experiment) {
  for (auto it = overrides.cbegin(); it != overrides.cend(); ++it) {
    const QString& key = it.key();
    for (int i = experiment->axes.size() - 1; i >= 0; --i)
      if (experiment->axes[i].first == key) experiment->axes.removeAt(i);
    for (QVariantMap& row : experiment->methods) row.remove(key);
    const QString text = it.value().toString();
    if (it.value().typeId() == QMetaType::QString && text.contains(',') && !isListValued(key)) {
      QVariantList values;
      for (const QString& v : text.split(',', Qt::SkipEmptyParts)) values << v.trimmed();
      experiment->axes << qMakePair(key, values);
      experiment->base.remove(key);
    } else {
      if (key == "method") experiment->methods.clear();
      experiment->base.insert(key, it.value());
    }
  }
}

QString expandExperiment(const Experiment& experiment, const MethodRegistry& registry, QList<GridCell>* cells) {
  QList<QVariantMap> rows = experiment.methods.isEmpty() ? QList<QVariantMap>{QVariantMap()} : experiment.methods;
  // Cartesian product of the axes, the first axis varying slowest.
  QList<QList<QPair<QString, QVariant>>> points{{}};
  for (const auto& axis : experiment.axes) {
    if (axis.second.isEmpty())  // e.g. --K , : a sweep with no value would run nothing and say it finished
      return QStringLiteral("%1: the list gives no value to run (e.g. --%1 8,64)").arg(axis.first);
    QList<QList<QPair<QString, QVariant>>> next;
    for (const auto& p : points)
      for (const QVariant& v : axis.second) next << (p + QList<QPair<QString, QVariant>>{qMakePair(axis.first, v)});
    points = next;
  }
  QList<GridCell> out;
  for (const QVariantMap& row : rows) {
    for (const auto& point : points) {
      GridCell cell;
      QVariantMap flat = experiment.base;
      QStringList nameParts;
      if (!row.isEmpty()) nameParts << folderSafe(row.value("method"));
      for (auto it = row.cbegin(); it != row.cend(); ++it) {
        flat.insert(it.key(), it.value());
        cell.coordinates.insert(it.key(), it.value());
        if (it.key() != "method") nameParts << it.key() + "-" + folderSafe(it.value());
      }
      for (const auto& kv : point) {
        flat.insert(kv.first, kv.second);
        cell.coordinates.insert(kv.first, kv.second);
        nameParts << kv.first + "-" + folderSafe(kv.second);
      }
      cell.name = nameParts.isEmpty() ? QStringLiteral("run") : nameParts.join('_');
      const QString err = runSpecFromFlat(flat, registry, &cell.spec);
      if (!err.isEmpty()) return experiment.isGrid() ? QStringLiteral("%1 (in cell %2)").arg(err, cell.name) : err;
      out << cell;
    }
  }
  *cells = out;
  return {};
}

}  // namespace milab
