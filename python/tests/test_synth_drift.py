"""datasets.synth's drifting streams and River's other concept generators,
written as River's users call them. Where River's docstring prints a
generator's first samples and both draw from Python's random.Random in the
same order, ours must print the same (River shows 2 decimals cut, not
rounded). Every stream here is seeded, so no test can fail by chance."""
import math

import pytest

from irithyll import evaluate, metrics, naive_bayes, tree
from irithyll.datasets import synth


def _cut(v, places):
    f = 10 ** places
    return math.trunc(v * f) / f


def test_sea_labels_true_above_the_line_as_river_prints():
    rows = list(synth.SEA(variant=0, seed=42).take(5))
    assert [y for _, y in rows] == [False, True, True, False, False]
    assert [_cut(x[0], 5) for x, _ in rows] == [6.39426, 2.2321, 8.92179, 0.29797, 0.26535]
    assert all(y == (x[0] + x[1] > 8.0) for x, y in synth.SEA(variant=0, seed=1).take(2000))


@pytest.mark.parametrize("kwargs,river", [
    (dict(drift_type="lea", position=(1, 2, 3), seed=42), [7.66, 8.33, 7.04, 18.16, -2.65]),
    (dict(drift_type="gra", position=(2, 3), seed=42), [7.66, 8.33, 8.96, 18.16, 8.90]),
    (dict(drift_type="gsg", position=(1, 4), transition_window=2, seed=42), [7.66, 8.33, 8.92, 17.32, 6.05]),
])
def test_friedman_drift_prints_rivers_documented_targets(kwargs, river):
    assert [_cut(y, 2) for _, y in synth.FriedmanDrift(**kwargs).take(5)] == river


def test_friedman_drift_concepts():
    """Before the first change every mode is Friedman #1 itself; 'gra' returns to it after the second."""
    base = list(synth.Friedman(seed=5).take(400))
    for mode, position in (("lea", (100, 200, 300)), ("gra", (100, 200)), ("gsg", (100, 200))):
        drifted = list(synth.FriedmanDrift(drift_type=mode, position=position, transition_window=20, seed=5).take(400))
        assert [x for x, _ in drifted] == [x for x, _ in base]
        assert [y for _, y in drifted[:100]] == [y for _, y in base[:100]]
        # lea changes two regions only; by its third change they cover 18% of the space.
        span = slice(300, 400) if mode == "lea" else slice(100, 200)
        changed = sum(abs(a[1] - b[1]) > 1e-12 for a, b in zip(drifted[span], base[span]))
        assert changed > {"lea": 5, "gra": 90, "gsg": 70}[mode], (mode, changed)  # gsg: half of 20 stay old
    gra = list(synth.FriedmanDrift(drift_type="gra", position=(100, 200), seed=5).take(400))
    assert [y for _, y in gra[200:]] == [y for _, y in base[200:]]


def test_concept_drift_stream_prints_rivers_documented_example():
    dataset = synth.ConceptDriftStream(stream=synth.SEA(seed=42, variant=0), drift_stream=synth.SEA(seed=42, variant=1),
                                       seed=1, position=5, width=2)
    rows = list(dataset.take(10))
    assert [_cut(x[0], 4) for x, _ in rows] == [6.3942, 2.2321, 8.9217, 0.2979, 6.3942, 2.2321, 8.9217, 0.2979,
                                                0.2653, 5.4494]
    assert [y for _, y in rows] == [False, True, True, False, False, True, True, False, False, False]


def test_concept_drift_stream_switches_along_the_sigmoid():
    """Sine 0 and its reverse label every point oppositely, so each label
    names the stream it came from. The share from the new concept is
    1 / (1 + e^8) = 0.03% two widths before the position and 99.97% two
    widths after: the counts below allow 30 times that (seeded, exact)."""
    def f0(x):
        return 0 if x[0] >= math.sin(x[1]) else 1

    rows = list(synth.ConceptDriftStream(stream=synth.Sine(0, seed=1), drift_stream=synth.Sine(1, seed=2),
                                         position=5000, width=1000, seed=3).take(10000))
    new = [y != f0(x) for x, y in rows]
    assert sum(new[:3000]) <= 30 and sum(new[7000:]) >= 3000 - 30
    middle = sum(new[4800:5200]) / 400
    assert 0.35 < middle < 0.65, middle


