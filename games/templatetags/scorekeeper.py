"""Small template helpers: index a list, render an engine phrase, show a number (signed, or money
in the table's currency), join names; every number on every page is shown through them.

Names and signed numbers land in running text in five languages, one of them right to left: each
is isolated (<bdi>, or U+2068/U+2066 ... U+2069 where HTML cannot go), so "زهرا: 6, 94 to 100"
keeps its numbers in place and "-100" keeps its sign in front in a Persian sentence.
"""

import html
import re
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal
from numbers import Number
from urllib.parse import urlsplit

from django import template
from django.utils.formats import number_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, gettext_noop, ngettext

from games.ledger import BEANS, MONEY, unit_of
from games.rules.base import ROUND_MESSAGE, Phrase, Term, plain

register = template.Library()

# The list separator each language writes between names (Chinese 、, Persian ،).
SEPARATORS = {"zh": "、", "fa": "، "}
FSI, LRI, PDI = "\u2068", "\u2066", "\u2069"
# %(name)s, %(points)+d, %(share).2f ... and %% in an engine phrase.
# A number written out as text (a change's "-60 → -80"): isolated left to right as numbers are.
WRITTEN_NUMBER = re.compile(r"[+\-−]?\d+(?:[.,]\d+)*")
PLACEHOLDER = re.compile(r"%\((\w+)\)([#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa])|%%")


# Full-width punctuation carries its own space (Chinese 。 ：): no space follows it.
FULL_WIDTH_END = tuple("。：；！？，")


def sentences(*parts):
    """Sentences one after another as the language writes them: "Done. Next." but "好。下一个。"."""
    out = ""
    for part in filter(None, map(str, parts)):
        out += part if not out or out.endswith(FULL_WIDTH_END) else f" {part}"
    return out


@register.simple_tag
def separator():
    """Between two items of a list, in the reader's language."""
    return SEPARATORS.get((get_language() or "en").split("-")[0], ", ")


def is_number(value):
    return isinstance(value, Number) and not isinstance(value, bool)


def escape(text):
    """text escaped for HTML and marked safe, as Django's escape does it (by the standard
    library's html.escape), without its check for lazy text: a screen escapes some hundreds of
    names, numbers and pieces of engine sentences each time it is drawn."""
    return SafeString(html.escape(str(text)))


def isolated(text, number=False):
    """text in a <bdi>: a number always left to right, anything else in its own direction."""
    inner = text.__html__() if hasattr(text, "__html__") else escape(text)
    return SafeString(f'<bdi dir="ltr">{inner}</bdi>' if number else f"<bdi>{inner}</bdi>")


@register.filter
def at(sequence, index):
    """sequence[index], or None when there is no such item."""
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return None


def render(value, html=True):
    """An engine Phrase in the reader's language, its names and numbers isolated.

    Terms are translated words of the sentence; nested phrases and lists of them (Gongzhu's
    breakdown) are rendered the same way; any other text (a name, cards) and every number is
    data, isolated from the sentence around it.
    """
    text = gettext(value.text)
    if not value.params:
        return escape(text) if html else text
    out, start = [], 0
    for found in PLACEHOLDER.finditer(text):
        out.append(escape(text[start : found.start()]) if html else text[start : found.start()])
        start = found.end()
        if found.group(0) == "%%":
            out.append("%")
        else:
            name, spec = found.groups()
            out.append(param(value.params[name], "%" + spec, html))
    out.append(escape(text[start:]) if html else text[start:])
    return mark_safe("".join(out)) if html else "".join(out)


def param(value, spec, html):
    if isinstance(value, Phrase):
        return render(value, html)
    if isinstance(value, list):
        items = [param(item, "%s", html) for item in value]
        return (
            separator().join(conditional_escape(i) for i in items)
            if html
            else separator().join(items)
        )
    if isinstance(value, Term):
        shown = spec % gettext(value)
        return escape(shown) if html else shown
    if value is None or isinstance(value, bool):
        shown = spec % (value,)
        return escape(shown) if html else shown
    shown = spec % (value,)
    number = is_number(value) or WRITTEN_NUMBER.fullmatch(shown) is not None
    if html:
        return isolated(shown, number)
    # Plain text (an SVG label, which is laid out left to right): a name is isolated.
    return shown if number else f"{FSI}{shown}{PDI}"


def said(error):
    """A RulesError's message in the reader's language, as HTML with each name in a <bdi>."""
    if error.round is None:
        return render(error.phrase)
    return render(Phrase(ROUND_MESSAGE, round=error.round, message=error.phrase))


def because(sentence, why):
    """A translated sentence with its %(why)s filled in by a message that may be HTML."""
    return mark_safe(escape(sentence) % {"why": conditional_escape(why)})


@register.filter
def phrase(value):
    """An engine Phrase in the reader's language, as HTML (names and numbers in <bdi>)."""
    return render(value)


