"""Packed SGBT models: compact f32 / int16 trees for fast batch inference.

    model.export_packed("m.bin")                   # an SGBT learner; also `irithyll export`
    raw = PackedModel("m.bin").predict(X)          # float32 raw scores, one per row

Scores are the ensemble's raw output (before the sigmoid / softmax of a
classifier). A K > 2 class model is ONE file, the multiclass bundle that
`irithyll export` also writes: predict gives one row of K scores per row and
predict_proba their softmax. Columns of X are the learner's features in
order (`model.features`).
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
        """Class probabilities of a multiclass bundle (float32, rows x K)."""
        return self._core.predict_proba(np.ascontiguousarray(X, dtype=np.float32))

    @property
    def n_classes(self):
        """K for a multiclass bundle, 0 for a one-ensemble file."""
        return self._core.n_classes

    @property
    def n_features(self):
        return self._core.required_features

    def __repr__(self):
        return f"PackedModel({self.path!r})"


__all__ = ["PackedModel"]
