"""Kill gunicorn's master with SIGKILL while phones post rounds: nothing acknowledged is lost."""

import re
import signal
import threading
import time

import pytest

from tests.html import visible
from tests.server import DATABASES, Server, database, new_least_score, wait_gone

PHONES = 4


def form(phone, k):
    """Round k of this phone: Ann declares with 1, Bo holds 2, Chen 1 + k % 5."""
    version = re.search(r'name="version" value="(\d+)"', phone.page).group(1)
    return {
        "declarer": "0",
        "hand-0": "1",
        "hand-1": "2",
        "hand-2": str(2 + k % 5),
        "version": version,
        "entry_key": f"round-{k}",
    }


def keep_posting(phone, location, acknowledged, stop):
    """Post rounds one after another; remember the ones the server acknowledged."""
    k = 0
    while not stop.is_set():
        try:
            status, _body, _ = phone.post(location + "rounds/", form(phone, k))
            if status != 302:
                return
            acknowledged.append(k)
            phone.get(location)
            k += 1
        except OSError:
            return


def rounds_on_page(page):
    return page.count('title="Edit this round"')


@pytest.mark.parametrize("kind", DATABASES)
def test_killing_the_server_loses_no_acknowledged_round(kind, tmp_path):
    with database(kind) as url:
        server = Server(tmp_path, url).start()
        phones = [new_least_score(server, threshold="1000") for _ in range(PHONES)]
        acknowledged = [[] for _ in phones]
        stop = threading.Event()
        threads = [
            threading.Thread(target=keep_posting, args=(*phone, acknowledged[k], stop))
            for k, phone in enumerate(phones)
        ]
        for thread in threads:
            thread.start()
        time.sleep(2)
        workers = server.workers_pids()
        server.stop(signal.SIGKILL)
        stop.set()
        wait_gone(workers)  # orphaned workers notice their master is gone and exit
        for thread in threads:
            thread.join(30)

        restarted = Server(tmp_path, url).start()
        try:
            for (phone, location), saved in zip(phones, acknowledged):
                phone.base_url = restarted.url
                phone.get(location + "?rounds=all")
                assert rounds_on_page(phone.page) >= len(saved) > 0
                # Retrying every round this phone typed stores none of them twice.
                for k in range(rounds_on_page(phone.page) + 1):
                    phone.post(location + "rounds/", form(phone, k))
                    phone.get(location + "?rounds=all")
                stored = rounds_on_page(phone.page)
                assert stored == max(saved) + 2 or stored == max(saved) + 3
                expected = [0, stored, sum(1 + k % 5 for k in range(stored))]
                foot = phone.page.split("<tfoot>")[1].split("</tfoot>")[0]
                totals = re.findall(r"<td[^>]*>(.*?)</td>", foot, re.S)
                assert [int(visible(t)) for t in totals] == expected
        finally:
            restarted.stop()
