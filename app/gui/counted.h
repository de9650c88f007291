#pragma once
// "1 run", "3 runs": a count with its noun in the right number, for the window's sentences (English; the window
// has no translations, so Qt's %n plural forms would print "run(s)").
#include <QString>

namespace milab {

inline QString counted(qsizetype n, const QString& noun) {
  return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? noun : noun + "s");
}

}  // namespace milab