def test_concept_drift_stream_settings():
    assert synth.ConceptDriftStream(alpha=1.0).width == 57
    assert synth.ConceptDriftStream(alpha=60.0).width == 1
    with pytest.raises(ValueError, match="alpha"):
        synth.ConceptDriftStream(alpha=0.0)
    with pytest.raises(ValueError, match="features"):
        synth.ConceptDriftStream(stream=synth.SEA(), drift_stream=synth.Friedman())
    # The defaults are Agrawal's functions 0 and 2; a width of 1 far from
    # the position must not overflow the sigmoid.
    rows = list(synth.ConceptDriftStream(seed=7, position=50, width=1).take(100))
    assert len(rows) == 100 and set(rows[0][0]) >= {"salary", "age", "elevel"}
    # Nested streams give several drifts, and a finite stream ends the join.
    nested = synth.ConceptDriftStream(stream=synth.ConceptDriftStream(stream=synth.STAGGER(0, seed=1),
                                                                      drift_stream=synth.STAGGER(1, seed=2),
                                                                      position=100, width=10, seed=3),
                                      drift_stream=synth.STAGGER(2, seed=4), position=200, width=10, seed=5)
    assert len(list(nested.take(300))) == 300


def test_learners_follow_a_concept_drift_stream():
    """The River idiom: a drifting stream evaluated prequentially. An
    adaptive tree recovers after STAGGER's concept changes (exact labels)."""
    dataset = synth.ConceptDriftStream(stream=synth.STAGGER(0, seed=1), drift_stream=synth.STAGGER(2, seed=2),
                                       position=2000, width=50, seed=3)
    rows = list(dataset.take(6000))
    model = tree.HoeffdingAdaptiveTreeClassifier(seed=1)
    late = metrics.Accuracy()
    for i, (x, y) in enumerate(rows):
        p = model.predict_one(x)
        if i >= 4000:
            late.update(y, p)
        model.learn_one(x, y)
    assert late.get() > 0.95, late


def test_river_stagger_example_and_label_functions():
    rows = list(synth.STAGGER(classification_function=2, seed=112, balance_classes=False).take(5))
    assert rows == [({"size": 1, "color": 2, "shape": 2}, 1), ({"size": 2, "color": 1, "shape": 2}, 1),
                    ({"size": 1, "color": 1, "shape": 2}, 1), ({"size": 0, "color": 1, "shape": 0}, 0),
                    ({"size": 2, "color": 1, "shape": 0}, 1)]
    rules = (lambda x: x["size"] == 0 and x["color"] == 0, lambda x: x["color"] == 2 or x["shape"] == 0,
             lambda x: x["size"] in (1, 2))
    for f, rule in enumerate(rules):
        assert all(y == int(rule(x)) for x, y in synth.STAGGER(f, seed=f).take(500))


@pytest.mark.parametrize("f", range(4))
def test_sine_labels(f):
    def curve(b):
        return math.sin(b) if f < 2 else 0.5 + 0.3 * math.sin(3 * math.pi * b)

    rows = list(synth.Sine(classification_function=f, seed=f, has_noise=True).take(1000))
    for x, y in rows:
        above = x[0] >= curve(x[1])
        assert y == (int(not above) if f % 2 == 0 else int(above))
    assert set(rows[0][0]) == {0, 1, 2, 3}
    assert len(list(synth.Sine(f).take(1))[0][0]) == 2


def test_mixed_labels_and_balance():
    for f in (0, 1):
        for x, y in synth.Mixed(classification_function=f, seed=3).take(500):
            z = x[3] < 0.5 + 0.3 * math.sin(3 * math.pi * x[2])
            two = (x[0] and x[1]) or (x[0] and z) or (x[1] and z)
            assert y == (int(two) if f == 1 else int(not two))
    balanced = [y for _, y in synth.Mixed(seed=4, balance_classes=True).take(20)]
    assert balanced == [1, 0] * 10
    assert [y for _, y in synth.STAGGER(0, seed=4, balance_classes=True).take(6)] == [1, 0] * 3


