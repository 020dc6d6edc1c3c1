"""Anomaly detectors (River's anomaly module): HalfSpaceTrees.

    >>> from irithyll import anomaly
    >>> hst = anomaly.HalfSpaceTrees(seed=42)
    >>> for x in stream:
    ...     score = hst.score_one(x)   # higher = more anomalous, in [0, 1]
    ...     hst.learn_one(x)

Features are dicts (River's form) or sequences of floats. The feature names
are fixed by the first dict learned; a later dict may lack some (missing
values, which the detector tolerates) but may not bring new ones.
"""
import math

from . import _core

__all__ = ["HalfSpaceTrees"]


class HalfSpaceTrees:
    """Half-Space Trees (Tan, Ting & Liu 2011) with River's parameter names.

    n_trees, height, window_size: as River (defaults 10, 8, 250).
    limits: "first-window" (default: each feature's range is learned from
    the first window, so features need no scaling) or "unit" (every feature
    in [0, 1], River's assumption). size_limit: the walk stops below this
    fraction of the window's mass (0.1). Scores are 0 until the first window
    has been seen.
    """

    def __init__(self, n_trees=10, height=8, window_size=250, limits="first-window", size_limit=0.1, seed=None):
        self.n_trees, self.height, self.window_size = n_trees, height, window_size
        self.limits, self.size_limit, self.seed = limits, size_limit, seed
        settings = {"n-trees": str(int(n_trees)), "height": str(int(height)), "window-size": str(int(window_size)),
                    "limits": str(limits), "size-limit": repr(float(size_limit))}
        self._core = _core.AnomalyDetector("half_space_trees", settings, 42 if seed is None else int(seed))
        self._names = None
        self._known = set()

    def _row(self, x):
        if not isinstance(x, dict):
            return [float(v) for v in x]
        if self._names is None:
            self._names = list(x)
            self._known = set(self._names)
        for k in x:
            if k not in self._known:
                raise ValueError(f"HalfSpaceTrees: feature {k!r} was not in the first sample learned")
        return [float(x.get(k, math.nan)) for k in self._names]

    def learn_one(self, x):
        self._core.learn_one(self._row(x))

    def score_one(self, x):
        if isinstance(x, dict) and self._names is None:
            return 0.0  # nothing learned yet
        return self._core.score_one(self._row(x))

    def reset(self):
        self._core.reset()
        self._names = None
        self._known = set()

    @property
    def n_samples_seen(self):
        return self._core.n_samples_seen

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_core"] = self._core.encode()
        return state

    def __setstate__(self, state):
        state = dict(state)
        state["_core"] = _core.AnomalyDetector.decode(state["_core"])
        self.__dict__.update(state)

    def __repr__(self):
        return (f"HalfSpaceTrees(n_trees={self.n_trees!r}, height={self.height!r}, window_size={self.window_size!r}, "
                f"limits={self.limits!r}, size_limit={self.size_limit!r}, seed={self.seed!r})")
