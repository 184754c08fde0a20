"""`python -m harp_desktop.cli ...`: the same as the `harp` console script."""

import sys

from harp_desktop.cli import main

sys.exit(main())
