"""Export > Training as Python: a script that takes the training tab's run again with the engine (and, as
an option, beside it with PyTorch), from the same points, the same initial weights, optimizer, schedule
and minibatches, printing the losses the tab's curves show. Qt-free.

The run starts from the network's initial weights (those of the settings' seed and initialisation),
so a script exported after 1,000 steps retraces those 1,000 steps rather than starting from where
they ended; its step k prints the loss the curve showed at step k. A graph drawn in the editor is written
as a module of its own (`graph_script`), starting from its drawn values.

Dropout drops the units the tab's run drops: its masks come from a generator seeded as the session seeds
its own (`network.learner`), drawn in the step's forward pass only (`_DROPOUT_IN_THE_STEP`). The PyTorch
check draws the same masks from a twin of that generator, in the same order, and applies them as PyTorch's
dropout does, ``input * (mask / (1 - p))``: PyTorch's own dropout would drop other units, and its run
would be another run, not a check.
"""

from __future__ import annotations

import numpy as np

from ...files.exported_scripts import how_to_run, import_guard, torch_guard
from .graph_script import ENGINE_CLASS, TORCH_CLASS, engine_model, torch_model
from .network import DROPOUT_SEED_SALT, LEAKY_SLOPE, input_features, model_for
from .points import FEATURE_FORMULAS, SplitData
from .settings import DATASETS, TrainingSettings

_ENGINE_ACTIVATIONS = {"tanh": "Tanh()", "relu": "ReLU()", "sigmoid": "Sigmoid()",
                       "leaky_relu": f"LeakyReLU({LEAKY_SLOPE})", "linear": "Identity()"}
_TORCH_ACTIVATIONS = {"tanh": "torch.nn.Tanh()", "relu": "torch.nn.ReLU()", "sigmoid": "torch.nn.Sigmoid()",
                      "leaky_relu": f"torch.nn.LeakyReLU({LEAKY_SLOPE})", "linear": "torch.nn.Identity()"}
_TORCH_LOSSES = {
    "tf_square": "0.5 * (torch.tanh(logits) - (2.0 * y - 1.0).reshape(logits.shape)).pow(2).mean()",
    "bce": "F.binary_cross_entropy_with_logits(logits, y.reshape(logits.shape))",
    "hinge": "(1.0 - (2.0 * y - 1.0).reshape(logits.shape) * logits).clamp(min=0.0).mean()",
    "mse": "F.mse_loss(logits, (2.0 * y - 1.0).reshape(logits.shape))",
    "cross_entropy": "F.cross_entropy(logits, y)",
}
_TORCH_REGRESSION_LOSSES = {
    "tf_square": "0.5 * (logits - y.reshape(logits.shape)).pow(2).mean()",
    "mse": "F.mse_loss(logits, y.reshape(logits.shape))",
    "huber": "F.huber_loss(logits, y.reshape(logits.shape), delta=1.0)",
}
BATCH_SEED_SALT = 104729  # `TrainingSession` seeds its minibatch order with (seed, step, this)
# A hidden layer with dropout: its activation, then its dropout, one slot of the Sequential (`network`).
_ENGINE_DROPOUT = "Sequential({}, Dropout({!r}, generator=masks))"
_TORCH_DROPOUT = "torch.nn.Sequential({}, SameMasks({!r}))"
_DROPOUT_IN_THE_STEP = [
    "class DropoutInTheStep(Module):",
    '    """The network as engine.train.train sees it: it takes the step\'s loss with autograd recording and the',
    "    figures beside it under no_grad, so the units drop out for the loss alone (model.train() before a",
    '    PyTorch step and model.eval() for its figures); between the steps the model is in evaluation mode."""',
    "",
    "    def __init__(self, model):",
    "        self.model = model",
    "",
    "    def forward(self, x):",
    "        self.model.train(engine.is_grad_enabled())",
    "        try:",
    "            return self.model(x)",
    "        finally:",
    "            self.model.eval()",
    "",
    '    def named_parameters(self, prefix=""):',
    "        return self.model.named_parameters(prefix)",
]
_SAME_MASKS = [
    "class SameMasks(torch.nn.Module):",
    '    """Dropout at rate p with the engine\'s masks: drawn from a twin of its generator, in the same order (each',
    "    dropout layer once a training step, first layer first), and applied as torch's dropout applies its own,",
    '    input * (mask / (1 - p)). Identity in evaluation mode."""',
    "",
    "    def __init__(self, p):",
    "        super().__init__()",
    "        self.p = p",
    "",
    "    def forward(self, x):",
    "        if not self.training or self.p == 0:",
    "            return x",
    "        keep = torch_masks.random(tuple(x.shape)) >= self.p",
    "        return x * torch.from_numpy(keep / (1.0 - self.p))",
]


