"""Feature extraction with River's names: PolynomialExtender (products of
features) and TargetAgg (a running statistic of the target per group)."""
import itertools
import math

from .preprocessing import Transformer


class PolynomialExtender(Transformer):
    """The numeric features and their products up to `degree`, as River's
    PolynomialExtender: keys "a*b" (a before b in the sample's order),
    squares "a*a" unless interaction_only, and a constant `bias_name` = 1
    with include_bias. Stateless."""

    def __init__(self, degree=2, interaction_only=False, include_bias=False, bias_name="bias"):
        if degree < 1:
            raise ValueError(f"degree must be >= 1, got {degree}")
        self.degree = degree
        self.interaction_only = interaction_only
        self.include_bias = include_bias
        self.bias_name = bias_name

    def transform_one(self, x):
        keys = [k for k, v in x.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
        combos = itertools.combinations if self.interaction_only else itertools.combinations_with_replacement
        out = {}
        for d in range(1, self.degree + 1):
            for c in combos(keys, d):
                out["*".join(map(str, c))] = math.prod(x[k] for k in c)
        if self.include_bias:
            out[self.bias_name] = 1
        return out

    def __repr__(self):
        return f"PolynomialExtender(degree={self.degree}, interaction_only={self.interaction_only})"


class TargetAgg(Transformer):
    """The running mean of the target per group of `by` features, as River's
    TargetAgg with stats.Mean (smoothing=0) or stats.BayesianMean (smoothing
    m > 0: (sum + m·prior) / (n + m), prior = the mean of all targets so far).
    Returns one feature, "<target_name>_mean_by_<by joined with _and_>"; a
    group not seen yet gets the prior (0 before any target). In a Pipeline it
    learns after transforming the sample, so its own target never leaks into
    its value. Classification targets must be numbers (0/1 gives the rate)."""

    _supervised = True

    def __init__(self, by, smoothing=0.0, target_name="y"):
        self.by = [by] if isinstance(by, str) else list(by)
        if smoothing < 0:
            raise ValueError(f"smoothing must be >= 0, got {smoothing}")
        self.smoothing = smoothing
        self.target_name = target_name
        self._groups = {}
        self._n = 0
        self._sum = 0.0

    @property
    def feature_name(self):
        return f"{self.target_name}_mean_by_{'_and_'.join(map(str, self.by))}"

    def _key(self, x):
        return tuple(x.get(k) for k in self.by)

    def learn_one(self, x, y):
        y = float(y)
        if not math.isfinite(y):
            return
        n, s = self._groups.get(self._key(x), (0, 0.0))
        self._groups[self._key(x)] = (n + 1, s + y)
        self._n += 1
        self._sum += y

    def transform_one(self, x):
        prior = self._sum / self._n if self._n else 0.0
        n, s = self._groups.get(self._key(x), (0, 0.0))
        m = self.smoothing
        value = (s + m * prior) / (n + m) if n + m > 0 else prior
        return {self.feature_name: value}

    def __repr__(self):
        return f"TargetAgg(by={self.by!r}, smoothing={self.smoothing})"
