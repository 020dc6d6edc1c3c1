"""Composing transformers and learners, with River's names and operators.

    scaler | model                    Pipeline (a function on either side becomes a FuncTransformer)
    Pipeline(('scale', s), ('m', m))  named steps; pipeline['scale'] or pipeline[0]
    a + b                             TransformerUnion (outputs merged)
    Select('a', 'b'), Discard('c')    keep or drop features
    FuncTransformer(f)                x -> f(x)
"""
import collections


def _name(step):
    return getattr(step, "__name__", None) or type(step).__name__


def _as_step(step):
    if callable(step) and not hasattr(step, "transform_one") and not hasattr(step, "learn_one"):
        return FuncTransformer(step)
    return step


class _Composable:
    def __or__(self, other):
        return Pipeline(self, other)

    def __ror__(self, other):
        return Pipeline(other, self)

    def __add__(self, other):
        return TransformerUnion(self, other)

    def __radd__(self, other):
        return TransformerUnion(other, self)

    # transformers learn nothing unless they say otherwise
    def learn_one(self, x):
        pass

    def learn_many(self, X):
        """Learns the rows of a pandas DataFrame in order, through learn_one
        (a stateless transformer's learns nothing)."""
        if type(self).learn_one is _Composable.learn_one:
            return
        for x in X.to_dict(orient="records"):
            self.learn_one(x)

    def transform_many(self, X):
        import pandas as pd
        rows = [self.transform_one(x) for x in X.to_dict(orient="records")]
        return pd.DataFrame(rows, index=X.index)


class FuncTransformer(_Composable):
    """Applies func to each sample: x -> func(x) (a dict)."""

    def __init__(self, func):
        self.func = func

    def transform_one(self, x):
        return self.func(x)

    def __repr__(self):
        return _name(self.func)


class Select(_Composable):
    """Keeps only the given features."""

    def __init__(self, *keys):
        self.keys = set(keys)
        self._order = keys

    def transform_one(self, x):
        return {k: v for k, v in x.items() if k in self.keys}

    def __repr__(self):
        return "Select(" + ", ".join(repr(k) for k in self._order) + ")"


class Discard(_Composable):
    """Drops the given features."""

    def __init__(self, *keys):
        self.keys = set(keys)
        self._order = keys

    def transform_one(self, x):
        return {k: v for k, v in x.items() if k not in self.keys}

    def __repr__(self):
        return "Discard(" + ", ".join(repr(k) for k in self._order) + ")"


class TransformerUnion(_Composable):
    """Runs every transformer on the same sample and merges their outputs."""

    def __init__(self, *transformers):
        self.transformers = []
        for t in transformers:
            if isinstance(t, tuple):
                t = t[1]
            t = _as_step(t)
            if isinstance(t, TransformerUnion):
                self.transformers.extend(t.transformers)
            else:
                self.transformers.append(t)

    def __add__(self, other):
        return TransformerUnion(*self.transformers, other)

    @property
    def _supervised(self):
        return any(getattr(t, "_supervised", False) for t in self.transformers)

    def learn_one(self, x, y=None):
        for t in self.transformers:
            if getattr(t, "_supervised", False):
                if y is not None:
                    t.learn_one(x, y)
            else:
                t.learn_one(x)

    def transform_one(self, x):
        out = {}
        for t in self.transformers:
            out.update(t.transform_one(x))
        return out

    def __repr__(self):
        return " + ".join(repr(t) for t in self.transformers)


def _is_learner(step):
    return hasattr(step, "predict_one") or hasattr(step, "score_one")


