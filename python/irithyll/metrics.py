"""Streaming metrics with River's names and API.

    >>> metric = metrics.Accuracy() + metrics.CohenKappa()
    >>> metric.update(y_true, y_pred)      # w=1.0: the sample's weight
    >>> metric.revert(y_true, y_pred)      # undoes an update
    >>> metric.get()

Classification metrics take any hashable labels, without limit; a dict
y_pred ({label: probability}) is reduced to its most probable label, except
for LogLoss and ROCAUC, which use the probabilities. F1, Precision and Recall
are binary, about the label pos_val (default True), as in River; MacroF1,
MicroF1, WeightedF1, MacroPrecision, MacroRecall average over the classes.
Rolling* versions (and utils.Rolling(metric, window_size)) look at the last
window_size updates only.
"""
import collections
import math

__all__ = ["Accuracy", "BalancedAccuracy", "ClassificationReport", "CohenKappa", "ConfusionMatrix", "F1",
           "GeometricMean", "LogLoss", "MAE", "MAPE", "MCC", "MSE", "MacroF1", "MacroPrecision", "MacroRecall",
           "Metric", "Metrics", "MicroF1", "Precision", "R2", "RMSE", "RMSLE", "ROCAUC", "Recall", "SMAPE",
           "WeightedF1", "Rolling"]


def _number(value, who, what):
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{who}.update: {what} must be a number, not {value!r} (River's metrics refuse it too)")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{who}.update: {what} is {value!r}, not a finite number")
    return value


def _weight(w, who):
    w = _number(w, who, "w")
    if w < 0:
        raise ValueError(f"{who}.update: w must be >= 0, got {w!r}")
    return w


class Metric:
    """Base: update(y_true, y_pred, w=1.0), revert(...), get(), and
    `metric_a + metric_b` for a Metrics group."""
    bigger_is_better = True
    requires_labels = True
    _fmt = ",.6f"

    def get(self):
        raise NotImplementedError

    def revert(self, y_true, y_pred, w=1.0):
        self.update(y_true, y_pred, -_weight(w, type(self).__name__))

    def works_with(self, model):
        return True

    def clone(self):
        return type(self)(**getattr(self, "_kwargs", {}))

    def reset(self):
        self.__init__(**getattr(self, "_kwargs", {}))

    @property
    def n(self):
        return self._n

    def __add__(self, other):
        return Metrics([self]) + other

    def __repr__(self):
        return f"{type(self).__name__}: {self.get():{self._fmt}}"

    __str__ = __repr__


class Metrics(Metric):
    """Several metrics updated together; repr joins theirs with ', '."""

    def __init__(self, metrics, str_sep=", "):
        self.metrics = list(metrics)
        self.str_sep = str_sep

    def update(self, y_true, y_pred, w=1.0):
        for m in self.metrics:
            m.update(y_true, y_pred, w)

    def revert(self, y_true, y_pred, w=1.0):
        for m in self.metrics:
            m.revert(y_true, y_pred, w)

    def get(self):
        return [m.get() for m in self.metrics]

    @property
    def n(self):
        return self.metrics[0].n if self.metrics else 0

    @property
    def requires_labels(self):
        return all(m.requires_labels for m in self.metrics)

    def __add__(self, other):
        more = other.metrics if isinstance(other, Metrics) else [other]
        return Metrics(self.metrics + more, self.str_sep)

    def __iter__(self):
        return iter(self.metrics)

    def __getitem__(self, i):
        return self.metrics[i]

    def __len__(self):
        return len(self.metrics)

    def __repr__(self):
        return self.str_sep.join(str(m) for m in self.metrics)

    __str__ = __repr__


# --- classification ------------------------------------------------------------------
def _label(y_pred):
    if isinstance(y_pred, dict):
        return max(y_pred, key=y_pred.get) if y_pred else None
    return y_pred


class ConfusionMatrix(Metric):
    """Weighted counts per (true, predicted) label; cm[true][pred]."""

    def __init__(self, classes=None):
        self._kwargs = {"classes": classes}
        self.data = collections.defaultdict(lambda: collections.defaultdict(float))
        self.sum_row = collections.defaultdict(float)
        self.sum_col = collections.defaultdict(float)
        self.total_weight = 0.0
        self._n = 0
        self._given = list(classes) if classes else []

    def update(self, y_true, y_pred, w=1.0):
        y_pred = _label(y_pred)
        self.data[y_true][y_pred] += w
        self.sum_row[y_true] += w
        self.sum_col[y_pred] += w
        self.total_weight += w
        self._n += 1 if w >= 0 else -1

    def __getitem__(self, key):
        return self.data[key]

    @property
    def classes(self):
        seen = {c for c, v in self.sum_row.items() if v > 0} | {c for c, v in self.sum_col.items() if v > 0}
        extra = sorted((c for c in seen if c not in self._given), key=repr)
        return [c for c in self._given] + extra

    def true_positives(self, c):
        return self.data[c][c]

    def false_positives(self, c):
        return self.sum_col[c] - self.data[c][c]

    def false_negatives(self, c):
        return self.sum_row[c] - self.data[c][c]

    def get(self):
        return {t: dict(row) for t, row in self.data.items()}

    def __repr__(self):
        classes = self.classes
        if not classes:
            return ""
        names = [str(c) for c in classes]
        width = max(max(len(n) for n in names), max(len(f"{self.data[t][p]:g}") for t in classes for p in classes))
        lines = [" " * (width + 1) + " ".join(n.rjust(width) for n in names)]
        for t, n in zip(classes, names):
            lines.append(n.rjust(width) + " " + " ".join(f"{self.data[t][p]:g}".rjust(width) for p in classes))
        return "\n".join(lines)

    __str__ = __repr__


class ClassificationMetric(Metric):
    """A metric read off a confusion matrix (shared when given as cm=)."""
    _fmt = ".2%"

    def __init__(self, cm=None):
        self.cm = ConfusionMatrix() if cm is None else cm
        self._kwargs = {}

    def update(self, y_true, y_pred, w=1.0):
        self.cm.update(y_true, y_pred, w)

    @property
    def n(self):
        return self.cm.n


def _div(a, b):
    return a / b if b else 0.0


class Accuracy(ClassificationMetric):
    """Share of correct labels (weighted)."""

    def get(self):
        cm = self.cm
        return _div(sum(cm.data[c][c] for c in cm.sum_row), cm.total_weight)


class BalancedAccuracy(ClassificationMetric):
    """Mean per-class recall over the true classes seen."""

    def get(self):
        cm = self.cm
        classes = [c for c in cm.sum_row if cm.sum_row[c] > 0]
        return _div(sum(cm.data[c][c] / cm.sum_row[c] for c in classes), len(classes))


class CohenKappa(ClassificationMetric):
    """Cohen's kappa: agreement beyond chance."""

    def get(self):
        cm = self.cm
        total = cm.total_weight
        if not total:
            return 0.0
        p0 = sum(cm.data[c][c] for c in cm.sum_row) / total
        pe = sum(cm.sum_row[c] * cm.sum_col[c] for c in cm.sum_row) / (total * total)
        return _div(p0 - pe, 1.0 - pe)


class MCC(ClassificationMetric):
    """Matthews correlation coefficient about pos_val (binary)."""
    _fmt = ",.6f"

    def __init__(self, cm=None, pos_val=True):
        super().__init__(cm)
        self.pos_val = pos_val
        self._kwargs = {"pos_val": pos_val}

    def get(self):
        cm, c = self.cm, self.pos_val
        tp, fp, fn = cm.true_positives(c), cm.false_positives(c), cm.false_negatives(c)
        tn = cm.total_weight - tp - fp - fn
        return _div(tp * tn - fp * fn, math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))


