"""Feature transformers for dict samples."""
import math

from .compose import _Composable


class Transformer(_Composable):
    def transform_one(self, x):
        raise NotImplementedError


class OneHotEncoder(Transformer):
    """Each text (or other non-number) value v of feature k becomes the
    feature "k_v" = 1, as River's OneHotEncoder; numbers pass through
    unchanged (River's drops them: put Select(...) before it to match)."""

    def __init__(self, drop_zeros=True):
        self.drop_zeros = drop_zeros
        self.values = {}

    def learn_one(self, x):
        for k, v in x.items():
            if not isinstance(v, (int, float)) and v is not None:
                self.values.setdefault(k, set()).add(v)

    def transform_one(self, x):
        out = {}
        if not self.drop_zeros:
            for k, seen in self.values.items():
                for v in seen:
                    out[f"{k}_{v}"] = 0
        for k, v in x.items():
            if isinstance(v, (int, float)) or v is None:
                out[k] = v
            else:
                out[f"{k}_{v}"] = 1
        return out

    def __repr__(self):
        return "OneHotEncoder()"


class StandardScaler(Transformer):
    """Scales each feature to zero mean and unit variance with running
    (Welford) statistics; a feature with no spread yet maps to 0. Values that
    are not finite pass through unscaled and do not update the statistics."""

    def __init__(self):
        self.counts = {}
        self.means = {}
        self._m2 = {}

    def learn_one(self, x):
        for k, v in x.items():
            if not isinstance(v, (int, float)) or not math.isfinite(v):
                continue
            n = self.counts.get(k, 0) + 1
            mean = self.means.get(k, 0.0)
            delta = v - mean
            mean += delta / n
            self.counts[k] = n
            self.means[k] = mean
            self._m2[k] = self._m2.get(k, 0.0) + delta * (v - mean)

    def variance(self, k):
        n = self.counts.get(k, 0)
        return self._m2[k] / n if n > 1 else 0.0

    def transform_one(self, x):
        out = {}
        for k, v in x.items():
            if not isinstance(v, (int, float)) or not math.isfinite(v):
                out[k] = v
                continue
            var = self.variance(k)
            out[k] = (v - self.means.get(k, 0.0)) / math.sqrt(var) if var > 0 else 0.0
        return out

    def __repr__(self):
        return "StandardScaler()"
