"""irithyll.time_series: River's forecasting API over the C++ forecasters."""
import json
import math
import os
import pickle
import subprocess

import pytest

from irithyll import time_series

from conftest import need_module


def seasonal_line(n, m=4, pattern=(3.0, -1.0, -4.0, 2.0)):
    return [100.0 + 0.5 * (t + 1) + pattern[t % m] for t in range(n)]


def test_holt_winters_learns_a_seasonal_line_exactly():
    model = time_series.HoltWinters(alpha=0.3, beta=0.1, gamma=0.2, seasonality=4)
    for y in seasonal_line(40):
        model.learn_one(y)
    want = seasonal_line(48)[40:]
    assert model.forecast(horizon=8) == pytest.approx(want, abs=1e-9)
    assert model.n_samples_seen == 40


def test_holt_winters_river_names():
    no_trend = time_series.HoltWinters(alpha=0.5, beta=None)  # River: beta=None, no trend
    assert no_trend.settings()["trend"] == "off"
    assert "seasonality" in repr(time_series.HoltWinters(alpha=0.5, seasonality=12, multiplicative=True))
    with pytest.raises(ValueError, match="alpha"):
        time_series.HoltWinters(alpha=2.0)
    with pytest.raises(ValueError, match="season"):
        time_series.HoltWinters(alpha=0.5, multiplicative=True)
    names = {f["python_name"] for f in time_series.describe("holt_winters")["fields"]}
    assert {"alpha", "beta", "gamma", "phi", "seasonality", "multiplicative"} <= names


def test_snarimax_with_exogenous_dicts():
    model = time_series.SNARIMAX(p=2, d=1, q=1, m=4, sd=1, learning_rate=0.05)
    for t in range(200):
        x = {"promo": float(t % 3 == 0)}
        model.learn_one(50.0 + 0.3 * t + 2.0 * x["promo"] + (t % 4), x)
    xs = [{"promo": float((200 + h) % 3 == 0)} for h in range(5)]
    out = model.forecast(5, xs)
    assert len(out) == 5 and all(math.isfinite(v) for v in out)
    with pytest.raises(ValueError):
        model.forecast(5, xs[:2])
    with pytest.raises(TypeError, match="StandardScaler or one of irithyll's learners"):
        time_series.SNARIMAX(1, 0, 0, regressor=object())
    with pytest.raises(TypeError):
        time_series.SNARIMAX(1, 0, 0, nonsense=1)


def test_snarimax_defaults_to_recursive_least_squares():
    assert time_series.SNARIMAX(1, 0, 0).settings()["rls"] == "on"
    assert time_series.SNARIMAX(1, 0, 0, rls=False).settings()["rls"] == "off"
    default = next(f for f in time_series.describe("snarimax")["fields"] if f["python_name"] == "rls")
    assert default["default"] == "on"


def test_missing_values_are_skipped():
    model = time_series.HoltWinters(alpha=0.3, seasonality=4)
    for t, y in enumerate(seasonal_line(30)):
        model.learn_one(None if t % 7 == 3 else y)
    assert model.n_samples_seen == 26
    assert all(math.isfinite(v) for v in model.forecast(3))


@pytest.mark.parametrize("make", [
    lambda: time_series.HoltWinters(alpha=0.4, beta=0.1, gamma=0.3, seasonality=5, multiplicative=True, phi=0.9),
    lambda: time_series.SNARIMAX(p=2, d=1, q=1, m=5, sp=1, sq=1),
])
def test_pickle_resumes_bit_identically(make):
    a = make()
    series = [20.0 + 0.1 * t + 3.0 * math.sin(1.3 * t) + t % 5 for t in range(120)]
    for y in series[:37]:
        a.learn_one(y)
    b = pickle.loads(pickle.dumps(a))
    assert repr(b) == repr(a)
    for y in series[37:]:
        assert a.forecast(6) == b.forecast(6)
        a.learn_one(y)
        b.learn_one(y)
    assert a.n_samples_seen == b.n_samples_seen


def test_evaluate_matches_the_cli(tmp_path):
    cli = os.environ.get("IRITHYLL_CLI")
    if not cli or not os.path.exists(cli):
        pytest.skip("the irithyll CLI binary is not known (set IRITHYLL_CLI; CTest does)")
    series = [100.0 + 0.4 * t + 8.0 * math.sin(2 * math.pi * t / 6) + (t * 7919 % 13) / 5.0 for t in range(150)]
    path = tmp_path / "s.csv"
    path.write_text("y\n" + "".join(f"{v!r}\n" for v in series))
    out = subprocess.run([cli, "forecast", "--data", str(path), "--target", "y", "--horizon", "3", "--period", "6",
                          "--json"], check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    ours = time_series.evaluate([(None, y) for y in series], time_series.HoltWinters(seasonality=6), horizon=3)
    for key in ("mae_by_horizon", "rmse_by_horizon", "smape_by_horizon"):
        assert ours[key] == pytest.approx(report[key], rel=1e-12)


def test_decompose_matches_statsmodels():
    np = need_module("numpy", "python3-numpy")
    seasonal = need_module("statsmodels.tsa.seasonal", "python3-statsmodels")
    y = [100.0 + 0.5 * t + 10.0 * math.sin(2 * math.pi * t / 12) + (t * 31 % 7) for t in range(72)]
    for mul in (False, True):
        trend, season, resid = time_series.decompose(y, 12, multiplicative=mul)
        ref = seasonal.seasonal_decompose(np.array(y), model="multiplicative" if mul else "additive", period=12)
        assert np.allclose(trend, ref.trend, rtol=1e-12, equal_nan=True)
        assert np.allclose(season, ref.seasonal, rtol=1e-12)
        assert np.allclose(resid, ref.resid, rtol=1e-12, equal_nan=True)
    with pytest.raises(ValueError, match="shorter than 2 periods"):
        time_series.decompose(y[:20], 12)


def test_snarimax_takes_a_regressor_as_river_does():
    """regressor=: one of our regressors (or StandardScaler | one) learns the
    lag and exogenous features in place of the built-in linear model; the
    model pickles with it, and a classifier is refused."""
    from irithyll import linear_model, preprocessing
    model = time_series.SNARIMAX(p=2, d=0, q=0, m=4, sp=1,
                                 regressor=preprocessing.StandardScaler() | linear_model.LinearRegression(
                                     learning_rate=0.05, intercept_lr=0.3))
    assert model.settings()["regressor"] == \
        "standard_scaler|linear_regression(standardize=off;learning-rate=0.05;intercept-lr=0.3)"
    series = [10.0 + 3.0 * math.sin(t * math.pi / 2) + 0.05 * t for t in range(400)]
    errors = []
    for t, y in enumerate(series):
        x = {"trend": t / 400.0}
        f = model.forecast(1, [x])[0]
        errors.append(abs(f - y))
        model.learn_one(y, x)
    # A seasonal series the lags explain: the last 100 one-step errors are a
    # fraction of the series' own spread (sd ~2.2).
    assert sum(errors[-100:]) / 100 < 0.5
    again = pickle.loads(pickle.dumps(model))
    x = {"trend": 1.0}
    assert again.forecast(3, [x] * 3) == model.forecast(3, [x] * 3)
    with pytest.raises(ValueError, match="not a regressor|does not support regression"):
        time_series.SNARIMAX(1, 0, 0, regressor=linear_model.LogisticRegression())
