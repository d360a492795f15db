"""Reading a user's file with a bound, and a certificate file from it: its size, JSON (no duplicate key, no NaN),
fields, schema, tools and checksum.

Every file headflow reads on a user's behalf (claims files, certificates, the files of a certificate
folder, a sweep's CSV files) is read by `read_bounded`, so that `/dev/zero`, a FIFO or a huge sparse file is refused
in one line instead of hanging the process or exhausting its memory. The path is stat'ed first; it is
then opened with O_NONBLOCK (opening a FIFO for reading would otherwise wait for a writer) and the open
file is fstat'ed again (the path may have been swapped in between); at most limit + 1 bytes are read.
A name read in an open folder (`dir_fd`) is opened without following a symbolic link: the caller has resolved
the links and checked where they lead (`headflow.certificates.claims.data_files`), so a link put there since is refused.

`load` is what every check of a certificate starts from (`verify.check_file`, the claims-file embedding, the Coq
files): the object is returned only when the file is a well-formed certificate of the current format, unmodified.
"""

import json
import os
import stat
from collections import Counter
from pathlib import Path
from typing import Any

from . import format as fmt
from .recheck import Rejected, require_keys

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"))
_KINDS += ((stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))


class RefusedFile(OSError):
    """The path is not a regular file, or the file is larger than the limit (strerror says which)."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(None, reason, str(path))


def require_regular(path: str | os.PathLike[str], dir_fd: int | None = None) -> None:
    """Refuse (RefusedFile) a path that is not a regular file (with `dir_fd`: a name in that folder, a link
    refused); OSError when it cannot be stat'ed."""
    _check_mode(path, os.stat(path, dir_fd=dir_fd, follow_symlinks=dir_fd is None).st_mode)


def read_bounded(path: str | os.PathLike[str], limit: int, dir_fd: int | None = None) -> bytes:
    """The bytes of the regular file at `path` (with `dir_fd`: a name in that open folder, never a link), refused
    (RefusedFile) when it is not one or holds more than `limit`."""
    require_regular(path, dir_fd)
    # a name in an open folder is never a link; os.open's descriptor is not inherited (close on exec)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | (os.O_NOFOLLOW if dir_fd is not None else 0), dir_fd=dir_fd)
    with open(fd, "rb") as file:  # closes fd; a buffered read of n bytes reads until n or the end of the file
        status = os.fstat(fd)
        _check_mode(path, status.st_mode)
        data = file.read(limit + 1) if status.st_size <= limit else b""
    if status.st_size > limit or len(data) > limit:
        raise RefusedFile(path, f"larger than {limit} bytes")
    return data


def _check_mode(path: str | os.PathLike[str], mode: int) -> None:
    if not stat.S_ISREG(mode):
        what = next((name for test, name in _KINDS if test(mode)), "an unknown kind")
        raise RefusedFile(Path(path), f"not a regular file ({what})")


def load(path: Path) -> dict[str, Any]:
    """The certificate object, after the size, JSON (no duplicate key, no NaN), field, schema, tools and
    checksum checks."""
    try:
        text = read_bounded(path, fmt.MAX_FILE_BYTES).decode("utf-8")
        certificate = json.loads(text, object_pairs_hook=_unique, parse_constant=_constant)
    except RefusedFile as exc:
        raise Rejected(f"file {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise Rejected(f"not JSON: {str(exc)[:120]}") from None
    require_keys(certificate, (*fmt.FIELDS, "sha256"), "the certificate")  # the checker checks every field it has
    if certificate["schema"] != fmt.SCHEMA:
        raise Rejected(f"unknown schema {str(certificate['schema'])[:60]!r} (expected {fmt.SCHEMA})")
    if certificate["kind"] not in fmt.KINDS:
        raise Rejected(f"unknown kind {str(certificate['kind'])[:60]!r}")
    if not isinstance(certificate["claim_id"], str) or not isinstance(certificate["payload"], dict):
        raise Rejected("claim_id must be a string and payload an object")
    if certificate["statement"] is not None and not isinstance(certificate["statement"], dict):
        raise Rejected("statement must be null or a core statement object")
    if certificate["claim"] is not None:  # provenance: `headflow check-cert` reads the text outside the kernel
        require_keys(certificate["claim"], {"toml"}, "the claim field (null or {'toml': <one [[claim]] table>})")
        if not isinstance(certificate["claim"]["toml"], str):
            raise Rejected("claim.toml must be the text of one [[claim]] table")
    require_keys(certificate["tools"], fmt.TOOLS, "tools")
    for name, version in certificate["tools"].items():
        if not isinstance(version, str) or not fmt.VERSION.match(version):
            raise Rejected(f"tools.{name}: not a version string")
    if fmt.content_hash(certificate) != certificate["sha256"]:
        raise Rejected("sha256 mismatch: the content was damaged or modified after it was written")
    return certificate


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all distinct (json.loads would keep the last value of a repeated key)."""
    if len(data := dict(pairs)) < len(pairs):
        key = next(key for key, count in Counter(key for key, _ in pairs).items() if count > 1)
        raise Rejected(f"duplicate key {key[:60]!r}: a certificate states each field once")
    return data


def _constant(name: str) -> Any:
    raise Rejected(f"{name} is not a JSON number")
