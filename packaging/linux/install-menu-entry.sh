#!/bin/sh
# Adds Logitscope to your desktop's application menu (for you only; no root needed).
# Remove it again with:  ./install-menu-entry.sh --remove
set -eu
here=$(dirname "$(readlink -f "$0")")
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor"
if [ "${1:-}" = "--remove" ]; then
  rm -f "$apps/logitscope.desktop" "$icons/256x256/apps/logitscope.png" "$icons/scalable/apps/logitscope.svg"
  echo "Logitscope removed from the menu."
  exit 0
fi
mkdir -p "$apps" "$icons/256x256/apps" "$icons/scalable/apps"
cp "$here/logitscope.png" "$icons/256x256/apps/logitscope.png"
cp "$here/logitscope.svg" "$icons/scalable/apps/logitscope.svg"
sed -e "s|^Exec=.*|Exec=\"$here/logitscope\"|" "$here/logitscope.desktop" >"$apps/logitscope.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$apps" || true
echo "Logitscope is in your application menu (the entry starts $here/logitscope)."
