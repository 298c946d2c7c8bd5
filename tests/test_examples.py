"""Every worked example of the rule book, through the engine and through `manage.py score`.

A NAME.invalid.json example carries the rule book's reason (`why`, which ends with one possible
wording of the message, "e.g. ...") and `error`: the message this engine gives for that reason.
A match must be refused for its own reason, not for any other broken rule it happens to hold.
"""

import copy
import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command

from games.rules import RulesError, play_round, score, start
from games.screen import drawn_board

EXAMPLES = Path(__file__).parent / "examples"
MATCHES = sorted(EXAMPLES.glob("*.match.json"))
INVALID = sorted(EXAMPLES.glob("*.invalid.json"))


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def expected_result(match_path):
    return load(match_path.with_name(match_path.name.replace(".match.", ".result.")))


def run_command(path):
    """Run `manage.py score FILE`; return (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("score", str(path), stdout=out, stderr=err)
        status = 0
    except SystemExit as exit_:
        status = exit_.code
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_engine_gives_the_worked_result(path):
    assert score(load(path)) == expected_result(path)


def suggested_wording(document):
    """The rule book's wording of the message: the quoted "e.g." at the end of `why`."""
    return re.fullmatch(r'.*\(e\.g\. "(.+)"\)', document["why"], re.S).group(1)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_engine_rejects_the_invalid_match_for_its_reason(path):
    document = load(path)
    with pytest.raises(RulesError) as error:
        score(document)
    assert str(error.value) == document["error"]
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_the_expected_error_names_the_round_of_the_rule_books_wording(path):
    """`error` may word the reason differently from the rule book, never the round it names."""
    document = load(path)
    round_named = re.match(r"round (\d+): ", suggested_wording(document))
    error_round = re.match(r"round (\d+): ", document["error"])
    assert (round_named and round_named.group(1)) == (error_round and error_round.group(1))


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_command_prints_the_worked_result(path):
    status, out, err = run_command(path)
    assert (status, err) == (0, "")
    assert json.loads(out) == expected_result(path)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_command_rejects_the_invalid_match_with_status_2(path):
    status, out, err = run_command(path)
    assert status == 2
    assert out == ""
    assert err.strip() == load(path)["error"]


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_a_round_played_on_a_fork_of_the_table_leaves_the_table_as_it_was(path):
    """The server keeps each board as drawn and plays the next round (a save, a preview) on a
    fork of its table (Table.fork): the table, and everything drawn from it, stays as it was."""
    document = load(path)
    game, table, entries, closed = start(document)
    for number, entry in enumerate(entries, 1):
        before = copy.deepcopy(vars(table))
        forked = table.fork()
        play_round(game, forked, entry)
        drawn_board(range(number), game, forked, closed)
        assert vars(table) == before, f"round {number}"
        table = forked
