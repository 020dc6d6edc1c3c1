"""Streaming clustering (River's cluster module): KMeans, CluStream, DBSTREAM.

    >>> from irithyll import cluster
    >>> model = cluster.KMeans(n_clusters=2, seed=1)
    >>> for x in [{"a": 0.0}, {"a": 0.1}, {"a": 9.0}, {"a": 9.1}]:
    ...     model.learn_one(x)
    >>> model.predict_one({"a": 8.5}) == model.predict_one({"a": 9.0})
    True

Keyword arguments, defaults and range checks come from the library's
clusterer tables (`irithyll models` lists them), with River's names. As for
the learners, x is a dict {feature: number}; the first learn_one fixes the
feature set, a missing key (or None, NaN) is a missing value, and a row with
a missing value is not learned (it is counted in n_ignored). predict_one
returns the cluster id, an int; -1 when there is no cluster yet. `centers` is
River's {cluster id: {feature: value}}. Models pickle (the C++ checkpoint
inside) and resume exactly.
"""
import json
import math

from . import _core

_TABLES = {row["name"]: row for row in json.loads(_core.clusterers_json())}


def _to_text(value):
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _from_text(field, text):
    if field["type"] == "int":
        return int(text)
    if field["type"] == "real":
        return float(text)
    return text


class _Clusterer:
    _model_name = None

    def __init__(self, seed=None, **params):
        fields = {f["python_name"]: f for f in _TABLES[self._model_name]["parameters"]}
        for key, value in params.items():
            if key not in fields:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument '{key}'")
            _core.check_clusterer_setting(self._model_name, fields[key]["name"], _to_text(value))
        if seed is not None and (not isinstance(seed, int) or seed < 0):
            raise ValueError(f"seed = {seed!r} is out of range: must be None or an integer >= 0")
        self._params = dict(params)
        self.seed = seed
        self._features = None
        self._model = self._make()

    def _make(self):
        fields = {f["python_name"]: f["name"] for f in _TABLES[self._model_name]["parameters"]}
        settings = [(fields[k], _to_text(v)) for k, v in self._params.items()]
        return _core.Clusterer.make(self._model_name, settings, 42 if self.seed is None else self.seed)

    def __getattr__(self, name):
        # Settings read as attributes (model.n_clusters is the live count, below).
        if name.startswith("_"):
            raise AttributeError(name)
        for f in _TABLES[self._model_name]["parameters"]:
            if f["python_name"] == name:
                return self._params.get(name, _from_text(f, f["default"]))
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __repr__(self):
        shown = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"{type(self).__name__}({shown})"

    def clone(self):
        """A fresh, untrained copy with the same settings."""
        return type(self)(seed=self.seed, **self._params)

    def _row(self, x):
        if not isinstance(x, dict):
            raise TypeError(f"x must be a dict of features, not {type(x).__name__}")
        if self._features is None:
            if not x:
                raise ValueError(f"{type(self).__name__}: the first sample has no features")
            self._features = list(x)
        row = []
        for name in self._features:
            v = x.get(name)
            row.append(math.nan if v is None else float(v))
        return row

    def learn_one(self, x, w=1.0):
        """Learns one sample (a row with a missing value is ignored)."""
        self._model.learn(self._row(x), float(w))

    def predict_one(self, x):
        """The id of x's cluster (an index into centers); -1 when there is none."""
        if self._features is None:
            return -1
        return int(self._model.predict(self._row(x)))

    @property
    def centers(self):
        """{cluster id: {feature: value}}."""
        if self._features is None:
            return {}
        return {i: dict(zip(self._features, c)) for i, c in enumerate(self._model.centers())}

    @property
    def n_clusters_found(self):
        """How many clusters the model has now."""
        return self._model.n_clusters

    @property
    def n_samples_seen(self):
        return self._model.n_samples_seen

    @property
    def n_ignored(self):
        """Rows not learned because they held a missing value."""
        return self._model.n_ignored

    @property
    def memory_bytes(self):
        return self._model.memory_bytes

    def _reset(self):
        self._model.reset()
        self._features = None

    def __getstate__(self):
        return {"params": self._params, "seed": self.seed, "features": self._features,
                "checkpoint": self._model.encode()}

    def __setstate__(self, state):
        type(self).__init__(self, seed=state["seed"], **state["params"])
        self._features = None if state["features"] is None else list(state["features"])
        self._model = _core.Clusterer.decode(state["checkpoint"])


def _doc(name, summary):
    lines = [summary, "", "Parameters (defaults and ranges from the library's table):"]
    for f in _TABLES[name]["parameters"]:
        lines.append(f"    {f['python_name']} = {f['default']}  ({f['range']}): {f['help']}")
    lines.append("    seed = None: random seed (None = 42)")
    return "\n".join(lines)


class KMeans(_Clusterer):
    _model_name = "kmeans"
    __doc__ = _doc("kmeans", "Streaming k-means (River's cluster.KMeans settings, with a k-means++ start).")


class CluStream(_Clusterer):
    _model_name = "clustream"
    __doc__ = _doc("clustream", "CluStream: micro-clusters and an offline weighted k-means (Aggarwal et al. 2003).")


class DBSTREAM(_Clusterer):
    _model_name = "dbstream"
    __doc__ = _doc("dbstream", "DBSTREAM: faded micro-clusters joined by shared density (Hahsler & Bolanos 2016).")

    @property
    def n_clusters(self):
        """River's DBSTREAM.n_clusters: the macro clusters found so far."""
        return self._model.n_clusters


__all__ = ["KMeans", "CluStream", "DBSTREAM"]
