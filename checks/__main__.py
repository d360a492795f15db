"""Allow `python -m headflow` to behave like the `headflow` command."""

import sys

from headflow.checks.cli import main

sys.exit(main())
