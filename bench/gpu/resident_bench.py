"""Tensors already on the GPU (torch CUDA tensors), compared where they live by dumpcmp.resident,
against the cpu path a user has without it (copy both to the host, compare there), with the
accumulators checked equal bit for bit. Run on a GPU host with torch:
    PYTHONPATH=PACKED/python python3 bench/gpu/resident_bench.py [OUT.json]
Prints one line per measurement and writes them all as JSON."""
import json
import statistics
import sys
import time

import torch

from dumpcmp import resident

GIB = 1 << 30
results = {}


def timed(f, repeat):
    times = []
    for _ in range(repeat):
        torch.cuda.synchronize()
        start = time.perf_counter()
        out = f()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), max(times), out


def record(name, value):
    results[name] = value
    print("%-58s %s" % (name, value), flush=True)


def pair(elements, dtype=torch.float32, seed=0):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(elements, device="cuda", generator=g)
    y = x + torch.randn(elements, device="cuda", generator=g) * 1e-3
    return x.to(dtype), y.to(dtype)


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else None
    record("device", torch.cuda.get_device_name())
    cuda, cpu = resident.Session("cuda"), resident.Session("cpu")

    # 2 x 1 GiB fp32: on the device against copy-to-host + cpu backend.
    x, y = pair(GIB // 4)
    cuda.reduce([(x, y)])  # warm: buffers, module load
    on_device = timed(lambda: cuda.reduce([(x, y)])[0], 10)
    record("2x1GiB fp32 on the device, median/min/max s",
           "%.5f %.5f %.5f" % on_device[:3])
    record("2x1GiB fp32 on the device, GB/s (input bytes)", "%.1f" % (2 * GIB / on_device[0] / 1e9))

    def cpu_path():
        xh, yh = x.cpu(), y.cpu()
        return cpu.reduce([(xh, yh)])[0]

    on_host = timed(cpu_path, 3)
    record("2x1GiB fp32 copy to host + cpu backend, median/min/max s",
           "%.5f %.5f %.5f" % on_host[:3])
    copy_only = timed(lambda: (x.cpu(), y.cpu()), 3)
    record("  of which the copies to the host, median s", "%.5f" % copy_only[0])
    record("2x1GiB fp32 speed-up (cpu path / on the device)", "%.1fx" % (on_host[0] / on_device[0]))
    same = on_device[3].accumulators() == on_host[3].accumulators()
    record("2x1GiB fp32 accumulators identical", same)
    record("2x1GiB fp32 CosineSimilarity, KLD", "%r %r" % (
        on_device[3].metric_values()["CosineSimilarity"],
        on_device[3].metric_values()["KullbackLeiblerDivergence"]))

    # The same pair with --quantiles: counted on the device against copy-to-host + host counting.
    cuda.reduce([(x, y)], quantiles=True)  # warm: the counting buffers
    q_device = timed(lambda: cuda.reduce([(x, y)], quantiles=True)[0], 5)
    record("2x1GiB fp32 quantiles on the device, median/min/max s", "%.5f %.5f %.5f" % q_device[:3])
    q_host = timed(lambda: cpu.reduce([(x.cpu(), y.cpu())], quantiles=True)[0], 3)
    record("2x1GiB fp32 quantiles copy to host + cpu, median/min/max s",
           "%.5f %.5f %.5f" % q_host[:3])
    record("2x1GiB fp32 quantiles speed-up", "%.1fx" % (q_host[0] / q_device[0]))
    record("2x1GiB fp32 quantiles identical",
           q_device[3][1].values() == q_host[3][1].values()
           and q_device[3][0].accumulators() == q_host[3][0].accumulators())
    del x, y

    # Every dtype, specials included: bits equal to the cpu backend.
    for dtype in (torch.float16, torch.bfloat16, torch.float64, torch.int32, torch.int8, torch.bool):
        x, y = pair((1 << 24) + 5, dtype, seed=3)
        if dtype.is_floating_point:
            x[7], y[99] = float("nan"), float("inf")
        d, dq = cuda.reduce([(x, y)], quantiles=True)[0]
        h, hq = cpu.reduce([(x.cpu(), y.cpu())], quantiles=True)[0]
        record("16M+5 %s accumulators and quantiles identical" % str(dtype).split(".")[1],
               d.accumulators() == h.accumulators() and dq.values() == hq.values())

    # A golden kept on the device, 8 runs against it (one reduction), and rank consistency.
    golden, _ = pair(GIB // 16, seed=5)  # 256 MiB
    runs = [golden + torch.randn_like(golden) * 1e-4 * k for k in range(8)]
    many = timed(lambda: resident.compare_many(runs, golden), 5)
    record("8 runs x 256 MiB against a golden on the device, median s", "%.5f" % many[0])
    host_golden = golden.cpu()
    many_cpu = timed(lambda: [cpu.reduce([(r.cpu(), host_golden)])[0] for r in runs], 2)
    record("  the same, each run copied to the host + cpu, median s", "%.5f" % many_cpu[0])
    pairs = timed(lambda: resident.consistency(runs, against="all"), 3)
    record("all 28 pairs of 8 ranks x 256 MiB on the device, median s", "%.5f" % pairs[0])
    record("  rank 0 vs rank 0 MaxAbsoluteError", many[3][0]["MaxAbsoluteError"])

    # The caller's stream: work queued there is finished before the reduction reads it.
    stream = torch.cuda.Stream()
    x, _ = pair(1 << 26, seed=9)
    with torch.cuda.stream(stream):
        for _ in range(3):
            x = x * 1.0001
        y = x * 2
        got = resident.compare(x, y, metrics=["MaxRelativeError"])
    record("non-default stream: MaxRelativeError of (x, 2x) is 0.5", got["MaxRelativeError"] == 0.5)

    if out_path:
        with open(out_path, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
