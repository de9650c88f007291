#include "engine/run_set.h"

#include <QJsonArray>
#include <cmath>

#include "engine/recipe_options.h"
#include "method/method_plugin.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

struct Axis {
  QString key;
  QStringList values;
};

QString parseVary(const QString& text, QList<Axis>* axes) {
  for (const QString& part : text.split(';', Qt::SkipEmptyParts)) {
    if (part.trimmed().isEmpty()) continue;
    const int eq = part.indexOf('=');
    Axis axis{part.left(eq).trimmed(), {}};
    if (eq < 0 || axis.key.isEmpty())
      return QStringLiteral("vary: each list must read key=v1,v2 (e.g. K=32,128,512), got '%1'").arg(part.trimmed());
    for (const QString& v : part.mid(eq + 1).split(',', Qt::SkipEmptyParts))
      if (!v.trimmed().isEmpty()) axis.values << v.trimmed();
    if (axis.values.isEmpty()) return QStringLiteral("vary: %1 has no value (e.g. %1=1,2,3)").arg(axis.key);
    for (const Axis& a : *axes)
      if (a.key == axis.key) return QStringLiteral("vary: %1 is listed twice").arg(axis.key);
    if (axis.key == "method" || axis.key == "task")
      return QStringLiteral("vary: %1 cannot be varied here (tick methods instead; a set is on one task)")
          .arg(axis.key);
    *axes << axis;
  }
  return {};
}

bool declares(const ParamSpecs& specs, const QString& key) { return findSpec(specs, key) != nullptr; }

// The base run as another method's starting point: only what the user set carries over. A value the recipe in force
// gave the base method (held_out whole and lr 0.01 for a critic, early stopping for a bound, its transform) or the
// base method's own default is left out, for the recipe and the defaults to fill per method (issue 79: InfoNCE's
// held_out whole reached mmg and minde-c, which refuse it); and a method key carries only where the other method
// declares it and takes the value (InfoNCE's critic "learned" means nothing to f-DIME's).
QVariantMap startOfAnotherMethod(const RunSpec& base, const MethodInfo& baseInfo, const TaskInfo& task,
                                 const MethodInfo& other) {
  QVariantMap flat = runSpecToFlat(base);
  flat.insert("method", other.id);
  QVariantMap recipe{{"recipe", base.recipe}};
  if (base.finiteSamples()) recipe.insert("samples", base.samples);
  applyRecipe(task, baseInfo, &recipe);
  for (auto it = recipe.cbegin(); it != recipe.cend(); ++it)
    if (it.key() != "recipe" && it.key() != "samples" && flat.value(it.key()) == it.value()) flat.remove(it.key());
  const ParamMap baseDefaults = defaultsOf(baseInfo.params);
  for (auto it = base.methodParams.cbegin(); it != base.methodParams.cend(); ++it) {
    const ParamSpec* own = findSpec(other.params, it.key());
    QVariant taken;
    const bool typed = it.value() != baseDefaults.value(it.key()) && it.value() != recipe.value(it.key());
    if (!typed || !own || !checkParam(*own, it.value(), &taken).isEmpty()) flat.remove(it.key());
  }
  return flat;
}

}  // namespace

QString expandRunSet(const RunSpec& base, const QStringList& moreMethods, const QString& vary,
                     const MethodRegistry& registry, QList<RunSpec>* out) {
  QList<Axis> axes;
  if (QString err = parseVary(vary, &axes); !err.isEmpty()) return err;
  const TaskInfo* task = findTask(base.task);
  if (!task) return QStringLiteral("task: unknown task '%1'").arg(base.task);

  QStringList methods{base.method};
  for (const QString& m : moreMethods)
    if (!methods.contains(m)) methods << m;

  QList<RunSpec> specs;
  QSet<QString> usedKeys;
  for (const QString& id : methods) {
    const MethodPlugin* method = registry.find(id);
    if (!method) return QStringLiteral("method: must be one of %1, got '%2'").arg(registry.ids().join('|'), id);
    const ParamSpecs params = method->info().params;
    const MethodPlugin* baseMethod = registry.find(base.method);
    QVariantMap flat = runSpecToFlat(base);
    if (id != base.method && baseMethod) flat = startOfAnotherMethod(base, baseMethod->info(), *task, method->info());
    // The cartesian product of the lists this method's runs accept, the first list varying slowest.
    QList<QVariantMap> points{flat};
    for (const Axis& axis : axes) {
      if (!declares(params, axis.key) && !declares(task->params, axis.key) && !declares(runSettingSpecs(), axis.key))
        continue;
      usedKeys << axis.key;
      QList<QVariantMap> next;
      for (const QVariantMap& p : points)
        for (const QString& v : axis.values) {
          QVariantMap q = p;
          q.insert(axis.key, v);
          next << q;
        }
      points = next;
    }
    for (const QVariantMap& p : points) {
      RunSpec spec;
      // A ticked method's refusal names it: its fields are not the form's, whose field of the same name would
      // otherwise show the error.
      if (QString err = runSpecFromFlat(p, registry, &spec); !err.isEmpty())
        return id == base.method ? err : QStringLiteral("%1 (also run): %2").arg(id, err);
      specs << spec;
    }
  }
  for (const Axis& axis : axes)
    if (!usedKeys.contains(axis.key))
      return QStringLiteral("vary: %1 is not a parameter of task %2, the run or any chosen method")
          .arg(axis.key, base.task);
  if (specs.isEmpty()) return QStringLiteral("vary: the lists give no run");
  *out = specs;
  return {};
}

