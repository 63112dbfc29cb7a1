"""A torch tensor's Max/Min/Mean/Norm as msprobe's dumper writes them into dump.json (None where it
has none), for the generators beside it (make_tensor_cases.py, make_random_case.py)."""
import numpy as np
import torch


def stats(t):
    if t.numel() == 0:
        return None, None, None, None
    if t.is_complex():  # the magnitudes' max, min and mean, no norm (its dumper uses numpy's abs)
        a = np.abs(t.numpy())
        return np.max(a).item(), np.min(a).item(), np.mean(a).item(), None
    if t.dtype == torch.bool:
        return bool(t.max()), bool(t.min()), None, None
    f = t.double()
    if not t.is_floating_point():
        return int(f.max()), int(f.min()), float(f.mean()), float(f.norm())
    return float(f.max()), float(f.min()), float(f.mean()), float(f.norm())
