"""Synthetic streams with River's names and parameters (datasets.synth).

Each is an endless iterable of (x, y); take(k) gives the first k samples.
Features are keyed 0..d-1 (Agrawal: by name), as in River. Deterministic
given seed (Python's random.Random; seed=None draws a fresh one).
"""
import itertools
import math
import random

__all__ = ["Agrawal", "ConceptDriftStream", "Friedman", "FriedmanDrift", "Hyperplane", "LED", "LEDDrift", "Mixed",
           "RandomRBF", "RandomRBFDrift", "SEA", "STAGGER", "Sine", "Waveform"]


class _Synth:
    n_features = 0
    task = "Binary classification"

    def take(self, k):
        return itertools.islice(iter(self), k)

    def __repr__(self):
        shown = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"{type(self).__name__}({shown})"

    def _keep(self, **params):
        """Keeps the constructor's parameters as attributes and, in order, for repr."""
        self.__dict__.update(params)
        self._params = {**getattr(self, "_params", {}), **params}


class SEA(_Synth):
    """SEA concepts (Street and Kim, 2001): three features uniform in
    [0, 10); y = x0 + x1 > threshold (True above the line, as in River and
    MOA), the threshold 8, 9, 7 or 9.5 by variant 0..3; noise flips each
    label with that probability."""
    n_features = 3
    _THRESHOLDS = (8.0, 9.0, 7.0, 9.5)

    def __init__(self, variant=0, noise=0.0, seed=None):
        if variant not in range(4):
            raise ValueError(f"SEA: variant = {variant!r} is out of range: 0, 1, 2 or 3")
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"SEA: noise = {noise!r} is out of range [0, 1]")
        self._keep(variant=variant, noise=noise, seed=seed)

    def __iter__(self):
        rng = random.Random(self.seed)
        threshold = self._THRESHOLDS[self.variant]
        while True:
            x = {i: 10.0 * rng.random() for i in range(3)}
            y = x[0] + x[1] > threshold
            if self.noise and rng.random() < self.noise:
                y = not y
            yield x, y


class Friedman(_Synth):
    """Friedman #1 (Friedman, 1991): ten features uniform in [0, 1); y =
    10 sin(pi x0 x1) + 20 (x2 - 0.5)^2 + 10 x3 + 5 x4 + N(0, 1); x5..x9 are noise."""
    n_features = 10
    task = "Regression"

    def __init__(self, seed=None):
        self._keep(seed=seed)

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
        self._keep(seed=seed, n_features=n_features, n_drift_features=n_drift_features, mag_change=mag_change,
                   noise_percentage=noise_percentage, sigma=sigma)

    def __iter__(self):
        rng = random.Random(self.seed)
        d = self.n_features
        w = [rng.random() for _ in range(d)]
        direction = [1.0] * d
        # River's draws: a noise draw every sample, and the 0.01 offsets of
        # its noise and reversal tests, so a seed gives River's samples.
        while True:
            x = {i: rng.random() for i in range(d)}
            total, value = sum(w), 0.0
            for i in range(d):
                value += w[i] * x[i]
            y = int(value >= total * 0.5)
            if 0.01 + rng.random() <= self.noise_percentage:
                y = 1 - y
            yield x, y
            for i in range(self.n_drift_features):
                w[i] += direction[i] * self.mag_change
                if 0.01 + rng.random() <= self.sigma:
                    direction[i] = -direction[i]


def _in(v, lo, hi):
    return lo <= v <= hi


def _agrawal_functions():
    """The ten functions of Agrawal et al. (1993), labelled as River labels
    them: 1 for group A of functions 0-5, and for functions 6-9 1 where the
    disposable income is at most 1. Function 4 tests the loan as the paper
    does (River's tests the salary against loan ranges in three branches,
    which makes those branches constant)."""
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
        return 2.0 * (s + c) / 3.0 - loan / 5.0 - 20e3 <= 1

    def f7(s, c, age, e, car, z, hv, hy, loan):
        return 2.0 * (s + c) / 3.0 - 5e3 * e - 20e3 <= 1

    def f8(s, c, age, e, car, z, hv, hy, loan):
        return 2.0 * (s + c) / 3.0 - 5e3 * e - loan / 5.0 - 10e3 <= 1

    def f9(s, c, age, e, car, z, hv, hy, loan):
        equity = hv * (hy - 20) / 10.0 if hy >= 20 else 0.0
        return 2.0 * (s + c) / 3.0 - 5e3 * e + equity / 5.0 - 10e3 <= 1

    return (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9)


