"""Multi-armed and contextual bandit policies over the library's bandit area.

    >>> from irithyll import bandit
    >>> policy = bandit.UCB(["red", "blue"])
    >>> arm = policy.pull()
    >>> policy.update(arm, 1.0)

Each policy is built over a fixed set of arms: an int k (arms 0 .. k-1) or a
list of hashable arm ids. pull(context=None) returns the arm to play;
update(arm, reward, context=None) learns the reward of an arm that was played
(by this policy or by a logger). LinUCBDisjoint needs context_dim and a
context of that width (a sequence, or a dict whose keys keep the order of the
first one seen) in both calls. Settings are the CLI's (`irithyll bandit
--policy NAME --help`), with '-' written '_' (lambda as lambda_); a value out
of range raises ValueError. Deterministic given `seed`; pickling keeps the
complete state.
"""
from . import _core


class _Policy:
    _name = ""
    _contextual = False

    def __init__(self, arms, context_dim=0, **settings):
        if isinstance(arms, bool) or not isinstance(arms, (int, list, tuple)):
            raise ValueError(f"{type(self).__name__}: arms must be an int or a list of arm ids, not {arms!r}")
        ids = list(range(arms)) if isinstance(arms, int) else list(arms)
        if len(set(ids)) != len(ids):
            raise ValueError(f"{type(self).__name__}: arm ids must be distinct")
        self.arms = ids
        self._index = {a: i for i, a in enumerate(ids)}
        self._settings = dict(settings)
        pairs = []
        for key, value in settings.items():
            name = key.rstrip("_").replace("_", "-")
            if isinstance(value, bool):
                value = "on" if value else "off"
            pairs.append((name, str(value)))
        self._context_keys = None
        self._core = _core.BanditPolicy(self._name, len(ids), context_dim if self._contextual else 0, pairs)

    def _context(self, context):
        if not self._contextual:
            return []
        if context is None:
            raise ValueError(f"{type(self).__name__}: needs a context of {self._core.context_dim} values")
        if isinstance(context, dict):
            if self._context_keys is None:
                self._context_keys = list(context)
            try:
                return [float(context[k]) for k in self._context_keys]
            except KeyError as e:
                raise ValueError(f"{type(self).__name__}: context lacks key {e.args[0]!r}") from None
        return [float(v) for v in context]

    def pull(self, context=None):
        """The arm to play next."""
        return self.arms[self._core.select(self._context(context))]

    def update(self, arm, reward, context=None):
        """Learns `reward` for `arm`."""
        i = self._index.get(arm)
        if i is None:
            raise ValueError(f"{type(self).__name__}: unknown arm {arm!r}")
        self._core.update(i, float(reward), self._context(context))

    @property
    def ranking(self):
        """Arm ids by decreasing mean reward (ties keep the arms' order)."""
        values = self._core.values()
        return [self.arms[i] for i in sorted(range(len(values)), key=lambda i: -values[i])]

    @property
    def arm_values(self):
        return dict(zip(self.arms, self._core.values()))

    @property
    def arm_counts(self):
        return dict(zip(self.arms, self._core.counts()))

    @property
    def n(self):
        return self._core.pulls

    def reset(self):
        self._core.reset()

    def __getstate__(self):
        return {"arms": self.arms, "settings": self._settings, "context_dim": self._core.context_dim,
                "context_keys": self._context_keys, "state": self._core.encode()}

    def __setstate__(self, state):
        type(self).__init__(self, state["arms"], **self._init_kwargs(state))
        self._context_keys = state["context_keys"]
        self._core.decode(state["state"])

    def _init_kwargs(self, state):
        return dict(state["settings"])

    def __repr__(self):
        return f"{type(self).__name__}(arms={self.arms!r})"


def _policy(cls_name, name, doc, contextual=False):
    attrs = {"_name": name, "_contextual": contextual, "__doc__": doc, "__module__": __name__}
    if contextual:
        def init(self, arms, context_dim, **settings):
            _Policy.__init__(self, arms, context_dim, **settings)

        def init_kwargs(self, state):
            return dict(state["settings"], context_dim=state["context_dim"])

        attrs["__init__"] = init
        attrs["_init_kwargs"] = init_kwargs
    else:
        def init(self, arms, **settings):
            _Policy.__init__(self, arms, 0, **settings)

        attrs["__init__"] = init
    return type(cls_name, (_Policy,), attrs)


EpsilonGreedy = _policy("EpsilonGreedy", "epsilon-greedy",
                        "Explores a random arm with probability epsilon (decaying with `decay`), else the best mean.")
UCB = _policy("UCB", "ucb", "UCB1 (variant='ucb1') or UCB-Tuned (variant='tuned') upper confidence bounds.")
ThompsonSampling = _policy("ThompsonSampling", "thompson",
                           "Thompson sampling, Beta-Bernoulli (model='bernoulli') or Gaussian (model='gaussian').")
DiscountedThompsonSampling = _policy("DiscountedThompsonSampling", "discounted-thompson",
                                     "Beta-Bernoulli Thompson sampling whose counts decay by `discount` per pull.")
LinUCBDisjoint = _policy("LinUCBDisjoint", "linucb",
                         "Disjoint LinUCB (Li et al. 2010): one ridge regression per arm on the context.", True)
LinUCB = LinUCBDisjoint

__all__ = ["DiscountedThompsonSampling", "EpsilonGreedy", "LinUCB", "LinUCBDisjoint", "ThompsonSampling", "UCB"]
