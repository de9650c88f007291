"""Arrays in, the lab's table out: every check the runner makes of a file's cells, made here on the arrays, so that
bad input is a ValueError naming the argument (x, y or xp) and the cell."""
import numpy as np

from . import _milab


def columns_of(name, values):
    """`values` as a 2-d array of numbers (an (n,) array is n rows of one column), checked cell by cell."""
    if values is None:
        raise ValueError(f"{name}: required, an array of shape (n,) or (n, d)")
    try:
        array = np.asarray(values)
    except Exception as error:  # an object NumPy cannot read at all
        raise ValueError(f"{name}: cannot be read as an array ({error})") from None
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name}: must hold numbers (float32, float64 or integers), got dtype {array.dtype}")
    if array.ndim == 1:
        array = array.reshape(-1, 1)
    elif array.ndim != 2:
        raise ValueError(f"{name}: must be 1-d (n,) or 2-d (n, d), got {array.ndim} dimensions, shape {array.shape}")
    if array.shape[0] == 0:
        raise ValueError(f"{name}: has no rows")
    if array.shape[1] == 0:
        raise ValueError(f"{name}: has no columns")
    if array.dtype.kind == "f":
        bad = ~np.isfinite(array) | (np.abs(array) > 1e30)
        if bad.any():
            row, column = (int(i) for i in np.argwhere(bad)[0])
            value = float(array[row, column])
            raise ValueError(f"{name}: row {row}, column {column}: {value} {_milab.value_problem(value)}")
    return array


def table_of(x, y, xp=None):
    """(table, x's columns, x''s columns, y's columns): one float64 table [x | x' | y] and each part's indices."""
    parts = [("x", columns_of("x", x))]
    if xp is not None:
        parts.append(("xp", columns_of("xp", xp)))
    parts.append(("y", columns_of("y", y)))
    rows = parts[0][1].shape[0]
    for name, array in parts[1:]:
        if array.shape[0] != rows:
            raise ValueError(f"{name}: has {array.shape[0]} rows where x has {rows}; each row of x pairs with the "
                             f"same row of {name}")
    if xp is not None and parts[1][1].shape[1] != parts[0][1].shape[1]:
        raise ValueError(f"xp: x' has as many columns as x ({parts[0][1].shape[1]}), got {parts[1][1].shape[1]}")
    table = np.ascontiguousarray(np.hstack([a for _, a in parts]), dtype=np.float64)
    indices, start = {}, 0
    for name, array in parts:
        indices[name] = list(range(start, start + array.shape[1]))
        start += array.shape[1]
    return table, indices
