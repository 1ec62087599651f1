"""The table ``recspec check`` and ``recspec merge`` print: a row per file, its findings under it.

A file's *entry* (its row's cells and the lines under it) depends on its report
alone, the column widths on the whole run (the spool's tally has them). So the
entry is made when the file's report is stored (:class:`EntryMaker`; with ``-j N``
by the worker that checked the file, on every core) and kept beside it: the table
of a run of 10,000 small files is then printed without loading 10,000 reports back
from the spool (about two thirds of the table's time). A file without a stored
entry (the reports of a run rewritten by ``--expectations``, of ``recspec merge``,
or kept in a list) is rendered here from its report, the same way.
"""

from __future__ import annotations

import pickle
from itertools import chain, repeat, starmap
from typing import TextIO

from ..report import FileReport, Report, Verdict
from ..spool import Spool
from ._context import SEVERITY_LABELS, RenderContext, finding_location
from ._verdicts import PROFILES, driving_profile, other_profiles_summary, profile_note, summary_text

__all__ = ["TABLE_CHUNK", "TABLE_FINDINGS_PER_RULE", "EntryMaker", "print_table", "table_entry"]

#: The table lists this many findings of one rule per file before a count of the rest:
#: a file that breaks one rule in every frame would otherwise bury the other files.
TABLE_FINDINGS_PER_RULE = 5
#: The table is written this many files at a time.
TABLE_CHUNK = 256


#: A file's entry: its row's cells (as wide as they are) and the lines under the row.
Entry = tuple[tuple[str, ...], str]


#: each verdict's cell, made once (an Enum's ``value`` is a Python-level property; a row has one per profile)
_VERDICT_CELLS: dict[Verdict, str] = {v: v.value for v in Verdict}


def table_entry(fr: FileReport, ctx: RenderContext, per_rule: int | None) -> Entry:
    """One file's entry: the cells of its row and its findings' lines (``per_rule`` of each rule, then a
    count; None: every stored one), with the profile note. ``ctx`` needs the rules of the file's format."""
    verdicts = fr.profile_verdicts()
    cells = (fr.path, fr.format or "-", fr.variant or "-",
             *(_VERDICT_CELLS[verdicts[p].verdict] if p in verdicts else "-" for p in PROFILES), fr.counts_text())
    lines: list[str] = []
    shown: dict[str, int] = {}
    for f in fr.findings:
        shown[f.rule] = shown.get(f.rule, 0) + 1
        if per_rule is not None and shown[f.rule] > per_rule:
            continue
        where = finding_location(f.offset, f.path)
        known = " (known deviation)" if f.rule in fr.known_deviations else ""
        at = " " + where if where else ""
        lines.append(f"    {SEVERITY_LABELS[f.severity]:7} {f.rule}{known}{at}: {f.message}\n")
    for rule, n in shown.items():
        total = fr.rule_count(rule) or n  # the true total, past the stored findings' per-rule cap
        listed = n if per_rule is None else min(n, per_rule)
        if total > listed:
            hint = ("--all-findings lists the stored ones, at most "
                    f"{fr.findings_cap} per rule" if per_rule is not None and n > per_rule and fr.capped
                    else "--all-findings lists them" if per_rule is not None and n > per_rule
                    else f"at most {fr.findings_cap} per rule are stored")
            lines.append(f"    ...   {rule}: {total - listed} more not shown ({total} in all; {hint})\n")
    note = profile_note(fr, ctx)
    if note:
        lines.append(f"    =     {note}\n")
    return cells, "".join(lines)


class EntryMaker:
    """Makes file entries as their reports are stored, before the run's report exists (in a ``-j N``
    worker, or the serial loop), as the bytes a spool keeps beside the report (``Spool.put``,
    ``put_record``): a rendering context per format, whose rules are the file's own format's (all that
    :func:`table_entry` looks up)."""

    def __init__(self, per_rule: int | None) -> None:
        self.per_rule = per_rule
        self._contexts: dict[str | None, RenderContext] = {}

    def __call__(self, fr: FileReport) -> bytes:
        ctx = self._contexts.get(fr.format)
        if ctx is None:  # no file in it: a run's memory holds no report (tests/test_spool.py)
            ctx = self._contexts[fr.format] = RenderContext(Report(), formats=(fr.format,))
        return pickle.dumps(table_entry(fr, ctx, self.per_rule), pickle.HIGHEST_PROTOCOL)


def print_table(report: Report, out: TextIO, *, per_rule: int | None = TABLE_FINDINGS_PER_RULE,
                verbose: bool = False) -> None:
    """The table of a run: both profiles' verdicts per file; the driving profile's (``--profile``) sets
    the exit code, E/W/I and the findings listed. One pass over the files (a run's files may be on disk,
    recspec/spool.py): the widths are in the tally."""
    head = ("FILE", "FORMAT", "VARIANT", *(p.upper() for p in PROFILES), "E/W/I")
    tally = report.tally()
    path_w, format_w, variant_w, counts_w = tally.widths
    verdict_w = [max((len(v.value) for v in tally.under.get(p, {})), default=1) for p in PROFILES]
    widths = [max(len(c), w) for c, w in zip(head, (path_w, format_w, variant_w, *verdict_w, counts_w))]
    out.write("  ".join(c.ljust(w) for c, w in zip(head, widths)).rstrip() + "\n")
    ctx = RenderContext(report)
    files = report.files
    row = "  ".join(f"{{:<{w}}}" for w in widths).format  # each cell left-justified to its column, in one call
    # the entries made as the spool was filled, in order, a chunk at a time
    chunks = (files.entry_chunks(pickle.loads) if isinstance(files, Spool)
              else (repeat(None, min(TABLE_CHUNK, len(files) - lo)) for lo in range(0, len(files), TABLE_CHUNK)))
    at = 0
    for chunk in chunks:
        entries = list(chunk)
        if entries and None not in entries:
            # every file's entry made: the rows laid out with no Python step per file
            all_cells, all_below = zip(*entries)
            out.write("".join(chain.from_iterable(
                zip(map(str.rstrip, starmap(row, all_cells)), repeat("\n"), all_below))))
            at += len(entries)
            continue
        lines: list[str] = []
        for i, entry in enumerate(entries, at):
            if i > at and (i - at) % TABLE_CHUNK == 0:  # one write per line cost more than the rest
                out.write("".join(lines))
                lines.clear()
            cells, below = entry if entry is not None else table_entry(files[i], ctx, per_rule)
            lines.append(row(*cells).rstrip() + "\n")
            lines.append(below)
        out.write("".join(lines))
        at += len(entries)
    for st in report.stale:
        out.write(f"STALE {st.rule} expected on {st.path}, but {st.why} ({report.expectations})\n")
    if verbose:
        for path in report.unclaimed:
            out.write(f"unclaimed {path}: no format claims it (by content or extension)\n")
        for path in report.not_regular:
            out.write(f"not regular {path}: a FIFO, socket or device in a folder; not opened\n")
    s = report.summary()
    others = other_profiles_summary(report) if report.files else ""
    tail = f" (profile {driving_profile(report)} sets the exit code; {others})" if others else ""
    out.write("\n" + summary_text(s) + tail + "\n")
