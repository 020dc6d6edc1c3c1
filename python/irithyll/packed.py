"""Packed SGBT models: compact f32 / int16 trees for fast batch inference.

    model.export_packed("m.bin")                   # an SGBT learner; also `irithyll export`
    raw = PackedModel("m.bin").predict(X)          # float32 raw scores, one per row

Scores are the ensemble's raw output (before the sigmoid / softmax of a
classifier). A K > 2 class model is ONE file, the multiclass bundle that
`irithyll export` also writes: predict gives one row of K scores per row and
predict_proba their softmax. Columns of X are the learner's features in
order (`model.features`); a file written by `export_packed` or `irithyll
export` names them (`feature_names`) and, for a classifier, its classes
(`classes`), and a binary classifier's file then has predict_proba too
(the metadata trailer, docs/format-f32.md).
"""
import numpy as np

from . import _core


class PackedModel:
    def __init__(self, path):
        self.path = str(path)
        self._core = _core.PackedModel(self.path)

    def predict(self, X):
        """Raw scores for the rows of X (float32)."""
        return self._core.predict(np.ascontiguousarray(X, dtype=np.float32))

    def predict_proba(self, X):
        """Class probabilities (float32, rows x K) of a multiclass bundle, or
        of a binary classifier whose file names its classes (columns in
        `classes` order)."""
        return self._core.predict_proba(np.ascontiguousarray(X, dtype=np.float32))

    @property
    def n_classes(self):
        """K for a multiclass bundle, 2 for a binary classifier's file with
        class names, 0 for any other one-ensemble file."""
        return self._core.n_classes

    @property
    def feature_names(self):
        """The columns X must hold, in order (empty: the file names none)."""
        return list(self._core.feature_names)

    @property
    def classes(self):
        """Class names in score order (empty: a regressor, or no names)."""
        return list(self._core.class_names)

    @property
    def n_features(self):
        return self._core.required_features

    def __repr__(self):
        return f"PackedModel({self.path!r})"


__all__ = ["PackedModel"]
