"""categorical_features from Python: a class that depends on a set of
category codes is learned by SGBT's category-set splits and the VFDT's
nominal splits, clearly better than with the codes read as numbers."""
import random

from irithyll import ensemble, tree


def set_stream(n, seed=5):
    rng = random.Random(seed)
    member = {1, 4, 6, 9, 10, 13, 14, 15}  # a scattered half of 16 codes
    for _ in range(n):
        c = rng.randrange(16)
        yield {"colour": float(c), "noise": rng.random()}, ("yes" if c in member else "no")


def accuracy(model, n=5000):
    right = 0
    for x, y in set_stream(n):
        right += model.predict_one(x) == y
        model.learn_one(x, y)
    return right / n


def test_sgbt_category_sets():
    with_sets = accuracy(ensemble.SGBTClassifier(n_steps=5, max_depth=2, categorical_features="0", seed=1))
    without = accuracy(ensemble.SGBTClassifier(n_steps=5, max_depth=2, seed=1))
    assert with_sets > 0.9 and with_sets > without + 0.1, (with_sets, without)


def test_hoeffding_tree_nominal():
    with_nominal = accuracy(tree.HoeffdingTreeClassifier(leaf_model="mc", max_depth=2, categorical_features="0", seed=1))
    without = accuracy(tree.HoeffdingTreeClassifier(leaf_model="mc", max_depth=2, seed=1))
    assert with_nominal > 0.9 and with_nominal > without + 0.05, (with_nominal, without)


def test_export_names_the_column_split_by_category_sets(tmp_path):
    """The packed formats hold thresholds only: exporting a model with
    category-set splits is refused with the column named and the way out."""
    import pytest
    model = ensemble.SGBTClassifier(n_steps=5, max_depth=2, categorical_features="0", seed=1)
    accuracy(model, 2000)
    with pytest.raises(ValueError, match=r"splits 'colour' by category sets.*categorical-features"):
        model.export_packed(tmp_path / "m.bin")
    plain = ensemble.SGBTClassifier(n_steps=5, max_depth=2, seed=1)
    accuracy(plain, 2000)
    assert plain.export_packed(tmp_path / "p.bin") == [str(tmp_path / "p.bin")]
