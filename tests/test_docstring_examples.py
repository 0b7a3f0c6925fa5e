"""The examples in the pure cores' docstrings are run, so what they show stays true."""

import doctest
import importlib
import pkgutil

import pytest

import scoring.rules
import seating.engine

MODULES = sorted(
    name
    for package in (scoring.rules, seating.engine)
    for _finder, name, _is_package in pkgutil.iter_modules(package.__path__, package.__name__ + ".")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.failed == 0