class Agrawal(_Synth):
    """Agrawal et al. (1993) loan applications: salary, commission, age,
    elevel, car, zipcode, hvalue, hyears, loan, drawn as River draws them
    (the same samples for the same seed: commission 10k + 75k u below a
    salary of 75k, else 0; hvalue (8 - zipcode) 100k (0.5 + u)); y as River
    labels classification_function 0..9. balance_classes alternates the
    classes, 1 first; perturbation (0..1) adds that share of each numeric
    range as noise (hvalue's range is 0..1.35M)."""
    n_features = 9

    def __init__(self, classification_function=0, seed=None, balance_classes=False, perturbation=0.0):
        if classification_function not in range(10):
            raise ValueError(f"Agrawal: classification_function = {classification_function!r} is out of range 0..9")
        if not 0.0 <= perturbation <= 1.0:
            raise ValueError(f"Agrawal: perturbation = {perturbation!r} is out of range [0, 1]")
        self._keep(classification_function=classification_function, seed=seed, balance_classes=balance_classes,
                   perturbation=perturbation)

    def _perturb(self, rng, v, lo, hi):
        if not self.perturbation:
            return v
        v += (hi - lo) * self.perturbation * (2.0 * rng.random() - 1.0)
        return min(max(v, lo), hi)

    def __iter__(self):
        rng = random.Random(self.seed)
        function = _agrawal_functions()[self.classification_function]

        def draw():
            salary = 20e3 + 130e3 * rng.random()
            commission = 0 if salary >= 75e3 else 10e3 + 75e3 * rng.random()
            age = rng.randint(20, 80)
            elevel = rng.randint(0, 4)
            car = rng.randint(1, 20)
            zipcode = rng.randint(0, 8)
            hvalue = (8 - zipcode) * 100e3 * (0.5 + rng.random())
            hyears = rng.randint(1, 30)
            loan = 500e3 * rng.random()
            values = (salary, commission, age, elevel, car, zipcode, hvalue, hyears, loan)
            return values, int(function(*values))

        # The perturbation's draws follow the accepted sample's, as River's do.
        for (salary, commission, age, elevel, car, zipcode, hvalue, hyears, loan), y in _balanced(
                draw, self.balance_classes):
            x = {"salary": self._perturb(rng, salary, 20e3, 150e3),
                 "commission": self._perturb(rng, commission, 10e3, 75e3) if commission else 0,
                 "age": int(round(self._perturb(rng, age, 20, 80))), "elevel": elevel, "car": car,
                 "zipcode": zipcode, "hvalue": self._perturb(rng, hvalue, 0.0, 1.35e6),
                 "hyears": int(round(self._perturb(rng, hyears, 1, 30))),
                 "loan": self._perturb(rng, loan, 0.0, 500e3)}
            yield x, y


class RandomRBF(_Synth):
    """Random radial basis functions: n_centroids centres in [0, 1)^d, each
    with a class, a spread and a weight (drawn with seed_model); a sample
    picks a centre by weight and lies in a Gaussian-length random direction
    from it (drawn with seed_sample). The draws and their arithmetic are
    River's, so a seed gives River's samples."""

    def __init__(self, seed_model=None, seed_sample=None, n_classes=2, n_features=10, n_centroids=50):
        if n_classes < 2 or n_features < 1 or n_centroids < 1:
            raise ValueError("RandomRBF: need n_classes >= 2, n_features >= 1, n_centroids >= 1")
        self._keep(seed_model=seed_model, seed_sample=seed_sample, n_classes=n_classes, n_features=n_features,
                   n_centroids=n_centroids)
        self.task = "Binary classification" if n_classes == 2 else "Multi-class classification"

    def _centroids(self):
        """[centre, class, spread] per centroid, and the weights."""
        model = random.Random(self.seed_model)
        centres, weights = [], []
        for _ in range(self.n_centroids):
            centre = [model.random() for _ in range(self.n_features)]
            centres.append([centre, model.randint(0, self.n_classes - 1), model.random()])
            weights.append(model.random())
        return centres, weights

    def _moves(self, centres):
        return None

    def __iter__(self):
        centres, weights = self._centroids()
        total = sum(weights)
        move = self._moves(centres)
        rng = random.Random(self.seed_sample)
        d = self.n_features
        while True:
            if move is not None:
                move()
            # The first centre whose running weight passes u * total.
            u, acc, k = rng.random() * total, 0.0, 0
            while acc <= u and k < len(weights):
                acc += weights[k]
                k += 1
            centre, label, spread = centres[k - 1]
            direction = [rng.random() * 2.0 - 1.0 for _ in range(d)]
            length = 0.0
            for v in direction:
                length += v * v
            scale = rng.gauss(0, 1) * spread / length ** 0.5
            yield {i: centre[i] + direction[i] * scale for i in range(d)}, label

