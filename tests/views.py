"""Steps the view tests share: start a Least Score match, post a round."""

from django.urls import reverse

from games import memo
from games.models import Match


def nothing_kept():
    """Forget what the server keeps between requests: boards and drawn pages."""
    memo.forget()


def new_least_score(client, **options):
    form = {"player_0": " Ann ", "player_1": "Bo", "player_2": "Chen", **options}
    response = client.post(reverse("new_match", args=["least_score"]), form)
    assert response.status_code == 302
    return Match.objects.get()


def post_round(client, match, declarer, *hands, version=None, **headers):
    """A Least Score round saved from a form (naming the version it was drawn from, if given)."""
    form = {"declarer": str(declarer)}
    if version is not None:
        form["version"] = str(version)
    form.update({f"hand-{seat}": str(hand) for seat, hand in enumerate(hands)})
    return client.post(reverse("round_create", args=[match.public_id]), form, **headers)


def refuses(client, method, url, allowed):
    """True when url answers method with 405 and names the methods it allows."""
    response = getattr(client, method)(url)
    return response.status_code == 405 and set(response["Allow"].split(", ")) == set(allowed)
