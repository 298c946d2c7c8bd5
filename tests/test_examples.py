"""Every worked example of the rule book, through the engine and through `manage.py score`."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from games.rules import RulesError, score

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


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_engine_rejects_the_invalid_match(path):
    with pytest.raises(RulesError) as error:
        score(load(path))
    assert str(error.value)
    assert "\n" not in str(error.value)


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
    assert len(err.strip().splitlines()) == 1
