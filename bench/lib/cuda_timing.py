"""CUDA-event timing shared by the Python benchmark scripts (torch).

    sys.path.insert(0, "<repo>/bench/lib"); from cuda_timing import burst_ms, host_us, interleaved_ms
"""
import statistics
import time

import torch


def burst_ms(call, count):
    """ms per call of `count` calls back to back between two CUDA events,
    waited for. count = 1 after an idle stream is one call's latency (the
    host's work of the call included); a larger count lets the host run
    ahead, the GPU time per call."""
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(count):
        call()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) / count


def interleaved_ms(fns, rounds, count):
    """Median ms per call of each of `fns`, `rounds` bursts of `count`
    calls each, the order reversed every other round."""
    times = [[] for _ in fns]
    for r in range(rounds):
        order = list(range(len(fns)))
        if r % 2:
            order.reverse()
        for i in order:
            times[i].append(burst_ms(fns[i], count))
    return [statistics.median(t) for t in times]


def host_us(call, count):
    """The host's microseconds per call of `count` calls back to back (after
    one call and a synchronisation; the GPU may still be running when the
    clock stops, which is the point: only the host's work is timed while
    the launch queue has room)."""
    call()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(count):
        call()
    end = time.perf_counter()
    torch.cuda.synchronize()
    return (end - start) / count * 1e6
