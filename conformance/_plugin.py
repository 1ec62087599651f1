"""What every format plugin's entry points share: the cross-check gate and the
streamed JSON of ``recspec dump``."""

from __future__ import annotations

import gc
import json
import os
import zlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

from recspec.errors import DecodeError
from recspec.report import SAMPLED_OUT, FileReport, Severity, Verdict

__all__ = ["QUIET_COLLECTOR_SIZE", "RUN_SAMPLE", "RUN_SAMPLE_FROM", "cross_check_within", "decode_error_json",
           "dump_json_stream", "malformed_from", "run_sampled_out"]

#: The default cross-check in a long run. In a `recspec check` run of more than RUN_SAMPLE_FROM files
#: (counted over the whole walk, before --shard keeps its part: ``check``'s ``run_files``), the second reading of a
#: file costs several times its check (about 1.5 ms a small file against 0.5 ms), so it reads about one
#: file in RUN_SAMPLE, those whose path (as the report shows it) has a CRC-32 of 0 modulo RUN_SAMPLE, and
#: every file the check found malformed (where the two readers are likeliest to disagree: one that the hash did
#: not pick is read from where the check found it malformed, where its format has units, ``malformed_from``). The choice
#: depends only on the path, the verdict and the run's size, so a rerun, any -j and any --shard pick the
#: same files. A file named alone, a run of few files, the Python API (no run) and `--cross-check full`
#: cross-check every file. Every built-in format follows this rule (``FormatExamples.run_sample``).
RUN_SAMPLE_FROM = 256
RUN_SAMPLE = 16


def run_sampled_out(report: FileReport, run_files: int | None) -> bool:
    """Whether the default cross-check leaves this file out of a run of ``run_files`` files (``None``:
    the file is checked on its own) by the long runs' sample (see RUN_SAMPLE)."""
    if run_files is None or run_files <= RUN_SAMPLE_FROM or report.verdict is Verdict.MALFORMED:
        return False
    return zlib.crc32(os.fsencode(report.path)) % RUN_SAMPLE != 0


def malformed_from(report: FileReport, run_files: int | None, rules: Mapping[str, Any]) -> int | None:
    """Where the default cross-check of a malformed file in a long run starts reading units, or ``None`` to
    read the file as any other (see RUN_SAMPLE).

    A malformed file is in a long run's sample because the two readers are likeliest to disagree where the
    check found it malformed; the units before that point passed the check, as the units of a valid file do,
    and a valid file's are read in 1 file in RUN_SAMPLE. So a malformed file that the path's hash did not pick
    is read from its first finding of a structural rule (``rules``: the format's rules by id, the rule an
    error under the report's profile), which a format with units maps to the unit that holds it. ``None``
    outside a long run, for a file the hash picked, for a file that is not malformed, and for one whose
    structural findings have no offset (a structural error the check forced, such as a header it could not
    read)."""
    if (run_files is None or run_files <= RUN_SAMPLE_FROM or report.verdict is not Verdict.MALFORMED
            or zlib.crc32(os.fsencode(report.path)) % RUN_SAMPLE == 0):
        return None
    offsets = [f.offset for f in report.findings
               if f.offset is not None and (r := rules.get(f.rule)) is not None and r.structural
               and r.level(report.profile) is Severity.ERROR]
    return min(offsets) if offsets else None


#: The cross-check of a file of at most this many bytes runs with the garbage collector off (then back on). The
#: Kaitai parse trees are cycles (every object points at its parent and its root); a collection that falls inside
#: a parse moves the half-built tree to an older generation, whose collections then go through it again: in
#: `recspec check -j 1` of the 10,000-file mixed folder (benchmarks/README.md, fourth round) the middle and old
#: generations' collections took 0.34 s, and 0.04 s with this. What a cross-check leaves is collected after it, in
#: the youngest generation. The bound keeps the garbage held meanwhile to what a small file's trees make (the
#: parse of a 64 KiB file of msgpack values, the largest, holds about 60 MB while it lasts whatever the collector
#: does, since the tree is alive).
QUIET_COLLECTOR_SIZE = 64 * 1024


def _collector_off(run: Callable[[], None]) -> None:
    """``run()`` with the garbage collector off, unless it is off already (the caller's); back on after it."""
    if not gc.isenabled():
        run()
        return
    gc.disable()
    try:
        run()
    finally:
        gc.enable()


