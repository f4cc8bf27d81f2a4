#!/bin/sh
# Adds this unpacked Baton to your desktop's application menu and to ~/.local/bin, for you only (no root).
# Baton itself runs from this folder; keep it where it is, or run this again after moving it.
#   ./install.sh              install the menu entry, the icon and the `baton` command
#   ./install.sh --uninstall  remove them again (this folder and your sessions stay)
set -eu

here="$(cd "$(dirname "$0")" && pwd -P)"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
bin="$HOME/.local/bin"
entry="$data/applications/baton.desktop"
icon="$data/icons/hicolor/256x256/apps/baton.png"

if [ "${1:-}" = "--uninstall" ]; then
  rm -f "$entry" "$icon"
  # Only remove the command if it is ours (a link into a Baton folder).
  if [ -L "$bin/baton" ]; then rm -f "$bin/baton"; fi
  echo "Baton's menu entry and command were removed."
  exit 0
fi

[ -x "$here/baton" ] && [ -x "$here/baton-sidecar" ] || { echo "install.sh: run it from the unpacked Baton folder" >&2; exit 1; }
mkdir -p "$(dirname "$entry")" "$(dirname "$icon")" "$bin"
cp "$here/baton.png" "$icon"
# The menu entry starts this folder's baton by its full path, so it works whether or not ~/.local/bin is on PATH.
sed "s|^Exec=.*|Exec=\"$here/baton\"|" "$here/baton.desktop" > "$entry"
# A link, not a copy: Baton finds its sidecar beside the real file.
ln -sfn "$here/baton" "$bin/baton"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$(dirname "$entry")" >/dev/null 2>&1 || true
echo "Baton is in your application menu; \`baton\` runs it from a terminal (if ~/.local/bin is on your PATH)."
