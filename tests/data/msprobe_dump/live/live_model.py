"""A small PyTorch model whose forward holds what msprobe's L0 dump records (keyword arguments,
tuple, list and dict outputs, None and int arguments, a module called twice, an input changed in
place, bool, int64, float16, bfloat16, float8, complex, 0-d and empty tensors), for dumpcmp.live's
tests and for bench/live. With `exact` its weights and inputs are small integers, so every value the
bench run produces, and every statistic msprobe's dumper takes of it, is the same on any torch and
any CPU. `variant` > 0 builds an NPU run's model: other weights, and from variant 2 on, a module the
bench run lacks and an output of another shape."""
import torch
import torch.nn as nn


class Gate(nn.Module):
    def forward(self, x, scale=1, mask=None):
        y = x * scale
        if mask is not None:
            y = y * mask
        return y, scale, None, [y.sum(), y[:0]]


class Bump(nn.Module):
    def forward(self, x):
        x.add_(1)  # in place: msprobe records the input before the forward
        return x * 2


class Heads(nn.Module):
    def __init__(self, width, wide):
        super().__init__()
        self.fc = nn.Linear(width, width + 1 if wide else width, bias=False)

    def forward(self, x):
        y = self.fc(x)[..., :16]  # the NPU run's wider output cut to the bench's
        return {"int": y.argmax(dim=-1), "bool": y > 0, "half": y.half(), "bf16": y.bfloat16(),
                "complex": torch.complex(y, -y), "fp8": y.to(torch.float8_e4m3fn)}


class Net(nn.Module):
    def __init__(self, variant):
        super().__init__()
        self.emb = nn.Linear(8, 16)
        self.act = nn.ReLU()
        self.gate = Gate()
        self.bump = Bump()
        self.heads = Heads(16, wide=variant >= 2)
        if variant >= 2:
            self.extra = nn.ReLU()

    def forward(self, x):
        h = self.act(self.emb(x))
        h, _, _, _ = self.gate(h, scale=2, mask=h > 1)
        h = self.act(self.bump(h))  # act called twice
        if hasattr(self, "extra"):
            h = self.extra(h)
        return self.heads(h)


def make_model(variant=0, exact=True, seed=0):
    torch.manual_seed(seed)
    model = Net(variant)
    with torch.no_grad():
        g = torch.Generator().manual_seed(100 + variant)
        for p in model.parameters():
            if exact:
                p.copy_(torch.randint(-2, 3, p.shape, generator=g).float())
            elif variant:
                p.add_(torch.randn(p.shape, generator=g) * 0.01)
    return model


def make_input(exact=True, rows=4):
    g = torch.Generator().manual_seed(1)
    if exact:
        return torch.randint(-3, 4, (rows, 8), generator=g).float()
    return torch.randn(rows, 8, generator=g)


def run(model, x):
    with torch.no_grad():
        return model(x)


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x, scale=1, mask=None):
        y = self.fc(x) * scale
        return (y if mask is None else y * mask), y.sum()


class TrainNet(nn.Module):
    """A model trained one step (train): module backward records with keyword arguments, a tuple
    output, a module called twice, and parameter gradients; integer weights and inputs keep every
    gradient an exact float32 integer."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Linear(8, 8)
        self.act = nn.ReLU()
        self.block = Scaled()
        self.head = nn.Linear(8, 4)

    def forward(self, x):
        h = self.act(self.emb(x))
        h, total = self.block(h, scale=2, mask=h > 0)
        return self.head(self.act(h)), total  # act called twice


def make_train_model(variant=0):
    model = TrainNet()
    with torch.no_grad():
        g = torch.Generator().manual_seed(200 + variant)
        for p in model.parameters():
            p.copy_(torch.randint(-1, 2, p.shape, generator=g).float())
    return model


def make_train_input():
    g = torch.Generator().manual_seed(2)
    return torch.randint(-1, 2, (4, 8), generator=g).float().requires_grad_()


def train(model, x):
    """One step's forward and backward."""
    y, total = model(x)
    (y.pow(2).sum() + total).backward()


class Sharded(nn.Module):
    """A DTensor parameter and a DTensor output, as FSDP2 and tensor parallelism make them."""

    def __init__(self, variant):
        super().__init__()
        from torch.distributed.tensor import DeviceMesh, Shard, distribute_tensor
        self.mesh = DeviceMesh("cpu", [0])
        w = torch.arange(8.0).reshape(2, 4) + (0.5 if variant else 0.0)
        self.w = nn.Parameter(distribute_tensor(w, self.mesh, [Shard(0)]))

    def forward(self, x):
        from torch.distributed.tensor import DTensor, Replicate
        y = x * self.w.to_local()
        return DTensor.from_local(y, self.mesh, [Replicate()]), y


class ShardedNet(nn.Module):
    def __init__(self, variant):
        super().__init__()
        self.scale = Sharded(variant)
        self.act = nn.ReLU()

    def forward(self, x):
        _, y = self.scale(x)
        return self.act(y)


def make_sharded_model(variant=0):
    """A model with DTensors; needs a process group (init_one_process)."""
    return ShardedNet(variant)


def make_sharded_input():
    return torch.arange(8.0).reshape(2, 4) - 3


def init_one_process():
    """A gloo process group of one process, on a free local port."""
    import os
    import socket
    import torch.distributed as dist
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", str(port)
    dist.init_process_group("gloo", rank=0, world_size=1)