def _array(values: np.ndarray) -> str:
    """A numpy literal that reads back exactly (floats as repr)."""
    return f"np.array({np.asarray(values).tolist()!r})"


def _layers(settings: TrainingSettings, activations: dict[str, str], linear: str, dropout: str) -> str:
    """The Sequential's modules: each Linear, and after a hidden one its activation (with ``dropout``'s
    format, its activation and its dropout, where the layer has a rate)."""
    sizes = settings.layer_sizes
    parts = []
    for index, (fan_in, fan_out) in enumerate(zip(sizes, sizes[1:])):
        parts.append(f"{linear}({fan_in}, {fan_out})")
        if index < len(settings.hidden):
            activation, rate = activations[settings.layer_activations[index]], settings.layer_dropout[index]
            parts.append(dropout.format(activation, rate) if rate > 0 else activation)
    return ",\n    ".join(parts)


def training_script(settings: TrainingSettings, data: SplitData, use_torch: bool = False, graph=None) -> str:
    """The script's text for a run of ``settings`` on ``data`` (of ``graph``, a graph document, when the settings
    train the editor's graph)."""
    s = settings
    network = model_for(s, graph)
    if s.trains_graph:
        model_lines, weights = engine_model(network)
        engine_imports = ["Module"]
        described = f"{network.describe()}; inputs x1, x2"
        model_part = [*model_lines, "", f"model = {ENGINE_CLASS}()"]
    else:
        weights = network.state_dict()
        engine_imports = sorted({"Linear", "Sequential", *(_ENGINE_ACTIVATIONS[name].split("(")[0]
                                                           for name in s.layer_activations)}
                                | ({"Dropout", "Module"} if s.has_dropout else set()))
        described = (f"{s.architecture()}, {s.activation_words()}{f', {s.dropout_words()}' if s.dropout else ''}; "
                     f"inputs {', '.join(s.features)}")
        model_part = ["model = Sequential(\n    " + _layers(s, _ENGINE_ACTIVATIONS, "Linear", _ENGINE_DROPOUT) + ",\n)"]
        if s.has_dropout:
            model_part = ["# The dropout masks, drawn as the app drew them (the same generator, the same seed).",
                          f"masks = np.random.default_rng([{s.seed}, 0, {DROPOUT_SEED_SALT}])", *model_part]
    inputs = input_features(s)
    features = ", ".join(FEATURE_FORMULAS[name] for name in inputs)
    optimizer = (f"Adam(model.parameters(), lr={s.learning_rate!r})" if s.optimizer == "adam" else
                 f"SGD(model.parameters(), lr={s.learning_rate!r}, momentum="
                 f"{s.momentum if s.optimizer == 'momentum' else 0.0!r})")
    loss_maker = "regression_loss" if s.regression else "classification_loss"
    tf = s.tf_playground  # its SGD, its loss and its batches in their fixed order (`tf_setting`)
    if tf:
        optimizer = (f"tp.PlaygroundSGD(model.parameters(), lr={s.learning_rate!r}, regularization="
                     f"{s.regularization!r}, rate={s.regularization_rate!r}, regularized="
                     f"{'weights(model)' if s.regularization != 'none' else '()'})")
    schedule = {"constant": None,
                "step": f"StepLR({{}}, step_size={s.schedule_steps}, gamma={s.schedule_gamma!r})",
                "cosine": f"CosineAnnealingLR({{}}, T_max={s.schedule_steps})"}[s.schedule]
    dataset = DATASETS[s.dataset] if s.dataset != "csv" else f"the points of {data.name or 'a CSV'}"
    lines = [
        '"""Exported by Autograd Playground: the training tab\'s run, taken again with the engine'
        + (" and beside it with PyTorch (float64)." if use_torch else "."),
        "",
        f"Data: {dataset}, {len(data.X_train)} training and {len(data.X_test)} test points, "
        + ("a real value each (regression)." if s.regression else f"{s.classes} classes."),
        f"Network: {described}.",
        f"Training: {s.loss}, {s.optimizer}, learning rate {s.learning_rate!r}, schedule {s.schedule}, "
        f"batch {s.batch_size or 'full'}, regularisation {s.regularization} at rate {s.regularization_rate!r}"
        + (", as the TF Playground trains (engine.tf_playground)." if tf else "."),
        "",
        *how_to_run(" [steps] [print every]   (500 and 50 unless given)"),
        '"""',
        "",
        "import sys",
        "",
        *import_guard([
            "import numpy as np",
            "",
            "import engine",
            "from engine import Tensor",
            f"from engine.nn import {', '.join(engine_imports)}",
            f"from engine.optim import {'Adam' if s.optimizer == 'adam' else 'SGD'}"
            + {"constant": "", "step": ", StepLR", "cosine": ", CosineAnnealingLR"}[s.schedule],
            *([f"from engine.train import {loss_maker}, train"] if not tf else
              ["import engine.tf_playground as tp", "from engine.nn.regularization import weights"]),
        ]),
        "",
    ]
    if use_torch:
        lines += [*torch_guard(["import torch", "import torch.nn.functional as F"]), ""]
    lines += [
        "STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 500",
        "PRINT_EVERY = int(sys.argv[2]) if len(sys.argv) > 2 else 50",
        "",
        "# The points (x1, x2) and their classes, as the training tab split them.",
        f"X_train = {_array(data.X_train)}",
        f"y_train = {_array(data.y_train)}",
        f"X_test = {_array(data.X_test)}",
        f"y_test = {_array(data.y_test)}",
        "",
        "",
        "def features(X):",
        f'    """The network\'s inputs: {", ".join(inputs)}."""',
        "    x1, x2 = X[:, 0], X[:, 1]",
        f"    return np.column_stack([{features}])",
        "",
        "",
        "F_train, F_test = features(X_train), features(X_test)",
        "",
        *(["", *_DROPOUT_IN_THE_STEP, "", ""] if s.has_dropout else []),
        (f"# The network with the weights it started from (seed {s.seed}, initialisation {s.init!r})."
         if not s.trains_graph else "# The graph with the values it was drawn with, where training started."),
        "INITIAL_WEIGHTS = {",
        *(f"    {name!r}: {_array(value)}," for name, value in weights.items()),
        "}",
        *model_part,
        "model.load_state_dict(INITIAL_WEIGHTS)",
        "model.eval()  # evaluated without dropout: the losses printed are the network's own",
        f"optimizer = {optimizer}",
        f"scheduler = {schedule.format('optimizer') if schedule else None}",
        *(_tf_steps(s) if tf else [
            f"loss_fn = {loss_maker}({s.loss!r})",
            "# The minibatches in the order the app drew them (the same generator, the same seed).",
            f"batches = np.random.default_rng([{s.seed}, 0, {BATCH_SEED_SALT}])",
            f"steps = train({'DropoutInTheStep(model)' if s.has_dropout else 'model'}, optimizer, loss_fn, F_train, "
            f"y_train, batch_size={s.batch_size!r}, "
            "random_state=batches, scheduler=scheduler,",
            f"              regularization={s.regularization!r}, rate={s.regularization_rate!r}, "
            f"problem={s.problem!r})"]),
        "",
        "",
        "def engine_losses():",
        '    """The loss over the whole training and test sets, as the tab\'s curves show them."""',
        "    with engine.no_grad():",
        "        return tuple(loss_fn(model(Tensor(F)), y).item() for F, y in ((F_train, y_train), (F_test, y_test)))",
        "",
        "",
    ]
    if use_torch:
        lines += _torch_part(s, optimizer, schedule, torch_model(network) if s.trains_graph else None)
    if use_torch:
        lines += ["worst = 0.0  # the largest difference between the engine's losses and PyTorch's"]
    lines += [
        "for step in range(1, STEPS + 1):",
        "    next(steps)",
    ]
    if use_torch:
        lines += ["    torch_step()"]
    lines += [
        "    if step % PRINT_EVERY == 0 or step == STEPS:",
        "        train_loss, test_loss = engine_losses()",
    ]
    if use_torch:
        lines += [
            "        torch_train, torch_test = torch_losses()",
            "        worst = max(worst, abs(train_loss - torch_train), abs(test_loss - torch_test))",
            '        print(f"step {step:6d}  train loss {train_loss!r}  test loss {test_loss!r}  "',
            '              f"torch {torch_train!r} {torch_test!r}")',
            'print(f"largest difference between the engine and PyTorch: {worst:.3g}")',
        ]
    else:
        lines += ['        print(f"step {step:6d}  train loss {train_loss!r}  test loss {test_loss!r}")']
    return "\n".join(lines) + "\n"