@register.filter
def sentence(value):
    """The phrase as a line of its own (an item of a list): its first letter a capital."""
    shown = render(value)
    return mark_safe(shown[:1].upper() + shown[1:]) if shown[:1].isalpha() else shown


@register.filter
def paragraph(lines):
    """Engine phrases one after another, each a sentence, as the language runs sentences on."""
    return mark_safe(sentences(*(sentence(line) for line in lines)))


@register.filter
def phrase_text(value):
    """The same phrase as plain text (inside SVG or an attribute), names isolated by U+2068-2069."""
    return render(value, html=False)


@register.inclusion_tag("games/partials/terms.html")
def terms(game, lines):
    """The sentences saying what each word of game that lines (engine phrases) use is, in the
    reader's language: one tap reveals them (games/partials/terms.html)."""
    text = " ".join(render(line, html=False) for line in lines)
    return {"terms": [gettext(what) for word, what in game.terms.items() if gettext(word) in text]}


@register.filter
def link_text(url):
    """A link as text that breaks only after a / of its path, between whole parts, never inside
    its token (shown in the font of class "link", where _ shows)."""
    parts = urlsplit(str(url))
    start = f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""
    path = str(url)[len(start) :]
    return mark_safe(escape(start) + "/<wbr>".join(escape(part) for part in path.split("/")))


@register.filter
def bdi(value):
    """A name (or a number, left to right) isolated from the sentence it lands in."""
    return isolated(value, is_number(value))


@register.filter
def isolate(value):
    """The same as bdi with Unicode isolates, for SVG text and attributes."""
    return f"{LRI if is_number(value) else FSI}{value}{PDI}"


@register.filter
def listing(names):
    """Names joined the way the reader's language lists them (Ann, Bo / Ann、Bo), each isolated."""
    return mark_safe(separator().join(isolated(name) for name in names))


def shown_number(number):
    return str(number) if isinstance(number, int) else number_format(number)


@register.filter
def number(value):
    """A number as every page shows one: written as the reader's language writes numbers (61,2
    in Spanish; Latin digits in every language, Persian too), isolated left to right so a minus
    stays in front in a right-to-left line. Anything else as it is."""
    if not is_number(value):
        return value
    return isolated(shown_number(value), number=True)


@register.filter
def signed(number):
    """+12, -3, 0, written and isolated as number writes them."""
    if not is_number(number):
        return number
    shown = shown_number(number)
    return isolated(f"+{shown}" if number > 0 else shown, number=True)


@register.simple_tag
def score_rows(rows, edit_url, edit_title):
    """The scoreboard's rows: the round's place (a link to change it when edit_url is given,
    as on a scoring phone) and each player's points this round, signed, over the running
    total. Joined here, not in template loops: a save draws every row of the new version."""
    return mark_safe("".join(score_row(row, escape(edit_url), escape(edit_title)) for row in rows))


def score_row(row, edit_url, edit_title):
    place = row["position"]
    if edit_url:
        place = f'<a href="{edit_url}{row["number"]}/" title="{edit_title}">{place}</a>'
    cells = "".join(
        f"<td>{signed(points)}<small>{total_shown(total)}</small></td>"
        if points is not None
        else away_cell()
        for points, total in row["cells"]
    )
    return f'<tr data-place="{row["position"]}"><th scope="row">{place}</th>{cells}</tr>'


AWAY = gettext_noop("did not play")


def away_cell():
    """The cell of a player who did not play the round (not joined yet, or gone)."""
    return f'<td class="away" title="{escape(gettext(AWAY))}">–</td>'


def total_shown(total):
    return number(total) if is_number(total) else escape(total)


@register.filter
def cents(payments):
    """The decimal places a settlement's money shows: 2 when any amount has cents, else 0."""
    if not payments:
        return 0
    amounts = list(payments.get("amounts") or [])
    amounts += [t["amount"] for t in payments.get("transfers") or []]
    amounts.append(payments.get("remainder") or 0)
    return 2 if any(is_number(a) and Decimal(str(a)) % 1 for a in amounts) else 0


# The currency of the table whose page is being drawn ("" for none): every amount of money
# drawn inside currency_of(code) shows it.
CURRENCY = ContextVar("currency", default="")
# Languages that write a currency's symbol before the amount ($5.00, ¥5.00); the others after
# it, as they do a code (5,00 €, 5.00 تومان, 5.00 ₮).
SYMBOL_FIRST = {"en", "zh"}


@contextmanager
def currency_of(code):
    """Amounts of money drawn inside are shown in currency code (a table's; "" for none)."""
    token = CURRENCY.set(code or "")
    try:
        yield
    finally:
        CURRENCY.reset(token)


def split_places(places):
    """(unit, decimals) of an amount's places: "money:2", "beans:0", or a number (no unit)."""
    unit, _colon, count = str(places or 0).rpartition(":")
    return unit, int(count)


