"""State updates proved entry by entry (conformance/nanover/_entries.py) against the record path.

The reports: ``check_stream`` of .state files with the entry proofs on and off
(``_Walk.fast_records``) are identical, on generated recordings whose updates
repeat keys with new numbers (so that the value shapes are used), on the same
files byte-mutated, and on files carrying the wire deviations the proofs must
refuse. The value shapes themselves: an entry that matches a shape made from an
entry proved alone is, byte-mutated or not, an entry the wire walk and the real
parse accept, of the same key and a kind that is neither null nor unset.
"""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recspec.conformance.nanover import _check, check_stream
from recspec.conformance.nanover._entries import StateEntries, number_holes, value_template
from recspec.fuzz.nanover import mutate
from recspec.reference.nanover import (
    UNSET,
    StateUpdate,
    encode_header,
    encode_record,
    encode_state_update,
    encode_varint,
    parse_clean,
    read_varint,
    scan,
)
from recspec.report import Report

REPO = Path(__file__).resolve().parent.parent


def report_json(data: bytes, *, entries: bool) -> str:
    saved = _check._Walk.fast_records
    _check._Walk.fast_records = entries
    try:
        report = check_stream(io.BytesIO(data), path="x.state", size=len(data))
    finally:
        _check._Walk.fast_records = saved
    return json.dumps(Report([report]).to_json(), sort_keys=True)


def assert_same_reports(data: bytes) -> None:
    assert report_json(data, entries=True) == report_json(data, entries=False)


# A palette of values: numbers (the shapes' holes), strings, nested Structs and lists of numbers of a few
# lengths, a deletion, and a Value of no kind at the top and below it.
_NUMBER = st.floats(allow_nan=False, width=64)


@st.composite
def _value(draw: st.DrawFn) -> Any:
    which = draw(st.integers(0, 9))
    if which <= 2:
        return draw(_NUMBER)
    if which == 3:
        return draw(st.sampled_from(["spring", "user 1", "é"]))
    if which == 4:
        return [draw(_NUMBER) for _ in range(draw(st.integers(0, 3)))]
    if which == 5:
        return {"name": "hand", "position": [draw(_NUMBER) for _ in range(3)], "on": draw(st.booleans())}
    if which == 6:
        return {"components": [{"p": [draw(_NUMBER), draw(_NUMBER)]}, {"q": draw(_NUMBER)}]}
    if which == 7:
        return None
    if which == 8:
        return draw(st.sampled_from([UNSET, [1.0, UNSET], {"a": UNSET}]))
    return draw(st.booleans())


@st.composite
def state_files(draw: st.DrawFn) -> bytes:
    """Updates of a few keys, each update a draw of the keys with values from a palette (most repeat
    a shape with new numbers, so that the shapes of _entries are made and matched)."""
    keys = draw(st.lists(st.sampled_from(["avatar.a", "avatar.b", "scene", "update.index", "interaction.x"]),
                         min_size=1, max_size=4, unique=True))
    shapes = {k: draw(_value()) for k in keys}
    records = [encode_header()]
    ts = 10**6
    for _ in range(draw(st.integers(1, 12))):
        changes: dict[str, Any] = {}
        for k in draw(st.lists(st.sampled_from(keys), min_size=1, max_size=len(keys), unique=True)):
            # mostly the key's own shape with new numbers, sometimes another value
            v = shapes[k] if draw(st.integers(0, 3)) else draw(_value())
            changes[k] = _renumbered(v, draw(st.randoms(use_true_random=False)))
        ts += draw(st.sampled_from([33_333, 33_333, 0]))
        records.append(encode_record(ts, encode_state_update(StateUpdate(changes))))
    return b"".join(records)


def _renumbered(v: Any, rng: random.Random) -> Any:
    if isinstance(v, float):
        return rng.uniform(-5, 5)
    if isinstance(v, list):
        return [_renumbered(x, rng) for x in v]
    if isinstance(v, dict):
        return {k: _renumbered(x, rng) for k, x in v.items()}
    return v


@given(state_files())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_same_reports_on_generated_state_files(data: bytes) -> None:
    assert_same_reports(data)


@given(state_files(), st.integers(0, 2**32 - 1))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_same_reports_on_mutated_state_files(data: bytes, seed: int) -> None:
    assert_same_reports(mutate(data, 1 << 16, seed))


