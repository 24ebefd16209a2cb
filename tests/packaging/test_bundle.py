"""The built app, not the source tree: dist/Logitscope, the .tar.gz and the .deb from ./scripts/package.

Each test runs the frozen executable with a clean environment (no display, an empty data folder, no
PYTHONPATH), so the engine child process, the Qt plugins, llama.cpp's libraries, the resources and the
demo model must all come from the bundle. The .deb is installed into a throw-away root with
`dpkg --root`, self-tested there, then purged."""

from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from logitscope import __version__
from logitscope.library.demo import DEMO_FILE_NAME
from tests.helpers.bundle import BUILD_ENV, BUILD_TIMEOUT_S, ROOT, Artefacts, require
from tests.helpers.bundle_runs import assert_one_clear_error, run, user_env
from tests.helpers.gguf_corpus import with_metadata_patched
from tests.helpers.pictures import assert_window_picture

# The frozen app, built or run: it carries llama.cpp (a frozen child never sees the import guard, so mark it here).
pytestmark = [pytest.mark.bundle, pytest.mark.model,
              pytest.mark.timeout(BUILD_TIMEOUT_S if os.environ.get(BUILD_ENV) == "1" else 900)]

# What the brief asks the package to depend on at the least: the libraries Qt's xcb platform loads.
REQUIRED_DEPENDS = {"libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libegl1", "libgl1", "libfontconfig1",
                    "libxkbcommon-x11-0", "libdbus-1-3"}
NOT_IN_THE_BUNDLE = ("libQt6Quick", "libQt6Qml", "libQt6WebEngine", "libQt6Pdf", "libQt6Network",
                     "libQt6Multimedia", "libQt63D", "libQt6EglFS", "libtk", "libtcl", "libgtk", "libcairo",
                     "libqeglfs", "libqvnc", "libqlinuxfb", "libqpdf", "libqgtk3", "libqtvirtualkeyboard")


@pytest.fixture
def app(built: Artefacts) -> Path:
    return require(built.app)


def assert_selftest_ok(proc: subprocess.CompletedProcess[str], app_dir: Path, home: Path, shot: Path) -> None:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert f"self-test: ok (frozen app in {app_dir})" in out, out
    assert f"({app_dir / '_internal' / 'models' / DEMO_FILE_NAME})" in out, out  # the bundled demo model
    assert re.search(r"backend: +\w+ \(GPU offload", out), out                  # reported by the frozen engine
    assert "tokens:     8 greedy" in out and "probabilities checked at every step" in out
    assert "on 'offscreen'" in out
    assert_window_picture(shot)
    assert not any((home / "models").iterdir()), "the self-test downloaded something"
    assert sorted(p.name for p in home.iterdir()) == ["models"], "the self-test wrote into the data folder"


# -- the app folder ----------------------------------------------------------------------------------

def test_the_app_passes_its_selftest_with_its_own_demo_model(app: Path, tmp_path: Path):
    home, shot = tmp_path / "home", tmp_path / "shot.png"
    proc = run([app, "--selftest", "--screenshot", shot], user_env(home), cwd=tmp_path)
    assert_selftest_ok(proc, app.parent, home, shot)


