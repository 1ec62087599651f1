#!/usr/bin/env python3
"""Which kinds, fields and edge values of each format no valid seed in ``corpus/<format>/valid/`` holds.

    python tools/seed_coverage.py                  # every format; exit 1 if a seedable item has no seed
    python tools/seed_coverage.py carla nanover    # some formats
    python tools/seed_coverage.py --corpus DIR     # another corpus folder (e.g. an older checkout's)

A fuzz campaign starts from the seeds and mutates a few bytes at a time: a record kind, a field or a
variant that no seed holds is seldom reached, and a rule's off-by-one at the edge of a range (a
door 7 of 0..6, a flag 2, a residue index equal to its count) is one mutation away only from a seed
that holds the edge value itself. So, per format, the items a real writer writes, each with the
valid seeds that hold it (read with the reference decoder, not the checker):

- CARLA: per variant (release), every packet kind the writer writes (with a record, where the kind
  holds records); every flag field at 1 and every enum field at its last value (CARLA-VALUE-001,
  CARLA-ENUM-002..004); a run of event-free frames the bulk frame proof takes whole (the template
  and a run compared with it), with a judged flag or enum that changes between two of them; and, in
  an invalid seed, each of those rules broken by the least amount (a flag 2, an enum one past its end).
- NanoVer: both kinds (.traj, .state); every standard key of docs/formats/nanover.md ("Standard
  keys"); every index array reaching its count's last value (FRAME-001..003); a delta frame after
  a reset; every Value kind in a state update, and a key deleted.
- raSkat: v2, v3 and version 4, raw and in tar.xz; every field a range rule judges at the edge of
  its range (the numbers of docs/formats/raskat-signal.md's rules).
- Matrix-SMT: both encodings (spec, compat); every geometry, command kind and presence; static
  true and false; colours and opacities at 0 and 1; and, in any seed, frames judged against the
  latest time so far (a frame before it, then another between the two).

The rules with no invalid seed are listed too, with their reasons (``EXAMPLES.unseeded_rules``;
``tests/test_corpus.py`` holds every other rule to an invalid seed). ``tests/test_seed_coverage.py``
fails when an item has no seed.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: item -> the seeds (paths under corpus/<format>/) that hold it; an item with none is missing.
Coverage = dict[str, list[str]]


def _entries(corpus: Path, fmt: str, sub: str = "valid/") -> Iterator[tuple[str, str | None, bytes]]:
    """(path, variant, bytes) of the manifest's seeds under ``sub``."""
    manifest = json.loads((corpus / fmt / "manifest.json").read_text(encoding="utf-8"))
    for e in manifest["files"]:
        if e["path"].startswith(sub) and (corpus / fmt / e["path"]).is_file():
            yield e["path"], e.get("variant"), (corpus / fmt / e["path"]).read_bytes()


def _want(cov: Coverage, item: str) -> None:
    """An item some seed should hold."""
    cov.setdefault(item, [])


def _hold(cov: Coverage, item: str, seed: str, holds: bool = True) -> None:
    """``seed`` holds ``item`` (when ``holds``)."""
    cov.setdefault(item, [])
    if holds and seed not in cov[item]:
        cov[item].append(seed)


# --- CARLA ---------------------------------------------------------------------------------------------

@contextmanager
def _counting_bulk_proofs() -> Iterator[dict[str, int]]:
    """Counts the frames the bulk frame proof takes whole while the block runs: proved by a template
    (``FrameTemplate.match``) and by a run compared with the last one (``Reference.run``)."""
    from recspec.conformance.carla import _frames

    counts = {"template": 0, "run": 0}
    match, run = _frames.FrameTemplate.match, _frames.Reference.run

    def counted_match(self: Any, buf: bytes, i: int, k: int, *rest: Any) -> Any:
        out = match(self, buf, i, k, *rest)
        counts["template"] += k if out is not None else 0
        return out

    def counted_run(self: Any, *args: Any) -> Any:
        n, last = run(self, *args)
        counts["run"] += n if last is not None else 0
        return n, last

    _frames.FrameTemplate.match, _frames.Reference.run = counted_match, counted_run  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        _frames.FrameTemplate.match, _frames.Reference.run = match, run  # type: ignore[method-assign]


