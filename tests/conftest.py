"""Hypothesis profiles and the shared skip markers of the whole suite.

Choose a Hypothesis profile with ``RECSPEC_HYPOTHESIS_PROFILE`` (default ``ci``):

* ``ci``: quick enough to run on every commit on a 2-core machine;
* ``deep``: a long hunt, for nightly runs or before a release.

``deadline`` is off in both: examples are whole recordings whose encode,
decode and check times vary with their size, and a shared CI machine makes
per-example timings noisy. No health check is suppressed here; a test that
needs it says so next to its own ``@settings``.

What lives outside the Python environment is asked for by a marker, so that a
test that needs it is skipped with the reason (``-ra`` lists it), never fails
for lack of it and never passes without running:

* ``requires_node``: ``node`` on PATH, to run the Kaitai compiler
  (``tools/ksy_compile.mjs``). Only node's absence skips: with node present,
  a missing ``npm ci`` is a failure the test reports;
* ``requires_npm_packages``: the npm devDependencies in ``node_modules/`` (the
  SARIF SDK's schema and validator), installed by ``npm ci``;
* ``requires_atheris``: the ``atheris`` package (``pip install 'recspec[fuzz]'``);
* ``requires_real_samples``: the real sample files of ``../shared/real/``
  (one file that is missing from it skips through ``helpers.real_file``).
"""

from __future__ import annotations

import importlib.util
import os
import shutil

import pytest
from hypothesis import settings

from helpers import NPM_PACKAGES, REAL, REAL_SAMPLES_REASON

settings.register_profile("ci", max_examples=50, deadline=None, print_blob=True)
settings.register_profile("deep", max_examples=2000, deadline=None, print_blob=True)

PROFILE = os.environ.get("RECSPEC_HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)

NODE_REASON = "needs node on PATH (the Kaitai compiler runs on it: install Node.js 20, then `npm ci`)"
NPM_PACKAGES_REASON = f"needs the npm devDependencies in {NPM_PACKAGES} (run `npm ci`)"
ATHERIS_REASON = "needs atheris (pip install -e '.[fuzz]' in the checkout)"


def _missing() -> dict[str, str]:
    """Marker name -> skip reason, for each marker whose requirement is absent here."""
    out = {}
    if shutil.which("node") is None:
        out["requires_node"] = NODE_REASON
    if not (NPM_PACKAGES / "@microsoft" / "sarif-multitool-linux" / "package.json").is_file():
        out["requires_npm_packages"] = NPM_PACKAGES_REASON
    if importlib.util.find_spec("atheris") is None:
        out["requires_atheris"] = ATHERIS_REASON
    if not REAL.is_dir():
        out["requires_real_samples"] = REAL_SAMPLES_REASON
    return out


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = _missing()
    for item in items:
        for marker, reason in missing.items():
            if item.get_closest_marker(marker) is not None:
                item.add_marker(pytest.mark.skip(reason=reason))
                break
