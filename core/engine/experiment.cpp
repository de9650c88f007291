#include "engine/experiment.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include "engine/json_text.h"
#include "method/critic_options.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

bool isScalar(const QJsonValue& v) { return !v.isObject() && !v.isArray() && !v.isUndefined(); }

// A control character (a newline, a TAB, a NUL) in a key or a string value: refused, so that every message stays
// one line and "5<TAB>" is not read as 5.
QString controlCharacterIn(const QString& key, const QJsonValue& value, const QString& where) {
  for (const QString& text : {key, value.isString() ? value.toString() : QString()})
    for (const QChar c : text)
      if (c.unicode() < 0x20 || c.unicode() == 0x7f)
        return QStringLiteral("%1: control character U+%2 in a key or value in %3")
            .arg(QString(key).replace(QRegularExpression("[\\x00-\\x1f\\x7f]"), "?"))
            .arg(c.unicode(), 4, 16, QChar('0'))
            .arg(where);
  return {};
}

QString readScalars(const QJsonObject& obj, const QString& where, QVariantMap* out) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (const QString err = controlCharacterIn(it.key(), it.value(), where); !err.isEmpty()) return err;
    if (!isScalar(it.value()))
      return QStringLiteral("%1: must be a number, string, boolean or null in %2").arg(it.key(), where);
    out->insert(it.key(), it.value().toVariant());
  }
  return {};
}

// A key whose one value is itself a list (mi_schedule "2,4,6", x_columns "0,1") or text (a file path): its commas
// never make a sweep.
bool isListValued(const QString& key) {
  // A critic's hidden widths ("16,8") are one value, not a sweep over 16 and 8 (a method key, the only list one).
  if (const ParamSpec* s = findSpec(scoreMatrixCriticSpecs(1), key); s && s->type == ParamSpec::Type::NumberList)
    return true;
  for (const TaskInfo& t : availableTasks())
    if (const ParamSpec* s = findSpec(t.params, key);
        s && (s->type == ParamSpec::Type::NumberList || s->type == ParamSpec::Type::Text))
      return true;
  return false;
}

QString folderSafe(const QVariant& v) {
  QString s = v.toString();
  s.replace(QRegularExpression("[^A-Za-z0-9.+-]"), "_");
  return s;
}

// Values as a grid compares them: 8, "8", 8.0 and "8.0" are one value.
QString canonical(const QVariant& v) {
  bool number = false;
  const double d = v.toDouble(&number);
  return number ? QString::number(d, 'g', 17) : v.toString();
}

// A cell's folder name always fits a file system's 255-byte names: a long one (a 300-digit mi) keeps its first
// 80 characters and a hash of the whole, so two long names stay apart.
QString fittingName(const QString& name) {
  constexpr int kMaxBytes = 120;
  if (name.toUtf8().size() <= kMaxBytes) return name;
  const QByteArray hash = QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha1).toHex().left(12);
  return name.left(80) + "_" + QString::fromLatin1(hash);
}

}  // namespace

QString readExperiment(const QString& path, Experiment* out) {
  // /dev/zero or a FIFO would be read forever; a real experiment file is a few kilobytes.
  const QFileInfo info(path);
  if (info.exists() && !info.isFile())
    return QStringLiteral("experiment: '%1' is not a regular file").arg(path);
  constexpr qint64 kMaxBytes = 1 << 20;
  if (info.size() > kMaxBytes)
    return QStringLiteral("experiment: '%1' has %2 bytes, more than the 1 MiB an experiment file may have")
        .arg(path)
        .arg(info.size());
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))  // why, as the system says it ("No such file or directory")
    return QStringLiteral("experiment: cannot read '%1' (%2)")
        .arg(path, info.exists() ? file.errorString() : QStringLiteral("no such file"));
  return parseExperiment(file.read(kMaxBytes + 1), path, out);
}

