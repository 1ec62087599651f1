"""recspec-toy: a toy record format that plugs into recspec from its own package.

The entry point ``recspec.formats`` -> ``toy = recspec_toy:FORMAT`` registers :data:`FORMAT`; everything the
format brings lives in this package: ``reference`` (the codec and the case codec), ``conformance`` (rules,
sniffer, checker, Kaitai comparison, seeds, Hypothesis strategies), ``fuzz`` (the harnesses), ``ksy/toy.ksy``
and its generated parser ``_ksy/toy.py``, ``corpus/toy/`` and ``docs/toy.md``.

Importing this module imports only ``recspec.formats``: recspec reads the entry point for every run.
"""

from pathlib import Path

from recspec.formats import FormatInfo

HERE = Path(__file__).resolve().parent

FORMAT = FormatInfo(
    id="toy",
    title="Toy record file (recspec's out-of-tree plugin example)",
    aliases=("toy-records",),
    extensions=(".toy",),
    variants=(),
    profiles=("spec", "compat"),
    default_profile="spec",
    cross_check_limit=1024 * 1024,
    stats_keys=("version", "records"),
    cross_check_note="the Kaitai parser reads the whole file into objects",
    module="recspec_toy.conformance",
    reference_module="recspec_toy.reference",
    fuzz_module="recspec_toy.fuzz",
    docs=str(HERE / "docs" / "toy.md"),
    corpus=str(HERE / "corpus" / "toy"),
    finding_index=r"^records\[(\d+)\]",
)
