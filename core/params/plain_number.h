#pragma once
// A number as a person types it on a command line or in a JSON string: digits with an optional minus sign,
// decimal point and exponent ("8", "-0.5", ".5", "1e-3"). No surrounding spaces, no '+' sign, no hexadecimal,
// "inf" or "nan": QString::toDouble takes all of those, and a value read other than as typed is a surprise the
// runner must refuse rather than guess (issue 80, "' 8', '+8' ... are accepted"). Torch-free.
#include <QStringView>
#include <optional>

namespace milab {

// The value of `text` when it is a plain finite number, otherwise nothing.
std::optional<double> plainNumber(QStringView text);

// The value of `text` when it is a plain integer (digits with an optional minus sign) that fits in 64 bits.
std::optional<qint64> plainInteger(QStringView text);

}  // namespace milab
