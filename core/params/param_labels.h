#pragma once
// The words a person reads for each parameter key: a short label and its unit, one table for every task, method
// and run setting (the keys K, lr, hidden ... mean the same wherever they appear). The key stays the identifier
// of files and flags; the form, its tooltips and `milab-cli methods --long` show the label.
#include <QString>

namespace milab {

struct ParamWords {
  QString label;  // "contrastive set size K"
  QString unit;   // "samples", "nats", "" when it has none
};

// The label and unit of a key; an unknown key is its own label.
ParamWords wordsFor(const QString& key);

}  // namespace milab
