"""Text wrapped at words to a line width: the one wrapper of every printed report, listing and document.

A word longer than a line (a path, a long number, an embedded figure) is left whole, so that it can still be copied;
`PLAIN_WIDTH` is the width of output that goes to a file or a pipe, where there is no terminal to ask.
"""

from __future__ import annotations

import textwrap

#: The line width of a report printed to a file or a pipe (where there is no terminal to ask), and of a document.
PLAIN_WIDTH = 80
#: The indent of a wrapped line's continuation.
CONTINUED = "      "


def wrapped(text: str, width: int, first: str = "", then: str = CONTINUED, whole: bool = True) -> list[str]:
    """`text` wrapped at words to `width` columns, its first line after `first` and the others after `then`; a word
    longer than a line stays whole (a path, a number: cut, it could not be copied) unless `whole` is False. Words are
    separated by ASCII whitespace only: a caller keeps two words on one line by joining them with another character."""
    lines = textwrap.wrap(
        text, width, initial_indent=first, subsequent_indent=then, break_long_words=not whole, break_on_hyphens=False
    )
    return lines or [first + text]
