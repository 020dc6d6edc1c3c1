"""progressive_val_score: the prequential loop (predict, score, then learn)."""
import time

from .metrics import LogLoss


def _memory_text(model):
    steps = getattr(model, "steps", [model])
    total = sum(getattr(s, "memory_bytes", 0) for s in steps)
    return f"{total / 1024:.1f} KiB"


def progressive_val_score(dataset, model, metric, print_every=0, show_time=False, show_memory=False):
    """Runs model over dataset ((x, y) pairs) predict-then-learn and returns
    metric. Every sample is scored, the first included, except where the model
    has nothing to say yet (None or an empty probability dict). print_every=N
    prints the metric every N samples and at the end."""
    wants_proba = isinstance(metric, LogLoss)
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
