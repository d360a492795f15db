"""LaTeX formulas as MathML for the HTML report, converted when the report is written.

Browsers lay MathML out natively, so the page needs no script and no network to show mathematics.
latex2mathml's output is parsed and checked before it is used, because it passes some input
through rather than failing: an unknown command comes out as the text `\\foo`, a `\\frac` missing
an argument as an `mfrac` with one child, `\\text{<b>}` as raw markup and `\\href` as a link. Only
well-formed MathML with known elements, safe attributes (no link, no style) and the right number
of children is accepted; anything else is shown as its LaTeX source in a <code> block with a note.
The LaTeX source of every converted formula stays in the page as its <annotation>.
"""

from __future__ import annotations

import html
from xml.etree import ElementTree

from latex2mathml.converter import convert

_NAMESPACE = "{http://www.w3.org/1998/Math/MathML}"
#: Longest LaTeX string converted; a longer one is shown as source (the converter is not linear-time).
MAX_LATEX_CHARS = 20_000
#: MathML elements a converted formula may contain (MathML Core and what latex2mathml writes).
_ELEMENT_NAMES = """math mrow mi mn mo mtext ms mspace mfrac msqrt mroot mstyle merror mpadded mphantom menclose
    msub msup msubsup munder mover munderover mmultiscripts mprescripts none mtable mtr mtd"""
ELEMENTS = frozenset(_ELEMENT_NAMES.split())
#: Attributes a converted formula may carry: layout only (no href, style or class: nothing to fetch or run).
_ATTRIBUTE_NAMES = """display mathvariant displaystyle stretchy fence separator lspace rspace width height depth
    columnalign columnlines rowlines columnspacing rowspacing minsize maxsize scriptlevel accent accentunder
    movablelimits notation linethickness mathsize mathcolor mathbackground largeop form voffset symmetric"""
ATTRIBUTES = frozenset(_ATTRIBUTE_NAMES.split())
#: Elements with a fixed number of children.
ARITY = {"mfrac": 2, "mroot": 2, "msub": 2, "msup": 2, "mover": 2, "munder": 2, "msubsup": 3, "munderover": 3}
#: Token elements: their text is what the reader sees, so it must not be a LaTeX command.
TOKENS = frozenset({"mi", "mn", "mo", "mtext", "ms"})


class Unconvertible(ValueError):
    """A LaTeX string that cannot be shown as MathML; the message says why."""


def to_mathml(latex: str, display: str = "block") -> str:
    """The formula as a <math> element (HTML serialization) with its LaTeX source as annotation."""
    if len(latex) > MAX_LATEX_CHARS:
        raise Unconvertible(f"longer than {MAX_LATEX_CHARS} characters")
    try:
        converted = convert(latex, display=display)
    except Exception as exc:  # latex2mathml signals bad input with many exception types, some of them builtins
        raise Unconvertible(f"latex2mathml rejected it ({type(exc).__name__})") from None
    try:
        root = ElementTree.fromstring(converted)
    except ElementTree.ParseError:
        raise Unconvertible("latex2mathml's output is not well-formed MathML") from None
    for element in root.iter():
        _check(element)
        element.tag = element.tag.removeprefix(_NAMESPACE)  # HTML places <math> in the MathML namespace itself
    children = list(root)
    if len(children) == 1:
        presentation = children[0]
    else:
        presentation = ElementTree.Element("mrow")
        presentation.extend(children)
    math = ElementTree.Element("math", root.attrib)
    semantics = ElementTree.SubElement(math, "semantics")
    semantics.append(presentation)
    ElementTree.SubElement(semantics, "annotation", encoding="application/x-tex").text = latex
    return ElementTree.tostring(math, encoding="unicode", short_empty_elements=False)


def formula_html(latex: str) -> str:
    """MathML for the formula, or, when it cannot be converted, its source in <code> with a note saying so."""
    try:
        return to_mathml(latex)
    except Unconvertible as exc:
        return (
            f"<div class='tex-source'><code>{html.escape(latex)}</code>"
            f"<br><small>shown as LaTeX source: {html.escape(str(exc))}</small></div>"
        )


def _check(element: ElementTree.Element) -> None:
    """Raise Unconvertible unless the element is known MathML with safe attributes and its arity."""
    if not element.tag.startswith(_NAMESPACE):
        raise Unconvertible(f"latex2mathml wrote a non-MathML element <{element.tag}>")
    name = element.tag.removeprefix(_NAMESPACE)
    if name not in ELEMENTS:
        raise Unconvertible(f"latex2mathml wrote an element the report does not show (<{name}>)")
    unsafe = sorted(set(element.attrib) - ATTRIBUTES)
    if unsafe:
        raise Unconvertible(f"latex2mathml wrote the attribute {unsafe[0]!r} on <{name}>")
    if name in ARITY and len(element) != ARITY[name]:
        raise Unconvertible(f"<{name}> needs {ARITY[name]} arguments, got {len(element)}")
    text = (element.text or "").strip()
    if name in TOKENS and text.startswith("\\") and len(text) > 1:
        raise Unconvertible(f"latex2mathml does not know {text}")
