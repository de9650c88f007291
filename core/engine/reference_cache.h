#pragma once
// Numbers that cost a training run of their own and depend only on their settings (a supervised reference's
// accuracy), computed once per setting and kept as files: $MILAB_CACHE, else the user's cache folder
// (QStandardPaths::CacheLocation), one JSON file per setting named by its hash. Runs of one setting at the same time
// (a grid's cells over objectives) compute it once: the first holds a lock file, the others wait and read its value.
#include <QJsonObject>
#include <QString>
#include <functional>
#include <optional>

namespace milab {

// The cached value of `setting` (under `kind`, a folder name), else compute()'s, stored when it has one. A value
// that cannot be stored (a full disk) is still returned.
std::optional<double> cachedOrComputed(const QString& kind, const QJsonObject& setting,
                                       const std::function<std::optional<double>()>& compute);
// The same for a value of several numbers (a Monte Carlo truth and its standard error), kept as one JSON object.
std::optional<QJsonObject> cachedOrComputedObject(const QString& kind, const QJsonObject& setting,
                                                  const std::function<std::optional<QJsonObject>()>& compute);

}  // namespace milab