def cross_check_within(report: FileReport, *, enabled: bool, size: int, limit: int, run: Callable[[], None],
                       reason: str = "", sampled: bool = False, run_files: int | None = None) -> None:
    """Run the cross-check ``run`` when it is enabled and the file is within ``limit``
    bytes; above the limit, say in the report's evidence that it was skipped and why.
    ``sampled``: the default cross-check (not ``full``), which a run of more than RUN_SAMPLE_FROM
    files (``run_files``, the checker's: ``None`` outside a run) reads on a sample of its files
    (:func:`run_sampled_out`); a file left out says so in its evidence. A file of at most
    QUIET_COLLECTOR_SIZE bytes is cross-checked with the garbage collector off."""
    if not enabled:
        return
    if size > limit:
        report.evidence["cross_check"] = (
            f"skipped: {size} bytes is above the cross-check limit of {limit} bytes"
            + (f" ({reason})" if reason else ""))
    elif sampled and run_sampled_out(report, run_files):
        report.evidence["cross_check"] = (
            f"{SAMPLED_OUT} on this file (in a run of more than {RUN_SAMPLE_FROM} files, the default "
            f"cross-check reads about 1 file in {RUN_SAMPLE}, chosen by a hash of its path, and every malformed "
            f"file; --cross-check full reads every file)")
    elif size <= QUIET_COLLECTOR_SIZE:
        _collector_off(run)
    else:
        run()


def decode_error_json(e: DecodeError, *, path: bool = False) -> dict[str, Any]:
    """A decode error as ``dump`` prints it."""
    out: dict[str, Any] = {"rule": e.rule, "message": e.message, "offset": e.offset}
    if path:
        out["path"] = e.path
    return out


def dump_json_stream(out: TextIO, preamble: str, key: str, items: Iterable[Mapping[str, Any]], *,
                     default: Callable[[Any], Any] | None = None) -> None:
    """Write one JSON object whose ``key`` list gets one item per line as ``items``
    yields it (memory does not grow with the file). ``preamble`` is the opening
    text up to the list (``'{"format": ..., \\n'``). A :class:`DecodeError` raised
    by ``items`` ends the list and is written as the object's ``"error"``."""
    out.write(preamble)
    out.write(f' "{key}": [')
    first = True
    error: DecodeError | None = None
    try:
        for entry in items:
            out.write(("\n  " if first else ",\n  ") + json.dumps(entry, default=default))
            first = False
    except DecodeError as e:
        error = e
    out.write("\n ]")
    if error is not None:
        out.write(',\n "error": %s' % json.dumps(decode_error_json(error)))
    out.write("\n}\n")


#: Where every plugin defines the members of the contract (``recspec.formats.FormatModule``):
#: name -> the plugin's submodule. A plugin adds its own extras to these.
CONTRACT_MEMBERS: Mapping[str, str] = {
    "KAITAI": "_format", "MAX_CROSS_CHECK_SIZE": "_format", "check": "_format", "dump": "_format",
    "RULES": "_rules", "RULES_BY_ID": "_rules",
    "DAMAGED_HEADERS": "_seeds",
    # the trace a check collects and its picture in the HTML report
    "TRACE": "_trace", "picture": "_picture",
    # recspec drive: the cases a writer is handed, a case path's field, the profiles' value equivalences
    "drive_cases": "_drive", "field_path": "_drive", "EQUIVALENCES": "_drive",
    # what the shared tests take from the format
    "EXAMPLES": "_examples",
}


def lazy_members(package: str, members: Mapping[str, str] | None = None) -> Callable[[str], Any]:
    """The module ``__getattr__`` of a format plugin: ``STRATEGIES`` (which imports
    Hypothesis) and ``seeds`` (the corpus builders) load on first use, so checking a
    file never pays for them; so does each member of the contract
    (:data:`CONTRACT_MEMBERS`) and each extra name of ``members`` (name -> the plugin's
    submodule that defines it), so that sniffing a file imports only the plugin's
    light ``_sniff`` module, not its checker and reference codec."""
    import importlib
    import sys

    table = {**CONTRACT_MEMBERS, **(members or {})}

    def __getattr__(name: str) -> Any:
        sub = table.get(name)
        if sub is not None:
            value = getattr(importlib.import_module(f"{package}.{sub}"), name)
            setattr(sys.modules[package], name, value)  # the next lookup is a plain attribute
            return value
        if name == "STRATEGIES":
            mod = importlib.import_module(f"{package}._strategies")
            return {n: getattr(mod, n) for n in mod.__all__}
        if name == "seeds":
            return importlib.import_module(f"{package}._seeds").seeds
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
