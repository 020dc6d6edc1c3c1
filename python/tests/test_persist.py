"""save/load (the CLI's checkpoint files), pickle, and CLI interop."""
import os
import pickle
import subprocess

import numpy as np
import pytest

import irithyll
from irithyll import ensemble
from conftest import elec_path, stream


def test_save_load_roundtrip(tmp_path):
    m = ensemble.SGBTClassifier(n_steps=5, seed=9)
    data = stream(200)
    for x, y in data:
        m.learn_one(x, y)
    path = tmp_path / "m.ckpt"
    m.save(path)
    assert path.read_bytes()[:4] == b"IRCK"
    back = irithyll.load(path)
    assert type(back) is type(m) and repr(back) == repr(m)
    assert back.labels == m.labels and back.features == m.features
    for x, _ in data[:20]:
        assert back.predict_proba_one(x) == m.predict_proba_one(x)


def test_load_without_sidecar_uses_indices(tmp_path):
    m = ensemble.SGBTRegressor(n_steps=4, learning_rate=0.2)
    X = np.random.default_rng(0).random((100, 3))
    m.learn_many(X, X[:, 0] * 2)
    path = tmp_path / "r.ckpt"
    m.save(path)
    os.remove(str(path) + ".py.json")
    back = irithyll.load(path)
    assert back.features == [0, 1, 2]
    assert back.learning_rate == 0.2 and back.n_steps == 4
    np.testing.assert_array_equal(back.predict_many(X), m.predict_many(X))
    assert back.predict_one({0: 0.5, 1: 0.5, 2: 0.5}) == m.predict_many(np.array([[0.5, 0.5, 0.5]]))[0]


def test_unsaved_model_and_bad_file(tmp_path):
    with pytest.raises(ValueError, match="nothing to save"):
        ensemble.SGBTRegressor().save(tmp_path / "x")
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"not a checkpoint at all, really not")
    with pytest.raises(ValueError):
        irithyll.load(bad)
    with pytest.raises(ValueError):
        pickle.loads(pickle.dumps(ensemble.SGBTRegressor())).learn_many(np.zeros((2, 2)), [1.0])


def _cli():
    cli = os.environ.get("IRITHYLL_CLI")
    if not cli or not os.path.exists(cli):
        pytest.skip("the irithyll CLI binary is not known (set IRITHYLL_CLI; CTest does)")
    return cli


