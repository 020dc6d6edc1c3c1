"""Pictures of what irithyll.evaluate recorded. matplotlib (Debian:
python3-matplotlib) is imported only when a function here is called."""


def learning_curve(curve, ax=None, title=None):
    """Draws a curve from evaluate.learning_curve: the metric against samples
    seen, with a dashed vertical line at each drift the detector signalled.
    Returns the matplotlib Axes."""
    try:
        import matplotlib
        if ax is None:
            matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("irithyll.plot needs matplotlib (Debian: python3-matplotlib)") from e
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.5))
    ax.plot(curve["n"], curve["value"], label=curve["metric"])
    for i, n in enumerate(curve["drifts"]):
        ax.axvline(n, color="tab:red", linestyle="--", linewidth=0.8, label="drift" if i == 0 else None)
    ax.set_xlabel("samples")
    ax.set_ylabel(curve["metric"])
    if title:
        ax.set_title(title)
    ax.legend(loc="best")
    return ax
