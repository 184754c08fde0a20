#!/usr/bin/env bash
# Build the one-folder desktop bundle: dist/HARP-Desktop/ with `harp-desktop` (GUI),
# `harp` (CLI), models/ (verified weights, beside the executables), a .desktop entry and
# its icon. Needs the .venv of installer/setup.sh (with the `bundle` extra).
#
# A finished bundle is cached outside the repository under a key made of everything that
# goes into it (pinned packages, sources, resources, manifest, spec, these scripts), so
# an unchanged tree (e.g. the next CI run) reuses it in seconds:
#   ${HARP_BUNDLE_CACHE:-~/.cache/harp-desktop/bundle}/<key>/HARP-Desktop
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/pyinstaller ] || { echo "build: PyInstaller is not in .venv; run: bash installer/setup.sh" >&2; exit 1; }

key=$(
  {
    sha256sum pyproject.toml installer/constraints.txt installer/requirements-nodeps.txt installer/harp.spec \
      installer/build.sh installer/harp_entry.py installer/rthook_portaudio.py installer/place_models.py \
      installer/harp-desktop.desktop installer/install-desktop-entry.sh
    find harp_desktop resources models -type f ! -name '*.pyc' ! -path '*/__pycache__/*' -print0 | sort -z \
      | xargs -0 sha256sum
    uname -sm
  } | sha256sum | cut -c1-16
)
cache_root=${HARP_BUNDLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/harp-desktop/bundle}
cached="$cache_root/$key/HARP-Desktop"
mkdir -p "$cache_root"

if [ -f "$cache_root/$key/complete" ]; then
  echo "build: reusing cached bundle $key"
else
  start=$(date +%s)
  work=$(mktemp -d "$cache_root/.build-XXXXXX")
  trap 'rm -rf "$work"' EXIT
  echo "build: PyInstaller (a few minutes)..."
  .venv/bin/pyinstaller --noconfirm --log-level WARN \
    --distpath "$work/dist" --workpath "$work/build" installer/harp.spec
  out="$work/dist/HARP-Desktop"
  # Weights beside the executables; the temporary HARP_DATA keeps the builder's own
  # data folder out of it.
  HARP_DATA="$work/data" .venv/bin/python installer/place_models.py "$out/models"
  cp installer/harp-desktop.desktop resources/icons/harp-desktop.svg installer/install-desktop-entry.sh "$out/"
  "$out/harp" --help >/dev/null  # the frozen CLI starts at all
  mkdir -p "$cache_root/$key"
  if mv -T "$out" "$cached" 2>/dev/null; then
    touch "$cache_root/$key/complete"
  fi  # else another build of the same key finished first: use that one
  echo "build: built in $(( $(date +%s) - start )) s"
  # Keep the two newest bundles; each is ~2 GB.
  ls -1dt "$cache_root"/*/ 2>/dev/null | tail -n +3 | while read -r old; do rm -rf "$old"; done
fi

rm -rf dist/HARP-Desktop
mkdir -p dist
# Hard links: instant and no second copy; nothing writes inside the bundle at run time.
cp -al "$cached" dist/HARP-Desktop 2>/dev/null || cp -a "$cached" dist/HARP-Desktop
echo "build: dist/HARP-Desktop ($(du -sh dist/HARP-Desktop | cut -f1))"
