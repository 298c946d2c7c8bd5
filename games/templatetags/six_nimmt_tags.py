"""The 6 nimmt! number pads: one per player, refilled from the hand being entered."""

from django import template

from games.rules.six_nimmt import bullheads_in

register = template.Library()


@register.simple_tag
def six_nimmt_pads(table, entry, cards):
    """Per seat: its name, the bullheads of its ticked cards, and every card in play marked
    checked (this seat took it) or elsewhere (another seat took it)."""
    taken = entry.get("taken") if isinstance(entry, dict) else None
    if not isinstance(taken, list) or len(taken) != table.n:
        taken = [[] for _ in table.players]
    in_play = {card["number"] for card in cards}
    ticked = [in_play.intersection(seat) for seat in taken]
    pads = []
    for seat, name in enumerate(table.players):
        others = set().union(*(t for s, t in enumerate(ticked) if s != seat))
        pads.append({
            "seat": seat, "name": name, "bullheads": bullheads_in(ticked[seat]),
            "cards": [dict(card, checked=card["number"] in ticked[seat],
                           elsewhere=card["number"] in others) for card in cards],
        })
    return pads
