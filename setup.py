"""Package discovery for the installed layout (the rest of the metadata is in pyproject.toml).

``reference/``, ``conformance/`` and ``fuzz/`` are top-level folders of the
checkout but subpackages of the installed ``recspec`` (``[tool.setuptools.package-dir]``),
which setuptools' own discovery cannot map. Every folder with an ``__init__.py``
under them is a package, so a new format's folders ship without an edit here;
``ksy/``, ``corpus/`` and ``docs/`` ship as the data packages ``recspec.ksy``,
``recspec.corpus`` and ``recspec.docs``.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent

#: package name -> its folder in the checkout
CODE_PACKAGES = {"recspec": "recspec", "recspec.reference": "reference",
                 "recspec.conformance": "conformance", "recspec.fuzz": "fuzz"}
DATA_PACKAGES = ("recspec.ksy", "recspec.corpus", "recspec.docs")


def packages() -> list[str]:
    found = []
    for name, folder in CODE_PACKAGES.items():
        base = ROOT / folder
        for init in sorted(base.rglob("__init__.py")):
            rel = init.parent.relative_to(base)
            found.append(".".join([name, *rel.parts]))
    return found + list(DATA_PACKAGES)


if __name__ == "__main__":
    from setuptools import setup

    setup(packages=packages())