def _balanced(draw, balance):
    """The draws of draw() -> (sample, y); with balance, the labels alternate
    1, 0, 1, ... (draws with the wrong label are discarded), as River's
    balance_classes does."""
    want = 1
    while True:
        x, y = draw()
        if balance:
            if int(y) != want:
                continue
            want = 1 - want
        yield x, y


def _check_function(name, value, n):
    if value not in range(n):
        raise ValueError(f"{name}: classification_function = {value!r} is out of range 0..{n - 1}")


class RandomRBFDrift(RandomRBF):
    """RandomRBF whose first n_drift_centroids centres move change_speed per
    sample along a unit direction, bouncing off the faces of the unit cube.
    The directions are drawn as River draws them (a second generator seeded
    with seed_model), so a seed gives River's samples."""

    def __init__(self, seed_model=None, seed_sample=None, n_classes=2, n_features=10, n_centroids=50,
                 change_speed=0.0, n_drift_centroids=50):
        super().__init__(seed_model, seed_sample, n_classes, n_features, n_centroids)
        if not 0 <= n_drift_centroids <= n_centroids:
            raise ValueError(f"RandomRBFDrift: n_drift_centroids = {n_drift_centroids!r} must lie in 0..n_centroids "
                             f"({n_centroids})")
        if change_speed < 0:
            raise ValueError(f"RandomRBFDrift: change_speed = {change_speed!r} must be >= 0")
        self._keep(change_speed=change_speed, n_drift_centroids=n_drift_centroids)

    def _moves(self, centres):
        model = random.Random(self.seed_model)
        speeds = []
        for _ in range(self.n_drift_centroids):
            v = [model.random() for _ in range(self.n_features)]
            norm = 0.0
            for a in v:
                norm += a * a
            norm = norm ** 0.5
            speeds.append([a / norm for a in v])
        step = self.change_speed

        def move():
            for c, v in zip(centres, speeds):
                pos = c[0]
                for j in range(len(pos)):
                    pos[j] += v[j] * step
                    if pos[j] > 1 or pos[j] < 0:
                        pos[j] = 1 if pos[j] > 1 else 0
                        v[j] = -v[j]
        return move

def _friedman_base(x):
    return 10.0 * math.sin(math.pi * x[0] * x[1]) + 20.0 * (x[2] - 0.5) ** 2 + 10.0 * x[3] + 5.0 * x[4]


