import sys

from harp_desktop.ui.app import main

sys.exit(main())
