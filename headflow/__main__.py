"""`python -m headflow` is the `headflow` command."""

import sys

from headflow.checks.cli import main

sys.exit(main())
