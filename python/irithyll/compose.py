"""Pipeline: transformers followed by one learner (`scaler | model`)."""


class Pipeline:
    """Steps run in order; every step but the last is a transformer
    (learn_one(x), transform_one(x)), the last may be a learner. Learning
    updates each transformer on the sample before passing its output on;
    predicting only transforms."""

    def __init__(self, *steps):
        if not steps:
            raise ValueError("Pipeline needs at least one step")
        self.steps = list(steps)

    def __or__(self, other):
        return Pipeline(*self.steps, other)

    def _transform(self, x, learn):
        for step in self.steps[:-1]:
            if learn:
                step.learn_one(x)
            x = step.transform_one(x)
        return x

    def learn_one(self, x, y=None, **kwargs):
        x = self._transform(x, learn=True)
        last = self.steps[-1]
        if y is None and not hasattr(last, "predict_one"):
            last.learn_one(x)
        else:
            last.learn_one(x, y, **kwargs)

    def transform_one(self, x):
        return self.steps[-1].transform_one(self._transform(x, learn=False))

    def predict_one(self, x):
        return self.steps[-1].predict_one(self._transform(x, learn=False))

    def predict_proba_one(self, x):
        return self.steps[-1].predict_proba_one(self._transform(x, learn=False))

    def __repr__(self):
        return " | ".join(repr(s) for s in self.steps)
