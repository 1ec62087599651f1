"""Messages that say what happened after corruption, on CARLA recorder logs: a damaged packet size is
called a damaged length, with its offset and the bytes left; a truncation names its frame by place and by id,
distinctly; a string a damaged length stretches is quoted by its start; one severity vocabulary in every text
output; floats a person reads are rounded to their meaningful digits. (NanoVer's and Matrix-SMT's messages:
tests/test_nanover_messages.py, tests/test_matrix_smt_messages.py.)"""

from __future__ import annotations

import struct
from pathlib import Path

import recspec
from helpers import SHIPPED_REAL, carla_packets, run_cli
from recspec.report import Verdict

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


CARLA_REAL = SHIPPED_REAL / "carla_0910_DistanceToLaneCenter.log"


def test_carla_truncation_names_the_frame_by_place_and_by_id() -> None:
    data = CARLA_REAL.read_bytes()
    cut = len(data) // 2
    starts = [off for off, pid, _ in carla_packets(data) if pid == 0 and off + 5 < cut]  # FrameStart is id 0
    frame_ids = [struct.unpack_from("<I", data, off + 5)[0] for off in starts]
    place = len(starts) - 1  # the frame the cut falls in
    assert frame_ids[place] != place  # CARLA counts ids from 1: the two must not be confused
    report = recspec.check(data[:cut], name="cut.log")
    [finding] = [f for f in report.findings if f.rule == "CARLA-STREAM-001"]
    assert finding.path == f"frame[{place}]"
    assert f"in frame[{place}] (id {frame_ids[place]})" in finding.message
    assert f"last complete frame: frame[{place - 1}] (id {frame_ids[place - 1]})" in finding.message


def test_check_reproduce_and_reports_spell_severities_alike(tmp_path: Path) -> None:
    warned = CORPUS / "carla/invalid/CARLA-HEADER-004.log"  # a warning under both profiles
    code, table, _ = run_cli("check", str(warned), "--report", f"junit:{tmp_path / 'r.xml'}",
                             "--report", f"html:{tmp_path / 'r.html'}")
    assert code == 0
    assert "    WARNING CARLA-HEADER-004 @26 header.map_name: map name is empty" in table.splitlines()
    _, reproduced, _ = run_cli("reproduce", str(warned))
    assert "  WARNING CARLA-HEADER-004 @26 header.map_name: map name is empty" in reproduced.splitlines()
    assert "WARNING CARLA-HEADER-004" in (tmp_path / "r.xml").read_text()
    assert "<h4>WARNING <code>@26 header.map_name</code></h4>" in (tmp_path / "r.html").read_text()
    for text in (table, reproduced):
        assert "WARN " not in text


def test_reproduce_leaves_out_an_empty_path() -> None:
    _, out, _ = run_cli("reproduce", str(CORPUS / "carla/invalid/CARLA-FRAME-009.log"))
    assert "  WARNING CARLA-FRAME-009 @40: the log holds no frame" in out.splitlines()
    assert " :" not in out.split("\n\n")[1]
    assert "CARLA-FRAME-009 @40" in out.splitlines()  # the hex window's heading, without a trailing space


def test_html_stats_show_floats_to_their_meaningful_digits(tmp_path: Path) -> None:
    report = recspec.check(CARLA_REAL, cross_check="off")
    assert report.verdict is not Verdict.CRASH
    exact = report.to_json()["stats"]["duration_s"]
    assert len(repr(exact)) > 10  # the JSON contract keeps the exact value
    run_cli("check", str(CARLA_REAL), "--cross-check", "off", "--report", f"html:{tmp_path / 'r.html'}")
    html = (tmp_path / "r.html").read_text()
    assert f"duration_s {exact:.6g}," in html and repr(exact) not in html


def test_an_absurd_carla_packet_size_is_a_damaged_length() -> None:
    data = bytearray(CARLA_REAL.read_bytes())
    at, _, _ = carla_packets(bytes(data))[40]
    data[at + 1:at + 5] = struct.pack("<I", 0xF0000000)  # the u32 size after the u8 packet id
    report = recspec.check(bytes(data), name="damaged.log", cross_check="off")
    [finding] = [f for f in report.findings if f.rule == "CARLA-STREAM-001"]
    assert finding.offset == at
    assert finding.message.startswith(f"damaged length: the packet's size field at offset {at + 1} declares "
                                      f"{0xF0000000} payload bytes")
    assert f"the {len(data) - at - 5} bytes left in the file" in finding.message
    assert "truncated" not in finding.message


def test_a_string_a_damaged_length_stretches_is_quoted_by_its_start(tmp_path: Path) -> None:
    """A text file named .log is checked as CARLA (its extension): its "magic" runs for as many bytes as
    the text's third and fourth characters say, and the message shows the start and the length."""
    text = b"2026-11-27 12:00:00 INFO worker started\n" * 2000
    path = tmp_path / "app.log"
    path.write_bytes(text)
    report = recspec.check(path, cross_check="off")
    [magic] = [f for f in report.findings if f.rule == "CARLA-HEADER-001"]
    declared = struct.unpack_from("<H", text, 2)[0]  # the magic's u16 length: "26" read little-endian
    assert magic.message == f"magic is {text[4:36].decode()!r}... ({declared} bytes), not 'CARLA_RECORDER'"
