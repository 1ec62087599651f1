"""Fuzzing recspec with atheris: one harness module per format
(``recspec.fuzz.carla``) and the campaign runner behind ``recspec fuzz``.

Importing this package does not import atheris or the code under test: the
campaign runs in a subprocess that instruments recspec first (see ``_runner``).
"""

from ._runner import TARGETS, run_campaign

__all__ = ["TARGETS", "run_campaign"]
