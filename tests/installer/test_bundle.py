"""The one-folder bundle, end to end: build (or reuse) it with installer/build.sh, then run
its executables from a clean temporary HOME with no network and the build's Python
hidden, on the sample shipped inside the bundle.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
BUNDLE = REPO / "dist" / "HARP-Desktop"
SAMPLE = BUNDLE / "_internal" / "resources" / "samples" / "consultation.flac"
QUESTION = "Does the patient report chest pain or tightness?"
TIMES: dict[str, float] = {}


def _isolation() -> list[str]:
    """A command prefix: no network namespace access, and the venv / system Python hidden.

    `unshare -rn` gives the child an empty network namespace (only a down loopback);
    the mount namespace lets us cover the build's Python with empty folders.
    """
    hide = [REPO / ".venv", *Path("/usr/lib").glob("python3*"), *Path("/usr/local/lib").glob("python3*")]
    mounts = " && ".join(f"mount -t tmpfs none '{p}'" for p in hide if p.is_dir())
    for prefix in (["unshare", "-rnm"], ["unshare", "-nm"]):
        probe = subprocess.run([*prefix, "sh", "-c", mounts or "true"], capture_output=True)
        if probe.returncode == 0:
            return [*prefix, "sh", "-c", (mounts + " && " if mounts else "") + 'exec "$0" "$@"']
    pytest.fail(f"cannot isolate the bundle (unshare: {probe.stderr.decode().strip()})")


@pytest.fixture(scope="module")
def bundle() -> Path:
    start = time.monotonic()
    proc = subprocess.run(["bash", str(REPO / "installer" / "build.sh")], capture_output=True, text=True,
                          timeout=3600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    TIMES["build (or cache reuse)"] = time.monotonic() - start
    return BUNDLE


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("clean-home")


@pytest.fixture(scope="module")
def run(bundle, home):
    prefix = _isolation()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "QT_QPA_PLATFORM": "offscreen",
           "TMPDIR": str(home)}

    def run(label: str, exe: str, *args: str, timeout: float = 900) -> subprocess.CompletedProcess:
        start = time.monotonic()
        proc = subprocess.run([*prefix, str(bundle / exe), *args], env=env, capture_output=True, text=True,
                              timeout=timeout, cwd=home)
        TIMES[label] = time.monotonic() - start
        return proc

    return run


def _snapshot(folder: Path) -> dict:
    return {str(p): p.stat().st_mtime_ns for p in folder.rglob("*")}


def test_bundle_layout(bundle):
    for name in ("harp", "harp-desktop", "harp-desktop.desktop", "harp-desktop.svg", "install-desktop-entry.sh"):
        assert (bundle / name).is_file(), name
    for key in ("asr-base", "asr-tiny.en", "vad", "speaker", "speaker-campplus", "events", "text", "emotion",
                "llm-qwen1.5b"):
        assert any((bundle / "models" / key).iterdir()), key
    internal = bundle / "_internal"
    assert (internal / "harp_desktop" / "store" / "schema.sql").is_file()
    assert (internal / "models" / "manifest.json").is_file() and SAMPLE.is_file()
    for lib in ("libportaudio.so*", "libsndfile*.so*", "libllama*.so*", "libctranslate2*.so*",
                "libonnxruntime*.so*", "hnswlib*.so", "soxr/*.so"):
        assert list(internal.rglob(lib)), lib
    for plugin in ("libqoffscreen.so", "libqxcb.so"):
        assert list(internal.rglob(plugin)), plugin
    print(f"\nbundle size: {subprocess.run(['du', '-sh', str(bundle)], capture_output=True, text=True).stdout}")


def test_cli_indexes_and_answers_offline_with_data_outside_the_bundle(bundle, run, home):
    before = _snapshot(bundle)
    proc = run("first start: harp --help", "harp", "--help", timeout=120)
    assert proc.returncode == 0 and "index" in proc.stdout, proc.stderr
    proc = run("harp models (verifies 1.4 GB)", "harp", "models", "--json", timeout=300)
    assert proc.returncode == 0, proc.stderr
    models = {m["key"]: m for m in json.loads(proc.stdout)["models"]}
    assert models["asr-base"]["checksum_ok"] and models["asr-base"]["path"].startswith(str(bundle / "models"))

    proc = run("harp index (base, 129 s sample)", "harp", "index", str(SAMPLE), "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    library = home / ".local" / "share" / "harp-desktop" / "library"
    assert (library / "library.sqlite").is_file()

    proc = run("harp ask --no-llm", "harp", "ask", str(SAMPLE), QUESTION, "--no-llm", "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    answer = json.loads(proc.stdout)
    assert answer["answer"].startswith("Yes"), answer
    assert answer["evidence"] and "[" in answer["rationale"]
    assert _snapshot(bundle) == before, "the bundle was written to"


def test_cli_answers_with_the_bundled_language_model(run):
    proc = run("harp ask (Qwen 1.5B, single pass)", "harp", "ask", str(SAMPLE), QUESTION, "--json", "--single-pass")
    assert proc.returncode == 0, proc.stderr[-3000:]
    answer = json.loads(proc.stdout)
    assert answer["answer"].startswith("Yes"), answer
    assert "no language model" not in json.dumps(answer).lower(), answer


def test_cli_exports_a_pdf_report(run, home):
    pdf = home / "report.pdf"
    proc = run("harp report (PDF)", "harp", "report", str(SAMPLE), "--question", QUESTION, "--no-llm",
               "-o", str(pdf), "--json", timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout)["sha256"] and pdf.read_bytes()[:5] == b"%PDF-"
    from pypdf import PdfReader

    text = " ".join((page.extract_text() or "") for page in PdfReader(pdf).pages)
    assert "chest pain" in text and "Yes" in text, text[:1000]


def test_gui_executable_indexes_through_its_child_process_and_answers(run, home):
    # A library of its own, so the GUI really indexes (in its child: `harp-desktop -m ...index_worker`).
    shot = home / "window.png"
    proc = run("harp-desktop: index (tiny.en) + ask", "harp-desktop", str(SAMPLE), "--library", str(home / "gui-lib"),
               "--asr", "tiny.en", "--ask", QUESTION, "--no-llm", "--screenshot", str(shot), timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert "A: Yes" in proc.stdout and shot.stat().st_size > 10_000
    assert (home / "gui-lib" / "library.sqlite").is_file()


def test_desktop_entry_installs_with_absolute_paths(bundle, home):
    env = {"HOME": str(home), "PATH": os.environ["PATH"]}
    subprocess.run(["sh", str(bundle / "install-desktop-entry.sh")], env=env, check=True, capture_output=True)
    entry = (home / ".local/share/applications/harp-desktop.desktop").read_text()
    assert f'Exec="{bundle}/harp-desktop" %f' in entry and "Icon=harp-desktop" in entry
    assert (home / ".local/share/icons/hicolor/scalable/apps/harp-desktop.svg").is_file()
    if shutil.which("desktop-file-validate"):
        subprocess.run(["desktop-file-validate", str(bundle / "harp-desktop.desktop")], check=True)


def test_zz_report_times():
    print("\n" + "\n".join(f"{k:35} {v:7.1f} s" for k, v in TIMES.items()))
