#!/usr/bin/env bash
# Prepares everything the app and its tests need, on a fresh Debian with Python 3.11:
# system libraries (installed with apt when run as root), the virtual environment in .venv, the app
# itself (editable), and the verified demo model. Quick when nothing changed. Sourced by scripts/run
# and scripts/test (which also fetches the tests' second model); safe to run by itself.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${LOGITSCOPE_VENV:-$ROOT/.venv}"
PYTHON="${PYTHON:-python3}"

say() { printf '[setup] %s\n' "$*" >&2; }

# Debian packages by the file they provide: a C/C++ toolchain (llama-cpp-python is built from source),
# the libraries Qt's offscreen and xcb platforms load, Xvfb for real windows, and a CJK font.
SYSTEM_NEEDS=(
  "cmd:c++:build-essential" "cmd:cmake:cmake" "cmd:git:git"
  "lib:libEGL.so.1:libegl1" "lib:libGL.so.1:libgl1" "lib:libOpenGL.so.0:libopengl0"
  "lib:libxkbcommon.so.0:libxkbcommon0" "lib:libxkbcommon-x11.so.0:libxkbcommon-x11-0"
  "lib:libfontconfig.so.1:libfontconfig1" "lib:libdbus-1.so.3:libdbus-1-3" "lib:libglib-2.0.so.0:libglib2.0-0"
  "lib:libxcb-cursor.so.0:libxcb-cursor0" "lib:libxcb-icccm.so.4:libxcb-icccm4"
  "lib:libxcb-keysyms.so.1:libxcb-keysyms1" "lib:libxcb-image.so.0:libxcb-image0"
  "lib:libxcb-render-util.so.0:libxcb-render-util0" "lib:libxcb-shape.so.0:libxcb-shape0"
  "lib:libxcb-xkb.so.1:libxcb-xkb1" "lib:libX11-xcb.so.1:libx11-xcb1"
  "cmd:Xvfb:xvfb" "cmd:xdotool:xdotool" "cmd:xwd:x11-apps" "font:Noto Sans CJK:fonts-noto-cjk" "font:Noto Color Emoji:fonts-noto-color-emoji"
)

missing_debs() {
  local spec kind what deb
  for spec in "${SYSTEM_NEEDS[@]}"; do
    IFS=: read -r kind what deb <<<"$spec"
    case $kind in
      cmd) command -v "$what" >/dev/null 2>&1 || echo "$deb" ;;
      lib) ldconfig -p 2>/dev/null | grep -q "$what " || echo "$deb" ;;
      # (grep -q would close the pipe early and, under pipefail, make fc-list look like it failed)
      font) { command -v fc-list >/dev/null && fc-list | grep -i "$what" >/dev/null; } || echo "$deb" ;;
    esac
  done
}

ensure_system_packages() {
  command -v apt-get >/dev/null 2>&1 || return 0   # not Debian: the README lists what to install
  local debs
  debs=$(missing_debs | sort -u | tr '\n' ' ')
  "$PYTHON" -c 'import ensurepip, venv' 2>/dev/null || debs+=" python3-venv"
  [ -z "${debs// /}" ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    say "installing Debian packages: $debs"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $debs >/dev/null
  else
    say "missing Debian packages: $debs"
    say "install them with: sudo apt-get install $debs"
  fi
}

ensure_python() {
  if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    say "Python 3.11 or newer is needed ($PYTHON is $("$PYTHON" --version 2>&1))"; exit 1
  fi
}

ensure_venv() {
  if [ ! -x "$VENV/bin/python" ]; then
    say "creating the virtual environment in $VENV"
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
  fi
  local stamp="$VENV/.logitscope-installed" want
  want=$(cat "$ROOT/pyproject.toml" | sha256sum | cut -c1-16)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing Logitscope and its dependencies (the first build of llama-cpp-python takes ~7 minutes;"
    say "set CMAKE_ARGS before, e.g. CMAKE_ARGS=-DGGML_CUDA=on, for a GPU build - see README)"
    "$VENV/bin/python" -m pip install -q -e "$ROOT[test]"
    echo "$want" >"$stamp"
  fi
}

ensure_bytecode() {
  # Python reads a module's cached bytecode but, under PYTHONDONTWRITEBYTECODE (set on some machines, CI's
  # among them), never writes it: every start would then compile the app's ~300 modules again (~0.1-0.25 s a
  # process, measured on 2 cores). Writing it here costs ~3 s once and well under a second after that (only
  # changed files); a file edited later is recompiled in memory, never read stale (the cache records its mtime).
  "$VENV/bin/python" -m compileall -q -j 0 "$ROOT/app" >/dev/null
}

ensure_demo_model() {
  "$VENV/bin/logitscope" models fetch-demo
}

ensure_python
ensure_system_packages
ensure_venv
ensure_bytecode
ensure_demo_model
"$VENV/bin/python" "$ROOT/scripts/i18n.py" build
