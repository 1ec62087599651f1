"""``recspec drive``: judge a third-party writer or reader on generated cases, and shrink its failures.

``run_drive`` drives a testee over a format's variants and returns the run
(its :class:`recspec.report.Report`, rendered by ``recspec.render`` like
``recspec check``'s, and the saved failures); the testee is a command
(:class:`CommandWriter`, :class:`CommandReader`) or a Python callable
(:class:`CallableWriter`, :class:`CallableReader`). ``recspec.testing`` is the
pytest-facing API on top of it.
"""

from ._cases import case_strategy, decode_case, drive_variants, reference_file
from ._engine import CallableReader, CallableWriter, CommandReader, CommandWriter, DriveOptions
from ._rules import DRIVE_RULES, DRIVE_RULES_BY_ID
from ._run import DriveRenderContext, DriveRun, run_drive, target_name

__all__ = ["DRIVE_RULES", "DRIVE_RULES_BY_ID", "CallableReader", "CallableWriter", "CommandReader", "CommandWriter",
           "DriveOptions", "DriveRenderContext", "DriveRun", "case_strategy", "decode_case", "drive_variants",
           "reference_file", "run_drive", "target_name"]
