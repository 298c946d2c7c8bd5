"""What `make run` prints: the address to open on the phones at the table, and for the organiser
what plain HTTP means and what to do about it (the players' screens say only what it means for
them: tests/test_browser_plain_http.py)."""

from scorekeeper import address


def test_make_run_tells_the_organiser_to_serve_over_https_for_full_offline(capsys, monkeypatch):
    monkeypatch.setattr(address, "lan_addresses", lambda: ["192.168.1.5"])
    address.main("8000")
    printed = capsys.readouterr().out
    assert "    http://192.168.1.5:8000/\n" in printed
    assert "keeps scoring only while the\nmatch's page stays open" in printed
    assert "serve it over HTTPS instead: make https" in printed


def test_make_https_prints_its_addresses_alone(capsys):
    address.show(["https://192.168.1.5:8443/"])
    printed = capsys.readouterr().out
    assert "https://192.168.1.5:8443/" in printed
    assert "make https" not in printed
