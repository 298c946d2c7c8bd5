"""Playing-card notation: rank then suit, canonical form like 10C, QS, AH."""

from .base import RulesError, gettext_noop

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
PRETTY_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)


def parse_card(text):
    """The canonical form of a card written in any accepted notation, or a RulesError."""
    if not isinstance(text, str):
        raise RulesError(gettext_noop("%(card)s is not a card"), card=str(text))
    cleaned = text.strip().replace("\ufe0f", "").replace("\ufe0e", "").strip().upper()
    if len(cleaned) >= 2:
        rank, suit = cleaned[:-1], SUIT_SYMBOLS.get(cleaned[-1], cleaned[-1])
        rank = "10" if rank == "T" else rank
        if rank in RANKS and suit in SUITS:
            return rank + suit
    raise RulesError(gettext_noop("%(card)s is not a card"), card=text.strip())


def parse_cards(values, what):
    """A list of canonical cards from a list of card strings."""
    if not isinstance(values, list):
        raise RulesError(gettext_noop("%(what)s must be a list of cards"), what=what)
    return [parse_card(value) for value in values]


def rank_of(card):
    return card[:-1]


def suit_of(card):
    return card[-1]


def pretty(card):
    """A card with its suit symbol, for people: Q♠, 10♥."""
    return rank_of(card) + PRETTY_SUITS[suit_of(card)]


def is_red(card):
    return suit_of(card) in "HD"
