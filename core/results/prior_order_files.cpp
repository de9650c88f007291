#include "results/prior_order_files.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <cmath>

#include "engine/run.h"
#include "results/csv_cell.h"
#include "results/run_files.h"

namespace milab {

QString writePriorOrderCsv(const QString& path, const PriorOrderSweep& sweep) {
  QByteArray bytes;
  QTextStream out(&bytes);
  out << "order,optimal_cross_entropy,fitted_cross_entropy,brute_force_entropy,m_log_2,fit_seconds\n";
  for (const PriorOrderPoint& p : sweep.points)
    out << p.order << ',' << csvCell(p.optimal) << ',' << csvCell(p.fitted) << ',' << csvCell(sweep.bruteForceEntropy)
        << ',' << csvCell(sweep.uniform) << ',' << csvCell(p.seconds) << '\n';
  out.flush();
  return saveAtomically(path, bytes);
}

QString writePriorOrderSummary(const QString& path, const PriorOrderSweepSpec& spec, const PriorOrderSweep& sweep) {
  QJsonObject experiment = QJsonObject::fromVariantMap(runSpecToFlat(spec.encoder));
  for (auto it = spec.sweep.cbegin(); it != spec.sweep.cend(); ++it)
    experiment.insert(it.key(), it.value().toJsonValue());
  QJsonArray points;
  for (const PriorOrderPoint& p : sweep.points) {
    QJsonObject o{{"order", p.order}, {"optimal_cross_entropy", p.optimal}, {"seconds", p.seconds}};
    if (std::isfinite(p.fitted)) o.insert("fitted_cross_entropy", p.fitted);
    points.append(o);
  }
  const QJsonObject summary{{"experiment", experiment},
                            {"status", statusName(outcomeOf(sweep.error, sweep.cancelled))},
                            {"reason", sweep.error},
                            {"device", sweep.device},
                            {"brute_force_entropy", sweep.bruteForceEntropy},
                            {"m_log_2", sweep.uniform},
                            {"encoder_seconds", sweep.encoderSeconds},
                            {"orders", points}};
  return saveAtomically(path, QJsonDocument(summary).toJson());
}

}  // namespace milab
