#!/usr/bin/env bash
# macOS build of Logitscope: Logitscope.app (the same spec, with BUNDLE), ad-hoc signed, in a .dmg.
# NOT run in this repository's CI (Linux only); see packaging/README.md. Needs Python 3.11, Xcode's command
# line tools and CMake; create-dmg (brew install create-dmg) is used when present, hdiutil otherwise.
# Apple Silicon builds llama.cpp with Metal by default.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
[ -x .venv/bin/python ] || python3.11 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[package]"          # compiles llama.cpp (Metal on arm64)
.venv/bin/logitscope models fetch-demo
PATH="$ROOT/.venv/bin:$PATH" .venv/bin/pyinstaller --noconfirm packaging/logitscope.spec

APP="dist/Logitscope.app"
VERSION=$(.venv/bin/python -c 'import logitscope; print(logitscope.__version__)')
# Ad-hoc signature: enough for Apple Silicon to run it on this Mac and for Gatekeeper to show "unidentified
# developer" (right-click > Open) elsewhere. The spec copies resources/ after BUNDLE, so sign last.
codesign --force --deep -s - "$APP"
codesign --verify --deep --strict "$APP"
"$APP/Contents/MacOS/Logitscope" --selftest --screenshot dist/selftest-macos.png

DMG="dist/Logitscope-$VERSION-macos-$(uname -m).dmg"
rm -f "$DMG"
if command -v create-dmg >/dev/null; then
  create-dmg --volname "Logitscope $VERSION" --app-drop-link 450 180 --icon "Logitscope.app" 150 180 \
    --window-size 600 360 "$DMG" "$APP"
else
  staging=$(mktemp -d)
  cp -R "$APP" "$staging/"
  ln -s /Applications "$staging/Applications"
  hdiutil create -volname "Logitscope $VERSION" -srcfolder "$staging" -ov -format UDZO "$DMG"
  rm -rf "$staging"
fi
echo "built $DMG"
