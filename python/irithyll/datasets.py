"""Datasets with River's names. Nothing is ever downloaded.

File datasets read a local CSV copy: the path given to the constructor, or
else the file of that name in the folder named by the environment variable
IRITHYLL_DATASETS. A missing file raises FileNotFoundError saying both.

    >>> from irithyll import datasets
    >>> for x, y in datasets.Elec2("elec8.csv"): ...
    >>> for x, y in datasets.synth.SEA(variant=0, seed=42).take(1000): ...

synth holds the generators with River's names and parameters: SEA,
Agrawal, Hyperplane, RandomRBF, Friedman, STAGGER, Sine, Mixed, LED,
Waveform, the drifting RandomRBFDrift, FriedmanDrift and LEDDrift, and
ConceptDriftStream, which joins two of them with a drift between.
"""
import itertools
import os
import sys

from . import _synth as synth
from . import stream

sys.modules[__name__ + ".synth"] = synth

__all__ = ["CSVDataset", "Elec2", "Electricity", "SEAStream", "synth"]


class CSVDataset:
    """A stream read from a local CSV file (see the module docstring)."""
    filename = ""
    target = "class"
    converters = None
    task = "Binary classification"
    n_features = 0

    def __init__(self, path=None):
        self.path = os.fspath(path) if path is not None else self._default_path()

    def _default_path(self):
        folder = os.environ.get("IRITHYLL_DATASETS")
        if not folder:
            raise FileNotFoundError(f"{type(self).__name__}: give the path of a local {self.filename} "
                                    f"(nothing is downloaded), or set IRITHYLL_DATASETS to its folder")
        return os.path.join(folder, self.filename)

    def __iter__(self):
        if not os.path.exists(self.path):
            raise FileNotFoundError(f"{type(self).__name__}: no file {self.path} (nothing is downloaded: "
                                    f"give a local copy of {self.filename} by path or IRITHYLL_DATASETS)")
        return stream.iter_csv(self.path, target=self.target, converters=self.converters)

    def take(self, k):
        return itertools.islice(self, k)

    def __repr__(self):
        return f"{type(self).__name__}({self.path!r})"


def _up(text):
    return text == "UP"


class Elec2(CSVDataset):
    """Electricity prices in New South Wales (Harries, 1999): 45,312 half
    hours, y = True when the price went up. River's Elec2 columns (date,
    day, period, nswprice, nswdemand, vicprice, vicdemand, transfer, class
    UP/DOWN); the file is usually named elec8.csv."""
    filename = "elec8.csv"
    converters = {"class": _up}
    n_features = 8


class Electricity(CSVDataset):
    """The six-feature normalised electricity table (elec.csv): period,
    nswprice, nswdemand, vicprice, vicdemand, transfer; class 0/1."""
    filename = "elec.csv"
    n_features = 6


class SEAStream(CSVDataset):
    """A recorded SEA concepts stream (sea_stream.csv): attrib1..3, class 0/1."""
    filename = "sea_stream.csv"
    n_features = 3
