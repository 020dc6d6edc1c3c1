"""Optimizers named as in River, for River's habit of passing one to a
linear model: LogisticRegression(optimizer=optim.SGD(0.1)) is
LogisticRegression(optimizer='sgd', learning_rate=0.1). They carry a name
and a learning rate; the optimizer itself runs inside the C++ model."""

__all__ = ["AdaGrad", "Adam", "SGD"]


class _Optimizer:
    river_name = ""
    default_lr = 0.01

    def __init__(self, lr=None):
        lr = self.default_lr if lr is None else lr
        if isinstance(lr, (str, bytes, bool)) or not float(lr) > 0.0:
            raise ValueError(f"{type(self).__name__}: lr = {lr!r} must be a number > 0 (River's learning-rate "
                             "schedulers are not accepted: use the model's schedule setting)")
        self.lr = float(lr)

    def __repr__(self):
        return f"{type(self).__name__}(lr={self.lr!r})"


class SGD(_Optimizer):
    """Plain stochastic gradient descent (River's default lr 0.01)."""
    river_name = "sgd"


class Adam(_Optimizer):
    """Adam (Kingma and Ba, 2015); River's default lr 0.1."""
    river_name = "adam"
    default_lr = 0.1


class AdaGrad(_Optimizer):
    """AdaGrad (Duchi et al., 2011); River's default lr 0.1."""
    river_name = "adagrad"
    default_lr = 0.1
