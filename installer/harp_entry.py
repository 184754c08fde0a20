"""Entry point of both bundled executables (installer/harp.spec).

One script serves `harp` and `harp-desktop` so the two executables share one analysis
and one folder; the executable's own name picks the program. The GUI starts its
indexing child as ``sys.executable -m harp_desktop.ui.index_worker ...``; a frozen
executable has no ``-m``, so that form is dispatched here too.
"""

from __future__ import annotations

import sys
from pathlib import Path


def run() -> int:
    if sys.argv[1:3] == ["-m", "harp_desktop.ui.index_worker"]:
        from harp_desktop.ui import index_worker

        return index_worker.main(sys.argv[3:])
    if Path(sys.executable).stem == "harp-desktop":
        from harp_desktop.ui.app import main
    else:
        from harp_desktop.cli import main
    return main()


if __name__ == "__main__":
    sys.exit(run())
