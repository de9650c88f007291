#pragma once
// The hashing experiment's results as files: pure functions, shared by the CLI and the window.
#include <QString>

#include "hashing/hashing_experiment.h"

namespace milab {

// bits,method,precision,distinct_train_codes,estimate_nats,seconds. Returns "" or an error line naming the file.
QString writeHashingCsv(const QString& path, const QList<HashingRow>& rows);

// The experiment (with its bits), status, reason, device, image counts and every row.
QString writeHashingSummary(const QString& path, const HashingSpec& spec, const HashingResult& result);

}  // namespace milab
