"""Where other devices reach this server: the address the classroom's join link, its QR code
and the projector link name, and the addresses ``nefertiti serve`` prints when it starts.

A teacher usually opens the classroom on the computer that serves it, at ``127.0.0.1`` or
``localhost``; a link built from that address leads a phone to the phone itself. So the link is
built from (:func:`link_base`), in this order:

1. ``--public-url`` when given (the address a proxy or the school's DNS gives the server,
   e.g. ``https://tutor.school.example``): the one address everybody uses;
2. the address the teacher's page was opened at (the request's Host header, bounded and
   checked: :func:`clean_host`), unless it is a loopback address;
3. for a page opened on a loopback address, the computer's first address on a network that the
   server listens on (``--address 0.0.0.0``: the address of the computer's default route first);
4. a server that listens only on loopback (the default, ``--address 127.0.0.1``) keeps the
   loopback link, and the teacher's page says plainly that phones cannot reach it and how to
   serve it so they can (:attr:`LinkBase.warning`).

No view here: :data:`LISTENING` is filled in by ``widgets.serve.serve`` when it starts (None
before that, in a notebook or a test's own server: links are then built from the Host header).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass, field
from urllib.parse import urlsplit

#: Longest Host header read (a host name is at most 253 characters, a port 6 more).
MAX_HOST = 260
#: Longest ``--public-url`` taken.
MAX_PUBLIC_URL = 300
_WILDCARD = ("0.0.0.0", "::")
_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")
_HOST_PORT = re.compile(r"^(\[[0-9A-Fa-f:.]{2,45}\]|[^:\[\]]+)(?::(\d{1,5}))?$")
#: The warnings' message keys (nefertiti_core/messages/*/classroom.json).
LOOPBACK_ONLY = "room.address.loopback"
NO_NETWORK = "room.address.no_network"


@dataclass(frozen=True)
class Listening:
    """How this process serves: ``address`` and ``port`` (``--address``, ``--port``),
    ``public_url`` (``--public-url``, as :func:`public_url` gives it, or ""), and ``lan``: the
    addresses on a network it listens on, best first (:func:`lan_addresses`)."""

    address: str
    port: int
    public_url: str = ""
    lan: tuple[str, ...] = field(default_factory=tuple)

    @property
    def beyond_loopback(self) -> bool:
        """Whether the server listens on more than this computer's loopback."""
        return not is_loopback(self.address)

    def url(self, host: str) -> str:
        """``http://host:port`` on this server's port (no port for 80)."""
        host = _bracketed(host)
        return f"http://{host}:{self.port}" if self.port != 80 else f"http://{host}"


@dataclass(frozen=True)
class LinkBase:
    """The start of a link others open (``base``: ``scheme://host[:port]``, no slash), and the
    message key of the warning the teacher's page shows with it ("" for none; ``host``: the
    address it names)."""

    base: str
    warning: str = ""
    host: str = ""


#: This process's ``nefertiti serve`` (None until it starts).
LISTENING: Listening | None = None


def configure(listening: Listening | None) -> None:
    global LISTENING
    LISTENING = listening


# ---------------------------------------------------------------------- checking what comes in
def clean_host(text) -> str:
    """A Host header's ``host[:port]``, lower case, if it is one (a host name, an IPv4 address
    or a bracketed IPv6 address, and a port from 1 to 65535); "" for anything else, or anything
    longer than :data:`MAX_HOST` (it comes from the network: it may be anything)."""
    if not isinstance(text, str) or not text or len(text) > MAX_HOST:
        return ""
    match = _HOST_PORT.match(text)
    if match is None:
        return ""
    host, port = match.group(1), match.group(2)
    if host.startswith("["):
        if not is_ip(host[1:-1]):
            return ""
    elif not _NAME.match(host):
        return ""
    if port is not None and not 1 <= int(port) <= 65535:
        return ""
    return text.lower()


def public_url(text: str) -> str:
    """``--public-url`` checked: ``http://`` or ``https://``, a host name or IPv4 address, an
    optional port, and nothing else (no path, query, fragment or user name: the server builds
    the links' paths itself). Returns it as ``scheme://host[:port]``; raises ValueError with a
    sentence otherwise."""
    example = "e.g. https://tutor.school.example or http://192.168.1.20:5006"
    shown = repr(text[:60]) if isinstance(text, str) else repr(text)
    bad = ValueError(
        f"{shown} is not an address learners can open: http:// or https://, a host name or "
        f"IPv4 address, an optional port, and no path, query or user name ({example})"
    )
    if not isinstance(text, str) or not text or len(text) > MAX_PUBLIC_URL:
        raise bad
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 or c == "\\" for c in text):
        raise bad
    try:
        parts = urlsplit(text)
        port = parts.port  # raises for a port out of range or not a number
    except ValueError:
        raise bad from None
    host = parts.hostname or ""
    if (
        parts.scheme.lower() not in ("http", "https")
        or parts.username is not None
        or parts.password is not None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or "[" in parts.netloc
        or not (_NAME.match(host) or _is_ipv4(host))
        or (_is_ipv4(host) and ipaddress.ip_address(host).is_unspecified)
        or (port is not None and port == 0)
    ):
        raise bad
    shown_port = f":{port}" if port is not None else ""
    return f"{parts.scheme.lower()}://{host.lower()}{shown_port}"


