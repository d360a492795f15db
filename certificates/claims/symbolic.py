"""SymPy work under time (and, in a child process, memory) limits: SymPy has none of its own.

`within` bounds time in-process; `isolated` runs work that may crash or swell (Groebner bases) in a
forked child with a memory cap and a hard deadline. The in-process limit is a SIGALRM timer, which
only the main thread can use; elsewhere the call runs unbounded. The timeout exception derives from
BaseException so that no `except Exception` inside SymPy can swallow it. An enclosing timer keeps
running: the inner limit is shortened to it, and what is left of it is restored afterwards. Once expired, the
timer keeps firing every `REPEAT_SECONDS` until the limit's scope ends, so a timeout raised where Python swallows
it (a gc callback, a `__del__`) is raised again in the computation itself.
"""

from __future__ import annotations

import faulthandler
import multiprocessing
import resource
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import TypeVar

import sympy as sp

from certificates import processes
from certificates.inert import Exp, Log, inert
from identities.algebraic import Unsupported, reduce_modulo, ring_form

T = TypeVar("T")

#: Memory a simplify child may use beyond the size of the parent at the fork.
CHILD_MEMORY_BYTES = 2 * 1024**3
#: Seconds between the repeated signals of an expired limit (see the module docstring).
REPEAT_SECONDS = 0.05


class SymbolicTimeout(BaseException):
    """The time limit of a symbolic computation passed."""


def within(seconds: float, compute: Callable[[], T]) -> T | None:
    """compute(), or None when it did not finish within `seconds`."""
    if seconds <= 0:
        return None
    try:
        with _alarm(seconds):
            return compute()
    except SymbolicTimeout:
        return None


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise SymbolicTimeout

    enclosing = signal.getitimer(signal.ITIMER_REAL)[0]
    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, min(seconds, enclosing) if enclosing > 0 else seconds, REPEAT_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if enclosing > 0:
            left = max(enclosing - (time.monotonic() - start), 1e-3)
            signal.setitimer(signal.ITIMER_REAL, left, REPEAT_SECONDS)


def exactly_zero(expr: sp.Expr, seconds: float) -> tuple[bool | None, str]:
    """Whether exact algebra shows `expr` is 0 wherever it is defined: (True, ""), (False, what is left), or (None,
    why undecided). Not SymPy's simplify, whose rewrites rest on signs from its assumptions and floats: the
    expression is made inert (`certificates.inert`), rewritten by `normalized` (exp and log), and the
    numerator of its fraction over its atoms reduced modulo the radicals' defining polynomials
    (`identities.algebraic`): a remainder 0 holds for every root, so for the values the atoms take.

    The algebra runs isolated (`isolated`): SymPy's polynomial code can crash the interpreter on huge
    integers (python-flint aborts with SIGFPE), and that must not take the report down.
    """
    answer, why = isolated(lambda: _remainder(expr), seconds, "the exact reduction")
    return (None, why) if answer is None else answer


def _remainder(expr: sp.Expr) -> tuple[bool | None, str]:
    try:
        form = ring_form(normalized(inert(expr)))
        remainder = reduce_modulo(form, form.numerator).remainder
    except (Unsupported, sp.PolynomialError) as exc:
        return None, f"outside exact algebra ({str(exc)[:80]})"
    return (True, "") if remainder == 0 else (False, short_text(remainder))


def normalized(expr: sp.Expr, expand: bool = True) -> sp.Expr:
    """`expr` rewritten by identities of exp and log that hold wherever it is defined, none using a sign:
    log(e^a) = a (a real), e^(k log(a) + b) = a^k e^b for an integer k (log(a) is defined, so a > 0: the
    definedness condition the formula records), then e^a e^b = e^(a + b) (`merged_exponentials`, within the
    terms of the expansion, or of `expr` as it is when not `expand`). Unchanged without exp and log."""
    if not expr.has(Exp, Log):
        return expr

    def exponential(node: sp.Expr) -> sp.Expr:
        factor, rest = sp.Integer(1), []
        for term in sp.Add.make_args(sp.expand(node.args[0])):
            coefficient, core = term.as_coeff_Mul()
            if isinstance(core, Log) and coefficient.is_Integer:
                factor *= core.args[0] ** coefficient
            else:
                rest.append(term)
        return factor * Exp(sp.Add(*rest))

    unlogged = expr.replace(lambda e: isinstance(e, Log) and isinstance(e.args[0], Exp), lambda e: e.args[0].args[0])
    return merged_exponentials(unlogged.replace(lambda e: isinstance(e, Exp), exponential), expand)


def merged_exponentials(expr: sp.Expr, expand: bool = True) -> sp.Expr:
    """Each term's exponential factors merged into one (e^a e^b = e^(a + b), true for all reals), in `expr`
    expanded (or as it is)."""
    terms = []
    for term in sp.Add.make_args(sp.expand(expr) if expand else expr):
        exponent, rest = sp.Integer(0), []
        for factor in sp.Mul.make_args(term):
            base, power = factor.as_base_exp()
            if isinstance(base, Exp) and power.is_Integer:
                exponent += power * base.args[0]
            else:
                rest.append(factor)
        terms.append(sp.Mul(*rest, Exp(sp.expand(exponent))))
    return sp.Add(*terms)


def isolated(compute: Callable[[], T], seconds: float, what: str) -> tuple[T | None, str]:
    """(compute(), "") computed in a forked child process, or (None, why not) naming `what`.

    The child has a memory cap (CHILD_MEMORY_BYTES above the parent's size at the fork) and a hard
    deadline of `seconds`, and never outlives this process (`certificates.processes.forked`); a crash, a
    hang, a MemoryError or any exception leaves the answer None. The result travels back pickled. Where
    fork is unavailable it runs in-process under the SIGALRM limit.
    """
    if seconds <= 0:
        return None, "no time left"
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        result = within(seconds, compute)
        return (None, f"{what} timed out") if result is None else (result, "")
    receiver, sender = context.Pipe(duplex=False)
    with processes.forked(context, _child, compute, what, sender) as child:
        sender.close()
        try:
            if not receiver.poll(seconds):
                return None, f"{what} timed out after {seconds:g} s"
            return receiver.recv()
        except (EOFError, OSError):
            return None, f"{what} failed in its child process (exit code {child.exitcode})"
        finally:
            receiver.close()


def _child(compute: Callable[[], object], what: str, sender: Connection) -> None:
    faulthandler.disable()  # a crash here is expected and reported by the parent, without a dump
    with open("/proc/self/statm") as statm:
        size = int(statm.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (size + CHILD_MEMORY_BYTES, size + CHILD_MEMORY_BYTES))
    try:
        message: tuple[object, str] = (compute(), "")
    except MemoryError:
        message = (None, f"{what} ran out of memory")
    except Exception as exc:  # SymPy may fail in many ways; the claim then stays undecided
        message = (None, f"{what} failed: {type(exc).__name__}")
    sender.send(message)
    sender.close()


def short_text(expr: sp.Expr, limit: int = 80) -> str:
    """str(expr) cut to `limit` characters; SymPy's printer can be slow, so it gets 2 seconds."""
    text = within(2.0, lambda: str(expr)) or "(too slow to print)"
    return text if len(text) <= limit else text[: limit - 3] + "..."