QString parseExperiment(const QByteArray& json, const QString& path, Experiment* out) {
  // Before Qt's parser, which takes ".5" and says "unterminated object" of "08".
  if (const QString err = firstNonJsonNumber(json, QStringLiteral("'%1'").arg(path)); !err.isEmpty()) return err;
  QJsonParseError perr;
  const QJsonDocument doc = QJsonDocument::fromJson(json, &perr);
  if (perr.error != QJsonParseError::NoError) return jsonErrorLine(json, perr, QStringLiteral("'%1'").arg(path));
  if (!doc.isObject()) return QStringLiteral("experiment: '%1' must hold a JSON object").arg(path);
  if (const QString key = firstDuplicateKey(json); !key.isEmpty())
    return QStringLiteral("%1: the key is given twice in one object of '%2'; give it once").arg(key, path);
  Experiment e;
  QJsonObject top = doc.object();
  const QString where = QStringLiteral("'%1'").arg(path);

  if (top.contains("grid")) {
    const QJsonValue grid = top.take("grid");
    if (!grid.isObject())
      return QStringLiteral("grid: must be an object of lists, e.g. {\"K\": [8, 64]}, in %1").arg(where);
    const QJsonObject axes = grid.toObject();
    for (auto it = axes.begin(); it != axes.end(); ++it) {
      // The key is checked before any message names it (a NUL in "K" would cut the line).
      if (const QString err = controlCharacterIn(it.key(), QJsonValue(), where); !err.isEmpty()) return err;
      const QJsonArray values = it.value().toArray();
      if (!it.value().isArray() || values.isEmpty())
        return QStringLiteral("grid.%1: must be a non-empty list of values in %2").arg(it.key(), where);
      QVariantList list;
      for (const QJsonValue& v : values) {
        if (const QString err = controlCharacterIn(it.key(), v, where); !err.isEmpty()) return err;
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
      experiment->axes << qMakePair(key, listItems(text));
      experiment->base.remove(key);
    } else {
      if (key == "method") experiment->methods.clear();
      experiment->base.insert(key, it.value());
    }
  }
}

namespace {

// Every parameter key some method of the experiment declares.
QSet<QString> keysOfMethods(const Experiment& experiment, const MethodRegistry& registry) {
  QStringList ids{experiment.base.value("method").toString()};
  for (const QVariantMap& row : experiment.methods) ids << row.value("method").toString();
  for (const auto& axis : experiment.axes)
    if (axis.first == "method")
      for (const QVariant& v : axis.second) ids << v.toString();
  QSet<QString> keys;
  for (const QString& id : ids)
    if (const MethodPlugin* m = registry.find(id))
      for (const ParamSpec& p : m->info().params) keys.insert(p.name);
  return keys;
}

// The keys of `flat` that belong to another method of the experiment, not to this cell's method, task or run.
QStringList keysNotFor(const QVariantMap& flat, const QSet<QString>& methodKeys, const MethodRegistry& registry) {
  const MethodPlugin* method = registry.find(flat.value("method").toString());
  const TaskInfo* task = findTask(flat.value("task", defaultTaskId()).toString());
  if (!method || !task) return {};  // runSpecFromFlat names the unknown one
  const MethodInfo info = method->info();
  QStringList out;
  for (auto it = flat.cbegin(); it != flat.cend(); ++it)
    if (methodKeys.contains(it.key()) && !findSpec(info.params, it.key()) && !findSpec(task->params, it.key()) &&
        !findSpec(runSettingSpecs(), it.key()))
      out << it.key();
  return out;
}

}  // namespace

QVariantList listItems(const QString& text) {
  QVariantList values;
  if (!text.split(',', Qt::SkipEmptyParts).isEmpty())
    for (const QString& v : text.split(',')) values << v.trimmed();
  return values;
}

QString checkListItems(const QString& key, const QVariantList& values) {
  if (values.isEmpty())  // e.g. --K , : a sweep with no value would run nothing and say it finished
    return QStringLiteral("%1: the list gives no value to run (e.g. --%1 8,64)").arg(key);
  // The same run twice would train twice into one folder and write two rows of a table: refused. Values are
  // compared as the cell names write them (8, "8" and 8.0 are one K).
  QSet<QString> seen;
  for (const QVariant& v : values) {
    if (v.toString().trimmed().isEmpty())
      return QStringLiteral("%1: the list has an empty item (two commas, or one at an end); give each value once")
          .arg(key);
    if (seen.contains(canonical(v)))
      return QStringLiteral("%1: the value %2 is listed twice; each cell runs once").arg(key, canonical(v));
    seen.insert(canonical(v));
  }
  return {};
}

namespace {

// The methods list names each run once: "" or the two rows that are the same run.
QString checkRowsDistinct(const QList<QVariantMap>& rows) {
  QHash<QString, int> rowOf;  // canonical row -> its 1-based index: linear in the rows (a 1 MiB file has 50,000)
  for (int i = 0; i < rows.size(); ++i) {
    QStringList keys;
    for (auto it = rows[i].cbegin(); it != rows[i].cend(); ++it) keys << it.key() + "=" + canonical(it.value());
    const QString row = keys.join('\n');
    if (rowOf.contains(row))
      return QStringLiteral("methods: rows %1 and %2 are the same run; each cell runs once").arg(rowOf[row]).arg(i + 1);
    rowOf.insert(row, i + 1);
  }
  return {};
}

// The Cartesian product of the axes, the first axis varying slowest: each point its (key, value) pairs in order.
QList<QList<QPair<QString, QVariant>>> axesProduct(const QList<QPair<QString, QVariantList>>& axes) {
  QList<QList<QPair<QString, QVariant>>> points{{}};
  for (const auto& axis : axes) {
    QList<QList<QPair<QString, QVariant>>> next;
    for (const auto& p : points)
      for (const QVariant& v : axis.second) next << (p + QList<QPair<QString, QVariant>>{qMakePair(axis.first, v)});
    points = next;
  }
  return points;
}

}  // namespace

QString expandExperiment(const Experiment& experiment, const MethodRegistry& registry, QList<GridCell>* cells) {
  QList<QVariantMap> rows = experiment.methods.isEmpty() ? QList<QVariantMap>{QVariantMap()} : experiment.methods;
  for (const auto& axis : experiment.axes)
    if (const QString err = checkListItems(axis.first, axis.second); !err.isEmpty()) return err;
  if (const QString err = checkRowsDistinct(rows); !err.isEmpty()) return err;
  // The product is counted before it is built: ten axes of ten values would otherwise fill memory first.
  double count = rows.size();
  for (const auto& axis : experiment.axes) count *= axis.second.size();
  if (count > kMaxCells)
    return QStringLiteral("grid: %1 cells, more than the %2 a grid may have; split it into several files")
        .arg(count, 0, 'g', 3)
        .arg(kMaxCells);
  const QList<QList<QPair<QString, QVariant>>> points = axesProduct(experiment.axes);
  const QSet<QString> methodKeys = keysOfMethods(experiment, registry);
  QList<GridCell> out;
  QSet<QString> names;
  for (const QVariantMap& row : rows) {
    for (const auto& point : points) {
      GridCell cell;
      QVariantMap flat = experiment.base;
      QList<QPair<QString, QVariant>> varying;  // what names the cell, in order: the row's keys, then the axes'
      for (auto it = row.cbegin(); it != row.cend(); ++it) varying << qMakePair(it.key(), it.value());
      varying << point;
      for (const auto& kv : varying) flat.insert(kv.first, kv.second);
      // A method's key (K) shared by a grid that also runs methods without it (ksg) applies only to those that
      // declare it, as in the window's comparison set; the cells it would split collapse into one.
      const QStringList dropped = keysNotFor(flat, methodKeys, registry);
      QStringList nameParts;
      if (!row.isEmpty()) nameParts << folderSafe(row.value("method"));
      for (int i = 0; i < varying.size(); ++i) {
        const auto& [key, value] = varying[i];
        if (dropped.contains(key)) continue;
        cell.coordinates.insert(key, value);
        const bool rowsMethod = i < row.size() && key == "method";  // already the name's first part
        if (!rowsMethod) nameParts << key + "-" + folderSafe(value);
      }
      for (const QString& k : dropped) flat.remove(k);
      cell.name = nameParts.isEmpty() ? QStringLiteral("run") : fittingName(nameParts.join('_'));
      if (names.contains(cell.name)) {
        if (!dropped.isEmpty()) continue;  // the same run as a cell already listed, without a key it does not take
        return QStringLiteral("grid: two cells are the same run (%1); each cell runs once").arg(cell.name);
      }
      const QString err = runSpecFromFlat(flat, registry, &cell.spec);
      if (!err.isEmpty()) return experiment.isGrid() ? QStringLiteral("%1 (in cell %2)").arg(err, cell.name) : err;
      names.insert(cell.name);
      out << cell;
    }
  }
  *cells = out;
  return {};
}

}  // namespace milab
