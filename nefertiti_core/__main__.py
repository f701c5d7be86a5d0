"""``python -m nefertiti_core`` runs the ``nefertiti`` command."""

import sys

from .cli import main

sys.exit(main())