def test_cli_checkpoint_loads_in_python_and_back(tmp_path):
    cli = _cli()
    data = elec_path()
    ckpt = tmp_path / "cli.ckpt"
    subprocess.run([cli, "eval", "--data", data, "--n-steps", "5", "--save", str(ckpt)], check=True,
                   capture_output=True)
    model = irithyll.load(ckpt)
    assert isinstance(model, ensemble.SGBTClassifier)
    assert model.labels == [0, 1] and model.n_steps == 5
    X = np.loadtxt(data, delimiter=",", skiprows=1, max_rows=50)[:, :-1]
    assert model.predict_many(X).shape == (50,)
    # And back: a Python-saved model is a checkpoint the CLI reads.
    out = tmp_path / "py.ckpt"
    model.save(out)
    r = subprocess.run([cli, "eval", "--data", data, "--load", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_export_packed_predicts_raw_scores(tmp_path):
    from irithyll.packed import PackedModel
    X = np.random.default_rng(3).random((400, 3))
    m = ensemble.SGBTRegressor(n_steps=10, grace_period=20, learning_rate=0.1)
    m.learn_many(X, 3 * X[:, 0] - X[:, 1])
    paths = m.export_packed(tmp_path / "m.bin")
    assert paths == [str(tmp_path / "m.bin")]
    packed = PackedModel(paths[0])
    got = packed.predict(X)
    assert got.dtype == np.float32 and got.shape == (400,)
    np.testing.assert_allclose(got, m.predict_many(X), rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError):
        packed.predict(X[:, :1] if packed.n_features > 1 else np.zeros((2, 0)))
    c3 = ensemble.SGBTClassifier(n_steps=3, grace_period=20, classes=["a", "b", "c"])
    c3.learn_many(X, np.array(["a", "b", "c"])[(X[:, 0] * 3).astype(int)])
    # One file for K classes, the bundle `irithyll export` writes and reads.
    assert c3.export_packed(tmp_path / "c.bin") == [str(tmp_path / "c.bin")]
    bundle = PackedModel(tmp_path / "c.bin")
    assert bundle.n_classes == 3
    scores = bundle.predict(X)
    assert scores.shape == (400, 3)
    proba = bundle.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-5)
    want = np.array([[p[c] for c in ["a", "b", "c"]] for p in (c3.predict_proba_one(dict(zip(c3.features, r))) for r in X)])
    np.testing.assert_allclose(proba, want, atol=1e-4)
    with pytest.raises(ValueError, match="one ensemble"):
        packed.predict_proba(X)
    # The files name their columns and classes; a binary file has probabilities.
    assert packed.feature_names == [str(f) for f in m.features] and packed.classes == []
    assert bundle.feature_names == [str(f) for f in c3.features] and bundle.classes == ["a", "b", "c"]
    c2 = ensemble.SGBTClassifier(n_steps=5, grace_period=20, classes=["no", "yes"])
    c2.learn_many(X, np.where(X[:, 0] > 0.5, "yes", "no"))
    c2.export_packed(tmp_path / "b.bin")
    binary = PackedModel(tmp_path / "b.bin")
    assert binary.classes == ["no", "yes"] and binary.n_classes == 2
    want2 = np.array([[p[c] for c in ["no", "yes"]] for p in (c2.predict_proba_one(dict(zip(c2.features, r))) for r in X)])
    np.testing.assert_allclose(binary.predict_proba(X), want2, atol=1e-4)
    esn = irithyll.nn.ESNRegressor()
    esn.learn_one({"a": 1.0}, 1.0)
    with pytest.raises(ValueError, match="no packed form"):
        esn.export_packed(tmp_path / "e.bin")
    with pytest.raises(ValueError, match="format"):
        m.export_packed(tmp_path / "x.bin", format="f64")
    with pytest.raises(OSError):
        PackedModel(tmp_path / "missing.bin")


def test_names_travel_from_the_cli_and_back(tmp_path):
    """One checkpoint carries feature and class names both ways: a CLI
    checkpoint loads with its header's names and predicts from dicts keyed by
    them; a Python-saved model is read by name by `irithyll predict`, in any
    column order, and speaks its labels."""
    import csv
    import warnings
    cli = _cli()
    data = elec_path()
    header = open(data).readline().strip().split(",")
    ckpt = tmp_path / "cli.ckpt"
    subprocess.run([cli, "eval", "--data", data, "--n-steps", "5", "--save", str(ckpt)], check=True,
                   capture_output=True)
    model = irithyll.load(ckpt)
    assert model.features == header[:-1]
    rows = list(csv.reader(open(data)))[1:41]
    x = {name: float(v) for name, v in zip(header, rows[0][:-1])}
    cli_out = subprocess.run([cli, "predict", "--checkpoint", str(ckpt), "--data", data], check=True,
                             capture_output=True, text=True).stdout.splitlines()
    label, p = cli_out[0].split(",")
    assert str(model.predict_one(x)) == label
    assert abs(model.predict_proba_one(x)[model.predict_one(x)] - float(p)) < 1e-12

    # Python -> CLI: text labels and named features, read back by name from a
    # file whose columns are in another order.
    py = ensemble.SGBTClassifier(n_steps=5, grace_period=20, seed=1)
    for r in rows * 5:
        py.learn_one({name: float(v) for name, v in zip(header, r[:-1])}, "up" if r[-1] == "1" else "down")
    out = tmp_path / "py.ckpt"
    py.save(out)
    os.remove(str(out) + ".py.json")  # what the CLI sees: the checkpoint alone
    order = header[:-1][::-1]
    shuffled = tmp_path / "shuffled.csv"
    with open(shuffled, "w") as f:
        f.write(",".join(order) + "\n")
        for r in rows:
            named = dict(zip(header, r))
            f.write(",".join(named[c] for c in order) + "\n")
    got = subprocess.run([cli, "predict", "--checkpoint", str(out), "--data", str(shuffled)], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    for line, r in zip(got, rows):
        xr = {name: float(v) for name, v in zip(header, r[:-1])}
        label, p = line.split(",")
        assert label == py.predict_one(xr)
        assert abs(float(p) - py.predict_proba_one(xr)[label]) < 1e-12
    back = irithyll.load(out)
    assert back.features == header[:-1] and sorted(back.labels) == ["down", "up"]

    # A dict that shares no key with the model is said once, not read silently.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        back.predict_one({"nswprise": 0.1})
        back.predict_one({"nswprise": 0.2})
    said = [str(w.message) for w in caught if "shares no feature" in str(w.message)]
    assert len(said) == 1 and "'nswprice'" in said[0]


def test_text_categories_travel_to_the_cli(tmp_path):
    """A Python model's text categories are in its checkpoint: the CLI codes a
    text column as Python did, even in a file whose categories first appear
    in another order, so the predictions agree row for row."""
    import random
    cli = _cli()
    rng = random.Random(4)
    rows = [(rng.random(), rng.choice(["red", "green", "blue"])) for _ in range(1500)]
    m = ensemble.SGBTClassifier(n_steps=5, grace_period=20, seed=1)
    for a, c in rows:
        m.learn_one({"a": a, "colour": c}, "yes" if (c == "red") != (a > 0.5) else "no")
    # The file lists the colours in the reverse of the order they were learned in.
    order = list(dict.fromkeys(c for _, c in rows))[::-1]
    rows.sort(key=lambda r: order.index(r[1]))
    data = tmp_path / "colours.csv"
    with open(data, "w") as f:
        f.write("a,colour\n")
        for a, c in rows:
            f.write(f"{a},{c}\n")
    out = tmp_path / "m.ckpt"
    m.save(out)
    got = subprocess.run([cli, "predict", "--checkpoint", str(out), "--data", str(data)], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    assert len(got) == len(rows)
    for line, (a, c) in zip(got, rows):
        label, p = line.split(",")
        x = {"a": a, "colour": c}
        assert label == m.predict_one(x)
        assert abs(float(p) - m.predict_proba_one(x)[label]) < 1e-12


def test_target_name_travels_to_the_cli_and_back(tmp_path):
    """A model that learned from a named target (a pandas Series) saves that
    name: `irithyll predict` then takes a file holding the target column
    anywhere as known (it refuses an unknown column), `inspect` prints it,
    and load and pickle keep it."""
    import pickle
    pd = pytest.importorskip("pandas", reason="pandas (Debian python3-pandas) is not installed")
    import numpy as np
    cli = _cli()
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.random(400), "b": rng.random(400)})
    y = pd.Series(3 * X["a"] - X["b"], name="price")
    m = ensemble.SGBTRegressor(n_steps=5)
    assert m.target_name is None
    m.learn_many(X, y)
    assert m.target_name == "price"
    out = tmp_path / "m.ckpt"
    m.save(out)
    os.remove(str(out) + ".py.json")  # what the CLI sees: the checkpoint alone
    table = X.copy()
    table.insert(1, "price", y)
    data = tmp_path / "t.csv"
    table.to_csv(data, index=False)
    got = subprocess.run([cli, "predict", "--checkpoint", str(out), "--data", str(data)], capture_output=True,
                         text=True)
    assert got.returncode == 0, got.stderr
    lines = got.stdout.splitlines()
    assert len(lines) == 400
    x0 = {"a": float(X["a"][0]), "b": float(X["b"][0])}
    assert abs(float(lines[0]) - m.predict_one(x0)) < 1e-9
    shown = subprocess.run([cli, "inspect", str(out)], check=True, capture_output=True, text=True).stdout
    assert "target: price" in shown
    assert irithyll.load(out).target_name == "price"
    assert pickle.loads(pickle.dumps(m)).target_name == "price"
    # A model saved without the name: the same file's target column is unknown to it.
    m.target_name = None
    bare = tmp_path / "bare.ckpt"
    m.save(bare)
    os.remove(str(bare) + ".py.json")
    refused = subprocess.run([cli, "predict", "--checkpoint", str(bare), "--data", str(data)], capture_output=True,
                             text=True)
    assert refused.returncode != 0 and "'price'" in refused.stderr
