"""The Dormand-Prince 5(4) pair with its fourth-order continuous extension.

Sources: J. R. Dormand and P. J. Prince, "A family of embedded Runge-Kutta formulae", J. Comput.
Appl. Math. 6 (1980) 19-26 (c, a, b and the embedded fourth-order weights; also Hairer, Norsett,
Wanner, Solving ODEs I, Table II.5.2); the dense output is L. F. Shampine, "Some practical
Runge-Kutta formulas", Math. Comp. 46 (1986) 135-150, in the power-basis form of scipy's
`RK45.P` (scipy/integrate/_ivp/rk.py).

Seven stages, the last at the new state (FSAL): six velocity evaluations per step. The error
estimate y5 - y4 uses that last stage, so it is evaluated before the step is accepted.
"""

from __future__ import annotations

from headflow.checks.integrator.tableau import Tableau, exact

_B5 = exact(["35/384", 0, "500/1113", "125/192", "-2187/6784", "11/84", 0])
_B4 = exact(["5179/57600", 0, "7571/16695", "393/640", "-92097/339200", "187/2100", "1/40"])

DORMAND_PRINCE_54 = Tableau(
    name="DP5(4)",
    order=5,
    error_order=4,
    c=exact([0, "1/5", "3/10", "4/5", "8/9", 1, 1]),
    a=(
        (),
        exact(["1/5"]),
        exact(["3/40", "9/40"]),
        exact(["44/45", "-56/15", "32/9"]),
        exact(["19372/6561", "-25360/2187", "64448/6561", "-212/729"]),
        exact(["9017/3168", "-355/33", "46732/5247", "49/176", "-5103/18656"]),
        _B5[:6],
    ),
    b=_B5,
    error=(tuple(b5 - b4 for b5, b4 in zip(_B5, _B4, strict=True)),),
    fsal=True,
    dense=(
        exact([1, "-8048581381/2820520608", "8663915743/2820520608", "-12715105075/11282082432"]),
        exact([0, 0, 0, 0]),
        exact([0, "131558114200/32700410799", "-68118460800/10900136933", "87487479700/32700410799"]),
        exact([0, "-1754552775/470086768", "14199869525/1410260304", "-10690763975/1880347072"]),
        exact([0, "127303824393/49829197408", "-318862633887/49829197408", "701980252875/199316789632"]),
        exact([0, "-282668133/205662961", "2019193451/616988883", "-1453857185/822651844"]),
        exact([0, "40617522/29380423", "-110615467/29380423", "69997945/29380423"]),
    ),
)
