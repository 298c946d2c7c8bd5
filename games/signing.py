"""Each change signed with the name of the phone that made it ("on Bo's phone"): a phone is
named once, the name kept on it (its signed session cookie), and every change it sends while
named carries it (a round's events, a fix of a setup, a payment), for History, a table's changes
and its payments to say.

The name is read once a request, by the middleware below, and only for a change (a POST): the
models sign what they write with signed_by(), as Django's translation is read where it is used.
"""

import unicodedata
from contextvars import ContextVar

from django import forms
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_http_methods

from games import rules

PHONE = "phone_name"  # the session's key of this phone's name
MOST = 40  # characters, as a player's name
SIGNED = ContextVar("signed", default="")


def signed_by():
    """The name of the phone whose change is being made, or "" (not named, or no request)."""
    return SIGNED.get()


def signing(get_response):
    """Middleware: what a change (a POST) writes is signed with the phone's name."""

    def middleware(request):
        name = request.session.get(PHONE, "") if request.method == "POST" else ""
        token = SIGNED.set(name)
        try:
            return get_response(request)
        finally:
            SIGNED.reset(token)

    return middleware


class PhoneForm(forms.Form):
    """Whose phone this is: a name, cleaned as a player's."""

    name = forms.CharField(label=gettext_noop("Whose phone is this?"), max_length=200)

    def clean_name(self):
        name = self.cleaned_data["name"]
        if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
            raise forms.ValidationError(_("A name is one line, with no control characters."))
        name = rules.clean_name(name)
        if not name or len(name) > MOST:
            raise forms.ValidationError(_("A name is at most 40 characters."))
        return name


@require_http_methods(["GET", "POST"])
def name_phone(request):
    """Name this phone (kept on it), then go back where the phone came from."""
    back = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts=None) or not back.startswith("/"):
        back = "/"
    form = PhoneForm(request.POST or None, initial={"name": request.session.get(PHONE, "")})
    if request.method == "POST" and form.is_valid():
        request.session[PHONE] = form.cleaned_data["name"]
        return redirect(back)
    status = 422 if form.errors else 200
    return render(request, "games/phone.html", {"form": form, "back": back}, status=status)


def phone_of(request):
    """This phone's name, for a page that says who signs its changes ("" when not named)."""
    return request.session.get(PHONE, "")
