"""The forms the screens read: the new-match form, built from a game's option declarations, a
round's POST, and a regulars' table's forms (its name and people, a payment, a match taken in)."""

import json
import re
import unicodedata
from decimal import Decimal
from types import SimpleNamespace

from django import forms
from django.utils.text import capfirst, get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import rules, screen
from games.rules.base import Phrase, RulesError, ascii_numbers, listed
from games.templatetags.scorekeeper import isolate, phrase, said, sentences


class Typed:
    """A field that reads the digits and separators of the reader's keyboard (۵۰، ۱۰۰ or
    50，100 is 50, 100), as the entry forms do; a refused value is shown again as typed."""

    def to_python(self, value):
        return super().to_python(ascii_numbers(value) if isinstance(value, str) else value)


class NumberField(Typed, forms.DecimalField):
    pass


class WholeField(Typed, forms.IntegerField):
    pass


class EvensField(Typed, forms.RegexField):
    pass


# The choice of typed exact-total pairs, and what may stand between a total and what it becomes.
CUSTOM = "custom"
ARROWS = re.compile(r"->|=>|[→←⇒:=]")


class PairsWidget(forms.MultiWidget):
    """The named presets (and "custom") in a list, then a text field for the table's own pairs,
    posted as NAME and NAME_custom."""

    def __init__(self, name, choices):
        typed = forms.TextInput(
            attrs={
                "data-custom-of": name,
                "placeholder": "200 → 150, 100 → 50",
                "aria-label": _("Your pairs: each total, then what it becomes"),
            }
        )
        super().__init__({"": forms.Select(choices=choices), "custom": typed})

    def decompress(self, value):
        return [json.dumps(value) if value else "", ""]

    def id_for_label(self, id_):
        return f"{id_}_0"


class PairsField(forms.MultiValueField):
    """A preset's pairs, or the pairs typed when "custom" is chosen (None: the default)."""

    def __init__(self, option, choices, **kwargs):
        self.option = option
        fields = (
            forms.ChoiceField(choices=choices, required=False),
            forms.CharField(required=False, max_length=200),
        )
        widget = PairsWidget(option.name, choices)
        super().__init__(fields, require_all_fields=False, widget=widget, **kwargs)

    def compress(self, values):
        chosen, typed = values or ("", "")
        if chosen == CUSTOM:
            return typed_pairs(self.option, self.label, typed)
        return json.loads(chosen) if chosen else None


def typed_pairs(option, label, text):
    """'200 → 150, 100 → 50' (or 200 150, 100 50, in any keyboard's digits) as
    [[200, 150], [100, 50]], as the option (labelled label) allows; else a refusal in words."""
    numbers = listed(ARROWS.sub(" ", text))
    if numbers and len(numbers) % 2 == 0 and all(re.fullmatch("[0-9]+", n) for n in numbers):
        try:
            pairs = [[int(t), int(b)] for t, b in zip(numbers[::2], numbers[1::2])]
            return option.read(pairs, label)
        except RulesError:
            pass
    raise forms.ValidationError(
        _(
            "Type pairs such as 200 → 150, 100 → 50: a total from %(low)s to %(high)s, then the "
            "smaller number it becomes, each total once."
        )
        % {"low": option.low, "high": option.high}
    )


def option_field(game, option):
    """A form field for one engine option; blank means 'the default'."""
    field = plain_field(game, option)
    decider, moved = moved_default(game, option)
    if decider:
        select = option.kind == "choice"
        shown = {key: shown_default(game, option, value, select) for key, value in moved.items()}
        field.widget.attrs.update({"data-default-of": decider, "data-defaults": json.dumps(shown)})
    field.moves = moves(game, option)
    if field.moves:
        field.widget.attrs["data-moves"] = json.dumps(field.moves)
    field.when = used_when(option)
    return field


