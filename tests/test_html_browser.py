"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``) driven by playwright.

One browser for the whole module. For the report of ../shared/real/ and of seed-corpus files (one per
format, invalid ones so there are marks to follow): no console errors, every picture drawn with a
non-zero size, a finding mark's link scrolls its entry into view, and the report opens in under two
seconds. Screenshots (the pages and each picture) are saved as test artifacts under
``$RECSPEC_ARTIFACTS`` (default ``test-artifacts/browser/`` in the checkout).

Skips, saying why, when playwright or /usr/bin/chromium is absent (``.ci/run`` installs both).
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from helpers import REAL, example_invalid_file, run_cli
from recspec.formats import FORMATS
from recspec.render._pictures import PICTURE_BUDGET

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("RECSPEC_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("RECSPEC_ARTIFACTS") or ROOT / "test-artifacts" / "browser")
#: one invalid seed of each format (its plugin's example), so that every format's picture is drawn with marks
CORPUS = [example_invalid_file(info)[0] for info in FORMATS.values()]

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")


@pytest.fixture(scope="module")
def browser():
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("html")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    made = {}
    corpus = [str(c) for c in CORPUS if c.is_file()]
    assert len(corpus) == len(CORPUS), "a corpus file named here is missing"
    code, _, err = run_cli("check", *corpus, "--report", f"html:{out / 'corpus.html'}")
    assert code == 1 and err == ""
    made["corpus"] = out / "corpus.html"
    if REAL.is_dir():
        code, _, err = run_cli("check", str(REAL), "--report", f"html:{out / 'real.html'}")
        assert code in (0, 1) and err == ""
        made["real"] = out / "real.html"
    for name, path in made.items():
        shutil.copy(path, ARTIFACTS / f"{name}.html")
        for figure in re.findall(r"<figure>.*?</figure>", path.read_text(), re.S):
            assert len(figure.encode()) < PICTURE_BUDGET, f"a picture of {len(figure.encode())} bytes in {name}"
    return made


def _open(browser, path: Path, width: int = 1100):
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: errors.append(f"network request {r.url}") if not r.url.startswith("file:") else None)
    start = time.perf_counter()
    page.goto(path.as_uri(), wait_until="load")
    return page, errors, time.perf_counter() - start


@pytest.mark.parametrize("name", ["corpus", "real"])
def test_pictures_render_and_marks_link_to_their_findings(browser, reports, name):
    if name not in reports:
        pytest.skip(f"the real files are absent ({REAL}); set RECSPEC_REAL_DIR")
    page, errors, seconds = _open(browser, reports[name])
    try:
        assert seconds < 2.0, f"the report took {seconds:.2f} s to load"
        files = page.locator("h2[id^=file-]").count()
        pictures = page.locator("svg.picture")
        assert files and page.locator("figure").count() == files, "a picture for every file"
        for i in range(pictures.count()):
            box = pictures.nth(i).bounding_box()
            assert box and box["width"] > 100 and box["height"] > 50, f"picture {i} has no size: {box}"
        for i in range(page.locator("figure").count()):
            page.locator("figure").nth(i).screenshot(path=str(ARTIFACTS / f"{name}-picture-{i}.png"))
        page.screenshot(path=str(ARTIFACTS / f"{name}-page.png"), full_page=False)
        marks = page.locator("svg.picture a.mark")
        assert marks.count() > 0, "findings are marked on the pictures"
        for i in range(min(marks.count(), 6)):
            href = marks.nth(i).get_attribute("href")
            assert href and href.startswith("#")
            target = page.locator(f"[id='{href[1:]}']")
            assert target.count() == 1, f"{href} names no entry"
            page.evaluate("window.scrollTo(0, 0)")
            marks.nth(i).click()
            page.wait_for_function("h => location.hash === h", arg=href)
            assert target.is_visible(), f"{href}'s entry is hidden after following the mark"
            box = target.bounding_box()
            assert box is not None and -2 <= box["y"] < 900, f"{href} did not scroll into view: {box}"
        # an occurrence behind a closed disclosure: following its link opens it
        hidden = page.evaluate("[...document.querySelectorAll('details:not([open]) li[id]')].map(e => e.id)")
        if hidden:
            page.goto(reports[name].as_uri() + "#" + hidden[0])
            assert page.locator(f"[id='{hidden[0]}']").is_visible()
        # the files x rules table links to the groups
        cells = page.locator("td.n a")
        for i in range(min(cells.count(), 4)):
            href = cells.nth(i).get_attribute("href")
            assert page.locator(f"section.group[id='{href[1:]}']").count() == 1
        assert errors == []
    finally:
        page.close()


def test_phone_width_and_print(browser, reports):
    page, errors, _ = _open(browser, reports["corpus"], width=380)
    try:
        widths = page.evaluate(
            "[...document.querySelectorAll('svg.picture')].map(s => s.getBoundingClientRect().width)")
        assert widths and max(widths) <= 380, widths
        assert page.evaluate("document.documentElement.scrollWidth") <= 400, "the page scrolls sideways on a phone"
        page.screenshot(path=str(ARTIFACTS / "corpus-phone.png"), full_page=False)
        pdf = page.pdf(format="A4")
        pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
        assert 0 < pages <= 3 * len(CORPUS), f"{pages} printed pages for {len(CORPUS)} files"
        assert errors == []
    finally:
        page.close()
