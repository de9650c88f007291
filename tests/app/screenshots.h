#pragma once
// With MILAB_SCREENSHOT_DIR set, a GUI test saves the window states it checks as PNGs, to be looked at as a reader
// would; without it, nothing is written.
#include <QCoreApplication>
#include <QWidget>

inline void saveScreenshot(QWidget& w, const QString& name) {
  const QString dir = qEnvironmentVariable("MILAB_SCREENSHOT_DIR");
  if (dir.isEmpty()) return;
  QCoreApplication::processEvents();
  w.grab().save(dir + "/" + name + ".png");
}
