"""Online model selection: ``AutoClassifier`` and ``AutoRegressor`` race a
pool of catalogue models (empirical-Bernstein racing on paired rewards) and
predict with the leader, or with a softmax-weighted mix (``mode="stack"``):

    >>> from irithyll import model_selection
    >>> model = model_selection.AutoClassifier(pool="sgbt;arf;hoeffding_tree")
    >>> model.learn_one({"a": 1.0}, "up")
    >>> model.leaderboard()["leader"]
"""
import json as _json

from ._learners import GENERATED as _GENERATED

_classes = dict(_GENERATED.get("model_selection", {}))


def _leaderboard(self):
    """Which configuration leads, how many samples each led, which are alive
    and how often the race dropped each (a dict; empty before learning)."""
    if self._model is None:
        return {}
    text = self._model.report_json()
    return _json.loads(text) if text else {}


for _cls in _classes.values():
    _cls.leaderboard = _leaderboard

globals().update(_classes)
__all__ = sorted(_classes)
