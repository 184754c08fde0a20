"""`harp`: the terminal shell over harp_desktop.api (no logic of its own).

One module per command group; this file only assembles them and runs the chosen handler.

Adding a command (e.g. ``harp record``):

1. Write ``harp_desktop/cli/<group>.py`` with its handler(s) and one registration function::

       def add_parsers(sub: argparse._SubParsersAction) -> None:
           p = sub.add_parser("record", help="...")
           p.add_argument(...)
           add_library_option(p)          # from harp_desktop.cli.common, if it opens a library
           p.set_defaults(func=cmd_record)   # cmd_record(args) -> int: the exit code

2. Append the module to ``COMMANDS`` below (its place there is its place in ``harp --help``).

A command module imports only harp_desktop.cli.common (exit codes, --library, fmt_time,
ProgressBar, open_library), other command modules it really shares code with (cluster.py) and
the rest of harp_desktop; never this package's __init__, so the package has no import cycle
(tests/test_layout.py checks). Handlers raise LookupError / ValueError / RuntimeError /
WeightsError / OSError for user errors: main() prints them as one ``harp: error:`` line, exit 1.
"""

from __future__ import annotations

import argparse
import sys

from harp_desktop import weights
from harp_desktop.cli import ask, delete, export, findings, index, library, models, record, show, speaker
from harp_desktop.cli import eval as eval_cmd
from harp_desktop.cli.common import EXIT_ERROR, EXIT_USAGE

__all__ = ["COMMANDS", "EXIT_ERROR", "EXIT_USAGE", "build_parser", "main"]

# Each module's add_parsers(sub) registers its subcommands, in this order in `harp --help`.
COMMANDS = (
    index,  # index [--engine ray]
    show,  # show
    ask,  # ask
    models,  # models
    speaker,  # speaker (name, --role)
    delete,  # delete
    eval_cmd,  # eval, questions
    library,  # library init|export|import
    export,  # report, export, audit
    findings,  # findings
    record,  # record (issue 20)
)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="harp", description="HARP Desktop: index and search long recordings, offline.")
    ap.add_argument("--version", action="version", version="harp-desktop 0.1.0")
    sub = ap.add_subparsers(dest="command", required=True)
    for module in COMMANDS:
        module.add_parsers(sub)
    return ap


def main(argv: list[str] | None = None) -> int:
    from harp_desktop.store import dbapi, unlock

    args = build_parser().parse_args(argv)
    unlock.set_prompt(library.prompt_passphrase)  # an encrypted library asks on the terminal (or $HARP_PASSPHRASE)
    try:
        return args.func(args)
    except (LookupError, weights.WeightsError, RuntimeError, ValueError) as exc:
        msg = exc.args[0] if isinstance(exc, LookupError) and exc.args else exc
        print(f"harp: error: {' '.join(str(msg).split())}", file=sys.stderr)
        return EXIT_ERROR
    except (OSError, *dbapi.Error) as exc:  # full disk, read-only or damaged library: one line, no traceback
        from harp_desktop.errors import user_message

        print(f"harp: error: {user_message(exc)}", file=sys.stderr)
        return EXIT_ERROR