QStringList differingKeys(const QList<QVariantMap>& flatSpecs) {
  QMap<QString, QVariant> first;
  QSet<QString> differ;
  for (const QVariantMap& flat : flatSpecs)
    for (auto it = flat.cbegin(); it != flat.cend(); ++it) {
      if (it.key() == "method") continue;
      if (!first.contains(it.key()))
        first.insert(it.key(), it.value());
      else if (first.value(it.key()) != it.value())
        differ << it.key();
    }
  QStringList keys(differ.begin(), differ.end());
  keys.sort();
  return keys;
}

QStringList differingKeys(const QList<RunSpec>& specs) {
  QList<QVariantMap> flats;
  for (const RunSpec& s : specs) flats << runSpecToFlat(s);
  return differingKeys(flats);
}

QMap<QString, QStringList> methodKeysDifferingWithin(const QList<RunSpec>& specs) {
  QMap<QString, QList<RunSpec>> byMethod;
  for (const RunSpec& s : specs) byMethod[s.method] << s;
  QMap<QString, QStringList> keys;
  for (auto it = byMethod.cbegin(); it != byMethod.cend(); ++it) {
    keys[it.key()];  // every method has its entry, maybe empty
    for (const QString& k : differingKeys(it.value()))
      if (it.value().first().methodParams.contains(k)) keys[it.key()] << k;
  }
  return keys;
}

QMap<QString, QStringList> labelKeysByMethod(const QList<RunSpec>& specs) {
  QSet<QString> declared;  // by some run's method
  for (const RunSpec& s : specs)
    for (auto it = s.methodParams.cbegin(); it != s.methodParams.cend(); ++it) declared << it.key();
  // The run settings a recipe sets per method (held_out whole for a critic, early stopping and report best for a
  // bound, each method's transform) label a method's runs only where they differ among its own runs: otherwise a
  // set of four methods under the lab's recipe read "infonce early_stopping=true held_out=whole report=best
  // transform=tails" (issue 79).
  const QStringList perMethod{"early_stopping", "report", "held_out", "transform"};
  QMap<QString, QList<RunSpec>> byMethod;
  for (const RunSpec& s : specs) byMethod[s.method] << s;
  const QMap<QString, QStringList> within = methodKeysDifferingWithin(specs);
  const QStringList differing = differingKeys(specs);
  QMap<QString, QStringList> keys;
  for (auto it = within.cbegin(); it != within.cend(); ++it) {
    const QStringList ownSettings = differingKeys(byMethod.value(it.key()));  // among this method's runs
    for (const QString& k : differing)
      if (perMethod.contains(k) ? ownSettings.contains(k) : !declared.contains(k) || it.value().contains(k))
        keys[it.key()] << k;
  }
  return keys;
}

QStringList keysTheRunReads(const QStringList& keys, bool methodTrains) {
  if (methodTrains) return keys;
  QStringList read = keys;
  for (const char* training : {"steps", "eval_every", "early_stopping"}) read.removeAll(training);
  return read;
}

QStringList keysTheRunReads(const QStringList& keys, const QVariantMap& flat) {
  QStringList read;
  const bool staircase = !flat.value("mi_schedule").toString().trimmed().isEmpty();
  for (const QString& k : keys) {
    const QVariant v = flat.value(k);
    if (!flat.contains(k) || v.isNull() || (v.typeId() == QMetaType::QString && v.toString().isEmpty())) continue;
    if (!staircase && (k == "steps_per_level" || k == "level_tail")) continue;
    read << k;
  }
  return read;
}

QString keyValueText(const QString& key, const QVariant& value) {
  QString text = value.toString();
  if (value.typeId() == QMetaType::Double) {
    // A real number as a reader writes it: 0.0001, not Qt's shorter "1e-04"; every digit that tells two values
    // apart stays (the shortest form that reads back the same double).
    const double v = value.toDouble();
    const bool plain = v == 0 || (std::abs(v) >= 1e-6 && std::abs(v) < 1e7);
    text = QString::number(v, plain ? 'f' : 'g', QLocale::FloatingPointShortest);
  }
  return QStringLiteral("%1=%2").arg(key, text);
}

QString runLabel(const RunSpec& spec, const QStringList& keys) {
  const QVariantMap flat = runSpecToFlat(spec);
  QStringList parts{spec.method};
  for (const QString& k : keys)
    if (flat.contains(k)) parts << keyValueText(k, flat.value(k));
  return parts.join(' ');
}

QString seedGroupLabel(const RunSpec& spec, const QStringList& keys) {
  QStringList withoutSeed = keys;
  withoutSeed.removeAll("seed");
  return runLabel(spec, withoutSeed);
}

QJsonObject runSetExperiment(const QList<RunSpec>& specs) {
  QList<QVariantMap> flats;
  for (const RunSpec& s : specs) flats << runSpecToFlat(s);
  if (flats.size() == 1) return QJsonObject::fromVariantMap(flats.first());
  QVariantMap shared = flats.first();
  for (const QVariantMap& f : flats)
    for (auto it = shared.begin(); it != shared.end();)
      it = (f.contains(it.key()) && f.value(it.key()) == it.value()) ? std::next(it) : shared.erase(it);
  shared.remove("method");
  QJsonArray rows;
  for (QVariantMap f : flats) {
    for (auto it = shared.cbegin(); it != shared.cend(); ++it) f.remove(it.key());
    rows << QJsonObject::fromVariantMap(f);
  }
  QJsonObject o = QJsonObject::fromVariantMap(shared);
  o.insert("methods", rows);
  return o;
}

}  // namespace milab
