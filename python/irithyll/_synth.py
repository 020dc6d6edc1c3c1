"""Synthetic streams with River's names and parameters (datasets.synth).

Each is an endless iterable of (x, y); take(k) gives the first k samples.
Features are keyed 0..d-1 (Agrawal: by name), as in River. Deterministic
given seed (Python's random.Random; seed=None draws a fresh one).
"""
import itertools
import math
import random

__all__ = ["Agrawal", "Friedman", "Hyperplane", "RandomRBF", "SEA"]


class _Synth:
    n_features = 0
    task = "Binary classification"

    def take(self, k):
        return itertools.islice(iter(self), k)

    def __repr__(self):
        shown = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"{type(self).__name__}({shown})"


class SEA(_Synth):
    """SEA concepts (Street and Kim, 2001): three features uniform in
    [0, 10); y = x0 + x1 <= threshold, the threshold 8, 9, 7 or 9.5 by
    variant 0..3; noise flips each label with that probability."""
    n_features = 3
    _THRESHOLDS = (8.0, 9.0, 7.0, 9.5)

    def __init__(self, variant=0, noise=0.0, seed=None):
        if variant not in range(4):
            raise ValueError(f"SEA: variant = {variant!r} is out of range: 0, 1, 2 or 3")
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"SEA: noise = {noise!r} is out of range [0, 1]")
        self.variant, self.noise, self.seed = variant, noise, seed
        self._params = {"variant": variant, "noise": noise, "seed": seed}

    def __iter__(self):
        rng = random.Random(self.seed)
        threshold = self._THRESHOLDS[self.variant]
        while True:
            x = {i: 10.0 * rng.random() for i in range(3)}
            y = x[0] + x[1] <= threshold
            if self.noise and rng.random() < self.noise:
                y = not y
            yield x, y


class Friedman(_Synth):
    """Friedman #1 (Friedman, 1991): ten features uniform in [0, 1); y =
    10 sin(pi x0 x1) + 20 (x2 - 0.5)^2 + 10 x3 + 5 x4 + N(0, 1); x5..x9 are noise."""
    n_features = 10
    task = "Regression"

    def __init__(self, seed=None):
        self.seed = seed
        self._params = {"seed": seed}

    def __iter__(self):
        rng = random.Random(self.seed)
        while True:
            x = {i: rng.random() for i in range(10)}
            y = (10.0 * math.sin(math.pi * x[0] * x[1]) + 20.0 * (x[2] - 0.5) ** 2 + 10.0 * x[3] + 5.0 * x[4]
                 + rng.gauss(0.0, 1.0))
            yield x, y


class Hyperplane(_Synth):
    """Rotating hyperplane (Hulten et al., 2001): x uniform in [0, 1)^d,
    y = sum(w x) >= sum(w) / 2, labels flipped with noise_percentage. The
    first n_drift_features weights move by mag_change per sample, each
    reversing direction with probability sigma."""

    def __init__(self, seed=None, n_features=10, n_drift_features=2, mag_change=0.0, noise_percentage=0.05,
                 sigma=0.1):
        if n_features < 2 or not 0 <= n_drift_features <= n_features:
            raise ValueError("Hyperplane: need n_features >= 2 and 0 <= n_drift_features <= n_features")
        if not 0.0 <= noise_percentage <= 1.0 or not 0.0 <= sigma <= 1.0 or not 0.0 <= mag_change <= 1.0:
            raise ValueError("Hyperplane: noise_percentage, sigma and mag_change must lie in [0, 1]")
        self.seed, self.n_features, self.n_drift_features = seed, n_features, n_drift_features
        self.mag_change, self.noise_percentage, self.sigma = mag_change, noise_percentage, sigma
        self._params = {"seed": seed, "n_features": n_features, "n_drift_features": n_drift_features,
                        "mag_change": mag_change, "noise_percentage": noise_percentage, "sigma": sigma}

    def __iter__(self):
        rng = random.Random(self.seed)
        d = self.n_features
        w = [rng.random() for _ in range(d)]
        direction = [1.0] * d
        while True:
            x = {i: rng.random() for i in range(d)}
            total = sum(w)
            y = int(sum(w[i] * x[i] for i in range(d)) >= total / 2.0)
            if self.noise_percentage and rng.random() < self.noise_percentage:
                y = 1 - y
            yield x, y
            for i in range(self.n_drift_features):
                w[i] += direction[i] * self.mag_change
                if rng.random() < self.sigma:
                    direction[i] = -direction[i]


def _in(v, lo, hi):
    return lo <= v <= hi


