"""The toy's own tests, as a user writes them: pysolve's pytest plugin asks every back end (the
`pysolve_backend` fixture) and compares them all (`assert_backends_agree`). Run with the package
installed: `pytest tests`."""

import pysolve
from pysolve.pytest_plugin import assert_backends_agree


def test_every_backend_factors(pysolve_backend: str) -> None:
    assert pysolve.solve("factors", n=28, backend=pysolve_backend).solutions == [[1, 28], [2, 14], [4, 7]]


def test_backends_agree() -> None:
    report = assert_backends_agree("factors", n=720)
    assert len(report.results["python"].solutions) == 15
