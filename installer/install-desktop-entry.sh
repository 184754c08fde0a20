#!/usr/bin/env sh
# Add HARP Desktop to this user's application menu (Linux; freedesktop.org entry).
# Shipped inside dist/HARP-Desktop/; run it from there after moving the folder to its
# final place. Writes only under ~/.local/share (or $XDG_DATA_HOME).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
mkdir -p "$data/applications" "$data/icons/hicolor/scalable/apps"
cp "$here/harp-desktop.svg" "$data/icons/hicolor/scalable/apps/harp-desktop.svg"
# The entry names the executable by its absolute path: the bundle is not on PATH.
sed -e "s|^Exec=harp-desktop|Exec=\"$here/harp-desktop\"|" -e "s|^TryExec=harp-desktop|TryExec=$here/harp-desktop|" \
  "$here/harp-desktop.desktop" > "$data/applications/harp-desktop.desktop.tmp"
mv "$data/applications/harp-desktop.desktop.tmp" "$data/applications/harp-desktop.desktop"
echo "HARP Desktop added to the application menu ($data/applications/harp-desktop.desktop)"
