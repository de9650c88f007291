#include "gui/panels/wheel_guard.h"

#include <QEvent>
#include <QWidget>

namespace milab {

namespace {

class WheelGuard : public QObject {
 public:
  using QObject::QObject;
  bool eventFilter(QObject* watched, QEvent* event) override {
    auto* field = qobject_cast<QWidget*>(watched);
    if (event->type() != QEvent::Wheel || !field || field->hasFocus()) return false;
    // Ignored and filtered: QApplication then offers the wheel to the parents, which scroll.
    event->ignore();
    return true;
  }
};

}  // namespace

void takeWheelOnlyWhenFocused(QWidget* field) {
  static WheelGuard* guard = new WheelGuard;  // one filter for every field, alive as long as the program
  field->setFocusPolicy(Qt::StrongFocus);
  field->installEventFilter(guard);
}

}  // namespace milab