def _tf_steps(s: TrainingSettings) -> list[str]:
    """The engine's steps as the TF Playground takes them: its updates one a step (`engine.tf_playground.updates`)."""
    problem = "regression" if s.regression else "classification"
    model = "DropoutInTheStep(model)" if s.has_dropout else "model"
    return [f"loss_fn = tp.LOSSES[{problem!r}]",
            "# Its updates in its order: consecutive batches of the points as they came, a pass's remainder carried.",
            f"updates = tp.updates({model}, optimizer, F_train, y_train, batch_size={s.batch_size or 'len(F_train)'}, "
            f"problem={problem!r})",
            "",
            "",
            "def the_steps():",
            "    for _update in updates:",
            "        if scheduler is not None:",
            "            scheduler.step()",
            "        yield",
            "",
            "",
            "steps = the_steps()"]


def _torch_part(s: TrainingSettings, optimizer: str, schedule: str | None,
                graph_model: list[str] | None = None) -> list[str]:
    torch_optimizer = optimizer.replace("model.parameters()", "torch_model.parameters()")
    torch_optimizer = ("torch.optim." + torch_optimizer)
    if s.tf_playground:  # plain SGD, its step written out below as the TF Playground takes it
        torch_optimizer = f"torch.optim.SGD(torch_model.parameters(), lr={s.learning_rate!r})"
    as_targets = "" if s.loss == "cross_entropy" else ".astype(float)"  # class indices, or 0/1 as floats
    if graph_model is not None:  # its parameters start from INITIAL_WEIGHTS
        model = [*graph_model, "", f"torch_model = {TORCH_CLASS}()"]
    else:
        layers = _layers(s, _TORCH_ACTIVATIONS, "torch.nn.Linear", _TORCH_DROPOUT)
        model = ["torch_model = torch.nn.Sequential(\n    " + layers + ",\n)",
                 "torch_model.load_state_dict({name: torch.tensor(value) for name, value in INITIAL_WEIGHTS.items()})"]
        if s.has_dropout:
            model = [f"torch_masks = np.random.default_rng([{s.seed}, 0, {DROPOUT_SEED_SALT}])  # the engine's twin",
                     "", "", *_SAME_MASKS, "", "", *model]
    lines = [
        "# The same run in PyTorch, float64: the same weights, optimizer, schedule and minibatches.",
        "torch.set_default_dtype(torch.float64)",
        *model,
        f"torch_optimizer = {torch_optimizer}",
        "torch_scheduler = " + (("torch.optim.lr_scheduler." + schedule.format("torch_optimizer"))
                                if schedule else "None"),
        f"torch_batches = np.random.default_rng([{s.seed}, 0, {BATCH_SEED_SALT}])",
        "torch_order, torch_position = np.arange(len(F_train)), len(F_train)",
        "",
        "",
        "def torch_loss(logits, y):",
        f"    return {(_TORCH_REGRESSION_LOSSES if s.regression else _TORCH_LOSSES)[s.loss]}",
        "",
        "",
        *(_tf_torch_step(s, graph_model is not None) if s.tf_playground else _torch_step(s, as_targets, graph_model)),
        "",
        "",
        "def torch_losses():",
        "    torch_model.eval()",
        "    with torch.no_grad():",
        f"        return tuple(torch_loss(torch_model(torch.tensor(F)), torch.tensor(y{as_targets})).item()",
        "                     for F, y in ((F_train, y_train), (F_test, y_test)))",
        "",
        "",
    ]
    return lines


