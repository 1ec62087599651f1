"""Hypothesis profiles for the whole suite.

Choose one with ``RECSPEC_HYPOTHESIS_PROFILE`` (default ``ci``):

* ``ci``: quick enough to run on every commit on a 2-core machine;
* ``deep``: a long hunt, for nightly runs or before a release.

``deadline`` is off in both: examples are whole recordings whose encode,
decode and check times vary with their size, and a shared CI machine makes
per-example timings noisy. No health check is suppressed here; a test that
needs it says so next to its own ``@settings``.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=50, deadline=None, print_blob=True)
settings.register_profile("deep", max_examples=2000, deadline=None, print_blob=True)

PROFILE = os.environ.get("RECSPEC_HYPOTHESIS_PROFILE", "ci")
settings.load_profile(PROFILE)
