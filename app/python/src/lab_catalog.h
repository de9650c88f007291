#pragma once
// What the Python module lists and draws: the lab's tasks and methods with their keys, a task's exact MI, and the
// rows a finite-sample run reads. Each answer is JSON text or plain values; the module turns them into Python ones.
#include <QJsonArray>
#include <QString>
#include <QVariantMap>

#include "engine/sample_rows.h"

namespace milab {

class MethodRegistry;

// The method plugins, loaded once for the process from MILAB_PLUGIN_PATH (set by the module to the folder beside it
// when the user has not set it).
const MethodRegistry& moduleRegistry();

QJsonArray taskList();    // id, name, family, summary, dataset, dim_x, dim_y, keys
QJsonArray methodList();  // id, name, family, summary, trains, keys
QJsonArray runKeyList();  // the run settings every method takes (steps, seed, samples, recipe, ci, ...)

// The task's exact values by name, its total first, for validated keys (`keys` checked in place). "" or the error
// line, e.g. "mi: must be a number in [0, 10], got 12".
QString taskTruths(const QString& task, QVariantMap keys, int seed, QJsonArray* out);
// The rows `milab-cli sample` writes for the same arguments. "" or the error line.
QString sampleRows(const QString& task, QVariantMap keys, qint64 samples, int seed, SampleTable* out);

}  // namespace milab
