"""Streaming forecasters with River's interface (river.time_series).

    >>> from irithyll import time_series
    >>> model = time_series.HoltWinters(alpha=0.2, beta=0.05, gamma=0.1, seasonality=12, multiplicative=True)
    >>> for y in series:
    ...     model.learn_one(y)
    >>> model.forecast(horizon=12)

Every setting comes from the forecaster's field table in the C++ library (the
one `irithyll models` and `irithyll forecast` read); see `describe()`.
Exogenous features are dicts, as in River: their keys are fixed by the first
`learn_one` that gives one, and `forecast(horizon, xs)` takes one dict per
step. Models pickle (their complete state travels as checkpoint bytes).
"""
import math

from . import _core

__all__ = ["HoltWinters", "SNARIMAX", "Forecaster", "evaluate", "iter_evaluate", "decompose", "describe"]

_TABLES = {f["name"]: f for f in _core.forecasters()}


def describe(name=None):
    """The forecasters' settings (name, default, range, help), from the table."""
    return _TABLES[name] if name is not None else list(_TABLES.values())


def _text(value):
    if isinstance(value, bool):
        return "on" if value else "off"
    return repr(value) if isinstance(value, float) else str(value)


class Forecaster:
    """Base of the forecasters: settings by keyword (Python spelling of the
    table's names), learn_one(y, x=None), forecast(horizon, xs=None)."""

    _model_name = None

    def __init__(self, **settings):
        known = {f["python_name"] for f in _TABLES[self._model_name]["fields"]}
        for key in settings:
            if key not in known:
                raise TypeError(f"{type(self).__name__}: unknown setting '{key}' (settings: {', '.join(sorted(known))})")
        self._settings = dict(settings)
        self._model = _core.Forecaster.make(self._model_name, [(k, _text(v)) for k, v in settings.items()])
        self._features = None

    def _row(self, x):
        if x is None:
            return []
        if self._features is None:
            self._features = list(x.keys())
        return [float(x.get(k, math.nan)) for k in self._features]

    def learn_one(self, y, x=None):
        """Learns the next value y (None or NaN: a missing value) and its
        exogenous features x (a dict, or None)."""
        self._model.learn_one(math.nan if y is None else float(y), self._row(x))
        return self

    def forecast(self, horizon, xs=None):
        """A list of `horizon` forecasts; xs: one feature dict per step."""
        if xs is not None and len(xs) != horizon:
            raise ValueError(f"forecast: {len(xs)} rows of exogenous features for a horizon of {horizon}")
        rows = []
        if xs is not None and self._features is not None:
            for x in xs:
                rows.extend(self._row(x))
        return self._model.forecast(int(horizon), rows)

    def reset(self):
        self._model.reset()
        return self

    @property
    def n_samples_seen(self):
        return self._model.n_samples_seen

    @property
    def memory_bytes(self):
        return self._model.memory_bytes

    def settings(self):
        """Every setting's current value, as the CLI spells it."""
        return self._model.settings()

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self._init_kwargs().items())
        return f"{type(self).__name__}({args})"

    def _init_kwargs(self):
        return dict(self._settings)

    def __getstate__(self):
        return {"kwargs": self._init_kwargs(), "checkpoint": self._model.encode(), "features": self._features}

    def __setstate__(self, state):
        type(self).__init__(self, **state["kwargs"])
        self._model = _core.Forecaster.decode(state["checkpoint"])
        self._features = state["features"]


class HoltWinters(Forecaster):
    """Holt-Winters exponential smoothing (River's time_series.HoltWinters).

    alpha, beta, gamma: level, trend and seasonal smoothing; beta=None drops
    the trend, gamma=None (or seasonality=0) the season. seasonality: the
    period m. multiplicative: a multiplicative season. phi: trend damping
    (1 = none). Starts from the first two seasons (see the C++ header).
    """

    _model_name = "holt_winters"

    def __init__(self, alpha=0.2, beta=0.05, gamma=0.1, seasonality=0, multiplicative=False, phi=1.0):
        self._river = dict(alpha=alpha, beta=beta, gamma=gamma, seasonality=seasonality,
                           multiplicative=multiplicative, phi=phi)
        settings = dict(alpha=alpha, phi=phi, multiplicative=multiplicative)
        if beta is None:
            settings["trend"] = False
        else:
            settings["beta"] = beta
        if gamma is not None and seasonality:
            settings["gamma"] = gamma
            settings["seasonality"] = seasonality
        elif multiplicative:
            raise ValueError("HoltWinters: multiplicative needs a season (gamma and seasonality)")
        super().__init__(**settings)

    def _init_kwargs(self):
        return dict(self._river)


