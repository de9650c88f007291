"""Arrays in, the lab's table out: every check the runner makes of a file's cells, made here on the arrays, so that
bad input is a ValueError naming the argument (x or y) and the cell. The lab computes in float32, so each part is
handed over as a float32 C-contiguous array: one that already is (milab.sample's, a torch tensor's) is read where it
lies, without a copy; any other is converted once (the same float32 values the runner reads from a file)."""
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
    return np.ascontiguousarray(array, dtype=np.float32)


def table_of(x, y, xp=None):
    """(parts, columns): [x, y] (and xp when given) as float32 C-contiguous (n, d) arrays, read side by side as one
    table [x | y | xp], and each part's column indices in it, by name."""
    parts = {"x": columns_of("x", x), "y": columns_of("y", y)}
    if xp is not None:
        parts["xp"] = columns_of("xp", xp)
    columns, at = {}, 0
    for name, part in parts.items():
        if part.shape[0] != parts["x"].shape[0]:
            raise ValueError(f"{name}: has {part.shape[0]} rows where x has {parts['x'].shape[0]}; each row of x "
                             f"pairs with the same row of {name}")
        columns[name] = list(range(at, at + part.shape[1]))
        at += part.shape[1]
    return list(parts.values()), columns