class _Binary(ClassificationMetric):
    def __init__(self, cm=None, pos_val=True):
        super().__init__(cm)
        self.pos_val = pos_val
        self._kwargs = {"pos_val": pos_val}

    def _score(self, c):
        raise NotImplementedError

    def get(self):
        return self._score(self.pos_val)


def _precision(cm, c):
    return _div(cm.true_positives(c), cm.sum_col[c])


def _recall(cm, c):
    return _div(cm.true_positives(c), cm.sum_row[c])


def _fbeta(cm, c, beta=1.0):
    p, r = _precision(cm, c), _recall(cm, c)
    b2 = beta * beta
    return _div((1 + b2) * p * r, b2 * p + r)


class Precision(_Binary):
    """Binary precision about pos_val (default True)."""

    def _score(self, c):
        return _precision(self.cm, c)


class Recall(_Binary):
    """Binary recall about pos_val (default True)."""

    def _score(self, c):
        return _recall(self.cm, c)


class F1(_Binary):
    """Binary F1 about pos_val (default True), as River's F1; MacroF1 averages over classes."""

    def _score(self, c):
        return _fbeta(self.cm, c)


class _Macro(ClassificationMetric):
    _per_class = staticmethod(_fbeta)

    def get(self):
        classes = self.cm.classes
        return _div(sum(self._per_class(self.cm, c) for c in classes), len(classes))


class MacroF1(_Macro):
    """Mean F1 over every class seen (true or predicted)."""


class MacroPrecision(_Macro):
    """Mean precision over every class seen."""
    _per_class = staticmethod(_precision)


class MacroRecall(_Macro):
    """Mean recall over every class seen."""
    _per_class = staticmethod(_recall)