def origin_of(url: str) -> str:
    """The ``host[:port]`` a page opened at ``url`` (a :func:`public_url`) sends as its origin,
    as Bokeh's websocket allow list takes it."""
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port}" if parts.port is not None else str(parts.hostname)


# ---------------------------------------------------------------------- loopback or not
def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or address, with or without brackets) is this computer only."""
    host = (host or "").strip("[]").lower()
    if host in ("localhost", "localhost.localdomain") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_only(host_port: str) -> str:
    match = _HOST_PORT.match(host_port)
    return match.group(1) if match else host_port


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def is_ip(text: str) -> bool:
    """Whether ``text`` is an IPv4 or IPv6 address."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _is_ipv4(text: str) -> bool:
    try:
        return ipaddress.ip_address(text).version == 4
    except ValueError:
        return False


# ---------------------------------------------------------------------- this computer
def route_address() -> str:
    """The IPv4 address this computer reaches the network from (the default route's; no
    packet is sent by a UDP connect), or ""."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
    except OSError:
        return ""


def this_computer() -> set[str]:
    """This computer's names and addresses, as far as it knows them (lower case)."""
    names: set[str] = set()
    try:
        hostname = socket.gethostname()
        names |= {hostname, socket.getfqdn()}
        for info in socket.getaddrinfo(hostname, None):
            names.add(info[4][0])
    except OSError:
        pass
    names.add(route_address())
    return {name.lower() for name in names if name and "%" not in name}


def lan_addresses(address: str, names=None, route: str | None = None) -> tuple[str, ...]:
    """The addresses on a network a server listening on ``address`` is reached at, best first:
    for ``0.0.0.0`` / ``::`` this computer's IPv4 addresses that are neither loopback nor
    link-local (``names``: :func:`this_computer`'s), the default route's (``route``) first; for
    one address or name, that one unless it is a loopback one. (No IPv6 address: the websocket
    origin check cannot name one.)"""
    if address not in _WILDCARD:
        return () if is_loopback(address) or ":" in address else (address,)
    names = this_computer() if names is None else names
    route = route_address() if route is None else route
    usable = sorted(
        {
            name
            for name in names
            if _is_ipv4(name)
            and not ipaddress.ip_address(name).is_loopback
            and not ipaddress.ip_address(name).is_link_local
            and not ipaddress.ip_address(name).is_unspecified
        },
        key=lambda a: (a != route, ipaddress.ip_address(a)),
    )
    return tuple(usable)


def listening(address: str, port: int, public: str = "") -> Listening:
    """What :data:`LISTENING` holds for a server on ``address``:``port``."""
    return Listening(address, port, public, lan_addresses(address))


# ---------------------------------------------------------------------- the links
def link_base(host_header: str, where: Listening | None = None) -> LinkBase:
    """The start of the links learners and the projector open, for a page requested with
    ``host_header`` (see the module's doc for the order). ``where``: :data:`LISTENING` by
    default."""
    where = LISTENING if where is None else where
    if where is not None and where.public_url:
        return LinkBase(where.public_url)
    host = clean_host(host_header)
    if not host:  # none, or not a host: the server's own address
        if where is None:
            host = "127.0.0.1:5006"
        else:
            named = where.address if where.address not in _WILDCARD else "127.0.0.1"
            host = where.url(named).removeprefix("http://")
    if where is None or not is_loopback(_host_only(host)):
        return LinkBase(f"http://{host}")
    if where.lan:
        return LinkBase(where.url(where.lan[0]))
    warning = NO_NETWORK if where.beyond_loopback else LOOPBACK_ONLY
    return LinkBase(f"http://{host}", warning, _host_only(host).strip("[]"))


def console_lines(where: Listening, app: str = "tutor") -> list[str]:
    """What ``nefertiti serve`` prints when it starts: the Sandbox, and the classroom's teacher
    page and join page at each address that reaches them (the public URL first)."""
    home = "127.0.0.1" if where.address in _WILDCARD else where.address
    here = where.url(home)
    others = [where.url(a) for a in where.lan if where.url(a) != here]
    lines = [f"Nefertiti tutor: {here}/{app}  (Ctrl+C stops it)"]
    if where.public_url:
        lines.append(f"Public address: {where.public_url}/{app}")
    if others:
        lines.append("Other computers open: " + ", ".join(f"{url}/{app}" for url in others))
    teacher = ([where.public_url] if where.public_url else []) + [here, *others]
    lines.append("Classroom, the teacher's page: " + ", ".join(f"{u}/classroom" for u in teacher))
    join = [where.public_url] if where.public_url else (others or [here])
    lines.append("Classroom, learners join at: " + ", ".join(f"{u}/join" for u in join))
    if not where.public_url and not others and is_loopback(home):
        if where.beyond_loopback:  # 0.0.0.0, and no address on a network found
            lines.append(
                "  (no network address of this computer was found: phones cannot reach it; "
                "connect it to the class's network, or give --public-url)"
            )
        else:
            lines.append(
                "  (this computer only: phones cannot reach it; serve with --address 0.0.0.0 "
                "on the class's network, or give --public-url)"
            )
    return lines
