"""irithyll.cluster: River-style KMeans, CluStream and DBSTREAM over the C++
clusterers: parameters from the tables, learning, centres, pickling, bad input."""
import json
import math
import pickle
import random

import pytest

import irithyll
from irithyll import _core, cluster

CLASSES = [(cluster.KMeans, {"n_clusters": 3}), (cluster.CluStream, {"n_macro_clusters": 3}),
           (cluster.DBSTREAM, {"clustering_threshold": 2.0})]


def blobs(n, seed=0):
    rng = random.Random(seed)
    means = [(0.0, 0.0), (10.0, 0.0), (0.0, 10.0)]
    for _ in range(n):
        j = rng.randrange(3)
        yield {"x": means[j][0] + rng.gauss(0, 1), "y": means[j][1] + rng.gauss(0, 1)}, j


def test_river_parameter_names():
    assert cluster.KMeans().n_clusters == 5
    assert cluster.KMeans().halflife == 0.5
    assert cluster.KMeans(p=1).p == 1
    assert cluster.CluStream().max_micro_clusters == 100
    assert cluster.CluStream().micro_cluster_r_factor == 2.0
    assert cluster.CluStream().time_window == 1000
    assert cluster.CluStream().time_gap == 100
    d = cluster.DBSTREAM()
    assert (d.clustering_threshold, d.fading_factor, d.intersection_factor, d.minimum_weight) == (1.0, 0.01, 0.3, 1.0)
    assert d.cleanup_interval == 100
    tables = {row["name"] for row in json.loads(_core.clusterers_json())}
    assert tables == {"kmeans", "clustream", "dbstream"}


@pytest.mark.parametrize("cls,kw", CLASSES)
def test_learns_the_blobs(cls, kw):
    model = cls(seed=1, **kw)
    assert model.predict_one({"x": 0.0, "y": 0.0}) == -1
    assert model.centers == {}
    for x, _ in blobs(3000):
        model.learn_one(x)
    assert model.n_samples_seen == 3000
    assert len(model.centers) == 3
    assert set(next(iter(model.centers.values()))) == {"x", "y"}
    ids = {model.predict_one({"x": mx, "y": my}) for mx, my in [(0, 0), (10, 0), (0, 10)]}
    assert len(ids) == 3 and all(isinstance(i, int) and i >= 0 for i in ids)


@pytest.mark.parametrize("cls,kw", CLASSES)
def test_pickle_resumes_exactly(cls, kw):
    a = cls(seed=3, **kw)
    data = list(blobs(2000, seed=3))
    for x, _ in data[:1000]:
        a.learn_one(x)
    b = pickle.loads(pickle.dumps(a))
    assert repr(b) == repr(a)
    for x, _ in data[1000:]:
        a.learn_one(x)
        b.learn_one(x)
    assert a.centers == b.centers
    assert a._model.encode() == b._model.encode()


@pytest.mark.parametrize("cls,kw", CLASSES)
def test_bad_input(cls, kw):
    with pytest.raises(ValueError):
        cls(**{next(iter(kw)): 0})
    with pytest.raises(TypeError):
        cls(no_such_setting=1)
    model = cls(**kw)
    with pytest.raises(TypeError):
        model.learn_one([1.0, 2.0])
    for x, _ in blobs(200):
        model.learn_one(x)
    before = model.centers
    model.learn_one({"x": math.nan, "y": 1.0})
    model.learn_one({"x": None, "y": 1.0})
    model.learn_one({"y": 1.0})
    assert model.n_ignored == 3
    assert model.centers == before
    assert model.predict_one({"y": 1.0}) == -1


def test_dbstream_counts_clusters():
    model = cluster.DBSTREAM(clustering_threshold=2.0)
    for x, _ in blobs(3000, seed=4):
        model.learn_one(x)
    assert model.n_clusters == 3


def test_exported_from_the_package():
    assert irithyll.cluster.KMeans is cluster.KMeans
    assert "clustering_threshold" in cluster.DBSTREAM.__doc__
