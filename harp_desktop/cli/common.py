"""What every `harp` command module shares: exit codes, the --library option, the time format
and the terminal progress bar. Command modules import this, never the package __init__ (no cycle)."""

from __future__ import annotations

import argparse
import os
import sys

EXIT_ERROR, EXIT_USAGE = 1, 2
LIB_HELP = "library folder (default: $HARP_LIBRARY or the user data folder)"


def add_library_option(p: argparse.ArgumentParser) -> None:
    """`--library FOLDER`, defaulting to $HARP_LIBRARY as read when the parser is built."""
    p.add_argument("--library", default=os.environ.get("HARP_LIBRARY"), help=LIB_HELP)


def fmt_time(s: float) -> str:
    m, sec = divmod(max(0.0, s), 60)
    return f"{int(m):02d}:{sec:04.1f}"


def open_library(args: argparse.Namespace):
    """The Library of `--library` (imported here so `harp --help` stays fast)."""
    from harp_desktop.api import Library

    return Library(args.library)


class ProgressBar:
    """A one-line progress bar on stderr when it is a terminal; silent otherwise."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.enabled = sys.stderr.isatty()

    def __call__(self, p) -> None:
        if not self.enabled:
            return
        width = 28
        fill = int(p.fraction * width)
        eta = f" ETA {int(p.eta_s // 60)}:{int(p.eta_s % 60):02d}" if p.eta_s is not None else ""
        line = f"\r{self.label[:30]:30} [{'#' * fill}{'.' * (width - fill)}] {p.fraction * 100:5.1f}% {p.stage:<11}{eta}"
        sys.stderr.write(line.ljust(90))
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 90 + "\r")
            sys.stderr.flush()
