#include "data_input.h"

#include <cmath>

#include "data_table.h"

namespace milab {

QString checkDataFile(const QString& path) {
  for (const HeaderMode mode : {HeaderMode::Auto, HeaderMode::Yes, HeaderMode::No}) {
    DataTable table;
    const QString err = readDataTable(path, mode, &table);
    if (!err.isEmpty()) {
      for (const QChar c : err)  // one printable line: no line break, no control character of the file's
        if (c.category() == QChar::Other_Control || c.category() == QChar::Separator_Line ||
            c.category() == QChar::Separator_Paragraph)
          return QStringLiteral("an error with a control character (U+%1): ")
                     .arg(c.unicode(), 4, 16, QLatin1Char('0')) +
                 err;
      if (!err.startsWith("file: ")) return QStringLiteral("an error that does not name the file key: ") + err;
      continue;
    }
    if (table.rows < 2 || table.columns < 1 || table.values.size() != table.rows * table.columns)
      return QStringLiteral("a table of %1 x %2 with %3 cells")
          .arg(table.rows)
          .arg(table.columns)
          .arg(table.values.size());
    for (const double v : table.values)
      if (!std::isfinite(v) || std::abs(v) > kMaxDataMagnitude)
        return QStringLiteral("a cell the reader should have refused: %1").arg(v);
    if (!table.header.isEmpty() && table.header.size() != table.columns)
      return QStringLiteral("%1 header names for %2 columns").arg(table.header.size()).arg(table.columns);
  }
  return {};
}

}  // namespace milab
