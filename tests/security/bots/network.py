"""Attack: connect out, to the port in $SPY_PORT on this machine and to a public address."""
import os
import socket

from attack import play, report


def connect():
    port = int(os.environ.get("SPY_PORT", "80"))
    for host in ("127.0.0.1", "8.8.8.8"):
        try:
            with socket.create_connection((host, port if host == "127.0.0.1" else 53), timeout=1):
                report(f"connected to {host}")
        except OSError:
            pass


play(connect)
