"""How far the NanoVer ``ref`` harness's second opinion reaches (fuzz/_nanover_facts.py): every rule of
the catalogue is either re-derived from the decoded model or listed with the reason it is not, so that a
new rule cannot slip out of the oracle; and on frames built at each rule's boundary (a count equal to
an index, one entry more or fewer than a count needs), the rules the format document says are broken are
the ones the second opinion derives and the ones the checker reports. The boundaries are written here
from docs/formats/nanover.md ("Standard keys", FRAME-001..006), not taken from either implementation."""

from __future__ import annotations

import pytest

from recspec.conformance.nanover import RULES
from recspec.fuzz import nanover
from recspec.fuzz._nanover_facts import COVERAGE
from recspec.fuzz._oracles import fired_rules
from recspec.reference.nanover import Array, ArrayKind, Frame, Kind, Record, Recording, StateUpdate, decode, encode

F, IX, S = ArrayKind.FLOAT, ArrayKind.INDEX, ArrayKind.STRING

#: The rules the second opinion judges both ways (it fires iff its fact holds), from the format document.
BOTH_WAYS = {"NANOVER-HEADER-002", "NANOVER-LIMIT-004", "NANOVER-PROTO-005", "NANOVER-TIME-001",
             "NANOVER-TIME-002", "NANOVER-TIME-003", "NANOVER-FRAME-001", "NANOVER-FRAME-002", "NANOVER-FRAME-003",
             "NANOVER-FRAME-004", "NANOVER-FRAME-005", "NANOVER-FRAME-006", "NANOVER-STATE-001"}
#: ... one way only: an array the model says was written unpacked must be reported.
FIRES_ONLY = {"NANOVER-PROTO-004"}


def test_every_rule_of_the_catalogue_is_rederived_or_says_why_not() -> None:
    catalogue = {r.id for r in RULES}
    assert set(COVERAGE) == catalogue, (f"not in the second opinion's coverage: {sorted(catalogue - set(COVERAGE))}; "
                                        f"not in the catalogue: {sorted(set(COVERAGE) - catalogue)}")
    assert {r for r, how in COVERAGE.items() if how == "both"} == BOTH_WAYS
    assert {r for r, how in COVERAGE.items() if how == "fires"} == FIRES_ONLY
    for r in RULES:
        how = COVERAGE[r.id]
        if how in ("both", "fires"):
            continue
        # a rule left out says why, and a structural one is the refusal invariant's (malformed iff refused)
        assert len(how) > 30, f"{r.id}: {how!r} is no reason"
        assert how.startswith("structural:") == r.structural, f"{r.id} is {'' if r.structural else 'not '}structural"


def test_every_rederived_rule_is_in_what_rederived_returns() -> None:
    traj = nanover.rederived(decode(encode(Recording(Kind.TRAJ, (Record(1, Frame(0)),))), variant="traj"))
    state = nanover.rederived(decode(encode(Recording(Kind.STATE, (Record(1, StateUpdate({"a": 1.0})),))),
                                     variant="state"))
    judged = set(traj) | set(state)
    assert judged >= BOTH_WAYS, f"said to be re-derived, but not judged: {sorted(BOTH_WAYS - judged)}"
    assert all(why is None for why in [*traj.values(), *state.values()])  # a clean file breaks nothing


def _base(arrays: dict[str, Array] | None = None, **numbers: float) -> Frame:
    """Four particles with their positions, and ``arrays`` and ``numbers`` (dots written as ``__``)."""
    values = {"particle.count": 4.0, **{k.replace("__", "."): v for k, v in numbers.items()}}
    return Frame(0, values, {"particle.positions": Array(F, (0.0,) * 12), **(arrays or {})})


