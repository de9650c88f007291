#include "engine/sample_rows.h"

#include <ATen/ATen.h>

#include <QFileInfo>
#include <cstdio>

#include "engine/sample_set.h"
#include "results/run_files.h"
#include "tasks/task_catalog.h"
#include "tasks/task_sampler.h"

namespace milab {

namespace {

// The table's columns, x | x' | y, as one float32 [N, columns] on the CPU, row-major.
at::Tensor tableOf(const Batch& rows) {
  std::vector<at::Tensor> parts{rows.x};
  if (rows.xp.defined()) parts.push_back(rows.xp);
  parts.push_back(rows.y);
  return at::cat(parts, 1).to(at::kCPU, at::kFloat).contiguous();
}

QStringList headerOf(const Batch& rows) {
  QStringList names;
  const auto add = [&](const char* prefix, const at::Tensor& t) {
    if (t.defined())
      for (int64_t c = 0; c < t.size(1); ++c) names << QStringLiteral("%1%2").arg(prefix).arg(c);
  };
  add("x", rows.x);
  add("xp", rows.xp);
  add("y", rows.y);
  return names;
}

QByteArray csvOf(const at::Tensor& table, const QStringList& header) {
  QByteArray out = header.join(',').toUtf8() + '\n';
  const float* v = table.data_ptr<float>();
  const int64_t n = table.size(0), m = table.size(1);
  char cell[32];
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) {
      std::snprintf(cell, sizeof cell, "%.9g", double(v[i * m + j]));  // 9 digits: the float itself comes back
      if (j) out += ',';
      out += cell;
    }
    out += '\n';
  }
  return out;
}

// NumPy's .npy, version 1.0: magic, version, a little-endian header length, the dict padded to 64 bytes, the data.
QByteArray npyOf(const at::Tensor& table) {
  QByteArray dict = QStringLiteral("{'descr': '<f4', 'fortran_order': False, 'shape': (%1, %2), }")
                        .arg(table.size(0))
                        .arg(table.size(1))
                        .toLatin1();
  const int unpadded = 10 + int(dict.size()) + 1;
  dict += QByteArray((64 - unpadded % 64) % 64, ' ') + '\n';
  QByteArray out("\x93NUMPY\x01\x00", 8);
  const quint16 length = quint16(dict.size());
  out += char(length & 0xff);
  out += char(length >> 8);
  out += dict;
  out += QByteArray(reinterpret_cast<const char*>(table.data_ptr<float>()), qsizetype(table.numel() * sizeof(float)));
  return out;
}

// The rows as one table, bounded before they are drawn. "" or why not.
QString drawTable(const QString& task, const ParamMap& taskParams, qint64 samples, int seed, at::Tensor* table,
                  Batch* rows) {
  const std::unique_ptr<TaskModel> model = buildTask(task, taskParams, static_cast<std::uint64_t>(seed));
  if (!model) return unknownTaskError(task);
  // Drawn whole in memory before one byte is written: bounded first (a CSV takes up to 16 bytes a value).
  const qint64 columns = model->dimX() * (model->hasSubview() ? 2 : 1) + model->dimY();
  if (samples * columns > kMaxSampleValues)
    return QStringLiteral("samples: %1 rows of %2 columns are more than the %3 values sample writes at once")
        .arg(samples)
        .arg(columns)
        .arg(kMaxSampleValues);
  *rows = drawSampleRows(*model->sampler(c10::Device(c10::kCPU)), samples, seed);
  *table = tableOf(*rows);
  return {};
}

}  // namespace

QString exportSampleRows(const QString& task, const ParamMap& taskParams, qint64 samples, int seed,
                         const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != "csv" && suffix != "npy") return QStringLiteral("out: must end in .csv or .npy, got '%1'").arg(path);
  if (QFileInfo::exists(path)) return QStringLiteral("out: '%1' exists; sample never overwrites a file").arg(path);
  at::Tensor table;
  Batch rows;
  if (const QString err = drawTable(task, taskParams, samples, seed, &table, &rows); !err.isEmpty()) return err;
  return saveAtomically(path, suffix == "csv" ? csvOf(table, headerOf(rows)) : npyOf(table));
}

QString drawSampleTable(const QString& task, const ParamMap& taskParams, qint64 samples, int seed, SampleTable* out) {
  at::Tensor table;
  Batch rows;
  if (const QString err = drawTable(task, taskParams, samples, seed, &table, &rows); !err.isEmpty()) return err;
  out->rows = table.size(0);
  out->dimX = int(rows.x.size(1));
  out->dimXp = rows.xp.defined() ? int(rows.xp.size(1)) : 0;
  out->dimY = int(rows.y.size(1));
  const float* v = table.data_ptr<float>();
  out->values = QVector<float>(v, v + table.numel());
  return {};
}

}  // namespace milab