def _torch_step(s: TrainingSettings, as_targets: str, graph_model) -> list[str]:
    return [
        "def torch_step():",
        '    """One step on the next minibatch, drawn as engine.train draws it."""',
        "    global torch_order, torch_position",
        f"    batch_size = {s.batch_size!r}",
        "    if batch_size is None or batch_size >= len(F_train):",
        "        picked = slice(None)",
        "    else:",
        "        if torch_position + batch_size > len(F_train):  # a new epoch",
        "            torch_order, torch_position = torch_batches.permutation(len(F_train)), 0",
        "        picked = torch_order[torch_position:torch_position + batch_size]",
        "        torch_position += batch_size",
        "    torch_model.train()",
        "    logits = torch_model(torch.tensor(F_train[picked]))",
        f"    loss = torch_loss(logits, torch.tensor(y_train[picked]{as_targets}))",
        "    torch_optimizer.zero_grad()",
        "    loss.backward()",
        *_torch_regularization(s, graph_model is not None),
        "    if torch_scheduler is not None:",
        "        torch_scheduler.step()",
    ]


def _tf_torch_step(s: TrainingSettings, graph: bool) -> list[str]:
    """`torch_step` as the TF Playground steps (nn.ts updateWeights, playground.ts oneStep): its batches in their
    fixed order, a pass's remainder carried into the next pass's first; plain SGD, then its L1 or L2 on the weights
    with the derivative at the weight before the step, L1's weight that crosses zero set to 0 for good."""
    weights = ("torch_model.regularized()" if graph
               else "[p for name, p in torch_model.named_parameters() if name.endswith('weight')]")
    rate, kind = s.regularization_rate, s.regularization
    batch = s.batch_size or "len(F_train)"
    return [
        f"torch_ends = list(range({batch}, len(F_train) + 1, {batch}))",
        "torch_updates = 0",
        f"torch_weights = {{id(p) for p in {weights}}}",
        "torch_dead = {}  # L1's dead links: parameter id -> mask",
        "",
        "",
        "def torch_step():",
        '    """One of the TF Playground\'s updates."""',
        "    global torch_updates",
        "    within = torch_updates % len(torch_ends)",
        f"    picked = np.arange(torch_ends[within] - {batch}, torch_ends[within])",
        "    if within == 0 and torch_updates > 0:  # the points the pass before left over",
        "        picked = np.concatenate([np.arange(torch_ends[-1], len(F_train)), picked])",
        "    torch_updates += 1",
        "    torch_model.train()",
        "    logits = torch_model(torch.tensor(F_train[picked]))",
        "    loss = torch_loss(logits, torch.tensor(y_train[picked].astype(float)))",
        "    torch_optimizer.zero_grad()",
        "    loss.backward()",
        "    lr = torch_optimizer.param_groups[0]['lr']",
        "    with torch.no_grad():",
        "        for p in torch_model.parameters():",
        "            before = p.detach().clone()",
        "            p -= lr * p.grad",
        f"            if id(p) not in torch_weights or {kind!r} == 'none':",
        "                continue",
        f"            der = before if {kind!r} == 'l2' else torch.sign(before)",
        "            stepped = p.detach().clone()",
        f"            p -= lr * {rate!r} * der",
        f"            if {kind!r} == 'l1':",
        "                dead = torch_dead.get(id(p), torch.zeros_like(p, dtype=torch.bool))",
        "                crossed = (stepped * p < 0) & ~dead",
        "                p[crossed] = 0.0",
        "                p[dead] = before[dead]",
        "                torch_dead[id(p)] = dead | crossed",
        "    if torch_scheduler is not None:",
        "        torch_scheduler.step()",
    ]


