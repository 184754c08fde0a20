#!/usr/bin/env bash
# Start the real desktop app under Xvfb, open the bundled sample, ask a question without
# the language model, and save a PNG of the window (default: docs/screenshot.png).
#   bash installer/screenshot.sh [OUT.png]
# Env: HARP_LIBRARY (library to use; default: the user's), SCREENSHOT_QUESTION, SCREENSHOT_SIZE (WxH).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-docs/screenshot.png}
SAMPLE=resources/samples/consultation.flac
QUESTION=${SCREENSHOT_QUESTION:-"Does the patient report chest pain or tightness?"}
SIZE=${SCREENSHOT_SIZE:-1600x1000}
PY=.venv/bin/python
[ -x "$PY" ] || { echo "screenshot.sh: no .venv; run: bash installer/setup.sh" >&2; exit 1; }

if ! command -v Xvfb >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  echo "screenshot.sh: installing xvfb" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq xvfb >/dev/null
fi

LIB=${HARP_LIBRARY:-$("$PY" -c 'from harp_desktop.paths import default_library_dir; print(default_library_dir())')}
# Index first (a no-op when the sample is already indexed), so the window opens on a finished index.
.venv/bin/harp index "$SAMPLE" --library "$LIB"

# A free display number; the app gets a throwaway settings folder so saved window
# geometry or options from real use do not change the picture.
N=99
while [ -e "/tmp/.X11-unix/X$N" ] || [ -e "/tmp/.X$N-lock" ]; do N=$((N + 1)); done
CONFIG=$(mktemp -d)
Xvfb ":$N" -screen 0 "${SIZE}x24" -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
trap 'kill "$XVFB" 2>/dev/null || true; rm -rf "$CONFIG"' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$N" ] && break; sleep 0.1; done

mkdir -p "$(dirname "$OUT")"
DISPLAY=":$N" QT_QPA_PLATFORM=xcb XDG_CONFIG_HOME="$CONFIG" timeout 300 \
  "$PY" -m harp_desktop.ui "$SAMPLE" --library "$LIB" --ask "$QUESTION" --no-llm --screenshot "$OUT"
echo "screenshot.sh: wrote $OUT"
