"""The address learners' devices are sent to (#28 item 2, ``widgets.server.addresses``): the
classroom's join link, its QR code and the projector link, and what ``nefertiti serve`` prints.

A teacher's page opened at 127.0.0.1 on a server that listens on the network links to the
computer's network address; ``--public-url`` wins over everything; a server that listens only on
loopback keeps the loopback link and the teacher's page says, in the teacher's language, that
phones cannot reach it and how to serve it so they can. The Host header a link may be built from
is bounded and checked; ``--public-url`` is checked, each bad value one line. The console names
the classroom's teacher and join pages at every address that reaches them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from html import escape
from pathlib import Path

import pytest
from rendered import html

sys.path.insert(0, str(Path(__file__).resolve().parent / "browser"))
from support import free_port  # noqa: E402

from nefertiti_core import cli
from nefertiti_core.engine.i18n import tr
from widgets.classroom.room import Rooms
from widgets.classroom.teacher import TeacherPage
from widgets.server import addresses as A
from widgets.server.addresses import LinkBase, Listening, link_base

ROOT = Path(__file__).resolve().parents[1]
LAN = Listening("0.0.0.0", 5006, lan=("192.168.1.20", "10.0.0.7"))
LOOPBACK_ONLY = Listening("127.0.0.1", 5006)
PUBLIC = Listening("0.0.0.0", 5006, "https://tutor.school.example", ("192.168.1.20",))


@pytest.fixture()
def served_as():
    """Configure the process as ``nefertiti serve`` does (LISTENING), and put it back."""
    before = A.LISTENING
    yield A.configure
    A.configure(before)


# ---------------------------------------------------------------------- the choice
@pytest.mark.parametrize("opened_at", ["127.0.0.1:5006", "localhost:5006", "[::1]:5006", "127.0.1.1:5006"])  # fmt: skip
def test_a_page_opened_on_loopback_links_to_the_computers_network_address(opened_at):
    assert link_base(opened_at, LAN) == LinkBase("http://192.168.1.20:5006")


def test_a_page_opened_at_a_network_address_links_there():
    assert link_base("10.0.0.7:5006", LAN) == LinkBase("http://10.0.0.7:5006")
    assert link_base("tutor-pc.local:5006", LAN) == LinkBase("http://tutor-pc.local:5006")


@pytest.mark.parametrize("opened_at", ["127.0.0.1:5006", "192.168.1.20:5006", ""])
def test_the_public_url_wins(opened_at):
    assert link_base(opened_at, PUBLIC) == LinkBase("https://tutor.school.example")


def test_a_server_only_on_loopback_keeps_the_link_and_warns():
    assert link_base("127.0.0.1:5006", LOOPBACK_ONLY) == LinkBase(
        "http://127.0.0.1:5006", A.LOOPBACK_ONLY, "127.0.0.1"
    )
    assert link_base("localhost:5006", LOOPBACK_ONLY).warning == A.LOOPBACK_ONLY
    # listening on the network but with no network address found: said differently
    lonely = Listening("0.0.0.0", 5006)
    assert link_base("127.0.0.1:5006", lonely).warning == A.NO_NETWORK


def test_outside_nefertiti_serve_the_host_is_taken_as_it_is():
    assert link_base("tutor.example:5006", None) == LinkBase("http://tutor.example:5006")
    assert link_base("127.0.0.1:5006", None).warning == ""  # a notebook, a test's own server


@pytest.mark.parametrize(
    "header",
    [
        "evil.example/join?x=",  # a path
        "evil.example:5006@other.example",
        "a b.example",
        "<script>.example",
        "tutor.example:99999",
        "tutor.example:port",
        "[zz::1]:5006",
        "x" * 300,
        "tutor.example\r\nSet-Cookie: a=b",
        "",
    ],
)
def test_a_host_header_that_is_no_host_is_not_linked_to(header):
    assert A.clean_host(header) == ""
    assert link_base(header, LAN) == LinkBase("http://192.168.1.20:5006")
    assert link_base(header, Listening("192.168.1.5", 8080, lan=("192.168.1.5",))) == LinkBase(
        "http://192.168.1.5:8080"
    )


def test_good_host_headers_are_kept_in_lower_case():
    assert A.clean_host("Tutor.School.example:5006") == "tutor.school.example:5006"
    assert A.clean_host("[::1]:80") == "[::1]:80"
    assert A.clean_host("10.0.0.7") == "10.0.0.7"


def test_the_network_addresses_are_ipv4_on_a_network_the_default_routes_first():
    names = {"127.0.0.1", "localhost", "vm", "192.0.2.2", "10.0.0.9", "169.254.3.4", "fe80::1",
             "2001:db8::5", "0.0.0.0"}  # fmt: skip
    assert A.lan_addresses("0.0.0.0", names, route="192.0.2.2") == ("192.0.2.2", "10.0.0.9")
    assert A.lan_addresses("0.0.0.0", names, route="") == ("10.0.0.9", "192.0.2.2")
    assert A.lan_addresses("127.0.0.1") == ()
    assert A.lan_addresses("localhost") == ()
    assert A.lan_addresses("192.168.1.5") == ("192.168.1.5",)


# ---------------------------------------------------------------------- --public-url
@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://tutor.school.example", "https://tutor.school.example"),
        ("https://Tutor.School.Example/", "https://tutor.school.example"),
        ("HTTP://192.168.1.20:5006", "http://192.168.1.20:5006"),
        ("http://tutor.local:8080/", "http://tutor.local:8080"),
    ],
)
def test_a_good_public_url_is_kept_without_its_slash(given, kept):
    assert A.public_url(given) == kept


@pytest.mark.parametrize(
    "given",
    [
        "tutor.school.example",  # no scheme
        "ftp://tutor.school.example",
        "javascript:alert(1)",
        "https://tutor.school.example/join",  # a path: the server builds its own
        "https://tutor.school.example/../admin",
        "https://tutor.school.example/?code=X",
        "https://tutor.school.example#x",
        "https://teacher:secret@tutor.school.example",
        "https://tutor.school.example:0",
        "https://tutor.school.example:99999",
        "https://tutor.school.example:https",
        "https://[::1]:5006",
        "http://0.0.0.0:5006",
        "https://tutor school.example",
        "https://tutor.school.example\\@evil.example",
        "https://<b>.example",
        "https://" + "a" * 300 + ".example",
    ],
)
def test_a_bad_public_url_is_one_clear_line(capsys, given):
    with pytest.raises(ValueError, match="is not an address learners can open"):
        A.public_url(given)
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve", "--public-url", given])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("nefertiti serve: error: argument --public-url: "), err
    assert "e.g. https://tutor.school.example" in err


def test_serve_help_names_the_public_url(capsys):
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--public-url URL" in out and "join link, QR code and projector link use it" in out


def test_the_public_urls_host_is_a_websocket_origin():
    assert A.origin_of("https://tutor.school.example") == "tutor.school.example"
    assert A.origin_of("http://10.0.0.7:8080") == "10.0.0.7:8080"


# ---------------------------------------------------------------------- the teacher's page
def test_the_teachers_page_links_and_codes_the_network_address(served_as):
    served_as(LAN)
    teacher = TeacherPage(Rooms(), host="127.0.0.1:5006")
    assert teacher.open_room()
    code = teacher.room.join_code
    assert teacher.learner_link == f"http://192.168.1.20:5006/join?code={code}"
    card = html(teacher)
    assert "http://192.168.1.20:5006/join" in card and "127.0.0.1" not in card
    assert f"data-link='http://192.168.1.20:5006/join?code={code}'" in card
    assert "room-address-warning" not in card
    link = teacher.projector_links.make_link()
    assert link.startswith(f"http://192.168.1.20:5006/projector?room={teacher.room.code}&")


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_a_teacher_on_a_loopback_only_server_is_told_in_their_language(served_as, lang):
    served_as(LOOPBACK_ONLY)
    teacher = TeacherPage(Rooms(), host="127.0.0.1:5006", lang=lang)
    assert teacher.open_room()
    shown = html(teacher)
    said = tr(lang, "room.address.loopback", host="127.0.0.1")
    assert escape(said) in shown and "--address 0.0.0.0" in said and "--public-url" in said
    served_as(PUBLIC)  # with --public-url: no warning, the public link
    teacher = TeacherPage(Rooms(), host="127.0.0.1:5006", lang=lang)
    assert teacher.open_room()
    assert teacher.learner_link.startswith("https://tutor.school.example/join?code=")
    assert escape(said) not in html(teacher) and "room-address-warning" not in html(teacher)


# ---------------------------------------------------------------------- the console
def test_the_console_names_the_classroom_at_each_address():
    lines = A.console_lines(LAN)
    assert lines[0] == "Nefertiti tutor: http://127.0.0.1:5006/tutor  (Ctrl+C stops it)"
    assert (
        "Other computers open: http://192.168.1.20:5006/tutor, http://10.0.0.7:5006/tutor" in lines
    )
    assert (
        "Classroom, the teacher's page: http://127.0.0.1:5006/classroom, "
        "http://192.168.1.20:5006/classroom, http://10.0.0.7:5006/classroom" in lines
    )
    assert (
        "Classroom, learners join at: http://192.168.1.20:5006/join, http://10.0.0.7:5006/join"
        in lines
    )
    public = A.console_lines(PUBLIC)
    assert "Public address: https://tutor.school.example/tutor" in public
    assert "Classroom, learners join at: https://tutor.school.example/join" in public
    alone = A.console_lines(LOOPBACK_ONLY)
    assert "Classroom, learners join at: http://127.0.0.1:5006/join" in alone
    assert any("phones cannot reach it" in line and "--address 0.0.0.0" in line for line in alone)


@pytest.mark.slow
def test_nefertiti_serve_prints_the_classroom_and_join_addresses(tmp_path):
    """The real command, listening on every interface with a public URL: its first lines."""
    port = free_port()
    env = {**os.environ, "NEFERTITI_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "nefertiti_core", "serve", "--port", str(port),
               "--address", "0.0.0.0", "--public-url", "https://tutor.school.example/"]  # fmt: skip
    log = tmp_path / "out.log"
    with open(log, "w") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while "learners join at" not in log.read_text() and time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            time.sleep(0.2)
        text = log.read_text()
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert f"Nefertiti tutor: http://127.0.0.1:{port}/tutor" in text, text
    assert "Public address: https://tutor.school.example/tutor" in text
    assert "Classroom, learners join at: https://tutor.school.example/join" in text
    teacher = re.search(r"Classroom, the teacher's page: (.*)", text).group(1).split(", ")
    assert teacher[:2] == ["https://tutor.school.example/classroom",
                           f"http://127.0.0.1:{port}/classroom"]  # fmt: skip
    network = A.lan_addresses("0.0.0.0")
    assert [f"http://{a}:{port}/classroom" for a in network] == teacher[2:]
