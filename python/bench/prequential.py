"""Benchmark: the prequential loop in Python against the CLI.

    PYTHONPATH=build/python /usr/bin/python3 python/bench/prequential.py ../shared/datasets/elec.csv [--cli build/irithyll]

Runs SGBT (100 steps, depth 6, lr 0.1, grace 50, 32 bins) over elec three
ways: predict_one/learn_one on dict samples; predict_many then learn_many
on chunks of numpy rows (chunk 1 is exactly prequential; larger chunks
predict a whole chunk before learning it, so accuracy can move a little);
and the CLI (which also parses the CSV inside its time). Prints samples/s, accuracy
and the per-call cost of predict_one. Times are CPU seconds of this process
(time.process_time), so other load on the machine matters less. The last
line is the same figures as one JSON object (with the commit).
"""
import argparse
import json
import re
import subprocess
import sys
import time

import numpy as np

from irithyll import ensemble, stream

SETTINGS = dict(n_steps=100, max_depth=6, learning_rate=0.1, grace_period=50, n_bins=32)


def dict_loop(data):
    model = ensemble.SGBTClassifier(classes=[0, 1], **SETTINGS)
    correct = 0
    start = time.process_time()
    for x, y in data:
        correct += model.predict_one(x) == y
        model.learn_one(x, y)
    return time.process_time() - start, correct / len(data), model


def csv_loop(path):
    """The issue's loop verbatim, reading the CSV inside the clock as the CLI does."""
    model = ensemble.SGBTClassifier(classes=[0, 1], **SETTINGS)
    correct = n = 0
    start = time.process_time()
    for x, y in stream.iter_csv(path, target="class"):
        p = model.predict_proba_one(x)
        correct += (p[1] > p[0]) == (y == 1)
        model.learn_one(x, y)
        n += 1
    return time.process_time() - start, correct / n


def proba_loop(data):
    """The issue's loop: predict_proba_one, then learn_one; accuracy from the proba."""
    model = ensemble.SGBTClassifier(classes=[0, 1], **SETTINGS)
    correct = 0
    start = time.process_time()
    for x, y in data:
        p = model.predict_proba_one(x)
        correct += (p[1] > p[0]) == (y == 1)
        model.learn_one(x, y)
    return time.process_time() - start, correct / len(data)


def batch_loop(X, y, chunk):
    model = ensemble.SGBTClassifier(classes=[0, 1], **SETTINGS)
    correct = 0
    start = time.process_time()
    for i in range(0, len(X), chunk):
        xs, ys = X[i:i + chunk], y[i:i + chunk]
        correct += int((model.predict_many(xs) == ys).sum())
        model.learn_many(xs, ys)
    return time.process_time() - start, correct / len(X)


def cli_run(cli, path):
    args = [cli, "eval", "--data", path, "--n-steps", "100", "--max-depth", "6", "--learning-rate", "0.1",
            "--grace-period", "50", "--n-bins", "32"]
    start = time.perf_counter()
    before = _children_cpu()
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    cpu = _children_cpu() - before
    del start
    acc = float(re.search(r"accuracy\s+([0-9.]+)", out).group(1))
    return cpu, acc


def _children_cpu():
    import os
    t = os.times()
    return t.children_user + t.children_system


