#pragma once
// What the lab does with a user's table file before anything trains, as one call: read it under every header mode
// and hold the result to the reader's contract. Shared by the libFuzzer target (fuzz_data_table) and the corpus
// regression test (test_data_corpus). Needs only the table reader (plugins/tasks/data/data_table.cpp).
#include <QString>

namespace milab {

// "" when the file at `path` went through the reader as its contract says, else what broke it: an error that is
// not one printable line (no line break or other control character) starting "file: ", or a table that is not what
// it claims (a cell count other than rows x columns, a value that is not finite or beyond the reader's +-1e30, fewer
// than 2 rows). Crashes, leaks and undefined behaviour are the sanitizers' to report.
QString checkDataFile(const QString& path);

}  // namespace milab