#: (case, the frames, the frame rules the document says are broken).
CASES = [
    ("four particles, twelve coordinates", [_base()], set()),
    ("eleven coordinates for four particles", [Frame(0, {"particle.count": 4.0},
                                                     {"particle.positions": Array(F, (0.0,) * 11)})],
     {"NANOVER-FRAME-001"}),
    ("thirteen coordinates for four particles", [Frame(0, {"particle.count": 4.0},
                                                       {"particle.positions": Array(F, (0.0,) * 13)})],
     {"NANOVER-FRAME-001"}),
    ("positions without particle.count", [Frame(0, {}, {"particle.positions": Array(F, (0.0,) * 3)})],
     {"NANOVER-FRAME-001"}),
    ("a residue index one below residue.count",
     [_base({"particle.residues": Array(IX, (0, 0, 1, 1))}, residue__count=2.0)], set()),
    ("a residue index equal to residue.count",
     [_base({"particle.residues": Array(IX, (0, 0, 1, 2))}, residue__count=2.0)], {"NANOVER-FRAME-003"}),
    ("a chain index equal to chain.count",
     [_base({"residue.chains": Array(IX, (0, 1))}, residue__count=2.0, chain__count=1.0)], {"NANOVER-FRAME-003"}),
    ("residue names one short of residue.count",
     [_base({"residue.names": Array(S, ("A",))}, residue__count=2.0)], {"NANOVER-FRAME-003"}),
    ("particle.residues without residue.count", [_base({"particle.residues": Array(IX, (0, 0, 0, 0))})],
     {"NANOVER-FRAME-003"}),
    ("a bond to the last particle", [_base({"bond.pairs": Array(IX, (0, 3))})], set()),
    ("a bond to particle particle.count", [_base({"bond.pairs": Array(IX, (0, 4))})], {"NANOVER-FRAME-002"}),
    ("three bond indices", [_base({"bond.pairs": Array(IX, (0, 1, 2))})], {"NANOVER-FRAME-002"}),
    ("one order per bond", [_base({"bond.pairs": Array(IX, (0, 1, 2, 3)), "bond.orders": Array(F, (1.0, 2.0))})],
     set()),
    ("one order for two bonds", [_base({"bond.pairs": Array(IX, (0, 1, 2, 3)), "bond.orders": Array(F, (1.0,))})],
     {"NANOVER-FRAME-002"}),
    ("three orders for two bonds",
     [_base({"bond.pairs": Array(IX, (0, 1, 2, 3)), "bond.orders": Array(F, (1.0, 1.0, 1.0))})],
     {"NANOVER-FRAME-002"}),
    ("a user force on the last particle",
     [_base({"forces.user.index": Array(IX, (3,)), "forces.user.sparse": Array(F, (0.0,) * 3)})], set()),
    ("a user force on particle particle.count",
     [_base({"forces.user.index": Array(IX, (4,)), "forces.user.sparse": Array(F, (0.0,) * 3)})],
     {"NANOVER-FRAME-001"}),
    ("a user force of two floats",
     [_base({"forces.user.index": Array(IX, (3,)), "forces.user.sparse": Array(F, (0.0,) * 2)})],
     {"NANOVER-FRAME-001"}),
    ("a box of nine floats", [_base({"system.box.vectors": Array(F, (0.0,) * 9)})], set()),
    ("a box of eight floats", [_base({"system.box.vectors": Array(F, (0.0,) * 8)})], {"NANOVER-FRAME-004"}),
    ("a box of ten floats", [_base({"system.box.vectors": Array(F, (0.0,) * 10)})], {"NANOVER-FRAME-004"}),
    ("a count of -1", [_base(residue__count=-1.0)], {"NANOVER-FRAME-004"}),
    ("a count of 0.5", [_base(chain__count=0.5)], {"NANOVER-FRAME-004"}),
    ("a count of 0", [_base(chain__count=0.0)], set()),
    ("a count that is a boolean", [_base(residue__count=True)], {"NANOVER-FRAME-004"}),
    ("an energy that is a string", [_base(energy__kinetic="1")], {"NANOVER-FRAME-004"}),
    ("particle names as floats", [_base({"particle.names": Array(F, (0.0,) * 4)})], {"NANOVER-FRAME-004"}),
    ("residue ids as floats", [_base({"residue.ids": Array(F, (1.0, 2.0))}, residue__count=2.0)],
     {"NANOVER-FRAME-005"}),
    ("an empty box written as an index array", [_base({"system.box.vectors": Array(IX, ())})],
     {"NANOVER-FRAME-006", "NANOVER-FRAME-004"}),
    ("an array with no member", [_base({"custom.thing": Array(None, ())})], {"NANOVER-PROTO-005"}),
    # the aggregate: a delta keeps what it does not name, a reset drops it
    ("an index past the count a frame before set",
     [_base(residue__count=2.0), Frame(1, {}, {"particle.residues": Array(IX, (0, 0, 1, 2))})], {"NANOVER-FRAME-003"}),
    ("an index past the count a reset dropped",
     [_base(residue__count=2.0), Frame(0, {"particle.count": 4.0, "residue.count": 3.0}),
      Frame(1, {}, {"particle.residues": Array(IX, (0, 0, 1, 2))})], set()),
    ("a count raised to fit the index a frame before",
     [_base({"particle.residues": Array(IX, (0, 0, 1, 2))}, residue__count=2.0), Frame(1, {"residue.count": 3.0})],
     {"NANOVER-FRAME-003"}),  # broken at the first frame, whatever follows
]
JUDGED_HERE = {"NANOVER-FRAME-001", "NANOVER-FRAME-002", "NANOVER-FRAME-003", "NANOVER-FRAME-004",
               "NANOVER-FRAME-005", "NANOVER-FRAME-006", "NANOVER-PROTO-005"}


