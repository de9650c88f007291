#pragma once
// A form in a scroll area: the mouse wheel scrolls the form, and changes a combo box or spin box only once the user
// has clicked or tabbed into it. Qt's default turns the wheel over any such field into a value change while the
// user means to scroll (InfoNCE became TUBA under the pointer).
class QWidget;

namespace milab {

// The field takes focus by click or tab only (not by the wheel), and while unfocused lets the wheel pass to its
// parents (the scroll area).
void takeWheelOnlyWhenFocused(QWidget* field);

}  // namespace milab