def used_when(option):
    """For an option used only while another has some values: that option's name and those
    values as the form posts them ({"name", "values"} in JSON, for static/new_match.js)."""
    if not option.when:
        return ""
    name, values = option.when
    return json.dumps({"name": name, "values": [json.dumps(v) for v in values]})


def plain_field(game, option):
    """The field for an option's kind, its default noted under it."""
    label = _(game.label(option.name))
    help_text = sentences(_(option.help), default_note(game, option))
    if option.kind in ("choice", "pairs"):
        choices = [
            (json.dumps(c), capfirst(_(game.choice_label(option.name, c)))) for c in option.choices
        ]
        choices += [(json.dumps(value), capfirst(_(name))) for name, value in option.presets]
        blank = callable(option.default) or option.kind == "pairs"
        if blank:  # the default, which another option decides (or no preset at all)
            choices.insert(0, ("", default_note(game, option)))
        if option.kind == "pairs":
            choices.append((CUSTOM, capfirst(_("custom"))))
            return PairsField(option, choices, label=label, help_text=help_text, required=False)
        return forms.TypedChoiceField(
            label=label,
            help_text=help_text,
            choices=choices,
            coerce=json.loads,
            initial="" if blank else json.dumps(option.default),
            required=False,
            empty_value=None,
        )
    if option.kind == "bool":
        return forms.BooleanField(
            label=label, help_text=help_text, required=False, initial=option.default
        )
    # Plain text fields: a browser's number field would send letters as blank (the default).
    if option.kind == "number":
        return NumberField(
            label=label,
            help_text=help_text,
            required=False,
            localize=True,
            min_value=option.low,
            max_value=option.high,
            max_digits=20,
            initial=option.default,
            widget=forms.TextInput(attrs={"inputmode": "decimal"}),
        )
    if option.kind == "evens":
        return EvensField(
            label=label,
            help_text=help_text,
            required=False,
            max_length=200,
            regex=r"\A[0-9,\s]*\Z",
            widget=forms.TextInput(),  # the full keyboard: an iPhone's number pad has no comma
            error_messages={"invalid": _("Type even numbers separated by commas.")},
        )
    if option.kind == "text":
        return forms.CharField(
            label=label,
            help_text=help_text,
            required=False,
            max_length=option.high,
            initial=option.default,
        )
    initial = None if callable(option.default) else option.default
    return WholeField(
        label=label,
        help_text=help_text,
        required=False,
        min_value=option.low,
        max_value=option.high,
        initial=initial,
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )


def default_note(game, option):
    """'Default: 100.', in words for a default that depends on another option or that the
    option says in words ("not for money (0)")."""
    if option.default_help:
        return _("Default: %(default)s.") % {"default": _(option.default_help)}
    return default_said(game, option, option.default)


def default_said(game, option, default):
    """'Default: 100.' for one default value, in words."""
    return _("Default: %(default)s.") % {"default": default_words(game, option, default)}


def default_words(game, option, default):
    """A default value in words: a choice by its label, on / off, none."""
    if option.kind == "choice":
        return _(game.choice_label(option.name, default))
    if isinstance(default, bool):
        return _("on") if default else _("off")
    if isinstance(default, list):
        return ", ".join(map(str, default)) or _("none")
    if default is None or default == "":
        return _("none")
    return default


def moved_default(game, option):
    """For a default another option decides (Least Score's threshold, by scoring): that choice's
    name, and the default under each of its values as the form posts them; else None, {}."""
    if not callable(option.default):
        return None, {}
    plain = {o.name: o.default for o in game.options if not callable(o.default)}
    for other in game.options:
        if other.kind == "choice" and other.name in plain:
            moved = {
                json.dumps(c): option.default_for({**plain, other.name: c}) for c in other.choices
            }
            if len({json.dumps(value) for value in moved.values()}) > 1:
                return other.name, moved
    return None, {}