@given(state_files(), st.integers(0, 2**32 - 1), st.sampled_from(("always", "never", "every 2nd")))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_same_reports_whether_or_not_record_templates_are_made(data: bytes, seed: int, policy: str) -> None:
    """``_template_pays`` only decides which updates a record template proves (the others are proved entry by
    entry): with templates made at every chance, at none, or at every other, on generated and mutated files,
    the reports are the record path's."""
    chances = iter(range(1 << 30))
    decide = {"always": lambda self: True, "never": lambda self: False,
              "every 2nd": lambda self: next(chances) % 2 == 0}[policy]
    # and updates of one length whose keys differ: a template made from the second must not prove the third
    # (the fourth deletes the third's key, which the state holds only if the third was read as it is)
    tail = b"".join(encode_record(10**12 + i, encode_state_update(StateUpdate(c))) for i, c in enumerate(
        ({"avatar.a": 1.0}, {"avatar.a": 2.0}, {"avatar.b": 3.0}, {"avatar.b": None})))
    pays = StateEntries._template_pays
    StateEntries._template_pays = decide  # type: ignore[method-assign]
    try:
        for blob in (data, mutate(data, 1 << 16, seed), data + tail):
            assert_same_reports(blob)
    finally:
        StateEntries._template_pays = pays  # type: ignore[method-assign]


def _entry(key: str, value: Any) -> bytes:
    """A map entry's contents (key field, value field) as the encoder writes it."""
    payload = encode_state_update(StateUpdate({key: value}))
    # 0a <len> (Struct) 0a <len> (entry): the entry follows the two tags and lengths
    _, at = read_varint(payload, 1, len(payload))
    entry_len, at = read_varint(payload, at + 1, len(payload))
    return payload[at:at + entry_len]


def _alone(entry: bytes) -> bytes:
    inner = b"\x0a" + encode_varint(len(entry)) + entry
    return b"\x0a" + encode_varint(len(inner)) + inner


@given(_value(), st.randoms(use_true_random=False), st.integers(0, 4096), st.integers(1, 255))
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_an_entry_matching_a_value_shape_is_clean(value: Any, rng: random.Random, at: int, xor: int) -> None:
    """A shape made from an entry proved alone matches only entries the walk and the real parse accept,
    of a kind set at every depth and not null: new numbers match, any other changed byte does not."""
    template_entry = _entry("k", value)
    proved = parse_clean(_alone(template_entry), "state")
    kind = proved.changed_keys.fields["k"].WhichOneof("kind") if proved is not None else None
    holes = number_holes(template_entry)
    if proved is None or kind in (None, "null_value") or holes is None or _has_unset(value):
        return
    head = 2 + template_entry[1]
    mask, want = value_template(template_entry, head, holes)
    renumbered = _entry("k", _renumbered(value, rng))
    flipped = bytearray(renumbered)
    flipped[at % len(flipped)] ^= xor
    for entry in (renumbered, bytes(flipped)):
        # judge's test: the entry's key field is one proved before (here the template's), its value matches
        if (len(entry) != len(template_entry) or entry[:head] != template_entry[:head]
                or int.from_bytes(entry[head:], "little") & mask != want):
            assert entry is not renumbered or len(entry) != len(template_entry)  # new numbers always match
            continue
        msg = parse_clean(_alone(entry), "state")
        assert msg is not None
        s = scan(_alone(entry), 0, len(_alone(entry)), "state")
        assert not s.unknown and not s.unpacked
        assert list(msg.changed_keys.fields) == ["k"]
        assert msg.changed_keys.fields["k"].WhichOneof("kind") == kind


def _has_unset(v: Any) -> bool:
    if v is UNSET:
        return True
    if isinstance(v, dict):
        return any(map(_has_unset, v.values()))
    if isinstance(v, list):
        return any(map(_has_unset, v))
    return False


def _file(payloads: list[bytes]) -> bytes:
    return encode_header() + b"".join(encode_record(10**6 + 33_333 * i, p) for i, p in enumerate(payloads))


def _struct(*entries: bytes) -> bytes:
    inner = b"".join(b"\x0a" + encode_varint(len(e)) + e for e in entries)
    return b"\x0a" + encode_varint(len(inner)) + inner


def _overlong(e: bytes) -> bytes:
    """An update of the one entry ``e`` (of 128 bytes or more) whose length varint has a third, zero byte."""
    n = encode_varint(len(e))
    inner = b"\x0a" + n[:-1] + bytes([n[-1] | 0x80, 0]) + e
    return b"\x0a" + encode_varint(len(inner)) + inner


_AVATAR = {"name": "user 0", "components": [{"position": [0.5, 1.0, 2.0]}]}