@pytest.mark.parametrize("frames, broken", [(c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_a_boundary_is_where_the_document_puts_it(frames: list[Frame], broken: set[str]) -> None:
    data = encode(Recording(Kind.TRAJ, tuple(Record(1_000 * (i + 1), f) for i, f in enumerate(frames))))
    derived = nanover.rederived(decode(data, variant="traj"))
    assert {r for r in JUDGED_HERE if derived.get(r) is not None} == broken, derived
    report = nanover._check(data, "traj", "spec")
    assert fired_rules(report) & JUDGED_HERE == broken
    nanover.fuzz_ref(data)  # and the harness's invariants hold


def test_a_state_past_the_live_key_limit_is_derived_and_reported() -> None:
    """NANOVER-LIMIT-004 at the document's 65,536 live keys: one more is reported, and exactly that many is not."""
    for keys, broken in ((65_536, False), (65_537, True)):
        updates = (Record(1, StateUpdate({f"k{i}": 1.0 for i in range(keys - 1)})),
                   Record(2, StateUpdate({"last": 1.0})))
        data = encode(Recording(Kind.STATE, updates))
        derived = nanover.rederived(decode(data, variant="state"))
        assert (derived["NANOVER-LIMIT-004"] is not None) is broken
        assert ("NANOVER-LIMIT-004" in fired_rules(nanover._check(data, "state", "spec"))) is broken


def test_a_float_array_whose_field_is_a_varint_is_not_unpacked() -> None:
    """FloatArray.values (field 1) as a varint: a wire type the schema does not give the field, so it is an
    unknown field (PROTO-003) and the array holds no number; the model marks the array as written unpacked,
    but PROTO-004 (numbers written a field each) is not broken, and the second opinion must not say it is."""
    from recspec.reference.nanover import encode_header, encode_record

    def field(number: int, body: bytes) -> bytes:  # a length-delimited field of one byte's length
        return bytes([number << 3 | 2, len(body)]) + body

    value_array = field(1, b"\x08\x01")  # float_values { 1: varint 1 }
    entry = field(1, b"forces.user.sparse") + field(2, value_array)
    payload = field(2, field(2, entry))  # GetFrameResponse.frame > FrameData.arrays entry
    data = encode_header() + encode_record(1, payload)
    fired = fired_rules(nanover._check(data, "traj", "spec"))
    assert "NANOVER-PROTO-003" in fired and "NANOVER-PROTO-004" not in fired
    assert nanover.rederived(decode(data, variant="traj")).get("NANOVER-PROTO-004") is None
    nanover.fuzz_ref(data)