def test_generators_refuse_bad_settings():
    for make in (lambda: synth.STAGGER(3), lambda: synth.Sine(4), lambda: synth.Mixed(2),
                 lambda: synth.LED(noise_percentage=1.5), lambda: synth.LEDDrift(irrelevant_features=True, n_drift_features=8),
                 lambda: synth.LEDDrift(n_drift_features=2), lambda: synth.Sine(seed=-1),
                 lambda: synth.FriedmanDrift(drift_type="abc"), lambda: synth.FriedmanDrift(position=(5, 2, 9)),
                 lambda: synth.FriedmanDrift(drift_type="lea", position=(1, 2)),
                 lambda: synth.FriedmanDrift(drift_type="gsg", position=(10, 20), transition_window=50),
                 lambda: synth.RandomRBFDrift(n_centroids=5, n_drift_centroids=6),
                 lambda: synth.RandomRBFDrift(change_speed=-1.0)):
        with pytest.raises(ValueError):
            make()


def test_random_rbf_drift_moves_its_centres():
    """With no speed it is RandomRBF; with speed the samples move but the
    labels (each centre keeps its class) are drawn alike."""
    still = list(synth.RandomRBFDrift(seed_model=1, seed_sample=2, change_speed=0.0).take(300))
    assert still == list(synth.RandomRBF(seed_model=1, seed_sample=2).take(300))
    moving = list(synth.RandomRBFDrift(seed_model=1, seed_sample=2, change_speed=0.01, n_drift_centroids=50).take(300))
    assert [y for _, y in moving] == [y for _, y in still]
    assert sum(abs(a[0][0] - b[0][0]) > 1e-9 for a, b in zip(moving, still)) > 250
    # The displacement is that of the centres: at most 0.001 per sample per
    # feature early on, then spread over the unit cube.
    slow = list(synth.RandomRBFDrift(seed_model=1, seed_sample=2, change_speed=0.001).take(2000))
    base = list(synth.RandomRBF(seed_model=1, seed_sample=2).take(2000))
    gap = [sum(abs(a[0][i] - b[0][i]) for i in range(10)) / 10 for a, b in zip(slow, base)]
    assert max(gap[:10]) <= 0.0101 and sum(gap[1000:]) / 1000 > 0.1, (max(gap[:10]), sum(gap[1000:]) / 1000)


def test_led_segments_and_drift():
    digits = {0: (1, 1, 1, 0, 1, 1, 1), 8: (1, 1, 1, 1, 1, 1, 1), 1: (0, 0, 1, 0, 0, 1, 0)}
    for x, y in synth.LED(seed=1).take(300):
        if y in digits:
            assert tuple(x[i] for i in range(7)) == digits[y]
    wide = list(synth.LED(seed=1, irrelevant_features=True).take(5))
    assert all(len(x) == 24 for x, _ in wide)
    drifted = list(synth.LEDDrift(seed=1, irrelevant_features=True, n_drift_features=7).take(300))
    plain = [x for x, y in drifted if y == 8]
    # All seven segments of an 8 are lit: after the swap they sit at 7 of the 17 other columns.
    assert plain and all(sum(x[i] for i in range(7, 24)) >= 7 for x in plain)
    noisy = list(synth.LED(seed=2, noise_percentage=0.1).take(5000))
    score = evaluate.progressive_val_score(noisy, naive_bayes.GaussianNB(), metrics.Accuracy())
    assert score.get() > 0.6, score  # the Bayes rate at 10% noise is about 0.74


def test_waveform_is_learnable():
    rows = list(synth.Waveform(seed=1).take(5000))
    assert {y for _, y in rows} == {0, 1, 2} and len(rows[0][0]) == 21
    assert len(list(synth.Waveform(seed=1, has_noise=True).take(1))[0][0]) == 40
    score = evaluate.progressive_val_score(rows, naive_bayes.GaussianNB(), metrics.Accuracy())
    assert score.get() > 0.7, score  # the Bayes rate is about 0.86


def test_agrawal_prints_rivers_documented_samples():
    river = [[103125.4837, 0, 21, 2, 8, 3, 319768.9642, 4, 338349.7437],
             [135983.3438, 0, 25, 4, 14, 0, 423837.7755, 7, 116330.4466],
             [98262.4347, 0, 55, 1, 18, 6, 144088.1244, 19, 139095.3541],
             [133009.0417, 0, 68, 1, 14, 5, 233361.4025, 7, 478606.5361],
             [63757.2908, 16955.9382, 26, 2, 12, 4, 522851.3093, 24, 229712.4398]]
    rows = list(synth.Agrawal(classification_function=0, seed=42).take(5))
    assert [[_cut(v, 4) for v in x.values()] for x, _ in rows] == river
    assert [y for _, y in rows] == [1, 1, 0, 1, 1]
    assert list(rows[0][0]) == ["salary", "commission", "age", "elevel", "car", "zipcode", "hvalue", "hyears", "loan"]
    # Functions 6-9 label 1 where the disposable income is at most 1, as River's do.
    for x, y in synth.Agrawal(classification_function=6, seed=1).take(300):
        assert y == int(2 * (x["salary"] + x["commission"]) / 3 - x["loan"] / 5 - 20000 <= 1)
    assert [y for _, y in synth.Agrawal(seed=3, balance_classes=True).take(6)] == [1, 0] * 3


