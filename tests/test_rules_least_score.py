"""Least Score's entry form: the card picker (cards-N), typed cards (cardtext-N) and totals."""

import pytest

from games.rules import RulesError, get_game, replay, score

GAME = get_game("least_score")


def table(*rounds, **options):
    document = {
        "game": "least_score",
        "players": ["Ann", "Bo", "Chen"],
        "options": options,
        "rounds": list(rounds),
    }
    return replay(document)[1]


def posted(**fields):
    """A posted form: field name (cards_2 for cards-2) -> list of strings."""
    return {
        name.replace("_", "-"): value if isinstance(value, list) else [value]
        for name, value in fields.items()
    }


def test_picked_and_typed_cards_make_one_hand():
    form = posted(
        declarer="1",
        hand_0="9",
        cards_1=["AH", "2C"],
        cardtext_1=" 3s,4♦  5D",
        hand_2="12",
        cards_2=["KS"],
    )
    entry = GAME.entry_from_form(form, table())
    assert entry == {"declarer": 1, "hands": [9, ["AH", "2C", "3s", "4♦", "5D"], ["KS"]]}


def test_cards_win_over_a_typed_total_and_a_hand_without_cards_uses_the_total():
    form = posted(declarer="0", hand_0="7", cards_0=["10C"], hand_1="", cardtext_1=" ", hand_2="x")
    assert GAME.entry_from_form(form, table())["hands"] == [["10C"], None, "x"]


def test_text_that_is_not_a_card_is_passed_on_for_the_engine_to_refuse():
    form = posted(declarer="0", cards_0=["AH"], cardtext_0="1Z", hand_1="5", hand_2="6")
    entry = GAME.entry_from_form(form, table())
    assert entry["hands"][0] == ["AH", "1Z"]
    with pytest.raises(RulesError, match="is not a card"):
        score({"game": "least_score", "players": ["Ann", "Bo", "Chen"], "rounds": [entry]})


def test_a_player_who_is_out_has_no_hand_even_when_cards_are_posted():
    after = table(
        {"declarer": 0, "hands": [7, 30, 9]}, {"declarer": 1, "hands": [9, 5, 4]}, threshold=25
    )
    form = posted(declarer="0", hand_0="3", cards_1=["AH"], cardtext_1="2H", hand_2="8")
    assert GAME.entry_from_form(form, after)["hands"] == [3, None, 8]


def test_the_picker_is_refilled_from_a_hand_of_cards():
    entry = {"declarer": 0, "hands": [["AH", "k♠", "AH", "X9"], 12, ["KS", "10D"]]}
    pickers = GAME.entry_context(table(), entry)["pickers"]
    ann, bo, chen = ({c["card"]: c for c in p["cards"]} for p in pickers)
    assert [c for c, card in ann.items() if card["checked"]] == ["KS", "AH"]
    assert pickers[0]["typed"] == "AH X9"  # the repeated card and the text that is not a card
    assert (pickers[0]["shown"], pickers[0]["total"]) == (["K♠", "A♥"], 11)
    assert ann["KS"]["elsewhere"] and chen["KS"]["elsewhere"] and not ann["10D"]["checked"]
    assert ann["10D"]["elsewhere"] and not bo["AH"]["checked"] and bo["AH"]["elsewhere"]
    assert pickers[1]["typed"] == "" and pickers[1]["total"] == 0
    assert (ann["10D"]["label"], ann["10D"]["red"], ann["10D"]["value"]) == ("10♦", True, 10)


def test_a_fresh_picker_has_the_52_cards_from_the_ace_up_in_each_suit():
    pickers = GAME.entry_context(table())["pickers"]
    assert len(pickers) == 3
    cards = [c["card"] for c in pickers[0]["cards"]]
    assert len(set(cards)) == 52 and cards[:3] == ["AS", "2S", "3S"] and cards[12] == "KS"
    assert not any(c["checked"] or c["elsewhere"] for p in pickers for c in p["cards"])