def carla(corpus: Path) -> Coverage:
    from recspec.conformance.carla import _check, _fields
    from recspec.reference import carla as m
    from recspec.reference.carla import VARIANTS
    from recspec.reference.carla import PacketKind as K

    events = (K.EVENT_ADD, K.EVENT_DEL, K.EVENT_PARENT, K.COLLISION)
    cov: Coverage = {}
    for v in VARIANTS.values():
        kinds = (K.FRAME_START, K.FRAME_END, *_check.WRITER_ORDER[v.name])
        for kind in kinds:
            _want(cov, f"{v.name}: packet {kind.name}")
            if kind in _fields.FLAGS:
                for _, name in _fields.FLAGS[kind]:
                    _want(cov, f"{v.name}: flag {kind.name}.{name} = 1")
            if kind in _fields.ENUMS:
                _want(cov, f"{v.name}: enum {kind.name}.{_fields.ENUMS[kind][1]} = {_fields.enum_size(kind, v) - 1}")
        _want(cov, f"{v.name}: event-free frames the bulk proof takes whole (template and run)")
        _want(cov, f"{v.name}: a judged flag or enum changing between two event-free frames")
    for path, variant, data in _entries(corpus, "carla"):
        if variant not in VARIANTS:
            continue
        v = VARIANTS[variant]
        rec = m.decode(data, variant=v)
        frames: list[list[Any]] = [[]]
        for p in rec.packets:
            if p.kind is K.FRAME_START:
                frames.append([])
            frames[-1].append(p)
            body = p.body
            if not isinstance(body, tuple) or body:
                _hold(cov, f"{v.name}: packet {p.kind.name}", path)
            for r in body if isinstance(body, tuple) else ():
                for _, name in _fields.FLAGS.get(p.kind, ()):
                    _hold(cov, f"{v.name}: flag {p.kind.name}.{name} = 1", path, getattr(r, name, None) == 1)
                if p.kind in _fields.ENUMS:
                    last = _fields.enum_size(p.kind, v) - 1
                    name = _fields.ENUMS[p.kind][1]
                    _hold(cov, f"{v.name}: enum {p.kind.name}.{name} = {last}", path, getattr(r, name, None) == last)

        def judged(frame: list[Any]) -> tuple[Any, ...]:
            return tuple((p.kind, name, getattr(r, name)) for p in frame if isinstance(p.body, tuple)
                         for r in p.body for name in (*(n for _, n in _fields.FLAGS.get(p.kind, ())),
                                                      *((_fields.ENUMS[p.kind][1],) if p.kind in _fields.ENUMS
                                                        else ())))

        steady = [f for f in frames if f and not any(p.kind in events and p.body for p in f)]
        _hold(cov, f"{v.name}: a judged flag or enum changing between two event-free frames", path,
              any(judged(a) != judged(b) and len(judged(a)) == len(judged(b)) for a, b in itertools.pairwise(steady)))
        with _counting_bulk_proofs() as counts:
            _check.check_stream(io.BytesIO(data), path=path, variant=v, profile="spec")
        _hold(cov, f"{v.name}: event-free frames the bulk proof takes whole (template and run)", path,
              counts["template"] > 0 and counts["run"] > 0)
    # each flag and enum rule broken by the least amount (a flag 2, an enum one past its last value) in some
    # invalid seed: an off-by-one at the range's edge is then judged on the seed itself
    least = {"CARLA-VALUE-001": "a flag of 2", **{rule: f"{kind.name}.{name} one past its last value"
                                                 for kind, (_, name, rule, _) in _fields.ENUMS.items()}}
    for rule, what in least.items():
        _want(cov, f"{rule}: {what} (the least break) in an invalid seed")
    for path, variant, data in _entries(corpus, "carla", sub="invalid/"):
        if variant not in VARIANTS:
            continue
        v = VARIANTS[variant]
        try:
            rec = m.decode(data, variant=v)
        except Exception:  # noqa: BLE001 - an invalid seed the decoder refuses holds no records to read
            continue
        for p in rec.packets:
            for r in p.body if isinstance(p.body, tuple) else ():
                if any(getattr(r, name, None) == 2 for _, name in _fields.FLAGS.get(p.kind, ())):
                    _hold(cov, f"CARLA-VALUE-001: {least['CARLA-VALUE-001']} (the least break) in an invalid seed",
                          path)
                if p.kind in _fields.ENUMS:
                    _, name, rule, _ = _fields.ENUMS[p.kind]
                    _hold(cov, f"{rule}: {least[rule]} (the least break) in an invalid seed", path,
                          getattr(r, name, None) == _fields.enum_size(p.kind, v))
    return cov