def _rounded_rows(dataset, k, places=4):
    return [([_cut(v, places) for v in x.values()], y) for x, y in dataset.take(k)]


def test_more_generators_print_rivers_documented_samples():
    """River's docstrings for these print their first samples (4 decimals cut)."""
    rbf = [([1.0989, 0.3840, 0.7759, 0.6592], 2), ([0.2366, 1.3233, 0.5691, 0.2083], 0),
           ([1.3540, -0.3306, 0.1683, 0.8865], 0), ([0.2585, -0.2217, 0.4739, 0.6522], 0),
           ([0.1295, 0.5953, 0.1774, 0.6673], 1)]
    assert _rounded_rows(synth.RandomRBF(seed_model=42, seed_sample=42, n_classes=4, n_features=4, n_centroids=20),
                         5) == rbf
    drift = [([1.0989, 0.3840, 0.7759, 0.6592], 2), ([1.1496, 1.9014, 1.5393, 0.3210], 0),
             ([0.7146, -0.2414, 0.8933, 1.6633], 0), ([0.3797, -0.1027, 0.8717, 1.1635], 0),
             ([0.1295, 0.5953, 0.1774, 0.6673], 1)]
    assert _rounded_rows(synth.RandomRBFDrift(seed_model=42, seed_sample=42, n_classes=4, n_features=4,
                                              n_centroids=20, change_speed=0.87, n_drift_centroids=10), 5) == drift
    plane = [([0.2750, 0.2232], 0), ([0.0869, 0.4219], 1), ([0.0265, 0.1988], 0), ([0.5892, 0.8094], 0),
             ([0.3402, 0.1554], 0)]
    assert _rounded_rows(synth.Hyperplane(seed=42, n_features=2), 5) == plane
    mixed = [([True, False, 0.2750, 0.2232], 1), ([False, False, 0.2186, 0.5053], 0),
             ([False, True, 0.8094, 0.0064], 1), ([False, False, 0.1010, 0.2779], 0),
             ([True, False, 0.3701, 0.2095], 1)]
    assert _rounded_rows(synth.Mixed(seed=42, classification_function=1, balance_classes=True), 5) == mixed
    sine = [([0.3750, 0.6403, 0.9500, 0.0756], 1), ([0.7769, 0.8327, 0.0548, 0.8176], 1),
            ([0.8853, 0.7223, 0.0025, 0.9811], 0), ([0.3434, 0.0947, 0.3946, 0.0049], 1),
            ([0.7367, 0.9558, 0.8206, 0.3449], 0)]
    assert _rounded_rows(synth.Sine(classification_function=2, seed=112, has_noise=True), 5) == sine
    led = [([1, 0, 1, 0, 0, 1, 0], 7), ([1, 1, 1, 1, 1, 1, 0], 8), ([1, 1, 1, 1, 0, 1, 0], 9),
           ([0, 0, 1, 0, 0, 1, 0], 1), ([0, 1, 1, 0, 0, 0, 0], 1)]
    assert _rounded_rows(synth.LED(seed=112, noise_percentage=0.28), 5) == led
    led_drift = [[1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1],
                 [1, 1, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0],
                 [0, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 1],
                 [1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 0, 1],
                 [1, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0]]
    rows = list(synth.LEDDrift(seed=112, noise_percentage=0.28, irrelevant_features=True, n_drift_features=4).take(5))
    assert [list(x.values()) for x, _ in rows] == led_drift and [y for _, y in rows] == [7, 6, 1, 6, 7]
    x, y = next(iter(synth.Waveform(seed=42, has_noise=True)))
    assert y == 2 and [_cut(v, 4) for v in list(x.values())[:6]] == [-0.0397, -0.7484, 0.2974, 0.3574, -0.0735,
                                                                      -0.3647]