def moves(game, option):
    """For a choice that moves other defaults (scoring): under each of its values but the
    default, the defaults it gives, in words ('By default then: Out past this
    total: 200; ...')."""
    moving = [(o, moved_default(game, o)) for o in game.options]
    moving = [(o, moved) for o, (decider, moved) in moving if decider == option.name]
    if not moving:
        return {}
    return {
        key: _("By default then: %(defaults)s.")
        % {
            # Translators: between two options of a list, each "option: value".
            "defaults": _("; ").join(
                f"{_(game.label(o.name))}: {default_words(game, o, moved[key])}"
                for o, moved in moving
            )
        }
        for key in (json.dumps(c) for c in option.choices if c != option.default)
    }


def shown_default(game, option, value, select):
    """A moved default as the form shows it: a list's blank choice in words, a text field's
    placeholder (empty when there is none)."""
    if select:
        return default_said(game, option, value)
    return "" if value is None else str(value)


def unused_said(game, option):
    """Why an option set on the form is not used, and what to do, in the form's words."""
    name, values = option.when
    other = next(o for o in game.options if o.name == name)
    if other.kind == "bool":
        return _("Used only with “%(other)s” ticked: tick it, or put this back to its default.") % {
            "other": _(game.label(name))
        }
    return _(
        "Used only when “%(other)s” is “%(value)s”: choose that, or put this back to its default."
    ) % {
        "other": _(game.label(name)),
        "value": get_text_list([_(game.choice_label(name, value)) for value in values]),
    }


def plain_number(value):
    """A Decimal from the form as the JSON number the engine expects."""
    return int(value) if value == value.to_integral_value() else float(value)


# The score link a phone makes for a match it starts with no network (static/offline/start.js):
# made as the server makes its own (games.models.new_token), 18 random bytes (144 bits) in
# URL-safe base64.
PHONE_LINK = r"\A[A-Za-z0-9_-]{24}\Z"


