"""Fuzzing recspec with atheris: one harness module per format, found through
the registry (``recspec.formats.FORMATS[<id>].fuzz_module``, e.g.
``recspec.fuzz.carla``) and typed by :class:`FuzzHarness`, and the campaign
runner behind ``recspec fuzz``.

Importing this package does not import atheris or the code under test: the
campaign runs in a subprocess that instruments recspec first (see ``_campaign`` and ``_child``).
"""

from ._campaign import CampaignResult, campaign, run_campaign
from ._contract import ContractViolation, Divergent, FuzzHarness
from ._harness import TARGETS
from ._triage import triage

__all__ = ["TARGETS", "CampaignResult", "ContractViolation", "Divergent", "FuzzHarness", "campaign", "run_campaign",
           "triage"]
