"""Helpers with River's names: Rolling(metric, window_size) keeps a metric
over the last window_size updates (see irithyll.metrics)."""
from .metrics import Rolling

__all__ = ["Rolling"]
