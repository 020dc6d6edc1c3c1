"""model.save(path) / irithyll.load(path): the CLI's checkpoint files.

`path` holds exactly what `irithyll eval --save` writes (so the CLI reads a
Python-saved model and the other way round); `path`.py.json beside it holds
what only Python knows: the class, its constructor arguments, the feature
names and the labels. A checkpoint without that file (one the CLI wrote)
loads with features named 0..n-1 (so predict_many(X) and dicts keyed by
column index both work) and labels 0..k-1, the CLI's class indices. A
checkpoint of a kind with no catalogue settings (a pipeline built in C++)
loads as a plain learner of that kind: it predicts and learns, no more.
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


def _opaque_class(name, classification):
    """A learner kind with no settings table (a C++ pipeline, say): it
    predicts and keeps learning, but cannot be built fresh from Python."""
    base = _learners.Classifier if classification else _learners.Regressor
    stem = "".join(part.capitalize() for part in name.replace("-", "_").split("_"))
    return type(stem + base.__name__, (base,), {"_model_name": name, "_fields": (),
                                                 "__doc__": f"A loaded '{name}' checkpoint."})


def load(path):
    with open(path, "rb") as f:
        core = _core.Learner.decode(f.read())
    if os.path.exists(sidecar(path)):
        with open(sidecar(path), encoding="utf-8") as f:
            meta = json.load(f)
        model = _find_class(meta["class"])(**meta["kwargs"])
        features, labels = meta["features"], meta["labels"]
        codes = meta.get("codes")
    else:
        if core.name in {row["name"] for row in _learners.CATALOGUE}:
            cls = _learners.class_for(core.name, core.classification)
        else:
            cls = _opaque_class(core.name, core.classification)
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
        codes = None
    if labels is not None:
        model._set_labels(labels)
    model._model = core
    if features is not None:
        model._features = list(features)
        core.set_features(model._features)
        if codes:
            core.set_codes(codes)
    if core.classification:
        model.n_classes = max(model.n_classes, core.n_classes)
    return model
