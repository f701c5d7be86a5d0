"""``python -m nefertiti_core`` runs the ``nefertiti`` command.

Importing this module runs nothing: a web server that imports modules by name (such as Panel's
``/components/`` route) must not start a command by importing it (docs/security.md).
"""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