# --- NanoVer -------------------------------------------------------------------------------------------

def nanover(corpus: Path) -> Coverage:
    from recspec.fuzz._nanover_facts import ARRAYS, NUMBERS, REFERS
    from recspec.reference import nanover as n

    value_kinds: dict[str, Callable[[Any], bool]] = {
        "null (a deletion)": lambda x: x is None, "bool": lambda x: isinstance(x, bool),
        "number": lambda x: isinstance(x, float), "string": lambda x: isinstance(x, str),
        "struct": lambda x: isinstance(x, dict), "list": lambda x: isinstance(x, list)}
    cov: Coverage = {}
    for item in ("kind traj", "kind state", "a delta frame after a reset"):
        _want(cov, item)
    for key in sorted(NUMBERS) + sorted(ARRAYS):
        _want(cov, f"key {key}")
    for key, (count, rule) in REFERS.items():
        _want(cov, f"{key} reaching {count} - 1 ({rule})")
    for kind in value_kinds:
        _want(cov, f"state Value {kind}")

    def walk(x: Any) -> Iterator[Any]:
        yield x
        for y in x.values() if isinstance(x, dict) else x if isinstance(x, list) else ():
            yield from walk(y)

    for path, _variant, data in _entries(corpus, "nanover"):
        kind = "state" if path.endswith(".state") else "traj"
        rec = n.decode(data, variant=kind)
        _hold(cov, f"kind {kind}", path, bool(rec.records))
        values: dict[str, Any] = {}
        arrays: dict[str, Any] = {}
        reset = False
        for r in rec.records:
            msg = r.message
            if kind == "state":
                for x in (y for v in msg.changes.values() for y in walk(v)):
                    for name, test in value_kinds.items():
                        _hold(cov, f"state Value {name}", path, test(x))
                continue
            if msg.frame_index == 0:
                values, arrays, reset = {}, {}, True
            elif reset:
                _hold(cov, "a delta frame after a reset", path)
            values.update(msg.values)
            arrays.update(msg.arrays)
            for key in list(msg.values) + list(msg.arrays):
                _hold(cov, f"key {key}", path, key in NUMBERS or key in ARRAYS)
            for key, (count, rule) in REFERS.items():
                refs = arrays[key].values if key in arrays else ()
                c = values.get(count)
                if key == "bond.pairs" or key == "forces.user.index":
                    c = values.get("particle.count")
                _hold(cov, f"{key} reaching {count} - 1 ({rule})", path,
                      bool(refs) and c is not None and max(refs) == c - 1)
    return cov


# --- raSkat --------------------------------------------------------------------------------------------

