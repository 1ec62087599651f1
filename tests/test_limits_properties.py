"""The resource contract on hostile inputs at small sizes (README, "Limits").

The inputs are those of ``benchmarks/hostile.py`` (the worst cases
``benchmarks/bench_worst.py`` measures at full size), drawn at small unit
counts. For each: the check ends with a verdict about the file (never
``crash``), and the memory it allocates (tracemalloc, in this process) does not
grow with the count: four times the units cost at most a fixed margin more.
"""

from __future__ import annotations

import io
import time
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import load_script
from recspec.formats import resolve_format
from recspec.pipeline import check_stream
from recspec.report import Verdict

hostile = load_script("benchmarks/hostile.py", "recspec_hostile")

CASES = {c.name: c for c in hostile.CASES}
#: Allocation that may come on top when the units are multiplied by four: the findings
#: kept (at most 100 per rule) and caches, not anything per unit.
GROWTH_MARGIN = 2 * 1024 * 1024


def _bytes(case: hostile.Case, count: int) -> bytes:
    buf = io.BytesIO()
    case.write(buf, count)
    return buf.getvalue()


def _check(case: hostile.Case, data: bytes):
    args = dict(case.extra_args[i:i + 2] for i in range(0, len(case.extra_args), 2))
    return check_stream(io.BytesIO(data), name=f"{case.name}.bin", size=len(data), fmt=resolve_format(case.format),
                        variant=args.get("--variant"), cross_check=False)


def _peak(case: hostile.Case, count: int) -> tuple[int, Verdict]:
    data = _bytes(case, count)
    tracemalloc.start()
    try:
        report = _check(case, data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, report.verdict


# the cases whose structure is a count of units (the size-limited raSkat and Matrix-SMT ones are read whole)
SCALING = ["carla-header-zeros", "carla-empty-packets", "carla-distinct-dels", "carla-distinct-parents",
           "carla-elapsed-frames", "carla-alternating-frames", "carla-moving-frames", "carla-moving-elapsed-frames",
           "carla-distinct-actor-frames", "carla-two-shape-frames", "carla-one-size-shapes-frames",
           "carla-empty-frames", "carla-unknown-packets",
           "carla-steered-wheels", "carla-steered-bones", "carla-steered-torque", "nanover-empty-records",
           "nanover-falling-times", "nanover-wide-times", "nanover-header-zeros", "matrix-bare-frames",
           "matrix-empty-frames", "matrix-empty-states", "matrix-keyed-states"]


@pytest.mark.parametrize("name", SCALING)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(min_value=200, max_value=3000))
def test_memory_does_not_grow_with_the_units(name, count):
    case = CASES[name]
    small, verdict = _peak(case, count)
    large, verdict_large = _peak(case, count * 4)
    assert verdict is not Verdict.CRASH and verdict_large is not Verdict.CRASH
    assert large <= small + GROWTH_MARGIN, f"{name}: {small} bytes at {count} units, {large} at {count * 4}"


@pytest.mark.parametrize("name", sorted(CASES))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(min_value=1, max_value=500))
def test_every_hostile_input_gets_a_verdict_about_the_file(name, count):
    case = CASES[name]
    report = _check(case, _bytes(case, count))
    assert report.verdict not in (Verdict.CRASH, Verdict.TIMEOUT), report.findings[:3]


@pytest.mark.parametrize("name", ["carla-empty-packets", "carla-header-zeros"])
def test_a_carla_flood_of_tiny_packets_does_not_fill_the_detection_prefix(name):
    # before DETECTION_PREFIX_PACKETS, detection kept up to 8 MiB of packets: 1.2 million 7-byte ones
    units = 100_000 if name == "carla-empty-packets" else 500_000
    small, _ = _peak(CASES[name], units // 4)
    large, verdict = _peak(CASES[name], units)
    assert verdict is not Verdict.CRASH
    assert large <= small + GROWTH_MARGIN


#: The floods of units that differ, each judged or taken in runs: the CPU of four times the units is
#: about four times the CPU (a walk that looked at the rest of its read buffer after every unit made it
#: sixteen times: nanover-wide-times, 5,000 records 0.45 s, 20,000 records 5.7 s).
FLOODS = ["carla-distinct-dels", "carla-distinct-parents", "carla-elapsed-frames", "carla-alternating-frames",
          "carla-moving-frames", "carla-moving-elapsed-frames", "carla-distinct-actor-frames", "nanover-empty-records",
          "nanover-falling-times", "nanover-wide-times", "matrix-empty-states", "matrix-keyed-states"]


def _cpu(case: hostile.Case, count: int) -> float:
    data = _bytes(case, count)
    best = float("inf")
    for _ in range(2):
        t0 = time.process_time()
        _check(case, data)
        best = min(best, time.process_time() - t0)
    return best


@pytest.mark.parametrize("name", FLOODS)
def test_a_flood_costs_cpu_in_proportion_to_its_units(name):
    case = CASES[name]
    _check(case, _bytes(case, 100))  # the modules imported and the caches made before either is timed
    small, large = _cpu(case, 5_000), _cpu(case, 20_000)
    assert large <= 8 * small + 0.05, f"{name}: {small:.3f} s at 5,000 units, {large:.3f} s at 20,000"
