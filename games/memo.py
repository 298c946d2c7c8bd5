"""The two memo tables of each worker, both keyed by a match version (which never changes once
written) and bounded: the engine's board of the match, and the pages drawn of it.

cachetools keeps them; a lock guards each, since a worker serves requests on several threads.
"""

import threading

import cachetools

from games import screen


def rounds_held(kept):
    """The weight of a kept (version, board): the rounds it holds, deleted ones included."""
    drawn = kept[1]
    return 1 + len(drawn["rows"]) + len(drawn["deleted"])


# One board per match, its latest version (phones ask for no other), weighed in the rounds it
# holds, which its memory grows with (measured with tracemalloc: a Gongzhu round 4.6 KB, a
# deleted one 2.1 KB): 4,000 rounds are at most some 19 MB.
BOARDS = cachetools.LRUCache(maxsize=4_000, getsizeof=rounds_held)
BOARDS_LOCK = threading.Lock()
# Each page or live update drawn for a match version (games.drawn.DrawnPage: its text, and
# compressed), weighed in bytes: 16 MB at most (a Gongzhu page of 10 hands weighs 120 KB, of
# 300 hands 390 KB, of one hand and 999 deleted 2.2 MB), none kept past 10 minutes.
DRAWN = cachetools.TTLCache(maxsize=16 * 2**20, ttl=600, getsizeof=lambda page: page.size())
DRAWN_LOCK = threading.Lock()


def board(match):
    """The board of the match at its version (match is brought to the version it is drawn at,
    if the stored rounds have moved on since it was read)."""
    with BOARDS_LOCK:
        version, drawn = BOARDS.get(match.public_id, (None, None))
    if version != match.version:
        stored, last, deleted = match.rounds_now()
        entries, numbers = [e for _n, e in stored], [n for n, _e in stored]
        drawn = screen.board(match.document(entries, numbers), numbers, last, deleted)
        keep(match.public_id, match.version, drawn)
    return drawn


def keep_board(match, version, numbers, table, deleted):
    """Keep the board of a version a change made, from the table it played its round on."""
    drawn = screen.drawn_board(
        numbers, match.rules, table, match.closed, last=numbers[-1], deleted=deleted
    )
    keep(match.public_id, version, drawn)


def keep(public_id, version, drawn):
    """Keep drawn as the board of the match's version, unless a later version's is kept."""
    with BOARDS_LOCK:
        kept_version, _drawn = BOARDS.get(public_id, (-1, None))
        if version > kept_version:
            BOARDS[public_id] = (version, drawn)


# The keys being drawn now, each with the lock its drawing holds: a second request for the same
# page waits for the first's drawing rather than drawing it again beside it (a table's export
# asked by twelve phones at once is made once a worker, not twelve times in its memory).
DRAWING = {}


def drawn(key, draw):
    """The page kept under key, else draw() kept there (drawn once however many ask at once)."""
    with DRAWN_LOCK:
        page = DRAWN.get(key)
        drawing = DRAWING.setdefault(key, threading.Lock()) if page is None else None
    if page is not None:
        return page
    with drawing:
        with DRAWN_LOCK:
            page = DRAWN.get(key)
        if page is None:
            try:
                page = draw()
                with DRAWN_LOCK:
                    DRAWN[key] = page
            finally:
                with DRAWN_LOCK:
                    DRAWING.pop(key, None)
    return page


def forget():
    """Drop everything kept (tests)."""
    with BOARDS_LOCK:
        BOARDS.clear()
    with DRAWN_LOCK:
        DRAWN.clear()
        DRAWING.clear()
