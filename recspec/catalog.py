"""The rule catalog across formats: lookup by id, rule families, and the text of `recspec explain`.

Every renderer that describes rules (SARIF rule metadata, the HTML report's
explanations, JUnit's test-case names) and the ``rules``/``explain`` commands
read rules through here, so they all say the same thing. Format modules are
loaded only for the formats asked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ._paths import docs_dir
from .formats import FORMATS, FormatInfo, resolve_format
from .report import CORE_RULES, Rule

__all__ = ["RECSPEC", "all_rules", "explain_text", "installed_document", "rule_family", "rules_for"]

#: The pseudo-format that owns recspec's own rules (RECSPEC-*), which apply to any file.
RECSPEC = FormatInfo("recspec", "recspec itself, any format", (), (), (), ("spec", "compat"), "spec",
                     cross_check_limit=0, stats_keys=())

_FAMILY = re.compile(r"^(.*?)-\d+$")


def rule_family(rule_id: str) -> str:
    """``CARLA-FRAME-004`` -> ``CARLA-FRAME``: the id without its trailing number
    (ids without one, like ``RECSPEC-INTERNAL``, are their own family)."""
    m = _FAMILY.match(rule_id)
    return m.group(1) if m else rule_id


def all_rules(fmt: str | None = None) -> list[tuple[FormatInfo, Rule]]:
    """Every rule: recspec's own (without a format filter), then each format's catalog."""
    infos = [resolve_format(fmt)] if fmt else list(FORMATS.values())
    core = [] if fmt else [(RECSPEC, rule) for rule in CORE_RULES]
    return core + [(info, rule) for info in infos for rule in info.load().RULES]


def rules_for(format_ids: Iterable[str | None]) -> dict[str, tuple[FormatInfo, Rule]]:
    """Rule id -> (format, rule) for recspec's own rules and the named formats' catalogs."""
    out: dict[str, tuple[FormatInfo, Rule]] = {rule.id: (RECSPEC, rule) for rule in CORE_RULES}
    for fid in sorted({f for f in format_ids if f}):
        info = FORMATS.get(fid)
        if info is not None:
            for rule in info.load().RULES:
                out[rule.id] = (info, rule)
    return out


def explain_text(info: FormatInfo, rule: Rule, *, width: int = 88, document: str | None = None) -> str:
    """One rule in full, as `recspec explain RULE` prints it; ``document`` (the clause's file where this
    recspec is installed, :func:`installed_document`) adds a line after the clause."""
    lines = [f"{rule.id}: {rule.title}", "",
             f"format:     {info.id} ({info.title})",
             f"clause:     {rule.clause}"]
    if document:
        lines.append(f"document:   {document}")
    lines.append("levels:     " + ", ".join(f"{k} {v.value}" for k, v in rule.levels.items()))
    if rule.structural:
        lines += ["structural: yes (an error here means the file cannot be walked: verdict malformed;",
                  "            the Kaitai parser rejects such files too)"]
    if rule.policy:
        lines += ["source:     recspec's own policy, not the format's (a reader may accept such a file:",
                  "            `recspec drive reader` notes it instead of failing the reader)"]
    # Lines break at spaces only, so that a cited path (docs/formats/raskat-signal.md#decision-2)
    # stays whole and can be copied.
    import textwrap  # here: `recspec explain` and the SARIF report wrap text, a check's table does not

    fill = textwrap.TextWrapper(width=width, break_on_hyphens=False).fill
    lines += ["", fill(rule.explanation)]
    if rule.deviation:
        lines += ["", "Where the document is wrong:", fill(rule.deviation)]
    return "\n".join(lines) + "\n"


def installed_document(rule: Rule) -> str | None:
    """The file a rule's clause cites (``docs/formats/<id>.md#anchor``, a path in the repository) as it is
    where this recspec runs: the repository's file in a checkout, the copy inside the installed package
    (``.../site-packages/recspec/docs/formats/<id>.md``) otherwise; ``None`` for a clause citing no file."""
    cited = rule.clause.split(" ", 1)[0]
    if not cited.startswith("docs/"):
        return None
    file, _, anchor = cited[len("docs/"):].partition("#")
    path = docs_dir() / file
    return f"{path}#{anchor}" if anchor else str(path)
