#pragma once
// The settings of task `data` (a user's table): their ParamSpecs and the typed fields they are read into in one
// place (DataTaskOptions::from); the plugin checks the columns against the table.
#include <QList>
#include <QPair>

#include "data_table.h"
#include "params/param_spec.h"

namespace milab {

// file, x_columns, y_columns, xp_columns, header.
ParamSpecs dataTaskSpecs();

struct DataTaskOptions {
  QString file;
  HeaderMode header = HeaderMode::Auto;
  QList<double> xColumns, yColumns, xpColumns;  // as given: the plugin checks they are whole, distinct, in range
  // Each list with its key, in the order the checks name them: x_columns, y_columns, xp_columns.
  QList<QPair<QString, QList<double>>> columnLists() const {
    return {{QStringLiteral("x_columns"), xColumns},
            {QStringLiteral("y_columns"), yColumns},
            {QStringLiteral("xp_columns"), xpColumns}};
  }
  static DataTaskOptions from(const ParamMap& params);
};

}  // namespace milab
