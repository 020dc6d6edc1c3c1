"""River-style end to end: scale the elec stream and boost trees on it,
scoring every sample before learning from it.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/elec_pipeline.py ../shared/datasets/elec.csv
"""
import sys

from irithyll import ensemble, evaluate, metrics, preprocessing, stream


def main(path):
    model = preprocessing.StandardScaler() | ensemble.SGBTClassifier(
        n_steps=100, max_depth=6, learning_rate=0.1, grace_period=50, n_bins=32, classes=[0, 1])
    dataset = stream.iter_csv(path, target="class")
    evaluate.progressive_val_score(dataset, model, metrics.Accuracy(), print_every=15_000)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/datasets/elec.csv")