def raskat_signal(corpus: Path) -> Coverage:
    from recspec.reference import raskat_signal as r

    # docs/formats/raskat-signal.md, each range rule's edge (the field's index in a v3/v4 body)
    msgpack_edges: dict[str, Callable[[tuple[Any, ...]], bool]] = {
        "microseconds 999,999 (RSIG-TIME-002)": lambda f: f[1] == 999_999,
        "a coordinate at +-90 (RSIG-COORD-002)": lambda f: abs(f[2]) == 90.0 or abs(f[3]) == 90.0,
        "altitude 10,000 m (RSIG-COORD-003)": lambda f: f[4] == 10_000.0,
        "sample rate 1 Hz (RSIG-RATE-001)": lambda f: f[5] == 1,
        "load 65,535 ohm (RSIG-ADC-002)": lambda f: f[6] == 65_535,
        "16 ADC bits (RSIG-ADC-001)": lambda f: f[7] == 16,
        "vref 50 V (RSIG-ADC-003)": lambda f: f[8] == 50.0,
        "flags 0x03, both defined bits (RSIG-FLAGS-001)": lambda f: f[9] == 0x03,
        "antenna 2 (RSIG-ANTENNA-001)": lambda f: f[10] == 2,
        "a sample 0 (RSIG-SAMPLES-003)": lambda f: 0 in f[11],
        "a sample 2^bits - 1 (RSIG-SAMPLES-003)": lambda f: (1 << f[7]) - 1 in f[11] or (
            f[7] >= 16 and 0x7FFF in f[11]),
        "a sample 32,767, int16's top (RSIG-SAMPLES-004)": lambda f: 0x7FFF in f[11],
        "threshold at the largest code, 2^bits - 1 or int16's 32,767 (RSIG-THRESHOLD-001)":
            lambda f: len(f) > 12 and f[12] == min((1 << f[7]) - 1, 0x7FFF),
    }
    v2_edges: dict[str, Callable[[Any], bool]] = {
        "microseconds 999,999 (RSIG-TIME-002)": lambda s: s.microseconds == 999_999,
        "a fraction 999,999 (RSIG-COORD-001)": lambda s: 999_999 in (s.longitude.frac, s.latitude.frac,
                                                                     s.altitude.frac),
        "latitude 90 (RSIG-COORD-002)": lambda s: (s.latitude.int_part, s.latitude.frac) == (90, 0),
        "sample rate 1 Hz (RSIG-RATE-001)": lambda s: s.sample_rate == 1,
        "flags 0x03 (RSIG-FLAGS-001)": lambda s: s.flags == 0x03,
        "a stored sample 0 (RSIG-SAMPLES-002)": lambda s: 0 in s.samples,
        "a stored sample 32,767 (RSIG-SAMPLES-004)": lambda s: 0x7FFF in s.samples,
    }
    cov: Coverage = {}
    for version in ("v2", "v3", "v4"):
        for container in ("raw", "tar.xz"):
            _want(cov, f"{version} {container}")
    for name in v2_edges:
        _want(cov, f"v2: {name}")
    for version in ("v3", "v4"):
        for name in msgpack_edges:
            if version == "v3" and "THRESHOLD" in name:
                continue
            _want(cov, f"{version}: {name}")
    for path, _, data in _entries(corpus, "raskat-signal"):
        sf = r.decode(data)
        s = sf.signal
        version = f"v{s.version}"
        _hold(cov, f"{version} {sf.container}", path)
        if version == "v2":
            for name, test in v2_edges.items():
                _hold(cov, f"v2: {name}", path, test(s))
        elif version in ("v3", "v4"):
            for name, test in msgpack_edges.items():
                if f"{version}: {name}" in cov:
                    _hold(cov, f"{version}: {name}", path, _holds(test, s.fields))
    return cov


def _holds(test: Callable[[Any], bool], x: Any) -> bool:
    try:
        return bool(test(x))
    except (TypeError, IndexError):  # a field of another type: the edge is not there
        return False


