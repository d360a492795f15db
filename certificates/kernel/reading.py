"""Read a user's file with a bound: a regular file only, never more than a stated number of bytes.

Every file headflow reads on a user's behalf (claims files, certificates, the files of a certificate
folder, a sweep's CSV files) is read here, so that `/dev/zero`, a FIFO or a huge sparse file is refused
in one line instead of hanging the process or exhausting its memory. The path is stat'ed first; it is
then opened with O_NONBLOCK (opening a FIFO for reading would otherwise wait for a writer) and the open
file is fstat'ed again (the path may have been swapped in between); at most limit + 1 bytes are read.
A name read in an open folder (`dir_fd`) is opened without following a symbolic link: the caller has resolved
the links and checked where they lead (`certificates.claims.data_files`), so a link put there since is refused.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)


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
    nofollow = os.O_NOFOLLOW if dir_fd is not None else 0
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | nofollow | getattr(os, "O_CLOEXEC", 0), dir_fd=dir_fd)
    with open(fd, "rb") as file:  # closes fd; a buffered read of n bytes reads until n or the end of the file
        status = os.fstat(fd)
        _check_mode(path, status.st_mode)
        data = file.read(limit + 1) if status.st_size <= limit else b""
    if status.st_size > limit or len(data) > limit:
        raise RefusedFile(path, f"larger than {limit} bytes")
    return data


def _check_mode(path: str | os.PathLike[str], mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    what = next((name for test, name in _KINDS if test(mode)), "an unknown kind")
    raise RefusedFile(Path(path), f"not a regular file ({what})")
