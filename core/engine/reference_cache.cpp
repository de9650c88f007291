#include "engine/reference_cache.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QLockFile>
#include <QStandardPaths>

#include "results/run_files.h"

namespace milab {

namespace {

QString cacheDir(const QString& kind) {
  const QString env = qEnvironmentVariable("MILAB_CACHE");
  const QString root = env.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::CacheLocation) : env;
  return QDir(root).filePath(kind);
}

std::optional<QJsonValue> read(const QString& path, const QJsonObject& setting) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
  const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
  // The hash names the file; the setting inside it is the proof (a collision, or a file from another version).
  if (o.value("setting").toObject() != setting || !o.contains("value")) return std::nullopt;
  return o.value("value");
}

// A value of one JSON kind (a number, an object); `isKind` tells a file of another kind from a value.
std::optional<QJsonValue> cachedOrComputedValue(const QString& kind, const QJsonObject& setting,
                                                const std::function<bool(const QJsonValue&)>& isKind,
                                                const std::function<std::optional<QJsonValue>()>& compute) {
  const auto cachedValue = [&](const QString& path) -> std::optional<QJsonValue> {
    const std::optional<QJsonValue> v = read(path, setting);
    return v && isKind(*v) ? v : std::nullopt;
  };
  const QByteArray canonical = QJsonDocument(setting).toJson(QJsonDocument::Compact);
  const QString dir = cacheDir(kind);
  const QString path = QDir(dir).filePath(
      QString::fromLatin1(QCryptographicHash::hash(canonical, QCryptographicHash::Sha1).toHex()) + ".json");
  if (const auto cached = cachedValue(path)) return cached;
  QDir().mkpath(dir);
  QLockFile lock(path + ".lock");
  lock.setStaleLockTime(0);  // stale only when its process is gone: a reference can train for minutes
  const bool locked = lock.lock();
  if (const auto cached = cachedValue(path)) return cached;  // computed while this run waited
  const std::optional<QJsonValue> value = compute();
  if (value && locked)
    saveAtomically(path, QJsonDocument(QJsonObject{{"setting", setting}, {"value", *value}}).toJson());
  return value;
}

}  // namespace

std::optional<double> cachedOrComputed(const QString& kind, const QJsonObject& setting,
                                       const std::function<std::optional<double>()>& compute) {
  const std::optional<QJsonValue> v = cachedOrComputedValue(
      kind, setting, [](const QJsonValue& v) { return v.isDouble(); },
      [&]() -> std::optional<QJsonValue> {
        const std::optional<double> d = compute();
        return d ? std::optional<QJsonValue>(*d) : std::nullopt;
      });
  return v ? std::optional<double>(v->toDouble()) : std::nullopt;
}

std::optional<QJsonObject> cachedOrComputedObject(const QString& kind, const QJsonObject& setting,
                                                  const std::function<std::optional<QJsonObject>()>& compute) {
  const std::optional<QJsonValue> v = cachedOrComputedValue(
      kind, setting, [](const QJsonValue& v) { return v.isObject(); },
      [&]() -> std::optional<QJsonValue> {
        const std::optional<QJsonObject> o = compute();
        return o ? std::optional<QJsonValue>(*o) : std::nullopt;
      });
  return v ? std::optional<QJsonObject>(v->toObject()) : std::nullopt;
}

}  // namespace milab