class MicroF1(Accuracy):
    """Micro-averaged F1 (equal to accuracy for single-label streams)."""


class WeightedF1(ClassificationMetric):
    """Per-class F1 weighted by each class's true count."""

    def get(self):
        cm = self.cm
        return _div(sum(_fbeta(cm, c) * cm.sum_row[c] for c in cm.sum_row), cm.total_weight)


class GeometricMean(ClassificationMetric):
    """Geometric mean of the per-class recalls."""

    def get(self):
        cm = self.cm
        classes = [c for c in cm.sum_row if cm.sum_row[c] > 0]
        if not classes:
            return 0.0
        product = 1.0
        for c in classes:
            product *= cm.data[c][c] / cm.sum_row[c]
        return product ** (1.0 / len(classes))


class ClassificationReport(ClassificationMetric):
    """Per-class precision, recall, F1 and support, then macro, micro and weighted averages."""

    def get(self):
        cm = self.cm
        return {c: {"precision": _precision(cm, c), "recall": _recall(cm, c), "f1": _fbeta(cm, c),
                    "support": cm.sum_row[c]} for c in cm.classes}

    def __repr__(self):
        cm = self.cm
        rows = [(str(c), _precision(cm, c), _recall(cm, c), _fbeta(cm, c), cm.sum_row[c]) for c in cm.classes]
        width = max([len(r[0]) for r in rows] + [8])
        head = " " * width + "   Precision   Recall   F1       Support"
        lines = [head, ""]
        for name, p, r, f, s in rows:
            lines.append(f"{name.rjust(width)}   {p:9.2%}   {r:6.2%}   {f:6.2%}   {s:7g}")
        lines.append("")
        for name, m in (("Macro", MacroF1), ("Micro", MicroF1), ("Weighted", WeightedF1)):
            if name == "Macro":
                p, r = MacroPrecision(cm).get(), MacroRecall(cm).get()
            elif name == "Micro":
                p = r = Accuracy(cm).get()
            else:
                p = _div(sum(_precision(cm, c) * cm.sum_row[c] for c in cm.sum_row), cm.total_weight)
                r = _div(sum(_recall(cm, c) * cm.sum_row[c] for c in cm.sum_row), cm.total_weight)
            lines.append(f"{name.rjust(width)}   {p:9.2%}   {r:6.2%}   {m(cm).get():6.2%}")
        lines += ["", f"{'':>{width}}   {Accuracy(cm).get():.1%} accuracy"]
        return "\n".join(lines)

    __str__ = __repr__


class LogLoss(Metric):
    """Mean -ln p(true label), p clipped to [1e-15, 1 - 1e-15]; y_pred is a
    {label: probability} dict (a bare label counts as probability 1)."""
    bigger_is_better = False
    requires_labels = False

    def __init__(self):
        self._sum = 0.0
        self._weight = 0.0
        self._n = 0

    def update(self, y_true, y_pred, w=1.0):
        if isinstance(y_pred, dict):
            p = float(y_pred.get(y_true, 0.0))
        else:
            p = 1.0 if y_pred == y_true else 0.0
        p = min(max(p, 1e-15), 1.0 - 1e-15)
        self._sum -= w * math.log(p)
        self._weight += w
        self._n += 1 if w >= 0 else -1

    def get(self):
        return _div(self._sum, self._weight)


class ROCAUC(Metric):
    """Area under the ROC curve of p(pos_val), approximated over
    n_thresholds evenly spaced thresholds, as River's ROCAUC."""
    requires_labels = False
    _fmt = ".2%"

    def __init__(self, n_thresholds=10, pos_val=True):
        self._kwargs = {"n_thresholds": n_thresholds, "pos_val": pos_val}
        self.n_thresholds = n_thresholds
        self.pos_val = pos_val
        eps = 1e-10
        self.thresholds = [i / (n_thresholds - 1) for i in range(n_thresholds)]
        self.thresholds[0] -= eps
        self.thresholds[-1] += eps
        self._tp = [0.0] * n_thresholds
        self._fp = [0.0] * n_thresholds
        self._pos = 0.0
        self._neg = 0.0
        self._n = 0

    def update(self, y_true, y_pred, w=1.0):
        if isinstance(y_pred, dict):
            p = float(y_pred.get(self.pos_val, 0.0))
        else:
            p = 1.0 if y_pred == self.pos_val else 0.0
        positive = y_true == self.pos_val
        if positive:
            self._pos += w
        else:
            self._neg += w
        for i, t in enumerate(self.thresholds):
            if p > t:
                if positive:
                    self._tp[i] += w
                else:
                    self._fp[i] += w
        self._n += 1 if w >= 0 else -1

    def get(self):
        tpr = [_div(tp, self._pos) for tp in self._tp]
        fpr = [_div(fp, self._neg) for fp in self._fp]
        return -sum((fpr[i] - fpr[i - 1]) * (tpr[i] + tpr[i - 1]) / 2 for i in range(1, len(tpr)))


