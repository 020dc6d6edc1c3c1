"""model.save(path) / irithyll.load(path): the CLI's checkpoint files.

`path` holds exactly what `irithyll eval --save` writes (so the CLI reads a
Python-saved model and the other way round); `path`.py.json beside it holds
what only Python knows: the class, its constructor arguments, the feature
names and the labels. A checkpoint without that file (one the CLI wrote)
loads with features named 0..n-1 (so predict_many(X) and dicts keyed by
column index both work) and labels 0..k-1, the CLI's class indices.
"""
import json
import os

from . import _core, _learners


def sidecar(path):
    return os.fspath(path) + ".py.json"


def save(model, path):
    if model._model is None:
        raise ValueError(f"{type(model).__name__}: nothing to save before the first learn_one")
    meta = model._meta()
    try:
        text = json.dumps(meta)
    except TypeError as e:
        raise TypeError(f"save: feature names and labels must be JSON values (str, int, float, bool); "
                        f"use pickle for others ({e})") from None
    with open(path, "wb") as f:
        f.write(model._model.encode())
    with open(sidecar(path), "w", encoding="utf-8") as f:
        f.write(text)


def _find_class(name):
    for classes in _learners.GENERATED.values():
        if name in classes:
            return classes[name]
    raise ValueError(f"load: unknown learner class '{name}'")


def load(path):
    with open(path, "rb") as f:
        core = _core.Learner.decode(f.read())
    if os.path.exists(sidecar(path)):
        with open(sidecar(path), encoding="utf-8") as f:
            meta = json.load(f)
        model = _find_class(meta["class"])(**meta["kwargs"])
        features, labels = meta["features"], meta["labels"]
    else:
        if core.name not in {row["name"] for row in _learners.CATALOGUE}:
            raise ValueError(f"load: '{core.name}' checkpoints have no Python class yet")
        cls = _learners.class_for(core.name, core.classification)
        defaults = {f["name"]: f for f in cls._fields}
        kwargs = {}
        for name, text in core.settings():
            f = defaults.get(name)
            if f is not None and text != f["default"]:
                kwargs[f["python_name"]] = _learners.from_text(f, text)
        if core.classification:
            kwargs["n_classes"] = core.n_classes
        model = cls(**kwargs)
        features = list(range(core.n_features)) if core.n_features else None
        labels = list(range(core.n_classes)) if core.classification else None
    if labels is not None:
        model._set_labels(labels)
    model._model = core
    if features is not None:
        model._features = list(features)
        core.set_features(model._features)
    return model
