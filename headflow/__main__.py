"""`python -m headflow` is the `headflow` command."""

from headflow.checks.cli import entry

entry()
