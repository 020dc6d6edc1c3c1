"""irithyll.bandit: River-named policies over the library's bandit area."""
import pickle
import random

import pytest

from irithyll import bandit


def _play(policy, means, steps, seed):
    rng = random.Random(seed)
    total = 0.0
    for _ in range(steps):
        arm = policy.pull()
        reward = 1.0 if rng.random() < means[arm] else 0.0
        policy.update(arm, reward)
        total += reward
    return total


@pytest.mark.parametrize("make", [
    lambda arms: bandit.UCB(arms),
    lambda arms: bandit.ThompsonSampling(arms, seed=3),
    lambda arms: bandit.EpsilonGreedy(arms, epsilon=0.05, seed=3),
    lambda arms: bandit.DiscountedThompsonSampling(arms, discount=0.999, seed=3),
])
def test_policies_find_the_best_arm(make):
    # Gap 0.4 between the best arm and the others over 3000 pulls: every
    # policy here pulls the best arm most; a failure would need the best
    # arm's empirical mean to stay below 0.5 for hundreds of pulls, which has
    # probability far below 1e-9.
    means = {"a": 0.3, "b": 0.8, "c": 0.4}
    policy = make(list(means))
    _play(policy, means, 3000, seed=1)
    assert policy.ranking[0] == "b"
    assert max(policy.arm_counts, key=policy.arm_counts.get) == "b"
    assert policy.n == 3000


def test_linucb_learns_which_arm_fits_the_context():
    rng = random.Random(4)
    policy = bandit.LinUCBDisjoint(2, context_dim=2, alpha=0.5)
    good = 0
    for t in range(2000):
        x = {"u": rng.uniform(-1, 1), "v": rng.uniform(-1, 1)}
        arm = policy.pull(x)
        best = 0 if x["u"] > 0 else 1
        policy.update(arm, (1.0 if arm == best else 0.0) + rng.gauss(0, 0.1), x)
        good += t >= 1000 and arm == best
    # The rule is linear in u; past the first 1000 pulls the policy picks the
    # right arm nearly always (> 0.85; a miss rate of 0.15 would need the
    # ridge fits to be wrong on a wide band of u, not seen on any seed).
    assert good / 1000 > 0.85
    with pytest.raises(ValueError):
        policy.pull([0.5])  # wrong width
    with pytest.raises(ValueError):
        policy.pull()


def test_bad_input_is_refused():
    policy = bandit.UCB(2)
    with pytest.raises(ValueError):
        policy.update(5, 1.0)
    with pytest.raises(ValueError):
        policy.update(0, float("nan"))
    with pytest.raises(ValueError):
        bandit.EpsilonGreedy(2, epsilon=2.0)
    with pytest.raises(ValueError):
        bandit.UCB(0)
    with pytest.raises(ValueError):
        bandit.UCB(["a", "a"])


def test_pickle_continues_identically_and_reset_rewinds():
    means = [0.2, 0.5, 0.6]
    a = bandit.ThompsonSampling(3, seed=9)
    _play(a, means, 500, seed=2)
    b = pickle.loads(pickle.dumps(a))
    assert [a.pull() for _ in range(50)] == [b.pull() for _ in range(50)]
    fresh = bandit.ThompsonSampling(3, seed=9)
    a.reset()
    assert [a.pull() for _ in range(20)] == [fresh.pull() for _ in range(20)]