@pytest.mark.parametrize("odd", [
    # an unknown field (15, varint) at the end of the entry, and of the update
    lambda e: _struct(e + b"\x78\x01"),
    lambda e: _struct(e) + b"\x78\x01",
    # the key twice (the real parse keeps the last), the entry's length as an overlong varint
    lambda e: _struct(e, e),
    lambda e: _overlong(e),
    # the value left out (a Value of no kind), a deletion of a key the state does not hold
    lambda e: _struct(e[:2 + e[1]]),
    lambda e: _struct(_entry("gone", None)),
    # a second changed_keys field
    lambda e: _struct(e) + _struct(_entry("other", 1.0)),
])
def test_deviations_after_proved_updates_give_the_record_paths_reports(odd: Any) -> None:
    """Updates that make the key's shape, then a deviation: reports as the record path gives them."""
    shaped = [_struct(_entry("avatar.a", _renumbered(_AVATAR, random.Random(i)))) for i in range(3)]
    deviation = odd(_entry("avatar.a", _renumbered(_AVATAR, random.Random(9))))
    assert_same_reports(_file([*shaped, deviation, *shaped]))
    entries = StateEntries()
    assert [entries.judge(p, set()) for p in shaped] == [{"avatar.a": True}] * 3  # the last by the key's shape
    assert entries.judge(deviation, {"avatar.a"}) is None


def test_most_updates_of_a_state_recording_are_proved_by_their_entries(tmp_path: Path) -> None:
    """On a recording like the real ones (make_nanover_state.py: avatars, counters, interactions that come
    and go), the entry proofs take at least 9 updates in 10, and the reports are the record path's."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from make_nanover_state import write

    path = tmp_path / "session.state"
    write(path, 200_000, 3, 5)
    data = path.read_bytes()
    taken = []
    judge = StateEntries.judge

    def counting(self: StateEntries, payload: bytes, held: Any) -> Any:
        out = judge(self, payload, held)
        taken.append(out is not None)
        return out

    StateEntries.judge = counting  # type: ignore[method-assign]
    try:
        fast = report_json(data, entries=True)
    finally:
        StateEntries.judge = judge  # type: ignore[method-assign]
    assert len(taken) > 50 and sum(taken) >= 0.9 * len(taken)
    assert fast == report_json(data, entries=False)


# a surrogate, an overlong NUL, a code point past U+10FFFF, U+FFFF, an emoji
_ODD_UTF8 = [b"\xed\xa0\x80", b"\xc0\x80", b"\xf4\x90\x80\x80", b"\xef\xbf\xbf", b"\xf0\x9f\x98\x80"]


@given(st.one_of(st.text(max_size=6).map(str.encode), st.binary(max_size=6), st.sampled_from(_ODD_UTF8)))
@settings(max_examples=500, deadline=None)
def test_a_new_keys_utf8_check_is_the_real_parses(key: bytes) -> None:
    """A key the entry proofs take by its UTF-8 (bytes.decode) is one the real parse takes, and
    the other way round (surrogates, overlong forms and code points past U+10FFFF included)."""
    entry = b"\x0a" + encode_varint(len(key)) + key + b"\x12\x09\x11" + bytes(8)
    try:
        name: str | None = key.decode()
    except UnicodeDecodeError:
        name = None
    msg = parse_clean(_alone(entry), "state")
    assert (msg is not None) == (name is not None)
    if msg is not None:
        assert list(msg.changed_keys.fields) == [name]


# --- the ends template: the repeated first and last entries, the ones between framed -------------------------


def _interaction(rng: random.Random, particles: int) -> dict[str, Any]:
    return {"type": "spring", "particles": [float(rng.randrange(99)) for _ in range(particles)]}


def _session_update(rng: random.Random, between: dict[str, Any]) -> bytes:
    """An update as the writers send them: two avatars first and a counter last (the keys sort so), and
    ``between`` in the middle."""
    changes: dict[str, Any] = {"avatar.a": _renumbered(_AVATAR, rng), "avatar.b": _renumbered(_AVATAR, rng)}
    changes.update(between)
    changes["zz.index"] = rng.uniform(0, 99)
    return encode_state_update(StateUpdate(changes))


def _wire_entries(payload: bytes) -> list[bytes]:
    """The map entries of an update's one changed_keys field, in the wire's order."""
    _, at = read_varint(payload, 1, len(payload))
    parts = []
    while at < len(payload):
        n, start = read_varint(payload, at + 1, len(payload))
        parts.append(payload[start:start + n])
        at = start + n
    return parts


def _no_parse() -> Any:
    raise AssertionError("the skeleton parse was used")


def test_an_update_whose_middle_changes_length_is_proved_by_its_ends_without_a_parse() -> None:
    """After two updates of the same first and last entries, an update whose middle entry has a length
    never seen at that key is framed and proved without the skeleton parse, its keys in the wire's order;
    fails before the ends template (every update whose length changes took the parse)."""
    rng = random.Random(3)
    entries = StateEntries()
    held: set[str] = set()
    for particles in (1, 2, 1, 2):  # each interaction length alone, then by the value shapes
        payload = _session_update(rng, {"interaction.x": _interaction(rng, particles)})
        assert entries.judge(payload, held) is not None
        held |= {"avatar.a", "avatar.b", "interaction.x", "zz.index"}
    entries._new = _no_parse  # type: ignore[assignment]
    for between in ({"interaction.x": _interaction(rng, 5)}, {}, {"interaction.x": None, "scene": [1.0, 2.0]},
                    {"interaction.x": _interaction(rng, 2), "interaction.y": _interaction(rng, 1)}):
        payload = _session_update(rng, between)  # (a new key between the ends is proved alone, without it)
        got = entries.judge(payload, held)
        assert got is not None and list(got) == [e[2:2 + e[1]].decode() for e in _wire_entries(payload)]
        assert got == {k: (None if between.get(k, 0) is None else True) for k in got}
        held |= {k for k, v in got.items() if v is not None}
        held -= {k for k, v in got.items() if v is None}


@pytest.mark.parametrize("odd", [
    # the middle entry's length as an overlong varint, its tag another field's, or the key of an end's entry
    lambda mid, end: b"\x0a" + encode_varint(len(mid))[:-1] + bytes([encode_varint(len(mid))[-1] | 0x80, 0]) + mid,
    lambda mid, end: b"\x12" + encode_varint(len(mid)) + mid,
    lambda mid, end: b"\x0a" + encode_varint(len(end)) + end,
    # an unknown field (15, varint) between the entries, a deletion of a key the state does not hold,
    # an entry left without its value (a Value of no kind)
    lambda mid, end: b"\x78\x01",
    lambda mid, end: b"\x0a" + encode_varint(len(_entry("gone", None))) + _entry("gone", None),
    lambda mid, end: b"\x0a" + encode_varint(2 + mid[1]) + mid[:2 + mid[1]],
])
def test_deviations_between_the_ends_give_the_record_paths_reports(odd: Any) -> None:
    """Updates that make an ends template, then one whose ends repeat it and whose middle deviates: the record
    path's reports, and no proof by the ends."""
    rng = random.Random(5)
    shaped = [_session_update(rng, {"interaction.x": _interaction(rng, n)}) for n in (1, 2, 1, 2)]
    entries = StateEntries()
    assert all(entries.judge(p, {"interaction.x"}) is not None for p in shaped)
    assert entries._ends is not None
    # the next update's wire bytes with its middle entry replaced by the deviation
    parts = _wire_entries(_session_update(rng, {"interaction.x": _interaction(rng, 6)}))
    mid = parts[2]
    inner = b"".join(b"\x0a" + encode_varint(len(e)) + e for e in parts[:2]) + odd(mid, parts[0]) + (
        b"\x0a" + encode_varint(len(parts[3])) + parts[3])
    deviation = b"\x0a" + encode_varint(len(inner)) + inner
    assert entries.judge(deviation, {"interaction.x"}) is None
    assert_same_reports(_file([*shaped, deviation, *shaped]))


