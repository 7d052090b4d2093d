"""``python -m porlab.cli``: the ``porlab`` command."""

from __future__ import annotations

import sys

from porlab.cli.main import main

sys.exit(main())
