"""Data streams, with River's names: iter_csv, iter_pandas, iter_array,
shuffle. Each yields (x, y) one sample at a time."""
import csv
import datetime as _dt
import gzip
import io
import os
import random


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


def _open(filepath_or_buffer, compression):
    """A text file object, and whether this call opened it (and must close it)."""
    if hasattr(filepath_or_buffer, "read"):
        f = filepath_or_buffer
        if isinstance(f.read(0), bytes):
            f = io.TextIOWrapper(f, encoding="utf-8", newline="")
        return f, False
    path = os.fspath(filepath_or_buffer)
    if compression == "infer":
        compression = "gzip" if path.endswith(".gz") else None
    if compression == "gzip":
        return gzip.open(path, "rt", newline="", encoding="utf-8"), True
    if compression is not None:
        raise ValueError(f"iter_csv: compression={compression!r} is not supported (None, 'infer' or 'gzip')")
    return open(path, newline="", encoding="utf-8"), True


def iter_csv(filepath_or_buffer, target=None, converters=None, parse_dates=None, drop=None, drop_nones=False,
             fraction=1.0, compression="infer", seed=None, field_size_limit=None, **kwargs):
    """Yields (x, y) per row of a CSV file with a header (River's iter_csv).

    filepath_or_buffer: a path (".gz": gzip) or an open file object.
    Cells that parse as numbers become floats, others stay strings (River
    leaves every cell a string unless converted; numbers here are floats
    already, and `converters` still wins). An empty cell is left out of x (a
    missing value) unless its column has a converter. The target column
    becomes an int when it is a whole number, a float or a string otherwise;
    target may be a list of columns (y is then a dict); with target=None, y
    is None. converters maps a column to a function applied to its text;
    parse_dates maps a column to a strptime format; drop names columns to
    leave out; drop_nones leaves out None values; fraction keeps each row
    with that probability (seeded by seed). Other keyword arguments
    (delimiter, quotechar, ...) go to csv.DictReader's reader.
    """
    converters = dict(converters or {})
    for name, fmt in (parse_dates or {}).items():
        converters[name] = (lambda f: lambda text: _dt.datetime.strptime(text, f))(fmt)
    drop = set([drop] if isinstance(drop, str) else (drop or ()))
    if not 0.0 < fraction <= 1.0:
        raise ValueError(f"iter_csv: fraction = {fraction!r} is out of range (0, 1]")
    rng = random.Random(seed)
    if field_size_limit is not None:
        csv.field_size_limit(field_size_limit)
    targets = list(target) if isinstance(target, (list, tuple)) else ([] if target is None else [target])
    f, owned = _open(filepath_or_buffer, compression)
    where = getattr(filepath_or_buffer, "name", filepath_or_buffer)
    try:
        reader = csv.reader(f, **kwargs)
        header = next(reader, None)
        if header is None:
            return
        missing = [t for t in targets if t not in header]
        if missing:
            raise ValueError(f"iter_csv: no column {', '.join(map(repr, missing))} in {where} "
                             f"(columns: {', '.join(header)})")
        columns = [(name, converters.get(name, _number)) for name in header]
        target_set = set(targets)
        for row in reader:
            if not row or (fraction < 1.0 and rng.random() >= fraction):
                continue
            x = {}
            ys = {}
            for (name, convert), text in zip(columns, row):
                if name in target_set:
                    ys[name] = converters[name](text) if name in converters else _target(text)
                elif name not in drop and (text != "" or name in converters):
                    value = convert(text)
                    if value is None and drop_nones:
                        continue
                    x[name] = value
            if isinstance(target, (list, tuple)):
                y = ys
            else:
                y = ys.get(target) if target is not None else None
            yield x, y
    finally:
        if owned:
            f.close()


def iter_array(X, y=None, feature_names=None, target_names=None, shuffle=False, seed=None):
    """Yields (x, y) per row of a 2-D array (River's iter_array). x is keyed
    by feature_names (default 0..d-1); with target_names and a 2-D y, y is a
    dict."""
    import numpy as np
    X = np.asarray(X)
    names = list(feature_names) if feature_names is not None else list(range(X.shape[1]))
    if len(names) != X.shape[1]:
        raise ValueError(f"iter_array: {len(names)} feature names for {X.shape[1]} columns")
    order = list(range(len(X)))
    if shuffle:
        random.Random(seed).shuffle(order)
    ys = None if y is None else np.asarray(y)
    for i in order:
        x = dict(zip(names, X[i].tolist()))
        if ys is None:
            yield x, None
        elif ys.ndim == 2:
            tn = list(target_names) if target_names is not None else list(range(ys.shape[1]))
            yield x, dict(zip(tn, ys[i].tolist()))
        else:
            yield x, ys[i].item() if hasattr(ys[i], "item") else ys[i]


def iter_pandas(X, y=None, **kwargs):
    """Yields (x, y) per row of a DataFrame (River's iter_pandas); y may be
    a Series or a DataFrame (then y is a dict per row)."""
    kwargs.setdefault("feature_names", list(X.columns))
    if y is not None and hasattr(y, "columns"):
        kwargs.setdefault("target_names", list(y.columns))
    values = X.to_numpy(dtype=object) if any(str(t) == "object" for t in X.dtypes) else X.to_numpy()
    yield from iter_array(values, None if y is None else y.to_numpy(), **kwargs)


def shuffle(stream, buffer_size, seed=None):
    """Shuffles a stream through a buffer of buffer_size samples (River's stream.shuffle)."""
    rng = random.Random(seed)
    buffer = []
    for item in stream:
        if len(buffer) < buffer_size:
            buffer.append(item)
            continue
        i = rng.randrange(buffer_size)
        yield buffer[i]
        buffer[i] = item
    rng.shuffle(buffer)
    yield from buffer