def _torch_regularization(s: TrainingSettings, graph: bool = False) -> list[str]:
    """The optimizer's step in `torch_step` with the regularisation `engine.nn.Regularization` applies to
    the weights (not the biases): L2 adds ``rate * w`` to their gradients before the step; L1 takes the
    soft threshold after it, ``rate`` times the optimizer's own step scale (``lr``, or Adam's
    ``lr / (sqrt(v_hat) + eps)``)."""
    rate = s.regularization_rate
    if s.regularization == "none" or rate == 0:
        return ["    torch_optimizer.step()"]
    weights = ("torch_model.regularized()" if graph
               else "[p for name, p in torch_model.named_parameters() if name.endswith('weight')]")
    if s.regularization == "l2":
        return [f"    for p in {weights}:", f"        p.grad += {rate!r} * p.detach()",
                "    torch_optimizer.step()"]
    if s.optimizer == "adam":
        scale = ["            state, group = torch_optimizer.state[p], torch_optimizer.param_groups[0]",
                 "            v_hat = state['exp_avg_sq'] / (1 - group['betas'][1] ** float(state['step']))",
                 "            scale = group['lr'] / (v_hat.sqrt() + group['eps'])"]
    else:
        scale = ["            scale = torch_optimizer.param_groups[0]['lr']"]
    return ["    torch_optimizer.step()",
            "    with torch.no_grad():  # L1: the soft threshold, as engine.nn.Regularization takes it",
            f"        for p in {weights}:",
            *scale,
            f"            p.copy_(torch.sign(p) * (p.abs() - {rate!r} * scale).clamp(min=0.0))"]
