"""model.save(path) / irithyll.load(path): the CLI's checkpoint files.

`path` holds exactly what `irithyll eval --save` writes, names included:
the feature names (the dict keys as text), the class names (the labels as
text) and each text feature's categories, so the CLI predicts from a
Python-saved model by column name and speaks its class names, and a
checkpoint the CLI wrote loads here with the CLI's feature and class names.
`path`.py.json beside it holds what only Python knows: the class, its
constructor arguments and the labels with their Python types. A checkpoint
without that file loads as its catalogue kind with the stored names (or,
for a file with none, features 0..n-1 and labels 0..k-1, the CLI's class
indices). A checkpoint of a kind with no catalogue settings (a pipeline
built in C++) loads as a plain learner of that kind: it predicts and
learns, no more.
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
    labels = meta["labels"] if model._model.classification else None
    with open(path, "wb") as f:
        f.write(model._model.encode(classes=[str(label) for label in labels or ()], target=model.target_name or ""))
    with open(sidecar(path), "w", encoding="utf-8") as f:
        f.write(text)


def _typed(names):
    """Names as stored (text); integers again when every name is one, as the
    dict keys 0..n-1 of unnamed features and labels read from a numeric
    target column are."""
    try:
        values = [int(n) for n in names]
    except ValueError:
        return list(names)
    return values if [str(v) for v in values] == list(names) else list(names)


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
        target = meta.get("target")
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
        target = None
        schema = core.schema()
        if schema is not None:
            target = schema["target"] or None
            if schema["features"] and core.n_features in (0, len(schema["features"])):
                features = _typed(schema["features"])
                codes = schema["categories"] if any(schema["categories"]) else None
            if core.classification and schema["classes"]:
                labels = _typed(schema["classes"])
    if labels is not None:
        model._set_labels(labels)
    model.target_name = target
    model._model = core
    if features is not None:
        model._features = list(features)
        core.set_features(model._features)
        if codes:
            core.set_codes(codes)
    if core.classification:
        model.n_classes = max(model.n_classes, core.n_classes)
    return model
