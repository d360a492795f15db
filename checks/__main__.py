"""Allow `python -m checks` to behave like the `headflow` command."""

import sys

from checks.cli import main

sys.exit(main())
