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

std::optional<double> read(const QString& path, const QJsonObject& setting) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
  const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
  // The hash names the file; the setting inside it is the proof (a collision, or a file from another version).
  if (o.value("setting").toObject() != setting || !o.value("value").isDouble()) return std::nullopt;
  return o.value("value").toDouble();
}

}  // namespace

std::optional<double> cachedOrComputed(const QString& kind, const QJsonObject& setting,
                                       const std::function<std::optional<double>()>& compute) {
  const QByteArray canonical = QJsonDocument(setting).toJson(QJsonDocument::Compact);
  const QString dir = cacheDir(kind);
  const QString path = QDir(dir).filePath(
      QString::fromLatin1(QCryptographicHash::hash(canonical, QCryptographicHash::Sha1).toHex()) + ".json");
  if (const auto cached = read(path, setting)) return cached;
  QDir().mkpath(dir);
  QLockFile lock(path + ".lock");
  lock.setStaleLockTime(0);  // stale only when its process is gone: a reference can train for minutes
  const bool locked = lock.lock();
  if (const auto cached = read(path, setting)) return cached;  // computed while this run waited
  const std::optional<double> value = compute();
  if (value && locked)
    saveAtomically(path, QJsonDocument(QJsonObject{{"setting", setting}, {"value", *value}}).toJson());
  return value;
}

}  // namespace milab
