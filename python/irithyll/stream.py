"""Data streams: iter_csv yields (x, y) one row at a time."""
import csv


def _number(text):
    try:
        return float(text)
    except ValueError:
        return text


def _target(text):
    value = _number(text)
    if isinstance(value, float) and value.is_integer():
        return int(value)  # class labels such as "1" come out as 1
    return value


def iter_csv(path, target=None, converters=None, drop=()):
    """Yields (x, y) per row of a CSV file with a header.

    Cells that parse as numbers become floats, others stay strings; an empty
    cell is left out of x (a missing value) unless its column has a converter. The target column becomes an int
    when it is a whole number, a float or a string otherwise; with
    target=None, y is None. converters maps a column to a function applied to
    its text instead; drop names columns to leave out.
    """
    converters = converters or {}
    drop = set(drop)
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        if target is not None and target not in header:
            raise ValueError(f"iter_csv: no column '{target}' in {path} (columns: {', '.join(header)})")
        columns = [(name, converters.get(name, _number)) for name in header]
        for row in reader:
            if not row:
                continue
            x = {}
            y = None
            for (name, convert), text in zip(columns, row):
                if name == target:
                    y = converters[name](text) if name in converters else _target(text)
                elif name not in drop and (text != "" or name in converters):
                    x[name] = convert(text)
            yield x, y
