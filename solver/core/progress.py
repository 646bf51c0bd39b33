"""Progress output for long work: lines for what happens, tqdm bars for how far it is.

A :class:`Reporter` prints phase lines to stderr and makes bars. Bars appear only for work that
lasts (``delay``), so a run of many small jobs stays short while a long one shows where it is.
``quiet`` turns everything off; ``lines=False`` keeps the bars but drops the lines (what a job
run under a scheduler uses: the scheduler prints one line per job). Bars are drawn only on a
terminal (``bars=None``, the default) or where asked (``bars=True``, ``--progress``): into a log
file a bar would write a line at every refresh, megabytes over a long solve; the lines still come.
"""

from __future__ import annotations

import sys


class Reporter:
    """Prints phases and shows tqdm bars; ``quiet`` turns both off."""

    def __init__(self, quiet: bool = False, stream=None, lines: bool = True, position: int = 0,
                 delay: float = 1.0, bars: bool | None = None):
        self.quiet = quiet
        self.stream = stream
        self.lines = lines
        self.position = position
        self.delay = delay
        self.bars = bars

    def _bars_on(self) -> bool:
        if self.quiet:
            return False
        if self.bars is not None:
            return self.bars
        stream = self.stream or sys.stderr
        try:
            return stream.isatty()
        except (AttributeError, ValueError):
            return False

    def phase(self, text: str):
        """A line saying what happens now (written above any bar that is showing)."""
        if self.quiet or not self.lines:
            return
        from tqdm import tqdm

        tqdm.write(text, file=self.stream or sys.stderr)

    def below(self) -> "Reporter":
        """The same reporter one bar position lower: for the bars of work inside one of this
        reporter's bars."""
        import copy

        inner = copy.copy(self)
        inner.position = self.position + 1
        return inner

    def bar(self, total=None, desc="", unit="it", leave=False):
        """A tqdm bar (a no-op one when quiet); it shows only after ``delay`` seconds."""
        from tqdm import tqdm

        return tqdm(total=total, desc=desc, unit=unit, disable=not self._bars_on(), leave=leave,
                    file=self.stream or sys.stderr, dynamic_ncols=True, position=self.position,
                    delay=self.delay, unit_scale=unit == "pos", mininterval=0.5)
