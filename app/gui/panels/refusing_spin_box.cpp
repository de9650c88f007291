#include "gui/panels/refusing_spin_box.h"

#include <QLocale>

namespace milab {

namespace {

// A sign, digits and (for reals) a point: what a person may be typing on the way to a number, in range or not.
bool looksNumeric(const QString& text, bool real) {
  if (text.isEmpty()) return false;
  int digits = 0, points = 0;
  for (int i = 0; i < text.size(); ++i) {
    const QChar c = text[i];
    if (c.isDigit())
      ++digits;
    else if ((c == '-' || c == '+') && i == 0)
      continue;
    else if (real && (c == '.' || c == QLocale().decimalPoint().front()) && points++ == 0)
      continue;
    else
      return false;
  }
  return digits > 0 || text == "-" || text == "+";
}

}  // namespace

QValidator::State RefusingSpinBox::validate(QString& input, int& pos) const {
  const QValidator::State state = QSpinBox::validate(input, pos);
  // Kept as typed (Intermediate), so that fixup sees it, instead of the keystroke being dropped.
  return state == QValidator::Invalid && looksNumeric(input.trimmed(), false) ? QValidator::Intermediate : state;
}

void RefusingSpinBox::fixup(QString& input) const {
  const QString typed = input.trimmed();
  QSpinBox::fixup(input);
  if (looksNumeric(typed, false)) Q_EMIT const_cast<RefusingSpinBox*>(this)->refused(typed);
}

QValidator::State RefusingDoubleSpinBox::validate(QString& input, int& pos) const {
  const QValidator::State state = QDoubleSpinBox::validate(input, pos);
  return state == QValidator::Invalid && looksNumeric(input.trimmed(), true) ? QValidator::Intermediate : state;
}

void RefusingDoubleSpinBox::fixup(QString& input) const {
  const QString typed = input.trimmed();
  QDoubleSpinBox::fixup(input);
  if (looksNumeric(typed, true)) Q_EMIT const_cast<RefusingDoubleSpinBox*>(this)->refused(typed);
}

}  // namespace milab
