"""SymPy work under counted budgets (and, in a child process, a memory cap): SymPy has no limits of its own.

A budget is a number of operations (`headflow.certificates.counted`), never seconds, so a verdict does not depend on how
busy the machine is. `isolated` runs work that may crash or swell (Groebner bases) in a forked child with a memory
cap, under the budget, with the budget's wall-clock safety net as a hard deadline; in-process work calls
`headflow.certificates.counted.spend` directly.
"""

from __future__ import annotations

import faulthandler
import multiprocessing
import resource
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import TypeVar

import sympy as sp
from headflow.certificates import processes
from headflow.certificates.counted import SAFETY, safety_seconds, spend
from headflow.certificates.inert import Exp, Log, inert
from headflow.identities.algebraic import Unsupported, reduce_modulo, ring_form

T = TypeVar("T")

#: Operations (`headflow.certificates.counted`) one exact reduction of a claims-file decider may take, per profile.
REDUCTION_OPERATIONS = {"quick": 30_000_000, "thorough": 200_000_000}
#: Memory a simplify child may use beyond the size of the parent at the fork.
CHILD_MEMORY_BYTES = 2 * 1024**3
#: Operations the printing of a left-over expression may take (SymPy's printer can be slow).
PRINT_OPERATIONS = 2_000_000
#: Seconds a forked child may take to start and to send its answer, beyond its budget's safety net.
CHILD_OVERHEAD_SECONDS = 10.0


def exactly_zero(expr: sp.Expr, operations: int) -> tuple[bool | None, str]:
    """Whether exact algebra shows `expr` is 0 wherever it is defined: (True, ""), (False, what is left), or (None,
    why undecided). Not SymPy's simplify, whose rewrites rest on signs from its assumptions and floats: the
    expression is made inert (`headflow.certificates.inert`), rewritten by `normalized` (exp and log), and the
    numerator of its fraction over its atoms reduced modulo the radicals' defining polynomials
    (`headflow.identities.algebraic`): a remainder 0 holds for every root, so for the values the atoms take.

    The algebra runs isolated (`isolated`): SymPy's polynomial code can crash the interpreter on huge
    integers (python-flint aborts with SIGFPE), and that must not take the report down.
    """
    answer, why = isolated(lambda: _remainder(expr), operations, "the exact reduction")
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


def isolated(compute: Callable[[], T], operations: int, what: str) -> tuple[T | None, str]:
    """(compute(), "") computed in a forked child process within `operations` (`headflow.certificates.counted`), or
    (None, why not) naming `what`.

    The child has a memory cap (CHILD_MEMORY_BYTES above the parent's size at the fork), and never outlives this
    process (`certificates.processes.forked`); a crash, a MemoryError, any exception or a spent budget leaves the
    answer None. A child that does not answer within the budget's wall-clock safety net (a long call into C that
    the count cannot stop) is killed, and the reason says so. The result travels back pickled. Where fork is
    unavailable it runs in-process."""
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        return _counted(compute, operations, what)
    seconds = safety_seconds(operations)
    receiver, sender = context.Pipe(duplex=False)
    with processes.forked(context, _child, compute, operations, what, sender) as child:
        sender.close()
        try:
            if not receiver.poll(seconds + CHILD_OVERHEAD_SECONDS):
                return None, f"{what} ran past {SAFETY} ({seconds + CHILD_OVERHEAD_SECONDS:g} s; killed)"
            return receiver.recv()
        except (EOFError, OSError):
            return None, f"{what} failed in its child process (exit code {child.exitcode})"
        finally:
            receiver.close()


def _child(compute: Callable[[], object], operations: int, what: str, sender: Connection) -> None:
    faulthandler.disable()  # a crash here is expected and reported by the parent, without a dump
    with open("/proc/self/statm") as statm:
        size = int(statm.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (size + CHILD_MEMORY_BYTES, size + CHILD_MEMORY_BYTES))
    try:
        message: tuple[object, str] = _counted(compute, operations, what)
    except MemoryError:
        message = (None, f"{what} ran out of memory")
    except Exception as exc:  # SymPy may fail in many ways; the claim then stays undecided
        message = (None, f"{what} failed: {type(exc).__name__}")
    sender.send(message)
    sender.close()


def _counted(compute: Callable[[], T], operations: int, what: str) -> tuple[T | None, str]:
    """(compute(), "") within `operations`, or (None, what stopped it) naming `what`."""
    value, why = spend(operations, compute)
    return (value, "") if not why else (None, f"{what} ran past {why}")


def short_text(expr: sp.Expr, limit: int = 80) -> str:
    """str(expr) cut to `limit` characters; SymPy's printer can be slow, so it gets PRINT_OPERATIONS."""
    text = spend(PRINT_OPERATIONS, lambda: str(expr))[0] or "(too costly to print)"
    return text if len(text) <= limit else text[: limit - 3] + "..."