class FriedmanDrift(Friedman):
    """Friedman #1 with drift (Ikonomovska, Gama and Dzeroski, 2011,
    "Learning model trees from evolving data streams"), N(0, 1) noise:

    - 'lea' (local expanding abrupt): from position[0], two regions of the
      input space follow other functions; they widen at position[1] and
      position[2] (three positions);
    - 'gra' (global recurring abrupt): from position[0] the relevant
      features trade places everywhere; from position[1] the first concept
      returns (two positions);
    - 'gsg' (global slow gradual): a new function from position[0] and
      another from position[1]; for transition_window samples after each,
      a sample follows the old or the new function with probability 1/2."""

    def __init__(self, drift_type="lea", position=(50_000, 100_000, 150_000), transition_window=10_000, seed=None):
        super().__init__(seed=seed)
        if drift_type not in ("lea", "gra", "gsg"):
            raise ValueError(f"FriedmanDrift: drift_type = {drift_type!r}: expected 'lea', 'gra' or 'gsg'")
        position = tuple(position)
        need = 3 if drift_type == "lea" else 2  # gra and gsg ignore a third (the default has three)
        if len(position) not in (need, 3):
            raise ValueError(f"FriedmanDrift: drift_type {drift_type!r} takes {need} positions, got {len(position)}")
        if any(b <= a for a, b in zip(position, position[1:])):
            raise ValueError(f"FriedmanDrift: position = {position!r} must increase")
        if transition_window < 0 or (drift_type == "gsg" and transition_window > position[1] - position[0]):
            raise ValueError(f"FriedmanDrift: transition_window = {transition_window!r} must lie in "
                             f"[0, position[1] - position[0]]")
        self._params = {}  # repr order: drift_type, position, transition_window, then the seed Friedman kept
        self._keep(drift_type=drift_type, position=position, transition_window=transition_window, seed=seed)

    def _stage(self, t):
        return sum(t >= p for p in self.position[:3 if self.drift_type == "lea" else 2])

    def _lea(self, x, stage):
        if stage > 0:
            # The regions are cut by fewer conditions at each change, so they grow.
            r1 = [x[1] < 0.3, x[2] < 0.3, x[3] > 0.7, x[4] < 0.3][:5 - stage]
            r2 = [x[1] > 0.7, x[2] > 0.7, x[3] < 0.3, x[4] > 0.7][:5 - stage]
            if all(r1):
                return 10.0 * x[0] * x[1] + 20.0 * (x[2] - 0.5) + 10.0 * x[3] + 5.0 * x[4]
            if all(r2):
                return 10.0 * math.cos(x[0] * x[1]) + 20.0 * (x[2] - 0.5) + math.exp(x[3]) + 5.0 * x[4] ** 2
        return _friedman_base(x)

    @staticmethod
    def _gsg(x, concept):
        if concept == 0:
            return _friedman_base(x)
        if concept == 1:
            return 10.0 * math.sin(math.pi * x[3] * x[4]) + 20.0 * (x[1] - 0.5) ** 2 + 10.0 * x[0] + 5.0 * x[2]
        return 10.0 * math.sin(math.pi * x[1] * x[4]) + 20.0 * (x[3] - 0.5) ** 2 + 10.0 * x[2] + 5.0 * x[0]

    def __iter__(self):
        rng = random.Random(self.seed)
        coin = random.Random(self.seed)
        t = 0
        while True:
            x = {i: rng.random() for i in range(10)}
            stage = self._stage(t)
            if self.drift_type == "lea":
                y = self._lea(x, stage)
            elif self.drift_type == "gra":
                y = (10.0 * math.sin(math.pi * x[3] * x[5]) + 20.0 * (x[1] - 0.5) ** 2 + 10.0 * x[0] + 5.0 * x[2]
                     if stage == 1 else _friedman_base(x))
            else:
                concept = stage
                if stage > 0 and t < self.position[stage - 1] + self.transition_window and coin.getrandbits(1):
                    concept = stage - 1
                y = self._gsg(x, concept)
            yield x, y + rng.gauss(0.0, 1.0)
            t += 1


class ConceptDriftStream(_Synth):
    """Joins two streams with a drift between them (Bifet et al., MOA): the
    t-th sample (t from 1) comes from drift_stream with probability
    1 / (1 + exp(-4 (t - position) / width)), else from stream. alpha, the
    angle of change in degrees (0, 90], sets width = max(1, int(1 / tan(alpha)))
    instead. Defaults: Agrawal(seed) drifting to Agrawal(seed,
    classification_function=2). Nesting gives several drifts."""

    def __init__(self, stream=None, drift_stream=None, position=5000, width=1000, seed=None, alpha=None):
        if stream is None:
            stream = Agrawal(seed=seed)
        if drift_stream is None:
            drift_stream = Agrawal(seed=seed, classification_function=2)
        if getattr(stream, "n_features", None) != getattr(drift_stream, "n_features", None):
            raise ValueError(f"ConceptDriftStream: stream has {getattr(stream, 'n_features', '?')} features, "
                             f"drift_stream {getattr(drift_stream, 'n_features', '?')}")
        if alpha is not None:
            if not 0.0 < alpha <= 90.0:
                raise ValueError(f"ConceptDriftStream: alpha = {alpha!r} is out of range (0, 90]")
            width = max(1, int(1.0 / math.tan(math.radians(alpha))))
        if width <= 0:
            raise ValueError(f"ConceptDriftStream: width = {width!r} must be > 0")
        self._keep(stream=stream, drift_stream=drift_stream, position=position, width=width, seed=seed, alpha=alpha)
        self.n_features, self.task = stream.n_features, stream.task

    def __iter__(self):
        rng = random.Random(self.seed)
        before, after = iter(self.stream), iter(self.drift_stream)
        t = 0
        while True:
            t += 1
            z = -4.0 * (t - self.position) / self.width
            p = 0.0 if z > 700.0 else 1.0 / (1.0 + math.exp(z))
            try:
                yield next(after if rng.random() <= p else before)
            except StopIteration:
                return


