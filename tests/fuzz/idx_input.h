#pragma once
// What the lab does with a gzipped IDX file before anything trains, as one call held to the reader's contract:
// shared by the libFuzzer target (fuzz_idx) and the corpus replay (test_idx_files). Needs only data/idx_file.cpp.
#include <QByteArray>
#include <QString>

namespace milab {

// "" when `gz` went through the IDX reader as its contract says, for `dims` dimensions: refused in one printable
// line, or read as an array whose values are its shape's product, within the reader's bound.
QString checkIdxBytes(const QByteArray& gz, int dims);

}  // namespace milab
