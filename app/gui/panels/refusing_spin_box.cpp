#include "gui/panels/refusing_spin_box.h"

namespace milab {

namespace {

// Anything typed is kept as typed until editing ends, then refused if the box cannot take it: a keystroke Qt drops
// turns what was meant into another number ("1e9" became K = 19, "-5" became 5).
bool typedSomething(const QString& text) { return !text.isEmpty(); }

}  // namespace

QValidator::State RefusingSpinBox::validate(QString& input, int& pos) const {
  const QValidator::State state = QSpinBox::validate(input, pos);
  // Kept as typed (Intermediate), so that fixup sees it, instead of the keystroke being dropped.
  return state == QValidator::Invalid && typedSomething(input.trimmed()) ? QValidator::Intermediate : state;
}

void RefusingSpinBox::fixup(QString& input) const {
  const QString typed = input.trimmed();
  QSpinBox::fixup(input);
  if (typedSomething(typed)) Q_EMIT const_cast<RefusingSpinBox*>(this)->refused(typed);
}

QValidator::State RefusingDoubleSpinBox::validate(QString& input, int& pos) const {
  const QValidator::State state = QDoubleSpinBox::validate(input, pos);
  return state == QValidator::Invalid && typedSomething(input.trimmed()) ? QValidator::Intermediate : state;
}

void RefusingDoubleSpinBox::fixup(QString& input) const {
  const QString typed = input.trimmed();
  QDoubleSpinBox::fixup(input);
  if (typedSomething(typed)) Q_EMIT const_cast<RefusingDoubleSpinBox*>(this)->refused(typed);
}

}  // namespace milab
