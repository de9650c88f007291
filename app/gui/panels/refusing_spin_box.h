#pragma once
// Spin boxes that say what they refuse. Qt's silently drop a keystroke they cannot take ("-5" typed into a field
// whose minimum is 1 becomes 5) and, on leaving the field, put back the last value over a number out of range
// (K = 1 reverted to 128). These keep whatever is typed, and when editing ends on text they cannot take (out of
// range, "1e9", "abc") they emit refused(text) before Qt puts the last value back, so the form can say so on the
// field. Their value changes when editing ends, not at each keystroke: typing 1000000000 into K must not leave
// K = 10000 behind on the way (the last prefix in range).
#include <QDoubleSpinBox>
#include <QSpinBox>

namespace milab {

class RefusingSpinBox : public QSpinBox {
  Q_OBJECT
 public:
  using QSpinBox::QSpinBox;

 Q_SIGNALS:
  void refused(const QString& text);

 protected:
  QValidator::State validate(QString& input, int& pos) const override;
  void fixup(QString& input) const override;
};

class RefusingDoubleSpinBox : public QDoubleSpinBox {
  Q_OBJECT
 public:
  using QDoubleSpinBox::QDoubleSpinBox;

 Q_SIGNALS:
  void refused(const QString& text);

 protected:
  QValidator::State validate(QString& input, int& pos) const override;
  void fixup(QString& input) const override;
};

}  // namespace milab