class STAGGER(_Synth):
    """STAGGER concepts (Schlimmer and Granger, 1986): size, color and shape,
    each coded 0..2 (small/medium/large, red/blue/green,
    circle/square/triangle); y = 1 for function 0: small and red; 1: green
    or circle; 2: medium or large."""
    n_features = 3

    def __init__(self, classification_function=0, seed=None, balance_classes=False):
        _check_function("STAGGER", classification_function, 3)
        self._keep(classification_function=classification_function, seed=seed, balance_classes=balance_classes)

    _FUNCTIONS = (lambda s, c, h: s == 0 and c == 0, lambda s, c, h: c == 2 or h == 0, lambda s, c, h: s in (1, 2))

    def __iter__(self):
        rng = random.Random(self.seed)
        function = self._FUNCTIONS[self.classification_function]

        def draw():
            size, color, shape = rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 2)
            return {"size": size, "color": color, "shape": shape}, int(function(size, color, shape))
        return _balanced(draw, self.balance_classes)


def _numpy_random(seed):
    """A random.Random that draws numpy's legacy RandomState(seed) stream:
    both are MT19937 with the same 53-bit doubles, and numpy seeds an
    integer with the generator's init_genrand (Python hashes it into
    init_by_array instead). For the generators River draws with numpy."""
    rng = random.Random()
    if seed is None:
        return rng
    if not isinstance(seed, int) or not 0 <= seed < 2 ** 32:
        raise ValueError(f"seed = {seed!r} is out of range: an integer in [0, 2**32)")
    state = [seed]
    for i in range(1, 624):
        prev = state[-1]
        state.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    rng.setstate((3, tuple(state) + (624,), None))
    return rng


class Sine(_Synth):
    """Sine concepts (Gama et al., 2004, "Learning with drift detection"):
    two features uniform in [0, 1); y = 0 above the curve, 1 below, for
    function 0: x0 >= sin(x1) (SINE1); 1: its reverse; 2: x0 >= 0.5 + 0.3
    sin(3 pi x1) (SINE2); 3: its reverse. has_noise adds two irrelevant
    uniform features. River draws this one with numpy's RandomState; so do
    we (see _numpy_random), so a seed gives River's samples."""

    def __init__(self, classification_function=0, seed=None, balance_classes=False, has_noise=False):
        _check_function("Sine", classification_function, 4)
        _numpy_random(seed)  # checks the seed
        self._keep(classification_function=classification_function, seed=seed, balance_classes=balance_classes,
                   has_noise=has_noise)
        self.n_features = 4 if has_noise else 2

    def __iter__(self):
        rng = _numpy_random(self.seed)
        f = self.classification_function

        def draw():
            a, b = rng.random(), rng.random()
            curve = math.sin(b) if f < 2 else 0.5 + 0.3 * math.sin(3.0 * math.pi * b)
            above = a >= curve
            return (a, b), int(not above) if f % 2 == 0 else int(above)

        # The noise features are drawn once a sample is accepted, as River draws them.
        for (a, b), y in _balanced(draw, self.balance_classes):
            x = {0: a, 1: b}
            if self.has_noise:
                x[2], x[3] = rng.random(), rng.random()
            yield x, y

class Mixed(_Synth):
    """Mixed concepts (Gama et al., 2004): booleans x0, x1 and x2, x3
    uniform in [0, 1); with z = x3 < 0.5 + 0.3 sin(3 pi x2), function 0
    gives y = 0 when two of x0, x1, z hold (else 1); function 1 the reverse."""
    n_features = 4

    def __init__(self, classification_function=0, seed=None, balance_classes=False):
        _check_function("Mixed", classification_function, 2)
        self._keep(classification_function=classification_function, seed=seed, balance_classes=balance_classes)

    def __iter__(self):
        rng = random.Random(self.seed)

        def draw():
            v, w, a, b = rng.random() >= 0.5, rng.random() >= 0.5, rng.random(), rng.random()
            z = b < 0.5 + 0.3 * math.sin(3.0 * math.pi * a)
            two = (v and w) or (v and z) or (w and z)
            return {0: v, 1: w, 2: a, 3: b}, int(two) if self.classification_function == 1 else int(not two)
        return _balanced(draw, self.balance_classes)