# --- regression ----------------------------------------------------------------------
class RegressionMetric(Metric):
    bigger_is_better = False
    requires_labels = False

    def __init__(self):
        self._kwargs = {}
        self._sum = 0.0
        self._weight = 0.0
        self._n = 0

    def _term(self, t, p):
        raise NotImplementedError

    def update(self, y_true, y_pred, w=1.0):
        name = type(self).__name__
        t, p = _number(y_true, name, "y_true"), _number(y_pred, name, "y_pred")
        self._sum += w * self._term(t, p)
        self._weight += w
        self._n += 1 if w >= 0 else -1

    def get(self):
        return _div(self._sum, self._weight)


class MAE(RegressionMetric):
    """Mean absolute error."""

    def _term(self, t, p):
        return abs(t - p)


class MSE(RegressionMetric):
    """Mean squared error."""

    def _term(self, t, p):
        return (t - p) * (t - p)


class RMSE(MSE):
    """Root mean squared error."""

    def get(self):
        return math.sqrt(max(super().get(), 0.0))


class RMSLE(RegressionMetric):
    """Root mean squared error of ln(1 + y)."""

    def _term(self, t, p):
        d = math.log1p(t) - math.log1p(p)
        return d * d

    def get(self):
        return math.sqrt(max(super().get(), 0.0))


class MAPE(RegressionMetric):
    """Mean absolute percentage error, in percent (a zero y_true adds 0)."""

    def _term(self, t, p):
        return 100.0 * abs(t - p) / abs(t) if t != 0 else 0.0


class SMAPE(RegressionMetric):
    """Symmetric mean absolute percentage error, in percent."""

    def _term(self, t, p):
        d = abs(t) + abs(p)
        return 200.0 * abs(t - p) / d if d else 0.0


class R2(RegressionMetric):
    """Coefficient of determination (weighted Welford sums; 0 before two samples)."""
    bigger_is_better = True

    def __init__(self):
        super().__init__()
        self._mean = 0.0
        self._m2 = 0.0

    def update(self, y_true, y_pred, w=1.0):
        t = _number(y_true, "R2", "y_true")
        p = _number(y_pred, "R2", "y_pred")
        self._sum += w * (t - p) * (t - p)
        weight = self._weight + w
        if weight <= 0:
            self._weight, self._mean, self._m2 = 0.0, 0.0, 0.0
        else:
            delta = t - self._mean
            self._mean += w * delta / weight
            self._m2 += w * delta * (t - self._mean)
            self._weight = weight
        self._n += 1 if w >= 0 else -1

    def get(self):
        if self._n < 2 or self._m2 <= 0:
            return 0.0
        return 1.0 - self._sum / self._m2


# --- windows ---------------------------------------------------------------------------
class Rolling(Metric):
    """Any metric over the last window_size updates (River's utils.Rolling):
    each update past the window reverts the oldest one."""

    def __init__(self, obj, window_size):
        if not isinstance(window_size, int) or window_size < 1:
            raise ValueError(f"window_size = {window_size!r} is out of range: must be an integer >= 1")
        self.obj = obj
        self.window_size = window_size
        self.window = collections.deque()

    def update(self, y_true, y_pred, w=1.0):
        if len(self.window) == self.window_size:
            self.obj.revert(*self.window.popleft())
        self.obj.update(y_true, y_pred, w)
        self.window.append((y_true, y_pred, w))

    def revert(self, y_true, y_pred, w=1.0):
        raise NotImplementedError("a Rolling metric reverts its own oldest updates only")

    def get(self):
        return self.obj.get()

    @property
    def n(self):
        return len(self.window)

    @property
    def bigger_is_better(self):
        return self.obj.bigger_is_better

    @property
    def requires_labels(self):
        return self.obj.requires_labels

    def __repr__(self):
        return repr(self.obj)

    __str__ = __repr__


def _rolling(cls):
    def __init__(self, window_size=1000, **kwargs):
        Rolling.__init__(self, cls(**kwargs), window_size)
    return type("Rolling" + cls.__name__, (Rolling,), {"__init__": __init__, "__module__": __name__,
                                                       "__doc__": f"{cls.__name__} over the last window_size updates."})


for _cls in (Accuracy, BalancedAccuracy, CohenKappa, F1, MacroF1, Precision, Recall, LogLoss, MAE, MSE, RMSE, R2,
             MAPE):
    globals()["Rolling" + _cls.__name__] = _rolling(_cls)
    __all__.append("Rolling" + _cls.__name__)
