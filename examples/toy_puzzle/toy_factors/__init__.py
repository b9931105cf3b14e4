"""Factor pairs: every a <= b with a * b = n, answered by Prolog, miniKanren and Python."""