def amount_shown(amount, places, sign):
    """An amount in the reader's number format with its decimals, signed when sign (+860.40,
    -12.00, 0), isolated left to right; money with the table's currency, where the language
    puts it ($5.00, 5,00 €)."""
    unit, count = split_places(places)
    shown = number_format(amount, decimal_pos=count or None)
    shown = f"+{shown}" if sign and amount > 0 else shown
    code = CURRENCY.get() if unit == MONEY else ""
    if not code:
        return isolated(shown, number=True)
    language = (get_language() or "en").split("-")[0]
    if language in SYMBOL_FIRST and len(code) == 1 and not code.isalnum():
        sign_part = shown[0] if shown[0] in "+-" else ""
        return isolated(f"{sign_part}{code}{shown[len(sign_part) :]}", number=True)
    return SafeString(f"{isolated(shown, number=True)}\u00a0{isolated(code)}")


@register.filter
def money(amount, places=0):
    """An amount with places decimals in the reader's number format (860.40); places "money:2"
    shows it in the table's currency ($860.40)."""
    return amount_shown(amount, places, sign=False) if is_number(amount) else amount


@register.filter
def money_signed(amount, places=0):
    """The same with its sign: +860.40, -12.00, 0."""
    return amount_shown(amount, places, sign=True) if is_number(amount) else amount


@register.filter
def money_places(payments, result):
    """How a match's settlement payments are shown: its unit and decimals ("money:2")."""
    return f"{unit_of(result)}:{cents(payments)}"


# What a settlement pays, as its column is headed.
PAID_IN = {BEANS: gettext_noop("Beans"), MONEY: gettext_noop("Money")}


@register.filter
def paid_in(result):
    """What a result's settlement is paid in, as its column is headed: Beans, Money."""
    return gettext(PAID_IN[unit_of(result)])


@register.filter
def plural_count(number):
    """The whole number a plural form is chosen by for number: itself when whole, else 2 (a
    fraction reads as many in every language here: 0.5 beans, 1.5 beans)."""
    return int(number) if is_number(number) and number == int(number) else 2


@register.filter
def in_unit(amount, unit_places):
    """An amount in a table's unit, as a player says it: money as a number (5.00), beans
    counted (300 beans). unit_places: "beans:0", "money:2" (the unit and the decimals shown)."""
    unit, _places = unit_places.split(":")
    shown = money(amount, unit_places)
    if unit != "beans" or not is_number(amount):
        return shown
    beans = ngettext("%(amount)s bean", "%(amount)s beans", plural_count(amount))
    return mark_safe(beans % {"amount": shown})


@register.filter
def paid(payment):
    """A recorded payment's amount as a player says it: 5.00 (money), 300 beans."""
    amount = plain(payment.amount)  # 28, never 28.00 (a whole number of beans)
    places = 2 if payment.unit == "money" or amount % 1 else 0
    return in_unit(amount, f"{payment.unit}:{places}")


@register.filter
def absolute(number):
    return abs(number) if is_number(number) else number


@register.filter
def through(low, high):
    """The whole numbers low to high, both included: {% for n in 1|through:17 %}."""
    return range(int(low), int(high) + 1)


@register.filter
def is_list(value):
    return isinstance(value, list)


@register.filter
def named(game, options):
    """The game as the table calls it: the title it typed, as typed, else its name translated."""
    return game.title(options or {}) or gettext(game.name)


@register.simple_tag
def option_words(game, name, value):
    """An option's value for people: text as typed, a preset by its name, pairs as 200 → 150,
    anything else in words."""
    option = next((o for o in game.options if o.name == name), None)
    if option is None or value in (None, "", []):
        return words(value, game)
    preset = next((label for label, chosen in option.presets if chosen == value), None)
    if preset is not None:
        return gettext(preset)
    if option.kind == "text":
        return format_html("<bdi>{}</bdi>", value)
    if option.kind == "pairs":
        return separator().join(f"{total} → {becomes}" for total, becomes in value)
    if option.kind == "choice":
        return gettext(game.choice_label(name, value))
    return words(value, game)


@register.filter
def words(value, game=None):
    """An option name or value for people: the game's label, on/off, lists joined."""
    if isinstance(value, bool):
        return gettext("on") if value else gettext("off")
    if isinstance(value, list):
        return separator().join(map(str, value)) or "–"
    if value is None:
        return "–"
    if game is not None:
        return gettext(game.label(value))
    return str(value).replace("_", " ")


LIVE_MORE = '<div id="live-more"'  # where games/partials/live_more.html begins


@register.filter
def live_part(drawn, part):
    """The live update drawn once (games/partials/live.html), cut where the entry form goes:
    "top" (the standings, what the live check swaps) or "more" (the rounds below the form)."""
    top, mark, more = str(drawn).partition(LIVE_MORE)
    return mark_safe(top if part == "top" else mark + more)
