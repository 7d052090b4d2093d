"""``python -m porlab`` runs the CLI."""

import sys

from porlab.cli import main

sys.exit(main())