class SNARIMAX(Forecaster):
    """Seasonal ARIMA with exogenous inputs, trained online (River's
    time_series.SNARIMAX): orders p, d, q, season m, seasonal orders sp, sd,
    sq. The regressor is the library's linear model, trained by recursive
    least squares (rls=True, the default) or by a gradient step (rls=False:
    NLMS or SGD, learning_rate and normalize), or, as in River, `regressor`:
    one of irithyll's regressors, or a Pipeline of StandardScaler steps and
    one (or the text `--model` takes), fed the lags and exogenous features."""

    _model_name = "snarimax"

    def __init__(self, p, d, q, m=1, sp=0, sd=0, sq=0, regressor=None, learning_rate=0.02, normalize=True,
                 rls=True):
        from ._learners import _model_spec
        settings = dict(p=p, d=d, q=q, m=m, sp=sp, sd=sd, sq=sq, learning_rate=learning_rate, normalize=normalize,
                        rls=rls)
        if regressor is not None and regressor != "":
            settings["regressor"] = _model_spec(regressor)
        super().__init__(**settings)


def iter_evaluate(dataset, model, horizon):
    """For each step t of dataset (pairs (x, y), x a dict or None), forecasts
    steps t..t+horizon-1 (with their x), then learns (y_t, x_t); yields
    (t, forecasts, actuals) where actuals may be shorter near the end."""
    window = []
    it = iter(dataset)
    done = False

    def refill():
        nonlocal done
        while not done and len(window) < horizon:
            try:
                window.append(next(it))
            except StopIteration:
                done = True

    refill()
    t = 0
    while window:
        xs = [x for x, _ in window] if window[0][0] is not None else None
        if xs is not None and len(xs) < horizon:
            forecasts = model.forecast(len(xs), xs)
        else:
            forecasts = model.forecast(horizon if xs is None else len(xs), xs)
        yield t, forecasts, [y for _, y in window]
        x, y = window.pop(0)
        model.learn_one(y, x)
        t += 1
        refill()


def evaluate(dataset, model, horizon):
    """MAE, RMSE and SMAPE (percent) per horizon step, as
    `irithyll forecast --json` reports them: {"mae_by_horizon": [...], ...}."""
    n = [0] * horizon
    abs_sum, sq_sum, smape_sum = [0.0] * horizon, [0.0] * horizon, [0.0] * horizon
    for _, forecasts, actuals in iter_evaluate(dataset, model, horizon):
        for h, (f, y) in enumerate(zip(forecasts, actuals)):
            if y is None or not math.isfinite(y):
                continue
            err = abs(y - f)
            denom = abs(y) + abs(f)
            n[h] += 1
            abs_sum[h] += err
            sq_sum[h] += err * err
            smape_sum[h] += 2.0 * err / denom if denom > 0 else (0.0 if err == 0 else math.nan)
    nan = math.nan
    return {"mae_by_horizon": [a / c if c else nan for a, c in zip(abs_sum, n)],
            "rmse_by_horizon": [math.sqrt(s / c) if c else nan for s, c in zip(sq_sum, n)],
            "smape_by_horizon": [100.0 * s / c if c else nan for s, c in zip(smape_sum, n)]}


def decompose(y, period, multiplicative=False):
    """Classical seasonal decomposition of a window: (trend, seasonal, resid)
    lists, trend NaN at the ends (statsmodels' seasonal_decompose)."""
    return _core.decompose([float(v) for v in y], int(period), bool(multiplicative))
