"""Each default's citation, as data for the forms, says what the rule set's comment says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring.rules import RULESETS, ruleset_options
from scoring.rules.sources import SOURCES

RULESETS_SOURCE = Path(__file__).parents[3] / "scoring" / "rules" / "rulesets.py"


def _commented_citations() -> dict[str, dict[str, str]]:
    """Rule set -> option -> the last [bracket] of its line's comment in RULESETS, and in
    the rule sets made from one of them by dataclasses.replace."""
    text = RULESETS_SOURCE.read_text(encoding="utf-8")
    block = text[text.index("RULESETS: dict[str, RuleSet] = {") :]
    cited: dict[str, dict[str, str]] = {}
    key = ""
    for line in block.splitlines():
        if opening := re.match(r'\s+"(\w+)": RuleSet\(', line):
            key = opening.group(1)
            cited[key] = {}
        elif key and (value := re.match(r"\s+(\w+)=.*?,\s+#\s*(.*)$", line)):
            brackets = re.findall(r"\[([^\]]+)\]", value.group(2))
            cited[key][value.group(1)] = brackets[-1] if brackets else ""
        if line == "}":
            key = ""
        # A rule set made from another: its citations, then its own lines'.
        if derived := re.match(r'RULESETS\["(\w+)"\] = dataclasses\.replace\($', line):
            key = derived.group(1)
        elif key and (base := re.match(r'\s+RULESETS\["(\w+)"\],$', line)):
            cited[key] = dict(cited[base.group(1)])
        if line == ")" and key:
            key = ""
    return cited


def test_the_sources_are_the_comments_of_the_rule_sets():
    # A default changed with its comment but not here would show the old book to organisers.
    assert _commented_citations() == SOURCES
    assert all(set(options) == {o.name for o in ruleset_options()} for options in SOURCES.values())


@pytest.mark.parametrize(
    ("key", "option", "shown"),
    [
        ("wrc2015", "uma", "WRC 2015 §5.9.2"),  # the uma of WRC 2015 §5.9.2
        ("oran2015", "pao", "docs/rules.md §11 A6"),  # ORAN-1 is silent: assumption A6
        ("mahjongsoul", "kuitan", ""),  # not stated
    ],
)
def test_every_option_carries_the_citation_of_each_default(key, option, shown):
    specs = {spec.name: spec for spec in ruleset_options()}
    assert all(set(spec.sources) == set(RULESETS) for spec in specs.values())
    assert specs[option].sources[key] == shown
