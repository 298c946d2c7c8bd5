"""Print the address phones at the table should open, with a QR code for the camera.

`python -m scorekeeper.address [PORT]` (make run) or `... URL...` (scripts/https)."""

import socket
import subprocess
import sys

import segno


def lan_addresses():
    """This machine's IPv4 addresses other than loopback (host name, else `hostname -I`)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found = {info[4][0] for info in infos}
    except OSError:
        found = set()
    try:
        found |= set(
            subprocess.run(
                ["hostname", "-I"], capture_output=True, text=True, timeout=5
            ).stdout.split()
        )
    except (OSError, subprocess.SubprocessError):
        pass
    return sorted(a for a in found if "." in a and not a.startswith("127."))


# What the organiser of `make run` should know: the phones' browsers keep no page over plain
# HTTP (the players' screens say only what it means for them).
PLAIN_HTTP = """\
Over this plain HTTP address a phone that loses the network keeps scoring only while the
match's page stays open: a reload needs the network. For phones to reopen a match with no
network, serve it over HTTPS instead: make https
"""


def main(port):
    addresses = lan_addresses()
    show([f"http://{address}:{port}/" for address in addresses] or [f"http://127.0.0.1:{port}/"])
    print(PLAIN_HTTP)


def show(urls):
    """Print the addresses to open, with a QR code for the first."""
    print("\nScorekeeper is starting. Open this on the phones at the table:\n")
    for url in urls:
        print(f"    {url}")
    print()
    segno.make(urls[0]).terminal(compact=True)
    print()


if __name__ == "__main__":
    # A port (make run), or the addresses themselves (scripts/https).
    if "://" in "".join(sys.argv[1:]):
        show(sys.argv[1:])
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else "8000")
