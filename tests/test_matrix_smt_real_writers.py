"""No false alarms (and no false pass) on Matrix-SMT files built the way the format's real writers build
them: BSON by pymongo as a writer that stores every number as a double, not with recspec's encoder."""

from __future__ import annotations

import pytest
from bson import encode as bson_encode

import recspec
from recspec.report import Severity


def matrix_all_doubles(state_id: float = 1.0) -> bytes:
    """A recording as a writer that stores every number as a double writes it (pymongo encodes a
    Python float as a BSON double): object ids 0.0 and 1.0."""
    q = [0.0, 0.0, 0.0, 1.0]
    doc = {
        "objects": [
            {"id": 0.0, "name": "ball", "type": "sphere", "color": [1.0, 0.0, 0.0], "radius": 0.5},
            {"id": 1.0, "name": "box", "type": "box", "color": [0.0, 1.0, 0.0], "half_dimentions": [1.0, 1.0, 1.0]},
        ],
        "frames": [
            {"states": [{"id": 0.0, "i": "i", "m": "", "p": [0.0, 1.0, 0.0], "r": q},
                        {"id": state_id, "i": "i", "m": "", "p": [2.0, 0.0, 0.0], "r": q}], "cmd": [], "t": 0.0},
            {"states": [{"id": state_id, "i": "d", "m": "", "p": [2.0, 0.0, 0.0], "r": q}], "cmd": [], "t": 1.0},
        ],
    }
    return bson_encode(doc)


@pytest.mark.parametrize("profile", ["spec", "compat"])
def test_matrix_whole_number_ids_stored_as_doubles_are_ids(profile):
    report = recspec.check(matrix_all_doubles(), format="matrix-smt", profile=profile)
    assert report.verdict.value == "valid", [(f.rule, f.message) for f in report.findings]
    assert report.evidence["cross_check"] == "kaitai: agrees; pymongo: agrees"


def test_matrix_a_fractional_id_is_still_an_error():
    report = recspec.check(matrix_all_doubles(state_id=1.5), format="matrix-smt")
    assert "MATRIX-STATE-001" in {f.rule for f in report.findings}


@pytest.mark.parametrize("meta", [{"$ref": 1, "$id": 2}, {"$ref": "c", "$id": 2, "$db": 1}, {"$ref": "c"}])
def test_matrix_cross_check_takes_dbrefs_as_pymongo_does(meta):
    """dbref.json of the MongoDB BSON corpus, valid cases 4, 7 and 8: a non-string $ref, a non-string
    $db, or no $id leave a document a document. An ignored extra key holding one is no divergence."""
    from bson import decode

    doc = decode(matrix_all_doubles())
    doc["meta"] = meta
    report = recspec.check(bson_encode(doc), format="matrix-smt")
    assert "MATRIX-XCHECK-001" not in {f.rule for f in report.findings}
    assert report.evidence["cross_check"] == "kaitai: agrees; pymongo: agrees"


def test_matrix_cross_check_still_sees_a_real_dbref():
    from bson import decode

    doc = decode(matrix_all_doubles())
    doc["meta"] = {"$ref": "c", "$id": 2}  # pymongo reads this one as a DBRef
    report = recspec.check(bson_encode(doc), format="matrix-smt")
    assert report.evidence["cross_check"] == "kaitai: agrees; pymongo: agrees"


def test_matrix_time_key_the_viewer_does_not_read_warns_under_compat():
    """The producer's frames keep their time under 'time' (Scene1.bson); the viewer reads 't'."""
    doc = {"objects": [{"id": 0, "name": "a", "type": "sphere", "color": [1, 0, 0], "radius": 1}],
           "frames": [{"cmd": "", "states": [{"id": 0, "i": "i", "m": "", "p": [0, 0, 0], "r": [0, 0, 0, 1]}],
                       "time": 0.5}]}
    report = recspec.check(bson_encode(doc), format="matrix-smt", profile="compat")
    assert report.verdict.value == "valid"
    assert [(f.rule, f.severity) for f in report.findings] == [("MATRIX-FRAME-005", Severity.WARNING)]