class NewMatchForm(forms.Form):
    """Players in seating order and the game's options, checked by the engine itself; and the
    score link, when a phone made it."""

    def __init__(self, game, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        for seat in range(game.max_players):
            self.fields[f"player_{seat}"] = forms.CharField(
                label=_("Seat %(seat)d") % {"seat": seat + 1},
                max_length=200,
                required=seat < game.min_players,
                error_messages={
                    "required": _("Type a name here: %(game)s needs %(count)s players or more.")
                    % {"game": _(game.name), "count": game.min_players},
                    "max_length": _("A name is at most 40 characters."),
                },
            )
        for option in game.options:
            self.fields[option.name] = option_field(game, option)
        self.fields["public_id"] = forms.RegexField(
            regex=PHONE_LINK,
            required=False,
            strip=False,
            widget=forms.HiddenInput,
            error_messages={
                "invalid": _("A score link made on a phone is 24 letters, digits, - or _.")
            },
        )

    def player_fields(self):
        return [self[f"player_{seat}"] for seat in range(self.game.max_players)]

    def first_fields(self):
        """The fields asked before the others: what the table plays for."""
        return [self[option.name] for option in self.game.options if option.first]

    def option_fields(self):
        """The fields of the rule book's options."""
        return [self[o.name] for o in self.game.options if not (o.variant or o.first)]

    def variant_fields(self):
        """The fields of the house-rule variants (their defaults keep the rule book's game)."""
        return [self[o.name] for o in self.game.options if o.variant and not o.first]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        for option in self.unused():
            self.add_error(option.name, unused_said(self.game, option))
        if self.errors:
            return data
        match = {"game": self.game.slug, "players": self.players(), "options": self.options()}
        try:
            match["players"] = rules.start(match)[1].players  # the names as the engine cleaned them
        except rules.RulesError as error:
            self.add_error(self.field_of(error), said(error))
        self.match = match
        return data

    def field_of(self, error):
        """The field an engine error is about: a player's name or an option (else the form)."""
        params = error.phrase.params
        if "seat" in params:
            filled = [
                f"player_{s}"
                for s in range(self.game.max_players)
                if self.cleaned_data.get(f"player_{s}", "").strip()
            ]
            return filled[params["seat"]]
        return params.get("name") if params.get("name") in self.fields else None

    def players(self):
        names = [self.cleaned_data.get(f"player_{s}", "") for s in range(self.game.max_players)]
        return [name.strip() for name in names if name and name.strip()]

    def chosen(self):
        """{option: value} of every option the table set (a blank one takes the default)."""
        chosen = {}
        for option in self.game.options:
            value = self.cleaned_data.get(option.name)
            if value in (None, ""):
                continue
            if isinstance(value, Decimal):
                value = plain_number(value)
            elif option.kind == "evens":
                value = [int(n) for n in listed(value)]
            chosen[option.name] = value
        return chosen

    def applying(self):
        """The options used with the choices made: an option another one leaves unused (a
        floor when the match ends after a number of hands) is not, whatever it holds."""
        plain = {o.name: o.default for o in self.game.options if not callable(o.default)}
        made = {**plain, **self.chosen()}
        return [option for option in self.game.options if option.applies(made)]

    def unused(self):
        """The options the table set to something other than their default that the other
        choices leave unused (hidden on the form by static/new_match.js: set without it). A box
        is never one: hidden, it is not sent, which reads as unticked."""
        chosen, applying = self.chosen(), {o.name for o in self.applying()}
        return [
            option
            for option in self.game.options
            if option.name in chosen
            and option.name not in applying
            and option.kind != "bool"
            and chosen[option.name] != option.default
        ]

    def options(self):
        """The options the table set that the other choices use (blank ones take the default)."""
        chosen = self.chosen()
        return {o.name: chosen[o.name] for o in self.applying() if o.name in chosen}


class SetupForm(NewMatchForm):
    """A match's setup fixed after Start: its players renamed in their seats and its options,
    read as the new-match form reads them (the engine checks the names and options; the match,
    that every round entered still stands under them)."""

    def __init__(self, match, data=None):
        game = match.rules
        names = {f"player_{seat}": name for seat, name in enumerate(match.players)}
        super().__init__(game, data, initial={**names, **setup_initial(game, match.options)})
        self.seats = len(match.players)
        for seat in range(game.max_players):
            if seat < self.seats:
                self.fields[f"player_{seat}"].required = True
            else:
                del self.fields[f"player_{seat}"]
        del self.fields["public_id"]
        self.fields["version"] = drawn_at(match)

    def player_fields(self):
        return [self[f"player_{seat}"] for seat in range(self.seats)]


def drawn_at(changed):
    """The hidden field of the version of the match or table a form was drawn at: a change
    made since by another phone is shown, never undone in silence."""
    return forms.IntegerField(
        required=False,
        min_value=0,
        max_value=10**12,
        initial=changed.version,
        widget=forms.HiddenInput,
    )


def setup_initial(game, options):
    """The new-match form's fields filled with a match's options as the form shows them."""
    shown = {}
    for option in game.options:
        if option.name not in options:
            continue
        value = options[option.name]
        if option.kind == "choice":
            value = json.dumps(value)
        elif option.kind == "evens":
            value = ", ".join(map(str, value))
        elif option.kind == "pairs" and value and value not in dict(option.presets).values():
            value = [CUSTOM, ", ".join(f"{total} → {after}" for total, after in value)]
        shown[option.name] = value
    return shown


# The fields of a round's form that are not the round itself.
ROUND_META = ("csrfmiddlewaretoken", "entry_key", "version", "round", "change")
ENTRY_KEY_LENGTH = 40


class RoundForm(forms.Form):
    """One reading of a round's POST, for a save, a preview or a change: what the table typed
    (the game reads it into a round entry), the form's entry key, and the version of the match
    it was drawn from."""

    entry_key = forms.CharField(required=False, strip=False)
    version = forms.IntegerField(required=False, min_value=0, max_value=10**12)
    round = forms.IntegerField(required=False, min_value=1, max_value=10**6)
    change = forms.IntegerField(required=False, min_value=1, max_value=10**9)

    def __init__(self, game, data):
        super().__init__(data)
        self.game = game
        self.typed = {name: data.getlist(name) for name in data if name not in ROUND_META}

    def clean_entry_key(self):
        return self.cleaned_data["entry_key"][:ENTRY_KEY_LENGTH]

    def entry(self, table):
        """The round entry the game reads from what was typed, for the table before it."""
        return self.game.entry_from_form(self.typed, table)


# ---- the regulars' table

MAX_PEOPLE = 24  # a table's people: a large club evening, small enough for one screen
TABLE_NAME = 60  # characters
# What a table's people are checked as: names as the engine takes players' names.
PEOPLE_RULE = SimpleNamespace(name=gettext_noop("A table"), min_players=2, max_players=MAX_PEOPLE)
NAME_SEPARATORS = re.compile(r"[\r\n,，、،;]")
# A match's score link as pasted (the whole address, or just its id).
SCORE_LINK = re.compile(r"(?:/m/)?([A-Za-z0-9_-]{8,32})/?(?:[?#].*)?\Z")
UNITS = {"beans": gettext_noop("beans"), "money": gettext_noop("money")}
MOST_PAID = 1_000_000


def read_table_name(name):
    """A table's name cleaned as a player's is (NFC, no invisible or bidi control characters);
    RulesError for one that is not a line of text of at most TABLE_NAME characters."""
    if not isinstance(name, str) or any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise RulesError(
            gettext_noop("a table's name cannot hold line breaks or control characters")
        )
    name = rules.clean_name(name)
    if not name or len(name) > TABLE_NAME:
        raise RulesError(
            gettext_noop("a table's name is one line of at most %(most)s characters"),
            most=TABLE_NAME,
        )
    return name


MOST_CURRENCY = 12  # characters of a table's currency: a symbol, a code, a word (تومان)
NOT_A_CURRENCY = gettext_noop(
    "a currency is a symbol, a code or a word on one line, of at most %(most)s characters"
)
# The currencies offered for a table, the reader's language's usual one first (any other is typed).
CURRENCIES = ["$", "€", "¥", "£", "₮", "تومان"]
USUAL_CURRENCY = {"en": "$", "zh": "¥", "es": "€", "fa": "تومان", "mn": "₮"}


def currencies_offered(language):
    """The currencies a table's form offers, the usual one of language first."""
    usual = USUAL_CURRENCY.get(language.split("-")[0], "$")
    return [usual, *(c for c in CURRENCIES if c != usual)]


class CurrencyForm(forms.Form):
    """A table's currency (a symbol, a code or a word, as typed; empty for none), read against
    the one the form was drawn showing (seen)."""

    currency = forms.CharField(
        label=gettext_noop("Currency"), max_length=MOST_CURRENCY, required=False
    )
    seen = forms.CharField(max_length=MOST_CURRENCY, required=False, widget=forms.HiddenInput)

    def clean_currency(self):
        try:
            return read_currency(self.cleaned_data["currency"])
        except RulesError as error:
            raise forms.ValidationError(said(error)) from None


def read_currency(currency):
    """A table's currency as typed (NFC, trimmed), or RulesError when it is not one line of at
    most MOST_CURRENCY characters."""
    if not isinstance(currency, str) or any(
        unicodedata.category(c) in ("Cc", "Cf", "Cs") for c in currency
    ):
        raise RulesError(NOT_A_CURRENCY, most=MOST_CURRENCY)
    currency = unicodedata.normalize("NFC", currency).strip()
    if len(currency) > MOST_CURRENCY:
        raise RulesError(NOT_A_CURRENCY, most=MOST_CURRENCY)
    return currency


class TableForm(forms.Form):
    """A name and the people, one a line (or between commas)."""

    name = forms.CharField(label=gettext_noop("Name"), max_length=200)
    people = forms.CharField(
        label=gettext_noop("People, one a line"),
        max_length=MAX_PEOPLE * 42,
        widget=forms.Textarea(attrs={"rows": 5}),
    )

    def clean_name(self):
        try:
            return read_table_name(self.cleaned_data["name"])
        except RulesError as error:
            raise forms.ValidationError(said(error)) from None

    def clean_people(self):
        names = [n for n in NAME_SEPARATORS.split(self.cleaned_data["people"]) if n.strip()]
        try:
            return rules.read_players(names, PEOPLE_RULE)
        except RulesError as error:
            raise forms.ValidationError(said(error)) from None


class PaymentForm(forms.Form):
    """Who paid whom, how much, in which unit."""

    payer = forms.ChoiceField(label=gettext_noop("Who paid"))
    payee = forms.ChoiceField(label=gettext_noop("To whom"))
    amount = NumberField(
        label=gettext_noop("How much"), min_value=0.01, max_value=MOST_PAID, decimal_places=2
    )
    unit = forms.ChoiceField(label=gettext_noop("In"))
    entry_key = forms.CharField(max_length=40, required=False, widget=forms.HiddenInput)

    def __init__(self, table, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["version"] = drawn_at(table)
        people = [(name, name) for name in table.people]
        self.fields["payer"].choices = self.fields["payee"].choices = people
        self.fields["payee"].initial = table.people[1]  # not the payer's own name at first
        self.fields["unit"].choices = [(unit, capfirst(_(label))) for unit, label in UNITS.items()]


def asked_to_add(data):
    """True when the phone answered the question "add them to the table?" with yes."""
    return data.get("add_people") == "1"


class TakeForm(forms.Form):
    """A match already played, by its score link (the whole address as pasted, or its id)."""

    link = forms.CharField(label=gettext_noop("The match's score link"), max_length=300)

    def clean_link(self):
        found = SCORE_LINK.search(self.cleaned_data["link"].strip())
        return found.group(1) if found else ""


class TableSetupForm(TableForm):
    """A table's name and people fixed: each person renamed in place or removed, people added
    below."""

    added = forms.CharField(
        label=gettext_noop("People to add, one a line"),
        max_length=MAX_PEOPLE * 42,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, table, *args, initial=None, **kwargs):
        people = {f"person_{k}": person for k, person in enumerate(table.people)}
        initial = {"name": table.name, **people, **(initial or {})}
        super().__init__(*args, initial=initial, **kwargs)
        del self.fields["people"]  # one field a person here, and the people added
        for k, person in enumerate(table.people):
            self.fields[f"person_{k}"] = forms.CharField(
                label=person, max_length=200, required=False
            )
            self.fields[f"remove_{k}"] = forms.BooleanField(required=False)
        self.fields["version"] = drawn_at(table)
        self.count = len(table.people)

    def person_fields(self):
        return [(self[f"person_{k}"], self[f"remove_{k}"]) for k in range(self.count)]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        staying = [f"person_{k}" for k in range(self.count) if not data[f"remove_{k}"]]
        for field in staying:
            if not data[field].strip():
                self.add_error(field, _("Type a name here, or tick Remove."))
            elif NAME_SEPARATORS.search(data[field]):
                self.add_error(field, _("One name here: a comma separates two people."))
        if self.errors:
            return data
        added = [n for n in NAME_SEPARATORS.split(data.get("added", "")) if n.strip()]
        try:
            names = iter(rules.read_players([data[f] for f in staying] + added, PEOPLE_RULE))
        except RulesError as error:
            seat = error.phrase.params.get("seat")
            self.add_error(
                staying[seat] if seat is not None and seat < len(staying) else "added", said(error)
            )
            return data
        removed = [None if data[f"remove_{k}"] else next(names) for k in range(self.count)]
        data["people"] = [*removed, *names]
        return data


# ---- someone joins (games/seats.py, and the phone offline)


def join_form(drawn, version, key, data=None):
    """The join form of the match drawn (games/seats.py, and the phone offline)."""
    return JoinForm(drawn["game"], drawn["table"], screen.join_starts(drawn), version, key, data)


STARTS_AT = {
    "zero": gettext_noop("%(name)s starts at 0."),
    "lowest": gettext_noop("%(name)s starts at %(total)s, the lowest total."),
    "highest": gettext_noop("%(name)s starts at %(total)s, the highest total."),
    "average": gettext_noop("%(name)s starts at %(total)s, the average total."),
}


class JoinForm(forms.Form):
    """Who sits down, where in the seating order, and where they start; the version and entry
    key of the form."""

    name = forms.CharField(max_length=200)
    seat = forms.TypedChoiceField(coerce=int)
    late_start = forms.ChoiceField(widget=forms.RadioSelect)
    version = forms.IntegerField(widget=forms.HiddenInput)
    # the start the confirmation said, to say beside the start now if another phone moved first
    shown = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)
    entry_key = forms.CharField(max_length=40, widget=forms.HiddenInput)

    def __init__(self, game, table, starts, version, key, *args, **kwargs):
        """A join to the match game plays on table, starts: {late_start: the start}, the
        match's own first (games.screen.join_starts); version and key: the form's."""
        super().__init__(*args, **kwargs)
        self.players = players = table.players
        # Once someone joined, where a late player starts is the match's rule for them all: a
        # join does not change it (Names and options does, for every one of them).
        self.fixed = any(first > 1 for first in table.joined)
        self.starts = {
            kind: total
            for kind, total in starts.items()
            if allowed(game, table.options, len(players), kind)
            and not (self.fixed and kind != table.options["late_start"])
        }
        self.fields["name"].label = _("Name")
        self.fields["name"].error_messages["required"] = _("Type the name of the player who joins.")
        self.fields["seat"].label = _("Where they sit")
        self.fields["late_start"].label = _("Where they start")
        self.fields["seat"].choices = [
            (seat, capfirst(between(players[seat - 1], players[seat % len(players)])))
            for seat in range(1, len(players) + 1)
        ]
        self.fields["seat"].initial = len(players)
        self.fields["late_start"].choices = [
            (kind, capfirst(start_label(game, kind, total))) for kind, total in self.starts.items()
        ]
        self.fields["late_start"].initial = next(iter(self.starts))
        self.fields["version"].initial = version
        self.fields["entry_key"].initial = key

    def step(self, posted):
        """Where the posted form stands: "form" (to draw, refilled or refused, or asked to
        change something), "confirm" (its figure said before it is confirmed), "done"."""
        if not self.is_bound or not self.is_valid() or "change" in posted:
            return "form"
        return "done" if "confirm" in posted else "confirm"

    def confirming(self):
        """What the join does, said before it is confirmed: {"sentence": where the player
        starts, "name", "place": where they sit}."""
        data = self.cleaned_data
        name = rules.clean_name(data["name"])
        seat, players = data["seat"], self.players
        place = between(players[seat - 1], players[seat % len(players)])
        words = Phrase(
            STARTS_AT[data["late_start"]], name=name, total=self.starts[data["late_start"]]
        )
        shown = self.starts[data["late_start"]]
        return {"sentence": phrase(words), "name": name, "place": place, "shown": shown}


def start_label(game, kind, total):
    """A choice of where the player starts, with its figure: "at the highest total: 37"."""
    choice = _(game.choice_label("late_start", kind))
    if kind == "zero":
        return choice
    return _("%(choice)s: %(total)s") % {"choice": choice, "total": total}


def allowed(game, options, count, kind):
    """Whether the match's options allow late_start kind (a zero-sum sheet: only zero)."""
    try:
        game.read_options({**options, "late_start": kind}, count)
    except rules.RulesError:
        return False
    return True


def between(left, right):
    """A place in the seating order, clockwise: between two players."""
    return _("between %(left)s and %(right)s") % {"left": isolate(left), "right": isolate(right)}