def _agrawal_functions():
    """The ten functions of Agrawal et al. (1993); each returns True for group A."""
    def f0(s, c, age, e, car, z, hv, hy, loan):
        return age < 40 or age >= 60

    def f1(s, c, age, e, car, z, hv, hy, loan):
        return ((age < 40 and _in(s, 50e3, 100e3)) or (40 <= age < 60 and _in(s, 75e3, 125e3))
                or (age >= 60 and _in(s, 25e3, 75e3)))

    def f2(s, c, age, e, car, z, hv, hy, loan):
        return (age < 40 and e in (0, 1)) or (40 <= age < 60 and e in (1, 2, 3)) or (age >= 60 and e in (2, 3, 4))

    def f3(s, c, age, e, car, z, hv, hy, loan):
        if age < 40:
            return _in(s, 25e3, 75e3) if e in (0, 1) else _in(s, 50e3, 100e3)
        if age < 60:
            return _in(s, 50e3, 100e3) if e in (1, 2, 3) else _in(s, 75e3, 125e3)
        return _in(s, 50e3, 100e3) if e in (2, 3, 4) else _in(s, 25e3, 75e3)

    def f4(s, c, age, e, car, z, hv, hy, loan):
        if age < 40:
            return _in(loan, 100e3, 300e3) if _in(s, 50e3, 100e3) else _in(loan, 200e3, 400e3)
        if age < 60:
            return _in(loan, 200e3, 400e3) if _in(s, 75e3, 125e3) else _in(loan, 300e3, 500e3)
        return _in(loan, 300e3, 500e3) if _in(s, 25e3, 75e3) else _in(loan, 100e3, 300e3)

    def f5(s, c, age, e, car, z, hv, hy, loan):
        t = s + c
        return ((age < 40 and _in(t, 50e3, 100e3)) or (40 <= age < 60 and _in(t, 75e3, 125e3))
                or (age >= 60 and _in(t, 25e3, 75e3)))

    def f6(s, c, age, e, car, z, hv, hy, loan):
        return 2.0 * (s + c) / 3.0 - loan / 5.0 - 20e3 > 0

    def f7(s, c, age, e, car, z, hv, hy, loan):
        return 2.0 * (s + c) / 3.0 - 5e3 * e - 20e3 > 0

    def f8(s, c, age, e, car, z, hv, hy, loan):
        return 2.0 * (s + c) / 3.0 - 5e3 * e - loan / 5.0 - 10e3 > 0

    def f9(s, c, age, e, car, z, hv, hy, loan):
        equity = hv * (hy - 20) / 10.0 if hy >= 20 else 0.0
        return 2.0 * (s + c) / 3.0 - 5e3 * e + equity / 5.0 - 10e3 > 0

    return (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9)


class Agrawal(_Synth):
    """Agrawal et al. (1993) loan applications: salary, commission, age,
    elevel, car, zipcode, hvalue, hyears, loan; y = 1 for group A of
    classification_function 0..9. balance_classes alternates the classes;
    perturbation (0..1) adds that share of each numeric range as noise."""
    n_features = 9

    def __init__(self, classification_function=0, seed=None, balance_classes=False, perturbation=0.0):
        if classification_function not in range(10):
            raise ValueError(f"Agrawal: classification_function = {classification_function!r} is out of range 0..9")
        if not 0.0 <= perturbation <= 1.0:
            raise ValueError(f"Agrawal: perturbation = {perturbation!r} is out of range [0, 1]")
        self.classification_function, self.seed = classification_function, seed
        self.balance_classes, self.perturbation = balance_classes, perturbation
        self._params = {"classification_function": classification_function, "seed": seed,
                        "balance_classes": balance_classes, "perturbation": perturbation}

    def _perturb(self, rng, v, lo, hi):
        if not self.perturbation:
            return v
        v += (hi - lo) * self.perturbation * (2.0 * rng.random() - 1.0)
        return min(max(v, lo), hi)

    def __iter__(self):
        rng = random.Random(self.seed)
        function = _agrawal_functions()[self.classification_function]
        want = False
        while True:
            while True:
                salary = 20e3 + 130e3 * rng.random()
                commission = 0.0 if salary >= 75e3 else 10e3 + 65e3 * rng.random()
                age = rng.randint(20, 80)
                elevel = rng.randint(0, 4)
                car = rng.randint(1, 20)
                zipcode = rng.randint(0, 8)
                hvalue = (9 - zipcode) * 100e3 * (0.5 + rng.random())
                hyears = rng.randint(1, 30)
                loan = 500e3 * rng.random()
                y = int(function(salary, commission, age, elevel, car, zipcode, hvalue, hyears, loan))
                if not self.balance_classes or y == int(want):
                    break
            want = not want
            x = {"salary": self._perturb(rng, salary, 20e3, 150e3),
                 "commission": self._perturb(rng, commission, 0.0, 75e3) if commission else 0.0,
                 "age": int(round(self._perturb(rng, age, 20, 80))), "elevel": elevel, "car": car,
                 "zipcode": zipcode, "hvalue": self._perturb(rng, hvalue, 0.0, 1.35e6),
                 "hyears": int(round(self._perturb(rng, hyears, 1, 30))),
                 "loan": self._perturb(rng, loan, 0.0, 500e3)}
            yield x, y


class RandomRBF(_Synth):
    """Random radial basis functions: n_centroids centres in [0, 1)^d, each
    with a class, a spread and a weight (drawn with seed_model); a sample
    picks a centre by weight and lies in a Gaussian-length random direction
    from it (drawn with seed_sample)."""

    def __init__(self, seed_model=None, seed_sample=None, n_classes=2, n_features=10, n_centroids=50):
        if n_classes < 2 or n_features < 1 or n_centroids < 1:
            raise ValueError("RandomRBF: need n_classes >= 2, n_features >= 1, n_centroids >= 1")
        self.seed_model, self.seed_sample = seed_model, seed_sample
        self.n_classes, self.n_features, self.n_centroids = n_classes, n_features, n_centroids
        self.task = "Binary classification" if n_classes == 2 else "Multi-class classification"
        self._params = {"seed_model": seed_model, "seed_sample": seed_sample, "n_classes": n_classes,
                        "n_features": n_features, "n_centroids": n_centroids}

    def __iter__(self):
        model = random.Random(self.seed_model)
        d = self.n_features
        centres = [([model.random() for _ in range(d)], model.randrange(self.n_classes), model.random(),
                    model.random()) for _ in range(self.n_centroids)]
        weights = [c[3] for c in centres]
        rng = random.Random(self.seed_sample)
        while True:
            centre, label, spread, _ = rng.choices(centres, weights=weights)[0]
            direction = [rng.uniform(-1.0, 1.0) for _ in range(d)]
            norm = math.sqrt(sum(v * v for v in direction)) or 1.0
            length = rng.gauss(0.0, 1.0) * spread
            yield {i: centre[i] + direction[i] / norm * length for i in range(d)}, label
