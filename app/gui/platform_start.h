#pragma once
// The window's application object made without Qt's abort: with no usable display (no DISPLAY, a display that
// refuses the connection, a QT_QPA_PLATFORM this Qt has no plugin for) Qt ends the process with its fatal message
// and SIGABRT, before any of the lab's code runs. While the object is made, Qt's messages are held; a fatal one
// becomes the window's one line on stderr and exit 2 (issue 80), the others are passed on once the object exists.
#include <QStringList>
#include <QtGlobal>

namespace milab {

// The line a failed start prints (after "milab: "), from Qt's own words: the first held platform warning, which says
// what failed (e.g. "could not connect to display"), else the fatal message's first line.
QString noDisplayLine(const QStringList& heldWarnings, const QString& fatal);

class PlatformStart {
 public:
  PlatformStart();   // holds Qt's messages from here on
  ~PlatformStart();  // restores Qt's handler and passes the held messages on

 private:
  QtMessageHandler previous_;
};

}  // namespace milab
