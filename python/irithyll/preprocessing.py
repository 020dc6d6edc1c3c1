"""Feature transformers for dict samples: River's (pure Python) and the
library's catalogue transformers CCIPCA and AttentionFeatures (C++)."""
import math

from ._core_transformers import UnsupervisedCoreTransformer, parameters_doc
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
    are not finite pass through unscaled and do not update the statistics.

    transform_one is River's: it uses the stored statistics (population
    variance) and learns nothing, so learn_one(x) then transform_one(x)
    standardises x with x counted in, and a Pipeline does exactly that when
    it learns; predicting, it transforms with the statistics of the past.
    Inside a model given as a specification (SNARIMAX's regressor=,
    LeveragingBaggingClassifier's model=, the CLI's --model), this step runs
    as the library's standard_scaler, which at predict and at learn time
    alike standardises x with statistics that count x in, computed on the
    fly (sample variance): |z| <= sqrt(n) after n values, however little a
    feature has varied so far."""

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


class MinMaxScaler(Transformer):
    """Scales each numeric feature to [0, 1] by its running minimum and
    maximum, as River's MinMaxScaler; a feature with no spread yet maps to 0.
    Values that are not finite numbers pass through and are not learned.
    (The CLI's and C++ `min_max` clamps to the range and maps a feature
    without spread to the middle; this class keeps River's behaviour.)"""

    def __init__(self):
        self.min = {}
        self.max = {}

    def learn_one(self, x):
        for k, v in x.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                self.min[k] = min(self.min.get(k, v), v)
                self.max[k] = max(self.max.get(k, v), v)

    def transform_one(self, x):
        out = {}
        for k, v in x.items():
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                out[k] = v
                continue
            lo, hi = self.min.get(k, v), self.max.get(k, v)
            out[k] = (v - lo) / (hi - lo) if hi > lo else 0.0
        return out

    def __repr__(self):
        return "MinMaxScaler()"


class Normalizer(Transformer):
    """Scales each sample to unit Lp norm (p = order), as River's Normalizer;
    a sample whose norm is 0 is returned unchanged. Stateless."""

    def __init__(self, order=2):
        if order <= 0:
            raise ValueError(f"order must be > 0, got {order}")
        self.order = order

    def transform_one(self, x):
        nums = {k: v for k, v in x.items() if isinstance(v, (int, float)) and math.isfinite(v)}
        norm = sum(abs(v) ** self.order for v in nums.values()) ** (1.0 / self.order)
        if norm == 0:
            return dict(x)
        return {k: (v / norm if k in nums else v) for k, v in x.items()}

    def __repr__(self):
        return f"Normalizer(order={self.order})"


_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3
_MASK = (1 << 64) - 1


def feature_hash(text, seed=0):
    """The 64-bit hash the C++ feature_hasher uses: FNV-1a of the UTF-8 text,
    mixed with the seed and finished with SplitMix64's finaliser; the same
    on every run and machine (unlike Python's hash())."""
    h = _FNV_OFFSET
    for b in text.encode("utf-8"):
        h = ((h ^ b) * _FNV_PRIME) & _MASK
    h ^= (seed + 0x9E3779B97F4A7C15) & _MASK
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & _MASK
    return h ^ (h >> 31)


class FeatureHasher(Transformer):
    """The hashing trick (Weinberger et al. 2009), as River's FeatureHasher:
    a numeric feature k adds ±v to bucket h(k), a text feature k = v adds ±1
    to bucket h("k=v"); the sign is the hash's lowest bit, the bucket its high
    half mod n_features. The hash is the C++ feature_hasher's, so both give
    the same buckets for the same names and texts. Output keys are bucket
    numbers; zero buckets are left out."""

    def __init__(self, n_features=1048576, seed=0):
        if n_features < 1:
            raise ValueError(f"n_features must be >= 1, got {n_features}")
        self.n_features = n_features
        self.seed = seed or 0

    def transform_one(self, x):
        out = {}
        for k, v in x.items():
            if isinstance(v, str):
                h, amount = feature_hash(f"{k}={v}", self.seed), 1.0
            elif isinstance(v, (int, float)) and math.isfinite(v) and v != 0:
                h, amount = feature_hash(str(k), self.seed), float(v)
            else:
                continue
            bucket = (h >> 32) % self.n_features
            out[bucket] = out.get(bucket, 0.0) + (-amount if h & 1 else amount)
        return {b: v for b, v in out.items() if v != 0.0}

    def __repr__(self):
        return f"FeatureHasher(n_features={self.n_features}, seed={self.seed})"


# --- the library's catalogue transformers (irithyll/_core_transformers.py) --------------


class CCIPCA(UnsupervisedCoreTransformer):
    """Incremental PCA: the C++ `ccipca` transformer (candid covariance-free
    incremental PCA, Weng, Zhang & Hwang 2003). It learns the top
    n_components principal components of the stream one sample at a time,
    O(n_components · d) per sample, without a covariance matrix; the output
    is the projections of the centred sample on the unit components, keys
    "pc0" ... "pc{n_components-1}" (a component not started yet gives 0).
    n_components must not exceed the number of input features. A sample
    with a missing value is not learned; transforming, a missing feature
    counts as its mean. River has no equivalent.

    >>> from irithyll import preprocessing
    >>> pca = preprocessing.CCIPCA(n_components=1)
    >>> for i in range(100):
    ...     pca.learn_one({"a": float(i % 7), "b": 2.0 * (i % 7)})
    >>> sorted(pca.transform_one({"a": 1.0, "b": 2.0}))
    ['pc0']
    """

    _kind = "ccipca"

    def _output_keys(self, n):
        return [f"pc{i}" for i in range(n)]


class AttentionFeatures(UnsupervisedCoreTransformer):
    """Streaming attention features: the C++ `attention_features` transformer.
    Each sample is a token: standardised with running statistics, projected
    to d_model by a fixed random matrix (drawn from `seed`) and fed to one
    multi-head linear-attention layer (mode: GLA, RetNet, DeltaNet, mLSTM,
    ...), so the step after it sees a summary of the recent samples beside the
    present one. Output: the input features (with passthrough, under their
    own keys) followed by the layer's d_model outputs "att0" ...
    "att{d_model-1}". learn_one feeds the sample to the layer (the order of
    learning is the sequence); transform_one reads what the layer would give
    for the sample without committing it. River has no equivalent.

    >>> from irithyll import preprocessing
    >>> att = preprocessing.AttentionFeatures(d_model=4, passthrough=False)
    >>> att.learn_one({"a": 1.0, "b": 0.5})
    >>> sorted(att.transform_one({"a": 0.0, "b": 1.0}))
    ['att0', 'att1', 'att2', 'att3']
    """

    _kind = "attention_features"

    def _output_keys(self, n):
        kept = list(self._features) if self.passthrough else []
        return kept + [f"att{i}" for i in range(n - len(kept))]


CCIPCA.__doc__ += parameters_doc("ccipca") + "\n        seed = 42: unused (the transformer is deterministic)"
AttentionFeatures.__doc__ += parameters_doc("attention_features") + \
    "\n        seed = 42: the random projection's seed"
