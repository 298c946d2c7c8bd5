"""Print the address phones at the table should open, with a QR code for the camera."""

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


def main(port):
    addresses = lan_addresses()
    urls = [f"http://{address}:{port}/" for address in addresses] or [f"http://127.0.0.1:{port}/"]
    print("\nScorekeeper is starting. Open this on the phones at the table:\n")
    for url in urls:
        print(f"    {url}")
    print()
    segno.make(urls[0]).terminal(compact=True)
    print()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "8000")
