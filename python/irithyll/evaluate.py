"""progressive_val_score: the prequential loop (predict, score, then learn)."""
import time



def _has_proba(model):
    try:
        return callable(getattr(getattr(model, "_last", model), "predict_proba_one"))
    except AttributeError:
        return False


def _memory_text(model):
    total = getattr(model, "memory_bytes", 0)
    return f"{total / 1024:.1f} KiB"


def progressive_val_score(dataset, model, metric, print_every=0, show_time=False, show_memory=False):
    """Runs model over dataset ((x, y) pairs) predict-then-learn and returns
    metric. Every sample is scored, the first included, except where the model
    has nothing to say yet (None or an empty probability dict). print_every=N
    prints the metric every N samples and at the end."""
    wants_proba = not getattr(metric, "requires_labels", True) and _has_proba(model)
    predict = model.predict_proba_one if wants_proba else model.predict_one
    start = time.perf_counter()
    n = 0

    def report():
        line = f"[{n:,}] {metric}"
        if show_time:
            line += f" – {time.perf_counter() - start:.2f}s"
        if show_memory:
            line += f" – {_memory_text(model)}"
        print(line)

    for x, y in dataset:
        n += 1
        y_pred = predict(x)
        if y_pred is not None and y_pred != {}:
            metric.update(y, y_pred)
        model.learn_one(x, y)
        if print_every and n % print_every == 0:
            report()
    if print_every and n % print_every != 0:
        report()
    return metric


def learning_curve(dataset, model, metric, step=1000, drift_detector=None):
    """Runs the prequential loop like progressive_val_score and records the
    metric every `step` samples (and at the end). With a drift detector
    (e.g. irithyll.drift.binary.DDM() for classifiers, drift.ADWIN() for
    regressors) it is fed each sample's error (1/0 mistake for a label,
    absolute error for a number) and the samples where it fires are kept.

    Returns {"n": [...], "value": [...], "metric": name, "drifts": [...]},
    which irithyll.plot.learning_curve draws.
    """
    if step < 1:
        raise ValueError(f"step = {step!r} is out of range: must be >= 1")
    wants_proba = not getattr(metric, "requires_labels", True) and _has_proba(model)
    predict = model.predict_proba_one if wants_proba else model.predict_one
    curve = {"n": [], "value": [], "metric": type(metric).__name__, "drifts": []}
    n = 0
    for x, y in dataset:
        n += 1
        y_pred = predict(x)
        if y_pred is not None and y_pred != {}:
            metric.update(y, y_pred)
            if drift_detector is not None:
                label = max(y_pred, key=y_pred.get) if isinstance(y_pred, dict) else y_pred
                if isinstance(y, (int, float)) and not isinstance(y, bool) and isinstance(label, (int, float)):
                    error = abs(float(y) - float(label))
                else:
                    error = float(label != y)
                drift_detector.update(error)
                if drift_detector.drift_detected:
                    curve["drifts"].append(n)
        model.learn_one(x, y)
        if n % step == 0:
            curve["n"].append(n)
            curve["value"].append(metric.get())
    if n % step != 0:
        curve["n"].append(n)
        curve["value"].append(metric.get())
    return curve
