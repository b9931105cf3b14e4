"""The strategies' names as the command line writes them.

The strategies' names as the command line writes them, apart from the strategies themselves, so that
declaring Azul's options (`pysolve --help`) loads no player and no search table.
"""

from __future__ import annotations

PLAYERS = ("random", "greedy", "lookahead")  # the strategies without parameters, in `strategies.STRATEGIES`
KNOWN = ", ".join([*PLAYERS, "mcts[:ITERATIONS|:SECONDSs][:random|:greedy][:rROUNDS][:wWIDTH][:cEXPLORATION]",
                   "minimax[:DEPTH][:SECONDSs]"]) + "; any of them +policy (the grey wall's columns by pysolve's " \
    "fixed policy); cmd:COMMAND (an outside agent, choosing its columns too)"
