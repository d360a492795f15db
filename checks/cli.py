"""The `headflow` command: subcommands live in `checks.commands`, one module each.

Each command module defines HELP, `add_arguments(parser)` and `run(args) -> int`. Bad input of
any kind ends in one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import NoReturn

from certificates.kernel.errors import InputError
from checks import __version__, commands


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors in one line with exit code 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="headflow",
        description="Check the theorems of 'Gradient Flow Structure and Quantitative Dynamics of "
        "Multi-Head Self-Attention': symbolic proofs, certificates, constants and simulations.",
    )
    parser.add_argument("--version", action="version", version=f"headflow {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.ispkg:  # a package of commands/ holds what several commands share, not a command
            continue
        module = importlib.import_module(f"checks.commands.{info.name}")
        name = getattr(module, "NAME", info.name.replace("_", "-"))
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(handler=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help()
        return 2
    try:
        return int(args.handler(args))
    except InputError as exc:
        sys.stderr.write(f"headflow: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("headflow: interrupted\n")
        return 130
    except OSError as exc:
        sys.stderr.write(f"headflow: error: {exc.strerror or exc}: {exc.filename or ''}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