# Seven-segment codes of the digits 0..9 (segments top, upper left, upper
# right, middle, lower left, lower right, bottom).
_LED_SEGMENTS = ((1, 1, 1, 0, 1, 1, 1), (0, 0, 1, 0, 0, 1, 0), (1, 0, 1, 1, 1, 0, 1), (1, 0, 1, 1, 0, 1, 1),
                 (0, 1, 1, 1, 0, 1, 0), (1, 1, 0, 1, 0, 1, 1), (1, 1, 0, 1, 1, 1, 1), (1, 0, 1, 0, 0, 1, 0),
                 (1, 1, 1, 1, 1, 1, 1), (1, 1, 1, 1, 0, 1, 1))


class LED(_Synth):
    """LED digits (Breiman et al., 1984): y is a digit 0..9, the seven
    features its display segments (0/1), each flipped when 0.01 + u <=
    noise_percentage (River's test); irrelevant_features adds 17 random 0/1
    features (24 in all). Drawn as River draws them: a seed gives River's
    samples."""
    task = "Multi-class classification"

    def __init__(self, seed=None, noise_percentage=0.0, irrelevant_features=False):
        if not 0.0 <= noise_percentage <= 1.0:
            raise ValueError(f"{type(self).__name__}: noise_percentage = {noise_percentage!r} is out of range [0, 1]")
        self._keep(seed=seed, noise_percentage=noise_percentage, irrelevant_features=irrelevant_features)
        self.n_features = 24 if irrelevant_features else 7

    def _positions(self, rng):
        """The feature each of the 24 columns is written to."""
        return list(range(24))

    def __iter__(self):
        rng = random.Random(self.seed)
        where = self._positions(rng)
        while True:
            y = rng.randint(0, 9)
            x = dict.fromkeys(range(self.n_features), 0)
            for i, segment in enumerate(_LED_SEGMENTS[y]):
                x[where[i]] = 1 - segment if 0.01 + rng.random() <= self.noise_percentage else segment
            if self.irrelevant_features:
                for i in range(7, 24):
                    x[where[i]] = rng.choice((0, 1))
            yield x, y


class LEDDrift(LED):
    """LED whose segments trade columns with irrelevant features: for i <
    n_drift_features, segment (i + r) mod 7 and irrelevant column 7 + (i +
    o) mod 17 swap places, r and o drawn first from the seed (River's
    scheme). Needs irrelevant_features."""

    def __init__(self, seed=None, noise_percentage=0.0, irrelevant_features=False, n_drift_features=0):
        super().__init__(seed, noise_percentage, irrelevant_features)
        limit = 7 if irrelevant_features else 0
        if not 0 <= n_drift_features <= limit:
            raise ValueError(f"LEDDrift: n_drift_features = {n_drift_features!r} is out of range 0..{limit} "
                             "(the drift swaps segments with the 17 irrelevant features: pass "
                             "irrelevant_features=True)")
        self._keep(n_drift_features=n_drift_features)

    def _positions(self, rng):
        where = list(range(24))
        if self.n_drift_features:
            r, o = rng.randint(0, 6), rng.randint(0, 16)
            for i in range(self.n_drift_features):
                a, b = (i + r) % 7, 7 + (i + o) % 17
                where[a], where[b] = b, a
        return where

class Waveform(_Synth):
    """Waveform (Breiman et al., 1984): three classes; each of 21 features
    is u h_a(i) + (1 - u) h_b(i) + N(0, 1) for u uniform and the class's
    pair (a, b) of three triangular waves; has_noise adds 19 N(0, 1)
    features (40 in all). Drawn as River draws them: a seed gives River's
    samples."""
    task = "Multi-class classification"
    _PAIRS = ((0, 1), (0, 2), (1, 2))

    def __init__(self, seed=None, has_noise=False):
        self._keep(seed=seed, has_noise=has_noise)
        self.n_features = 40 if has_noise else 21

    _CENTRES = (6, 14, 10)

    @staticmethod
    def _wave(k, i):
        # Triangles of height 6 centred on features 6, 14 and 10 (waves 0, 1, 2 as River and MOA number them).
        return max(0, 6 - abs(i - Waveform._CENTRES[k]))

    def __iter__(self):
        rng = random.Random(self.seed)
        while True:
            y = rng.randrange(3)
            a, b = self._PAIRS[y]
            u = rng.random()
            x = {i: u * self._wave(a, i) + (1.0 - u) * self._wave(b, i) + rng.gauss(0.0, 1.0) for i in range(21)}
            if self.has_noise:
                for i in range(21, 40):
                    x[i] = rng.gauss(0.0, 1.0)
            yield x, y
