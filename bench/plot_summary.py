#!/usr/bin/env python3
"""Draws the summary plot at the top of BENCHMARKS.md from bench/summary.csv.

Each row of the CSV is one headline workload measured against an anchor in
the same run: workload, unit, ours, anchor, anchor_value, lower_is_better.
The plot shows how many times better ours is (anchor / ours for times,
ours / anchor for rates) on a log axis, one bar per workload.

    /usr/bin/python3 bench/plot_summary.py [bench/summary.csv] [bench/summary.svg]

Needs matplotlib (Debian: python3-matplotlib).
"""
import csv
import sys


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "bench/summary.csv"
    dst = sys.argv[2] if len(sys.argv) > 2 else "bench/summary.svg"
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        print(f"plot_summary: matplotlib not importable ({exc}); Debian: python3-matplotlib")
        return 1
    rows = list(csv.DictReader(open(src, encoding="utf-8")))
    labels, ratios = [], []
    for r in rows:
        ours, anchor = float(r["ours"]), float(r["anchor_value"])
        ratio = anchor / ours if r["lower_is_better"] == "1" else ours / anchor
        labels.append(f"{r['workload']}\nvs {r['anchor']}")
        ratios.append(ratio)
    fig, ax = plt.subplots(figsize=(8, 0.55 * len(rows) + 1.2))
    y = range(len(rows))
    colours = ["#2a7" if v >= 1 else "#c44" for v in ratios]
    ax.barh(list(y), ratios, color=colours)
    ax.set_xscale("log")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(list(y))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    for i, v in enumerate(ratios):
        ax.text(v, i, f" {v:.3g}x", va="center", fontsize=8)
    ax.set_xlabel("times better than the anchor (log scale; > 1: irithyll ahead)")
    ax.set_title("irithyll against its anchors, measured in the same run")
    fig.tight_layout()
    fig.savefig(dst)
    print(f"plot_summary: wrote {dst} ({len(rows)} workloads)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
