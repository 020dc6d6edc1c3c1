"""Packed SGBT models: compact f32 / int16 trees for fast batch inference.

    paths = model.export_packed("m.bin")          # an SGBT learner; also `irithyll export`
    raw = PackedModel("m.bin").predict(X)          # float32 raw scores, one per row

Scores are the ensemble's raw output (before the sigmoid / softmax of a
classifier); a K > 2 class model writes one file per class (m.class<k>.bin).
Columns of X are the learner's features in order (`model.features`).
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

    @property
    def n_features(self):
        return self._core.required_features

    def __repr__(self):
        return f"PackedModel({self.path!r})"


__all__ = ["PackedModel"]
