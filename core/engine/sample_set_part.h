#pragma once
// Which rows of a finite set a session reads. Torch-free.

namespace milab {

// One of `of` disjoint parts of a finite set's N rows (the size extrapolation's retrained parts,
// engine/size_extrapolation.h): the rows drawn and standardised as the whole set's, then, in a seeded order, rows
// index x N/of to (index + 1) x N/of - 1, split into training and held-out parts as the whole set is. of = 1: all rows.
struct RowPart {
  int of = 1;
  int index = 0;
  bool whole() const { return of == 1; }
};

}  // namespace milab
