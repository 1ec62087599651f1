"""The raSkat signal codec (reference/raskat_signal/_signal.py), a second round: a fixed-layout model
(the v1/v2 layout of docs/formats/raskat-signal.md) holding a version that has no fixed layout is
refused by the encoder, whatever that version is; a v3/v4 body cut between two fields says how many
of the layout's fields it holds (v3 has 12, v4 13) and names the next. Bodies are packed with the
``msgpack`` package. Written against the survivors of tools/mutate.py's sample (seed 7) and its deleted
raises."""

from __future__ import annotations

import msgpack
import pytest

from recspec.errors import EncodeError, Truncated
from recspec.reference.raskat_signal import Fixed, SignalV2, decode_body, encode_body

#: The v4 fields in stored order (docs/formats/raskat-signal.md, the writer's order); v3 is the first 12.
V4 = [("time", "20250624100658"), ("microseconds", 11), ("coordinate_1", 55.5), ("coordinate_2", 37.5),
      ("altitude", 150.0), ("sample_rate", 500_000), ("load_ohm", 1000), ("adc_bits", 10), ("vref", 3.3),
      ("flags", 0), ("antenna", 1), ("samples", [1, 2, 1023]), ("threshold", 643)]


@pytest.mark.parametrize("version", [0, 3, 4, 5])
def test_a_fixed_layout_model_of_another_version_is_not_encoded(version: int) -> None:
    sig = SignalV2(version, b"20250624100658", 1, Fixed(37, 0), Fixed(55, 0), Fixed(150, 0), 500_000, 0, (1000,))
    with pytest.raises(EncodeError, match=f"SignalV2 holds version 1 or 2, not {version}"):
        encode_body(sig)


@pytest.mark.parametrize(("version", "kept"), [(3, 0), (3, 9), (3, 11), (4, 12)])
@pytest.mark.parametrize("fast_path", [True, False])
def test_a_body_cut_between_fields_says_how_many_it_holds(version: int, kept: int, fast_path: bool) -> None:
    total = {3: 12, 4: 13}[version]
    body = version.to_bytes(2, "little") + b"".join(msgpack.packb(v) for _, v in V4[:kept])
    with pytest.raises(Truncated) as e:
        decode_body(body, fast_path=fast_path)
    name = V4[kept][0]
    assert (e.value.rule, e.value.offset, e.value.path) == ("RSIG-STREAM-001", len(body), f"field[{kept}]:{name}")
    assert f"after {kept} of the {total} v{version} fields (next: {name})" in e.value.message