@pytest.fixture
def x_display() -> Iterator[str]:
    """A real X server (Xvfb): the platform desktop users get is xcb, not offscreen."""
    if not shutil.which("Xvfb"):
        pytest.skip("needs Xvfb (apt-get install xvfb)")
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1400x900x24", "-nolisten", "tcp"],
                              pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    try:
        with os.fdopen(read_fd) as pipe:
            number = pipe.readline().strip()
        assert number.isdigit(), "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def test_the_app_draws_on_an_x_server(app: Path, tmp_path: Path, x_display: str):
    """Qt's xcb plugin and the libraries it loads, from the bundle and the system (the .deb's Depends)."""
    home, shot = tmp_path / "home", tmp_path / "shot.png"
    env = dict(user_env(home), DISPLAY=x_display, QT_QPA_PLATFORM="xcb")
    proc = run([app, "--selftest", "--tokens", "2", "--screenshot", shot], env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "on 'xcb'" in proc.stdout
    assert_window_picture(shot)


def test_the_app_reports_a_missing_model_in_one_line(app: Path, tmp_path: Path):
    proc = run([app, "--selftest", "--model", "/nonexistent.gguf"], user_env(tmp_path / "home"), cwd=tmp_path)
    assert_one_clear_error(proc, "model file not found: /nonexistent.gguf")


def test_the_apps_engine_process_reports_a_llama_cpp_abort(app: Path, tmp_path: Path, demo_model: Path):
    # a BOS token id past the vocabulary: the header check lets it through, llama.cpp's loader throws
    # std::out_of_range, which nothing catches (abort)
    bad = with_metadata_patched(demo_model, tmp_path / "bad-bos.gguf", "tokenizer.ggml.bos_token_id", 4_000_000_000)
    proc = run([app, "--selftest", "--model", bad], user_env(tmp_path / "home"), cwd=tmp_path)
    assert_one_clear_error(proc, "the engine process crashed")


def test_the_command_line_works_through_a_symlink(app: Path, tmp_path: Path):
    """/usr/bin/logitscope is a symlink to the app: the app must still find its files, its resources, and
    start its engine child (sys.executable)."""
    link = tmp_path / "bin" / "logitscope"
    link.parent.mkdir()
    link.symlink_to(app)
    env = user_env(tmp_path / "home")
    proc = run([link, "--version"], env, cwd=tmp_path)
    assert proc.stdout.strip() == f"logitscope {__version__}", proc.stdout + proc.stderr
    proc = run([link, "generate", "--prompt", "Once upon a time", "--max-tokens", "4", "--temperature", "0",
                "--json"], env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    kinds = [json.loads(line)["type"] for line in proc.stdout.splitlines()]
    assert kinds == ["step"] * 4 + ["done"]
    proc = run([link, "models", "recommended"], env, cwd=tmp_path)  # resources/recommended_models.json
    assert proc.returncode == 0 and "SmolLM2" in proc.stdout, proc.stdout + proc.stderr


def test_the_app_folder_is_lean_and_complete(built: Artefacts):
    app_dir = require(built.app_dir)
    internal = app_dir / "_internal"
    names = [p.name for p in internal.rglob("*")]
    unwanted = sorted({n for n in names if n.startswith(NOT_IN_THE_BUNDLE)})
    assert not unwanted, f"left out on purpose, yet bundled: {unwanted}"
    assert not [n for n in names if n in ("tkinter", "_tkinter", "pytest", "_pytest", "PyInstaller")]
    llama = {p.name for p in (internal / "llama_cpp" / "lib").iterdir()}
    assert {"libllama.so", "libllama.so.0", "libggml.so.0", "libggml-base.so.0", "libggml-cpu.so.0"} <= llama
    platforms = {p.name for p in (internal / "PySide6" / "Qt" / "plugins" / "platforms").iterdir()}
    assert {"libqxcb.so", "libqoffscreen.so", "libqwayland.so"} <= platforms
    assert (internal / "models" / DEMO_FILE_NAME).is_file()
    assert (app_dir / "resources" / "recommended_models.json").is_file()  # where library/recommended.py looks
    source = ROOT / "resources"
    for qm in source.rglob("*.qm"):  # where paths.resources_dir() looks when frozen: sys._MEIPASS/resources
        assert (internal / "resources" / qm.relative_to(source)).is_file(), qm.name
    assert not list((internal / "resources").rglob("*.ts")), "translation sources are not needed at run time"
    dangling = [p for p in internal.rglob("*") if p.is_symlink() and not p.exists()]
    assert not dangling, dangling
    size = sum(p.stat().st_size for p in app_dir.rglob("*") if p.is_file() and not p.is_symlink())
    assert size < 400 * 2**20, f"the app folder grew to {size / 2**20:.0f} MiB"


# -- the tarball -------------------------------------------------------------------------------------

def test_the_tarball_unpacks_and_runs_anywhere(built: Artefacts, tmp_path: Path):
    tarball = require(built.tarball)
    subprocess.run(["tar", "-xzf", str(tarball), "-C", str(tmp_path)], check=True)
    top = tmp_path / f"Logitscope-{__version__}-linux-x86_64"
    for name in ("logitscope", "install-menu-entry.sh", "app/Logitscope"):
        assert os.access(top / name, os.X_OK), name
    for name in ("logitscope.desktop", "logitscope.png", "logitscope.svg", "README.txt"):
        assert (top / name).is_file(), name
    desktop = configparser.ConfigParser(interpolation=None)
    desktop.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    desktop.read(top / "logitscope.desktop")
    entry = desktop["Desktop Entry"]
    assert entry["Type"] == "Application" and entry["Exec"] == "logitscope" and entry["Icon"] == "logitscope"

    home, shot = tmp_path / "home", tmp_path / "shot.png"
    proc = run([top / "logitscope", "--selftest", "--screenshot", shot], user_env(home), cwd=tmp_path)
    assert_selftest_ok(proc, top / "app", home, shot)

    env = dict(user_env(home), XDG_DATA_HOME=str(tmp_path / "xdg"))
    proc = run([top / "install-menu-entry.sh"], env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    installed = tmp_path / "xdg" / "applications" / "logitscope.desktop"
    assert f'Exec="{top}/logitscope"' in installed.read_text()
    assert (tmp_path / "xdg" / "icons" / "hicolor" / "256x256" / "apps" / "logitscope.png").is_file()
    assert run([top / "install-menu-entry.sh", "--remove"], env, cwd=tmp_path).returncode == 0
    assert not installed.exists()


# -- the .deb ----------------------------------------------------------------------------------------

def deb_field(deb: Path, name: str) -> str:
    return subprocess.run(["dpkg-deb", "-f", str(deb), name], capture_output=True, text=True, check=True).stdout.strip()


def package_names(depends: str) -> set[str]:
    """'libc6 (>= 2.36), libfoo | libbar' -> {'libc6', 'libfoo', 'libbar'}"""
    return {re.split(r"[\s(:]", alt.strip())[0] for part in depends.split(",") for alt in part.split("|") if alt.strip()}


def test_the_deb_declares_itself_and_holds_the_app(built: Artefacts):
    deb = require(built.deb)
    assert deb_field(deb, "Package") == "logitscope"
    assert deb_field(deb, "Version") == __version__
    assert deb_field(deb, "Architecture") == "amd64"
    depends = deb_field(deb, "Depends")
    assert REQUIRED_DEPENDS <= package_names(depends), depends
    assert re.search(r"libc6 \(>= 2\.\d+\)", depends), depends
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True).stdout
    lines = listing.splitlines()
    assert all(" root/root " in line for line in lines), "files must belong to root"
    paths = {line.split()[5] for line in lines}
    for path in ("./opt/logitscope/Logitscope", "./usr/share/applications/logitscope.desktop",
                 "./usr/share/icons/hicolor/256x256/apps/logitscope.png",
                 "./usr/share/icons/hicolor/scalable/apps/logitscope.svg", "./usr/share/doc/logitscope/copyright",
                 f"./opt/logitscope/_internal/models/{DEMO_FILE_NAME}"):
        assert path in paths, path
    assert any(line.endswith("./usr/bin/logitscope -> /opt/logitscope/Logitscope") for line in lines)
    control = subprocess.run(["dpkg-deb", "-I", str(deb)], capture_output=True, text=True, check=True).stdout
    assert not re.search(r"\b(preinst|postinst|prerm|postrm)\b", control), "no maintainer scripts are needed"


def system_libraries(app_dir: Path) -> set[Path]:
    """Libraries the bundle's executables and libraries resolve outside the bundle (ldd, with the bundle's
    own folder first, as the frozen app runs)."""
    internal = app_dir / "_internal"
    env = dict(os.environ, LD_LIBRARY_PATH=str(internal))
    found: set[Path] = set()
    elves = [app_dir / "Logitscope", *[p for p in internal.rglob("*.so*") if p.is_file() and not p.is_symlink()]]
    for elf in elves:
        proc = subprocess.run(["ldd", str(elf)], capture_output=True, text=True, env=env)
        for match in re.finditer(r"=> (/\S+)", proc.stdout):
            path = Path(match.group(1)).resolve()
            if not path.is_relative_to(app_dir):
                found.add(path)
    return found


def test_the_deb_depends_on_every_package_the_bundle_takes_libraries_from(built: Artefacts):
    deb, app_dir = require(built.deb), require(built.app_dir)
    if not shutil.which("dpkg-query"):
        pytest.skip("needs dpkg-query (Debian)")
    declared = package_names(deb_field(deb, "Depends"))
    covered = set(declared)
    for package in declared:  # and what those pull in (libgl1 -> libglx0 -> libglvnd0 ...), two levels
        for _level in range(2):
            proc = subprocess.run(["dpkg-query", "-W", "-f=${Depends}, ${Pre-Depends}", package],
                                  capture_output=True, text=True)
            covered |= package_names(proc.stdout)
    owners: dict[str, set[str]] = {}
    for lib in system_libraries(app_dir):
        proc = subprocess.run(["dpkg", "-S", str(lib)], capture_output=True, text=True)
        if proc.returncode != 0:  # merged /usr: dpkg knows it under the other name
            proc = subprocess.run(["dpkg", "-S", str(lib).replace("/usr/lib/", "/lib/", 1)], capture_output=True, text=True)
        for package in {line.split(":")[0] for line in proc.stdout.splitlines()}:
            owners.setdefault(package, set()).add(lib.name)
    assert owners, "ldd found no system library at all: the check is broken"
    missing = {p: libs for p, libs in owners.items() if p not in covered}
    assert not missing, f"the bundle loads libraries from packages the .deb does not depend on: {missing}"
    if shutil.which("apt-get") and os.geteuid() == 0:
        proc = subprocess.run(["apt-get", "install", "--simulate", "-q", str(deb)], capture_output=True, text=True)
        assert proc.returncode == 0, f"the Depends cannot be met on this system:\n{proc.stdout}{proc.stderr}"


def dpkg_in(root: Path, log: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """dpkg on a throw-away root. --force-depends: that root has no other packages; --force-not-root:
    works as a user too; --force-script-chrootless: dpkg would chroot for (absent) maintainer scripts;
    --force-unsafe-io: no fsync per file, this root is thrown away."""
    return subprocess.run(["dpkg", f"--root={root}", f"--log={log}", "--force-not-root", "--force-depends",
                           "--force-script-chrootless", "--force-unsafe-io", *args], capture_output=True, text=True)


def test_the_deb_installs_runs_and_purges_without_a_trace(built: Artefacts, tmp_path: Path):
    deb = require(built.deb)
    root, log = tmp_path / "root", tmp_path / "dpkg.log"
    admin = root / "var" / "lib" / "dpkg"
    for folder in ("info", "updates", "triggers"):
        (admin / folder).mkdir(parents=True)
    (admin / "status").touch()

    proc = dpkg_in(root, log, "--install", str(deb))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    status = dpkg_in(root, log, "--status", "logitscope").stdout
    assert "Status: install ok installed" in status
    verify = dpkg_in(root, log, "--verify", "logitscope")
    assert verify.returncode == 0 and verify.stdout == "", verify.stdout + verify.stderr  # md5sums match
    app_dir = root / "opt" / "logitscope"
    assert os.readlink(root / "usr" / "bin" / "logitscope") == "/opt/logitscope/Logitscope"
    assert (root / "usr" / "share" / "applications" / "logitscope.desktop").is_file()

    home, shot = tmp_path / "home", tmp_path / "shot.png"
    proc = run([app_dir / "Logitscope", "--selftest", "--screenshot", shot], user_env(home), cwd=tmp_path)
    assert_selftest_ok(proc, app_dir, home, shot)

    proc = dpkg_in(root, log, "--purge", "logitscope")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    left = sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if not (p == admin or admin in p.parents or p in admin.parents))
    assert left == [], f"left behind after purge: {left[:20]}"
    assert "logitscope" not in (admin / "status").read_text()
