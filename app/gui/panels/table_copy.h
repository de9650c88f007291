#pragma once
// Copy (Ctrl+C, the platform's key) on a results table puts its selected rows on the clipboard as tab-separated
// text under the table's header, the way a spreadsheet pastes them (issue 79: Ctrl+C copied one cell, or nothing).
// Shared by the set's table and the History panel.
class QTableWidget;
class QString;

namespace milab {

// The selected rows of `table` in the order shown, each cell's text, under a line of the header; hidden columns
// left out. Empty when nothing is selected.
QString selectedRowsAsText(const QTableWidget& table);

// Makes Copy on `table` put selectedRowsAsText on the clipboard (an event filter the table owns).
void copySelectedRowsOnCopy(QTableWidget* table);

}  // namespace milab