@given(state_files(), st.integers(0, 2**32 - 1), st.sampled_from(("always", "never", "every 2nd")))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_same_reports_whether_or_not_ends_templates_are_made(data: bytes, seed: int, policy: str) -> None:
    """``_ends_pays`` only decides which updates an ends template proves: with templates made at every
    chance, at none, or at every other, on generated and mutated files and on a session whose middle
    entries come, go, change length and repeat an end's key, the reports are the record path's."""
    chances = iter(range(1 << 30))
    decide = {"always": lambda self: True, "never": lambda self: False,
              "every 2nd": lambda self: next(chances) % 2 == 0}[policy]
    rng = random.Random(seed)
    session = [_session_update(rng, between) for between in (
        {}, {"interaction.x": _interaction(rng, 1)}, {"interaction.x": _interaction(rng, 3)},
        {"interaction.x": _interaction(rng, 2), "scene": 1.0}, {"interaction.x": None},
        {"interaction.x": None}, {"avatar.a": 2.0}, {"zz.index": 1.0}, {})]
    pays = StateEntries._ends_pays
    StateEntries._ends_pays = decide  # type: ignore[method-assign]
    try:
        for blob in (data, mutate(data, 1 << 16, seed), _file(session), mutate(_file(session), 1 << 16, seed)):
            assert_same_reports(blob)
    finally:
        StateEntries._ends_pays = pays  # type: ignore[method-assign]


def test_a_length_is_read_only_in_its_shortest_form() -> None:
    """``_shortest_length`` reads every length the encoder writes, up to 3 bytes, and refuses an overlong
    form, a fourth byte and a cut varint."""
    from recspec.conformance.nanover._entries import _shortest_length

    for n in (0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, 0x1FFFFF):
        assert _shortest_length(b"\x00" + encode_varint(n) + b"\x05", 1) == (n, 1 + len(encode_varint(n)))
    for odd in (b"\x81\x00", b"\x80\x80\x00", b"\x80\x80\x80\x01", b"\x80", b"\xff\xff"):
        with pytest.raises(IndexError):
            _shortest_length(odd, 0)