# --- Matrix-SMT ----------------------------------------------------------------------------------------

def matrix_smt(corpus: Path) -> Coverage:
    from recspec.reference import matrix_smt as mx
    from recspec.reference.matrix_smt import CommandKind, Geometry, Presence

    cov: Coverage = {}
    for name in ("encoding spec", "encoding compat", "static true", "static false", "a colour component 0",
                 "a colour component 1", "an opacity 1", "frames judged against the latest time so far"):
        _want(cov, name)
    for g in Geometry:
        _want(cov, f"geometry {g.value}")
    for c in CommandKind:
        _want(cov, f"command {c.name}")
    for p in Presence:
        _want(cov, f"presence {p.name}")
    for path, _, data in _entries(corpus, "matrix-smt"):
        rec = mx.decode(data)
        if Path(path).stem in ("spec", "compat"):
            _hold(cov, f"encoding {Path(path).stem}", path)
        for o in rec.objects:
            _hold(cov, f"geometry {o.geometry.value}", path)
            _hold(cov, f"static {'true' if o.static else 'false'}", path)
            _hold(cov, "a colour component 0", path, 0.0 in o.color)
            _hold(cov, "a colour component 1", path, 1.0 in o.color)
        for f in rec.frames:
            for s in f.states:
                _hold(cov, f"presence {s.presence.name}", path)
            for c in f.commands:
                _hold(cov, f"command {c.kind.name}", path)
                _hold(cov, "an opacity 1", path, c.opacity == 1.0)
    # a rule that keeps state across frames (MATRIX-FRAME-002's latest time): a frame before it, then
    # another after that one but still before it; any seed (the invalid ones are mutated too)
    for path, _, data in _entries(corpus, "matrix-smt", sub=""):
        try:
            times = [f.time for f in mx.decode(data).frames]
        except Exception:  # noqa: BLE001 - a seed the decoder refuses holds no frames to judge
            continue
        latest = -math.inf
        for a, b in itertools.pairwise(times):
            latest = max(latest, a)
            if b < latest and a < b:
                _hold(cov, "frames judged against the latest time so far", path)
    return cov


AUDITS: dict[str, Callable[[Path], Coverage]] = {
    "carla": carla, "nanover": nanover, "raskat-signal": raskat_signal, "matrix-smt": matrix_smt}


def unseeded_rules(fmt: str) -> dict[str, str]:
    """The rules with no invalid seed, each with why (the format's ``EXAMPLES.unseeded_rules``)."""
    from recspec.formats import FORMATS

    return dict(FORMATS[fmt].load().EXAMPLES.unseeded_rules)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("formats", nargs="*", metavar="FORMAT",
                    help=f"formats to audit (default: all; {', '.join(AUDITS)})")
    ap.add_argument("--corpus", type=Path, default=ROOT / "corpus", help="corpus folder (default: ./corpus)")
    ap.add_argument("--verbose", action="store_true", help="list every item with the seeds that hold it")
    args = ap.parse_args(argv)
    unknown = [f for f in args.formats if f not in AUDITS]
    if unknown:
        ap.error(f"unknown format {', '.join(unknown)} (one of {', '.join(AUDITS)})")
    missing_any = False
    for fmt in args.formats or AUDITS:
        cov = AUDITS[fmt](args.corpus)
        missing = [item for item, seeds in cov.items() if not seeds]
        missing_any |= bool(missing)
        print(f"{fmt}: {len(cov) - len(missing)} of {len(cov)} items held by a seed")
        for item in missing:
            print(f"  MISSING {item}")
        if args.verbose:
            for item, seeds in cov.items():
                if seeds:
                    print(f"  {item}: {', '.join(seeds)}")
        for rule, why in sorted(unseeded_rules(fmt).items()):
            print(f"  no invalid seed: {rule} ({why})")
    return 1 if missing_any else 0


if __name__ == "__main__":
    sys.exit(main())