def main():
    p = argparse.ArgumentParser()
    p.add_argument("data")
    p.add_argument("--cli", default="build/irithyll")
    p.add_argument("--chunks", default="1,100,1000")
    a = p.parse_args()
    data = list(stream.iter_csv(a.data, target="class"))
    n = len(data)
    X = np.array([list(x.values()) for x, _ in data])
    y = np.array([t for _, t in data])

    cli_s, cli_acc = cli_run(a.cli, a.data)
    dict_s, dict_acc, model = dict_loop(data)
    proba_s, proba_acc = proba_loop(data)
    csv_s, csv_acc = csv_loop(a.data)
    batches = [(c, *batch_loop(X, y, c)) for c in map(int, a.chunks.split(","))]
    fused = ensemble.SGBTClassifier(classes=[0, 1], **SETTINGS)
    start = time.process_time()
    fused_acc = float((fused.predict_learn_many(X, y) == y).mean())
    fused_s = time.process_time() - start
    # The same on a pandas DataFrame and Series (skipped without pandas).
    frame_s = frame_acc = None
    try:
        import pandas as pd
    except ImportError:
        pd = None
    if pd is not None:
        X_df, y_s = pd.DataFrame(X, columns=list(data[0][0])), pd.Series(y, name="class")
        framed = ensemble.SGBTClassifier(classes=[0, 1], **SETTINGS)
        start = time.process_time()
        frame_acc = float((framed.predict_learn_many(X_df, y_s) == y).mean())
        frame_s = time.process_time() - start
    # Whole stream in one call each: learn_many(X, y) then predict_many(X).
    whole = ensemble.SGBTClassifier(classes=[0, 1], **SETTINGS)
    start = time.process_time()
    whole.learn_many(X, y)
    learn_s = time.process_time() - start
    start = time.process_time()
    whole.predict_many(X)
    predict_s = time.process_time() - start

    x0 = data[0][0]
    reps = 20000
    start = time.process_time()
    for _ in range(reps):
        model.predict_one(x0)
    per_call = (time.process_time() - start) / reps * 1e9
    proba_start = time.process_time()
    for _ in range(reps):
        model._model.predict_dict(x0)
    core_call = (time.process_time() - proba_start) / reps * 1e9

    # Per-call overhead on a model whose own prediction costs next to nothing.
    tiny = ensemble.SGBTRegressor(n_steps=1)
    tiny.learn_one(x0, 1.0)
    X1 = np.tile(X[:1], (reps, 1))
    start = time.process_time()
    for _ in range(reps):
        tiny.predict_one(x0)
    tiny_one = (time.process_time() - start) / reps * 1e9
    start = time.process_time()
    tiny.predict_many(X1)
    tiny_row = (time.process_time() - start) / reps * 1e9

    print(f"samples            {n}")
    print(f"cli                {n / cli_s:10.0f} samples/s  accuracy {cli_acc:.4f}  (CPU s {cli_s:.3f})")
    print(f"python dict loop   {n / dict_s:10.0f} samples/s  accuracy {dict_acc:.4f}  ratio {cli_s / dict_s:.2f}x")
    print(f"python proba loop  {n / proba_s:10.0f} samples/s  accuracy {proba_acc:.4f}  ratio {cli_s / proba_s:.2f}x")
    print(f"  + iter_csv inside {n / csv_s:10.0f} samples/s  accuracy {csv_acc:.4f}  ratio {cli_s / csv_s:.2f}x")
    for chunk, batch_s, batch_acc in batches:
        print(f"many, chunk {chunk:<6d} {n / batch_s:10.0f} samples/s  accuracy {batch_acc:.4f}  "
              f"ratio {cli_s / batch_s:.2f}x")
    print(f"predict_learn_many {n / fused_s:10.0f} samples/s  accuracy {fused_acc:.4f}  ratio {cli_s / fused_s:.2f}x")
    if frame_s is not None:
        print(f"predict_learn_many (DataFrame) {n / frame_s:10.0f} samples/s  accuracy {frame_acc:.4f}  "
              f"ratio {cli_s / frame_s:.2f}x")
    print(f"learn_many(X)      {n / learn_s:10.0f} samples/s  (whole stream, one call)")
    print(f"predict_many(X)    {n / predict_s:10.0f} samples/s  (whole stream, one call)")
    print(f"predict_one        {per_call:10.0f} ns/call (classifier: dict -> label)")
    print(f"_core predict_dict {core_call:10.0f} ns/call (binding alone)")
    print(f"tiny predict_one   {tiny_one:10.0f} ns/call vs predict_many {tiny_row:.0f} ns/row (1-step SGBT: "
          "the per-call overhead of a dict sample)")
    row_ns = predict_s / n * 1e9
    print(f"overhead           {per_call - row_ns:10.0f} ns/call predict_one over predict_many's {row_ns:.0f} ns/row; "
          f"binding alone {core_call - row_ns:.0f} ns")
    record = {
        "bench": "python_prequential_elec", "commit": _commit(), "python": sys.version.split()[0],
        "samples": n, "cli_sps": n / cli_s, "cli_accuracy": cli_acc,
        "dict_loop_sps": n / dict_s, "dict_loop_accuracy": dict_acc,
        "proba_loop_sps": n / proba_s, "iter_csv_loop_sps": n / csv_s, "iter_csv_loop_accuracy": csv_acc,
        "predict_learn_many_sps": n / fused_s, "predict_learn_many_accuracy": fused_acc,
        "predict_learn_many_frame_sps": None if frame_s is None else n / frame_s,
        "predict_learn_many_frame_accuracy": frame_acc,
        "learn_many_sps": n / learn_s, "predict_many_sps": n / predict_s,
        "predict_one_ns": per_call, "tiny_predict_one_ns": tiny_one, "tiny_predict_many_ns_per_row": tiny_row,
    }
    print(json.dumps(record))
    return 0


def _commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
