#include "gui/platform_start.h"

#include <QStringList>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace milab {

namespace {

std::mutex heldMutex;
QStringList held;  // Qt's non-fatal messages while the application object is made

void holdOrExit(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  const std::lock_guard<std::mutex> lock(heldMutex);
  if (type != QtFatalMsg) {
    held << (context.category && qstrcmp(context.category, "default") != 0
                 ? QStringLiteral("%1: %2").arg(QString::fromLatin1(context.category), message)
                 : message);
    return;
  }
  std::fprintf(stderr, "milab: %s\n", noDisplayLine(held, message).toLocal8Bit().constData());
  std::fflush(stderr);
  std::_Exit(2);  // Qt would abort next: nothing of the lab has run yet, so nothing is lost
}

}  // namespace

QString noDisplayLine(const QStringList& heldWarnings, const QString& fatal) {
  QString why = fatal.section('\n', 0, 0).trimmed();
  for (const QString& w : heldWarnings)
    if (w.startsWith("qt.qpa")) {  // the platform's own reason: the first, as the later ones follow from it
      why = w.section('\n', 0, 0).trimmed();
      break;
    }
  return QStringLiteral("no display (%1): set DISPLAY, or QT_QPA_PLATFORM=offscreen with --screenshot").arg(why);
}

PlatformStart::PlatformStart() : previous_(qInstallMessageHandler(holdOrExit)) {}

PlatformStart::~PlatformStart() {
  qInstallMessageHandler(previous_);
  QStringList messages;
  {
    const std::lock_guard<std::mutex> lock(heldMutex);
    messages.swap(held);
  }
  for (const QString& m : messages) qWarning("%s", qPrintable(m));
}

}  // namespace milab