class Pipeline(_Composable):
    """Steps run in order; every step but the last is a transformer
    (learn_one(x), transform_one(x)), the last may be a learner. Learning
    updates each transformer on the sample before passing its output on;
    predicting only transforms. Steps may be given as (name, step) pairs;
    pipeline[name] or pipeline[i] returns a step."""

    def __init__(self, *steps):
        if not steps:
            raise ValueError("Pipeline needs at least one step")
        self.steps = collections.OrderedDict()
        for step in steps:
            if isinstance(step, Pipeline):
                for name, s in step.steps.items():
                    self._add(name, s)
                continue
            name = None
            if isinstance(step, tuple) and len(step) == 2 and isinstance(step[0], str):
                name, step = step
            step = _as_step(step)
            self._add(name or _name(step), step)
        self._note_scaled_input()

    def _note_scaled_input(self):
        """A learner right after a StandardScaler is told its input is
        already standardised (its own standardize setting then defaults to
        off, as River's models after a StandardScaler scale nothing again)."""
        from .preprocessing import StandardScaler
        steps = list(self.steps.values())
        if len(steps) >= 2 and isinstance(steps[-2], StandardScaler) and hasattr(steps[-1], "_input_standardized"):
            steps[-1]._input_standardized()

    def _add(self, name, step):
        base, i = name, 2
        while name in self.steps:
            name = f"{base}{i}"
            i += 1
        self.steps[name] = step

    def __or__(self, other):
        return Pipeline(*self.steps.items(), other)

    def __ror__(self, other):
        return Pipeline(other, *self.steps.items())

    def __getitem__(self, key):
        if isinstance(key, int):
            return list(self.steps.values())[key]
        return self.steps[key]

    def __len__(self):
        return len(self.steps)

    def __iter__(self):
        return iter(self.steps.values())

    @property
    def _last(self):
        return next(reversed(self.steps.values()))

    def _transformers(self):
        return list(self.steps.values())[:-1]

    def _transform(self, x, learn, y=None):
        for step in self._transformers():
            if learn:
                # Supervised transformers (TargetAgg) learn from the target too.
                if getattr(step, "_supervised", False):
                    if y is not None:
                        step.learn_one(x, y)
                else:
                    step.learn_one(x)
            x = step.transform_one(x)
        return x

    def learn_one(self, x, y=None, **kwargs):
        x = self._transform(x, learn=True, y=y)
        last = self._last
        if y is None and not _is_learner(last):
            last.learn_one(x)
        else:
            last.learn_one(x, y, **kwargs)

    def transform_one(self, x):
        return self._last.transform_one(self._transform(x, learn=False))

    def predict_one(self, x, **kwargs):
        return self._last.predict_one(self._transform(x, learn=False), **kwargs)

    def predict_proba_one(self, x, **kwargs):
        return self._last.predict_proba_one(self._transform(x, learn=False), **kwargs)

    def score_one(self, x):
        return self._last.score_one(self._transform(x, learn=False))

    def __getattr__(self, name):
        # predict_interval_one and other learner methods reach the last step
        if name.startswith("_") or name == "steps":
            raise AttributeError(name)
        attr = getattr(self._last, name)
        if callable(attr) and name.endswith("_one"):
            return lambda x, *a, **k: attr(self._transform(x, learn=False), *a, **k)
        raise AttributeError(f"'Pipeline' object has no attribute '{name}'")

    # --- batches (pandas DataFrames), as River's mini-batch methods -----------------
    def _frame(self, X, learn, y=None):
        for step in self._transformers():
            if learn:
                if getattr(step, "_supervised", False):
                    # Supervised transformers (TargetAgg) learn from the target too, row by row.
                    if y is not None:
                        for x, target in zip(X.to_dict(orient="records"), y):
                            step.learn_one(x, target)
                elif hasattr(step, "learn_many"):
                    step.learn_many(X)
                else:
                    for x in X.to_dict(orient="records"):
                        step.learn_one(x)
            X = step.transform_many(X) if hasattr(step, "transform_many") else \
                _Composable.transform_many(step, X)
        return X

    def learn_many(self, X, y=None, *, every=0, callback=None, subsample=None, **kwargs):
        """Every step learns the rows of the DataFrame X (transformers first,
        as River's mini-batch methods do). every=N, callback=f: the rows go
        through the whole pipeline in chunks of N, with f(n_done) after each
        (and once for a last, shorter chunk). subsample=k: the pipeline
        learns k rows drawn by reservoir sampling (seeded by the last step's
        seed), kept in their order; the rest are not learned by any step."""
        if every or callback is not None or subsample is not None:
            self._learn_batches(X, y, every, callback, subsample, kwargs)
            return
        X = self._frame(X, learn=True, y=y)
        if y is None and not _is_learner(self._last):
            self._last.learn_many(X)
        else:
            self._last.learn_many(X, y, **kwargs)

    def _learn_batches(self, X, y, every, callback, subsample, kwargs):
        from ._learners import _batch_rows
        import numpy as np
        rows, every = _batch_rows("Pipeline", getattr(self._last, "seed", 42), len(X), every, callback, subsample)

        def take(v, index):
            if v is None:
                return None
            return v.iloc[index] if hasattr(v, "iloc") else np.asarray(v)[index]

        weight = kwargs.pop("sample_weight", None)
        if rows is not None:
            X, y, weight = X.iloc[rows], take(y, rows), take(weight, rows)
        if every == 0:
            every = max(len(X), 1)
            callback = None
        for start in range(0, len(X), every):
            chunk = slice(start, min(start + every, len(X)))
            extra = dict(kwargs)
            if weight is not None:
                extra["sample_weight"] = take(weight, chunk)
            self.learn_many(X.iloc[chunk], take(y, chunk), **extra)
            if callback is not None:
                callback(chunk.stop)

    def predict_many(self, X):
        return self._last.predict_many(self._frame(X, learn=False))

    def predict_proba_many(self, X):
        return self._last.predict_proba_many(self._frame(X, learn=False))

    def transform_many(self, X):
        X = self._frame(X, learn=False)
        last = self._last
        return last.transform_many(X) if hasattr(last, "transform_many") else _Composable.transform_many(last, X)

    @property
    def memory_bytes(self):
        return sum(getattr(s, "memory_bytes", 0) for s in self.steps.values())

    def clone(self):
        return Pipeline(*((n, s.clone() if hasattr(s, "clone") else s) for n, s in self.steps.items()))

    def __getstate__(self):
        return {"steps": list(self.steps.items())}

    def __setstate__(self, state):
        self.steps = collections.OrderedDict(state["steps"])

    def __repr__(self):
        return " | ".join(repr(s) for s in self.steps.values())
