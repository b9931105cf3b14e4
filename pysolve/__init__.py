"""pysolve: puzzles and games written three ways (SWI-Prolog, miniKanren, Python), cross-checked."""

__version__ = "0.1.0"
