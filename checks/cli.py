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


def _command_modules(argv: list[str]) -> list[str]:
    """The command modules the parser is built from: only the one `argv` starts with, so that a command imports
    what it uses and no more (start-up stays cheap); every one for anything else (help, --version, a wrong name)."""
    # a package of commands/ holds what several commands share, not a command
    names = sorted(info.name for info in pkgutil.iter_modules(commands.__path__) if not info.ispkg)
    module = argv[0].replace("-", "_") if argv else ""
    return [module] if module in names else names


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of the one command `argv` names (see `_command_modules`)."""
    parser = _Parser(
        prog="headflow",
        description="Check the theorems of 'Gradient Flow Structure and Quantitative Dynamics of "
        "Multi-Head Self-Attention': symbolic proofs, certificates, constants and simulations.",
    )
    parser.add_argument("--version", action="version", version=f"headflow {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    chosen = _command_modules(argv or [])
    for module_name in chosen:
        module = importlib.import_module(f"checks.commands.{module_name}")
        name = getattr(module, "NAME", module_name.replace("_", "-"))
        if len(chosen) == 1 and argv and name != argv[0]:
            return build_parser()  # argv names a module, not its command (check_cert for check-cert)
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(handler=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
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
